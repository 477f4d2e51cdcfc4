# Every interpolation mode of F.interpolate on small signals, images and volumes: linear,
# bicubic, trilinear, nearest, nearest-exact and area, with their gradients and PyTorch's
# errors for arguments that do not fit the mode.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)

signal = torch.tensor([[[0.0, 1.0, 4.0, 9.0, 16.0]]], requires_grad=True)
lin = F.interpolate(signal, size=8, mode="linear")
print(lin, lin.grad_fn.name())
lin.sum().backward()
print(signal.grad)
print(F.interpolate(signal, scale_factor=1.5, mode="linear", align_corners=True))

img = torch.randn(1, 2, 3, 4, requires_grad=True)
cubic = F.interpolate(img, scale_factor=2, mode="bicubic", align_corners=False)
print(cubic.shape, cubic.grad_fn.name())
print(cubic[0, 1, :2])
w = torch.linspace(-1, 1, cubic.numel()).reshape(cubic.shape)
(cubic * w).sum().backward()
print(img.grad)

img64 = torch.randn(1, 1, 4, 4, dtype=torch.float64, requires_grad=True)
c64 = F.interpolate(img64, size=(3, 5), mode="bicubic", align_corners=True)
print(c64)
g, = torch.autograd.grad(c64.sum(), img64)
print(g)

vol = torch.arange(24.0).reshape(1, 1, 2, 3, 4).requires_grad_()
tri = F.interpolate(vol, scale_factor=(1.5, 1, 0.5), mode="trilinear")
print(tri, type(tri.grad_fn).__name__)
tri.pow(2).sum().backward()
print(vol.grad)

x = torch.arange(10.0).reshape(1, 1, 10)
print(F.interpolate(x, size=4, mode="nearest"))
print(F.interpolate(x, size=4, mode="nearest-exact"))
print(F.interpolate(x, size=4, mode="area"))
print(F.interpolate(x.reshape(1, 1, 2, 5), scale_factor=1.5, mode="nearest-exact"))
print(nn.Upsample(size=(3, 4), mode="bicubic"), nn.Upsample(scale_factor=2.0, mode="trilinear"))

for kwargs in (
    {"scale_factor": 2, "mode": "bilinear"},
    {"scale_factor": 2, "mode": "linear", "align_corners": None},
    {"size": 4, "mode": "nearest", "align_corners": True},
    {"size": 4, "scale_factor": 2},
    {"size": 4, "mode": "linear", "recompute_scale_factor": True},
    {"scale_factor": 0.05, "mode": "linear"},
):
    try:
        F.interpolate(x, **kwargs)
    except (RuntimeError, ValueError, NotImplementedError) as e:
        print(type(e).__name__, ":", e)
