"""Record PyTorch's float16 smooth_l1_loss, huber_loss and soft_margin_loss (values and input
gradients) for tests/ops/test_half_l2_l1_loss.py, on an AVX2 machine without AVX-512
(gradcli's avx2 kernel family: the half kernels' vector step, 32 elements, decides which
elements the scalar tail computes). Run with torch 2.13 CPU: /work/torchenv/bin/python
tests/ops/data/record_half_l2_l1_loss.py. Inputs are NumPy's, drawn from seeds; results are
stored as float16 bit patterns."""

import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)


def draw(n: int, seed: int, scale: float) -> np.ndarray:
    return (np.random.default_rng([n, seed]).standard_normal(n) * scale).astype(np.float16)


CASES = []
seed = 0
for name in ("smooth_l1_loss", "huber_loss", "soft_margin_loss"):
    for reduction in ("mean", "sum", "none"):
        for n, p in ((7, 1.0), (36, 0.3), (50, 1.7), (100, 0.5), (70, 1.0)):
            seed += 1
            x, t, g = draw(n, seed, 2.0), draw(n, seed + 100, 1.0), draw(n, seed + 200, 1.0)
            if name == "soft_margin_loss":
                t = np.where(t > 0, 1.0, -1.0).astype(np.float16)
            xt = torch.from_numpy(x).requires_grad_()
            kw = {"beta": p} if name == "smooth_l1_loss" else {"delta": p}
            kw = {} if name == "soft_margin_loss" else kw
            y = getattr(F, name)(xt, torch.from_numpy(t), reduction=reduction, **kw)
            y.backward(torch.from_numpy(g) if reduction == "none" else None)
            CASES.append(
                {
                    "name": name,
                    "reduction": reduction,
                    "n": n,
                    "p": p,
                    "seed": seed,
                    "y": y.detach().numpy().reshape(-1).view(np.uint16).tolist(),
                    "dx": xt.grad.numpy().view(np.uint16).tolist(),
                }
            )

out = Path(__file__).parent / "half_l2_l1_loss.json"
out.write_text(json.dumps(CASES) + "\n")
print(len(CASES), "cases ->", out)
