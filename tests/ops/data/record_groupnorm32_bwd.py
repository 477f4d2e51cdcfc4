"""Record PyTorch's float32 group_norm gradients (input, weight, bias) for
tests/ops/test_groupnorm32.py (run with torch 2.13 CPU, one thread:
/work/torchenv/bin/python tests/ops/data/record_groupnorm32_bwd.py). Inputs, weights, biases
and upstream gradients are NumPy's, drawn from seeds; the gradients are stored as float32 bit
patterns. The shapes cover every remainder of a group's channel count by 8 (the kernel's
channel sum runs 8 at a time, then a tail of its own), one position or many, 2-d to 5-d."""

import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)  # (with threads, the kernel's compiled tail differs: measured)


def draw(shape: list[int], seed: int) -> np.ndarray:
    return np.random.default_rng([*shape, seed]).standard_normal(shape).astype(np.float32)


CASES = []
for shape, groups in (
    ([3, 6], 3),
    ([2, 12, 1], 1),
    ([1, 12, 3], 1),
    ([2, 24, 7], 2),
    ([2, 10, 5], 1),
    ([3, 13, 4], 1),
    ([2, 14, 2, 3], 1),
    ([2, 30, 6], 2),
    ([2, 32, 4, 4], 4),
    ([2, 40, 9], 2),
    ([4, 9, 2, 2, 2], 3),
    ([2, 21, 17], 1),
    ([2, 16, 70], 2),
):
    for seed, has_w in enumerate((True, False, True)):
        x = draw(shape, seed) * 2.5 + 0.3
        w = draw([shape[1]], seed + 10) * 0.5 + 1
        b = draw([shape[1]], seed + 20)
        g = draw(shape, seed + 30)
        xt = torch.from_numpy(x).requires_grad_()
        wt = torch.from_numpy(w).requires_grad_() if has_w else None
        bt = torch.from_numpy(b).requires_grad_() if has_w else None
        F.group_norm(xt, groups, wt, bt).backward(torch.from_numpy(g))
        bits = {"dx": xt.grad.numpy().reshape(-1).view(np.uint32).tolist()}
        if has_w:
            bits["dw"] = wt.grad.numpy().view(np.uint32).tolist()
            bits["db"] = bt.grad.numpy().view(np.uint32).tolist()
        # create_graph=True: PyTorch composes the gradient of tensor operations instead
        ins = (xt, wt) if has_w else (xt,)
        y = F.group_norm(xt, groups, wt, bt)
        cg = torch.autograd.grad(y, ins, torch.from_numpy(g), create_graph=True)
        bits["cg_dx"] = cg[0].detach().numpy().reshape(-1).view(np.uint32).tolist()
        if has_w:
            bits["cg_dw"] = cg[1].detach().numpy().view(np.uint32).tolist()
        CASES.append({"shape": shape, "groups": groups, "seed": seed, "has_w": has_w, **bits})

out = Path(__file__).parent / "groupnorm32_bwd.json"
out.write_text(json.dumps(CASES) + "\n")
print(len(CASES), "cases ->", out)
