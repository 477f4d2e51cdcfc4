import torch

x = torch.arange(4.0)
print(x)

# Can also create x = torch.arange(4.0, requires_grad=True)
x.requires_grad_(True)
print(x.grad)  # None by default

y = 2 * torch.dot(x, x)
print(y)

y.backward()
print(x.grad)
print(x.grad == 4 * x)

# PyTorch accumulates the gradient by default, so clear it first
x.grad.zero_()
y = x.sum()
y.backward()
print(x.grad)
