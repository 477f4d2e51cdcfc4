# __setattr__ hooks in configuration objects: a dataclass that logs every field it stores
# (its generated __init__ stores through the hook too), a hand-frozen record, a module that
# turns plain tensors into parameters on assignment.
from dataclasses import dataclass

import torch


@dataclass
class TrainConfig:
    lr: float = 0.1
    steps: int = 2

    def __setattr__(self, name, value):
        print("store", name, value)
        super().__setattr__(name, value)


cfg = TrainConfig(lr=0.5)
cfg.steps = 4
print(cfg)


class Doubled:
    def __init__(self):
        for name in ("a", "b"):
            setattr(self, name, torch.ones(1))

    def __setattr__(self, name, value):
        super().__setattr__(name, value * 2 if isinstance(value, torch.Tensor) else value)

    @property
    def total(self):
        return self.a + self.b

    def __getattr__(self, name):
        return name.upper()


d = Doubled()
print(d.a, d.total, d.unknown, getattr(d, "q"), hasattr(d, "anything"))


class Record:
    def __init__(self, x):
        super().__setattr__("x", x)

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is read-only")


r = Record(3)
try:
    r.x = 4
except AttributeError as e:
    print(e, r.x)


class AutoParam(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(2))

    def __setattr__(self, name, value):
        if isinstance(value, torch.Tensor) and not isinstance(value, torch.nn.Parameter):
            value = torch.nn.Parameter(value)
        super().__setattr__(name, value)


m = AutoParam()
m.b = torch.zeros(1)
print([n for n, _ in m.named_parameters()], m.b.requires_grad)

try:

    @dataclass(frozen=True)
    class Point:
        x: int = 1

        def __setattr__(self, name, value):
            pass

except TypeError as e:
    print("TypeError:", e)
