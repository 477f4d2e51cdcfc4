# Adding Gaussian noise to a batch of float32 signals (data augmentation), with its own generator
import torch

gen = torch.Generator().manual_seed(7)
signal = torch.linspace(0, 1, 50_000).reshape(10, 5_000)
noise = torch.randn(signal.shape, generator=gen) * 0.05
noisy = signal + noise
print(noise[0, :5])
print(noise[9, -3:])
print(noisy[3, 1000:1004])
print("clipped:", (noisy > 1).sum().item(), (noisy < 0).sum().item())

# A non-contiguous view filled in place, then the stream continues
grid = torch.zeros(2_000, 3)
grid.t().normal_(0.0, 2.0, generator=gen)
print(grid[:2])
print(torch.randn(5, generator=gen))
