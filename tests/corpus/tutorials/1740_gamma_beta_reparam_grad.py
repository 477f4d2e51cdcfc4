# Learning the shape of Gamma and Beta distributions by the reparameterization trick:
# rsample's draws carry gradients back to the concentration parameters.
import torch
from torch.distributions import Beta, Chi2, Dirichlet, Gamma

torch.manual_seed(42)

# a Gamma whose concentration and rate are learned (float32, as most code writes it)
log_conc = torch.tensor([0.5, -0.2, 1.8], requires_grad=True)
log_rate = torch.zeros(3, requires_grad=True)
opt = torch.optim.Adam([log_conc, log_rate], lr=0.05)
for step in range(3):
    q = Gamma(log_conc.exp(), log_rate.exp())
    z = q.rsample((8,))
    loss = ((z - 2.0) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    print(step, round(loss.item(), 4), log_conc.grad, log_rate.grad)
    opt.step()

# Beta and Dirichlet in float64
a = torch.tensor([0.8, 2.5, 7.0], dtype=torch.float64, requires_grad=True)
b = torch.tensor([1.2, 0.6, 9.0], dtype=torch.float64, requires_grad=True)
x = Beta(a, b).rsample((4,))
print(type(x.grad_fn).__name__, x.grad_fn.next_functions[0][0].name())
(x * torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64)).sum().backward()
print(a.grad)
print(b.grad)

alpha = torch.tensor([[0.4, 1.0, 3.0], [6.5, 7.5, 0.9]], dtype=torch.float64, requires_grad=True)
w = Dirichlet(alpha).rsample()
print(w.shape, w.requires_grad)
(w[..., 0] - w[..., 2]).pow(2).sum().backward()
print(alpha.grad)

df = torch.tensor(4.0, requires_grad=True)
c = Chi2(df).rsample((5,))
c.mean().backward()
print(c, df.grad)

# without a gradient: sample() draws the same way and records nothing
with torch.no_grad():
    s = Gamma(log_conc.exp(), 1.0).rsample()
print(s.requires_grad, Gamma(log_conc.exp(), 1.0).sample().requires_grad)
