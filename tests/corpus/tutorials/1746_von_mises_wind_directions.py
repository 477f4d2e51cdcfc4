# Circular data: fitting a von Mises distribution to wind directions (angles in radians) by
# maximum likelihood, then drawing new directions from the fit.
import math

import torch
from torch.distributions import VonMises

torch.manual_seed(13)

angles = torch.tensor([0.3, 0.5, 0.1, -0.2, 0.6, 0.4, 2.9, 0.2, 0.35, -0.1], dtype=torch.float64)
mu = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
log_kappa = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
opt = torch.optim.Adam([mu, log_kappa], lr=0.1)
for step in range(50):
    d = VonMises(mu, log_kappa.exp())
    nll = -d.log_prob(angles).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 10 == 0:
        print(step, round(nll.item(), 6), round(mu.item(), 6), round(log_kappa.exp().item(), 6))

fit = VonMises(mu.detach(), log_kappa.exp().detach())
print(fit, fit.mean, fit.variance)
new = fit.sample((6,))
print(new)
print(bool(((new >= -math.pi) & (new < math.pi)).all()))

# the density at a few angles, for a weak and a strong concentration (float32)
grid = torch.tensor([-3.0, -1.5, 0.0, 1.5, 3.0])
for kappa in [0.5, 8.0]:
    print(kappa, VonMises(torch.tensor(0.0), torch.tensor(kappa)).log_prob(grid).exp())
print(VonMises(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 5.0])).sample((3,)))
