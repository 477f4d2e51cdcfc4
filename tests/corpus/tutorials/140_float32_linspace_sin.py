import math
import torch

t = torch.linspace(0, 2 * math.pi, 25)
s = torch.sin(t)
print(t)
print(s)
print(s[-1].item())
print(torch.cos(torch.tensor(math.pi / 2)))
print(torch.tensor(0.1) + torch.tensor(0.2))
print((torch.tensor(0.1) + torch.tensor(0.2)).item())
print(torch.tensor(16777217.0), torch.tensor(16777217.0, dtype=torch.float64))
