# A small strided CNN (conv -> BatchNorm -> ReLU, twice, stride 2) trained with Adam in
# float32: the convs' biases before BatchNorm get gradients of pure rounding noise, which Adam
# turns into full-size steps, so the running statistics show the order of the input gradient
# of the strided convolutions.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 4, 3, stride=2, padding=1)
        self.b1 = nn.BatchNorm2d(4)
        self.c2 = nn.Conv2d(4, 8, 3, stride=2, padding=1)
        self.b2 = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8 * 3 * 3, 3)

    def forward(self, x):
        x = F.relu(self.b1(self.c1(x)))
        x = F.relu(self.b2(self.c2(x)))
        return self.fc(x.flatten(1))


net = Net()
opt = torch.optim.Adam(net.parameters(), lr=0.01)
x = torch.randn(8, 1, 10, 10)
y = torch.randint(0, 3, (8,))
for step in range(6):
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}")
print(net.b2.running_mean)
print(net.b2.running_var)
print(net.c2.bias.grad)
print(net.c1.weight.grad[0, 0])
