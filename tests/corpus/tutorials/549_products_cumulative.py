# Products along dims and running products: the values and their gradients.
import torch

torch.manual_seed(11)
torch.set_printoptions(precision=8)

x = (torch.rand(4, 37) * 0.9 + 0.6).requires_grad_()
rows = x.prod(dim=1)
print(rows)
cols = x.prod(dim=0)
print(cols[:6])
total = x[:, :20].prod()
print(total)
(rows.sum() + cols.sum() + total).backward()
print(x.grad[0, :6])

growth = torch.tensor([1.01, 0.98, 1.07, 1.003, 0.95, 1.12, 1.02, 0.99, 1.05], requires_grad=True)
wealth = torch.cumprod(growth, dim=0)
print(wealth)
wealth[-1].backward()
print(growth.grad)

d = torch.rand(70, dtype=torch.float64) + 0.5
print(d.prod())
