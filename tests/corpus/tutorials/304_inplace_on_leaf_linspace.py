import math

import torch

a = torch.linspace(0.0, 2.0 * math.pi, steps=25, requires_grad=True)
try:
    torch.sin_(a)
except RuntimeError as err:
    print("RuntimeError:", err)

try:
    a.add_(1)
except RuntimeError as err:
    print("RuntimeError:", err)

with torch.no_grad():
    a.mul_(0.5)
print(a[:4], a.requires_grad, a.is_leaf, a.grad_fn)

b = a.clone()
b.sin_()
print(b.grad_fn.name())
b.sum().backward()
print(a.grad[:5])
