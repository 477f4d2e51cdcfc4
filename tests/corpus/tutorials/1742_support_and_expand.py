# Inspecting what a distribution accepts (support, arg_constraints) and broadcasting a prior
# over a batch with expand, as Bayesian-layer code does.
import torch
import torch.distributions as D
from torch.distributions import constraints

torch.manual_seed(3)

for d in [
    D.Normal(0.0, 1.0),
    D.Gamma(2.0, 1.0),
    D.Beta(1.0, 2.0),
    D.Bernoulli(0.3),
    D.Categorical(torch.ones(4)),
    D.Dirichlet(torch.ones(3)),
    D.Poisson(2.0),
    D.Uniform(-1.0, 1.0),
    D.LogNormal(0.0, 1.0),
    D.MultivariateNormal(torch.zeros(2), torch.eye(2)),
]:
    s = d.support
    print(f"{type(d).__name__:20s} {s}  discrete={s.is_discrete} event_dim={s.event_dim}")

print(D.StudentT(3.0).arg_constraints)
print(
    D.Gamma(2.0, 1.0).support is constraints.nonnegative,
    D.Normal(0.0, 1.0).support is constraints.real,
)

x = torch.tensor([-0.5, 0.0, 0.25, 1.0, 3.0])
print(D.Exponential(1.0).support.check(x))
print(D.Beta(2.0, 2.0).support.check(x))
print(D.Poisson(1.0).support.check(x))
print(constraints.interval(0.0, 1.0).check(x), constraints.positive.check(x))

# a standard-normal prior over a 3 x 2 weight matrix
prior = D.Normal(torch.tensor(0.0), torch.tensor(1.0)).expand((3, 2))
print(prior, prior.batch_shape, prior.event_shape)
w = prior.sample()
print(w)
print(prior.log_prob(w).sum())

# independent over the weights: one log-density per draw
joint = D.Independent(D.Normal(torch.zeros(2), torch.ones(2)).expand([3, 2]), 2)
print(joint.batch_shape, joint.event_shape, joint.log_prob(w))

cat = D.Categorical(logits=torch.tensor([0.5, -0.5, 1.0])).expand(torch.Size([4]))
print(cat, cat.sample(), cat.log_prob(torch.tensor([0, 1, 2, 2])))
try:
    D.Normal(torch.zeros(2), 1.0).expand((3,))
except RuntimeError as e:
    print("RuntimeError:", e)

# unconstrained parameters mapped onto a support (as variational code keeps a raw tensor)
raw = torch.tensor([-2.0, 0.0, 1.5], requires_grad=True)
to_scale = constraints.positive
scale = D.transform_to(to_scale)(raw)
print(D.transform_to(to_scale), scale)
print(D.biject_to(D.Beta(2.0, 2.0).support)(raw), D.biject_to(constraints.simplex)(raw))
scale.sum().backward()
print(raw.grad)
