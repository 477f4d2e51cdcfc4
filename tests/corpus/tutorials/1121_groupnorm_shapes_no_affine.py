# GroupNorm gradients on every input rank it takes: a (batch, features) matrix, a sequence
# (batch, channels, length), images and volumes; with and without the learned affine, and
# group sizes that are not powers of two.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)

feats = torch.randn(4, 12, requires_grad=True)
out = nn.GroupNorm(3, 12)(feats)
(out * torch.arange(12.0)).sum().backward()
print(feats.grad)

seq = torch.randn(2, 20, 7, requires_grad=True)
gn = nn.GroupNorm(2, 20, affine=False)
y = gn(seq)
y.pow(3).sum().backward()
print(seq.grad[1, :4])
print(seq.grad.sum(dim=2))

vol = torch.randn(2, 9, 3, 2, 2, requires_grad=True)
w = torch.rand(9, requires_grad=True)
b = torch.zeros(9, requires_grad=True)
z = F.group_norm(vol, 3, w, b, eps=1e-3)
loss = (z - 0.5).abs().mean()
loss.backward()
print(loss.item())
print(vol.grad[0, :, 0, 0, 0])
print(w.grad)
print(b.grad)

img = torch.randn(3, 13, 4, 4) * 5 + 2
img.requires_grad_()
gn = nn.GroupNorm(1, 13)
target = torch.randn(3, 13, 4, 4)
F.mse_loss(gn(img), target).backward()
print(img.grad[2, 12])
print(gn.weight.grad)
