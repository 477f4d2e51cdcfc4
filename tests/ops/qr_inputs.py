"""Matrices for tests/ops/test_mklqr.py and its recorder (tests/ops/data/record_qr.py): small
tall, square and wide float matrices with entries of mixed signs and sizes, and the
textbook 3 x 3 example whose float64 factors are whole numbers; larger float32 matrices for each
path MKL's ?geqrf takes (small, panel, ?geqr2), recorded as hashes of the bits."""

from __future__ import annotations

import numpy as np

MODES = ("reduced", "complete", "r")
DTYPES = ("float32", "float64")


def matrices() -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(20261129)
    out = [("classic3", np.array([[12.0, -51, 4], [6, 167, -68], [-4, 24, -41]]))]
    for m in range(1, 6):
        for n in (1, 2, 3, 5, 7):
            a = rng.standard_normal((m, n)) * rng.choice([0.01, 1.0, 30.0])
            out.append((f"r{m}x{n}", a))
    out.append(("batch2x4x3", rng.standard_normal((2, 4, 3))))
    out.append(("zero_col", np.array([[1.0, 0.0, 2.0], [3.0, 0.0, -1.0]])))
    return out


# (rows, cols) of the larger float32 matrices: small path (up to 20 rows), ?geqr2 (square from
# 21 rows; 51 to 64 rows with 21+ columns), `pfnr` panel (other tall ones)
LARGE32 = ((8, 8), (12, 5), (20, 20), (21, 21), (24, 12), (30, 30), (40, 20), (56, 24), (64, 32))
LARGE_MODES = ("reduced", "r")


def large32() -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(11292026)
    return [
        (f"L{m}x{n}", (rng.standard_normal((m, n)) * rng.choice([0.1, 1.0, 8.0])).astype("f4"))
        for m, n in LARGE32
    ]


# nn.init.orthogonal_ on float32 weights of these shapes, each from torch.Generator seeded with
# its index (wide ones are factored transposed)
ORTHOGONAL_SHAPES = ((3, 5), (4, 4), (8, 3), (16, 16), (24, 24), (40, 20), (10, 30), (6, 2, 2))
