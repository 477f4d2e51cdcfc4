# Streaming data: an IterableDataset that yields noisy samples of a line, batched by a
# DataLoader, chained with a second stream, and paired features/labels with StackDataset.
import torch
from torch.utils.data import (
    ChainDataset,
    DataLoader,
    IterableDataset,
    StackDataset,
    get_worker_info,
)


class LineStream(IterableDataset):
    def __init__(self, n, slope, seed):
        super().__init__()
        self.n = n
        self.slope = slope
        self.seed = seed

    def __iter__(self):
        info = get_worker_info()
        print("worker info:", info)
        g = torch.Generator().manual_seed(self.seed)
        for i in range(self.n):
            x = torch.tensor([i / self.n], dtype=torch.float64)
            noise = torch.randn(1, generator=g, dtype=torch.float64) * 0.01
            yield x, self.slope * x + noise

    def __len__(self):
        return self.n


stream = LineStream(5, 2.0, seed=0)
loader = DataLoader(stream, batch_size=2)
print("batches:", len(loader))
for xb, yb in loader:
    print(xb.squeeze(1), yb.squeeze(1).round(decimals=4))

both = ChainDataset([LineStream(2, 1.0, seed=1), LineStream(3, -1.0, seed=2)])
print("chained items:", len(both))
for xb, yb in DataLoader(both, batch_size=4, drop_last=True):
    print(xb.shape, yb.flatten().round(decimals=3))

# a batch_size=None loader hands over the samples one by one
first = next(iter(DataLoader(LineStream(3, 0.5, seed=3), batch_size=None)))
print(type(first).__name__, first[0])

# an IterableDataset has no order to shuffle
try:
    DataLoader(stream, batch_size=2, shuffle=True)
except ValueError as e:
    print("ValueError:", e)

features = torch.arange(6.0).view(3, 2)
labels = torch.tensor([1, 0, 1])
pairs = StackDataset(features, labels)
print(len(pairs), pairs[1])
named = StackDataset(x=features, y=labels)
for batch in DataLoader(named, batch_size=2):
    print(batch)
try:
    StackDataset(features, torch.zeros(4))
except ValueError as e:
    print("ValueError:", e)
