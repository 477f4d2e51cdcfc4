# A float64 model scored against labels made with .float(): BCEWithLogitsLoss works in place
# on (1 - target), so the loss comes out in the target's dtype, and so do its gradient steps.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
model = nn.Linear(3, 2).double()
inputs = torch.randn(6, 3, dtype=torch.float64)
labels = (inputs[:, :2] > 0).float()  # float32 labels, as a tutorial makes them

for crit in [nn.BCEWithLogitsLoss(), nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0, 0.5]))]:
    model.zero_grad()
    loss = crit(model(inputs), labels)
    loss.backward()
    print(loss.dtype, f"{loss.item():.12f}")
    print([f"{v:.12f}" for v in model.weight.grad.flatten().tolist()])

# the other way round: a float32 input with float64 targets gives a float64 loss
logits = torch.tensor([[0.3, -1.2], [2.0, 0.1]], requires_grad=True)
target = torch.tensor([[1.0, 0.0], [0.0, 1.0]], dtype=torch.float64)
loss = F.binary_cross_entropy_with_logits(logits, target, reduction="sum")
loss.backward()
print(loss.dtype, f"{loss.item():.12f}", logits.grad.dtype, logits.grad.tolist())
