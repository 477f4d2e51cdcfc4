# A sequence classifier pools a variable-length feature map to a fixed length with
# AdaptiveAvgPool1d, and an image head pools 13 x 13 to 6 x 5 (the windows overlap and
# differ in size). The pooled features are printed with all of float32's digits.
import torch
import torch.nn as nn

torch.manual_seed(4)
features = torch.randn(2, 3, 25)
pool = nn.AdaptiveAvgPool1d(7)
pooled = pool(features)
print(pooled.shape)
for row in pooled[0]:
    print([f"{v:.9g}" for v in row.tolist()])

image = torch.randn(1, 2, 13, 13, requires_grad=True)
head = nn.AdaptiveAvgPool2d((6, 5))
out = head(image)
print(out.grad_fn.name(), out.shape)
print([f"{v:.9g}" for v in out[0, 1].flatten().tolist()])
out.sum().backward()
print(image.grad[0, 0, :2])

volume = torch.randn(1, 1, 5, 7, 6)
print([f"{v:.9g}" for v in nn.AdaptiveAvgPool3d((2, 3, 4))(volume).flatten().tolist()])

# a window of signed zeros sums to +0, as PyTorch's loop starts from 0
print(nn.AdaptiveAvgPool1d(2)(torch.tensor([[[-0.0, -0.0, -0.0, 1.0]]])))
