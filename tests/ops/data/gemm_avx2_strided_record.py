"""Records PyTorch's float32 products whose left operand is a row-strided view (`x[:, t]` of a
(m, s, k) tensor, a column range `h[:, a:b]`) on an AVX2 machine: `python
gemm_avx2_strided_record.py` under torch 2.13, one thread, writes gemm_avx2_strided.json (a
digest of each product's bytes: x @ w, x @ v.t(), addmm(b, x, v.t()), g.t() @ x)."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import numpy as np

SEED = 36
CASES = 160


def cases():
    """(i, base, at, x, w, v, b, g): x a row-strided float32 view (m, k) of the array `base`
    (`at`: the index that takes it); w (k, n), v (n, k) row-major; b (n,); g (m, n)."""
    pick = random.Random(SEED)
    rng = np.random.default_rng(SEED)
    for i in range(CASES):
        m, k, n = pick.randint(2, 12), pick.randint(1, 80), pick.randint(2, 24)
        if i % 2:
            s = pick.randint(2, 5)
            base = rng.standard_normal((m, s, k)).astype(np.float32)
            at = (slice(None), pick.randrange(s))
        else:
            off, pad = pick.randint(0, 3), pick.randint(1, 4)
            base = rng.standard_normal((m, k + off + pad)).astype(np.float32)
            at = (slice(None), slice(off, off + k))
        w = rng.standard_normal((k, n)).astype(np.float32)
        v = rng.standard_normal((n, k)).astype(np.float32)
        b = rng.standard_normal(n).astype(np.float32)
        g = rng.standard_normal((m, n)).astype(np.float32)
        yield i, base, at, base[at], w, v, b, g


def digest(r: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(r).tobytes()).hexdigest()[:16]


if __name__ == "__main__":
    import torch

    torch.set_num_threads(1)
    out = []
    for i, base, at, x, w, v, b, g in cases():
        # sliced from PyTorch's own (aligned) allocation, as a program's view is
        tx = torch.from_numpy(base).clone()[at]
        assert tx.stride() == tuple(s // 4 for s in x.strides)
        tw, tv, tb, tg = (torch.from_numpy(a) for a in (w, v, b, g))
        out.append(
            [
                i,
                digest((tx @ tw).numpy()),
                digest((tx @ tv.t()).numpy()),
                digest(torch.addmm(tb, tx, tv.t()).numpy()),
                digest((tg.t() @ tx).numpy()),
            ]
        )
    path = Path(__file__).with_name("gemm_avx2_strided.json")
    path.write_text(json.dumps({"seed": SEED, "cases": out}) + "\n", encoding="utf-8")
