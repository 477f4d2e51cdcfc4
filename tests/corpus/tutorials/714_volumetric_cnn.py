# A small 3-D convolutional network for volumes (medical scans, short video clips), in the
# style of the 3-D CNN tutorials: Conv3d, BatchNorm3d, MaxPool3d, AvgPool3d,
# AdaptiveAvgPool3d, a ConvTranspose3d decoder, a few training steps, and the functional forms.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class VolumeNet(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv3d(1, 4, kernel_size=3, padding=1),
            nn.BatchNorm3d(4),
            nn.ReLU(),
            nn.MaxPool3d(2),
            nn.Conv3d(4, 6, kernel_size=(1, 3, 3), padding=(0, 1, 1)),
            nn.ReLU(),
            nn.AvgPool3d(kernel_size=(1, 2, 2)),
            nn.AdaptiveAvgPool3d((1, 1, 1)),
        )
        self.classifier = nn.Linear(6, classes)

    def forward(self, x):
        x = self.features(x)
        return self.classifier(torch.flatten(x, 1))


model = VolumeNet()
print(model)
volumes = torch.randn(2, 1, 4, 8, 8)
labels = torch.tensor([0, 2])
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for step in range(3):
    optimizer.zero_grad()
    logits = model(volumes)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss = {loss.item():.4f}")
print(logits)
print(model.features[0].weight.grad[0, 0, 1])
print(model.features[1].running_mean)

# The functional forms and their gradients.
x = torch.randn(1, 2, 3, 4, 4, requires_grad=True)
w = torch.randn(3, 2, 2, 2, 2, requires_grad=True)
y = F.conv3d(x, w, stride=(1, 2, 2), padding=1)
print(y.shape, y.grad_fn.name())
pooled, idx = F.max_pool3d(x, kernel_size=2, stride=1, return_indices=True)
print(pooled.shape, pooled.grad_fn.name(), idx[0, 1, 0])
avg = F.avg_pool3d(x, kernel_size=(1, 2, 2), count_include_pad=False, padding=(0, 1, 1))
print(avg[0, 0, 2])
ada = F.adaptive_avg_pool3d(x, (2, 3, 2))
print(ada.grad_fn.name(), ada[0, 1])
(y.sum() + pooled.pow(2).sum() + avg.mean() + ada.sum()).backward()
print(x.grad[0, 0, 1])
print(w.grad[1, 0])

# An upsampling decoder: ConvTranspose3d doubles each spatial size.
up = nn.ConvTranspose3d(2, 1, kernel_size=2, stride=2)
print(up)
z = up(x)
print(z.shape, z.grad_fn.name())
z.abs().sum().backward()
print(up.weight.grad.flatten()[:4])

for bad in (
    lambda: F.conv3d(torch.ones(2, 3, 3), w),
    lambda: F.max_pool3d(torch.ones(3, 3), 2),
    lambda: nn.MaxPool3d(2)(torch.ones(1, 1, 0, 4, 4)),
    lambda: F.adaptive_avg_pool3d(torch.ones(2, 3), (1, 2)),
):
    try:
        bad()
    except (RuntimeError, ValueError, TypeError) as e:
        print(type(e).__name__, "-", e)
