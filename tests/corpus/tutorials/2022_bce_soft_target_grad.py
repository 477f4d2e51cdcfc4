# Soft labels that are learned too: BCE's gradient w.r.t. the target, and second derivatives
# through both arguments (e.g. a gradient penalty on a learned label-smoothing model).
import torch
import torch.nn as nn
import torch.nn.functional as F

pred = torch.tensor([[0.15, 0.8], [0.6, 0.35]], dtype=torch.float64, requires_grad=True)
soft = torch.tensor([[0.1, 0.9], [0.5, 0.2]], dtype=torch.float64, requires_grad=True)

for reduction in ("mean", "sum", "none"):
    loss = F.binary_cross_entropy(pred, soft, reduction=reduction)
    g_pred, g_soft = torch.autograd.grad(loss.sum(), (pred, soft), create_graph=True)
    print(reduction, g_pred.grad_fn.name(), g_soft.grad_fn.name())
    print(g_pred)
    print(g_soft)
    h_pred, h_soft = torch.autograd.grad(g_pred.pow(2).sum() + g_soft.sum(), (pred, soft))
    print(h_pred)
    print(h_soft)

weights = torch.tensor([2.0, 0.5], dtype=torch.float64)
crit = nn.BCELoss(weight=weights)
loss = crit(pred, soft)
g_soft, = torch.autograd.grad(loss, soft, create_graph=True)
print(g_soft)
print([n.name() if n is not None else None for n, _ in g_soft.grad_fn.next_functions])
g_soft.sum().backward()
print(pred.grad)

# float32, first order only
p32 = torch.tensor([0.3, 0.55, 0.9], requires_grad=True)
t32 = torch.tensor([0.0, 0.5, 1.0], requires_grad=True)
F.binary_cross_entropy(p32, t32).backward()
print(p32.grad, t32.grad)
