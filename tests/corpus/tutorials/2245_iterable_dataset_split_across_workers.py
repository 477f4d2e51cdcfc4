# A streaming dataset read by several DataLoader workers: each worker iterates the dataset
# itself, so __iter__ uses get_worker_info() to take its own share of the stream.
import math

import torch
from torch.utils.data import DataLoader, Dataset, IterableDataset, get_worker_info


class LineStream(IterableDataset):
    """Pretend lines of a file: (line number, a feature vector)."""

    def __init__(self, n_lines, split=True):
        self.n_lines = n_lines
        self.split = split

    def __iter__(self):
        info = get_worker_info()
        start, stop = 0, self.n_lines
        if info is not None and self.split:
            per_worker = math.ceil(self.n_lines / info.num_workers)
            start = info.id * per_worker
            stop = min(start + per_worker, self.n_lines)
        for line in range(start, stop):
            yield line, torch.full((2,), float(line)) + torch.rand(2)


torch.manual_seed(123)
print("main process:", get_worker_info())
for workers in (0, 2):
    loader = DataLoader(LineStream(7), batch_size=2, num_workers=workers)
    lines = [batch[0].tolist() for batch in loader]
    print(f"workers={workers}:", lines)

# without splitting, every worker yields the whole stream
dup = DataLoader(LineStream(3, split=False), batch_size=None, num_workers=2)
print("duplicated:", [line for line, _ in dup])

# the features are drawn from each worker's own seeded generator
torch.manual_seed(7)
for lines, feats in DataLoader(LineStream(5), batch_size=2, num_workers=2, drop_last=True):
    print(lines.tolist(), (feats - lines.unsqueeze(1)).round(decimals=4))


class Tagged(Dataset):
    """A map-style dataset that records which worker loaded each sample."""

    def __len__(self):
        return 6

    def __getitem__(self, i):
        info = get_worker_info()
        return i, -1 if info is None else info.id


for idx, worker in DataLoader(Tagged(), batch_size=2, num_workers=2):
    print(idx.tolist(), "from worker", worker.tolist())
