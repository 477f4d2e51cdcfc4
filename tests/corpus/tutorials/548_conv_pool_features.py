# Feature maps of a small batch through conv -> relu -> average pooling,
# with the gradients of a scalar score, printed at full precision.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
torch.set_printoptions(precision=7, linewidth=100)

images = torch.randn(2, 3, 10, 10, requires_grad=True)
conv = nn.Conv2d(3, 12, kernel_size=3, padding=1)
pool = nn.AvgPool2d(kernel_size=3, stride=2, padding=1)

feat = conv(images)
print(feat[0, 0, :3])
act = F.relu(feat)
pooled = pool(act)
print(pooled.shape)
print(pooled[1, 5])

score = pooled.mean()
score.backward()
print(f"score = {score.item():.9f}")
print(images.grad[0, 1, :2])
print(conv.bias.grad)

# a 1-d signal with more channels than one vector block
signal = torch.randn(3, 20, 16, requires_grad=True)
conv1 = nn.Conv1d(20, 9, kernel_size=5, padding=2)
out = conv1(signal)
print(out[2, :3])
F.avg_pool1d(out, 3, stride=1).pow(2).sum().backward()
print(signal.grad[0, :2])
