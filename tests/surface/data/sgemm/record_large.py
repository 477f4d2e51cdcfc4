"""Float32 products past 2^24 multiply-adds as PyTorch 2.13 computes them (MKL's sgemm, one
thread, AVX-512), recorded as a CRC-32 of their bits (the operands are drawn by NumPy from a
seed of their own, so the test rebuilds them without torch): where MKL cuts the inner size in
plain blocks of 384 (a row-major second operand of 192 columns or more times 192 rows or more)
and where it halves what is left after the blocks, each with the layouts of a training step.
gradcli mirrors these sizes where NumPy's BLAS is proven to compute MKL's chains
(`gradcli/ops/blas32.py`).

- `mm`: x @ y, both row-major; `tn`: x.t() @ y, x stored (k, m) row-major (the weight's
  gradient `x.t() @ g`); `lt`: x @ w.t() (nn.Linear); `linear_bias`: F.linear(x, w, b).

    /work/torchenv/bin/python tests/surface/data/sgemm/record_large.py   # writes large.json
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

CASES = [
    ("mm", 192, 800, 192),
    ("tn", 192, 1000, 191),
    ("linear_bias", 96, 1600, 200),
]


def operands(i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x (m, k) (for `tn` stored transposed), the second operand (k, n) (for `lt` and
    `linear_bias` a transposed row-major (n, k)), the bias (n,)."""
    kind, m, k, n = CASES[i]
    rng = np.random.default_rng([2028, i])
    x = rng.standard_normal((m, k)).astype(np.float32)
    y = rng.standard_normal((k, n)).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    if kind == "tn":
        x = np.ascontiguousarray(x.T).T
    if kind in ("lt", "linear_bias"):
        y = np.ascontiguousarray(y.T).T
    return x, y, b


def crc(a: np.ndarray) -> int:
    return zlib.crc32(np.ascontiguousarray(a, np.float32).view(np.uint32).tobytes())


if __name__ == "__main__":
    import torch

    torch.set_num_threads(1)
    out = []
    for i, (kind, m, k, n) in enumerate(CASES):
        x, y, b = operands(i)
        tx = (
            torch.from_numpy(np.ascontiguousarray(x.T)).t() if kind == "tn" else torch.from_numpy(x)
        )
        if kind in ("lt", "linear_bias"):
            tw = torch.from_numpy(np.ascontiguousarray(y.T))
            bias = torch.from_numpy(b) if kind == "linear_bias" else None
            r = torch.nn.functional.linear(tx, tw, bias)
        else:
            r = tx @ torch.from_numpy(y)
        out.append({"case": [kind, m, k, n], "crc32": crc(r.numpy())})
    (HERE / "large.json").write_text(json.dumps(out, indent=1) + "\n")
