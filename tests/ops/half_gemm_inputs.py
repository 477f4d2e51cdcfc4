"""The inputs of tests/ops/test_half_gemm.py, drawn by NumPy from seeds (the same on every
machine): shared by the test and by tests/ops/data/record_half_gemm.py."""

from __future__ import annotations

import numpy as np


def draw(case: dict) -> dict:
    """The case's operands as float32 arrays (rounded to the dtype by the caller)."""
    rng = np.random.default_rng([case["seed"], 2140])
    m, k, n = case["mkn"]

    def wide(*s: int) -> np.ndarray:
        return (rng.standard_normal(s) * 2.0 ** rng.integers(-3, 4, s)).astype(np.float32)

    if case["op"] == "bmm":
        return {"x": wide(2, m, k), "y": wide(2, k, n)}
    if case["op"] == "addmv":
        return {"c": wide(m), "x": wide(m, k), "y": wide(k)}
    x = wide(k, m).T if case["a_cols"] else wide(m, k)
    y = wide(n, k).T if case["b_cols"] else wide(k, n)
    out = {"x": x, "y": y}
    if case["op"] == "addmm":
        out["c"] = wide(n) if case["bias"] else wide(m, n)
    return out


def cases() -> list:
    rng = np.random.default_rng(2141)
    out = []
    for seed in range(96):
        dtype = ("float16", "bfloat16")[seed % 2]
        op = ("mm", "addmm", "addmm", "bmm", "addmv", "mm")[seed // 2 % 6]
        if dtype == "bfloat16" and op == "addmv":
            op = "addmm"
        m, n = (int(v) for v in rng.integers(1, 25, 2))
        k = int(rng.integers(1, 260))
        alpha, beta = 1.0, 1.0
        if op == "addmm" and seed % 3 == 0:
            alpha, beta = float(rng.choice([2.0, -1.5, 0.5])), float(rng.choice([0.5, 0.0, 3.0]))
        out.append(
            {
                "seed": seed,
                "dtype": dtype,
                "op": op,
                "mkn": [m, k, n],
                "a_cols": bool(rng.integers(2)),
                "b_cols": bool(rng.integers(2)),
                "bias": bool(rng.integers(2)),
                "alpha": alpha,
                "beta": beta,
            }
        )
    return out
