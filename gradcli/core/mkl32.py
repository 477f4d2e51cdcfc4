"""float32 sin and cos as PyTorch's CPU kernels compute them, bit for bit: MKL's VML (vmsSin,
vmsCos in the high-accuracy mode, which ATen's `vml::vsin` / `vml::vcos` call for every size,
contiguous or not).

MKL's sources are not public; this is a model found by measurement, not a copy. For |x| <=
10000 the result is a double-precision odd polynomial of degree 9 in the argument reduced by
multiples of pi, rounded once to float32: sin(x) = (-1)**k P(x - k pi), k = rint(x / pi), and
cos(x) = (-1)**k P(x - (k - 1/2) pi), k = rint(x / pi + 1/2). P's relative error (~6e-9,
about 0.1 of a float32 ulp) is what makes about 5% of PyTorch's float32 sines and cosines
differ from the correctly rounded ones. Its coefficients were fitted by linear programming to
the rounding intervals of PyTorch 2.13's results (every float32 in [1e-3, pi/2] near a rounding
boundary). The model reproduces PyTorch's sine of all 1.07e9 float32 values in [0, pi/2] and
of 10**6 random arguments up to 10000 (tests/ops/test_vml32_order.py); the cosine differs in
the last bit for about 2 in 10**6 arguments (down from 5%): there MKL's value falls within
1e-6 of an ulp of a rounding boundary, finer than the fit resolves (a fit of all sine and
cosine data together is infeasible at that level, so MKL's argument reduction or evaluation
differs from this one by about 1e-3 of an ulp somewhere). Past 10000 MKL switches to another
(more accurate) method: there the float64 result rounded once is used, which agrees with it
for about 99% of arguments.
"""

from __future__ import annotations

import numpy as np

from .sleef32 import in_pieces

_F = np.float32
_C = tuple(
    float.fromhex(h)
    for h in (
        "-0x1.55554bc83676fp-3",
        "0x1.110ed3805ffebp-7",
        "-0x1.9f6ffeef64cc8p-13",
        "0x1.5dbdf1362e7e6p-19",
    )
)
# pi/2 in three parts: the first two of 24 bits, so that m * part is exact for |m| < 2**29
_HALF_PI = tuple(
    float.fromhex(h) for h in ("0x1.921fb6p+0", "-0x1.777a5cp-25", "-0x1.ee59d9cceba40p-50")
)
_INV_PI = 1 / np.pi
LIMIT = 10000.0  # past it MKL's float32 sin/cos take another path


def _poly(r: np.ndarray) -> np.ndarray:
    """r + r**3 (c1 + c2 r**2 + c3 r**4 + c4 r**6), in float64, Horner in r**2."""
    s = r * r
    p = _C[3] * s + _C[2]
    p = p * s + _C[1]
    p = p * s + _C[0]
    return r + (r * s) * p


def _reduce(xd: np.ndarray, m: np.ndarray) -> np.ndarray:
    """xd - m * pi/2 (m an integer in float64), accurate to float64's precision."""
    r = xd - m * _HALF_PI[0]
    r = r - m * _HALF_PI[1]
    return r - m * _HALF_PI[2]


def _kernel(x: np.ndarray, shift: float, fallback) -> np.ndarray:
    x = np.asarray(x, _F)
    with np.errstate(all="ignore"):
        xd = x.astype(np.float64)
        near = np.abs(xd) <= LIMIT
        xn = np.where(near, xd, 0.0)
        k = np.rint(xn * _INV_PI + shift)
        r = _reduce(xn, 2 * k - 2 * shift)
        y = _poly(r)
        y = np.where(k.astype(np.int64) & 1, -y, y)
        if not near.all():
            y = np.where(near, y, fallback(xd))
        if shift == 0.0:
            y = np.where(xd == 0, xd, y)  # sin(-0) = -0
        return y.astype(_F)


@in_pieces
def sinf(x: np.ndarray) -> np.ndarray:
    """sin(x) as MKL's vmsSin (VML_HA) computes it."""
    return _kernel(x, 0.0, np.sin)


@in_pieces
def cosf(x: np.ndarray) -> np.ndarray:
    """cos(x) as MKL's vmsCos (VML_HA) computes it."""
    return _kernel(x, 0.5, np.cos)
