# Box regression with a bfloat16 head (as autocast would leave it on CPU): SmoothL1Loss on the
# predicted offsets, the loss and the gradient reaching the predictions, for a few betas, a
# per-element loss weighted by hand, and one plain gradient-descent step on the offsets.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)
offsets = (torch.randn(4, 10) * 1.5).to(torch.bfloat16).requires_grad_()
targets = torch.randn(4, 10).to(torch.bfloat16)

for beta in (1.0, 0.5, 1.0 / 9):
    offsets.grad = None
    criterion = nn.SmoothL1Loss(beta=beta)
    loss = criterion(offsets, targets)
    loss.backward()
    print(f"beta={beta:.3f} loss={loss.item():.6f}", loss.dtype)
    print(offsets.grad[0].tolist())

offsets.grad = None
per_box = F.smooth_l1_loss(offsets, targets, reduction="none", beta=0.25).sum(dim=1)
weights = torch.tensor([1.0, 0.5, 2.0, 0.25], dtype=torch.bfloat16)
weighted = (per_box * weights).sum()
weighted.backward()
print(per_box.tolist())
print(weighted.item(), offsets.grad[2].tolist())

with torch.no_grad():
    offsets -= 0.1 * offsets.grad
offsets.grad = None
after = F.smooth_l1_loss(offsets, targets, reduction="sum")
after.backward()
print(after.item(), offsets.grad.abs().max())
