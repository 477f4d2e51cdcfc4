"""The inputs of tests/ops/test_mklsse32.py, made by integer arithmetic only (the same on
every machine and NumPy version): shared by the test and tests/ops/data/record_mklsse32.py."""

from __future__ import annotations

import numpy as np

N = 1 << 15
OPS = ("erf", "erfc", "atan", "tan", "log2", "log10", "asin", "acos", "gelu")
# the values where each kernel's main path works: (low, high) of the ranged half
RANGES = {
    "erf": (-5.0, 5.0),
    "erfc": (-4.0, 11.0),
    "atan": (-8.0, 8.0),
    "tan": (-40.0, 40.0),
    "log2": (0.0, 6.0),
    "log10": (0.0, 6.0),
    "asin": (-1.0, 1.0),
    "acos": (-1.0, 1.0),
    "gelu": (-12.0, 12.0),
}
SPECIALS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0**-149, 2.0**-126, 3.4028235e38, np.inf, -np.inf, np.nan]


def _spread(op: str, i: np.ndarray) -> np.ndarray:
    """Bit patterns over all exponents (a Weyl sequence); where a kernel hands some arguments
    to a path that is modelled only approximately (tan past 10000, log2 and log10 of
    subnormals; asin and acos past 1, all NaN), the exponent is folded into the exactly
    modelled range."""
    bits = (i * np.uint64(0x9E3779B1) + np.uint64(0x2545F491)) & np.uint64(0xFFFFFFFF)
    exponent = (bits >> np.uint64(23)) & np.uint64(0xFF)
    if op == "tan":  # |x| below 2**13
        exponent %= np.uint64(140)
    elif op in ("asin", "acos"):  # |x| below 1 (the rest is NaN)
        exponent %= np.uint64(127)
    elif op in ("log2", "log10"):  # positive normal numbers
        bits &= np.uint64(0x7FFFFFFF)
        exponent = np.uint64(1) + exponent % np.uint64(254)
    bits = (bits & np.uint64(0x807FFFFF)) | (exponent << np.uint64(23))
    return bits.astype(np.uint32).view(np.float32)


def inputs(op: str) -> np.ndarray:
    """N float32 inputs for `op`: half spread bit patterns, half values spread over
    RANGES[op]; the specials last."""
    i = np.arange(N // 2, dtype=np.uint64)
    low, high = RANGES[op]
    frac = ((i * np.uint64(0x61C88647)) & np.uint64(0xFFFFFF)).astype(np.float64) / 2**24
    ranged = (low + (high - low) * frac).astype(np.float32)
    x = np.concatenate([_spread(op, i), ranged])
    x[-len(SPECIALS) :] = np.array(SPECIALS, np.float32)
    return x


def canonical_bits(y: np.ndarray) -> np.ndarray:
    """y's float32 bits, every NaN as 0x7fc00000 (NaN payloads are not printed)."""
    y = np.asarray(y, np.float32).reshape(-1)
    b = y.view(np.uint32).copy()
    b[np.isnan(y)] = 0x7FC00000
    return b


# which outputs the record keeps in the clear (the first 256 and every 256th)
SAMPLE = np.concatenate([np.arange(256), np.arange(256, N, 256)])
