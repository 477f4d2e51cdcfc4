"""Matrices for tests/ops/test_geqrf.py and its recorder (tests/ops/data/record_geqrf.py):
tall, square and wide float matrices inside the sizes where gradcli follows MKL's ?geqrf on
the avx2 family (up to 20 rows and 8 columns; wide ones up to 5 rows and 12 columns)."""

from __future__ import annotations

import numpy as np

DTYPES = ("float32", "float64")


def matrices() -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(1089)
    out = [("classic3", np.array([[12.0, -51, 4], [6, 167, -68], [-4, 24, -41]]))]
    for m, n in [(2, 2), (3, 1), (4, 3), (6, 4), (7, 3), (9, 8), (13, 5), (20, 8), (2, 4)]:
        out.append((f"r{m}x{n}", rng.standard_normal((m, n)) * rng.choice([0.05, 1.0, 20.0])))
    out.append(("wide5x12", rng.standard_normal((5, 12))))
    out.append(("batch3x4x2", rng.standard_normal((3, 4, 2))))
    return out
