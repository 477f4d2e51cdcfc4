# Random augmentation inside __getitem__ with a multi-worker DataLoader: each worker seeds its
# own torch, random and NumPy streams from the loader's base seed, so the jitter depends on
# which worker fetched the batch; worker_init_fn runs once in each
# worker (its prints would come from other processes: it prints nothing here).
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class JitteredPoints(Dataset):
    def __init__(self, n):
        self.points = torch.arange(n, dtype=torch.float64)

    def __len__(self):
        return len(self.points)

    def __getitem__(self, idx):
        shift = torch.randn(1, dtype=torch.float64).item() * 0.1
        flip = random.random() < 0.5
        scale = 1.0 + float(np.random.uniform(-0.05, 0.05))
        x = self.points[idx] * scale + shift
        return -x if flip else x


if __name__ == "__main__":
    torch.manual_seed(7)
    random.seed(7)
    np.random.seed(7)
    data = JitteredPoints(9)
    loader = DataLoader(data, batch_size=2, shuffle=True, num_workers=2)
    for epoch in range(2):
        print(f"epoch {epoch}")
        for batch in loader:
            print("  ", [round(v, 4) for v in batch.tolist()])
    # the workers' draws leave the main process's streams where they were
    print(round(torch.rand(1).item(), 4), round(random.random(), 4), round(np.random.rand(), 4))

    steady = DataLoader(data, batch_size=4, num_workers=2, persistent_workers=True)
    for epoch in range(2):
        print(epoch, [round(b.sum().item(), 4) for b in steady])

    # the usual fix for NumPy draws in workers: seed NumPy per worker in worker_init_fn
    def seed_numpy(worker_id):
        np.random.seed(1000 + worker_id)

    seeded = DataLoader(data, batch_size=3, num_workers=2, worker_init_fn=seed_numpy)
    for batch in seeded:
        print(batch)
