"""Record float32 torch.cdist (p = 2, ATen's direct kernel: 25 rows or fewer) and both its
gradients on an AVX2 processor without AVX-512 (AMD EPYC, the `avx2` kernel family of
gradcli.core.cpu) for tests/ops/test_avx2_cdist.py. Run there, one thread:
/work/torchenv/bin/python tests/ops/data/record_avx2_cdist.py
Inputs are NumPy's, drawn from seeds; results are stored as the SHA-256 of their bytes."""

import hashlib
import json
from pathlib import Path

import numpy as np
import torch

torch.set_num_threads(1)
assert torch.backends.cpu.get_cpu_capability() == "AVX2", "record on the avx2 family"

SHAPES = [(1, 1, 1), (4, 3, 2), (7, 9, 5), (13, 6, 8), (3, 9, 3), (20, 20, 11), (25, 2, 29)]
SHAPES += [(5, 16, 7), (9, 9, 17), (2, 8, 4)]


def draw(shape, seed):
    return np.random.default_rng([*shape, seed]).standard_normal(shape).astype(np.float32)


def sha(t) -> str:
    return hashlib.sha256(np.ascontiguousarray(t.detach().numpy()).tobytes()).hexdigest()


cases = []
for r1, r2, m in SHAPES:
    x = draw((r1, m), 1)
    w = draw((r2, m), 2)
    w[0] = x[0]  # a zero distance
    xt, wt = torch.from_numpy(x).requires_grad_(), torch.from_numpy(w).requires_grad_()
    out = torch.cdist(xt, wt)
    out.backward(torch.from_numpy(draw((r1, r2), 3)))
    cases.append({"shape": [r1, r2, m], "y": sha(out), "gx": sha(xt.grad), "gw": sha(wt.grad)})
path = Path(__file__).parent / "avx2_cdist.json"
path.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, indent=0) + "\n")
print(f"{len(cases)} cases -> {path}")
