# Samplers: an imbalanced dataset drawn with a WeightedRandomSampler, a validation split
# with SubsetRandomSampler, batches of indices from a BatchSampler, and a sampler of our own.
import torch
from torch.utils.data import (
    DataLoader,
    TensorDataset,
    WeightedRandomSampler,
    SubsetRandomSampler,
    RandomSampler,
    SequentialSampler,
    BatchSampler,
    ConcatDataset,
    Sampler,
)

torch.manual_seed(11)
features = torch.randn(12, 2)
labels = torch.tensor([0] * 9 + [1] * 3)
data = TensorDataset(features, labels)

counts = torch.bincount(labels)
class_weight = 1.0 / counts.float()
sample_weight = class_weight[labels]
sampler = WeightedRandomSampler(sample_weight, num_samples=len(sample_weight), replacement=True)
loader = DataLoader(data, batch_size=4, sampler=sampler)
for epoch in range(2):
    seen = torch.cat([y for _, y in loader])
    print(f"epoch {epoch}: labels drawn {seen.tolist()}, ones {int(seen.sum())}")

perm = torch.randperm(len(data))
train_idx, val_idx = perm[:9].tolist(), perm[9:].tolist()
train_loader = DataLoader(data, batch_size=3, sampler=SubsetRandomSampler(train_idx))
print("train batches:", [y.tolist() for _, y in train_loader])

print(list(RandomSampler(range(5), replacement=True, num_samples=7)))
print(list(RandomSampler(range(4), num_samples=6)))
print(list(BatchSampler(RandomSampler(range(7)), batch_size=3, drop_last=True)))
by_batches = DataLoader(data, batch_sampler=BatchSampler(SequentialSampler(data), 5, False))
print([len(y) for _, y in by_batches], len(by_batches))


class EvensFirst(Sampler):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(list(range(0, self.n, 2)) + list(range(1, self.n, 2)))

    def __len__(self):
        return self.n


both = ConcatDataset([data, TensorDataset(torch.zeros(2, 2), torch.tensor([1, 1]))])
print(len(both), both[-1][1], both[12][1])
print([y.tolist() for _, y in DataLoader(both, batch_size=7, sampler=EvensFirst(len(both)))])
print(torch.rand(2))

try:
    DataLoader(data, sampler=sampler, shuffle=True)
except ValueError as e:
    print("ValueError:", e)
