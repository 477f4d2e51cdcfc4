# A segmentation-style decoder: feature maps are upsampled with bilinear interpolation
# (F.interpolate, nn.Upsample, nn.UpsamplingBilinear2d), mixed with a skip connection, and
# the loss is backpropagated to the input and to a convolution's weights.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

feat = torch.randn(2, 3, 4, 5, requires_grad=True)
up = F.interpolate(feat, scale_factor=2, mode="bilinear", align_corners=False)
print(up.shape, up.grad_fn.name())
print(up[0, 0, :3])

aligned = F.interpolate(feat, size=(7, 9), mode="bilinear", align_corners=True)
print(aligned[1, 2, -2:])

# nn.UpsamplingBilinear2d is bilinear with align_corners=True
m = nn.UpsamplingBilinear2d(scale_factor=2)
print(m)
print(torch.equal(m(feat), F.interpolate(feat, scale_factor=2, mode="bilinear", align_corners=True)))

decoder = nn.Sequential(
    nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False),
    nn.Conv2d(3, 4, kernel_size=3, padding=1),
    nn.ReLU(),
)
print(decoder)
skip = torch.randn(2, 4, 8, 10)
out = decoder(feat) + skip
loss = out.pow(2).mean()
loss.backward()
print(f"loss = {loss.item():.6f}")
print(feat.grad[0, 0])
print(decoder[1].weight.grad[0, 0])

# downsampling with a fractional scale factor, kept (not recomputed) and recomputed
small = torch.arange(36.0).reshape(1, 1, 6, 6)
print(F.interpolate(small, scale_factor=0.7, mode="bilinear"))
print(F.interpolate(small, scale_factor=0.7, mode="bilinear", recompute_scale_factor=True))

# many channels: a 16-channel feature map, float64
wide = torch.randn(1, 16, 3, 3, dtype=torch.float64, requires_grad=True)
y = F.interpolate(wide, size=(5, 4), mode="bilinear")
y.backward(torch.ones_like(y))
print(y[0, 15], wide.grad[0, 15], sep="\n")
