# A class body may import: the imported names become class attributes, reachable as
# self.name or Class.name, while the methods' bare names still see only the globals.
import torch
from torch import nn


class Stack(nn.Module):
    from collections import OrderedDict
    import math

    def __init__(self, *layers):
        super().__init__()
        for i, layer in enumerate(layers):
            self.add_module(f"layer{i}", layer)
        self.scale = 1.0 / self.math.sqrt(len(layers))

    def forward(self, x):
        # walk the registered children in order, as nn.Sequential does
        for name, child in self._modules.items():
            x = child(x)
        return x * self.scale


torch.manual_seed(3)
net = Stack(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
print(net)
print(type(net._modules).__name__, list(net._modules))
print(len(net._modules), "layer1" in net._modules, net._modules["layer1"])
print(Stack.math.pi, Stack.OrderedDict.__name__)
x = torch.tensor([[0.5, -1.0, 2.0]])
y = net(x)
print(y)
y.sum().backward()
print(net._modules["layer0"].weight.grad)


class Plain:
    import math as m

    def area(self, r):
        return self.m.pi * r * r


print(round(Plain().area(2.0), 4))


class Hidden(nn.Module):
    from collections import OrderedDict

    def __init__(self):
        super().__init__()
        try:
            print(OrderedDict)
        except NameError as e:
            print("NameError:", e)


Hidden()
