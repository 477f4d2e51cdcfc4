# Softmax over different dimensions, as attention and segmentation code writes it, and the
# loss modules with class weights and label smoothing; values and gradients printed in full.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)

# Attention-style scores: (batch, queries, keys), normalised over the keys.
scores = torch.randn(2, 3, 20, requires_grad=True)
attn = F.softmax(scores / 20**0.5, dim=-1)
print(attn[0, 0].tolist())
(attn * torch.arange(20.0)).sum().backward()
print(scores.grad[1, 2].tolist())

# Per-pixel class scores (batch, classes, pixels): softmax over the class dimension.
pixels = torch.randn(2, 4, 19, requires_grad=True)
probs = pixels.softmax(dim=1)
logp = torch.log_softmax(pixels, dim=1)
print(probs[1, :, 17].tolist())
print(logp[0, :, 3].tolist())
(logp[:, 2] * torch.linspace(-1, 1, 19)).sum().backward()
print(pixels.grad[0, :, 18].tolist())

logits = torch.randn(24, 6, requires_grad=True)
targets = torch.randint(0, 6, (24,))
weights = torch.tensor([1.0, 0.5, 2.0, 1.0, 1.5, 0.25])
for name, criterion in [
    ("plain", nn.CrossEntropyLoss()),
    ("weighted", nn.CrossEntropyLoss(weight=weights)),
    ("smoothed", nn.CrossEntropyLoss(label_smoothing=0.1)),
    ("summed", nn.CrossEntropyLoss(reduction="sum")),
    ("ignore 2", nn.CrossEntropyLoss(ignore_index=2)),
]:
    logits.grad = None
    loss = criterion(logits, targets)
    loss.backward()
    print(name, loss.item(), logits.grad[5].tolist())

nll = nn.NLLLoss(weight=weights)
out = nll(F.log_softmax(logits, dim=1), targets)
print("nll", out.item())
print(F.softmax(logits, dim=0)[:2].tolist())
