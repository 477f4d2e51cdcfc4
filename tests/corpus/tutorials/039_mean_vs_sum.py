import torch

x = torch.ones(2, 3, requires_grad=True)

x.sum().backward()
print(x.grad)

x.grad.zero_()
x.mean().backward()
print(x.grad)

x.grad.zero_()
x.sum(dim=0).mean().backward()
print(x.grad)
