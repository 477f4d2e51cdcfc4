# A discriminator trained with binary cross-entropy and an input-gradient penalty (R1-style):
# the penalty differentiates through BCE's own backward node, which PyTorch records with a
# 1e-12 guard in its second-derivative formula.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)
disc = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1)).double()
real = torch.tensor([[0.5, -1.0], [1.5, 0.25], [-0.75, 0.8]], dtype=torch.float64)
real.requires_grad_(True)

prob = torch.sigmoid(disc(real)).squeeze(1)
loss = F.binary_cross_entropy(prob, torch.ones(3, dtype=torch.float64))
(g_prob,) = torch.autograd.grad(loss, prob, create_graph=True)
print(g_prob.grad_fn.name())
print(g_prob.tolist())
(g_real,) = torch.autograd.grad(loss, real, create_graph=True)
penalty = g_real.pow(2).sum()
penalty.backward()
print([round(v, 12) for v in disc[2].weight.grad.flatten().tolist()])

# the curvature of the loss in the probabilities themselves
p = torch.tensor([0.2, 0.6, 0.9], dtype=torch.float64, requires_grad=True)
target = torch.tensor([0.0, 1.0, 0.5], dtype=torch.float64)
for reduction in ("mean", "sum", "none"):
    out = F.binary_cross_entropy(p, target, weight=torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64), reduction=reduction)
    slope = torch.autograd.grad(out.sum(), p, create_graph=True)[0]
    curve = torch.autograd.grad(slope.sum(), p, create_graph=True)[0]
    third = torch.autograd.grad(curve.sum(), p)[0]
    print(reduction, slope.grad_fn.name(), curve.tolist(), third.tolist())
