# Printing layer names the way forum answers do: a forward hook that reports
# module.__class__.__name__ and the output shape, a model summary loop, and a
# __repr__ built from self.__class__.__name__.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.lin = nn.Linear(n_in, n_out)
        self.act = nn.Tanh()

    def forward(self, x):
        return self.act(self.lin(x))

    def describe(self):
        return f"{self.__class__.__name__}({self.lin.in_features} -> {self.lin.out_features})"


model = nn.Sequential(Block(4, 6), Block(6, 3), nn.Linear(3, 1))


def report(module, inputs, output):
    print(f"{module.__class__.__name__:>10}: {tuple(output.shape)}")


handles = []
for m in model.modules():
    if m.__class__ in (nn.Linear, nn.Tanh):
        handles.append(m.register_forward_hook(report))

x = torch.randn(5, 4)
y = model(x)
for h in handles:
    h.remove()

print(model[0].describe(), model[1].describe())
for name, m in model.named_children():
    n_params = sum(p.numel() for p in m.parameters())
    print(name, m.__class__.__name__, n_params, isinstance(m, Block))

print(x.__class__, y.grad_fn.__class__.__name__, type(y) is x.__class__)


class Meter:
    def __init__(self):
        self.total = 0.0
        self.count = 0

    def update(self, v, n=1):
        self.total += v * n
        self.count += n

    def __repr__(self):
        return f"{self.__class__.__name__}(avg={self.total / max(self.count, 1):.4f})"


meter = Meter()
loss = (y**2).mean()
meter.update(loss.item(), x.shape[0])
print(meter, meter.__class__.__name__)
