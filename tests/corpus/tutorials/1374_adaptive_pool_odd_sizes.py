# A small CNN head with nn.AdaptiveAvgPool2d to a fixed 3x3 grid, fed images whose size is
# not a multiple of 3 (overlapping pooling windows), and the input gradients (saliency).
import torch
import torch.nn as nn

torch.manual_seed(7)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d((3, 3))
        self.fc = nn.Linear(4 * 9, 2)

    def forward(self, x):
        x = torch.relu(self.conv(x))
        x = self.pool(x)
        return self.fc(x.flatten(1))


net = Net()
for size in ((10, 10), (7, 11)):
    img = torch.randn(2, 3, *size, requires_grad=True)
    out = net(img)
    out[:, 1].sum().backward()
    print(size, out.tolist())
    print(img.grad[0, 0].tolist())

# the pooling alone, float64, 3-d and 1-d
v = torch.randn(1, 2, 5, 7, 6, dtype=torch.float64, requires_grad=True)
p3 = nn.functional.adaptive_avg_pool3d(v, (2, 3, 4))
p3.backward(torch.linspace(-1, 1, p3.numel(), dtype=torch.float64).view_as(p3))
print(v.grad[0, 1, 2].tolist())
s = torch.randn(2, 13, requires_grad=True)
p1 = nn.AdaptiveAvgPool1d(5)(s)
print(p1.tolist())
(p1 * torch.arange(5.0)).sum().backward()
print(s.grad.tolist())
