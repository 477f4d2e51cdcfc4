# A custom Dataset whose methods are called by name, as notebooks often do to
# check them: ds.__len__() and ds.__getitem__(i); a subclass that calls its
# base's __init__ and __getitem__ explicitly; a tensor's __len__ and __getitem__.
import torch
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)


class Squares(Dataset):
    def __init__(self, n):
        Dataset.__init__(self)
        self.x = torch.linspace(-1.0, 1.0, n).unsqueeze(1)
        self.y = self.x**2

    def __len__(self):
        return self.x.shape[0]

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]


class NoisySquares(Squares):
    def __init__(self, n, noise):
        Squares.__init__(self, n)
        self.noise = noise

    def __getitem__(self, idx):
        x, y = Squares.__getitem__(self, idx)
        return x, y + self.noise * torch.randn(1)


ds = Squares(8)
print(ds.__len__(), len(ds))
x0, y0 = ds.__getitem__(3)
print(x0, y0)
noisy = NoisySquares(6, 0.1)
print(noisy.__len__(), noisy.__getitem__(0))
print(noisy.__class__.__name__, isinstance(noisy, Squares))

loader = DataLoader(ds, batch_size=4, shuffle=False)
for xb, yb in loader:
    print(xb.shape, yb.sum())

t = torch.arange(12.0).reshape(4, 3)
print(t.__len__(), t.__getitem__(2), t.__getitem__((1, 2)))
