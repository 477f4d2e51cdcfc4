# Tiling a learned row over a batch with Tensor.repeat(repeats=...), and permute by its
# `dims` keyword; the gradient of the tiled row sums over its copies.
import torch

torch.manual_seed(5)
bias_row = torch.randn(1, 3, requires_grad=True)
batch = torch.randn(4, 3)
tiled = bias_row.repeat(repeats=(4, 1))
out = (batch + tiled).relu().sum()
out.backward()
print(tiled.shape, out)
print(bias_row.grad)

grid = torch.arange(6.0).view(2, 3).requires_grad_()
swapped = grid.permute(dims=(1, 0)).repeat(repeats=[1, 2])
print(swapped)
(swapped * torch.arange(12.0).view(3, 4)).sum().backward()
print(grid.grad)
for bad in ("repeats", "dims"):
    try:
        if bad == "repeats":
            grid.repeat(2, repeats=(1, 1))
        else:
            grid.permute(order=(1, 0))
    except TypeError as e:
        print("TypeError:", e)
