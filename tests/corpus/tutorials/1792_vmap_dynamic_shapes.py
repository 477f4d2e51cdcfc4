# Per-sample code that counts or selects elements works in a loop, but vmap refuses any op
# whose output size depends on the values, even when every sample happens to agree.
import torch
from torch.func import vmap

scores = torch.tensor([[0.0, 0.7, 0.2], [0.9, 0.0, 0.4]], dtype=torch.float64)
keep = scores > 0.3

attempts = {
    "nonzero": lambda s: torch.nonzero(s > 0.3),
    "nonzero as_tuple": lambda s: (s > 0.3).nonzero(as_tuple=True)[0],
    "masked_select": lambda s: torch.masked_select(s, s > 0.3),
    "bool index": lambda s: s[s > 0.3],
    "unique": lambda s: torch.unique(s.round()),
    "unique dim": lambda s: s.round().unique(dim=0),
    "unique_consecutive": lambda s: torch.unique_consecutive(s.round()),
}
for name, fn in attempts.items():
    print("loop:", name, [fn(s).shape for s in scores])
    try:
        vmap(fn)(scores)
    except RuntimeError as err:
        print("vmap:", err)

# What works under vmap: a fixed mask, or a mask turned into arithmetic.
fixed = torch.tensor([True, False, True])
print(vmap(lambda s: torch.masked_select(s, fixed))(scores))
print(vmap(lambda s: (s * (s > 0.3)).sum())(scores))
print(vmap(lambda s: torch.where(s > 0.3, s, torch.zeros_like(s)))(scores))
print(torch.nonzero(keep))
