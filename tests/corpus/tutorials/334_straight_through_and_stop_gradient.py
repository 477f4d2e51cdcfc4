import torch

x = torch.tensor([0.2, 1.7, -0.6, 2.5], requires_grad=True)

# straight-through estimator: forward rounds, backward is identity
y = x + (torch.round(x) - x).detach()
print(y)
(y * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print(x.grad)

# stop the gradient through one branch only
x.grad = None
a = x * 2
b = a.detach() ** 2 + a
b.sum().backward()
print(x.grad)

x.grad = None
with torch.no_grad():
    scale = x.abs().max()
(x / scale).sum().backward()
print(scale, x.grad)
