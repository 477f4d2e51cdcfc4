import torch

big = torch.arange(2000.0)
print(big)
grid = torch.arange(1200).reshape(40, 30)
print(grid)
cube = torch.ones(12, 10, 10)
print(cube.shape)
print(cube)
print(torch.arange(1001) * 0.5)
print(torch.linspace(0, 1, 1000))
