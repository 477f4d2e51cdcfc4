# Bessel functions from torch.special: the first kind J0, J1 and the second kind Y0, Y1,
# plus the spherical j0 = sin(x) / x. Printed to all digits (tolist) in both precisions,
# across the switch of formula at |x| = 5 and on the special points.
import math
import torch

x64 = torch.tensor([0.0, 1e-6, 0.3, 1.0, 2.404825557695773, 4.999, 5.0, 5.001, 7.5, 12.0,
                    31.4, -3.0, -17.25, math.inf])
x32 = x64.float()

for name in ("bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "spherical_bessel_j0"):
    fn = getattr(torch.special, name)
    print(name)
    print("  float64:", fn(x64.double()).tolist())
    print("  float32:", fn(x32).tolist())

# integers are computed in the default dtype; the zeros of J0 are where it changes sign
k = torch.arange(0, 8)
print(torch.special.bessel_j0(k))
grid = torch.linspace(0.5, 9.5, 19, dtype=torch.float64)
j0 = torch.special.bessel_j0(grid)
print("sign changes of J0 after:", grid[:-1][(j0[:-1] * j0[1:]) < 0].tolist())

# PyTorch has no derivative for them: the result does not require grad
w = torch.tensor([1.5, 2.5], requires_grad=True)
out = torch.special.bessel_y1(w)
print(out, out.requires_grad)
try:
    out.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.special.bessel_j1(torch.ones(2, dtype=torch.float16))
except NotImplementedError as e:
    print("NotImplementedError:", e)
