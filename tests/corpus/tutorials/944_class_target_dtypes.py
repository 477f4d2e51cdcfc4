# Class-index targets for CrossEntropyLoss / NLLLoss must be int64 (or uint8) tensors: labels
# that arrive as floats (read from a float array), as int32, as a Python list, or shaped like
# the logits but integer, fail in PyTorch with its own words. Probability targets are floats.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

logits = torch.tensor([[1.2, -0.3, 0.4], [0.1, 0.9, -1.1], [0.3, 0.2, 2.0]], requires_grad=True)
criterion = nn.CrossEntropyLoss()

labels = np.array([0.0, 1.0, 2.0])
attempts = {
    "float labels": lambda: criterion(logits, torch.tensor(labels)),
    "float32 labels": lambda: criterion(logits, torch.from_numpy(labels).float()),
    "int32 labels": lambda: criterion(logits, torch.tensor([0, 1, 2], dtype=torch.int32)),
    "bool labels": lambda: F.nll_loss(F.log_softmax(logits, 1), torch.tensor([True, False, True])),
    "list labels": lambda: criterion(logits, [0, 1, 2]),
    "tuple labels (nll)": lambda: F.nll_loss(F.log_softmax(logits, 1), (0, 1, 2)),
    "integer one-hot": lambda: criterion(logits, torch.eye(3, dtype=torch.long)),
    "batch mismatch": lambda: F.nll_loss(logits, torch.tensor([0, 1])),
    "0-d input": lambda: F.nll_loss(torch.tensor(0.5), torch.tensor(0)),
}
for name, attempt in attempts.items():
    try:
        attempt()
    except (RuntimeError, TypeError, ValueError) as e:
        print(f"{name}: {type(e).__name__}: {e}")

good = criterion(logits, torch.tensor(labels).long())
good.backward()
print(f"{good.item():.6f}")
print(logits.grad)
print(F.nll_loss(F.log_softmax(logits, 1), torch.tensor([2, 0, 1], dtype=torch.uint8)))
print(criterion(logits, torch.softmax(torch.eye(3), dim=1)))
