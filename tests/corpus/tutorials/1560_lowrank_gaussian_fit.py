# A Gaussian with a low-rank-plus-diagonal covariance, as factor models and some VAEs use:
# sample it, score the samples, and fit its factor by maximum likelihood.
import math

import torch
from torch.distributions import LowRankMultivariateNormal, MultivariateNormal

torch.manual_seed(3)
dist = LowRankMultivariateNormal(torch.zeros(3), torch.tensor([[1.0], [0.5], [-0.5]]), torch.ones(3))
print(dist)
print(type(dist))
print(dist.batch_shape, dist.event_shape, dist.has_rsample)
data = dist.sample((200,))
print(data.shape, data.mean(0))
print(dist.covariance_matrix)
print(dist.precision_matrix)
print(dist.scale_tril)
print(dist.variance, dist.entropy())

# fit a rank-1 factor and a diagonal to the samples
W = torch.zeros(3, 1).normal_(0, 0.1).requires_grad_()
log_d = torch.zeros(3, requires_grad=True)
loc = torch.zeros(3, requires_grad=True)
opt = torch.optim.Adam([W, log_d, loc], lr=0.05)
for step in range(60):
    model = LowRankMultivariateNormal(loc, W, log_d.exp())
    nll = -model.log_prob(data).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 20 == 0:
        print(step, round(nll.item(), 4))
print(model.covariance_matrix.detach())

# the same density as the full-covariance Gaussian, in float64
d64 = LowRankMultivariateNormal(
    torch.tensor([0.5, -1.0], dtype=torch.float64),
    torch.tensor([[1.0, 0.2], [0.3, -0.5]], dtype=torch.float64),
    torch.tensor([0.5, 1.5], dtype=torch.float64),
)
full = MultivariateNormal(d64.loc, d64.covariance_matrix)
x = torch.tensor([[0.0, 0.0], [1.0, -2.0]], dtype=torch.float64)
print(d64.log_prob(x), full.log_prob(x))
print(d64.entropy().item(), full.entropy().item(), 0.5 * math.log(d64.covariance_matrix.det().item()))

# a batch of two, and the checks PyTorch makes
batch = LowRankMultivariateNormal(torch.zeros(2, 3), torch.ones(2, 3, 2) * 0.1, torch.ones(3))
print(batch, batch.batch_shape, batch.log_prob(torch.zeros(3)))
print(batch.loc.grad_fn, batch.cov_diag.grad_fn)
for bad in (
    lambda: LowRankMultivariateNormal(torch.zeros(3), torch.ones(2, 1), torch.ones(3)),
    lambda: LowRankMultivariateNormal(torch.zeros(3), torch.ones(3), torch.ones(3)),
    lambda: LowRankMultivariateNormal(torch.zeros(3), torch.ones(3, 1), torch.ones(2)),
    lambda: LowRankMultivariateNormal(torch.zeros(3), torch.zeros(3, 1), -torch.ones(3)),
):
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
