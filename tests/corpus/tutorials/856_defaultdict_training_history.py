# Keeping a training history in a collections.defaultdict, as many training scripts do,
# and accumulating per-parameter statistics keyed by name.
from collections import defaultdict
import collections
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
X = torch.randn(16, 3)
y = X @ torch.tensor([[1.0], [-2.0], [0.5]])

history = defaultdict(list)
grad_norms = collections.defaultdict(float)
for epoch in range(4):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), y)
    loss.backward()
    for name, p in model.named_parameters():
        grad_norms[name] += p.grad.norm().item()
    opt.step()
    history["loss"].append(round(loss.item(), 5))
    history["lr"] += [opt.param_groups[0]["lr"]]

print(history)
print(sorted(grad_norms), len(grad_norms))
print({k: round(v, 4) for k, v in grad_norms.items()})

counts = defaultdict(int)
for label in torch.tensor([0, 2, 1, 2, 2]).tolist():
    counts[label] += 1
print(counts, counts[7], dict(counts))

per_class = defaultdict(lambda: torch.zeros(2))
logits = torch.tensor([[1.0, -1.0], [0.5, 0.5], [2.0, 0.0]], requires_grad=True)
for c, row in zip([0, 1, 0], logits):
    per_class[c] = per_class[c] + row
total = per_class[0].sum() * 2 + per_class[1].sum()
total.backward()
print(per_class[0], logits.grad)

snapshot = copy.deepcopy(history)
snapshot["loss"].append(0.0)
print(len(history["loss"]), len(snapshot["loss"]), type(snapshot).__name__)
print(history.default_factory, history.copy() == history, isinstance(history, dict))
strict = defaultdict(None, {"a": 1})
try:
    strict["b"]
except KeyError as e:
    print("KeyError:", e)
