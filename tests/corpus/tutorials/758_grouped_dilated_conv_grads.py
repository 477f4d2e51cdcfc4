# Grouped and dilated convolutions the way papers and forum answers use them (ResNeXt's grouped
# 3x3 conv, an atrous conv of DeepLab, a dilated causal conv1d of WaveNet), each run forward
# and backward in float32; the gradients printed as tensors and, to every digit, as lists.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
grouped = nn.Conv2d(32, 32, 3, padding=1, groups=4)  # 8 channels a group
x = torch.randn(2, 32, 6, 6, requires_grad=True)
out = grouped(x)
out.pow(2).mean().backward()
print(grouped)
print(x.grad[0, :2, :2])
print(grouped.weight.grad[:2, :2])
print(grouped.bias.grad[:6])
print(x.grad[1, 5, 2].tolist(), grouped.weight.grad[9, 3].flatten().tolist())

atrous = nn.Conv2d(16, 16, 3, padding=2, dilation=2)
feat = torch.randn(1, 16, 9, 9, requires_grad=True)
atrous(feat).sum().backward()
print(atrous)
print(feat.grad[0, 0])
print(atrous.weight.grad[0, :2])
print(feat.grad[0, 3, 4].tolist(), atrous.weight.grad[7, 9].flatten().tolist())

causal = nn.Conv1d(4, 8, 2, dilation=4)
seq = torch.randn(3, 4, 20, requires_grad=True)
h = causal(F.pad(seq, (4, 0)))
(h * torch.linspace(-1, 1, 20)).sum().backward()
print(h.shape)
print(seq.grad[0])
print(causal.bias.grad)
print(seq.grad[2, 1].tolist())

strided = nn.Conv2d(16, 32, 3, stride=2, padding=1, groups=2)
img = torch.randn(4, 16, 10, 10, requires_grad=True)
strided(img).tanh().sum().backward()
print(img.grad[1, 3])
print(strided.weight.grad[5, 1])
print(img.grad[3, 12, 5].tolist(), strided.weight.grad[20, 7].flatten().tolist())
