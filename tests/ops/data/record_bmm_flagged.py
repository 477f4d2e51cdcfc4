"""Record PyTorch's bmm bits, on an AMD processor (gradcli's zen4 kernel family: MKL's AVX2
code), for matrices of one column or one row that ATen hands MKL as transposed operands: a
column `w.t()` of a row w (its elements one element apart, its own step a row's length), as
vmap's batching rule for `x @ w.t()` with w batched gives bmm (float32, and float64 as
"column64"), and a float32 row `v.t()` of a column v; and einsum's 'bij,bkj->bik' with k of
size 1, whose reshaped column is row-major again (the same values, the other kernel); and a
float64 row-major column ("rowmajor64", `vmap(torch.mv)`'s bmm; "einsum64"). Writes
bmm_flagged.json beside this file (sha256 of each case's result bytes).

    OMP_NUM_THREADS=1 /work/torchenv/bin/python tests/ops/data/record_bmm_flagged.py

The inputs are drawn here by NumPy (seeded); the test imports `inputs` from this file, so
recording and checking read the same arrays.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

# (batch, rows, inner size) of the column cases; (batch, columns, inner size) of the row ones
COLUMNS = [(2, 20, 40), (4, 20, 40), (3, 7, 65), (5, 33, 130), (2, 150, 9), (4, 2, 300)]
ROWS = [(2, 20, 40), (3, 5, 97), (4, 64, 31), (2, 3, 500)]


def inputs(kind: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """(x, w) pairs: for "column" and "einsum", x (b, m, k) and w (b, 1, k), the product
    x @ w^T; for "row", v (b, k, 1) and y (b, k, n), the product v^T @ y."""
    rng = np.random.default_rng([sum(map(ord, kind)), 7])
    out = []
    dtype = np.float64 if kind.endswith("64") else np.float32
    for b, m, k in ROWS if kind == "row" else COLUMNS:
        if kind != "row":
            a = rng.standard_normal((b, m, k)).astype(dtype)
            w = (rng.standard_normal((b, 1, k)) * 0.2).astype(dtype)
        else:
            a = rng.standard_normal((b, k, 1)).astype(np.float32)
            w = rng.standard_normal((b, k, m)).astype(np.float32)
        out.append((a, w))
    return out


def sha(arrays: list[np.ndarray]) -> str:
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def main() -> None:
    import torch

    torch.set_num_threads(1)
    cases = {}
    for kind in ("column", "row", "einsum", "column64", "rowmajor64", "einsum64"):
        results = []
        for a, w in inputs(kind):
            ta, tw = torch.tensor(a), torch.tensor(w)  # (torch's own aligned storage)
            if kind in ("column", "column64"):
                results.append(torch.bmm(ta, tw.transpose(1, 2)).numpy())
            elif kind in ("einsum", "einsum64"):
                results.append(torch.einsum("bij,bkj->bik", ta, tw).numpy())
            elif kind == "rowmajor64":
                results.append(torch.bmm(ta, tw.reshape(tw.shape[0], -1, 1)).numpy())
            else:
                results.append(torch.bmm(ta.transpose(1, 2), tw).numpy())
        cases[kind] = sha(results)
    out = {"torch": torch.__version__, "cases": cases}
    (Path(__file__).parent / "bmm_flagged.json").write_text(json.dumps(out, indent=1) + "\n")
    print(out)


if __name__ == "__main__":
    main()
