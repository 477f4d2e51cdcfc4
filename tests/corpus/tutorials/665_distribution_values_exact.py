# Every digit of float32 results from torch.distributions (tolist() shows a float32 value
# exactly): densities, entropies, draws, KL divergences and gradients, as a check that the
# formulas run in PyTorch's order. (Results through a float32 Cholesky factorisation or
# lgamma / digamma are printed to 4 digits: LAPACK's and libm's last bits vary by build.)
import torch
import torch.distributions as D

torch.manual_seed(21)
loc = torch.randn(3, requires_grad=True)
A = torch.randn(3, 3)
cov = A @ A.T + 0.5 * torch.eye(3)
mvn = D.MultivariateNormal(loc, covariance_matrix=cov)
x = mvn.rsample((4,))
lp = mvn.log_prob(x)
print(x)
print(lp.tolist(), mvn.entropy().item())
lp.sum().backward()
print(loc.grad.tolist())
print(mvn.variance, mvn.scale_tril)
prec = D.MultivariateNormal(torch.zeros(3), precision_matrix=cov)
print(prec.scale_tril, prec.log_prob(x))
print(D.kl_divergence(mvn, prec))
tril = torch.tril(torch.rand(2, 3, 3)) + torch.eye(3)
bmvn = D.MultivariateNormal(torch.randn(5, 1, 3), scale_tril=tril)
print(bmvn.log_prob(torch.randn(5, 2, 3)).tolist())

rate = torch.rand(4) + 0.5
v = torch.rand(4) * 3
for d in [
    D.Exponential(rate),
    D.Laplace(v, rate),
    D.LogNormal(v - 1, rate),
    D.Cauchy(v, rate),
    D.HalfNormal(rate),
    D.Normal(v, rate),
]:
    print(type(d).__name__, d.log_prob(v + 0.1).tolist(), d.entropy().tolist())
    print(d.mean.tolist(), d.variance.tolist())
for d in [D.Exponential(rate), D.Laplace(v, rate), D.Cauchy(v, rate), D.LogNormal(v, rate)]:
    print(d.cdf(v + 0.2).tolist(), d.rsample().tolist())
print(D.Poisson(rate * 3).log_prob(torch.tensor([0.0, 1.0, 4.0, 9.0])).tolist())
g = D.Gamma(rate * 2, rate)
print(g.log_prob(v + 0.1), g.entropy(), g.mean.tolist(), g.variance.tolist())
print(D.Beta(rate, rate + 1).log_prob(v / 4), D.Beta(rate, rate + 1).entropy())
conc = torch.rand(2, 3) + 0.5
simplex = torch.softmax(torch.randn(2, 3), -1)
print(D.Dirichlet(conc).log_prob(simplex), D.Dirichlet(conc).entropy())
print(D.kl_divergence(D.Gamma(rate, rate), D.Gamma(rate + 1, rate * 2)))
print(D.kl_divergence(D.Beta(rate, rate + 1), D.Beta(rate + 1, rate)))
print(D.kl_divergence(D.Dirichlet(conc), D.Dirichlet(conc.flip(-1))))
print(D.kl_divergence(D.Laplace(v, rate), D.Laplace(0.0, 1.0)).tolist())
print(D.kl_divergence(D.Exponential(rate), D.Exponential(rate.flip(0))).tolist())
print(D.Geometric(rate / 2).log_prob(torch.tensor([0.0, 1.0, 2.0, 7.0])).tolist())
print(D.Geometric(rate / 2).entropy().tolist(), D.Bernoulli(logits=v * 5).entropy().tolist())
ind = D.Independent(D.Normal(v, rate), 1)
print(ind.log_prob(v.flip(0)).item(), ind.entropy().item())
