# Layers made in a loop and named with setattr (a common way to build an MLP of any depth
# before nn.ModuleList), read back with getattr; then .data swapped for a new tensor, which
# takes its storage, shape and dtype as PyTorch's set_data does.
import torch
import torch.nn as nn

torch.manual_seed(0)


class DeepNet(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.depth = len(sizes) - 1
        for i in range(self.depth):
            setattr(self, f"layer{i}", nn.Linear(sizes[i], sizes[i + 1]))

    def forward(self, x):
        for i in range(self.depth):
            x = getattr(self, f"layer{i}")(x)
            if i < self.depth - 1:
                x = torch.relu(x)
        return x


net = DeepNet([3, 5, 4, 1])
print(net)
print([name for name, _ in net.named_parameters()])
x = torch.linspace(-1, 1, 12).view(4, 3)
loss = net(x).pow(2).mean()
loss.backward()
print(loss)
print(net.layer2.weight.grad)

w = torch.ones(2, requires_grad=True)
new = torch.zeros(3, dtype=torch.float64)
w.data = new
new.add_(0.5)
print(w, w.shape, w.dtype)
try:
    w.data = torch.arange(3)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    w.data = [1.0, 2.0]
except TypeError as e:
    print("TypeError:", e)
