# A helper that takes one name or several, and other isinstance() tests with
# collections.abc's classes (and typing's) on the values a training script holds.
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Optional, Union

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(3)


class TwoLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(3, 4), nn.Tanh())
        self.head = nn.Linear(4, 1)

    def forward(self, x):
        return self.head(self.body(x))


def freeze(model, names, frozen=True):
    if isinstance(names, str) or not isinstance(names, Iterable):
        names = [names]
    for name, child in model.named_children():
        if name in names:
            for p in child.parameters():
                p.requires_grad_(not frozen)
    return [n for n, p in model.named_parameters() if p.requires_grad]


net = TwoLayer()
print(freeze(net, "body"))
print(freeze(net, ("body", "head"), frozen=False))
print(freeze(net, {"head"}))


def as_list(xs: Union[torch.Tensor, Sequence[torch.Tensor]]) -> list:  # noqa: UP007
    if isinstance(xs, torch.Tensor):
        return [xs]
    return list(xs)


print(len(as_list(torch.ones(2))), len(as_list([torch.ones(1), torch.zeros(1)])))

data = TensorDataset(torch.randn(6, 3), torch.randn(6, 1))
loader = DataLoader(data, batch_size=4)
things = {
    "tensor": torch.arange(3.0),
    "scalar": torch.tensor(2.0),
    "size": torch.ones(2, 3).shape,
    "sequential": net.body,
    "linear": net.head,
    "moduledict": nn.ModuleDict({"a": nn.ReLU()}),
    "state_dict": net.state_dict(),
    "parameters": net.parameters(),
    "dataset": data,
    "loader": loader,
    "batches": iter(loader),
    "max": torch.max(torch.ones(2, 2), dim=1),
}
for key, value in things.items():
    answers = [isinstance(value, c) for c in (Iterable, Iterator, Sequence, Mapping)]
    print(f"{key:>10}", answers)


def scaled(x, scale: Optional[float] = None):
    if not isinstance(scale, Optional[float]):
        raise TypeError("scale must be a float or None")
    return x if scale is None else x * scale


w = torch.tensor([1.0, -2.0], requires_grad=True)
scaled(w, 3.0).sum().backward()
print(w.grad)
try:
    scaled(w, "3")
except TypeError as e:
    print("TypeError:", e)
print(Sequence[int], Mapping[str, torch.Tensor], Optional[Iterable[int]])
