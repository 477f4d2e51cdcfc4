# Feeding a single image through a conv layer (the shape beginners try first), then a
# grouped conv as in ResNeXt blocks, printing the feature values and input gradients.
import torch
import torch.nn as nn

torch.manual_seed(1)
image = torch.randn(1, 3, 8, 8, requires_grad=True)
conv = nn.Conv2d(3, 6, kernel_size=3, padding=1)
features = conv(image)
print(features.shape)
print(features[0, 2, 4].tolist())
features.relu().sum().backward()
print(image.grad[0, 0, 3].tolist())

pointwise = nn.Conv2d(6, 10, kernel_size=1)
print(pointwise(features)[0, 9, 0].tolist())

grouped = nn.Conv2d(16, 16, kernel_size=3, padding=1, groups=2)
x = torch.randn(2, 16, 6, 6, requires_grad=True)
y = grouped(x)
print(y[1, 12, 2].tolist())
y.tanh().sum().backward()
print(x.grad[0, 9, 5].tolist())
