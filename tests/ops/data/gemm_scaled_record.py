"""Records PyTorch 2.13's products for tests/ops/test_gemm_scaled.py on an AMD Zen 4 (MKL's
AVX2 code; one thread): `OMP_NUM_THREADS=1 /work/torchenv/bin/python gemm_scaled_record.py`
writes gemm_scaled.json, each result as the hex digest of its bits. The inputs are made by
NumPy's seeded generator, shared with the test:

- "tail": float64 x @ w.t() and F.linear where the rows past the last multiple of 4 lie beside
  dgemm's chains (12 columns or more);
- "addmm", "baddbmm", "addbmm": beta and alpha other than 1, float32 and float64."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

# (rows, inner, columns)
TAIL = [
    (5, 16, 12),
    (6, 17, 24),
    (7, 40, 12),
    (9, 9, 36),
    (11, 130, 24),
    (10, 2, 12),
    (6, 33, 13),
    (9, 50, 25),
]
# (kind, dtype, batch, rows, inner, columns, beta, alpha)
SCALED = [
    ("addmm", "float32", 1, 5, 9, 7, 0.5, 2.0),
    ("addmm", "float32", 1, 8, 20, 13, -1.5, 0.25),
    ("addmm", "float64", 1, 6, 15, 10, 0.5, 1.0),
    ("addmm", "float64", 1, 9, 12, 26, 2.0, 3.0),
    ("addmm", "float64", 1, 4, 7, 12, 0.0, 0.5),
    ("baddbmm", "float32", 2, 4, 16, 12, 1.0, 0.25),
    ("baddbmm", "float64", 3, 6, 15, 10, 0.5, 1.0),
    ("addbmm", "float64", 3, 4, 10, 6, 1.0, 0.5),
    ("addbmm", "float32", 3, 4, 10, 6, 2.0, -1.0),
    ("addmm", "float64", 1, 1, 30, 17, 0.5, 3.0),  # one row: from C, x scaled
    ("addmm", "float64", 1, 9, 21, 1, -1.5, 0.5),  # one column: the sum scaled, C after
    ("baddbmm", "float64", 4, 1, 27, 21, 1.0, -0.25),  # odd matrices peel their first
    ("addmm", "float32", 1, 9, 11, 1, 2.0, 0.7),  # one column: the sum scaled, C after
]


def tail_inputs(i: int) -> tuple:
    m, k, n = TAIL[i]
    rng = np.random.default_rng(3000 + i)
    return rng.standard_normal((m, k)), rng.standard_normal((n, k)), rng.standard_normal(n)


def scaled_inputs(i: int) -> tuple:
    kind, dt, b, m, k, n, beta, alpha = SCALED[i]
    rng = np.random.default_rng(4000 + i)
    lead = () if kind == "addmm" else (b,)
    c = rng.standard_normal((m, n) if kind != "baddbmm" else (b, m, n)).astype(dt)
    x = rng.standard_normal(lead + (m, k)).astype(dt)
    y = rng.standard_normal(lead + (k, n)).astype(dt)
    return kind, c, x, y, beta, alpha


def sha(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


def main() -> None:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    tail = []
    for i in range(len(TAIL)):
        x, w, b = (torch.from_numpy(a) for a in tail_inputs(i))
        tail.append([sha((x @ w.t()).numpy()), sha(F.linear(x, w, b).numpy())])
    scaled = []
    for i in range(len(SCALED)):
        kind, c, x, y, beta, alpha = scaled_inputs(i)
        fn = getattr(torch, kind)
        r = fn(
            torch.from_numpy(c), torch.from_numpy(x), torch.from_numpy(y), beta=beta, alpha=alpha
        )
        scaled.append(sha(r.numpy()))
    record = {"torch": torch.__version__, "tail": tail, "scaled": scaled}
    Path(__file__).with_name("gemm_scaled.json").write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
