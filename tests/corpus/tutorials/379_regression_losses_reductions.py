# Regression losses and their reductions: MSELoss, L1Loss, SmoothL1Loss, HuberLoss with
# 'mean', 'sum', 'none', and their gradients.
import torch
from torch import nn

torch.manual_seed(12)
pred = torch.randn(2, 3, requires_grad=True)
target = torch.randn(2, 3)
for reduction in ["mean", "sum", "none"]:
    print(reduction)
    print(" mse", nn.MSELoss(reduction=reduction)(pred, target))
    print(" l1", nn.L1Loss(reduction=reduction)(pred, target))
    print(" smooth", nn.SmoothL1Loss(reduction=reduction, beta=0.5)(pred, target))
    print(" huber", nn.HuberLoss(reduction=reduction, delta=0.5)(pred, target))

loss = nn.MSELoss()(pred, target) + 0.1 * nn.L1Loss()(pred, target)
loss.backward()
print(loss.item())
print(pred.grad)
print(nn.MSELoss())
