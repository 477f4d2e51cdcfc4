# Word counts of short documents from a topic's word distribution: Multinomial samples and
# their log-likelihood, differentiated with respect to the topic logits.
import torch
import torch.distributions as D

torch.manual_seed(2)
topic_logits = torch.tensor([[1.0, 0.2, -0.5, 0.0], [-1.0, 0.5, 1.5, 0.3]], requires_grad=True)
docs = D.Multinomial(12, logits=topic_logits)
counts = docs.sample((2,))
print(counts, counts.sum(-1))
ll = docs.log_prob(counts)
print(ll)
ll.sum().backward()
print(topic_logits.grad)
print(docs.mean, docs.variance)
print(docs, docs.batch_shape, docs.event_shape, docs.has_rsample)

uniform = D.Multinomial(probs=torch.tensor([1.0, 1.0, 1.0, 1.0]))
print(uniform.log_prob(torch.tensor([0.0, 1.0, 0.0, 0.0])))
try:
    uniform.log_prob(torch.tensor([2.0, 1.0, 0.0, 0.0]))
except ValueError as e:
    print("ValueError:", e)

for d in (D.LogNormal(0.0, 1.0), D.HalfNormal(1.0), D.Normal(0.0, 1.0), docs):
    print(type(d).__name__, isinstance(d, D.TransformedDistribution))
