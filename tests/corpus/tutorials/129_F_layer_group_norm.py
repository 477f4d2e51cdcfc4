import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[1.0, 2.0, 3.0, 4.0], [-1.0, 0.0, 1.0, 5.0]], requires_grad=True)
y = F.layer_norm(x, normalized_shape=(4,))
print(y)
(y * torch.tensor([0.5, -1.0, 2.0, 1.0])).sum().backward()
print(x.grad)

ln = nn.LayerNorm(4)
print(ln)
print(ln(x.detach()))
print(ln.weight, ln.bias)

g = torch.arange(16.0).reshape(2, 4, 2)
print(F.group_norm(g, num_groups=2))
gn = nn.GroupNorm(2, 4)
print(gn(g).shape)
