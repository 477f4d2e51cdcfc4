# Sampling from Gamma, Beta and Dirichlet as Bayesian tutorials do: a Gamma-Poisson model of
# counts (draw rates, then counts), Thompson sampling for a two-armed bandit with Beta
# posteriors, and topic proportions drawn from a Dirichlet prior.
import torch
from torch.distributions import Beta, Dirichlet, Gamma, Poisson

torch.manual_seed(13)
rates = Gamma(torch.tensor(2.0), torch.tensor(0.5)).sample((6,))
counts = Poisson(rates).sample()
print(rates)
print(counts)
post = Gamma(2.0 + counts.sum(), 0.5 + len(counts))
print(post, post.mean, post.stddev)
print(post.rsample((3,)).tolist())

wins = torch.zeros(2)
losses = torch.zeros(2)
true_p = torch.tensor([0.35, 0.6])
for t in range(20):
    theta = Beta(1 + wins, 1 + losses).sample()
    arm = int(theta.argmax())
    reward = float(torch.rand(()) < true_p[arm])
    wins[arm] += reward
    losses[arm] += 1 - reward
print(wins, losses)
b = Beta(1 + wins, 1 + losses)
print(b.mean, b.sample((3,)))

alpha = torch.full((4,), 0.3)
topics = Dirichlet(alpha).sample((5,))
print(topics)
print(topics.sum(-1))
print(Dirichlet(alpha).log_prob(topics))
words = Dirichlet(torch.tensor([[1.0, 2.0, 3.0], [5.0, 1.0, 0.5]], dtype=torch.float64))
print(words.rsample().tolist())
print(torch.rand(3))
rate = torch.tensor(1.5, requires_grad=True)
x = Gamma(torch.tensor([1.0, 4.0]), rate).rsample()
x.sum().backward()
print(x, rate.grad)
