# A forward hook zeroes a layer's output by multiplying it by 0: negative values become -0.0,
# and what ReLU, clamp and relu6 pass on keeps that sign (1 / x shows it).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
layer = nn.Linear(3, 4)
layer.register_forward_hook(lambda m, i, o: o * 0)
h = layer(torch.randn(2, 3))
print(h)
r = nn.ReLU()(h)
print(r, 1 / r)
print(F.relu6(h), h.clamp(min=0.0), h.clamp(max=0.0), torch.clamp(h, 0.0, 1.0))
v = torch.tensor([-0.0, 0.0, -1.0, 2.0, float("nan")])
print(torch.relu(v), v.clamp_min(0), F.hardtanh(v, 0.0, 1.0))
print(torch.relu(v.double()), torch.relu(v.half()))
