# A number on the left of an operator: PyTorch runs the tensor's reflected method, so the
# graph lists the tensor first, `c - x` is one RsubBackward1 and `c / x` is a reciprocal
# times c (float32 rounds twice there, so 3 / x is not always 3 divided by x).
import math

import torch

angles = torch.linspace(0.0, 2.0 * math.pi, steps=7, requires_grad=True)
waves = torch.sin(angles)
scaled = 2 * waves
shifted = 1 + scaled


def names(fn):
    return [None if f is None else f.name() for f, _ in fn.next_functions]


print(scaled.grad_fn.name(), names(scaled.grad_fn))
print(names(shifted.grad_fn))
print(names(shifted.grad_fn.next_functions[0][0].next_functions[0][0]))

flipped = 1 - waves
print(flipped, names(flipped.grad_fn))

weights = torch.arange(1.0, 40.0, requires_grad=True)
ratios = 3 / weights
print(ratios.grad_fn.name(), ratios.grad_fn.next_functions[0][0].name())
print(ratios)
print((ratios == torch.tensor(3.0) / weights.detach()).all())
(ratios.sum() + flipped.sum() + shifted.sum()).backward()
print(weights.grad[:5])
print(angles.grad)

steps = torch.tensor([0.1, 0.2, 0.7], dtype=torch.float64, requires_grad=True)
print(0.3 / steps, 0.3 - steps, 0.3 * steps)
