# The names of methods and functions as programs print them (__name__, __qualname__, __doc__):
# a module's bound methods (Module.zero_grad), a tensor's and a list's, torch's functions, the
# program's own (feat24).
import torch
import torch.nn as nn
import torch.nn.functional as F

m = nn.Linear(2, 3)


def t(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)


t(lambda: m.named_parameters.__name__)
t(lambda: m.forward.__name__)
t(lambda: m.forward.__qualname__)
t(lambda: torch.sin.__name__)
t(lambda: F.relu.__name__)
t(lambda: F.relu.__qualname__)
t(lambda: torch.sin.__qualname__)


def f(x):
    "Doc of f."
    return x


t(lambda: f.__name__)
t(lambda: f.__qualname__)
t(lambda: f.__doc__)
t(lambda: (lambda y: y).__name__)
t(lambda: torch.Tensor.add.__name__)
t(lambda: torch.ones(1).add.__name__)
t(lambda: torch.ones(1).add.__qualname__)
t(lambda: nn.Linear.__name__)
t(lambda: nn.Linear.__qualname__)
t(lambda: m.__class__.__name__)
t(lambda: m.zero_grad.__name__)
t(lambda: [].append.__qualname__)
t(lambda: {}.items.__name__)
