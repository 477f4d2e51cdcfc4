import torch

x = torch.tensor([-1.5, 0.0, 2.0], requires_grad=True)

y = x.abs().sum()
y.backward()
print(x.grad)

x.grad.zero_()
c = torch.clamp(x, min=-1.0, max=1.0)
c.sum().backward()
print(c)
print(x.grad)
