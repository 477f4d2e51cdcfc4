# Errors people meet in data pipelines: a reduction without identity over an empty batch,
# and an SVD of a matrix that a NaN reached.
import torch

empty = torch.zeros(0, 4)
for name in ("amax", "amin", "max", "min"):
    try:
        getattr(torch, name)(empty)
    except RuntimeError as e:
        print(name, "->", e)
for call in (lambda: empty.amax(dim=0), lambda: torch.amin(empty, dim=(0, 1)),
             lambda: torch.aminmax(empty, dim=0), lambda: torch.aminmax(empty)):
    try:
        print(call())
    except (IndexError, RuntimeError) as e:
        print(type(e).__name__, "->", e)
print(torch.amax(empty, dim=1), torch.aminmax(empty, dim=1))

w = torch.eye(3, dtype=torch.float64, requires_grad=True)
bad = w * torch.tensor([1.0, float("nan"), 1.0], dtype=torch.float64)
for fn in (torch.linalg.svdvals, torch.linalg.matrix_rank, torch.linalg.pinv,
           lambda m: torch.linalg.matrix_norm(m, ord="nuc")):
    try:
        fn(bad)
    except torch.linalg.LinAlgError as e:
        print(type(e).__name__, "->", e)
try:
    torch.linalg.svd(torch.stack([w.detach(), bad.detach()]))
except RuntimeError as e:
    print(e)
