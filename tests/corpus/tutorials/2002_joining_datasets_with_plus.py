# Joining datasets with `+`: two labelled sources become one ConcatDataset, a custom Dataset
# joins a TensorDataset, and two streams (IterableDataset) join into a ChainDataset.
import torch
from torch.utils.data import DataLoader, Dataset, IterableDataset, TensorDataset

torch.manual_seed(0)
cats = TensorDataset(torch.randn(3, 2).double(), torch.zeros(3, dtype=torch.long))
dogs = TensorDataset(torch.randn(2, 2).double(), torch.ones(2, dtype=torch.long))
pets = cats + dogs
print(type(pets).__name__, len(pets), pets.cumulative_sizes)
print(pets[3])


class Evens(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return torch.tensor([2.0 * i], dtype=torch.float64), torch.tensor(i % 2)


mixed = Evens(3) + TensorDataset(torch.full((2, 1), -1.0, dtype=torch.float64), torch.tensor([5, 6]))
g = torch.Generator().manual_seed(1)
for x, y in DataLoader(mixed, batch_size=2, shuffle=True, generator=g):
    print(x.flatten(), y)


class Countdown(IterableDataset):
    def __init__(self, start):
        self.start = start

    def __iter__(self):
        yield from range(self.start, 0, -1)


both = Countdown(3) + Countdown(2)
print(type(both).__name__, list(both))
print(list(DataLoader(both, batch_size=2)))

try:
    cats + 5
except TypeError as e:
    print("TypeError:", e)
