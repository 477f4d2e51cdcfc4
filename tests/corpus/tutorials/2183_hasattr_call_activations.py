# Comparing activations given as modules, torch functions or plain functions: a helper
# checks each entry with hasattr(fn, '__call__') before applying it.
import torch
import torch.nn as nn
import torch.nn.functional as F


def swish(x):
    return x * torch.sigmoid(x)


registry = {
    "relu": torch.relu,
    "gelu": F.gelu,
    "tanh": nn.Tanh(),
    "swish": swish,
    "leaky": lambda x: F.leaky_relu(x, 0.1),
    "not_a_function": 0.5,
    "a_tensor": torch.ones(3),
    "optim_class": torch.optim.Adam,
}
x = torch.linspace(-2, 2, 5, requires_grad=True)
for name, fn in registry.items():
    if not hasattr(fn, "__call__"):  # noqa: B004 - as the tutorial writes it
        print(f"{name:15s} skipped: not callable")
        continue
    if name == "optim_class":
        print(f"{name:15s} callable, but not an activation")
        continue
    y = fn(x)
    (g,) = torch.autograd.grad(y.sum(), x)
    print(f"{name:15s}", [round(v, 4) for v in y.tolist()], [round(v, 4) for v in g.tolist()])
