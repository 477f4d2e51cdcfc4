import torch

# Fit a straight line y = w * x + b through a handful of points with least squares.
x = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
y = torch.tensor([3.0, 5.0, 7.0, 9.0, 11.0, 13.0])

A = torch.stack([x, torch.ones_like(x)], dim=1)
result = torch.linalg.lstsq(A, y.unsqueeze(1))
print(result.solution)
w, b = result.solution.squeeze()
print(f"slope = {w.item():.4f}, intercept = {b.item():.4f}")

# the same fit in double precision, and the runoob example
A64 = torch.tensor([[1.0, 1.0], [1.0, 2.0], [1.0, 3.0]], dtype=torch.float64)
B64 = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64).unsqueeze(-1)
print(torch.linalg.lstsq(A64, B64).solution)

# noisy data: a quadratic through 8 points
t = torch.linspace(-1, 1, 8)
noise = torch.tensor([0.05, -0.02, 0.03, -0.04, 0.01, 0.02, -0.03, 0.04])
target = 2 * t**2 - t + 0.5 + noise
V = torch.stack([t**2, t, torch.ones_like(t)], dim=1)
coef = torch.linalg.lstsq(V, target).solution
print(coef)
print(V @ coef - target)
