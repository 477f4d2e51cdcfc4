# A dataset written as a plain class (__len__ and __getitem__) and a loader class whose
# __iter__ is a generator, the shape of torch.utils.data without the library.
import torch


class PairsDataset:
    def __init__(self, n):
        g = torch.Generator().manual_seed(7)
        self.x = torch.randn(n, 2, generator=g)
        self.y = (self.x[:, 0] * self.x[:, 1] > 0).float()

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class Loader:
    def __init__(self, dataset, batch_size):
        self.dataset = dataset
        self.batch_size = batch_size

    def __len__(self):
        return (len(self.dataset) + self.batch_size - 1) // self.batch_size

    def __iter__(self):
        for start in range(0, len(self.dataset), self.batch_size):
            items = [self.dataset[i] for i in range(start, min(start + self.batch_size, len(self.dataset)))]
            yield torch.stack([x for x, _ in items]), torch.stack([y for _, y in items])


ds = PairsDataset(10)
print(len(ds))
x0, y0 = ds[0]
print(x0, y0)
loader = Loader(ds, 4)
print(len(loader))
for xb, yb in loader:
    print(xb.shape, yb)
print(sum(len(yb) for _, yb in loader))
print(bool(ds), bool(PairsDataset(0)))
first_x, first_y = next(iter(loader))
print(first_y)

torch.manual_seed(0)
w = torch.zeros(2, requires_grad=True)
for epoch in range(2):
    for xb, yb in loader:
        p = torch.sigmoid(xb @ w)
        loss = torch.nn.functional.binary_cross_entropy(p, yb)
        loss.backward()
        with torch.no_grad():
            w -= 0.5 * w.grad
            w.grad.zero_()
    print(epoch, round(loss.item(), 4))
