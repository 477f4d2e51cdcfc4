# Scaling by powers of two and writing into views without in-place ops: ldexp/frexp and the
# *_scatter functions, with their gradients, as functional-style code (torch.func) uses them.
import torch

x = torch.tensor([1.0, -2.5, 3.0], requires_grad=True)
e = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
y = torch.ldexp(x, e)
print(y)
y.sum().backward()
print(x.grad, e.grad)
print(torch.ldexp(torch.tensor([1, 2]), torch.tensor([3, 4])))

mantissa, exponent = torch.frexp(torch.tensor([8.0, -0.3, 0.0, 6.0]))
print(mantissa, exponent)
print(torch.frexp(torch.tensor([3.0, 5.0], dtype=torch.float64)))

base = torch.zeros(3, 4, requires_grad=True)
row = torch.arange(4.0, requires_grad=True)
out = torch.select_scatter(base, row, 0, 1)
print(out)
(out * torch.arange(12.0).view(3, 4)).sum().backward()
print(base.grad, row.grad)
cols = torch.ones(3, 2, requires_grad=True)
print(torch.slice_scatter(base, cols, dim=1, start=0, end=4, step=2))
print(torch.diagonal_scatter(torch.zeros(3, 4), torch.tensor([5.0, 6.0, 7.0]), 1))
try:
    torch.select_scatter(base, torch.ones(3), 0, 1)
except RuntimeError as err:
    print("RuntimeError:", err)
print(torch.ones(3)[:, torch.newaxis].shape)
