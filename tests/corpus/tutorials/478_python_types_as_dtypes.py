# Python's own types as dtypes, as notebooks often write them: float is float64, int is int64,
# bool is bool. A step count as an int tensor, a mask as a bool tensor, a double-precision grid.
import torch

steps = torch.arange(1, 20, 3, dtype=float)
print(steps, steps.dtype)
counts = torch.zeros(3, dtype=int)
mask = torch.ones(4, dtype=bool)
print(counts, mask)

x = torch.tensor([0.25, 1.5, -2.75], requires_grad=True)
y = (x.to(float) ** 2).sum()
y.backward()
print(y, x.grad)

grid = torch.linspace(0, 1, 5, dtype=float)
print(grid, torch.eye(2, dtype=int), torch.full((2,), 7, dtype=float))
w = torch.randn(3, dtype=float, requires_grad=True)
print(w.dtype, (w * grid[:3]).sum().dtype)
print(torch.tensor([1.9, -1.9]).to(int), torch.tensor([0, 2]).to(bool), torch.as_tensor([1, 2], dtype=float))
print(x.sum(dtype=float))

try:
    torch.zeros(2, dtype=str)
except TypeError as e:
    print("TypeError:", e)
