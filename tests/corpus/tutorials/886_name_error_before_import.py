# A training script that imports torch and torch.nn but uses `F` before importing it: Python
# has no such name until the import runs, in functions too (looked up when they are called).
import torch
import torch.nn as nn

x = torch.tensor([-1.5, 0.25, 2.0])
try:
    print(F.relu(x))
except NameError as err:
    print("NameError:", err)


def activate(t):
    return F.gelu(t) * 2


try:
    activate(x)
except NameError as err:
    print("inside activate:", err)

try:
    grid = np.linspace(0, 1, 3)
except NameError as err:
    print(err)

import torch.nn.functional as F  # noqa: E402
import numpy as np  # noqa: E402

print(activate(x))
print(F.softplus(x, beta=2.0))
print(np.linspace(0, 1, 3))

layer = nn.Linear(3, 2)
print(isinstance(layer, nn.Module), F.relu is torch.nn.functional.relu)
del F
try:
    F.relu(x)
except NameError as err:
    print("after del:", err)
