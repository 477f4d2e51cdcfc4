# Phasors with Python's cmath beside torch's complex tensors: polar and rectangular forms,
# roots of unity, and a tensor built from cmath values.
import cmath
import math

import torch
from cmath import exp, pi

z = cmath.rect(2.0, math.pi / 3)
print(z, abs(z), cmath.phase(z))
r, theta = cmath.polar(z)
print(round(r, 12), round(theta, 12))
print(cmath.sqrt(-4), cmath.log(-1), cmath.log(8, 2), cmath.exp(1j * cmath.pi))
roots = [exp(2j * pi * k / 5) for k in range(5)]
print(sum(roots), cmath.isclose(sum(roots), 0, abs_tol=1e-12))
t = torch.tensor(roots, dtype=torch.complex128)
print(t)
print(t.abs(), t.angle())
print(cmath.phase(t[1]), cmath.exp(torch.tensor(0.5)))
print(cmath.isfinite(z), cmath.isinf(cmath.inf), cmath.isnan(cmath.nanj), cmath.tau)
print(cmath.asin(2), cmath.acosh(0.5), cmath.tanh(1 + 1j), cmath.log10(-100))
try:
    cmath.exp(1e308 + 1j)
except OverflowError as e:
    print("OverflowError:", e)
try:
    cmath.sqrt("4")
except TypeError as e:
    print("TypeError:", e)
