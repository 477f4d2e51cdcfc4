# Per-element weights on the regression losses (PyTorch 2.13's weight= of F.mse_loss,
# F.l1_loss and F.huber_loss): which reduction divides by what, the nodes they make, and
# the gradient each sends back.
import torch
import torch.nn.functional as F

pred = torch.tensor([[0.2, 1.7, -0.4], [2.5, 0.0, 1.1]], requires_grad=True)
target = torch.tensor([[0.0, 2.0, 0.0], [2.0, 0.5, 1.0]])
importance = torch.tensor([[1.0, 3.0, 0.5], [2.0, 1.0, 0.25]])

for name, loss_fn in [("mse", F.mse_loss), ("l1", F.l1_loss), ("huber", F.huber_loss)]:
    for reduction in ("mean", "sum", "none"):
        value = loss_fn(pred, target, reduction=reduction, weight=importance)
        print(name, reduction, value)
    pred.grad = None
    loss_fn(pred, target, weight=importance).backward()
    print(name, "grad", pred.grad)

print(F.huber_loss(pred, target, delta=0.3, weight=importance, reduction="sum"))
try:
    F.mse_loss(pred, target, weight=torch.ones(3))
except ValueError as err:
    print("ValueError:", err)
