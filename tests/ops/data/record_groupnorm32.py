"""Record PyTorch's float32 F.group_norm outputs for tests/ops/test_groupnorm32.py (run with
torch 2.13 CPU: /work/torchenv/bin/python tests/ops/data/record_groupnorm32.py). Inputs,
weights and biases are NumPy's, drawn from seeds; the outputs are stored as float32 bit
patterns."""

import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)


def draw(shape: list[int], seed: int) -> np.ndarray:
    return np.random.default_rng([*shape, seed]).standard_normal(shape).astype(np.float32)


CASES = []
for shape, groups in (
    ([2, 4], 2),
    ([3, 6, 5], 3),
    ([4, 8, 7, 3], 4),
    ([20, 6, 10, 10], 1),
    ([2, 12, 9, 9], 6),
    ([1, 32, 40], 8),
    ([5, 3, 33], 3),
):
    for seed, (has_w, has_b) in enumerate(
        ((True, True), (False, False), (True, False), (False, True))
    ):
        x = draw(shape, seed) * 2.5 + 0.3
        w = draw([shape[1]], seed + 10) * 0.5 + 1
        b = draw([shape[1]], seed + 20)
        y = F.group_norm(
            torch.from_numpy(x),
            groups,
            torch.from_numpy(w) if has_w else None,
            torch.from_numpy(b) if has_b else None,
            eps=1e-5 if seed % 2 == 0 else 1e-3,
        )
        CASES.append(
            {
                "shape": shape,
                "groups": groups,
                "seed": seed,
                "has_w": has_w,
                "has_b": has_b,
                "eps": 1e-5 if seed % 2 == 0 else 1e-3,
                "bits": y.numpy().reshape(-1).view(np.uint32).tolist(),
            }
        )

out = Path(__file__).parent / "groupnorm32.json"
out.write_text(json.dumps(CASES) + "\n")
print(len(CASES), "cases ->", out)
