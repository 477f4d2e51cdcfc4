"""erfcx(x) = exp(x^2) erfc(x) as ATen's calc_erfcx computes it, in the argument's dtype
(float32 or float64): S. G. Johnson's Chebyshev fits on 100 intervals of y = 400 / (4 + |x|)
(`erfcx_table`; their double coefficients make the polynomial a double one even for float32,
rounded once to the dtype), a continued fraction beyond 50, its first
term beyond 5e7; for x < 0, 2 exp(x^2) minus the fit (inf below -26.7)."""

from __future__ import annotations

import numpy as np

from . import hooks
from .erfcx_table import ERFCX_Y100
from .specfun import fma

_TABLE = np.array(ERFCX_Y100, dtype=np.float64)
_ISPI = 0.56418958354775628694807945156  # 1 / sqrt(pi)


def _y100(y: np.ndarray) -> np.ndarray:
    dt = y.dtype.type
    k = y.astype(np.int64)
    inside = k < 100
    kk = np.where(inside, k, 0)
    t = (dt(2) * y - (2 * kk + 1).astype(y.dtype)).astype(np.float64)
    rows = _TABLE[kk]
    acc = rows[:, 6].copy()
    for j in range(5, -1, -1):
        acc = acc * t + rows[:, j]  # (unfused, as the kernel's double steps measure)
    return np.where(inside, acc, 1.0).astype(y.dtype)


def _exp(v: np.ndarray) -> np.ndarray:
    from .specfun import _exp_c

    return _exp_c(v)


def _erfcx(x: np.ndarray) -> np.ndarray:
    dt = x.dtype.type
    out = x.copy()  # (NaN stays)
    pos = x >= 0
    huge = pos & (x > dt(5e7))
    out[huge] = dt(_ISPI) / x[huge]
    frac = pos & (x > dt(50)) & ~huge
    if frac.any():
        v = x[frac]
        xx = v * v
        w = xx.astype(np.float64)
        if x.dtype == np.float64:
            num = fma(w, w + 4.5, np.full_like(v, 2.0))
            den = v * fma(w, w + 5.0, np.full_like(v, 3.75))
        else:
            num = fma(w, w + 4.5, np.full_like(w, 2.0))
            den = v.astype(np.float64) * ((xx * (xx + dt(5))).astype(np.float64) + 3.75)
        out[frac] = (np.float64(dt(_ISPI)) * num / den).astype(x.dtype)
    fit = pos & (x <= dt(50))
    out[fit] = _y100(dt(400) / (dt(4) + x[fit]))
    neg = x < 0
    out[neg & (x < dt(-26.7))] = np.inf
    far = neg & (x >= dt(-26.7)) & (x < dt(-6.1))
    # (C's exp of the dtype's x * x: a double, the difference taken in double)
    out[far] = (2 * _exp((x[far] * x[far]).astype(np.float64))).astype(x.dtype)
    near = neg & (x >= dt(-6.1))
    v = x[near]
    twice = 2 * _exp((v * v).astype(np.float64))
    out[near] = (twice - _y100(dt(400) / (dt(4) - v)).astype(np.float64)).astype(x.dtype)
    return out


def calc_erfcx(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, order="C")  # (so that out.reshape(-1) is a view of out)
    out = np.empty_like(x)
    flat, res = x.reshape(-1), out.reshape(-1)
    for start in range(0, flat.size, 1 << 15):
        hooks.observer.tick()
        with np.errstate(all="ignore"):
            res[start : start + (1 << 15)] = _erfcx(flat[start : start + (1 << 15)])
    return out
