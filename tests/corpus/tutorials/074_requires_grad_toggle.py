import torch

x = torch.ones(3)
print(x.requires_grad)
x.requires_grad_()
print(x.requires_grad)

y = (x * 2).sum()
y.backward()
print(x.grad)

x.requires_grad_(False)
z = x * 2
print(z.requires_grad, z.grad_fn)

try:
    torch.tensor([1, 2, 3]).requires_grad_()
except RuntimeError as e:
    print(e)

try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as e:
    print(e)

q = (x * 2)
try:
    q.backward(torch.ones(3))
except RuntimeError as e:
    print(e)
