# Multi-class hinge loss, Gumbel-softmax sampling and a few matrix helpers.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)

scores = torch.randn(4, 5, requires_grad=True)
labels = torch.tensor([1, 0, 4, 2])
crit = nn.MultiMarginLoss()
loss = crit(scores, labels)
loss.backward()
print(crit, loss)
print(scores.grad)
print(F.multi_margin_loss(scores, labels, p=2, margin=0.5, reduction='none'))
w = torch.tensor([1.0, 2.0, 0.5, 1.0, 1.0])
print(F.multi_margin_loss(scores, labels, weight=w, reduction='sum'))

logits = torch.randn(3, 4, requires_grad=True)
soft = F.gumbel_softmax(logits, tau=0.7)
hard = F.gumbel_softmax(logits, tau=0.7, hard=True)
print(soft)
print(hard)
(hard * torch.arange(4.)).sum().backward()
print(logits.grad)

r = nn.RReLU(0.1, 0.3)
print(r(torch.randn(8)))

A = torch.randn(3, 3, requires_grad=True)
u, v = torch.randn(3), torch.randn(3)
B = torch.addr(A, u, v, beta=0.5, alpha=2.0)
C = torch.addbmm(A, torch.randn(5, 3, 2), torch.randn(5, 2, 3))
D = A.renorm(2, 0, 1.0)
print(B)
print(C)
print(D, D.norm(dim=1))
E = torch.corrcoef(torch.randn(3, 10))
print(E)
(B.sum() + C.sum() + D.sum()).backward()
print(A.grad)
