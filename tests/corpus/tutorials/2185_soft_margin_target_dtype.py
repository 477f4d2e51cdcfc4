# Soft margin loss with +-1 labels kept as float64 while the model works in float32 (or
# half): the loss has the input's dtype, as PyTorch computes it in place on -input.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5)
scores = torch.randn(4, 3, requires_grad=True)
labels = torch.sign(torch.randn(4, 3)).double()
for reduction in ["mean", "sum", "none"]:
    loss = F.soft_margin_loss(scores, labels, reduction=reduction)
    print(reduction, loss.dtype, f"{loss.sum().item():.7f}")
loss = nn.SoftMarginLoss()(scores, labels)
loss.backward()
print(scores.grad.dtype, [round(v, 5) for v in scores.grad[0].tolist()])
print(nn.SoftMarginLoss()(scores.detach().half(), labels.float()).dtype)
wide = F.soft_margin_loss(scores.detach().double(), labels.float())
print(wide.dtype, f"{wide.item():.10f}")
