import torch

# Least squares for several small problems at once, and a polynomial trend on 30 samples.
torch.manual_seed(0)

# three lines through exact points, solved as one batch
xs = torch.arange(1.0, 6.0)
design = torch.stack([xs, torch.ones_like(xs)], dim=-1).expand(3, 5, 2)
slopes = torch.tensor([0.5, -2.0, 3.0])
intercepts = torch.tensor([1.0, 0.0, -1.5])
ys = slopes[:, None] * xs + intercepts[:, None]
fit = torch.linalg.lstsq(design, ys.unsqueeze(-1))
print(fit.solution.squeeze(-1))
print(fit.rank)

# a cubic trend through 30 noisy samples (double precision), with the QR driver
t = torch.linspace(0, 3, 30, dtype=torch.float64)
signal = 0.5 * t**3 - 2 * t**2 + t + 4
noisy = signal + 0.1 * torch.randn(30, dtype=torch.float64)
V = torch.vander(t, N=3)
out = torch.linalg.lstsq(V, noisy.unsqueeze(1), driver="gels")
print(out.solution.T)
print(out.residuals)
print(torch.linalg.lstsq(V, signal.unsqueeze(1), driver="gels").residuals)

# an exact parabola y = x^2 - 3 through integer points, two right-hand sides at once
x = torch.arange(-4.0, 5.0, dtype=torch.float64)
P = torch.stack([x**2, x, torch.ones_like(x)], dim=1)
B = torch.stack([x**2 - 3, 2 * x], dim=1)
print(torch.linalg.lstsq(P, B, driver="gels").solution)
print(torch.linalg.lstsq(P.float(), B.float(), driver="gels").solution)
