import torch

counts = torch.tensor([3, 1, 4, 1, 5])
print(counts)
print(counts.sum())
print(counts * 2)
print(counts.max())
print(counts / 2)
print(counts.float().mean())
print(counts.shape, counts.dtype)
print(torch.arange(4))
