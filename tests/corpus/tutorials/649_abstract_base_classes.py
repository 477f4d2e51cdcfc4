# Abstract base classes as model code uses them: nn.Module with ABC mixed in, abstract
# methods the subclasses define.
import abc
from abc import ABC, abstractmethod

import torch
import torch.nn as nn


class Objective(nn.Module, ABC):
    @abstractmethod
    def value(self, x):
        ...

    def forward(self, x):
        return self.value(x)


class Rosenbrock(Objective):
    def value(self, x):
        return (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2


class Shape(abc.ABC):
    @abc.abstractmethod
    def area(self):
        pass

    def describe(self):
        return f"{type(self).__name__} with area {self.area():.3f}"


class Square(Shape):
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side ** 2


x = torch.tensor([-1.5, 2.0], requires_grad=True)
opt = torch.optim.Adam([x], lr=0.05)
f = Rosenbrock()
for step in range(200):
    opt.zero_grad()
    loss = f(x)
    loss.backward()
    opt.step()
print(x, loss.item())
print(Square(1.5).describe(), isinstance(f, nn.Module))
