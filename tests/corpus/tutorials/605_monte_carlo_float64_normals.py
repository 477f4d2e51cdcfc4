# Monte Carlo with double-precision normals: how often does a standard normal land within one
# standard deviation? (A tutorial's first sampling exercise, seeded so the numbers repeat.)
import torch

torch.manual_seed(2024)
samples = torch.randn(300_000, dtype=torch.float64)
print(samples[:4])
print(samples[-3:])
inside = (samples.abs() < 1).sum().item()
print("fraction within one sigma:", inside / samples.numel())

# Shifted and scaled draws, and a second batch that continues the stream
heights = torch.normal(170.0, 8.0, size=(100_001,), dtype=torch.float64)
print(heights[:3])
print("tallest:", heights.max().item(), "shortest:", heights.min().item())
print((heights > 190).sum().item(), "above 190")

# The generator's state saved and restored mid-stream gives the same numbers again
state = torch.get_rng_state()
a = torch.randn(40_000, dtype=torch.float64)
torch.set_rng_state(state)
b = torch.randn(40_000, dtype=torch.float64)
print(torch.equal(a, b), a[12345].item())
