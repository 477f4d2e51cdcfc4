# Inside a vmapped function: a global flag set to the same value, and an accumulator that
# lives in the function's own frame (a nested helper with `nonlocal`), both behave as in
# PyTorch; the per-sample gradient is compared with a loop over the rows.
import torch
from torch.func import grad, vmap

torch.manual_seed(11)
w = torch.randn(3, dtype=torch.float64)
xs = torch.randn(5, 3, dtype=torch.float64)
ys = torch.randn(5, dtype=torch.float64)
used_vmap = False


def sample_loss(w, x, y):
    global used_vmap
    used_vmap = True
    total = torch.zeros((), dtype=torch.float64)

    def accumulate(term):
        nonlocal total
        total = total + term

    pred = (w * x).sum()
    accumulate((pred - y) ** 2)
    accumulate(1e-2 * (w**2).sum())
    return total


per_sample = vmap(grad(sample_loss), in_dims=(None, 0, 0))(w, xs, ys)
looped = torch.stack([grad(sample_loss)(w, x, y) for x, y in zip(xs, ys)])
print("flag:", used_vmap)
print(per_sample)
print("same as the loop:", torch.allclose(per_sample, looped))
