# Numerically careful float64 formulas with log1p and expm1, and their gradients, in full digits.
import torch

torch.manual_seed(8)
x = torch.randn(300, dtype=torch.float64) * 3
softplus = torch.clamp(x, min=0) + torch.log1p(torch.exp(-x.abs()))
print("softplus by hand, a few:", softplus[:5].tolist())
mantissa, _ = torch.frexp(softplus)
print("last bits checksum:", ((mantissa * 2.0**53).remainder(16) * torch.arange(300)).sum().item())

rate = torch.tensor(0.035, dtype=torch.float64, requires_grad=True)
years = torch.arange(1, 31, dtype=torch.float64)
growth = torch.expm1(years * torch.log1p(rate))  # (1 + r)**n - 1, for a small r
growth.sum().backward()
print("growth:", growth[[0, 9, 29]].tolist())
print("d/d rate:", rate.grad.item())
tiny = torch.tensor([1e-12, -1e-9, 3e-7], dtype=torch.float64)
print("expm1 of tiny:", torch.expm1(tiny).tolist(), "log1p:", torch.log1p(tiny).tolist())
m2, _ = torch.frexp(torch.expm1(x))
print("expm1 checksum:", ((m2 * 2.0**53).remainder(16) * torch.arange(300)).sum().item())
