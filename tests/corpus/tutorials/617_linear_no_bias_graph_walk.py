# Walking the autograd graph of a bias-free linear layer applied to one sample
# (a vector, not a batch), as forum answers do to show what matmul records.
import torch
import torch.nn as nn

torch.manual_seed(0)
proj = nn.Linear(4, 3, bias=False)
x = torch.randn(4, requires_grad=True)
y = proj(x)
print(y)


def walk(fn, depth=0):
    if fn is None:
        return
    print("  " * depth + type(fn).__name__, fn.name())
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1)


walk(y.grad_fn)
y.sum().backward()
print(x.grad)
print(proj.weight.grad)

# the same product written by hand keeps the same structure
z = x @ proj.weight.T
walk(z.grad_fn)
print(torch.equal(y, z))
