# Jacobians of small dynamical systems built element by element with
# torch.stack, and of piecewise functions with torch.where, by forward mode.
import torch
from torch.func import jacfwd, jvp


def pendulum(state):
    theta, omega = state[0], state[1]
    return torch.stack([omega, -torch.sin(theta) * 9.81 - 0.1 * omega])


def lotka_volterra(z):
    prey, pred = z[0], z[1]
    return torch.stack([prey * (1.5 - pred), -pred * (3.0 - prey)])


def rectified(x):
    return torch.where(x > 0.5, -x, x * 0)


s = torch.tensor([0.3, -1.2])
print(jacfwd(pendulum)(s))
print(jacfwd(lotka_volterra)(torch.tensor([1.0, 2.0])))
print(jacfwd(lambda t: torch.cat([-t[:1], t[1:] * 2]))(s))
print(jacfwd(rectified)(torch.tensor([0.2, 0.9, 1.5])))
print(jvp(rectified, (torch.tensor([0.2, 0.9]),), (torch.tensor([1.0, 0.0]),)))
print(jacfwd(lambda t: (-t).cumsum(0))(torch.tensor([1.0, 2.0, 3.0])))
print(torch.tensor([-0.0, -0.0, 2.0]).cumsum(0))
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(-x).cumsum(0).backward(torch.tensor([-0.0, -0.0, -0.0]))
print(x.grad)
