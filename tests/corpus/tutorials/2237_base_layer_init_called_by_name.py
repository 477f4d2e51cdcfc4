# Older code calls the base layer's constructor by its class name instead of super():
# nn.Linear.__init__(self, ...) inside a subclass of nn.Linear (and of other built-in layers).
import torch
import torch.nn as nn


class ClippedLinear(nn.Linear):
    def __init__(self, n_in, n_out, limit=1.0):
        nn.Linear.__init__(self, n_in, n_out, bias=False)
        self.limit = limit

    def forward(self, x):
        return nn.functional.linear(x, self.weight.clamp(-self.limit, self.limit))


class SamePadConv(nn.Conv1d):
    def __init__(self, channels):
        nn.Conv1d.__init__(self, channels, channels, kernel_size=3, padding=1)


class Wrapper(nn.Module):
    def __init__(self):
        nn.Module.__init__(self)
        self.body = nn.Sequential(ClippedLinear(4, 3, limit=0.2), nn.Tanh())


torch.manual_seed(2)
layer = ClippedLinear(4, 3, limit=0.2)
print(layer, layer.limit)
x = torch.ones(2, 4, requires_grad=True)
layer(x).sum().backward()
print(x.grad)

conv = SamePadConv(2)
print(conv, conv(torch.zeros(1, 2, 5)).shape)
print(Wrapper())

try:
    nn.Linear.__init__(Wrapper(), 2, 3)
except TypeError:
    print("TypeError: not a Linear")
