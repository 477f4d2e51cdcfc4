# Robust regression with a Cauchy likelihood (outliers barely move the fit), a HalfNormal
# prior on a noise scale, a Geometric model of the number of failures before a success, and a
# OneHotCategorical over the components of a small Gaussian mixture.
import torch
from torch.distributions import Cauchy, Geometric, HalfNormal, Normal, OneHotCategorical

torch.manual_seed(9)
x = torch.linspace(-2, 2, 25)
y = 1.5 * x + 0.3 + 0.1 * torch.randn(25)
y[3] += 8.0
y[17] -= 6.0

for name, make in [("normal", lambda m: Normal(m, 0.5)), ("cauchy", lambda m: Cauchy(m, 0.5))]:
    w = torch.zeros(2, requires_grad=True)
    opt = torch.optim.Adam([w], lr=0.05)
    for step in range(150):
        loss = -make(w[0] * x + w[1]).log_prob(y).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(name, w.detach(), loss.item())

c = Cauchy(torch.tensor([0.0, 2.0]), torch.tensor([1.0, 0.25]))
print(c, c.sample((3,)), c.cdf(torch.tensor(1.0)), c.icdf(torch.tensor(0.75)), c.entropy())
print(c.mean, c.variance, c.mode)

prior = HalfNormal(torch.tensor(1.0))
sigma = torch.tensor(0.4, requires_grad=True)
lp = prior.log_prob(sigma) + Normal(0.0, sigma).log_prob(torch.tensor([0.1, -0.3, 0.5])).sum()
lp.backward()
print(prior, lp, sigma.grad)
print(prior.mean, prior.variance, prior.entropy(), prior.cdf(torch.tensor(1.0)), prior.rsample((4,)))

failures = Geometric(torch.tensor(0.3)).sample((12,))
print(failures)
p_logit = torch.zeros((), requires_grad=True)
opt = torch.optim.SGD([p_logit], lr=0.5)
for step in range(30):
    loss = -Geometric(logits=p_logit).log_prob(failures).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
g = Geometric(logits=p_logit.detach())
print("p:", g.probs.item(), "mle:", 1 / (1 + failures.mean().item()))
print(g, g.mean, g.variance, g.entropy())

weights = OneHotCategorical(probs=torch.tensor([0.5, 0.3, 0.2]))
means = torch.tensor([-2.0, 0.0, 3.0])
z = weights.sample((6,))
print(z)
samples = Normal(z @ means, 0.5).sample()
print(samples)
print(weights.log_prob(z), weights.entropy(), weights.mode, weights.batch_shape, weights.event_shape)
# the mixture's log-density by log-sum-exp over the components
comp = Normal(means, 0.5).log_prob(samples.unsqueeze(-1)) + weights.probs.log()
print(torch.logsumexp(comp, -1))
try:
    Geometric(torch.tensor([0.0, 0.5]))
except ValueError as e:
    print("ValueError:", e)
