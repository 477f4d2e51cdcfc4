# Modern type hints written as values (Python 3.10+): aliases built from built-in generics and
# `|` unions, used in annotations, printed, and given to isinstance.
from dataclasses import dataclass

import torch
import torch.nn as nn

Gradients = torch.Tensor | tuple[torch.Tensor, ...]
Batch = dict[str, torch.Tensor]
MaybeTensor = torch.Tensor | None
print(Gradients)
print(Batch, MaybeTensor, type(Gradients).__name__, type(Batch).__name__)
print(int | float | int, list[list[float]], tuple[()], nn.Linear | None)


@dataclass
class StepResult:
    loss: float
    grad: torch.Tensor | None = None
    extras: dict[str, float] | None = None


def grads_of(model: nn.Module, batch: Batch) -> list[torch.Tensor]:
    out = model(batch["x"])
    loss = ((out - batch["y"]) ** 2).mean()
    return list(torch.autograd.grad(loss, list(model.parameters())))


def describe(g: Gradients) -> str:
    if isinstance(g, torch.Tensor | None):
        return "one tensor"
    return f"{len(g)} tensors"


torch.manual_seed(0)
model = nn.Linear(3, 1)
batch: Batch = {"x": torch.randn(4, 3), "y": torch.randn(4, 1)}
gs = grads_of(model, batch)
print(describe(gs[0]), describe(tuple(gs)))
r = StepResult(loss=0.5, grad=gs[1])
print(r)
print(isinstance(3.0, int | float), isinstance("s", int | float), isinstance(None, MaybeTensor))
print(list[int]("abc"), dict[str, int](a=1))
print(Gradients == (tuple[torch.Tensor, ...] | torch.Tensor), MaybeTensor == (torch.Tensor | None))
try:
    isinstance(gs, list[torch.Tensor])
except TypeError as e:
    print("TypeError:", e)
