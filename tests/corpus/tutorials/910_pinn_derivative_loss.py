# A physics-informed network: a small MLP u(t) fitted so that u'' + u = 0 with u(0) = 1 and
# u'(0) = 0 (the solution is cos t). The derivatives of the output with respect to the input
# come from torch.autograd.grad(..., create_graph=True), so the loss is differentiated twice
# more by backward. Losses are printed to full precision: float32 throughout.
import torch
import torch.nn as nn

torch.manual_seed(0)


class PINN(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.hidden = nn.Linear(1, width)
        self.mid = nn.Linear(width, width)
        self.out = nn.Linear(width, 1)

    def forward(self, t):
        h = torch.tanh(self.hidden(t))
        h = torch.sigmoid(self.mid(h))
        return self.out(h)


def derivative(y, x):
    return torch.autograd.grad(y, x, torch.ones_like(y), create_graph=True)[0]


model = PINN()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
t = torch.linspace(0, 3, 37).reshape(-1, 1).requires_grad_(True)
t0 = torch.zeros(1, 1, requires_grad=True)

for step in range(30):
    opt.zero_grad()
    u = model(t)
    du = derivative(u, t)
    d2u = derivative(du, t)
    residual = ((d2u + u) ** 2).mean()
    u0 = model(t0)
    du0 = derivative(u0, t0)
    boundary = (u0 - 1).pow(2).sum() + du0.pow(2).sum()
    loss = residual + boundary
    loss.backward()
    opt.step()
    if step % 3 == 0 or step == 29:
        print(step, loss.item(), residual.item(), boundary.item())

print(du.grad_fn.name(), d2u.grad_fn.name())
print(model.hidden.weight.grad.flatten()[:4].tolist())
print(model.out.bias.grad.tolist())

# A gradient penalty in the style of WGAN-GP: the norm of d critic / d input pushed to 1.
critic = nn.Sequential(nn.Linear(3, 8), nn.Softplus(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))
copt = torch.optim.SGD(critic.parameters(), lr=0.05, momentum=0.9)
real = torch.randn(20, 3)
fake = torch.randn(20, 3) * 0.5 + 1
for step in range(6):
    copt.zero_grad()
    eps = torch.rand(20, 1)
    mix = (eps * real + (1 - eps) * fake).requires_grad_(True)
    score = critic(mix)
    (g,) = torch.autograd.grad(score.sum(), mix, create_graph=True)
    penalty = ((g.norm(2, dim=1) - 1) ** 2).mean()
    loss = critic(fake).mean() - critic(real).mean() + 10 * penalty
    loss.backward()
    copt.step()
    print(step, loss.item(), penalty.item())
print(g.grad_fn.name())

# A Hessian-vector product by double backward through sigmoid and softplus.
w = torch.randn(7, requires_grad=True)
f = torch.sigmoid(w).sum() * torch.nn.functional.softplus(w, beta=2.0).sum()
(gw,) = torch.autograd.grad(f, w, create_graph=True)
v = torch.randn(7)
(hv,) = torch.autograd.grad(gw, w, v)
print(gw.tolist())
print(hv.tolist())
