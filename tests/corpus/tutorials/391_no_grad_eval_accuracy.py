# Evaluation under torch.no_grad(): predictions with argmax, accuracy as a percentage, the
# per-class counts, and requires_grad of what no_grad computes.
import torch
import torch.nn as nn

torch.manual_seed(2)
model = nn.Sequential(nn.Linear(5, 12), nn.ReLU(), nn.Linear(12, 4))
X = torch.randn(40, 5)
y = torch.randint(0, 4, (40,))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.8)
for epoch in range(30):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(X), y)
    loss.backward()
    opt.step()

model.eval()
with torch.no_grad():
    logits = model(X)
    preds = logits.argmax(dim=1)
    correct = (preds == y).sum().item()
    print(logits.requires_grad, preds.dtype)
    print(f"accuracy: {correct}/{len(y)} = {100.0 * correct / len(y):.1f}%")
    for c in range(4):
        mask = y == c
        print(f"class {c}: {(preds[mask] == c).sum().item()}/{mask.sum().item()}")
    probs = torch.softmax(logits, dim=1)
    print(probs[:3])
    print(probs.max(dim=1).values[:5])
print(model(X).requires_grad)
