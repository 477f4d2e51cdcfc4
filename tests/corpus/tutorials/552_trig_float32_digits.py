# sin and cos of float32 tensors printed with every digit.
import math

import torch

x = torch.linspace(-math.pi, math.pi, 2000)
print(torch.sin(x)[:40].tolist())
print(torch.cos(x)[1000:1040].tolist())
print(torch.sin(x).sum().item(), torch.cos(x).sum().item())
