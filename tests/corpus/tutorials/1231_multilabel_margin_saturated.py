# A multi-label tagger whose raw scores saturate: one label score overflows to inf. Pairs of
# two true labels are never compared, so the loss of that example stays finite.
import torch
import torch.nn as nn

scores = torch.tensor(
    [[1e39, 0.3, -0.7, 0.1], [0.9, -0.2, 0.4, 0.05], [float("inf"), float("inf"), 0.0, -0.5]]
)
scores = scores.float().requires_grad_()
labels = torch.tensor([[0, 3, -1, 0], [2, -1, 1, 1], [1, 0, -1, 2]])
crit = nn.MultiLabelMarginLoss(reduction="none")
per_example = crit(scores, labels)
print(per_example)
per_example.sum().backward()
print(scores.grad)

loss = nn.MultiLabelMarginLoss()(scores[1:2].detach().double().requires_grad_(), labels[1:2])
print(loss)
