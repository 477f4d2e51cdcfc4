# Newton's method on a two-variable function: the gradient from torch.func.grad, the Hessian
# from torch.autograd.functional.hessian, and a 2x2 solve written out by hand.
import torch
from torch.autograd.functional import hessian
from torch.func import grad


def f(p):
    x, y = p[0], p[1]
    return (x - 1) ** 4 + (x - 2 * y) ** 2 + torch.exp(y) - y


p = torch.tensor([0.0, 0.0], dtype=torch.float64)
for it in range(6):
    g = grad(f)(p)
    H = hessian(f, p)
    det = H[0, 0] * H[1, 1] - H[0, 1] * H[1, 0]
    step = torch.stack([
        (H[1, 1] * g[0] - H[0, 1] * g[1]) / det,
        (H[0, 0] * g[1] - H[1, 0] * g[0]) / det,
    ])
    p = p - step
    print(it, p, f(p).item())

print(grad(f)(p).abs().max() < 1e-6)
print(torch.func.hessian(f)(p))
