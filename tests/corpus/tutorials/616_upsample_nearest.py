# Upsampling in a decoder: nn.Upsample / F.interpolate with mode='nearest' (scale factors of
# 2, fractional ones, explicit sizes, 1-d and 2-d), and the gradients that flow back through
# the copies (each source gathers the gradients of its copies).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.arange(6.0).view(1, 1, 2, 3).requires_grad_()
u = nn.Upsample(scale_factor=2, mode="nearest")
print(u)
y = u(x)
print(y, y.grad_fn.name())
print(nn.Upsample(size=(3, 5)), F.interpolate(x, size=(3, 5)))
print(
    F.interpolate(x, scale_factor=1.5).shape,
    F.interpolate(torch.arange(4.0).view(1, 1, 4), scale_factor=0.5),
)
print(nn.Upsample(scale_factor=(2, 1)))
z = F.interpolate(x, size=(5, 7))
(z * torch.arange(35.0).view(1, 1, 5, 7)).sum().backward()
print(z, x.grad)
w = torch.randn(2, 3, 7, requires_grad=True)
v = F.interpolate(w, scale_factor=2.3)
v.pow(2).sum().backward()
print(v.shape, v.grad_fn.name(), w.grad[0, 0])
try:
    F.interpolate(x)
except ValueError as e:
    print(e)
dec = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(1, 2, 3, padding=1), nn.ReLU())
out = dec(torch.randn(1, 1, 3, 3))
print(dec, out.shape, out[0, 1, :2])
