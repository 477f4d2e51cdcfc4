# The Gumbel-max trick: argmax(logits + Gumbel noise) samples a category; the noise's
# distribution object, its moments, and cdf / icdf of transformed distributions.
import torch
from torch.distributions import Gumbel, Normal, TransformedDistribution, Uniform
from torch.distributions.transforms import AffineTransform, ExpTransform, SigmoidTransform

torch.manual_seed(7)
logits = torch.tensor([1.0, 0.5, -0.5, 2.0])
noise = Gumbel(torch.zeros(4), torch.ones(4))
print(noise, type(noise).__name__, noise.batch_shape, noise.has_rsample)
counts = torch.zeros(4)
for _ in range(200):
    counts[torch.argmax(logits + noise.sample())] += 1
print(counts / 200, torch.softmax(logits, 0))

loc = torch.tensor([0.5, -1.0], requires_grad=True)
scale = torch.tensor([1.5, 0.3], requires_grad=True)
g = Gumbel(loc, scale)
x = g.rsample((3,))
print(x)
lp = g.log_prob(x)
print(lp, g.mean, g.mode, g.stddev, g.variance, g.entropy())
lp.sum().backward()
print(loc.grad, scale.grad)
print(g.cdf(torch.tensor([0.0, 0.2])), g.icdf(torch.tensor([0.3, 0.9])))
plain = Gumbel(0.0, 1.0)
print(plain, plain.sample((2,)), plain.log_prob(torch.tensor(0.3)))

lognormal_like = TransformedDistribution(Normal(0.0, 1.0), [AffineTransform(1.0, -2.0), ExpTransform()])
print(lognormal_like.cdf(torch.tensor([0.5, 2.0, 7.0])), lognormal_like.icdf(torch.tensor([0.1, 0.5, 0.9])))
logistic = TransformedDistribution(Uniform(0.0, 1.0), [SigmoidTransform().inv])
print(logistic.cdf(torch.tensor([-1.0, 0.0, 2.0])), logistic.icdf(torch.tensor([0.25, 0.5])))
print(Uniform(2.0, 4.0).icdf(torch.tensor([0.0, 0.25, 1.0])))
try:
    Gumbel(torch.tensor([0.0]), torch.tensor([-1.0]))
except ValueError as e:
    print(e)
