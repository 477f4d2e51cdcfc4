# Multi-label classification with a margin loss: each sample lists its labels, ended by -1.
# The loss is printed to every digit (ATen sums the hinges in double, sample by sample).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(6, 8, requires_grad=True)
labels = torch.tensor(
    [
        [3, 0, -1, 1, 2, 0, 0, 0],
        [1, -1, 0, 0, 0, 0, 0, 0],
        [7, 6, 5, 4, -1, 0, 0, 0],
        [-1, 0, 0, 0, 0, 0, 0, 0],
        [2, 2, 5, -1, 0, 0, 0, 0],
        [0, 1, 2, 3, 4, 5, 6, 7],
    ]
)
for reduction in ("mean", "sum", "none"):
    loss = F.multilabel_margin_loss(logits, labels, reduction=reduction)
    print(reduction, loss.tolist())
crit = nn.MultiLabelMarginLoss()
loss = crit(logits, labels)
loss.backward()
print(loss.item(), loss.grad_fn.name())
print(logits.grad)
x = torch.randn(9, dtype=torch.float64)
print(F.multilabel_margin_loss(x, torch.tensor([4, 1, 8, -1, 0, 0, 0, 0, 0])).item())
for seed in range(5):
    torch.manual_seed(seed)
    scores = torch.randn(16, 12)
    targets = torch.randint(-1, 12, (16, 12))
    print(seed, F.multilabel_margin_loss(scores, targets).item())
