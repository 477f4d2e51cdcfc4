# log_prob and cdf take a tensor: a plain number is refused while validate_args is on (the
# default), and used as a tensor when the distribution was built with validate_args=False.
import torch
import torch.distributions as D

mu = torch.tensor([0.0, 1.0], requires_grad=True)
sigma = torch.tensor([1.0, 0.5])
normal = D.Normal(mu, sigma)
for value in (1.0, 2, torch.tensor(1.0)):
    try:
        lp = normal.log_prob(value)
        print(type(value).__name__, lp)
    except ValueError as err:
        print(type(value).__name__, "->", err)

for name, dist in [
    ("laplace", D.Laplace(mu, sigma)),
    ("expon", D.Exponential(sigma)),
    ("cat", D.Categorical(logits=torch.tensor([0.2, -0.3, 1.0]))),
]:
    for method in ("log_prob", "cdf")[: 1 if name == "cat" else 2]:
        try:
            print(name, method, getattr(dist, method)(1))
        except ValueError as err:
            print(name, method, type(err).__name__, err)

loose = D.Normal(mu, sigma, validate_args=False)
lp = loose.log_prob(0.5)
print(lp)
lp.sum().backward()
print(mu.grad)
positional = D.Laplace(torch.tensor(0.0), torch.tensor(2.0), False)
print(positional.log_prob(1.5), positional.cdf(-1.0))

for dist in (
    D.Categorical(probs=torch.tensor([0.5, 0.5])),
    D.Bernoulli(torch.tensor(0.3)),
    D.Poisson(torch.tensor(2.0)),
    D.Beta(torch.tensor(2.0), torch.tensor(3.0)),
):
    try:
        dist.cdf(torch.tensor(1.0))
    except NotImplementedError as err:
        print(type(dist).__name__, "has no cdf:", repr(str(err)))
