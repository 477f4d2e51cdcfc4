"""Records PyTorch's float32 products with one row or one column whose elements lie apart (a
column of a wider matrix, `c[:, j:j+1]`, or its transpose) on an AMD processor (MKL's AVX2
code: the avx2 and zen4 families): `python gemm_avx2_increment_record.py` under torch 2.13,
one thread, writes gemm_avx2_increment.json (a digest of each product's bytes), in float32
and in float64: `c[:, j:j+1].t() @ h`, `h.t() @ c[:, j:j+1]`, `mv(h.t(), c[:, j])`,
`h.t() @ c[:, ::s]` (a column ATen copies: its steps (s, s)), `h.t() @ c[:, :1].clone()`
(a column of its own: nn.Linear(1, n)'s weight gradient), and the first three with h a
column range of a wider matrix (`wide[:, :n]`: its rows a leading dimension apart)."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import numpy as np

SEED = 111
CASES = 64


def cases():
    """(i, h, c, j, s, wide): h (k, n) row-major, c (k, s) whose column j is the vector,
    wide (k, n + pad) whose first n columns are the matrix of the last three products;
    float32 for even i, float64 for odd."""
    pick = random.Random(SEED)
    rng = np.random.default_rng(SEED)
    for i in range(CASES):
        k, n, s = pick.randint(2, 160), pick.randint(1, 36), pick.randint(2, 4)
        dtype = np.float64 if i % 2 else np.float32
        h = rng.standard_normal((k, n)).astype(dtype)
        c = rng.standard_normal((k, s)).astype(dtype)
        wide = rng.standard_normal((k, n + pick.randint(1, 5))).astype(dtype)
        yield i, h, c, pick.randrange(s), s, wide


def digest(r: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(r).tobytes()).hexdigest()[:16]


if __name__ == "__main__":
    import torch

    torch.set_num_threads(1)
    out = []
    for i, h, c, j, s, wide in cases():
        th, tc = torch.from_numpy(h), torch.from_numpy(c).clone()
        tw = torch.from_numpy(wide).clone()[:, : h.shape[1]]
        col = tc[:, j : j + 1]
        out.append(
            [
                i,
                digest((col.t() @ th).numpy()),
                digest((th.t() @ col).numpy()),
                digest(torch.mv(th.t(), tc[:, j]).numpy()),
                digest((th.t() @ tc[:, ::s]).numpy()),
                digest((th.t() @ tc[:, :1].clone()).numpy()),
                digest((col.t() @ tw).numpy()),
                digest((tw.t() @ col).numpy()),
                digest(torch.mv(tw.t(), tc[:, j]).numpy()),
            ]
        )
    path = Path(__file__).with_name("gemm_avx2_increment.json")
    path.write_text(json.dumps({"seed": SEED, "cases": out}) + "\n", encoding="utf-8")
