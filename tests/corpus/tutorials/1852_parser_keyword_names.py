# PyTorch's C++ argument parser takes NumPy's keyword names for its own (x, a or x1 for
# input, x2 for other, axis for dim, keepdims for keepdim); Python-level functions do not.
# And what a constructor's wrong arguments say: the class that defines __init__.
import torch
import torch.nn as nn
import torch.nn.functional as F

t = torch.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=torch.float64)
print(torch.exp(x=t))
print(torch.add(x1=t, x2=torch.ones(2, 2, dtype=torch.float64)))
print(torch.sum(t, axis=0, keepdims=True))
print(torch.abs(a=t))
print(torch.imag(input=torch.tensor([1 + 2j, 3 - 4j])))
print(torch.linalg.eigvals(input=torch.diag(torch.tensor([2.0, 3.0], dtype=torch.float64))))

checks = [
    lambda: F.relu(x=t),
    lambda: torch.exp(input=t, x=t),
    lambda: torch.linalg.eigvals(A=t),
    lambda: nn.Dropout(rate=0.5),
    lambda: nn.MSELoss(reduction="sum", weight=None),
    lambda: nn.BCELoss(None, None, None, "mean", 1.0),
    lambda: nn.AdaptiveAvgPool2d(),
    lambda: nn.L1Loss(reduce_mean=True),
    lambda: nn.BatchNorm1d(),
    lambda: nn.Conv2d(3),
    lambda: nn.Sigmoid(1),
]
for check in checks:
    try:
        check()
    except TypeError as e:
        print("TypeError:", e)
