import torch

x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(-1.0, requires_grad=True)

f = x ** 3 * y + torch.sin(y)
dfdx, dfdy = torch.autograd.grad(f, [x, y])
print(dfdx, dfdy)

# torch.autograd.grad does not touch .grad
print(x.grad, y.grad)
