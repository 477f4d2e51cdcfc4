import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
print(y.grad_fn.name())
y += 1
print(y)
print(y.grad_fn.name())
y *= x
print(y.grad_fn.name())
y.sum().backward()
print(x.grad)
print(y._version)
