# A tiny video classifier stem kept in half precision to save memory: Conv3d over
# (frames, height, width), a dilated Conv3d, then a transposed Conv3d to upsample again.
import torch
import torch.nn as nn

torch.manual_seed(2251)

stem = nn.Sequential(
    nn.Conv3d(3, 4, kernel_size=(2, 3, 3), padding=1),
    nn.ReLU(),
    nn.Conv3d(4, 4, kernel_size=2, dilation=2),
).half()
up = nn.ConvTranspose3d(4, 2, kernel_size=2, stride=2).half()

clip = torch.randn(2, 3, 4, 6, 6).half()
features = stem(clip)
print(features.shape, features.dtype)
print(features[0, 1, 0])
out = up(features)
print(out.shape)
print(out[1, 0, 1, :3])

loss = out.float().pow(2).mean()
print("loss:", loss.item())
loss.backward()
print(stem[0].bias.grad)
print(stem[2].bias.grad)
print(stem[2].weight.grad[0, 0])
print(up.weight.grad[1, 1])
