# GroupNorm on a small batch of feature maps: the normalised values, the affine with a learned
# scale and shift, group counts from 1 (LayerNorm-like) to C (InstanceNorm-like), and a step.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5)
x = torch.randn(4, 6, 5, 5) * 2 + 0.5
for groups in (1, 2, 3, 6):
    gn = nn.GroupNorm(groups, 6)
    y = gn(x)
    print(groups, y[1, :, 2, 2], y.mean().item(), y.sum().item())

gn = nn.GroupNorm(3, 6, eps=1e-3)
with torch.no_grad():
    gn.weight.copy_(torch.linspace(0.5, 2.0, 6))
    gn.bias.copy_(torch.linspace(-1.0, 1.0, 6))
y = gn(x)
print(y[0, :, 0, :3])
print(y.sum(dim=(0, 2, 3)))

plain = F.group_norm(x, 2)
print(plain[2, 3, 1], plain.double().sum().item())
seq = torch.randn(3, 8, 10)
print(F.group_norm(seq, 4, torch.ones(8) * 1.5, torch.zeros(8) - 0.25)[1, :, 4])

opt = torch.optim.SGD(gn.parameters(), lr=0.1)
target = torch.randn(4, 6, 5, 5)
loss = F.mse_loss(gn(x), target)
loss.backward()
print(round(loss.item(), 5), gn.weight.grad.shape, gn.bias.grad.shape)
opt.step()
print(gn.bias)
print(F.group_norm(x.double(), 3)[0, 0, 0])
