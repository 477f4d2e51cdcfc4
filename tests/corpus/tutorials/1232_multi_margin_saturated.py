# A linear classifier trained with the multi-class hinge loss, one of whose logits overflows:
# the true class's own term is never part of the loss, so a huge correct score costs nothing.
import torch
import torch.nn as nn

logits = torch.tensor([[3e38, 1.0, -2.0], [0.3, 0.8, 0.6], [float("inf"), 2.0, float("inf")]]) * 10
logits.requires_grad_()
labels = torch.tensor([0, 2, 2])
for p in (1, 2):
    crit = nn.MultiMarginLoss(p=p, margin=0.5, reduction="none")
    per = crit(logits, labels)
    print(p, per)
    (g,) = torch.autograd.grad(per[:2].sum(), logits)
    print(g)

weighted = nn.MultiMarginLoss(weight=torch.tensor([1.0, 0.5, 2.0]))
print(weighted(logits[:2].detach(), labels[:2]))
