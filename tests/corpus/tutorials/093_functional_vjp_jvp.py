import torch
from torch.autograd.functional import vjp, jvp


def f(x):
    return torch.stack([x[0] * x[1], x[1] ** 3, x[0].exp()])


x = torch.tensor([1.0, 2.0])
v_out = torch.tensor([1.0, 0.5, -1.0])
out, vjp_val = vjp(f, x, v_out)
print(out)
print(vjp_val)

v_in = torch.tensor([1.0, 0.0])
out, jvp_val = jvp(f, x, v_in)
print(jvp_val)


def scalar(x):
    return (x ** 2).sum()


print(vjp(scalar, x))
print(jvp(scalar, x, torch.ones(2)))
