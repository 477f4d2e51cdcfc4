# Huber loss against targets of another dtype: the loss takes the input's dtype (computed in
# the wider one), and its backward refuses a target whose dtype is not the input's.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)
pred = torch.randn(4, 2, requires_grad=True)  # float32 predictions
target64 = torch.randn(4, 2, dtype=torch.float64)  # targets loaded as float64

loss = F.huber_loss(pred, target64, delta=0.5)
print(loss.dtype, f"{loss.item():.6f}")
try:
    loss.backward()
except RuntimeError as e:
    print("backward:", e)

loss = nn.HuberLoss(delta=0.5)(pred, target64.float())  # the fix: one dtype
loss.backward()
print(loss.dtype, f"{loss.item():.6f}", pred.grad.dtype, pred.grad.sum().item())

wide = F.huber_loss(pred.double(), target64.float(), reduction="none")
print(wide.dtype, wide.sum().item())
try:
    wide.sum().backward()
except RuntimeError as e:
    print("backward:", e)

try:
    F.huber_loss(pred, target64.float(), weight=torch.ones(2))
except ValueError as e:
    print("weight:", e)
w = torch.tensor([[1.0, 2.0]] * 4)
print(F.huber_loss(pred, target64.float(), weight=w, reduction="sum").item())
