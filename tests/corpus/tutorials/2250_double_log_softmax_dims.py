# Sequence tagging in double precision: logits come out as (batch, classes, time), so the
# softmax runs over dim=1, not the last one. Check the log-probabilities and the loss.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(2250)

batch, classes, steps = 4, 40, 12
logits = torch.randn(batch, classes, steps, dtype=torch.float64, requires_grad=True)
tags = torch.randint(0, classes, (batch, steps))

logp = nn.LogSoftmax(dim=1)(logits)
print("first sequence:", logp[0, :, :3].tolist())
print("total log-probability per step:", logp.sum(dim=1).tolist())
print("rows sum to one:", logp.exp().sum(dim=1).sub(1).abs().max().item() < 1e-12)

loss = F.cross_entropy(logits, tags)
print("loss:", loss.item())
loss.backward()
print("grad[1]:", logits.grad[1, :, :2].tolist())

# the same thing by hand over dim 0 of a (classes, n) table, and softmax over the last dim
table = torch.randn(7, 5, dtype=torch.float64) * 4
print(torch.log_softmax(table, dim=0).tolist())
probs = table.softmax(dim=-1)
print(probs.tolist())
print(F.log_softmax(table, dim=1).tolist())

# gradients through softmax / log_softmax over the last dim of a wider table
wide = (torch.randn(4, 21, dtype=torch.float64) * 2).requires_grad_()
weights = torch.arange(21, dtype=torch.float64)
(wide.softmax(dim=-1) * weights).sum().backward()
print("softmax grad:", wide.grad[:2].tolist())
wide.grad = None
F.log_softmax(wide, dim=1)[:, 0].sum().backward()
print("log_softmax grad:", wide.grad[:2].tolist())
