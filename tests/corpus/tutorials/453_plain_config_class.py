# A configuration holder: class attributes as defaults, a classmethod that builds a variant,
# a property, a staticmethod, and a __repr__ used by print.
import torch
from torch import nn


class Config:
    hidden = 8
    lr = 0.05
    epochs = 2
    activations = ["relu", "tanh"]

    def __init__(self, hidden=None, lr=None):
        if hidden is not None:
            self.hidden = hidden
        if lr is not None:
            self.lr = lr

    @classmethod
    def small(cls):
        return cls(hidden=4, lr=0.1)

    @staticmethod
    def describe(name):
        return f"config {name!r}"

    @property
    def steps(self):
        return self.epochs * 5

    def __repr__(self):
        return f"Config(hidden={self.hidden}, lr={self.lr}, epochs={self.epochs})"


default = Config()
small = Config.small()
print(default)
print(small, small.steps, Config.describe("small"))
print(Config.hidden, small.hidden, Config.activations[1])
Config.epochs = 3
print(default.steps, small.steps)
print([default, small])
print(f"{small}", str(small) == repr(small))

torch.manual_seed(0)
cfg = Config.small()
model = nn.Sequential(nn.Linear(2, cfg.hidden), nn.Tanh(), nn.Linear(cfg.hidden, 1))
opt = torch.optim.SGD(model.parameters(), lr=cfg.lr)
x = torch.randn(10, 2)
y = x.sum(dim=1, keepdim=True)
for step in range(cfg.steps):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"after {cfg.steps} steps: {loss.item():.4f}")
