# Group normalisation (and instance normalisation, one channel a group) of float64 feature
# maps: the normalised values to the last digit, with and without the affine parameters.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(21)
maps = torch.randn(2, 6, 4, 4, dtype=torch.float64) * 2.5 - 0.75
norm = nn.GroupNorm(3, 6).double()
with torch.no_grad():
    norm.weight.copy_(torch.linspace(0.5, 2.0, 6))
    norm.bias.copy_(torch.linspace(-0.3, 0.3, 6))
print(norm(maps)[1, 4, 2].tolist())
print(F.group_norm(maps, 2)[0, 0, 0].tolist())
print(F.group_norm(maps, 6, eps=1e-3)[1, 5, 3].tolist())

signal = torch.randn(3, 2, 50, dtype=torch.float64) + 4
print(F.instance_norm(signal)[2, 1, :4].tolist())
per_group = F.group_norm(signal, 1)
print(per_group.mean(dim=(1, 2)).tolist())
