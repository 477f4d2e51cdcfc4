# Estimating derivatives from samples with torch.gradient, and checking them
# against autograd.
import math

import torch

# samples of f(x) = x^2 on an evenly spaced grid
x = torch.linspace(-2, 2, 9)
y = x ** 2
(dy,) = torch.gradient(y, spacing=0.5)
print("dy/dx ~", dy)
print("exact  ", 2 * x)

# second-order accurate edges
(dy2,) = torch.gradient(y, spacing=0.5, edge_order=2)
print("edge_order=2:", dy2)

# unevenly spaced sample points given as coordinates
t = torch.tensor([0.0, 0.1, 0.3, 0.6, 1.0, 1.5])
s = torch.sin(t)
(ds,) = torch.gradient(s, spacing=(t,))
print("d sin/dt ~", ds)
print("cos(t)    ", torch.cos(t))
(ds2,) = torch.gradient(s, spacing=[t], edge_order=2)
print("second order:", ds2)

# a 2-D field: one derivative per dimension, returned as a tuple
xs = torch.arange(4.0)
ys = torch.arange(3.0)
field = ys[:, None] ** 2 + 3 * xs[None, :]
grads = torch.gradient(field)
print(type(grads).__name__, len(grads))
print("d/drow:\n", grads[0])
print("d/dcol:\n", grads[1])
print(torch.gradient(field, spacing=[2.0, 0.5]))
print(torch.gradient(field, dim=1))
print(torch.gradient(field, spacing=2, dim=[0, 1]))

# integers become floats, float64 stays float64
print(torch.gradient(torch.tensor([1, 4, 9, 16])))
print(torch.gradient(torch.tensor([1.0, 4.0, 9.0], dtype=torch.float64), spacing=0.1))

# torch.gradient is differentiable
w = torch.tensor([1.0, 2.0, 4.0, 7.0, 11.0], requires_grad=True)
(g,) = torch.gradient(w ** 2)
print(g)
g.sum().backward()
print(w.grad)

# errors in PyTorch's words
for kwargs in ({"spacing": [1.0, 2.0, 3.0]}, {"edge_order": 3}):
    try:
        torch.gradient(field, **kwargs)
    except RuntimeError as e:
        print("RuntimeError:", e)
try:
    torch.gradient(torch.tensor([1.0, 2.0]), edge_order=2)
except RuntimeError as e:
    print("RuntimeError:", e)
print(f"pi/4 slope: {torch.gradient(torch.tan(torch.tensor([0.7, math.pi / 4, 0.87])), spacing=math.pi / 4 - 0.7)[0][1]:.4f}")
