import torch

torch.manual_seed(42)
print(torch.randint(0, 10, (5,)))
print(torch.randint(3, (2, 3)))
print(torch.randperm(8))
print(torch.randint(-5, 5, (4,)).dtype)
idx = torch.randperm(6)
data = torch.arange(6.0) * 10
print(data[idx])
print(torch.rand_like(data))
print(torch.randn_like(data).shape)
print(torch.randint_like(data, 100))
