# Airy's function Ai solves y'' = x y: oscillating for negative x, decaying fast for
# positive x. torch.special.airy_ai in both precisions, its first zeros located by sign
# changes, and a check of the differential equation by finite differences.
import torch

x = torch.tensor([-30.0, -10.0, -2.5, -2.09, -1.0, 0.0, 0.5, 2.0, 2.09, 5.0, 8.5, 50.0, 104.0],
                 dtype=torch.float64)
print(torch.special.airy_ai(x).tolist())
print(torch.special.airy_ai(x.float()).tolist())

grid = torch.linspace(-8, 0, 801, dtype=torch.float64)
ai = torch.special.airy_ai(grid)
zeros = grid[1:][(ai[1:] * ai[:-1]) < 0]
print("zeros near:", [round(z, 2) for z in zeros.tolist()])

h = 1e-3
t = torch.tensor([-4.0, -1.5, 1.0, 3.0], dtype=torch.float64)
second = (torch.special.airy_ai(t + h) - 2 * torch.special.airy_ai(t) + torch.special.airy_ai(t - h)) / h ** 2
print("residual:", (second - t * torch.special.airy_ai(t)).abs().max().item() < 1e-6)
print(torch.special.airy_ai(torch.tensor([float("inf"), float("nan"), -float("inf")])))

# a transposed (non-contiguous) input and a 0-d one
grid2 = torch.arange(6.0).reshape(2, 3).t() - 2.5
print(torch.special.airy_ai(grid2))
print(torch.special.airy_ai(torch.tensor(-1.25)), torch.special.bessel_j0(grid2.t()))
