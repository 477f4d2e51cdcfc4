# Building distributions from a base one and transforms: a log-normal made by hand, a squashed
# Gaussian policy (tanh of a Normal, as soft actor-critic writes it), a logit-normal, a scaled
# and shifted Independent Normal, and the cache that lets a sample's log_prob skip the inverse.
import torch
import torch.distributions as D
from torch.distributions.transforms import (
    AffineTransform,
    ExpTransform,
    PowerTransform,
    SigmoidTransform,
    TanhTransform,
)

torch.manual_seed(3)

mu = torch.tensor([0.2, -0.5, 1.0], requires_grad=True)
log_std = torch.tensor([-0.3, 0.1, 0.4], requires_grad=True)

by_hand = D.TransformedDistribution(D.Normal(mu, log_std.exp()), [ExpTransform()])
builtin = D.LogNormal(mu, log_std.exp())
v = torch.tensor([0.5, 1.5, 3.0])
print(by_hand, by_hand.batch_shape, by_hand.event_shape)
print(by_hand.log_prob(v), builtin.log_prob(v))
by_hand.log_prob(v).sum().backward()
print(mu.grad, log_std.grad)
mu.grad = log_std.grad = None

# tanh-squashed Gaussian: rsample is differentiable, log_prob corrects for the squashing
policy = D.TransformedDistribution(D.Normal(mu, log_std.exp()), [TanhTransform(cache_size=1)])
action = policy.rsample()
logp = policy.log_prob(action)
print(action, logp)
(logp.sum() - action.sum()).backward()
print(mu.grad, log_std.grad)
mu.grad = log_std.grad = None

# the same without the cache: log_prob inverts tanh (atanh) and differentiates through it
policy0 = D.TransformedDistribution(D.Normal(mu, log_std.exp()), TanhTransform())
a0 = policy0.rsample((2,))
print(a0.shape, policy0.log_prob(a0))

# logit-normal, and a chain of transforms applied in order
logit_normal = D.TransformedDistribution(D.Normal(0.0, 1.0), [SigmoidTransform()])
s = logit_normal.sample((4,))
print(s, logit_normal.log_prob(s))
chain = D.TransformedDistribution(
    D.Normal(torch.zeros(2), torch.ones(2)),
    [AffineTransform(1.0, 2.0), ExpTransform(), PowerTransform(torch.tensor(0.5))],
)
c = chain.sample((3,))
print(c, chain.log_prob(c))
print(chain.transforms)

# an affine map with tensor parameters, negative scale, and event_dim=1 over an Independent
loc = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
scale = torch.tensor([2.0, -0.5, 3.0], requires_grad=True)
base = D.Independent(D.Normal(torch.zeros(4, 3), torch.ones(4, 3)), 1)
moved = D.TransformedDistribution(base, AffineTransform(loc, scale, event_dim=1))
print(moved.batch_shape, moved.event_shape)
x = moved.rsample()
lp = moved.log_prob(x)
print(lp)
lp.sum().backward()
print(loc.grad, scale.grad)

# KL between two transforms of one kind: the KL of their bases
p = D.TransformedDistribution(D.Normal(mu.detach(), 1.0), [AffineTransform(0.0, 3.0)])
q = D.TransformedDistribution(D.Normal(torch.zeros(3), 2.0), [AffineTransform(0.0, 3.0)])
print(D.kl_divergence(p, q))

# the cache: with cache_size=1 a sample's log_prob reuses the x it came from
power = torch.tensor(3.0, requires_grad=True)
for size in (0, 1):
    torch.manual_seed(11)
    d = D.TransformedDistribution(D.Exponential(2.0), PowerTransform(power, cache_size=size))
    z = d.sample()
    out = d.log_prob(z)
    out.backward()
    print(size, z, out, power.grad)
    power.grad = None

try:
    PowerTransform(2.0, cache_size=2)
except ValueError as e:
    print("ValueError:", e)
try:
    logit_normal.log_prob(torch.tensor(1.5))
except ValueError as e:
    print("ValueError:", e)
