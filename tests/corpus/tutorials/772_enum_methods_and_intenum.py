# A training script's settings as enums: methods and properties on an Enum,
# and an IntEnum whose members index and size tensors.
from enum import Enum, IntEnum, auto

import torch
import torch.nn as nn


class Activation(Enum):
    RELU = "relu"
    TANH = "tanh"
    GELU = "gelu"

    def module(self):
        if self is Activation.RELU:
            return nn.ReLU()
        if self is Activation.TANH:
            return nn.Tanh()
        return nn.GELU()

    @property
    def label(self):
        return self.value.upper()

    @classmethod
    def from_config(cls, name):
        return cls(name.lower())


class Split(IntEnum):
    TRAIN = 0
    VAL = auto()
    TEST = auto()


class Width(IntEnum):
    SMALL = 4
    LARGE = 8


torch.manual_seed(0)
act = Activation.from_config("Tanh")
print(act, act.label, act.module())
model = nn.Sequential(nn.Linear(3, Width.SMALL), act.module(), nn.Linear(Width.SMALL, 1))
print(model)

data = torch.randn(3, 5, 3)  # one slice per split
losses = torch.zeros(len(Split))
for split in Split:
    out = model(data[split])
    losses[split] = out.pow(2).mean()
    print(f"{split.name.lower():5s} split={split} loss={losses[split].item():.4f}")
print(losses)
print(Split.TEST + 1, Split.VAL * 2, Split.TEST > Split.TRAIN, Split(1), repr(Split.TEST))
print(sorted([Split.TEST, Split.TRAIN]), max(Split), [s.value for s in Split])
print(isinstance(Split.VAL, int), isinstance(act, Activation), type(Split.VAL))
print(torch.eye(Width.SMALL)[Split.VAL])
print({Split.TRAIN: "fit", Split.VAL: "select"}[1])
for a in Activation:
    print(a.label, a.module()(torch.tensor([-1.0, 0.5])))
