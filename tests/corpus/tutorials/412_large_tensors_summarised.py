import torch

print(torch.arange(2000))
print(torch.arange(1001.0))
print(torch.arange(1000))
torch.manual_seed(1)
print(torch.randn(100, 100))
print(torch.ones(12, 10, 10))
print(torch.arange(3000).reshape(3, 1000))
print(torch.arange(3000).reshape(1000, 3))
x = torch.linspace(0, 1, 1500)
print(x)
print(x.shape, x[-3:])
print(torch.zeros(1000, 2, dtype=torch.bool))
