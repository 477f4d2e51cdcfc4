# A small physics-informed network for u'(t) = -2 u(t), u(0) = 1: the residual of the equation
# at collocation points (its derivative from autograd.grad with create_graph=True) and the
# initial condition make the loss; L-BFGS minimises it, as PINN papers do after Adam.
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)  # PINN codes often train in double precision

torch.manual_seed(1)
net = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))
t = torch.linspace(0, 1, 16).reshape(-1, 1).requires_grad_(True)
t0 = torch.zeros(1, 1)

optimizer = torch.optim.LBFGS(
    net.parameters(), lr=1.0, max_iter=20, history_size=20, line_search_fn="strong_wolfe"
)


def closure():
    optimizer.zero_grad()
    u = net(t)
    du = torch.autograd.grad(u, t, torch.ones_like(u), create_graph=True)[0]
    residual = du + 2 * u
    loss = (residual**2).mean() + ((net(t0) - 1) ** 2).mean()
    loss.backward()
    return loss


for it in range(3):
    loss = optimizer.step(closure)
    print(f"outer step {it}: loss {loss.item():.3e}")

with torch.no_grad():
    for s in [0.0, 0.5, 1.0]:
        print(
            s,
            f"{net(torch.tensor([[s]])).item():.5f}",
            "exact",
            f"{torch.exp(torch.tensor(-2 * s)).item():.5f}",
        )
