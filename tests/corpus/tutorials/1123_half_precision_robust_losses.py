# Robust regression losses in half precision (as under mixed-precision training on CPU):
# SmoothL1Loss and HuberLoss on float16 predictions, their values and the gradients that reach
# the predictions, for the mean, the sum and per-element losses.
import torch
import torch.nn as nn

torch.manual_seed(21)
pred = (torch.randn(24) * 2).half().requires_grad_()
target = torch.randn(24).half()

for loss_fn in (nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(delta=1.5), nn.SmoothL1Loss()):
    pred.grad = None
    loss = loss_fn(pred, target)
    loss.backward()
    print(type(loss_fn).__name__, loss.item())
    print(pred.grad.tolist())

pred.grad = None
per_item = nn.HuberLoss(reduction="none", delta=0.7)(pred, target)
per_item.backward(torch.linspace(0, 1, 24).half())
print(per_item[:10].tolist())
print(pred.grad.tolist())

pred.grad = None
total = nn.functional.smooth_l1_loss(pred, target, reduction="sum", beta=2.0)
total.backward()
print(total.item(), pred.grad[::4].tolist())
