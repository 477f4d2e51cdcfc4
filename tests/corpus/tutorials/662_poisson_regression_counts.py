# Poisson regression for count data: the log of the rate is linear in the features, and the
# loss is the negative log-likelihood from torch.distributions.Poisson (its log_prob uses
# lgamma(k + 1), a constant here). Exponential waiting times and a Laplace (L1) likelihood
# are fitted the same way.
import torch
from torch.distributions import Exponential, Laplace, Poisson, LogNormal, kl_divergence

torch.manual_seed(5)
X = torch.randn(30, 2)
true_w = torch.tensor([0.8, -0.4])
counts = Poisson(torch.exp(X @ true_w + 0.5)).sample()
print(counts[:10])

w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w, b], lr=0.02)
for step in range(40):
    rate = torch.exp(X @ w + b)
    nll = -Poisson(rate).log_prob(counts).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step}: nll {nll.item():.5f}")
print(w, b)
print(Poisson(torch.tensor([2.0, 4.0])), Poisson(torch.tensor(3.0)).mode)
print(kl_divergence(Poisson(torch.tensor([1.0, 3.0])), Poisson(torch.tensor([2.0, 2.0]))))

waits = Exponential(torch.tensor(2.5)).sample((50,))
log_rate = torch.zeros((), requires_grad=True)
opt = torch.optim.Adam([log_rate], lr=0.1)
for step in range(30):
    loss = -Exponential(log_rate.exp()).log_prob(waits).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print("rate:", log_rate.exp().item(), "mle:", 1 / waits.mean().item())
e = Exponential(log_rate.exp())
print(e, e.mean, e.stddev, e.entropy(), e.cdf(torch.tensor([0.1, 1.0])), e.icdf(torch.tensor(0.5)))
print(e.rsample((3,)))

y = 2.0 + Laplace(0.0, 0.5).sample((40,))
loc = torch.zeros((), requires_grad=True)
opt = torch.optim.SGD([loc], lr=0.1)
for step in range(25):
    loss = -Laplace(loc, 0.5).log_prob(y).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print("laplace loc:", loc.item(), "median:", y.median().item())
lap = Laplace(loc.detach(), torch.tensor(0.5))
print(lap, lap.variance, lap.cdf(torch.tensor(2.0)), lap.icdf(torch.tensor([0.25, 0.75])))
print(kl_divergence(lap, Laplace(0.0, 1.0)))

ln = LogNormal(torch.tensor([0.0, 1.0]), torch.tensor([0.5, 0.25]))
s = ln.sample((4,))
print(ln, s, ln.log_prob(s), ln.mean, ln.variance, ln.entropy())
try:
    Poisson(torch.tensor([1.0, -2.0]))
except ValueError as e:
    print("ValueError:", e)
try:
    Exponential(1.0).log_prob(torch.tensor(-0.5))
except ValueError as e:
    print("ValueError:", e)
