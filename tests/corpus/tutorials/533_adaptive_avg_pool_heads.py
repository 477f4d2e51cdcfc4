# A small CNN with a global-average-pooling head (AdaptiveAvgPool2d(1), as ResNet ends) and
# a fixed 3x3 grid pooling of odd-sized maps (overlapping windows), trained one step; then
# adaptive pooling of a 1-d signal.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
features = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU())
gap = nn.AdaptiveAvgPool2d(1)
grid = nn.AdaptiveAvgPool2d((3, 3))
print(gap, grid)
head = nn.Linear(4, 2)
img = torch.randn(2, 1, 9, 8)
maps = features(img)
pooled = gap(maps)
print(pooled.shape, pooled.grad_fn.name())
logits = head(pooled.flatten(1))
loss = F.cross_entropy(logits, torch.tensor([0, 1]))
loss.backward()
print(loss)
print(features[0].bias.grad)

x = torch.arange(35.0).reshape(1, 1, 7, 5).requires_grad_()
g = grid(x)
print(g)
(g * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad)

sig = torch.randn(1, 2, 10, requires_grad=True)
y = F.adaptive_avg_pool1d(sig, 3)
print(y)
y.sum().backward()
print(sig.grad)
print(F.adaptive_avg_pool2d(torch.ones(3, 4, 4), (None, 2)).shape)
