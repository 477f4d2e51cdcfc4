# The modified Bessel functions I0, I1 (growing) and K0, K1 (decaying), and the scaled
# K's that stay finite where exp(-x) underflows. The von Mises density uses I0 as its
# normalizer; here it is checked to integrate to one.
import math
import torch

x64 = torch.tensor([1e-8, 0.25, 1.0, 1.999, 2.0, 2.001, 5.0, 7.999, 8.0, 8.001, 30.0, 700.0],
                   dtype=torch.float64)
for name in ("modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0",
             "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1"):
    fn = getattr(torch.special, name)
    print(name)
    print("  float64:", fn(x64).tolist())
    print("  float32:", fn(x64.float()).tolist())

print(torch.special.modified_bessel_i1(torch.tensor([-3.0, -0.5])))
print(torch.special.modified_bessel_k0(torch.tensor([0.0, -1.0])))

# von Mises density exp(kappa cos(t - mu)) / (2 pi I0(kappa)), integrated over a period
kappa = torch.tensor(2.5, dtype=torch.float64)
t = torch.linspace(-math.pi, math.pi, 2001, dtype=torch.float64)
density = torch.exp(kappa * torch.cos(t - 0.3)) / (2 * math.pi * torch.special.modified_bessel_i0(kappa))
print(f"integral: {torch.trapezoid(density, t).item():.10f}")

k = torch.tensor([10.0, 50.0, 100.0], requires_grad=True)
ratio = torch.special.modified_bessel_i1(k) / torch.special.modified_bessel_i0(k)
print(ratio, ratio.requires_grad)
