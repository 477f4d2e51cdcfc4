# BCELoss wants probabilities on both sides: a tutorial that feeds regression targets (y = 2x)
# to BCELoss gets PyTorch's range error, not a negative "loss". Soft targets inside [0, 1] are
# fine, and BCEWithLogitsLoss does not check its targets at all.
import torch
import torch.nn as nn
import torch.nn.functional as F

x_data = torch.tensor([[1.0], [2.0], [3.0]])
y_data = torch.tensor([[2.0], [4.0], [6.0]])
probs = torch.sigmoid(torch.tensor([[0.3], [-0.2], [1.1]], requires_grad=True))

criterion = nn.BCELoss(reduction="sum")
try:
    criterion(probs, y_data)
except RuntimeError as e:
    print("regression targets:", e)

soft = torch.tensor([[0.25], [0.5], [1.0]])
loss = criterion(probs, soft)
loss.backward()
print(f"soft targets: {loss.item():.6f}")

cases = {
    "negative target": (torch.tensor([0.4, 0.6]), torch.tensor([-0.5, 1.0])),
    "nan target": (torch.tensor([0.4, 0.6]), torch.tensor([0.0, float("nan")])),
    "input above one": (torch.tensor([1.5, 0.6]), torch.tensor([2.0, 1.0])),
    "target first": (torch.tensor([0.5, 1.5]), torch.tensor([3.0, 0.0])),
    "nan input": (torch.tensor([float("nan"), 0.5]), torch.tensor([1.0, 0.0])),
}
for name, (p, t) in cases.items():
    for reduction in ("mean", "none"):
        try:
            F.binary_cross_entropy(p, t, reduction=reduction)
        except RuntimeError as e:
            print(f"{name} ({reduction}): {e}")

logits = torch.tensor([0.5, -1.0, 2.0])
print(F.binary_cross_entropy_with_logits(logits, torch.tensor([2.0, -1.0, 0.5])))
print(nn.BCELoss()(torch.tensor([0.0, 1.0]), torch.tensor([0.0, 1.0])))
