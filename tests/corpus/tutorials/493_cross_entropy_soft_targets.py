# Cross-entropy against soft labels (class probabilities instead of class indices): the
# reductions, a class weight on per-pixel scores, label smoothing, and an empty batch.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(283)
logits = torch.randn(3, 5, requires_grad=True)
raw = torch.randn(3, 5)  # not a distribution: each row sums to something else than 1
print("row sums of the raw target:", raw.sum(dim=1))

for reduction in ("none", "sum", "mean"):
    loss = nn.CrossEntropyLoss(reduction=reduction)(logits, raw)
    print(reduction, loss)
    if reduction != "none":
        print(f"  as a float: {loss.item()!r}")

soft = raw.softmax(dim=1)
loss = F.cross_entropy(logits, soft)
loss.backward()
print("mean over soft labels:", loss.item())
print("gradient rows sum to zero:", logits.grad.sum(dim=1).abs().max() < 1e-6)

# A weight per class, on scores laid out as (batch, classes, positions).
weight = torch.tensor([0.5, 1.0, 2.0, 1.5])
scores = torch.randn(2, 4, 3, requires_grad=True)
target = torch.randn(2, 4, 3).softmax(dim=1)
per_position = F.cross_entropy(scores, target, weight=weight, reduction="none")
print(per_position.shape, per_position)
total = F.cross_entropy(scores, target, weight=weight, reduction="sum")
mean = F.cross_entropy(scores, target, weight=weight)
print(total, mean)
total.backward()
print(scores.grad[0])

smoothed = F.cross_entropy(logits, soft, label_smoothing=0.1, weight=weight.repeat(2)[:5])
print("smoothed:", smoothed)

empty = torch.randn(0, 5, requires_grad=True)
print(F.cross_entropy(empty, torch.randn(0, 5)), F.cross_entropy(empty, torch.rand(0, 5), reduction="sum"))

double = torch.randn(4, 6, dtype=torch.float64, requires_grad=True)
print(F.cross_entropy(double, torch.rand(4, 6, dtype=torch.float64)).item())
