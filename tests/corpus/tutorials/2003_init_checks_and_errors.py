# Checking weight initialisers before training: each one from its own generator, and the
# ValueErrors nn.init raises for shapes and names it does not accept, caught and printed.
import torch
import torch.nn as nn

torch.manual_seed(0)
g = torch.Generator().manual_seed(21)
w = torch.empty(3, 4, dtype=torch.float64)
for name, init in [
    ("xavier_uniform_", lambda t: nn.init.xavier_uniform_(t, generator=g)),
    ("kaiming_normal_", lambda t: nn.init.kaiming_normal_(t, mode="fan_out", generator=g)),
    ("orthogonal_", lambda t: nn.init.orthogonal_(t, generator=g)),
    ("sparse_", lambda t: nn.init.sparse_(t, sparsity=0.34, generator=g)),
]:
    init(w)
    print(f"{name:16s} mean={w.mean().item():+.4f} std={w.std().item():.4f} zeros={(w == 0).sum().item()}")

for label, bad in [
    ("gain of swish", lambda: nn.init.calculate_gain("swish")),
    ("orthogonal of a vector", lambda: nn.init.orthogonal_(torch.empty(5))),
    ("eye of a cube", lambda: nn.init.eye_(torch.empty(2, 2, 2))),
    ("sparse of a cube", lambda: nn.init.sparse_(torch.empty(2, 2, 2), 0.5)),
    ("xavier of a bias", lambda: nn.init.xavier_uniform_(torch.empty(4))),
    ("dirac of a matrix", lambda: nn.init.dirac_(torch.empty(3, 3))),
]:
    try:
        bad()
        print(label, "accepted")
    except ValueError as e:
        print(f"{label}: ValueError: {e}")
