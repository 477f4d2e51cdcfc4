import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 3 + 2 * x ** 2 - x
(dy,) = torch.autograd.grad(y, x, create_graph=True)
print(dy)
(d2y,) = torch.autograd.grad(dy, x, create_graph=True)
print(d2y)
(d3y,) = torch.autograd.grad(d2y, x)
print(d3y)

v = torch.tensor([1.0, -1.0, 0.5], requires_grad=True)
f = (v.sin() * v).sum()
g = torch.autograd.grad(f, v, create_graph=True)[0]
print(g)
g.sum().backward()
print(v.grad)
