# Small helpers notebooks reach for around autograd code: math.prod for sizes,
# functools.reduce to fold modules or tensors, and the math module's scalar functions.
import functools
import math
from functools import reduce

import torch
import torch.nn as nn

torch.manual_seed(0)
image_shape = (3, 8, 8)
flat = math.prod(image_shape)
model = nn.Sequential(nn.Flatten(), nn.Linear(flat, 4), nn.Tanh(), nn.Linear(4, 1))
x = torch.randn(2, *image_shape)
print(flat, model(x).shape)

n_params = reduce(lambda acc, p: acc + p.numel(), model.parameters(), 0)
print(n_params, sum(math.prod(p.shape) for p in model.parameters()))

# a product of tensors, differentiated
w = torch.tensor([0.5, 2.0, -1.5], requires_grad=True)
total = math.prod(w, start=torch.tensor(2.0))
total.backward()
print(total, w.grad)

# composing functions with reduce
steps = [torch.sin, torch.exp, lambda t: t * 3]
z = torch.tensor(0.3, requires_grad=True)
out = functools.reduce(lambda acc, f: f(acc), steps, z)
out.backward()
print(out, z.grad)

angle = math.atan2(1.0, -1.0)
print(round(math.degrees(angle), 4), math.radians(90), math.hypot(3.0, 4.0))
print(math.pow(2, 10), math.isinf(-math.inf), math.trunc(-3.7), math.copysign(1.0, -0.0))
print(math.gamma(4.5), math.lgamma(0.5), math.erfc(1.0), math.expm1(1e-8))
print(math.asinh(2.0), math.acosh(3.0), math.atanh(-0.25), math.fmod(-7.0, 3.0))
lr = 0.1 * math.pow(0.5, math.floor(25 / 10))
print(lr)
for bad in (lambda: reduce(lambda a, b: a + b, []), lambda: math.acosh(0.5)):
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
