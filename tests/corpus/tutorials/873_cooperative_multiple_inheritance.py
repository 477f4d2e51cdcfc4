# Several base classes: cooperative super().__init__(**kwargs) chains, Python's method
# resolution order, and isinstance with either base.
import torch
import torch.nn as nn


class Logger:
    def __init__(self, name="run", **kwargs):
        super().__init__(**kwargs)
        self.name = name
        self.lines = []

    def log(self, text):
        self.lines.append(f"[{self.name}] {text}")


class Averager:
    def __init__(self, window=3, **kwargs):
        super().__init__(**kwargs)
        self.window = window
        self.values = []

    def add(self, v):
        self.values.append(v)
        recent = self.values[-self.window:]
        return sum(recent) / len(recent)


class LossTracker(Logger, Averager):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.steps = 0

    def update(self, loss):
        self.steps += 1
        avg = self.add(loss.item())
        self.log(f"step {self.steps}: loss {loss.item():.4f} avg {avg:.4f}")
        return avg


tracker = LossTracker(name="sgd", window=2)
print(tracker.name, tracker.window, tracker.steps)
print(isinstance(tracker, Logger), isinstance(tracker, Averager), isinstance(tracker, LossTracker))

w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.25)
for _ in range(4):
    opt.zero_grad()
    loss = (w ** 2).sum()
    loss.backward()
    tracker.update(loss)
    opt.step()
print("\n".join(tracker.lines))


# the diamond: each class's method runs once, in the MRO's order
class Base:
    def __init__(self):
        print("Base.__init__")
        self.calls = ["Base"]

    def hello(self):
        return "Base"


class Left(Base):
    def __init__(self):
        print("Left.__init__")
        super().__init__()
        self.calls.append("Left")

    def hello(self):
        return "Left>" + super().hello()


class Right(Base):
    def __init__(self):
        print("Right.__init__")
        super().__init__()
        self.calls.append("Right")

    def hello(self):
        return "Right>" + super().hello()


class Bottom(Left, Right):
    def __init__(self):
        print("Bottom.__init__")
        super().__init__()
        self.calls.append("Bottom")

    def hello(self):
        return "Bottom>" + super().hello()


b = Bottom()
print(b.calls)
print(b.hello())
print(Right.hello(b), isinstance(b, Right), isinstance(Left(), Right))


# a module built from a program's module class and a mixin with its own __init__
class Scaled(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = nn.Parameter(torch.tensor(scale))

    def forward(self, x):
        return self.scale * x


class Named:
    def __init__(self, *args, label="layer", **kwargs):
        super().__init__(*args, **kwargs)
        self.label = label

    def describe(self):
        return f"{self.label}: {type(self).__name__}"


class NamedScaled(Named, Scaled):
    pass


m = NamedScaled(3.0, label="first")
print(m.describe(), m.scale)
print(m)
y = m(torch.tensor([1.0, 2.0])).sum()
y.backward()
print(m.scale.grad, [n for n, _ in m.named_parameters()])


# class attributes resolve in the same order
class A:
    kind = "A"


class B:
    kind = "B"
    extra = "from B"


class C(A, B):
    pass


print(C.kind, C().extra, C.extra)

# an order Python cannot make
try:
    class D(A, C):
        pass
except TypeError as e:
    print("TypeError:", e)
