# Small classes that stand for numbers, as training scripts write them: a step counter used
# as an index (__index__), a schedule value converted with float() (__float__), a config that
# is "on" or "off" (__bool__), a dataset and a model stack with __len__. Python calls each
# method where it needs the number: indexing lists and tensors, range(), slices, sizes.
import math
import torch
import torch.nn as nn


class Step:
    def __init__(self, n):
        self.n = n

    def __index__(self):
        return self.n

    def __int__(self):
        return self.n

    def __repr__(self):
        return f"Step({self.n})"


class Cosine:
    def __init__(self, base, step, total):
        self.base, self.step, self.total = base, step, total

    def __float__(self):
        return self.base * 0.5 * (1 + math.cos(math.pi * self.step / self.total))


class Flag:
    def __init__(self, on):
        self.on = on

    def __bool__(self):
        return self.on


class Pairs:
    def __init__(self, xs):
        self.xs = xs

    def __len__(self):
        return len(self.xs) // 2

    def __getitem__(self, i):
        return self.xs[2 * i], self.xs[2 * i + 1]


class Stack(nn.Module):
    def __init__(self, widths):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(widths, widths[1:]))

    def __len__(self):
        return len(self.layers)

    def forward(self, x):
        for layer in self.layers:
            x = torch.tanh(layer(x))
        return x


torch.manual_seed(0)
model = Stack([2, 4, 1])
data = Pairs(torch.randn(8, 2))
print(len(model), len(data), bool(Flag(False)), "debug" if Flag(True) else "quiet")

opt = torch.optim.SGD(model.parameters(), lr=0.1)
history = [0.0] * 4
for step in map(Step, range(4)):
    lr = float(Cosine(0.1, int(step), 4))
    for group in opt.param_groups:
        group["lr"] = lr
    x, y = data[int(step)]
    loss = (model(x) - y[:1]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    history[step] = round(loss.item(), 4)
    print(step, f"lr={lr:.4f}", f"loss={loss.item():.4f}")

print(history[Step(1):Step(3)], list(range(Step(3))), hex(Step(255)))
w = model.layers[0].weight
print(w[Step(1)], w[Step(0), Step(1)].item() == w[0, 1].item())
print(torch.zeros(Step(2), 3).shape, w.narrow(0, Step(1), 2).shape, w.view(Step(8)).shape)
print(math.sqrt(Cosine(4.0, 0, 4)), round(float(Cosine(0.1, 2, 4)), 6))
