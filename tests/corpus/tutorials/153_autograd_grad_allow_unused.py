import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0], requires_grad=True)
out = (x ** 2).sum()

try:
    torch.autograd.grad(out, [x, y], retain_graph=True)
except RuntimeError as e:
    print(e)

gx, gy = torch.autograd.grad(out, [x, y], allow_unused=True, retain_graph=True)
print(gx, gy)
gx, gy = torch.autograd.grad(out, [x, y], allow_unused=True, materialize_grads=True)
print(gx, gy)

a = x * 2
b = x.sum() * 3
grads = torch.autograd.grad([a.sum(), b], x, retain_graph=True)
print(grads)
print(torch.autograd.grad(a, x, grad_outputs=torch.tensor([1.0, -1.0])))
