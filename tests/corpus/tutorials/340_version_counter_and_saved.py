import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 1
print(b._version)
b.add_(1)
print(b._version)
b.mul_(2)
print(b._version, b.grad_fn.name())
b.sum().backward()
print(a.grad)

a.grad = None
e = a.exp()
e.add_(1)
try:
    e.sum().backward()
except RuntimeError as err:
    print(err)

m = a * 1
n = m * m
m[0] = 10.0
try:
    n.sum().backward()
except RuntimeError as err:
    print(err)
print(m._version)
