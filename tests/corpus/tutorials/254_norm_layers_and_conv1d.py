# LayerNorm and GroupNorm inside a small 1-d conv net on a sequence.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)
net = nn.Sequential(
    nn.Conv1d(2, 4, kernel_size=3, padding="same"),
    nn.GroupNorm(2, 4),
    nn.GELU(),
    nn.Conv1d(4, 4, kernel_size=3, dilation=2, groups=2),
    nn.AvgPool1d(2),
)
print(net)
seq = torch.randn(3, 2, 10)
out = net(seq)
print(out.shape)
print(out[0])

out.pow(2).mean().backward()
gn = net[1]
print(gn.weight.grad, gn.bias.grad)
print(net[0].weight.grad.shape, net[3].weight.grad.shape)

ln = nn.LayerNorm(10, elementwise_affine=False)
normed = ln(seq)
print(ln)
print(normed.mean(dim=-1).abs().max() < 1e-6)
print(normed.var(dim=-1, unbiased=False))

signal = torch.tensor([0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0])
edge = torch.tensor([[[-1.0, 1.0]]])
print(F.conv1d(signal.view(1, 1, -1), edge))
print(F.conv1d(signal.view(1, -1), edge, padding=1))
