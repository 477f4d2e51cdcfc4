# Edge filters on a small double-precision RGB image: the exact numbers a float64 conv gives.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
img = torch.rand(2, 3, 6, 7, dtype=torch.float64)

# a Sobel-like kernel applied to every colour channel, summed into one map
sobel = torch.tensor([[1.0, 0.0, -1.0], [2.0, 0.0, -2.0], [1.0, 0.0, -1.0]], dtype=torch.float64)
weight = (sobel / 3.7).expand(1, 3, 3, 3).contiguous()
edges = F.conv2d(img, weight)
print("edges shape:", tuple(edges.shape))
print(edges[1, 0].tolist())

# a layer with several filters, a bias, stride and padding
conv = nn.Conv2d(3, 5, kernel_size=3, stride=2, padding=1).double()
out = conv(img)
print("layer out:", tuple(out.shape))
for row in out[0, :, 1].tolist():
    print(row)

# dilated filters and a 1d signal
wide = F.conv2d(img, torch.randn(4, 3, 2, 2, dtype=torch.float64), dilation=2)
print(wide.sum(dim=(2, 3)).tolist())
sig = torch.randn(1, 4, 12, dtype=torch.float64)
print(F.conv1d(sig, torch.randn(6, 4, 3, dtype=torch.float64), torch.randn(6, dtype=torch.float64))[0, :, ::3].tolist())

# the gradients, rounded (their order is another kernel's)
out.pow(2).mean().backward()
print(round(conv.weight.grad.abs().sum().item(), 9), round(conv.bias.grad.sum().item(), 9))
