# A small float16 convolutional block on the CPU: Conv1d and Conv2d with biases and groups.
import torch
import torch.nn as nn

torch.manual_seed(7)

block = nn.Sequential(
    nn.Conv2d(3, 8, kernel_size=3, padding=1),
    nn.ReLU(),
    nn.Conv2d(8, 8, kernel_size=3, stride=2, groups=2),
).half()
images = torch.randn(2, 3, 12, 12).half()
features = block(images)
print(features.dtype, features.shape)
print(features[0, 0, 0])
print(features[1, 7, :, 2])
print("sum:", features.float().sum().item())

signal = torch.randn(1, 4, 30).half()
conv1 = nn.Conv1d(4, 6, kernel_size=5, dilation=2, bias=True).half()
out = conv1(signal)
print(out[0, :, :4])
print("mean:", out.float().mean().item())
