"""Record PyTorch's float32 inv, det, slogdet and solve on an AVX2 processor without AVX-512
(AMD EPYC: MKL's generic code, no fused multiply-add) for tests/ops/test_lapack32_avx2.py:

    OMP_NUM_THREADS=1 /work/torchenv/bin/python tests/ops/data/record_lapack32_avx2.py

writes lapack32_avx2.json beside this file: per size and op, a hash of the result's bits for
the stacks of matrices the test draws (six per size, by NumPy's seeded generator)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import torch

HERE = Path(__file__).parent
assert torch.backends.cpu.get_cpu_capability() == "AVX2", "record on an AVX2-only machine"
torch.set_num_threads(1)
SIZES = tuple(range(2, 12))


def draw(n: int, seed: int, cols: int = 0) -> np.ndarray:
    rng = np.random.default_rng([n, seed, cols, 2])
    return rng.standard_normal((6, n, cols or n)).astype(np.float32)


def digest(a) -> str:
    bits = np.ascontiguousarray(np.asarray(a, dtype=np.float32)).view(np.uint32)
    return hashlib.sha256(bits.tobytes()).hexdigest()[:16]


out = {}
for n in SIZES:
    a, b1, b3 = (torch.from_numpy(x) for x in (draw(n, 0), draw(n, 1, 1), draw(n, 2, 3)))
    out[f"{n}/det"] = digest(torch.linalg.det(a))
    out[f"{n}/slogdet"] = digest(torch.linalg.slogdet(a)[1])
    out[f"{n}/solve1"] = digest(torch.linalg.solve(a, b1))
    if n <= 8:
        out[f"{n}/inv"] = digest(torch.linalg.inv(a))
        out[f"{n}/solve3"] = digest(torch.linalg.solve(a, b3))
(HERE / "lapack32_avx2.json").write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
print(len(out), "records")
