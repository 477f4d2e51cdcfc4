# torch.angle on real tensors: 0 for non-negative values, pi for negative ones,
# as code written for complex signals computes it on real data.
import math

import torch

signal = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0], requires_grad=True)
phase = torch.angle(signal)
print(phase)
print(phase / math.pi)
print(signal.angle().dtype, torch.angle(torch.tensor([-3, 0, 4])))
(phase * signal).sum().backward()
print(signal.grad)
print(phase.grad_fn.name())
x = torch.linspace(-1, 1, 5, dtype=torch.float64)
print(torch.angle(x))
print(torch.where(torch.angle(x) > 0, -x, x))
