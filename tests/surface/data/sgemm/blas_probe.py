"""How `gradcli/ops/blas32.py`'s layout was chosen (needs no torch): for random shapes, NumPy's
float32 matmul (its OpenBLAS) against `linalg._fma_chain_emulated` (the chain of fused
multiply-adds MKL computes on a block of at most 384 inner products), in the four layouts of
the operands and at three alignments; prints the shapes where they differ, by layout.

    OPENBLAS_NUM_THREADS=1 python tests/surface/data/sgemm/blas_probe.py [SEED] [SHAPES]

Values: random mantissas and signs, exponents spread over a factor of 2^8, so that a sum in
another order (lanes, a split of the inner size, a product rounded before its addition) shows
in many elements.
"""

from __future__ import annotations

import sys

import numpy as np

from gradcli.ops.linalg import _fma_chain_emulated


def aligned(shape: tuple[int, int], order: str, off: int) -> np.ndarray:
    """A float32 array 64-byte aligned plus `off` elements, row-major ("C") or transposed."""
    n = shape[0] * shape[1]
    buf = np.empty(n + 32, np.float32)
    o = (-buf.ctypes.data % 64) // 4 + off
    a = buf[o : o + n]
    return a.reshape(shape) if order == "C" else a.reshape(shape[::-1]).T


def main(seed: int, count: int) -> None:
    rng = np.random.default_rng(seed)
    bad: dict[str, list] = {lay: [] for lay in ("CC", "CF", "FC", "FF")}
    for _ in range(count):
        m, n = (int(v) for v in rng.integers(2, 600 if rng.random() < 0.3 else 40, 2))
        k = int(rng.integers(1, 449))
        if m * n * k > 6e6:
            continue
        x = (rng.standard_normal((m, k)) * np.exp2(rng.integers(-4, 5, (m, k)))).astype(np.float32)
        y = (rng.standard_normal((k, n)) * np.exp2(rng.integers(-4, 5, (k, n)))).astype(np.float32)
        want = _fma_chain_emulated(x, y)
        for lay in bad:
            for off in (0, 1, 3):
                a, b = aligned((m, k), lay[0], off), aligned((k, n), lay[1], off)
                a[...], b[...] = x, y
                out = aligned((m, n), "C", off)
                np.matmul(a, b, out=out)
                if not np.array_equal(out, want):
                    bad[lay].append((m, k, n, off))
    for lay, shapes in bad.items():
        print(lay, len(shapes), "differ", shapes[:20])


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 0, int(sys.argv[2]) if len(sys.argv) > 2 else 300
    )
