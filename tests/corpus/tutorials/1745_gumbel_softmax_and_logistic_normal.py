# Differentiable discrete choices with the Gumbel-softmax (RelaxedOneHotCategorical), annealing
# the temperature, and topic proportions drawn from a logistic-normal.
import torch
import torch.nn.functional as F
from torch.distributions import LogisticNormal, RelaxedOneHotCategorical

torch.manual_seed(21)

logits = torch.tensor([[1.0, 0.2, -0.5, 0.0], [0.3, 0.3, 2.0, -1.0]], requires_grad=True)
values = torch.tensor([1.0, 2.0, 3.0, 4.0])
for temperature in [1.0, 0.5, 0.1]:
    dist = RelaxedOneHotCategorical(torch.tensor(temperature), logits=logits)
    y = dist.rsample()
    expected = (y * values).sum(-1)
    print(temperature, y.argmax(-1).tolist(), expected.detach().round(decimals=3))
loss = expected.sum()
loss.backward()
print(logits.grad.round(decimals=4))
print(dist, dist.batch_shape, dist.event_shape, dist.support)
print(dist.log_prob(torch.tensor([0.7, 0.1, 0.1, 0.1])).round(decimals=3))
hard = F.one_hot(y.argmax(-1), 4).float()
print(hard)

theta = LogisticNormal(torch.zeros(3), torch.tensor([1.0, 0.5, 2.0]))
print(theta, theta.batch_shape, theta.event_shape)
props = theta.sample((2,))
print(props, props.sum(-1))
print(theta.log_prob(props))
