# Printing inside torch.func.grad and vjp: PyTorch shows the values it tracks wrapped in a
# GradTrackingTensor of the transform's level.
import torch
from torch.func import grad, vjp

scale = torch.tensor([3.0], requires_grad=True)


def loss(x):
    print("input:", x)
    y = torch.sin(x) * 2
    print("inside:", y)
    print("outside tensor:", scale)
    out = (y * y).sum()
    print("loss:", out)
    return out


print(grad(loss)(torch.tensor([0.5, 1.0, -2.0])))


def f(x):
    h = x.exp()
    print(h)
    return h * 3


out, pull = vjp(f, torch.tensor([[0.0, 1.0], [2.0, -1.0]], dtype=torch.float64))
print(out)
print(pull(torch.ones(2, 2, dtype=torch.float64)))
