"""A correctly rounded float64 fused multiply-add in NumPy (NumPy has none): what ATen's
kernels compiled with contraction, and MKL's vector loops, compute in one rounding."""

from __future__ import annotations

from typing import Any

import numpy as np

_ndarray = np.ndarray
_F64 = np.dtype(np.float64)
_SPLITTER = 134217729.0  # 2**27 + 1, Veltkamp's split of a double into two 26-bit halves


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _two_prod(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    p = a * b
    t = _SPLITTER * a
    ah = t - (t - a)
    al = a - ah
    t = _SPLITTER * b
    bh = t - (t - b)
    bl = b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _fma64(a: Any, b: Any, c: Any) -> np.ndarray:
    """Correctly rounded a*b + c in float64 (Boldo and Melquiond's emulation with round-to-odd)."""
    if not (
        type(a) is _ndarray
        and type(b) is _ndarray
        and type(c) is _ndarray
        and a.dtype == _F64
        and b.dtype == _F64
        and c.dtype == _F64
        and a.shape == b.shape == c.shape
    ):
        a, b, c = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, c)))
    with np.errstate(over="ignore", invalid="ignore"):
        p, e = _two_prod(a, b)
        s, t = _two_sum(p, c)
        v, verr = _two_sum(t, e)
        # Round t + e to odd: if inexact and v's last bit is even, step to the odd neighbour.
        even = (v.view(np.int64) & 1) == 0
        fix = (verr != 0) & even
        if np.any(fix):
            # (np.array: 0-d operands give NumPy scalars, which cannot be assigned into)
            v, verr = np.array(v), np.asarray(verr)
            v[fix] = np.nextafter(v[fix], np.copysign(np.inf, verr[fix]))
        out = s + v
    # Outside the range the transforms are exact in (huge or non-finite values): plain rounding.
    # A zero result too: the exact a*b is then -c, representable, so a*b + c is exact and
    # carries IEEE's sign of zero (-0 for -0 + -0), which the error terms' sum loses.
    # (A product that is not finite makes the sum s, and so the result, not finite: the one
    # test covers both. `out.all()`: no zero; NaN is true.)
    if not (np.isfinite(out).all() and out.all()):
        plain = ~np.isfinite(out) | (out == 0)
        with np.errstate(over="ignore", invalid="ignore"):
            out = np.where(plain, a * b + c, out)
    return out
