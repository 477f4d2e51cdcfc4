# Odds and ends from pasted scripts: imports a script never uses, the old Variable import,
# comparing storage addresses, permute's keyword, and a bias-free convolution's graph.
import re  # noqa: F401 - imported by the original script, never used
from functools import reduce  # noqa: F401

import torch
from torch.autograd.variable import Variable

v = Variable(torch.tensor([[0.0]]), requires_grad=True)
for _ in range(3):
    v.cos().backward()
print("v.grad after three passes:", v.grad)

x = torch.arange(12.0)
grid = x.view(3, 4)
print("view shares memory:", grid.data_ptr() == x.data_ptr())
print("clone does not:", x.clone().data_ptr() == x.data_ptr())
print("odd elements start later:", x[1::2].data_ptr() == x.data_ptr())
print("row 1 starts 4 floats in:", (grid[1].data_ptr() - x.data_ptr()) // x.element_size())
print(
    "transpose shares, contiguous() copies:",
    grid.t().data_ptr() == x.data_ptr(),
    grid.t().contiguous().data_ptr() == x.data_ptr(),
)


def shares(a, b):
    pa = set(e.data_ptr() for e in a.view(-1))
    pb = set(e.data_ptr() for e in b.view(-1))
    return pa <= pb or pb <= pa


print("x[1::2] inside x:", shares(x, x[1::2]), "a copy:", shares(x, x[1::2].clone()))

print(torch.permute(grid, dims=(1, 0)).shape, grid.permute(dims=[1, 0])[0])

torch.manual_seed(1)
conv = torch.nn.Conv1d(2, 3, kernel_size=2, bias=False)
out = conv(torch.randn(1, 2, 4, requires_grad=True))
print(out.grad_fn.name(), len(out.grad_fn.next_functions))
print([fn is None for fn, _ in out.grad_fn.next_functions])
