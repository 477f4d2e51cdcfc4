# A small conv net with GroupNorm between the convolutions (the usual replacement for
# BatchNorm when the batch is tiny): the gradients reaching the input image, the GroupNorm
# scale and shift, and the first conv's weights, then a couple of SGD steps.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, kernel_size=3, padding=1)
        self.gn1 = nn.GroupNorm(4, 16)
        self.conv2 = nn.Conv2d(16, 24, kernel_size=3, padding=1)
        self.gn2 = nn.GroupNorm(2, 24)
        self.head = nn.Linear(24, 5)

    def forward(self, x):
        x = F.relu(self.gn1(self.conv1(x)))
        x = F.relu(self.gn2(self.conv2(x)))
        x = x.mean(dim=(2, 3))
        return self.head(x)


net = SmallNet()
images = torch.randn(2, 3, 6, 6, requires_grad=True)
labels = torch.tensor([1, 4])

logits = net(images)
loss = F.cross_entropy(logits, labels)
loss.backward()
print("loss:", loss.item())
print("d loss / d image[0, 0]:")
print(images.grad[0, 0])
print("gn1 weight grad:", net.gn1.weight.grad)
print("gn1 bias grad:", net.gn1.bias.grad)
print("gn2 weight grad:", net.gn2.weight.grad[:8])
print("conv1 weight grad[0]:", net.conv1.weight.grad[0, 0])

opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
for step in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(net(images.detach()), labels)
    loss.backward()
    opt.step()
    print(step, loss.item(), net.gn2.bias.grad.abs().sum().item())
print(net.gn1.weight)
