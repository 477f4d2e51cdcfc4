# Samples as named tuples: the DataLoader's default collation keeps the named tuple, so a
# batch's fields are read by name (batch.features, batch.label), with or without batching.
from collections import namedtuple
from typing import NamedTuple

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, default_collate, default_convert

Pair = namedtuple("Pair", ["left", "right"])


class Example(NamedTuple):
    features: torch.Tensor
    label: int
    weight: float


class Toy(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return Example(torch.tensor([i, i + 0.5]), i % 2, 1.0 / (i + 1))


for batch in DataLoader(Toy(), batch_size=2):
    print(type(batch).__name__, batch.label, batch.weight)
    print(batch.features)

single = next(iter(DataLoader(Toy(), batch_size=None)))
print(single)
print(default_collate([Pair(1, 2.5), Pair(3, 4.5)]))
print(default_convert(Pair(np.array([1, 2]), "kept")))
