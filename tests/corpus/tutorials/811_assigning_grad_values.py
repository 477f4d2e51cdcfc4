# What may be assigned to .grad: a tensor of the parameter's shape and dtype, or None (the
# way to reset it); a number is refused with its type named, as a tutorial's
# `a.grad = 0.` finds out.
import numpy as np
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
(a * a).sum().backward()
print(a.grad)

for value in [0.0, 0, [0.0, 0.0], (0.0,), True, "zero", np.zeros(2), {"g": 1}]:
    try:
        a.grad = value
    except TypeError as e:
        print(e)

a.grad = torch.zeros(2)
(3 * a).sum().backward()
print(a.grad)
a.grad = None
print(a.grad)
(a ** 3).sum().backward()
print(a.grad)
