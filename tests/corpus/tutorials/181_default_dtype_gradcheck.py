import torch
from torch.autograd import gradcheck, gradgradcheck

torch.set_default_dtype(torch.float64)
x = torch.tensor([0.3, -1.2, 2.0], requires_grad=True)
print(x.dtype)


def f(t):
    return (t.sin() * t.exp()).sum() + t.prod()


print(gradcheck(f, (x,)))
print(gradgradcheck(f, (x,)))
g, = torch.autograd.grad(f(x), x)
print(g)

torch.set_default_dtype(torch.float32)
print(torch.tensor([0.3]).dtype, x.dtype)
