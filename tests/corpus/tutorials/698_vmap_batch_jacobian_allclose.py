# Per-sample Jacobians and Hessians of a small layer: vmap over jacrev / jacfwd / hessian,
# compared with the Jacobian of the summed outputs (the trick the torch.func docs show).
import torch
import torch.nn.functional as F
from torch.func import hessian, jacfwd, jacrev, vmap

torch.manual_seed(7)


def layer(w, b, x):
    return F.linear(x, w, b).tanh()


n_batch, n_in, n_out = 48, 29, 35
w = torch.randn(n_out, n_in)
b = torch.randn(n_out)
xs = torch.randn(n_batch, n_in)

per_sample = vmap(jacrev(layer, argnums=2), in_dims=(None, None, 0))(w, b, xs)
print(per_sample.shape)


def layer_summed(w, b, x):
    return layer(w, b, x).sum(0)


summed = jacrev(layer_summed, argnums=2)(w, b, xs).movedim(1, 0)
print(torch.allclose(per_sample, summed))
print(torch.equal(per_sample, summed))
print(f"{per_sample[3, 4, 5].item():.10f}")
print(per_sample[0, :2, :4])

forward = vmap(jacfwd(layer, argnums=2), in_dims=(None, None, 0))(w, b, xs)
print(torch.allclose(forward, per_sample), torch.equal(forward, per_sample))

outs = vmap(layer, in_dims=(None, None, 0))(w, b, xs)
print(torch.equal(outs, layer(w, b, xs)))
print(outs[5, :4])

hess = vmap(hessian(layer, argnums=2), in_dims=(None, None, 0))(w[:6], b[:6], xs[:10])
print(hess.shape)
print(f"{hess[2, 1, 3, 4].item():.10f}")
print(torch.allclose(hess[2], hessian(layer, argnums=2)(w[:6], b[:6], xs[2])))
