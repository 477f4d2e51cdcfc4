import torch

x = torch.tensor([1.5, 2.25, -0.125], dtype=torch.float64, requires_grad=True)
y = (x ** 2).sum()
y.backward()
print(x, y)
print(x.grad, x.grad.dtype)
print(y.item(), type(y.item()).__name__)

n = torch.arange(6)
print(n, n.dtype, n.sum(), n.float().mean())
print(n.reshape(2, 3) * 1.5)
print(n / 4, n.max())
m = torch.tensor([[1, 2], [3, 4]], dtype=torch.int32)
print(m, m.dtype, (m * 2).dtype, (m + 0.5).dtype)
d = torch.tensor([1e-8, 1.0, 1e8], dtype=torch.float64)
print(d)
print(torch.tensor([1e-8, 1.0, 1e8]))
print(torch.tensor([0.1, 0.2]).double() + torch.tensor([0.1, 0.2], dtype=torch.float64))
