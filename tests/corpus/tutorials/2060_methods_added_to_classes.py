# Methods attached to classes after their bodies (the d2l book's `add_to_class` habit):
# setattr on an nn.Module subclass, on a plain class and on an optimizer subclass, before
# and after instances exist; the added forward is the one the module's call runs.
import torch
from torch import nn


def attach(cls):
    def register(fn):
        setattr(cls, fn.__name__, fn)
        return fn

    return register


class Quadratic(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.a = nn.Parameter(torch.linspace(0.5, 1.5, n, dtype=torch.float64))
        self.b = nn.Parameter(torch.zeros(n, dtype=torch.float64))


@attach(Quadratic)
def forward(self, x):
    return self.a * x**2 + self.b * x


model = Quadratic(3)
x = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)
loss = model(x).sum()
loss.backward()
print(loss.item(), model.a.grad, model.b.grad)


@attach(Quadratic)
def penalty(self, weight=0.1):
    return weight * (self.a**2).sum()


# the instance made before the method was added finds it too
model.zero_grad()
total = model(x).sum() + model.penalty()
total.backward()
print(round(total.item(), 6), model.a.grad)

Quadratic.scale = 2.0
print(Quadratic.scale, model.scale, hasattr(model, "penalty"))


class Counter:
    def __init__(self):
        self.n = 0


def bump(self, k=1):
    self.n += k
    return self.n


Counter.bump = bump
c = Counter()
c.bump()
print(c.bump(5))


class HalvingSGD(torch.optim.SGD):
    pass


def halve(self):
    for group in self.param_groups:
        group["lr"] = group["lr"] / 2


HalvingSGD.halve = halve
opt = HalvingSGD(model.parameters(), lr=0.4)
for step in range(3):
    opt.zero_grad()
    out = (model(x) - 1.0).pow(2).mean()
    out.backward()
    opt.step()
    opt.halve()
    print(step, round(out.item(), 6), opt.param_groups[0]["lr"])
print(model.a.detach())

Quadratic.forward = 5
try:
    model(x)
except TypeError as e:
    print("TypeError:", e)

del Quadratic.scale
print(hasattr(model, "scale"), hasattr(Quadratic, "penalty"))
try:
    del Quadratic.scale
except AttributeError as e:
    print("AttributeError:", e)
