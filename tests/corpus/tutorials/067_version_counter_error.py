import torch

x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = x.sigmoid()      # sigmoid saves its output for backward
y.mul_(2)            # ...which is then modified in place
print(y._version)
try:
    y.sum().backward()
except RuntimeError as e:
    print(e)

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 1
c = b ** 2
b.add_(1)
try:
    c.sum().backward()
except RuntimeError as e:
    print(e)
