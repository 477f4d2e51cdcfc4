# A gradient penalty (as in WGAN-GP) and a Hessian-vector product through
# bias-free layers written with @, torch.mm and torch.bmm: the input requires
# grad too, so every product's backward makes gradients for both operands, and
# a second pass adds them up in the order the first pass recorded them.
import torch

torch.manual_seed(5)
for step in range(3):
    W1 = torch.randn(3, 5, requires_grad=True)
    W2 = torch.randn(5, 1, requires_grad=True)
    x = torch.randn(4, 3, requires_grad=True)
    h = torch.tanh(x @ W1)
    score = torch.mm(h * h, W2)
    (gx,) = torch.autograd.grad(score.sum(), x, create_graph=True)
    penalty = ((gx.norm(dim=1) - 1) ** 2).mean() + (gx * x).sum()
    gW1, gW2 = torch.autograd.grad(penalty, (W1, W2))
    print(step, penalty.item())
    print("  W1", gW1.flatten()[:6].tolist())
    print("  W2", gW2.flatten().tolist())

A = torch.randn(2, 3, 4, requires_grad=True)
B = torch.randn(2, 4, 2, requires_grad=True)
out = torch.bmm(A, B).sin()
gA, gB = torch.autograd.grad(out.pow(2).sum(), (A, B), create_graph=True)
v = torch.randn(2, 3, 4)
hvp = torch.autograd.grad((gA * v).sum() + gB.sum() + out.sum(), (A, B))
print([t.flatten()[:5].tolist() for t in hvp])

u = torch.randn(3, requires_grad=True)
M = torch.randn(3, 4, requires_grad=True)
r = torch.tanh(u @ M)
gu, gM = torch.autograd.grad(r.pow(3).sum(), (u, M), create_graph=True)
print([t.flatten().tolist() for t in torch.autograd.grad(gu.sum() + gM.sum() + r.sum(), (u, M))])
