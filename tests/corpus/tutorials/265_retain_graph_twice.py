import torch

x = torch.tensor([2.0, 3.0], requires_grad=True)
y = (x ** 3).sum()
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(".")[0])

z = x.exp().sum()
gx, = torch.autograd.grad(z, x, retain_graph=True)
print(gx)
gx2, = torch.autograd.grad(z, x)
print(gx == gx2)
print(x.grad)
