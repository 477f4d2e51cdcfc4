# How nn.Module finds its layers, rebuilt by hand the way the fastai course explains it:
# a class whose __setattr__ notes every layer assigned to it, and a __getattr__ fallback
# for settings; then the same hooks on an nn.Module subclass.
import torch
from torch import nn

torch.manual_seed(0)


class TinyModule:
    def __init__(self, n_in, n_hidden, n_out):
        self._layers = {}
        self.l1 = nn.Linear(n_in, n_hidden)
        self.l2 = nn.Linear(n_hidden, n_out)

    def __setattr__(self, name, value):
        if not name.startswith("_"):
            self._layers[name] = value
        super().__setattr__(name, value)

    def __repr__(self):
        return f"TinyModule({list(self._layers)})"

    def parameters(self):
        for layer in self._layers.values():
            yield from layer.parameters()

    def __call__(self, x):
        return self.l2(torch.relu(self.l1(x)))


m = TinyModule(3, 4, 1)
print(m, sum(p.numel() for p in m.parameters()))
x = torch.randn(5, 3, dtype=torch.float64)
y = x.sum(1, keepdim=True)
for layer in m._layers.values():
    layer.double()
for step in range(3):
    loss = ((m(x) - y) ** 2).mean()
    for p in m.parameters():
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in m.parameters():
            p -= 0.1 * p.grad
    print(step, round(loss.item(), 6))


class Settings:
    def __init__(self, **defaults):
        self._values = dict(defaults)

    def __getattr__(self, name):
        if name in self._values:
            return self._values[name]
        raise AttributeError(f"no setting {name!r}")

    def __setattr__(self, name, value):
        if name.startswith("_"):
            super().__setattr__(name, value)
        else:
            self._values[name] = value


cfg = Settings(lr=0.1, epochs=3)
cfg.lr = 0.05
print(cfg.lr, cfg.epochs, hasattr(cfg, "momentum"), getattr(cfg, "momentum", 0.9))
try:
    cfg.missing
except AttributeError as e:
    print("AttributeError:", e)


class Logged(nn.Module):
    def __init__(self):
        super().__init__()
        self.assigned = []
        self.body = nn.Sequential(nn.Linear(2, 2), nn.Tanh())
        self.head = nn.Linear(2, 1)

    def __setattr__(self, name, value):
        if name != "assigned" and "assigned" in self.__dict__:
            self.assigned.append(name)
        super().__setattr__(name, value)

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            return None

    def forward(self, x):
        return self.head(self.body(x))


net = Logged().double()
net.extra = nn.Linear(1, 1)
print(net.assigned, [n for n, _ in net.named_parameters()])
print(net.not_there, net.head.out_features)
print(net(torch.ones(2, 2, dtype=torch.float64)).shape)
try:
    net.__setattr__(3, 4)
except TypeError as e:
    print("TypeError:", e)
