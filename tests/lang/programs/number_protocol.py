# A class of the program defining __index__ / __int__ / __float__ / __len__ / __bool__: Python
# and PyTorch call them where they need a number (feat24).
import torch
import torch.nn as nn
import math


class N:
    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


class F:
    def __float__(self):
        return 2.5


class Bad:
    def __index__(self):
        return 1.5

    def __int__(self):
        return "x"

    def __float__(self):
        return 3


def t(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)


k = N(2)
x = torch.arange(12.0)
t(lambda: x.view(k, -1).shape)
t(lambda: x.reshape((k, 6)).shape)
t(lambda: x[k:])
t(lambda: x[:k])
t(lambda: list(range(k)))
t(lambda: torch.randn(k, 3).shape)
t(lambda: float(k))
t(lambda: int(k))
t(lambda: float(F()))
t(lambda: math.floor(F()))
t(lambda: int(F()))
t(lambda: [1, 2, 3][Bad()])
t(lambda: int(Bad()))
t(lambda: float(Bad()))
t(lambda: x[Bad()])
t(lambda: k.__index__())
t(lambda: "abc"[k])
t(lambda: (1, 2, 3)[N(-1)])
t(lambda: x.view(3, 4)[N(1), N(2)])
t(lambda: complex(k))
t(lambda: hex(F()))
lst = [0, 0, 0]
lst[k] = 7
print(lst)
y = torch.zeros(3)
y[N(1)] = 5.0
print(y)


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])

    def __len__(self):
        return len(self.layers)

    def __int__(self):
        return 42

    def __index__(self):
        return 1

    def forward(self, x):
        return x


s = Stack()
print(len(s), int(s), [10, 20][s], bool(s))
