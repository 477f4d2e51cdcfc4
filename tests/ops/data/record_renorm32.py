"""Record PyTorch's float32 renorm gradients for tests/ops/test_renorm32.py (run with torch
2.13 CPU: /work/torchenv/bin/python tests/ops/data/record_renorm32.py). Inputs and upstream
gradients are NumPy's, drawn from seeds; outputs and gradients are stored as float32 bits.
No p of 1.5 or 2.5: its gradient takes pow(|x|, 0.5), MKL's sqrt, whose bits depend on the
CPU (gradcli's kernel families); the cases here are the same on AVX2 and AVX-512."""

import json
from pathlib import Path

import numpy as np
import torch

torch.set_num_threads(1)


def draw(shape: list[int], seed: int) -> np.ndarray:
    return np.random.default_rng([*shape, seed]).standard_normal(shape).astype(np.float32)


CASES = []
for seed, (shape, p, dim, maxnorm) in enumerate(
    (
        ([5, 7], 2.0, 0, 1.0),
        ([4, 6], 2.0, 1, 0.5),
        ([3, 4, 5], 1.0, 1, 2.0),
        ([6, 3], 3.0, 0, 0.7),
        ([4, 5], float("inf"), 0, 0.5),
        ([3, 8], 1.25, 0, 0.8),
        ([5, 6], 4.0, 1, 1.5),
        ([2, 3, 4], 2.0, 2, 1.0),
        ([40, 33], 2.0, 0, 3.0),
        ([9, 20], 0.5, 1, 30.0),
    )
):
    x = draw(shape, seed) * 2
    g = draw(shape, seed + 50)
    xt = torch.from_numpy(x).requires_grad_()
    y = xt.renorm(p, dim, maxnorm)
    y.backward(torch.from_numpy(g))
    CASES.append(
        {
            "shape": shape,
            "seed": seed,
            "p": p if p != float("inf") else "inf",
            "dim": dim,
            "maxnorm": maxnorm,
            "y": y.detach().numpy().reshape(-1).view(np.uint32).tolist(),
            "dx": xt.grad.numpy().reshape(-1).view(np.uint32).tolist(),
        }
    )

# float16: the norm and the factor in float, the gradient's arithmetic in float
for seed, (shape, p, dim, maxnorm) in enumerate(
    (([5, 7], 2.0, 1, 1.0), ([3, 4, 5], 1.0, 1, 2.0), ([8, 9], 2.0, 0, 1.5)), start=100
):
    x = draw(shape, seed).astype(np.float16) * np.float16(2)
    g = draw(shape, seed + 50).astype(np.float16)
    xt = torch.from_numpy(x).requires_grad_()
    y = xt.renorm(p, dim, maxnorm)
    y.backward(torch.from_numpy(g))
    CASES.append(
        {
            "shape": shape,
            "seed": seed,
            "p": p,
            "dim": dim,
            "maxnorm": maxnorm,
            "dtype": "float16",
            "y": y.detach().numpy().reshape(-1).view(np.uint16).tolist(),
            "dx": xt.grad.numpy().reshape(-1).view(np.uint16).tolist(),
        }
    )

out = Path(__file__).parent / "renorm32.json"
out.write_text(json.dumps(CASES) + "\n")
print(len(CASES), "cases ->", out)
