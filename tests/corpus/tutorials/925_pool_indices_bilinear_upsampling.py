# An encoder-decoder toy: max pooling that keeps its argmax indices for unpooling, a bilinear
# form written with F.bilinear against nn.Bilinear, and nearest-neighbour upsampling modules.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(7)
img = torch.randn(1, 2, 4, 4, requires_grad=True)
pooled, idx = F.max_pool2d_with_indices(img, kernel_size=2)
print(pooled.grad_fn.name(), idx)
restored = F.max_unpool2d(pooled, idx, kernel_size=2)
print(restored[0, 0])
restored.pow(2).sum().backward()
print(img.grad[0, 1])

seq = torch.tensor([[[0.5, -1.0, 2.0, 0.1, 3.0, -0.2]]])
values, where = F.max_pool1d_with_indices(seq, 2, stride=2)
print(values, where)

bil = nn.Bilinear(3, 2, 4)
u, v = torch.randn(5, 3), torch.randn(5, 2)
manual = F.bilinear(u, v, bil.weight, bil.bias)
print(torch.allclose(manual, bil(u, v)), manual.shape)
print(F.bilinear(u[0], v[0], bil.weight))
try:
    F.bilinear(u, v[:4], bil.weight, bil.bias)
except RuntimeError as e:
    print(e)

up = nn.UpsamplingNearest2d(scale_factor=2)
print(up, type(up))
small = torch.arange(4.0).reshape(1, 1, 2, 2).requires_grad_()
big = up(small)
print(big, big.grad_fn.name())
big.sum().backward()
print(small.grad)
print(nn.UpsamplingNearest2d(size=(3, 5))(small.detach()))
print(nn.Upsample(scale_factor=3), type(nn.Upsample(size=2)))

a = torch.tensor([90.0, 45.0])
a.deg2rad_()
print(a)
a.rad2deg_()
print(a)
