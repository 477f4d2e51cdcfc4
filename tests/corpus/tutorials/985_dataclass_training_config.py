# A training configuration as a dataclass, a frozen dataclass for a point, a batch container
import dataclasses
from dataclasses import dataclass, field

import torch
import torch.nn as nn


@dataclass
class TrainConfig:
    lr: float = 0.05
    epochs: int = 3
    hidden: list = field(default_factory=lambda: [8, 4])
    name: str = "mlp"

    def __post_init__(self):
        self.depth = len(self.hidden)


@dataclass
class Batch:
    x: torch.Tensor
    y: torch.Tensor

    def to(self, dtype):
        return Batch(self.x.to(dtype), self.y.to(dtype))


def build(cfg: TrainConfig) -> nn.Module:
    layers, width = [], 2
    for h in cfg.hidden:
        layers += [nn.Linear(width, h), nn.Tanh()]
        width = h
    return nn.Sequential(*layers, nn.Linear(width, 1))


cfg = TrainConfig(epochs=4)
print(cfg)
print(cfg.depth, cfg == TrainConfig(epochs=4), cfg == TrainConfig())
print(dataclasses.asdict(cfg))
torch.manual_seed(0)
model = build(cfg)
opt = torch.optim.SGD(model.parameters(), lr=cfg.lr)
batch = Batch(torch.randn(6, 2), torch.randn(6, 1)).to(torch.float32)
for epoch in range(cfg.epochs):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(batch.x), batch.y)
    loss.backward()
    opt.step()
    print(epoch, round(loss.item(), 4))

small = dataclasses.replace(cfg, hidden=[3], name="small")
print(small, small.depth, cfg.hidden)
print([f.name for f in dataclasses.fields(small)], dataclasses.is_dataclass(small))


@dataclasses.dataclass(frozen=True)
class Point:
    x: float
    y: float = 0.0


p = Point(1.5)
print(p, p == Point(1.5, 0.0), dataclasses.astuple(p))
try:
    p.x = 2.0
except dataclasses.FrozenInstanceError as e:
    print("FrozenInstanceError:", e)
for args in ((), (1, 2, 3)):
    try:
        Point(*args)
    except TypeError as e:
        print("TypeError:", e)
try:
    TrainConfig(momentum=0.9)
except TypeError as e:
    print("TypeError:", e)
try:

    @dataclass
    class Broken:
        layers: list = []

except ValueError as e:
    print("ValueError:", e)
