"""Symmetric matrices for tests/ops/test_eigh_signs.py and its recorder: integer-valued ones
made by arithmetic (a tridiagonal, a Hilbert-like, a Laplacian with a weight) and random
normal ones of sizes 2 to 12, all with distinct eigenvalues."""

from __future__ import annotations

import numpy as np


def matrices() -> list[tuple[str, np.ndarray]]:
    out = []
    i, j = np.indices((6, 6))
    out.append(("hilbertish6", 1.0 / (i + j + 1) + np.diag(np.arange(6.0))))
    out.append(("tri5", np.diag([2.0, -1, 3, 0.5, 4]) + np.diag([1.0, 2, -1, 1], 1)))
    out[-1] = (out[-1][0], out[-1][1] + np.triu(out[-1][1], 1).T)
    out.append(("mixed4", (3 * i[:4, :4] - 2 * j[:4, :4]) % 7 - 3.0))
    rng = np.random.default_rng(20261129)
    for n in (2, 3, 3, 3, 4, 4, 5, 6, 8, 10, 12):
        a = rng.standard_normal((n, n))
        out.append((f"rand{n}_{len(out)}", a))  # only one triangle is read
    return out
