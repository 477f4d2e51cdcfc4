# Old code passes reduction='elementwise_mean' (the name 'mean' had before PyTorch 1.0): the
# losses still take it as 'mean' and warn; an unknown word is a ValueError.
import torch
import torch.nn as nn
import torch.nn.functional as F

pred = torch.tensor([[0.2, -1.0, 0.7], [1.5, 0.3, -0.4]], requires_grad=True)
target = torch.tensor([[0.0, -0.5, 1.0], [1.0, 0.0, 0.0]])
labels = torch.tensor([2, 0])

for name, loss in [
    ("l1", F.l1_loss(pred, target, reduction="elementwise_mean")),
    ("mse", F.mse_loss(pred, target, reduction="elementwise_mean")),
    ("smooth_l1", F.smooth_l1_loss(pred, target, reduction="elementwise_mean")),
    ("huber", F.huber_loss(pred, target, reduction="elementwise_mean", delta=0.5)),
    ("bce", F.binary_cross_entropy_with_logits(pred, (target > 0).float(),
                                               reduction="elementwise_mean")),
    ("ce", F.cross_entropy(pred, labels, reduction="elementwise_mean")),
    ("nll", F.nll_loss(F.log_softmax(pred, 1), labels, reduction="elementwise_mean")),
    ("kl", F.kl_div(F.log_softmax(pred, 1), F.softmax(target, 1),
                    reduction="elementwise_mean")),
    ("soft_margin", F.soft_margin_loss(pred, torch.sign(target - 0.1),
                                       reduction="elementwise_mean")),
]:
    print(name, loss.item(), loss.grad_fn.name())

criterion = nn.SmoothL1Loss(reduction="elementwise_mean")
print(criterion.reduction)
loss = criterion(pred, target)
loss.backward()
print(pred.grad)

for bad in ["avg", "Mean"]:
    try:
        F.mse_loss(pred, target, reduction=bad)
    except ValueError as err:
        print("ValueError:", err)
try:
    F.multilabel_soft_margin_loss(pred, (target > 0).float(), reduction="elementwise_mean")
except ValueError as err:
    print("ValueError:", err)
