# The entropy of a Multinomial (PyTorch sums over a Binomial's support), its gradient, and the
# same quantity for logits in float64.
import torch
from torch.distributions import Multinomial

torch.set_printoptions(precision=8)
m = Multinomial(10, torch.tensor([1., 1., 1., 1.]))
print(m.entropy())

p = torch.tensor([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]], requires_grad=True)
h = Multinomial(7, probs=p).entropy()
print(h)
h.sum().backward()
print(p.grad)

logits = torch.tensor([0.3, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
h = Multinomial(25, logits=logits).entropy()
h.backward()
print(h, logits.grad)
print(Multinomial(1, torch.tensor([0.5, 0.5])).entropy())
print(Multinomial(3, torch.tensor([0.9, 0.1])).perplexity())
