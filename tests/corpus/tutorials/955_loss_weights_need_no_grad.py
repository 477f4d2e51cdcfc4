# Class weights computed from a tensor that requires grad: PyTorch refuses them at the call
# (no gradient flows to a loss's weights), while under no_grad or detached they are fine.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
logits = torch.randn(4, 3, requires_grad=True)
labels = torch.tensor([0, 2, 1, 2])
raw = torch.tensor([1.0, 3.0, 2.0], requires_grad=True)
class_w = raw / raw.sum()

for name, call in [
    ("cross_entropy", lambda: F.cross_entropy(logits, labels, weight=class_w)),
    ("CrossEntropyLoss", lambda: nn.CrossEntropyLoss(weight=class_w)(logits, labels)),
    ("nll_loss 3-d", lambda: F.nll_loss(logits.unsqueeze(-1).log_softmax(1), labels[:, None], weight=class_w)),
    ("bce", lambda: F.binary_cross_entropy(logits.sigmoid(), torch.rand(4, 3), weight=class_w)),
    ("bce logits", lambda: F.binary_cross_entropy_with_logits(logits, torch.rand(4, 3), pos_weight=class_w)),
    ("soft margin", lambda: F.soft_margin_loss(logits, torch.sign(logits))),
]:
    try:
        print(name, call())
    except RuntimeError as e:
        print(name, "->", e)

loss = F.cross_entropy(logits, labels, weight=class_w.detach())
loss.backward()
print(loss, logits.grad.sum(0))
with torch.no_grad():
    print(F.cross_entropy(logits, labels, weight=class_w))

# a target that requires grad and equals the prediction somewhere: its gradient there is +0
pred = torch.tensor([0.5, 1.5, -2.0], requires_grad=True)
target = torch.tensor([0.5, 1.0, -2.0], requires_grad=True)
F.mse_loss(pred, target).backward()
print(pred.grad, target.grad)
pred.grad = None
target.grad = None
nn.MSELoss(reduction="sum")(pred, target).backward()
print(pred.grad, target.grad)
g = torch.autograd.grad(F.mse_loss(pred, target), target, create_graph=True)[0]
print(g)

# Huber loss of integer labels: the loss computes, its backward fails (ATen's backward kernel
# takes the target as it is); SmoothL1 and MSE promote the labels
pred = torch.tensor([0.5, 2.0, 2.5], requires_grad=True)
labels = torch.tensor([1, 2, 4])
for loss_fn in [nn.HuberLoss(), nn.SmoothL1Loss(), nn.MSELoss(), nn.HuberLoss(reduction="none")]:
    pred.grad = None
    loss = loss_fn(pred, labels)
    print(type(loss_fn).__name__, loss)
    try:
        loss.sum().backward()
        print(pred.grad)
    except RuntimeError as e:
        print("backward:", e)
    try:
        print(torch.autograd.grad(loss_fn(pred, labels.bool()).sum(), pred))
    except RuntimeError as e:
        print("grad:", e)
