# A label-smoothing loss and a soft Dice loss written on PyTorch's own loss bases.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.modules.loss import _Loss, _WeightedLoss


class SmoothedCE(_WeightedLoss):
    def __init__(self, weight=None, reduction="mean", smoothing=0.0):
        super().__init__(weight=weight, reduction=reduction)
        self.smoothing = smoothing

    def forward(self, logits, target):
        classes = logits.size(-1)
        logp = F.log_softmax(logits, dim=-1)
        with torch.no_grad():
            soft = torch.full_like(logp, self.smoothing / (classes - 1))
            soft.scatter_(1, target.unsqueeze(1), 1.0 - self.smoothing)
        per_item = -(soft * logp)
        if self.weight is not None:
            per_item = per_item * self.weight
        per_item = per_item.sum(-1)
        if self.reduction == "sum":
            return per_item.sum()
        if self.reduction == "mean":
            return per_item.mean()
        return per_item


class SoftDice(_Loss):
    def forward(self, probs, mask):
        overlap = (probs * mask).sum()
        return 1 - 2 * overlap / (probs.sum() + mask.sum())


logits = torch.tensor(
    [[1.0, -0.5, 0.25, 2.0], [0.1, 0.2, -1.5, 0.0], [3.0, 1.0, 0.5, -2.0]],
    dtype=torch.float64,
    requires_grad=True,
)
labels = torch.tensor([3, 1, 0])

plain = SmoothedCE(smoothing=0.1)
print(plain)
print(plain.reduction, plain.weight, list(plain.buffers()))
loss = plain(logits, labels)
loss.backward()
print(loss)
print(logits.grad)

weighted = SmoothedCE(
    weight=torch.tensor([1.0, 0.5, 2.0, 1.0], dtype=torch.float64), reduction="none", smoothing=0.2
)
print(weighted.state_dict())
print(weighted(logits, labels))

dice = SoftDice()
p = torch.tensor([0.9, 0.2, 0.7, 0.1], requires_grad=True)
m = torch.tensor([1.0, 0.0, 1.0, 0.0])
d = dice(p, m)
d.backward()
print(dice, dice.reduction, round(d.item(), 6))
print(p.grad)

print(isinstance(plain, _Loss), isinstance(dice, _WeightedLoss), isinstance(dice, nn.Module))
print(isinstance(nn.MSELoss(), _Loss), isinstance(nn.NLLLoss(), _WeightedLoss))
print(issubclass(SmoothedCE, _Loss), issubclass(nn.L1Loss, _WeightedLoss))
print(_Loss(reduction="sum").reduction, _WeightedLoss())
try:
    _Loss()(p, m)
except NotImplementedError as e:
    print("NotImplementedError:", e)
