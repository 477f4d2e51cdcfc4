# Likelihoods with Gamma, Beta and Dirichlet: a Gamma model of positive durations (its rate
# fitted by gradient descent, the shape fixed), the Beta log-density of click-through rates,
# and a Dirichlet over mixture weights, with their entropies and KL divergences.
import torch
from torch.distributions import Beta, Dirichlet, Gamma, kl_divergence

torch.manual_seed(2)
durations = torch.rand(40) * 3 + 0.2
shape = torch.tensor(2.0)
log_rate = torch.zeros((), requires_grad=True)
opt = torch.optim.Adam([log_rate], lr=0.05)
for step in range(60):
    nll = -Gamma(shape, log_rate.exp()).log_prob(durations).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 20 == 0:
        print(f"step {step}: nll {nll.item():.5f}")
g = Gamma(shape, log_rate.exp().detach())
print(g, "rate", log_rate.exp().item(), "mle", (shape / durations.mean()).item())
print(g.mean, g.variance, g.stddev, g.mode, g.entropy())
print(kl_divergence(g, Gamma(torch.tensor(1.0), torch.tensor(1.0))))

ctr = torch.tensor([0.02, 0.05, 0.11, 0.03, 0.07])
prior = Beta(torch.tensor([2.0, 1.0]), torch.tensor([30.0, 10.0]))
print(prior, prior.batch_shape, prior.mean, prior.variance)
print(prior.log_prob(ctr.unsqueeze(-1)))
print(prior.entropy(), prior.concentration1, prior.concentration0)
print(kl_divergence(Beta(3.0, 40.0), Beta(2.0, 30.0)))

weights = Dirichlet(torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.5, 0.5]]))
p = torch.tensor([0.2, 0.3, 0.5])
print(weights, weights.batch_shape, weights.event_shape)
print(weights.log_prob(p), weights.mean, weights.variance, weights.entropy())
print(kl_divergence(weights, Dirichlet(torch.ones(3))))
try:
    Beta(1.0, 2.0).log_prob(torch.tensor(1.5))
except ValueError as e:
    print("ValueError:", e)
try:
    Gamma(torch.tensor([1.0, 0.0]), 1.0)
except ValueError as e:
    print("ValueError:", e)
