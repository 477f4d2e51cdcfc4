import math

import torch

a = torch.linspace(0.0, 2.0 * math.pi, steps=25, requires_grad=True)
print(a)
b = torch.sin(a)
print(b)
c = 2 * b
print(c)
d = c + 1
print(d)
out = d.sum()
print(out)

print("d:")
print(d.grad_fn.name())
print([f[0].name() for f in d.grad_fn.next_functions if f[0] is not None])
print("c:")
print(c.grad_fn.name())
print("b:")
print(b.grad_fn.name())
print("a:")
print(a.grad_fn)

out.backward()
print(a.grad)
