# Box regression losses as detection heads use them: smooth L1 (beta = 1/9) and Huber,
# with the loss scaled before backward (a loss weight), targets that require grad, and a
# second derivative through the loss.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(4)
pred = torch.randn(8, 4, requires_grad=True)
target = torch.randn(8, 4, requires_grad=True)
with torch.no_grad():
    pred[0] = target[0]

loss = F.smooth_l1_loss(pred, target, beta=1.0 / 9)
(loss * 2.5).backward()
print(loss.item())
print(pred.grad[:3])
print(target.grad[:3])

pred.grad = None
target.grad = None
huber = nn.HuberLoss(delta=0.5)
h = huber(pred, target)
h.backward(torch.tensor(0.3))
print(h.grad_fn.name(), pred.grad[:3], target.grad[5:])

per_coord = F.smooth_l1_loss(pred, target, reduction="none", beta=0.5)
w = torch.rand(8, 4)
(gp,) = torch.autograd.grad(per_coord, pred, w, create_graph=True)
print(gp.grad_fn.name())
pen = gp.pow(2).sum()
pen.backward()
print(pred.grad[:2], target.grad[:2])
