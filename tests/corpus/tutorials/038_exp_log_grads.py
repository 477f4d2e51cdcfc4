import torch

x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
y = torch.log(x) + torch.exp(-x)
y.sum().backward()

print(y)
print(x.grad)
print(1 / x.detach() - torch.exp(-x.detach()))
