"""The float64 inputs of tests/ops/test_amd64.py and test_sleef64.py, made by integer
arithmetic only (the same on every machine and NumPy): shared by the tests and by their
recording scripts (tests/ops/data/record_amd64.py, record_sleef64.py)."""

from __future__ import annotations

import numpy as np

N = 1 << 16
# where each op's result is worked out by its main path: (low, high) of the ranged half
RANGES = {
    "sqrt": (0.0, 50.0),
    "tanh": (-22.0, 22.0),
    "exp": (-745.0, 710.0),
    "atan": (-6.0, 6.0),
    "lgamma": (-12.0, 30.0),
    "expm1": (-40.0, 710.0),
    "log1p": (-1.0, 60.0),
    "sinh": (-30.0, 30.0),
    "cosh": (-30.0, 30.0),
    "atanh": (-1.0, 1.0),
    "exp2": (-1100.0, 1100.0),
    "sigmoid": (-40.0, 40.0),
}
SPECIALS = [0.0, -0.0, 1.0, -1.0, 5e-324, 2.0**-1022, 2.0**1022, 1.7976931348623157e308]
SPECIALS += [np.inf, -np.inf, np.nan, 20.0, 0.1171875, 2.0**-512]


def inputs(op: str) -> np.ndarray:
    """N float64 inputs for `op`: half bit patterns spread over all 2**64 (Weyl sequence; for
    sqrt the sign bit cleared), half values spread over RANGES[op]; the specials last."""
    i = np.arange(N // 2, dtype=np.uint64)
    bits = i * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x2545F4914F6CDD1D)  # (mod 2**64)
    if op == "sqrt":
        bits &= np.uint64(0x7FFFFFFFFFFFFFFF)
    spread = bits.view(np.float64)
    low, high = RANGES[op]
    frac = ((i * np.uint64(0x61C88647)) & np.uint64(0xFFFFFFFF)).astype(np.float64) / 2**32
    x = np.concatenate([spread, low + (high - low) * frac])
    x[-len(SPECIALS) :] = SPECIALS
    return x


def canonical_bits(y: np.ndarray) -> np.ndarray:
    """y's float64 bits, every NaN as 0x7ff8000000000000 (NaN payloads are not printed)."""
    y = np.asarray(y, np.float64).reshape(-1)
    b = y.view(np.uint64).copy()
    b[np.isnan(y)] = 0x7FF8000000000000
    return b
