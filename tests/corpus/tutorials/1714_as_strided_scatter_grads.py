# Writing a block into a copy through strides: torch.as_strided_scatter, its values, its
# gradients as PyTorch 2.13 computes them, and its errors.
import torch

base = torch.zeros(3, 4, requires_grad=True)
patch = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
out = torch.as_strided_scatter(base, patch, (2, 2), (4, 1), 5)
print(out)
weights = torch.arange(12.0).reshape(3, 4)
(out * weights).sum().backward()
print(patch.grad)
print(base.grad)

v = torch.zeros(6, dtype=torch.float64)
print(v.as_strided_scatter(torch.ones(3, dtype=torch.float64), (3,), (2,)))
tall = torch.zeros(3, 2).t()
print(torch.as_strided_scatter(tall, torch.full((3,), 7.0), (3,), (1,)))
with torch.no_grad():
    print(torch.as_strided_scatter(torch.zeros(2, 2), torch.tensor([5, 6]), (2,), (3,)))
for size, stride in [((2, 2), (5, 5)), ((3,), (1,))]:
    try:
        torch.as_strided_scatter(torch.zeros(3, 3), torch.ones(2, 2), size, stride)
    except RuntimeError as e:
        print("RuntimeError:", e)
