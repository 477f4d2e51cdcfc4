# The probit link erfinv(2p - 1) * sqrt(2) and its derivatives in p, taken with
# create_graph=True: erfinv's gradient is PyTorch's 0.5 * sqrt(pi) * exp(erfinv(x).pow(2)) * g.
import math
import torch

for dtype in (torch.float64,):
    p = torch.tensor([0.05, 0.3, 0.5, 0.8, 0.97], dtype=dtype, requires_grad=True)
    z = torch.erfinv(2 * p - 1) * math.sqrt(2)
    dz = torch.autograd.grad(z.sum(), p, create_graph=True)[0]
    d2z = torch.autograd.grad(dz.sum(), p, create_graph=True)[0]
    d3z = torch.autograd.grad(d2z.sum(), p)[0]
    print(dz.grad_fn.name(), d2z.grad_fn.name())
    print(dz.tolist())
    print(d2z.tolist())
    print(d3z.tolist())

# a scaled inverse error function in its own input
for dtype in (torch.float64, torch.float32):
    u = torch.tensor([-1.7, -0.2, 0.6, 2.3], dtype=dtype, requires_grad=True)
    w = torch.erfinv(u / 3)
    first = torch.autograd.grad(w.sum(), u, create_graph=True)[0]
    second = torch.autograd.grad(first.sum(), u, create_graph=True)[0]
    print(torch.autograd.grad(second.sum(), u)[0].tolist())
