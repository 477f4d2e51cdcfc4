import torch

x = torch.tensor([0.5, 1.5], requires_grad=True)

is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)

is_train = True
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)

torch.set_grad_enabled(False)
z = x ** 2
print(z.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
z = x ** 2
print(z.requires_grad, torch.is_grad_enabled())
z.sum().backward()
print(x.grad)
