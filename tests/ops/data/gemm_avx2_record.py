"""Record PyTorch's float32 matrix products on an AVX2 machine (the ``avx2`` kernel family,
`gradcli.core.cpu`) for tests/ops/test_gemm_avx2.py:

    OMP_NUM_THREADS=1 /work/torchenv/bin/python tests/ops/data/gemm_avx2_record.py

The inputs are made by arithmetic (`inputs`, the test makes the same ones); only PyTorch's
result bits are stored, in gemm_avx2.npz beside this file. Refuses to run on a machine that is
not of the avx2 family (its PyTorch computes other bits)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
KINDS = ("nn", "tn", "nt", "linear", "mv", "vm", "dot", "lin1d", "bmm", "addmm", "ntview")


def values(seed: int, count: int) -> np.ndarray:
    """`count` float32 values whose sums show their order (random signs and mantissas,
    exponents -4 to 4) from a hash of the seed and their index."""
    z = np.arange(count, dtype=np.uint64) + np.uint64((seed << 40) % (1 << 64))
    z = z * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    sign = (z >> np.uint64(63)) << np.uint64(31)
    exponent = (np.uint64(123) + (z >> np.uint64(32)) % np.uint64(9)) << np.uint64(23)
    return (sign | exponent | (z & np.uint64(0x7FFFFF))).astype(np.uint32).view(np.float32)


def inputs(case: int, kind: str, m: int, k: int, n: int) -> tuple:
    """The operands of a case: x (m, k), y (k, n) row-major, w (n, k), bias (n), v (k); for
    bmm, x (3, m, k) and y (3, k, n)."""
    s = 8 * case
    batch = (3,) if kind == "bmm" else ()
    return (
        values(s, 3 * m * k)[: math.prod(batch) * m * k].reshape(*batch, m, k),
        values(s + 1, 3 * k * n)[: math.prod(batch) * k * n].reshape(*batch, k, n),
        values(s + 2, n * k).reshape(n, k),
        values(s + 3, n),
        values(s + 4, k),
    )


def rows_view(case: int, m: int, k: int) -> np.ndarray:
    """m rows of k after a first row: a view that starts k floats into its array."""
    return values(8 * case + 5, (m + 1) * k).reshape(m + 1, k)[1:]


def cases() -> list[tuple[str, int, int, int]]:
    """The recorded shapes: every kind over rows, columns and inner sizes that reach each
    kernel (the chains from 4 rows and 12 columns, their blocks past 192 and 384, the small
    kernels' peeled rows and last columns, gemv's groups of four outputs)."""
    rows = (1, 2, 3, 4, 5, 7, 16, 33)
    cols = (1, 2, 3, 5, 6, 7, 8, 11, 12, 17, 40)
    inner = (1, 2, 3, 5, 8, 13, 16, 31, 64, 193, 200, 385)
    out = []
    i = 0
    for kind in KINDS:
        for m in rows:
            for n in cols:
                k = inner[(i * 7 + m + n) % len(inner)]
                i += 1
                if kind == "dot" or (kind == "mv" and (n != 1 or m == 1)):
                    continue  # (vectors: their own shapes below)
                if kind in ("vm", "lin1d") and m != 1:
                    continue
                if kind == "ntview" and (m == 1 or n == 1):
                    continue  # (gemv of a misaligned view: not modelled, see `gemm_avx2`)
                out.append((kind, m, k, n))
    out += [("dot", 1, k, 1) for k in (1, 3, 7, 12, 15, 16, 17, 26, 41, 64, 71, 100, 1000)]
    out += [("mv", m, k, 1) for m in (2, 3, 5, 8) for k in (9, 16, 33, 100)]
    return out


def torch_result(case: int, kind: str, m: int, k: int, n: int) -> np.ndarray:
    import torch
    import torch.nn.functional as F

    x, y, w, b, v = (torch.from_numpy(a) for a in inputs(case, kind, m, k, n))
    if kind == "nn":
        r = x @ y
    elif kind == "tn":
        r = x.t().contiguous().t() @ y
    elif kind == "nt":
        r = x @ w.t()
    elif kind == "linear":
        r = F.linear(x, w, b)
    elif kind == "mv":
        r = torch.mv(x, v)
    elif kind == "vm":
        r = v @ y
    elif kind == "lin1d":
        r = F.linear(v, w, b)
    elif kind == "bmm":
        r = torch.bmm(x, y)
    elif kind == "addmm":
        r = torch.addmm(b, x, y)
    elif kind == "ntview":
        r = torch.from_numpy(rows_view(case, m, k)) @ w.t()
    else:
        r = torch.dot(v, v.flip(0).contiguous())
    return r.detach().numpy().astype(np.float32).reshape(-1)


def main() -> int:
    import torch

    sys.path.insert(0, str(HERE.parents[2]))
    from gradcli.core import cpu

    if cpu._detected() != "avx2":
        print("not an avx2-family machine: its PyTorch computes other bits", file=sys.stderr)
        return 1
    torch.set_num_threads(1)
    shapes = cases()
    results = [torch_result(i, *c) for i, c in enumerate(shapes)]
    np.savez_compressed(
        HERE / "gemm_avx2.npz",
        bits=np.concatenate(results).view(np.uint32),
        lengths=np.array([r.size for r in results], np.int64),
        torch=np.array(torch.__version__),
    )
    print(f"{len(shapes)} cases, {sum(r.size for r in results)} elements")
    return 0


if __name__ == "__main__":
    sys.exit(main())
