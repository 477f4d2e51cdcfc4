# Binary cross-entropy element by element, printed in full: every float32 bit shows.
import torch
import torch.nn as nn

torch.manual_seed(11)
probs = torch.rand(256)
labels = (torch.rand(256) > 0.5).float()
per_item = nn.functional.binary_cross_entropy(probs, labels, reduction="none")
print(per_item.tolist())
print("sum:", per_item.sum().item(), "mean:", nn.BCELoss()(probs, labels).item())

# Soft labels, a weight, and the clamp at -100 for probabilities of exactly 0 and 1.
soft = torch.tensor([0.0, 0.25, 0.5, 0.9, 1.0])
p = torch.tensor([1e-8, 0.3, 0.5, 0.999, 1.0])
print(nn.functional.binary_cross_entropy(p, soft, reduction="none").tolist())
w = torch.tensor([1.0, 2.0, 0.5, 1.0, 3.0])
print(nn.BCELoss(weight=w, reduction="sum")(p, soft).item())

# A small sigmoid classifier's loss over a few steps.
torch.manual_seed(5)
model = nn.Sequential(nn.Linear(2, 4), nn.Sigmoid(), nn.Linear(4, 1), nn.Sigmoid())
x = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
y = torch.tensor([[0.0], [1.0], [1.0], [0.0]])
opt = torch.optim.SGD(model.parameters(), lr=1.0)
for step in range(30):
    opt.zero_grad()
    loss = nn.BCELoss()(model(x), y)
    loss.backward()
    opt.step()
    if step % 6 == 0:
        print(step, loss.item())
