import torch

x = torch.tensor([1.0, 2.0])
x.requires_grad_()
print(x.requires_grad)
x.requires_grad_(False)
print(x.requires_grad)

y = torch.tensor([1.0, 2.0], requires_grad=True) * 2
try:
    y.requires_grad_(False)
except RuntimeError as e:
    print(e)
y.requires_grad_(True)
print(y.requires_grad)

try:
    torch.tensor([1, 2, 3], requires_grad=True)
except RuntimeError as e:
    print(e)

n = torch.arange(3)
try:
    n.requires_grad_()
except RuntimeError as e:
    print(e)

d = torch.arange(3, dtype=torch.float64).requires_grad_()
print(d)
print(d.requires_grad, d.is_leaf, d.dtype)
