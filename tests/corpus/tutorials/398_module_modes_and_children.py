# train()/eval() propagate to every submodule; modules(), children(), named_modules();
# a module's repr with nested containers; zero_grad(set_to_none) on the model.
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.fc = nn.Linear(n, n)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return self.drop(torch.relu(self.fc(x))) + x


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.Sequential(Block(3), Block(3))
        self.head = nn.Linear(3, 1)

    def forward(self, x):
        return self.head(self.blocks(x))


torch.manual_seed(27)
net = Net()
print(net)
net.eval()
print([m.training for m in net.modules()])
net.train()
print(all(m.training for m in net.modules()))
for name, m in net.named_modules():
    print(repr(name), type(m).__name__)
print([type(c).__name__ for c in net.children()])
out = net(torch.randn(5, 3)).sum()
out.backward()
print(net.head.weight.grad is not None)
net.zero_grad()
print(net.head.weight.grad)
