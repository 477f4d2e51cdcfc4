# A MAML-style meta step written by hand: one inner SGD step taken with
# create_graph=True through two nn.Linear layers, then the outer gradient
# summed over a few tasks. The bias gradients of the inner step meet the
# products' gradients in the outer pass, so the order of float32 sums there
# shows in the last digits printed below.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
net = nn.Sequential(nn.Linear(1, 8), nn.ReLU(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))
params = list(net.parameters())
inner_lr = 0.05


def forward_with(ps, x):
    h = F.relu(F.linear(x, ps[0], ps[1]))
    h = torch.tanh(F.linear(h, ps[2], ps[3]))
    return F.linear(h, ps[4], ps[5])


def task_loss(seed):
    g = torch.Generator().manual_seed(seed)
    amp = 0.5 + torch.rand(1, generator=g)
    xs = torch.rand(6, 1, generator=g) * 4 - 2
    xq = torch.rand(6, 1, generator=g) * 4 - 2
    support = F.mse_loss(forward_with(params, xs), amp * torch.sin(xs))
    grads = torch.autograd.grad(support, params, create_graph=True)
    fast = [p - inner_lr * gp for p, gp in zip(params, grads)]
    return F.mse_loss(forward_with(fast, xq), amp * torch.sin(xq))


outer = sum(task_loss(s) for s in range(3)) / 3
outer.backward()
print("outer loss", outer.item())
for name, p in net.named_parameters():
    print(name, p.grad.flatten()[:4].tolist())

# The same meta gradient through torch.addmm, torch.addmv and torch.baddbmm
# written out by hand.
for _trial in range(3):
    W = torch.randn(4, 3, requires_grad=True)
    b = torch.randn(4, requires_grad=True)
    W2 = torch.randn(2, 4, requires_grad=True)
    b2 = torch.randn(2, requires_grad=True)
    x = torch.randn(7, 3)
    out = torch.addmm(b2, torch.addmm(b, x, W.t()).sin(), W2.t())
    grads = torch.autograd.grad((out**2).mean(), (W, b, W2, b2), create_graph=True)
    probe = sum((g * torch.ones_like(g) * (i + 1)).sum() for i, g in enumerate(grads))
    print([g.flatten().tolist() for g in torch.autograd.grad(probe, (W, b, W2, b2))])

M = torch.randn(3, 4, requires_grad=True)
c = torch.randn(3, requires_grad=True)
u = torch.randn(4, requires_grad=True)
y = torch.addmv(c, M, u).tanh()
gM, gc, gu = torch.autograd.grad(y.pow(2).sum(), (M, c, u), create_graph=True)
print(torch.autograd.grad(gM.sum() + gc.sum() + gu.sum() + y.sum(), (M, c, u)))

B1 = torch.randn(2, 3, 2, requires_grad=True)
B2 = torch.randn(2, 2, 4, requires_grad=True)
bias = torch.randn(4, requires_grad=True)
z = torch.baddbmm(bias, B1, B2).cos()
g1, g2, gbias = torch.autograd.grad(z.sum(), (B1, B2, bias), create_graph=True)
print(torch.autograd.grad(g1.sum() + g2.sum() + gbias.sum() + z.sum(), (B1, B2, bias)))
