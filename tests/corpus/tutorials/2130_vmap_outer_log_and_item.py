# Logging inside a vmapped function: the tempting version calls .item() (which vmap
# refuses before the append happens), the right one returns the values and collects them
# after the call.
import torch
from torch.func import vmap

torch.manual_seed(3)
batch = torch.randn(4, 3, dtype=torch.float64)
seen = []


def score_and_log(row):
    seen.append(row.abs().max().item())
    return (row**2).sum()


try:
    vmap(score_and_log)(batch)
except RuntimeError as err:
    print("vmap refused:", str(err).split(" on a Tensor")[0])
print("entries logged:", len(seen))


def score_with_peak(row):
    return (row**2).sum(), row.abs().max()


scores, peaks = vmap(score_with_peak)(batch)
seen.extend(peaks.tolist())
print("scores:", scores)
print("entries logged:", len(seen), [round(p, 4) for p in seen])
