import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -0.5, 2.0], requires_grad=True)
u = torch.tensor(4.0, requires_grad=True)
y = (x * w).sum()
gx, gw = torch.autograd.grad(y, [x, w], retain_graph=True)
print(gx, gw)
gx, gu = torch.autograd.grad(y, [x, u], allow_unused=True, retain_graph=True)
print(gx, gu)
try:
    torch.autograd.grad(y, [x, u], retain_graph=True)
except RuntimeError as e:
    print(str(e).split(".")[0])
z = x * w
(gz,) = torch.autograd.grad(z, x, grad_outputs=torch.tensor([1.0, 10.0, 100.0]))
print(gz)
try:
    torch.autograd.grad(x * 2, x)
except RuntimeError as e:
    print(e)
print(x.grad, w.grad)
