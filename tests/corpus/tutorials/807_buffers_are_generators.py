# Module.buffers() and named_buffers() are generators, as parameters() is: next() takes the
# first one, a generator is used up once walked, and list() / for loops see every buffer.
import torch
import torch.nn as nn


class Scaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)
        self.register_buffer("mean", torch.tensor([0.5, -1.0, 2.0]))
        self.register_buffer("std", torch.tensor([1.0, 2.0, 4.0]))
        self.register_buffer("scratch", torch.zeros(3), persistent=False)

    def forward(self, x):
        return self.lin((x - self.mean) / self.std)


torch.manual_seed(0)
m = nn.Sequential(Scaler(), nn.BatchNorm1d(2))
name, first = next(m.named_buffers())
print(name, first)
print(next(m.buffers()))
gen = m.named_buffers()
print([n for n, _ in gen])
print([n for n, _ in gen])  # used up
print(len(list(m.buffers())), len(list(m[0].buffers(recurse=False))))
print(type(m.buffers()).__name__)
for n, b in m[1].named_buffers(prefix="bn"):
    print(n, b.dtype, tuple(b.shape))
it = m[0].buffers()
print(next(it).sum(), next(it).sum(), next(it).sum())
try:
    next(it)
except StopIteration:
    print("StopIteration")
x = torch.randn(4, 3, requires_grad=True)
y = m(x)
y.pow(2).sum().backward()
print(x.grad)
print(dict(m.named_buffers())["1.running_mean"])
