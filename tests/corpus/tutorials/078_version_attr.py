import torch

a = torch.zeros(3)
print(a._version)
a.add_(1)
a[0] = 5
print(a._version)
b = a.view(3)
b.mul_(2)
print(a._version, b._version)
print(a)

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
z = y * 1
y2 = y.clone()
y2.add_(1)
print(y._version, y2._version)
(y * z).sum().backward()
print(x.grad)
