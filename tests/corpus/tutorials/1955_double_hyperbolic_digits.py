# Hyperbolic functions in float64 (a catenary, rapidities and their gradients), every digit shown.
import torch

torch.manual_seed(13)
x = torch.linspace(-2.0, 2.0, 21, dtype=torch.float64)
a = torch.tensor(1.7, dtype=torch.float64, requires_grad=True)
catenary = a * torch.cosh(x / a)
length = (a * torch.sinh(x / a)).diff().abs().sum()
length.backward()
print("catenary:", catenary.detach()[:5].tolist())
print("arc length:", length.item(), "d/da:", a.grad.item())

v = torch.rand(37, dtype=torch.float64) * 1.8 - 0.9  # velocities as fractions of c
rapidity = torch.atanh(v)
print("rapidities:", rapidity[[0, 15, 16, 36]].tolist())
print("sum:", rapidity.sum().item(), torch.sinh(rapidity).sum().item(), torch.cosh(rapidity).sum().item())
w = torch.randn(40, dtype=torch.float64, requires_grad=True)
torch.tanh(torch.atanh(w.clamp(-0.9, 0.9)) * 0.5).sum().backward()
print("grad:", w.grad[[0, 20, 39]].tolist())
bits = torch.randn(30, dtype=torch.float64) * 6
print("exp2:", torch.exp2(bits)[[3, 17, 28, 29]].tolist())
logits = torch.randn(50, dtype=torch.float64) * 3
p = torch.sigmoid(logits)
m, _ = torch.frexp(p)
print("sigmoid:", p[[0, 31, 47, 49]].tolist(), ((m * 2.0**53).remainder(16) * torch.arange(50)).sum().item())
