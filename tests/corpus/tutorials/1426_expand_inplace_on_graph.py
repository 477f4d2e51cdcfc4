# Broadcasting a row with expand() and then changing it in place: PyTorch refuses, because the
# rows of an expanded tensor share the same memory; clone() first (or write out of place).
import torch

w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
row = w * 2
grid = row.expand(4, 3)
try:
    grid.add_(torch.arange(12.0).view(4, 3))
except RuntimeError as e:
    print("RuntimeError:", e)

grid = row.expand(4, 3).clone()
grid.add_(torch.arange(12.0).view(4, 3))
grid.sum().backward()
print(grid)
print(w.grad)
