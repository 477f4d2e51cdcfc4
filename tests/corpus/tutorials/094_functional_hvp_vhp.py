import torch
from torch.autograd.functional import hvp, vhp, hessian


def f(x):
    return (x[0] ** 2) * x[1] + torch.sin(x[1]) * x[2] ** 2


x = torch.tensor([1.0, 0.5, 2.0])
v = torch.tensor([1.0, 0.0, -1.0])
value, hv = hvp(f, x, v)
print(value)
print(hv)
_, vh = vhp(f, x, v)
print(vh)
print(hessian(f, x) @ v)
print(torch.allclose(hv, vh))
