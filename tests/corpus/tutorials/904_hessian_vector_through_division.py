# Hessian-vector products of losses built on divisions (a normalized distribution, a ratio of
# the parameters, a KL between two normalizations), in float32.
import torch

torch.manual_seed(3)
w = torch.randn(5, 3, requires_grad=True)
v = torch.randn(5, 3)


def hvp(f):
    g, = torch.autograd.grad(f(w), w, create_graph=True)
    h, = torch.autograd.grad((g * v).sum(), w)
    return h


def normalized(z):
    p = torch.exp(z)
    p = p / p.sum(dim=1, keepdim=True)
    return (p * torch.tensor([0.3, -1.0, 2.0])).sum()


def ratio(z):
    return (z / (z * z + 3.0)).sum() + ((z + 2.0) / (z + 2.0)).sum()


def kl(z):
    q = torch.softmax(z.detach() * 0.5, dim=1)
    p = torch.softmax(z, dim=1)
    p = p / p.sum(dim=1, keepdim=True)
    return (q * (torch.log(q) - torch.log(p))).sum(dim=1).mean()


for f in (normalized, ratio, kl):
    print(f.__name__, hvp(f).flatten().tolist())
