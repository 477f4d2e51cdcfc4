# A typed Dataset (Dataset[int]) and a custom Sampler[int], loaded with and without worker
# processes; making the iterator before drawing other random numbers shows when each loader
# draws its shuffling seed (workers are sent their first batches as the iterator is made).
import torch
from torch.utils.data import DataLoader, Dataset, Sampler


class Squares(Dataset[int]):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return i * i


class Backwards(Sampler[int]):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n - 1, -1, -1))

    def __len__(self):
        return self.n


data = Squares(8)
print(list(DataLoader(data, batch_size=3, sampler=Backwards(8))))

for workers in (0, 2):
    torch.manual_seed(123)
    batches = iter(DataLoader(data, batch_size=3, shuffle=True, num_workers=workers))
    noise = torch.randint(0, 100, (3,))
    print(workers, "workers:", noise.tolist(), next(batches).tolist(), next(batches).tolist())
