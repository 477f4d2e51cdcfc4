# A MobileNet-style depthwise-separable block (a depthwise 3x3 conv, groups == channels, then a
# pointwise 1x1 conv, each followed by BatchNorm and ReLU6), trained a few steps with Adam on
# random images in float32; the losses, the BatchNorm running statistics (which the
# depthwise conv's bias gradient, pure rounding noise before a BatchNorm, moves) and the
# depthwise weight's gradient, printed in full.
import torch
import torch.nn as nn

torch.manual_seed(0)


class DepthwiseSeparable(nn.Module):
    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.dw = nn.Conv2d(cin, cin, 3, stride=stride, padding=1, groups=cin)
        self.bn1 = nn.BatchNorm2d(cin)
        self.pw = nn.Conv2d(cin, cout, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.act = nn.ReLU6()

    def forward(self, x):
        x = self.act(self.bn1(self.dw(x)))
        return self.act(self.bn2(self.pw(x)))


net = nn.Sequential(
    nn.Conv2d(3, 16, 3, stride=2, padding=1),
    DepthwiseSeparable(16, 32),
    DepthwiseSeparable(32, 32, stride=2),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(32, 5),
)
print(net[1])
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
x = torch.randn(8, 3, 16, 16)
y = torch.randint(0, 5, (8,))
for step in range(4):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}")
print(net[2].bn1.running_mean)
print(net[2].bn1.running_var)
print(net[1].dw.weight.grad[:2])
print(net[1].dw.bias.grad[:4])
net.eval()
print(net(x[:2]))
