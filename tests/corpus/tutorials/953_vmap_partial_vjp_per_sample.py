# Per-sample gradients of a linear map with vmap over vjp of a functools.partial (the input
# bound, the weight free), collecting per-sample pieces in a list made inside the function.
import functools

import torch
from torch.func import vjp, vmap

torch.manual_seed(0)
x = torch.rand(4, 3)  # (positive: no signed zeros in the outer products)
w = torch.randn(3, 2)


def per_sample(xi, w):
    out, pullback = vjp(functools.partial(torch.matmul, xi), w)
    pieces = []
    for k in range(out.shape[0]):
        onehot = torch.zeros_like(out)
        onehot[k] = 1.0
        (g,) = pullback(onehot)
        pieces.append(g)
    return torch.stack(pieces)


grads = vmap(per_sample, in_dims=(0, None))(x, w)
print(grads.shape)
print(grads[1])
# the same by hand: d(x_i @ w)[k] / dw = outer(x_i, e_k)
print(torch.allclose(grads[1, 0], torch.outer(x[1], torch.tensor([1.0, 0.0]))))
total, _ = vjp(functools.partial(torch.matmul, x), w)
print(total.sum(0))
