import torch

x = torch.tensor([[1.0, 5.0, 3.0], [7.0, 2.0, 7.0]], requires_grad=True)
m = torch.max(x, dim=1)
print(m)
print(m.values, m.indices)
values, indices = x.min(dim=0)
print(values, indices)
print(torch.argmax(x, dim=1), x.argmin())

m.values.sum().backward()
print(x.grad)

x.grad = None
x.max().backward()
print(x.grad)

x.grad = None
x.amax(dim=1).sum().backward()
print(x.grad)
print(torch.max(x.detach(), torch.full((2, 3), 4.0)))
