# A continuous-action policy for REINFORCE: a small network outputs the mean of a diagonal
# Gaussian over a 2-d action, with a learned log-std; Independent(Normal(...), 1) makes the
# action one event, so log_prob sums over the action dimensions.
import torch
import torch.nn as nn
from torch.distributions import Independent, Normal, kl_divergence

torch.manual_seed(11)
policy = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 2))
log_std = nn.Parameter(torch.full((2,), -0.5))
opt = torch.optim.Adam(list(policy.parameters()) + [log_std], lr=0.01)

states = torch.randn(6, 4)
target = torch.tensor([0.5, -0.25])
for it in range(4):
    dist = Independent(Normal(policy(states), log_std.exp()), 1)
    actions = dist.sample()
    rewards = -((actions - target) ** 2).sum(-1)
    advantage = rewards - rewards.mean()
    loss = -(dist.log_prob(actions) * advantage).mean() - 0.01 * dist.entropy().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"iter {it}: reward {rewards.mean().item():.4f} loss {loss.item():.4f}")

print(dist)
print(dist.batch_shape, dist.event_shape)
print(dist.mean.shape, dist.stddev, dist.variance[0])
print(dist.log_prob(actions))
print(dist.entropy())
print(log_std.grad)
old = Independent(Normal(policy(states).detach(), torch.ones(2)), 1)
print(kl_divergence(dist, old))
a = dist.rsample()
print(a.requires_grad, a.shape)
try:
    Independent(Normal(torch.zeros(3), 1.0), 2)
except ValueError as e:
    print("ValueError:", e)
