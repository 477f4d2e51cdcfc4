# Old loss keywords (size_average, reduce) still work; PyTorch warns that they are
# deprecated, from the functional losses as from the loss modules.
import warnings
import torch
import torch.nn as nn
import torch.nn.functional as F

pred = torch.tensor([0.5, 2.0, -1.0], requires_grad=True)
target = torch.tensor([1.0, 1.0, 1.0])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    total = F.mse_loss(pred, target, size_average=False)
    each = F.l1_loss(pred, target, reduce=False)
    crit = nn.SmoothL1Loss(size_average=True)
print([str(w.message) for w in caught])
print([w.category.__name__ for w in caught])
total.backward()
print(total, each, crit(pred, target), pred.grad)
