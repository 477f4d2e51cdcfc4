# A closed-form KL for a pair PyTorch does not register (Laplace vs Normal), added with
# register_kl, then used in a tiny variational fit; a subclass (Chi2 of Gamma) reaches a pair
# registered for its base, and a program's own distribution class gets a pair of its own.
import math

import torch
import torch.distributions as dist
from torch.distributions.kl import kl_divergence, register_kl


@register_kl(dist.Laplace, dist.Normal)
def laplace_vs_normal(p, q):
    # E_p[log p - log q] for p = Laplace(m, b), q = Normal(mu, s)
    second_moment = 2 * p.scale**2 + (p.loc - q.loc) ** 2
    return (
        -torch.log(2 * p.scale)
        - 1.0
        + torch.log(q.scale)
        + 0.5 * math.log(2 * math.pi)
        + second_moment / (2 * q.scale**2)
    )


loc = torch.tensor([0.3, -0.8], dtype=torch.float64, requires_grad=True)
log_b = torch.tensor([0.0, 0.5], dtype=torch.float64, requires_grad=True)
prior = dist.Normal(torch.zeros(2, dtype=torch.float64), torch.ones(2, dtype=torch.float64))
opt = torch.optim.SGD([loc, log_b], lr=0.2)
for step in range(4):
    opt.zero_grad()
    kl = kl_divergence(dist.Laplace(loc, log_b.exp()), prior).sum()
    kl.backward()
    opt.step()
    print(step, round(kl.item(), 6), loc.grad, log_b.grad)

# a Monte Carlo check of the closed form
torch.manual_seed(0)
p = dist.Laplace(torch.tensor(0.2, dtype=torch.float64), torch.tensor(0.7, dtype=torch.float64))
q = dist.Normal(torch.tensor(0.0, dtype=torch.float64), torch.tensor(1.5, dtype=torch.float64))
x = p.sample((20000,))
print(round(kl_divergence(p, q).item(), 4), round((p.log_prob(x) - q.log_prob(x)).mean().item(), 2))


@register_kl(dist.Gamma, dist.Normal)
def gamma_vs_normal(p, q):
    return p.concentration * 0 + 42.0


print(kl_divergence(dist.Chi2(torch.tensor([2.0, 3.0])), dist.Normal(0.0, 1.0)))


class PointMass(dist.Distribution):
    arg_constraints = {}

    def __init__(self, at):
        self.at = at
        super().__init__(batch_shape=at.shape)


@register_kl(PointMass, dist.Normal)
def point_vs_normal(p, q):
    return -q.log_prob(p.at)


at = torch.tensor([0.0, 1.0], requires_grad=True)
kl = kl_divergence(PointMass(at), dist.Normal(0.5, 2.0))
kl.sum().backward()
print(kl, at.grad)

try:
    kl_divergence(dist.Normal(0.0, 1.0), PointMass(torch.tensor(1.0)))
except NotImplementedError as e:
    print(e)

register_kl(dist.Beta, dist.Beta)(0.5)
try:
    kl_divergence(dist.Beta(1.0, 2.0), dist.Beta(2.0, 2.0))
except TypeError as e:
    print(e)
try:
    register_kl("Laplace", dist.Normal)
except TypeError as e:
    print(e)
