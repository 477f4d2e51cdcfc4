# Re-initialising selected layers: a small CNN whose classifier head is reset before
# fine-tuning, whose conv layers are re-drawn by type through `apply`, and whose BatchNorm
# statistics are cleared; an optimizer made before the reset sees the new values (the same
# Parameter objects are written in place).
import torch
import torch.nn as nn


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 4, kernel_size=3, padding=1),
            nn.BatchNorm2d(4),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
            nn.Conv2d(4, 6, kernel_size=3, bias=False),
            nn.ReLU(),
        )
        self.head = nn.Linear(6, 3)

    def forward(self, x):
        x = self.features(x)
        x = x.mean(dim=(2, 3))
        return self.head(x)


torch.manual_seed(0)
net = SmallCNN()
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(5, 1, 6, 6)
target = torch.tensor([0, 2, 1, 1, 0])
for step in range(3):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(net(x), target)
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")

print(net.features[1].running_mean)
print(net.features[1].num_batches_tracked)

head_weight = net.head.weight
print("version before reset:", net.head.weight._version)
net.head.reset_parameters()
print("same tensor:", head_weight is net.head.weight, "version:", net.head.weight._version)
print(net.head.weight)
print(net.head.bias)
print(opt.param_groups[0]["params"][-2] is net.head.weight)


def reinit_convs(m):
    if isinstance(m, nn.Conv2d):
        print("re-initialising", m._get_name(), tuple(m.weight.shape))
        m.reset_parameters()
    elif isinstance(m, nn.BatchNorm2d):
        m.reset_running_stats()


net.apply(reinit_convs)
print(net.features[0].weight[0])
print(net.features[0].bias)
print(net.features[1].running_mean, net.features[1].running_var)
print(net.features[1].num_batches_tracked)
print(net.features[1].weight)

net.features[1].reset_parameters()
print(net.features[1].weight, net.features[1].bias)

for step in range(2):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(net(x), target)
    loss.backward()
    opt.step()
    print(f"after reset step {step} loss {loss.item():.4f}")
