# Per-example gradients through a relu with torch.func: the zeros relu's backward writes are
# +0 (never -0), the stacked result shows the batched function's last operation, and an
# input returned as auxiliary output comes back as the tensor passed in.
import torch
from torch.func import grad, vmap

torch.manual_seed(0)
w = torch.randn(4, requires_grad=True)
xs = torch.randn(3, 4)
ts = torch.randn(3)


def loss(w, x, t):
    h = x.dot(w).relu()
    return (h - t) ** 2


per_example = vmap(grad(loss), in_dims=(None, 0, 0))(w, xs, ts)
print(per_example)

v = torch.tensor([-1.0, 2.0, -3.0], requires_grad=True)
r = torch.relu(v)
upstream = torch.tensor([-5.0, -5.0, -5.0], requires_grad=True)
(g,) = torch.autograd.grad(r, v, upstream, create_graph=True)
print(g)


def with_aux(p, q):
    return (p * q).sum(), (q, p.exp())


p = torch.tensor([0.5, -0.5])
q = torch.tensor([1.0, 2.0], requires_grad=True)
print(grad(with_aux, argnums=(0, 1), has_aux=True)(p, q))
