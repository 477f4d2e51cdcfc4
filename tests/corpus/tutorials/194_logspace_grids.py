# Log-spaced grids as hyperparameter sweeps and frequency tables build them, printed to
# every bit (tolist gives each element's exact value).
import torch

# learning rates for a sweep, and weight decays
print(torch.logspace(-5, -1, 5))
print(torch.logspace(0.30103, -2.69897, 7))
lrs = torch.logspace(-4.5, -0.5, 9)
print(lrs.tolist())
print(torch.logspace(1, 3, 1), torch.logspace(0.1, 0.7, 1).item())

# positional-encoding style frequencies with another base
freqs = torch.logspace(0, -1.3, 12, base=10000.0)
print(freqs.tolist())
print(torch.logspace(-3.3, 2.1, 9, base=2.5, dtype=torch.float16))
print(torch.logspace(-3.3, 2.1, 9, base=2.5, dtype=torch.float64).tolist())

# many steps, both halves of the kernel, endpoints that are not exact in float32
grid = torch.logspace(-2.7182818, 3.1415926, 101)
print(grid[::10].tolist())
print(grid[49:52].tolist(), grid[-1].item())
print(torch.logspace(start=torch.tensor(-1.1), end=torch.tensor(1.9), steps=6).tolist())
print(torch.logspace(2, -2, 4, base=2).tolist())
print(torch.logspace(0, 0, 3), torch.logspace(1, 2, 0))
