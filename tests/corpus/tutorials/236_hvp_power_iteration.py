# The largest eigenvalue of a loss's Hessian without forming it: power iteration on
# Hessian-vector products (torch.autograd.functional.hvp), checked against the full Hessian.
import torch
from torch.autograd.functional import hvp, hessian

A = torch.tensor([[3.0, 1.0, 0.0], [1.0, 2.0, 0.5], [0.0, 0.5, 1.0]], dtype=torch.float64)


def loss(w):
    return 0.5 * w @ A @ w + 0.1 * (w ** 4).sum()


w = torch.tensor([0.5, -0.5, 1.0], dtype=torch.float64)
v = torch.ones(3, dtype=torch.float64) / 3 ** 0.5
for it in range(30):
    _, hv = hvp(loss, w, v)
    lam = (v * hv).sum()
    v = hv / hv.norm()
print(f"top eigenvalue {lam.item():.6f}")
H = hessian(loss, w)
print(H)
print(f"check {(H @ v - lam * v).norm().item() < 1e-4}")
value, vh = torch.autograd.functional.vhp(loss, w, v)
print(value, (vh - hv / hv.norm() * 0).shape)
