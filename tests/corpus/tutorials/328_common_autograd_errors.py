import torch

x = torch.tensor([1.0, 2.0])
y = x * 2
try:
    y.sum().backward()
except RuntimeError as e:
    print(e)

w = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    w.numpy()
except RuntimeError as e:
    print(e)
print(w.detach().numpy())

try:
    w += 1
except RuntimeError as e:
    print(e)

try:
    torch.autograd.grad(x.sum(), x)
except RuntimeError as e:
    print(e)

v = torch.tensor([3.0], requires_grad=True)
with torch.no_grad():
    u = v * 2
try:
    u.backward()
except RuntimeError as e:
    print(e)

try:
    torch.autograd.grad((w * 2).sum(), w, grad_outputs=torch.ones(2))
except RuntimeError as e:
    print(e)
