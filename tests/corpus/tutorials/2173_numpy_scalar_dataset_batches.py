# A Dataset that hands back NumPy values (a float32 feature row and a NumPy scalar label),
# batched by the default collate, and the same samples without batching.
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Points(Dataset):
    def __init__(self):
        self.x = np.arange(12, dtype=np.float32).reshape(6, 2) / 4
        self.y = np.array([0, 1, 1, 0, 1, 0], dtype=np.int64)
        self.w = np.linspace(0.5, 1.0, 6).astype(np.float32)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i], self.w[i]


loader = DataLoader(Points(), batch_size=4)
for xb, yb, wb in loader:
    print(xb)
    print(yb, yb.dtype)
    print(wb, wb.dtype)

single = DataLoader(Points(), batch_size=None)
x0, y0, w0 = next(iter(single))
print(x0, y0, w0)
print(list(DataLoader([np.int32(7), np.int32(9)], batch_size=2)))
print(list(DataLoader([np.bool_(True), np.bool_(False)], batch_size=2)))
