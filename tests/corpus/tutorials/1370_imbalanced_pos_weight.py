# Multi-label classifier on an imbalanced toy dataset: BCEWithLogitsLoss with pos_weight
# set from the negative/positive counts of each label, as forum answers recommend.
import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.randn(32, 6)
Y = (torch.rand(32, 3) < torch.tensor([0.1, 0.3, 0.6])).float()

pos = Y.sum(0)
neg = Y.shape[0] - pos
pos_weight = neg / pos.clamp(min=1)
print("pos_weight:", pos_weight)

model = nn.Linear(6, 3)
criterion = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(5):
    opt.zero_grad()
    logits = model(X)
    loss = criterion(logits, Y)
    loss.backward()
    print(f"epoch {epoch}: loss {loss.item():.8f}")
    opt.step()

print(model.weight.grad)
print(model.bias.grad)

# per-sample weights too, and the gradient of each element
logits = torch.randn(4, 3, requires_grad=True)
w = torch.tensor([[1.0], [0.5], [2.0], [1.0]])
per = nn.functional.binary_cross_entropy_with_logits(
    logits, Y[:4], weight=w, pos_weight=pos_weight, reduction="none"
)
print(per)
per.sum().backward()
print(logits.grad)
for reduction in ("sum", "mean"):
    logits.grad = None
    l = nn.functional.binary_cross_entropy_with_logits(
        logits, Y[:4], weight=w, pos_weight=pos_weight, reduction=reduction
    )
    l.backward()
    print(reduction, l.item(), logits.grad.tolist())
