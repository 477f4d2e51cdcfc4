# Small Python and tensor utilities seen in training scripts: frozenset keys for
# configurations, vars() of a config object, dir() to list its settings, and Tensor.set_
# to make one tensor share another's memory.
import torch

seen = set()
layers = frozenset(["fc1", "fc2"])
print(layers == frozenset({"fc2", "fc1"}), len(layers), "fc1" in layers)
runs = {frozenset({"lr=0.1", "bs=32"}): 0.91, frozenset({"lr=0.01"}): 0.88}
print(runs[frozenset({"bs=32", "lr=0.1"})])
a = frozenset([1, 2, 3])
b = frozenset([3, 4])
print(a | b, a & b, a - b, a ^ b)
print(a.union([9]), a.intersection({2, 3, 7}), a.isdisjoint(b), a.issuperset([1, 2]))
print(sorted(a | {0}), type(a | {0}).__name__, type({0} | a).__name__)
print(frozenset(), frozenset(range(3)), a == frozenset([3, 2, 1]))
print(isinstance(a, frozenset), isinstance(a, set), type(a))
print(repr(frozenset([(1, 2), (3, 4)]) - {(1, 2)}))
print(f"{a}", str(frozenset({5})))


class TrainConfig:
    momentum = 0.9  # a class attribute: not in vars(), listed by dir()

    def __init__(self, lr, epochs):
        self.lr = lr
        self.epochs = epochs

    def describe(self):
        return ", ".join(f"{k}={v}" for k, v in vars(self).items())


cfg = TrainConfig(0.05, 4)
print(vars(cfg))
print(cfg.describe())
vars(cfg)["epochs"] = 10  # vars() is the object's own table
print(cfg.epochs, vars(cfg) is vars(cfg))
cfg.warmup = 2
print(vars(cfg))
print([name for name in dir(cfg) if not name.startswith("_")])
print(len(dir(cfg)), "__init__" in dir(cfg), "momentum" in vars(cfg))

# Tensor.set_: x takes y's memory and shape
x = torch.zeros(3)
y = torch.tensor([1.0, 2.0])
x.set_(y)
print(x, x.shape, x.data_ptr() == y.data_ptr())
y.mul_(10)
print(x)
x[0] = -1.0
print(y, x._version, y._version)
w = torch.ones(2, requires_grad=True)
with torch.no_grad():
    w.set_(torch.tensor([0.5, -0.5]))
print(w, w.requires_grad, w.is_leaf)
(w * w).sum().backward()
print(w.grad)
e = torch.ones(4)
print(e.set_(), e.shape, e.numel())
try:
    torch.zeros(2).set_(torch.tensor([1, 2]))
except RuntimeError as err:
    print(err)
