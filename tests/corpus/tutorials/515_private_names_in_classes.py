# `self.__x` in a class is the attribute `_Class__x` (Python's private names)
import torch
import torch.nn as nn


class Encoder(nn.Module):
    __hidden = 4

    def __init__(self, d_in):
        super().__init__()
        self.__proj = nn.Linear(d_in, self.__hidden)
        self.__act = nn.Tanh()
        self.__calls = 0

    def __encode(self, x):
        self.__calls += 1
        return self.__act(self.__proj(x))

    def forward(self, x):
        return self.__encode(x)

    def calls(self):
        return self.__calls


class Head(Encoder):
    def __init__(self, d_in):
        super().__init__(d_in)
        self.__out = nn.Linear(4, 1)  # Head's own: _Head__out

    def forward(self, x):
        return self.__out(super().forward(x))


torch.manual_seed(0)
model = Head(3)
print(model)
print([name for name, _ in model.named_parameters()])
y = model(torch.randn(5, 3))
y.sum().backward()
print(model._Head__out.bias.grad)
print(model.calls(), model._Encoder__calls)
print(sorted(model.state_dict().keys()))


class Counter:
    def __init__(self):
        self.__n = 0

    def __bump(self, by):
        self.__n += by
        return self

    def add(self, by=1):
        return self.__bump(by)

    def value(self):
        return self.__n


c = Counter().add().add(5)
print(c.value(), Counter._Counter__bump.__name__)
print(hasattr(c, "_Counter__n"), hasattr(c, "_Counter__m"))
