"""The inputs of tests/ops/test_amd32.py, made by integer arithmetic only (the same on every
machine and NumPy): shared by the test and by tests/ops/data/record_amd32.py."""

from __future__ import annotations

import numpy as np

N = 1 << 17
# where each op's result is worked out by its main path: (low, high) of the ranged half
RANGES = {"sqrt": (0.0, 50.0), "exp": (-90.0, 90.0), "log": (0.0, 4.0), "tanh": (-11.0, 11.0)}
SPECIALS = [0.0, -0.0, 1.0, -1.0, 2.0**-149, 2.0**-126, 3.4028235e38, np.inf, -np.inf, np.nan]


def inputs(op: str) -> np.ndarray:
    """N float32 inputs for `op`: half bit patterns spread over all 2**32 (Weyl sequence; for
    sqrt and log the sign bit cleared, so that few are NaN), half values spread over RANGES[op];
    the specials last."""
    i = np.arange(N // 2, dtype=np.uint64)
    bits = (i * np.uint64(0x9E3779B1) + np.uint64(0x2545F491)) & np.uint64(0xFFFFFFFF)
    if op in ("sqrt", "log"):
        bits &= np.uint64(0x7FFFFFFF)
    spread = bits.astype(np.uint32).view(np.float32)
    low, high = RANGES[op]
    frac = ((i * np.uint64(0x61C88647)) & np.uint64(0xFFFFFF)).astype(np.float64) / 2**24
    ranged = (low + (high - low) * frac).astype(np.float32)
    x = np.concatenate([spread, ranged])
    x[-len(SPECIALS) :] = np.array(SPECIALS, np.float32)
    return x


def canonical_bits(y: np.ndarray) -> np.ndarray:
    """y's float32 bits, every NaN as 0x7fc00000 (NaN payloads are not printed)."""
    b = np.asarray(y, np.float32).reshape(-1).view(np.uint32).copy()
    b[np.isnan(np.asarray(y, np.float32).reshape(-1))] = 0x7FC00000
    return b
