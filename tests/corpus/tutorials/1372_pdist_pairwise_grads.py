# Pairwise distances between embeddings with F.pdist (p = 2, 1 and inf), used as a simple
# repulsion loss that pushes points apart; the gradients of each point printed.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
emb = torch.randn(6, 10, requires_grad=True)
d = F.pdist(emb)
print(d.tolist())
loss = torch.exp(-d).sum()
loss.backward()
print(emb.grad.tolist())

for p in (1.0, float("inf")):
    emb.grad = None
    dp = F.pdist(emb, p=p)
    print(p, dp)
    (dp * torch.linspace(-1, 1, dp.numel())).sum().backward()
    print(emb.grad[:2].tolist())

# float64, more features than one vector holds, a duplicated row (zero distance)
x = torch.randn(5, 13, dtype=torch.float64)
x[3] = x[1]
x.requires_grad_()
dist = torch.pdist(x)
print(dist)
g = torch.randn(dist.shape, dtype=torch.float64)
dist.backward(g)
print(x.grad.tolist())

# second derivatives: PyTorch has none for pdist's backward
y = torch.randn(4, 3, requires_grad=True)
(gy,) = torch.autograd.grad(F.pdist(y).sum(), y, create_graph=True)
print(gy.grad_fn.name())
try:
    gy.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
