import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
try:
    a.add_(1)
except RuntimeError as e:
    print(e)

b = a * 2
c = b.exp()
b.add_(1)
c.sum().backward()  # exp saves its result, not b: the change of b does not matter
print(a.grad)

d = a.sigmoid()
e = d * 3
d.mul_(2)
try:
    e.sum().backward()
except RuntimeError as err:
    print(str(err).split(". Hint")[0])
print(a.grad)

with torch.no_grad():
    a.add_(1)
print(a, a._version)
x = torch.ones(3, requires_grad=True)
y = x.clone()
y[0] = 5.0
y.sum().backward()
print(x.grad, y.grad_fn.name())
