# Older segmentation code calls the deprecated F.upsample / F.upsample_nearest (PyTorch warns
# and runs F.interpolate); the gradient of nearest upsampling sums each source pixel's copies.
import torch
import torch.nn.functional as F

feat = torch.arange(1.0, 5.0).reshape(1, 1, 2, 2).requires_grad_()
up = F.upsample(feat, scale_factor=2, mode="nearest")
print(up.shape, up.grad_fn.name())
print(torch.equal(up, F.interpolate(feat, scale_factor=2)))
near = F.upsample_nearest(feat, size=(3, 3))
print(near)
(up.sum() + near.pow(2).sum()).backward()
print(feat.grad)
print(F.upsample(torch.arange(3.0).view(1, 1, 3), size=5))
