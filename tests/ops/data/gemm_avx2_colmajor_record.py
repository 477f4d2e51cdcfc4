"""Records PyTorch's float32 products of two column-major operands (`Q @ R` of LAPACK's
factors) on an AVX2 machine: `python gemm_avx2_colmajor_record.py` under torch 2.13, one
thread, writes gemm_avx2_colmajor.json (a digest of each product's bytes)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

SEED = 35
ROWS = (2, 3, 4, 5, 7, 16, 33)
INNER = range(1, 8)
COLS = (2, 3, 5, 8, 17)


def cases():
    """(m, k, n, a, b) with a (m, k) and b (k, n) row-major float32 (the test lays them out)."""
    rng = np.random.default_rng(SEED)
    for m in ROWS:
        for k in INNER:
            for n in COLS:
                a = rng.standard_normal((m, k)).astype(np.float32)
                b = rng.standard_normal((k, n)).astype(np.float32)
                yield m, k, n, a, b


def digest(r: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(r).tobytes()).hexdigest()[:16]


if __name__ == "__main__":
    import torch

    out = []
    for m, k, n, a, b in cases():
        x = torch.from_numpy(a).t().contiguous().t()
        y = torch.from_numpy(b).t().contiguous().t()
        out.append([m, k, n, digest((x @ y).numpy())])
    path = Path(__file__).with_name("gemm_avx2_colmajor.json")
    path.write_text(json.dumps({"seed": SEED, "cases": out}) + "\n", encoding="utf-8")
