# A physics-informed loss through a LayerNorm MLP: u(x), du/dx and d2u/dx2 by autograd.grad with
# create_graph=True, the residual of u'' + u = 0 as the loss, a few Adam steps in float32.
import torch
import torch.nn as nn

torch.manual_seed(3)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(1, 16)
        self.norm = nn.LayerNorm(16)
        self.out = nn.Linear(16, 1)

    def forward(self, x):
        return self.out(torch.tanh(self.norm(self.inp(x))))


net = Net()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
x = torch.linspace(0, 3, 12).reshape(-1, 1).requires_grad_(True)

for step in range(5):
    u = net(x)
    du = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
    d2u = torch.autograd.grad(du.sum(), x, create_graph=True)[0]
    loss = ((d2u + u) ** 2).mean() + (u[0] - 1.0).pow(2).sum() + (du[0] - 0.0).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.10f}")

print(du.grad_fn.name(), d2u.grad_fn.name())
print(d2u[:3].flatten())
print(net.norm.weight.grad[:4])
