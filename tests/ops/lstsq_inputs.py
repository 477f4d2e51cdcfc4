"""Least-squares systems for tests/ops/test_mklgels.py, made by integer arithmetic (no random
generator, so the recorded bits stay valid): tall and square matrices of full rank, one to
three right-hand sides, 2 to 64 rows, batches of three (A's batch elements lie at offsets of
m n elements: odd and even), and lines and parabolas through integer points (exactly
solvable: PyTorch prints zeros there)."""

from __future__ import annotations

import numpy as np

# (m, n, k): rows, unknowns, right-hand sides
SHAPES = [
    (2, 1, 1),
    (2, 2, 1),
    (3, 2, 1),
    (5, 3, 1),
    (6, 2, 2),
    (7, 3, 3),
    (9, 2, 2),
    (12, 4, 1),
    (4, 4, 1),
    (20, 5, 1),
    (20, 8, 1),
    (25, 3, 2),
    (30, 2, 1),
    (45, 3, 3),
    (64, 1, 1),
    (30, 6, 1),
    (50, 4, 1),
    (12, 2, 5),
    (25, 3, 4),
]
DTYPES = ("float32", "float64")
BATCH = 3


def _numbers(count: int, seed: int) -> np.ndarray:
    """`count` numbers in [-4, 4] on a grid of 1/250, by a linear congruential sequence."""
    out = np.empty(count, np.float64)
    v = seed * 2654435761 % 4294967296
    for i in range(count):
        v = (v * 1664525 + 1013904223) % 4294967296
        out[i] = ((v >> 8) % 2001 - 1000) / 250
    return out


def dtypes(name: str) -> tuple[str, ...]:
    """The dtypes a system is recorded in."""
    return DTYPES


def systems() -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(name, A (BATCH, m, n), B (BATCH, m, k)) in float64; the tests cast to `dtypes`."""
    out = []
    for i, (m, n, k) in enumerate(SHAPES):
        a = _numbers(BATCH * m * n, 2 * i + 1).reshape(BATCH, m, n)
        a[:, :n, :n] += 3 * np.eye(n)  # (full rank for sure)
        b = _numbers(BATCH * m * k, 2 * i + 2).reshape(BATCH, m, k)
        out.append((f"random_{m}x{n}x{k}", a, b))
    for m, n in ((3, 2), (6, 2), (10, 2), (8, 3), (24, 2), (40, 3)):
        x = np.arange(1, m + 1, dtype=np.float64)
        a = np.stack([x**p for p in range(n)], 1)
        coef = np.array([[(-1) ** j * (j + 2) - 1] for j in range(n)], np.float64)
        a = np.broadcast_to(a, (BATCH, m, n)).copy()
        b = a @ coef
        out.append((f"through_points_{m}x{n}", a, b))
    return out
