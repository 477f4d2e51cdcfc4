# hasattr / getattr as utility code uses them: duck typing, optional attributes, class names.
import torch
import torch.nn as nn

torch.manual_seed(0)


def describe(obj):
    kinds = []
    if hasattr(obj, "__len__"):
        kinds.append(f"len={len(obj)}")
    if hasattr(obj, "__iter__"):
        kinds.append("iterable")
    if hasattr(obj, "__call__"):  # noqa: B004 - the probe itself
        kinds.append("callable")
    if hasattr(obj, "__getitem__"):
        kinds.append("indexable")
    return f"{obj.__class__.__name__}: {', '.join(kinds) or 'plain'}"


class Meter:
    def __init__(self):
        self.total = 0.0

    def __call__(self, v):
        self.total += v
        return self.total


for obj in [torch.ones(3), [1, 2], "abc", 3.5, nn.Linear(2, 2), nn.Sequential(nn.ReLU()),
            Meter(), len, {"a": 1}, (4,), torch.ones(2).shape]:
    print(describe(obj))

print(hasattr(torch.ones(1), "__class__"), getattr(torch.ones(1), "__class__"))  # noqa: B009
print(getattr(nn.Linear(1, 1), "__class__").__name__, type(Meter()) is getattr(Meter(), "__class__"))  # noqa: B009


# initialising only the layers that have weights, the way init helpers do
def init_weights(m):
    if hasattr(m, "weight") and m.weight is not None and m.weight.dim() > 1:
        nn.init.ones_(m.weight)
    if getattr(m, "bias", None) is not None:
        nn.init.zeros_(m.bias)


net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1), nn.LayerNorm(1))
net.apply(init_weights)
print(net(torch.tensor([[1.0, 2.0]])))
print([hasattr(m, "weight") for m in net], [hasattr(m, "normalized_shape") for m in net])

# the registered tensors, as PyTorch keeps them
lin = nn.Linear(2, 1, bias=False)
print(list(lin._parameters), lin._parameters["bias"], list(nn.BatchNorm1d(2)._buffers))
for name, p in net[0]._parameters.items():
    print(name, tuple(p.shape), p.requires_grad)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)

    def forward(self, x):
        return self.fc(x)


n = Net()
print(hasattr(Net, "forward"), hasattr(Net, "parameters"), hasattr(n, "fc"), hasattr(n, "conv"))
print(len(list(Net.parameters(n))), getattr(n, "training"), getattr(n, "missing", "no such attribute"))  # noqa: B009
print(hasattr(n, "__dict__"), hasattr(3, "__dict__"), hasattr(Net, "__mro__"), hasattr(n, "__mro__"))
