import torch
import torch.nn as nn

# Labels and indices are integer tensors: autograd refuses to track them, and
# PyTorch words the refusal differently depending on how the flag is set.
labels = torch.tensor([0, 2, 1])
counts = torch.arange(4)

try:
    labels.requires_grad_()
except RuntimeError as err:
    print("method:", err)

try:
    counts.requires_grad = True
except RuntimeError as err:
    print("attribute:", err)

try:
    torch.zeros(2, dtype=torch.int64, requires_grad=True)
except RuntimeError as err:
    print("factory:", err)

try:
    nn.Parameter(torch.tensor([1, 2]))
except RuntimeError as err:
    print("parameter:", err)

# Switching the flag off is always allowed, and a float copy can be tracked.
labels.requires_grad = False
counts.requires_grad_(False)
print(labels.requires_grad, counts.requires_grad)

scores = labels.float()
scores.requires_grad = True
loss = (scores * torch.tensor([0.5, -1.0, 2.0])).sum()
loss.backward()
print(scores.grad)

mask = torch.tensor([True, False, True])
try:
    mask.requires_grad = True
except RuntimeError as err:
    print("bool:", err)

half = torch.tensor([1.5, 2.5], dtype=torch.float16)
half.requires_grad = True
print(half.requires_grad, half.dtype)
