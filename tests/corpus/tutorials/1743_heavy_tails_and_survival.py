# Heavy-tailed priors and survival-time models: a half-Cauchy prior on a scale, a Pareto for
# incomes, a Weibull for failure times fitted by maximum likelihood, a Kumaraswamy for rates.
import torch
from torch.distributions import HalfCauchy, Kumaraswamy, Pareto, Weibull

torch.manual_seed(11)

tau = HalfCauchy(torch.tensor(1.0))
print(tau, tau.support, tau.mean, tau.entropy())
draws = tau.sample((5,))
print(draws, tau.log_prob(draws))
print(tau.cdf(torch.tensor([0.5, 1.0, 10.0])), tau.icdf(torch.tensor([0.25, 0.5, 0.75])))

income = Pareto(scale=torch.tensor(20000.0), alpha=torch.tensor(2.5))
print(income, income.mean, income.variance, income.mode)
print(income.sample((4,)))
print(income.log_prob(torch.tensor([25000.0, 100000.0])))

# fit a Weibull to failure times by gradient ascent on the log-likelihood
times = torch.tensor([0.8, 1.7, 2.2, 0.4, 3.1, 1.2, 2.6, 1.9], dtype=torch.float64)
log_scale = torch.zeros((), dtype=torch.float64, requires_grad=True)
log_k = torch.zeros((), dtype=torch.float64, requires_grad=True)
opt = torch.optim.SGD([log_scale, log_k], lr=0.05)
for step in range(60):
    model = Weibull(log_scale.exp(), log_k.exp())
    nll = -model.log_prob(times).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 20 == 0:
        print(
            step, round(nll.item(), 6), round(log_scale.grad.item(), 6), round(log_k.grad.item(), 6)
        )
fitted = Weibull(log_scale.exp(), log_k.exp())
print(fitted.scale.item(), fitted.concentration.item(), fitted.mean.item(), fitted.entropy().item())

# reparameterized draws carry gradients back to the shape parameters
a = torch.tensor([2.0, 0.5], requires_grad=True)
b = torch.tensor([3.0, 0.5], requires_grad=True)
k = Kumaraswamy(a, b)
x = k.rsample((3,))
x.mean().backward()
print(x, a.grad, b.grad)
print(k.mean, k.variance, k.entropy())
