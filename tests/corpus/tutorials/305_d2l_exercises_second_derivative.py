import torch

# d2l exercise: why is the second derivative more expensive? compute f''(x) for f = sin
x = torch.arange(0.0, 1.0, 0.25, requires_grad=True)
y = torch.sin(x)
(dy,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print("f'(x) :", dy)
print("cos(x):", torch.cos(x).detach())
(d2y,) = torch.autograd.grad(dy.sum(), x)
print("f''(x):", d2y)
print(torch.allclose(d2y, -torch.sin(x).detach()))

# exercise: run backward twice without retain_graph
y = (x ** 3).sum()
y.backward()
try:
    y.backward()
except RuntimeError as e:
    print(type(e).__name__)
    print(e)
