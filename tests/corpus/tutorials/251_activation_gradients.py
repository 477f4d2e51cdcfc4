# Derivatives of the common activations at a few points, as a table.
import torch
import torch.nn as nn
import torch.nn.functional as F

points = torch.tensor([-4.0, -3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 6.0])

activations = {
    "relu": F.relu,
    "relu6": F.relu6,
    "elu": F.elu,
    "selu": F.selu,
    "celu(0.5)": lambda t: F.celu(t, alpha=0.5),
    "hardtanh": F.hardtanh,
    "hardswish": F.hardswish,
    "hardsigmoid": F.hardsigmoid,
    "mish": F.mish,
    "softsign": F.softsign,
    "softshrink": F.softshrink,
    "hardshrink": F.hardshrink,
    "tanhshrink": F.tanhshrink,
    "threshold": lambda t: F.threshold(t, 0.5, -1.0),
}

for name, f in activations.items():
    x = points.clone().requires_grad_()
    y = f(x)
    (dy,) = torch.autograd.grad(y.sum(), x)
    print(f"{name:>12} {y.grad_fn.name():>22}  " + " ".join(f"{v:6.3f}" for v in dy.tolist()))

# second derivatives where the activation is smooth
x = torch.linspace(-2, 2, 5, requires_grad=True)
for f in (F.elu, F.selu, F.mish):
    (g,) = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x)
    print(h)

# the in-place forms change a non-leaf tensor and record it
z = points.clone().requires_grad_() * 1.0
F.elu(z, inplace=True)
print(z.grad_fn.name())
act = nn.Hardtanh(-2.0, 2.0, inplace=True)
print(act, act(points.clone()))
print(nn.Softmin(dim=0)(torch.tensor([1.0, 2.0, 3.0])))
