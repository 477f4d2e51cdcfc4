# The classic curve-fitting setup: sin and cos sampled on a linspace in float32.
import math

import torch

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
c = torch.cos(x)
print(y[:6])
print(c[-6:])
print(y.shape, y.dtype)
print(torch.sin(torch.linspace(0, 20, 9)))
print(torch.cos(torch.linspace(-1000.0, 1000.0, 7)))
