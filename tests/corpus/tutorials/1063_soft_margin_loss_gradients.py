# Binary classification with labels -1 / +1 and nn.SoftMarginLoss: gradients of the
# logits, a weighted per-sample loss, and a gradient penalty through the loss.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
logits = torch.randn(6, 5, requires_grad=True)
labels = torch.randint(0, 2, (6, 5)).float() * 2 - 1
loss = nn.SoftMarginLoss()(logits, labels)
loss.backward()
print(loss.item())
print(logits.grad)

logits.grad = None
per_sample = F.soft_margin_loss(logits, labels, reduction="none")
weights = torch.linspace(0.5, 2.0, 5)
(per_sample * weights).sum().backward()
print(logits.grad)

logits.grad = None
total = F.soft_margin_loss(logits, labels, reduction="sum")
(g,) = torch.autograd.grad(total, logits, create_graph=True)
print(g.grad_fn.name())
g.pow(2).mean().backward()
print(logits.grad)
