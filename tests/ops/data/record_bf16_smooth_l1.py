"""Record PyTorch's bfloat16 smooth_l1_loss (values and input gradients) for
tests/ops/test_bf16_smooth_l1.py, on an AVX2 machine without AVX-512 (gradcli's avx2 kernel
family: the reduced-precision backward kernel's vector step, 32 elements, decides which
elements its scalar tail computes). Run with torch 2.13 CPU: /work/torchenv/bin/python
tests/ops/data/record_bf16_smooth_l1.py. Inputs are NumPy's float32 draws rounded to
bfloat16 by torch; results are stored as bfloat16 bit patterns."""

import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)


def draw(n: int, seed: int, scale: float) -> torch.Tensor:
    wide = (np.random.default_rng([n, seed, 16]).standard_normal(n) * scale).astype(np.float32)
    return torch.from_numpy(wide).bfloat16()


def bits(t: torch.Tensor) -> list:
    return (t.detach().reshape(-1).view(torch.int16).numpy().astype(np.int64) & 0xFFFF).tolist()


CASES = []
seed = 0
for reduction in ("mean", "sum", "none"):
    for n, p in ((7, 1.0), (24, 0.3), (40, 1.7), (50, 0.5), (70, 1.0), (100, 0.7)):
        seed += 1
        x, t, g = draw(n, seed, 2.0), draw(n, seed + 100, 1.0), draw(n, seed + 200, 1.0)
        x.requires_grad_()
        y = F.smooth_l1_loss(x, t, reduction=reduction, beta=p)
        y.backward(g if reduction == "none" else None)
        CASES.append(
            {
                "reduction": reduction,
                "n": n,
                "p": p,
                "seed": seed,
                "y": bits(y),
                "dx": bits(x.grad),
            }
        )

out = Path(__file__).parent / "bf16_smooth_l1.json"
out.write_text(json.dumps(CASES) + "\n")
print(len(CASES), "cases ->", out)
