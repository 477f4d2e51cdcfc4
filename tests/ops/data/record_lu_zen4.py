"""Record PyTorch's LU factors (torch.linalg.lu_factor) of complex128, complex64 and float64
matrices, and float64 det and slogdet, on an AMD Zen 4 processor (MKL's AVX2 code) for
tests/ops/test_lu_zen4.py:

    OMP_NUM_THREADS=1 /work/torchenv/bin/python tests/ops/data/record_lu_zen4.py

writes lu_zen4.json beside this file: per dtype, size and layout, a hash of the factors' bits
and of the pivots, for the stacks of matrices the test draws (eight per size, NumPy's seeded
generator)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import torch

HERE = Path(__file__).parent
torch.set_num_threads(1)
SIZES = (2, 3, 4, 5, 7, 8, 11, 16)
DTYPES = ("complex128", "complex64", "float64")


def draw(dtype: str, n: int) -> np.ndarray:
    rng = np.random.default_rng([n, len(dtype), 40])
    a = rng.standard_normal((8, n, n))
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal((8, n, n))
    return a.astype(dtype)


def singular() -> np.ndarray:
    """Singular float64 matrices (a repeated row, a column the sum of two others, rank one):
    their determinants are rounding noise or zeros whose signs and digits the LU's order
    decides."""
    rng = np.random.default_rng(1942)
    a = rng.standard_normal((6, 4, 4))
    a[0, 3] = a[0, 1]
    a[1, :, 2] = a[1, :, 0] + a[1, :, 1]
    a[2] = np.outer(a[2, 0], a[2, 1])
    a[3, :, 3] = 0.0
    a[4] = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
    a[5, 2] = 2 * a[5, 0] - a[5, 1]
    return a


def digest(*arrays: np.ndarray) -> str:
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def main() -> None:
    out = {}
    for dtype in DTYPES:
        for n in SIZES:
            a = torch.from_numpy(draw(dtype, n))
            for layout, m in (("rows", a), ("cols", a.mT)):
                lu, piv = torch.linalg.lu_factor(m)
                out[f"{dtype}/{n}/{layout}"] = digest(lu.numpy(), piv.numpy().astype(np.int64))
            if dtype == "float64":
                out[f"det/{n}"] = digest(torch.linalg.det(a).numpy())
                sign, logabs = torch.linalg.slogdet(a)
                out[f"slogdet/{n}"] = digest(np.stack([sign.numpy(), logabs.numpy()], -1))
    a = torch.from_numpy(singular())
    sign, logabs = torch.linalg.slogdet(a)
    out["det/singular"] = digest(torch.linalg.det(a).numpy())
    out["slogdet/singular"] = digest(np.stack([sign.numpy(), logabs.numpy()], -1))
    (HERE / "lu_zen4.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
