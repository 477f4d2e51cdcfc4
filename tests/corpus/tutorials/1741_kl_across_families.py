# KL divergences between different families: a Gaussian posterior against a Laplace prior,
# a uniform guess against a Gaussian, a waiting-time model against a Gamma, and what happens
# when the supports do not match.
import torch
import torch.distributions as dist
from torch.distributions import kl_divergence

mu = torch.tensor([0.0, 0.5, -1.5], requires_grad=True)
log_sigma = torch.tensor([0.0, -0.7, 0.4], requires_grad=True)
posterior = dist.Normal(mu, log_sigma.exp())
prior = dist.Laplace(torch.zeros(3), torch.ones(3))
kl = kl_divergence(posterior, prior)
print("Normal || Laplace:", kl)
kl.sum().backward()
print(mu.grad, log_sigma.grad)

print("Laplace || Normal:", kl_divergence(prior, dist.Normal(0.3, 2.0)))
print(
    "Uniform || Normal:",
    kl_divergence(dist.Uniform(-1.0, torch.tensor([1.0, 3.0])), dist.Normal(0.0, 1.0)),
)
print("Normal || Gumbel:", kl_divergence(dist.Normal(0.0, 1.0), dist.Gumbel(0.5, 2.0)))

rate = torch.tensor(1.5, requires_grad=True)
k = kl_divergence(dist.Exponential(rate), dist.Gamma(torch.tensor(2.0), torch.tensor(1.0)))
k.backward()
print("Exponential || Gamma:", k.item(), rate.grad.item())
print("Gamma || Exponential:", kl_divergence(dist.Gamma(3.0, 2.0), dist.Exponential(0.5)))
print("Chi2 || Gamma:", kl_divergence(dist.Chi2(torch.tensor([2.0, 4.0])), dist.Gamma(1.0, 0.5)))

# supports that do not cover each other give inf
b = dist.Beta(torch.tensor([2.0, 2.0]), torch.tensor([3.0, 3.0]))
print(
    "Beta || Uniform:",
    kl_divergence(b, dist.Uniform(torch.tensor([0.0, 0.2]), torch.tensor([1.0, 1.0]))),
)
print("Normal || Exponential:", kl_divergence(dist.Normal(0.0, 1.0), dist.Exponential(1.0)))
print(
    "Uniform || Uniform:",
    kl_divergence(dist.Uniform(0.0, 2.0), dist.Uniform(torch.tensor([-1.0, 0.5]), 3.0)),
)

# two binomials with the same number of trials; more trials in p than in q gives inf
print(
    "Binomial || Binomial:",
    kl_divergence(
        dist.Binomial(10, torch.tensor([0.2, 0.7])),
        dist.Binomial(torch.tensor([10.0, 6.0]), torch.tensor([0.3, 0.5])),
    ),
)

# a low-rank-plus-diagonal Gaussian against a full one (float64)
lr = dist.LowRankMultivariateNormal(
    torch.zeros(3, dtype=torch.float64),
    torch.tensor([[0.5], [0.2], [-0.4]], dtype=torch.float64),
    torch.tensor([1.0, 0.5, 2.0], dtype=torch.float64),
)
full = dist.MultivariateNormal(
    torch.zeros(3, dtype=torch.float64), torch.eye(3, dtype=torch.float64)
)
print("LowRank || MVN:", kl_divergence(lr, full), "MVN || LowRank:", kl_divergence(full, lr))

for p, q in [
    (dist.Normal(0.0, 1.0), dist.StudentT(3.0)),
    (dist.Normal(0.0, 1.0), dist.Poisson(2.0)),
    (dist.Binomial(3, torch.tensor(0.5)), dist.Binomial(5, torch.tensor(0.5))),
]:
    try:
        kl_divergence(p, q)
    except NotImplementedError as e:
        print(type(e).__name__, e)
