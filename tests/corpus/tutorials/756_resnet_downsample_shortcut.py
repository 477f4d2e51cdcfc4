# A residual block that halves the resolution: a 3x3 stride-2 conv path and a 1x1 stride-2
# shortcut, both before BatchNorm, trained a few steps with SGD and momentum in float32.
import torch
import torch.nn as nn

torch.manual_seed(1)
torch.set_printoptions(precision=10)


class Down(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.short = nn.Sequential(nn.Conv2d(cin, cout, 1, stride=2, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return torch.relu(out + self.short(x))


block = Down(3, 8)
head = nn.Linear(8, 2)
params = list(block.parameters()) + list(head.parameters())
opt = torch.optim.SGD(params, lr=0.1, momentum=0.9)
x = torch.randn(6, 3, 12, 12, requires_grad=True)
target = torch.randint(0, 2, (6,))
for step in range(4):
    opt.zero_grad()
    logits = head(block(x).mean(dim=(2, 3)))
    loss = nn.functional.cross_entropy(logits, target)
    loss.backward()
    opt.step()
    print(step, loss.item())
print(block.short[0].weight.grad[:, :, 0, 0])
print(block.conv1.weight.grad[0, 0])
print(x.grad[0, 0])
print(block.short[1].running_mean)
