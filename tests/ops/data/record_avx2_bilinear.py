"""Record PyTorch's float32 F.bilinear (values and the gradients of both inputs, the weight and
the bias) for tests/ops/test_avx2_bilinear.py, on an AVX2 machine without AVX-512 (gradcli's
avx2 kernel family: the batched products' bits follow the CPU's kernels). Run with torch 2.13
CPU: /work/torchenv/bin/python tests/ops/data/record_avx2_bilinear.py. Inputs are NumPy's,
drawn from seeds; results are stored as float32 bit patterns."""

import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)


def draw(shape: list[int], seed: int) -> np.ndarray:
    return np.random.default_rng([*shape, seed]).standard_normal(shape).astype(np.float32)


def bits(t: torch.Tensor) -> list[int]:
    return t.detach().numpy().reshape(-1).view(np.uint32).tolist()


CASES = []
for seed, (lead, i, j, o) in enumerate(
    (([7], 4, 5, 3), ([37], 4, 5, 3), ([64], 4, 5, 3), ([3], 10, 20, 6), ([2, 9], 6, 3, 4))
):
    x = torch.from_numpy(draw([*lead, i], seed)).requires_grad_()
    z = torch.from_numpy(draw([*lead, j], seed + 10)).requires_grad_()
    w = torch.from_numpy(draw([o, i, j], seed + 20)).requires_grad_()
    b = torch.from_numpy(draw([o], seed + 30)).requires_grad_()
    y = F.bilinear(x, z, w, b)
    y.backward(torch.from_numpy(draw(list(y.shape), seed + 40)))
    CASES.append(
        {
            "lead": lead,
            "sizes": [i, j, o],
            "seed": seed,
            "y": bits(y),
            "dx": bits(x.grad),
            "dz": bits(z.grad),
            "dw": bits(w.grad),
            "db": bits(b.grad),
        }
    )

out = Path(__file__).parent / "avx2_bilinear.json"
out.write_text(json.dumps(CASES) + "\n")
print(len(CASES), "cases ->", out)
