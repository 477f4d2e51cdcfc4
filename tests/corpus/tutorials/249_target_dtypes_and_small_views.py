# Targets of the wrong dtype (the classic "Found dtype Long but expected Float"), mixed-dtype
# similarity, and the small views and reductions whose grad_fn shows in printed tensors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(4, requires_grad=True)
labels = torch.tensor([1, 0, 1, 1])
for name, fn in [
    ("BCELoss", lambda: nn.BCELoss()(torch.sigmoid(logits), labels)),
    ("BCEWithLogitsLoss", lambda: nn.BCEWithLogitsLoss()(logits, labels)),
    ("bool target", lambda: F.binary_cross_entropy_with_logits(logits, labels.bool())),
    ("kl_div", lambda: F.kl_div(logits, labels, reduction="sum")),
    ("cdist", lambda: torch.cdist(logits[None], logits.double()[None])),
    ("sub bool", lambda: logits.sub(labels.bool(), alpha=2)),
]:
    try:
        fn()
    except RuntimeError as e:
        print(f"{name}: {e}")
loss = nn.BCEWithLogitsLoss()(logits, labels.float())
loss.backward()
print(loss, logits.grad)

counts = torch.tensor([3, 0, 4])
query = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
sim = F.cosine_similarity(counts, query, dim=0)
print(sim, F.smooth_l1_loss(query, counts > 1), F.huber_loss(query, counts))

a = torch.tensor([3.0, -4.0, 0.5], requires_grad=True)
r = torch.hypot(a, torch.zeros(3))
r.sum().backward()
print(r, a.grad)

x = torch.randn(6) * 4
print(x.logcumsumexp(0).tolist())
print(torch.tensor([-0.0, 2.0]).logcumsumexp(0))

v = torch.tensor([1.5, -2.0], requires_grad=True)
s = torch.tensor(3.0, requires_grad=True)
print(v.t(), s.t(), s.sort().values, s.topk(1).values, s.transpose(0, -1))
print(torch.aminmax(v), torch.aminmax(v, dim=0).min.grad_fn.name())
c = v.clone()
c.pow_(2)
(g,) = torch.autograd.grad(c.sum(), v, create_graph=True)
print(g)
