import torch
import torch.nn as nn


class Tower(nn.Module):
    """A stack of layers registered by name in a loop, as configs often build them."""

    def __init__(self, sizes):
        super().__init__()
        self.depth = len(sizes) - 1
        for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
            self.add_module(f"block{i}", nn.Linear(a, b))

    def forward(self, x):
        for i in range(self.depth):
            x = torch.tanh(getattr(self, f"block{i}")(x))
        return x


torch.manual_seed(0)
net = Tower([3, 4, 2])
print([name for name, _ in net.named_children()])

# names PyTorch refuses for a submodule
for bad in ["block.extra", "", "depth"]:
    try:
        net.add_module(bad, nn.ReLU())
    except KeyError as err:
        print("KeyError:", err)
try:
    net.add_module(7, nn.ReLU())
except TypeError as err:
    print("TypeError:", err)

x = torch.ones(2, 3, dtype=torch.float64)
net = net.double()
out = net(x).sum()
out.backward()
print(round(out.item(), 6), net.block0.bias.grad.shape)
