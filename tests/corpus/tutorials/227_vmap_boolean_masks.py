# Boolean masks inside torch.func.vmap: a mask of constants indexes every element alike, a
# mask computed from the mapped input would give each element its own shape (PyTorch refuses
# it; multiply by the mask, or use torch.where, instead).
import torch
from torch.func import vmap

torch.manual_seed(0)
scores = torch.randn(4, 6)
keep = torch.tensor([True, False, True, True, False, True])

print(vmap(lambda row: row[keep].sum())(scores))
print(vmap(lambda row: (row * (row > 0)).sum())(scores))
print(vmap(lambda row: torch.where(row > 0, row, torch.zeros_like(row)).amax())(scores))

for name, fn in [
    ("positive entries", lambda row: row[row > 0].sum()),
    ("masked columns", lambda mask: scores[:, mask].mean(-1)),
]:
    try:
        arg = scores if name == "positive entries" else (scores > 0).T
        print(vmap(fn)(arg))
    except RuntimeError as err:
        print(f"{name}: {err}")
