import torch
from torch.func import vjp, jvp

x = torch.tensor([0.0, 1.0, 2.0])

out, vjp_fn = vjp(torch.sin, x)
print(out)
(v,) = vjp_fn(torch.ones(3))
print(v)

out, tangent = jvp(torch.sin, (x,), (torch.ones(3),))
print(out)
print(tangent)


def f(a, b):
    return a * b.exp()


out, jvp_out = jvp(f, (x, x), (torch.ones(3), torch.zeros(3)))
print(jvp_out)
_, vjp_fn = vjp(f, x, x)
print(vjp_fn(torch.tensor([1.0, 0.0, 1.0])))
