"""`torch.sqrt` as PyTorch's CPU build computes it on an AVX-512 machine, bit for bit, in NumPy.

ATen sends float32 and float64 `sqrt` (also `sqrt_`, `out=`, `x ** 0.5`, `pow(x, 0.5)`, any
strides and sizes) to MKL's vector math library, `vsSqrt` / `vdSqrt` in its "high accuracy"
mode. On a CPU with AVX-512 MKL does not use the square-root instruction: it starts from the
14-bit estimate of 1/sqrt(x) (`vrsqrt14`) and refines it with fused multiply-adds:

    float32:  r = rsqrt14(x), g = x*r, h = r/2, e = fma(-g, g, x), y = fma(e, h, g)
    float64:  the same after one more step on both g and h:
              t = fma(-g, h, 1/2), g = fma(t, g, g), h = fma(t, h, h)

(inputs below 2**-78, resp. 2**-916, are scaled so that the residual e stays normal; that
is the same arithmetic). Before its last rounding the result is within 0.093 ulp of the root
in float32 (0.4 in float64) and never above it by more than a hair, so it is the correctly
rounded root except where the root lies just above a rounding midpoint: about 0.55% of
uniform inputs come out one ulp below `np.sqrt`.

`vrsqrt14` is piecewise linear: the exponent's parity and the top five fraction bits pick one
of 64 segments, the next ten bits t give `128*c - d*(t - 512)`, truncated to 17 bits (in
units of 2**-26 for x in [1, 4)); the other fraction bits are not looked at. The 64 (c, d)
pairs below are the ones Intel publishes for its reference model of the instruction; each
pair is also the only one that reproduces this CPU's instruction on all 2**24 inputs of
[1, 4). Against MKL itself this module gives the same bits for every non-negative float32
(all 2**31 of them, +0 to +inf) and for 1.1e7 float64 inputs of every kind (random bit
patterns, subnormals, squares, near-squares, extremes).

float32: NumPy's float64 root locates the roots within an eighth of an ulp of a midpoint
(about a quarter of the inputs); only those are recomputed, MKL's way, in float64, which
holds each float32 step exactly (the last one through round-to-odd where it is a tie).
float64: every input is recomputed on x scaled into [1, 4) (x = s * 4**k, root = sqrt(s) *
2**k), the fused multiply-adds emulated with exact products (Veltkamp-Dekker) and sums
(two-sum) and a last rounding through round-to-odd.
Other CPUs get other bits from the same PyTorch: on an AMD processor (the `avx2` family of
`core.cpu`) MKL runs its generic SSE kernel, whose float32 bits `core.amd32` reproduces;
`sqrt` branches there by `cpu.mkl_avx2()`; its float64 bits are `core.amd64`'s (MKL's
generic float64 kernel, which differs from NumPy's correctly rounded root on 0.5% to 1.3% of
the inputs, by one ulp either way).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import cpu

# the error-free sum and product (Dekker, Knuth) of the float64 fused multiply-add
from .fma64 import _two_prod, _two_sum

# (d, c) for x in [1, 2), then (d, c) for x in [2, 4); one row per top-five-bit segment
_DC = np.array(
    [
        (1001, 520261, 707, 367881), (955, 512437, 675, 362349),
        (915, 504953, 647, 357056), (877, 497790, 619, 351992),
        (841, 490922, 595, 347136), (807, 484331, 571, 342475),
        (775, 478001, 549, 337997), (747, 471909, 527, 333693),
        (719, 466046, 509, 329545), (693, 460397, 491, 325551),
        (669, 454947, 473, 321697), (647, 449688, 457, 317977),
        (625, 444606, 441, 314385), (603, 439694, 427, 310910),
        (585, 434939, 413, 307549), (567, 430335, 401, 304295),
        (549, 425875, 389, 301139), (533, 421551, 377, 298079),
        (517, 417355, 365, 295115), (501, 413284, 355, 292237),
        (487, 409329, 345, 289439), (473, 405487, 335, 286722),
        (461, 401748, 325, 284080), (449, 398111, 317, 281508),
        (437, 394571, 309, 279006), (425, 391127, 301, 276569),
        (415, 387770, 293, 274195), (403, 384498, 285, 271882),
        (393, 381307, 279, 269625), (385, 378194, 271, 267425),
        (375, 375155, 265, 265276), (367, 372190, 259, 263178),
    ],
    dtype=np.int64,
)  # fmt: skip
# flattened as [parity * 32 + segment]
_D = np.concatenate([_DC[:, 0], _DC[:, 2]])
_C128 = 128 * np.concatenate([_DC[:, 1], _DC[:, 3]])

_U52 = np.uint64(52)
_U29 = np.uint64(29)
_FRAC23 = np.uint64(0x7FFFFF)
_SUBNORMAL64 = 2.0**-1022


def _reduce(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Positive finite float64 x -> (k, s, r): x = s * 4**k, s in [1, 4), r = rsqrt14(s)."""
    tiny = x < _SUBNORMAL64
    lift = np.count_nonzero(tiny) > 0
    if lift:  # float64 subnormals: lift them by 2**108 (k then drops by 54)
        x = np.where(tiny, x * 2.0**108, x)
    b = x.view(np.uint64)
    e = (b >> _U52).astype(np.int64) - 1023
    odd = e & 1
    k = e >> 1
    s = ((b & np.uint64(0x000FFFFFFFFFFFFF)) | ((odd + 1023).astype(np.uint64) << _U52)).view(
        np.float64
    )
    frac = ((b >> _U29) & _FRAC23).astype(np.int64)
    seg = (frac >> 18) + 32 * odd
    v = _C128[seg] - _D[seg] * (((frac >> 8) & 1023) - 512)
    v &= np.where(v < (1 << 25), -256, -512)  # keep 17 significant bits
    r = v * 2.0**-26
    if lift:
        k -= np.where(tiny, 54, 0)
    return k, s, r


def _to_odd(v: np.ndarray, err: np.ndarray) -> np.ndarray:
    """v = RN(v + err) -> the exact sum rounded to odd (v itself when err is 0 or v odd)."""
    bits = v.view(np.int64)
    fix = (err != 0) & ((bits & 1) == 0)
    if np.count_nonzero(fix):
        bits = bits + np.where(fix, np.where((err > 0) == (v > 0), 1, -1), 0)
    return bits.view(np.float64)


def _fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a * b + c rounded once in float64 (no overflow or underflow on the way: |values| ~ 1)."""
    ph, pl = _two_prod(a, b)
    th, tl = _two_sum(c, ph)
    v, ve = _two_sum(tl, pl)
    return th + _to_odd(v, ve)


def _pow2(k: np.ndarray) -> np.ndarray:
    return ((k + 1023).astype(np.uint64) << _U52).view(np.float64)


_LOW29 = np.int64(0x1FFFFFFF)
_HALF29 = np.int64(0x10000000)
# within an eighth of a float32 ulp of the halfway point (in float64 steps: the low 29 bits)
_NEAR_FROM = np.int64(0x10000000 - (1 << 26))
_NEAR_WIDTH = np.int64(1 << 27)
_HALF_R14: np.ndarray | None = None  # rsqrt14(s)/2 for s in [1, 4), by (parity, top 15 bits)
_POW2 = 2.0 ** -(((np.arange(256) + 1) >> 1) - 64)  # 2**-floor((B - 127)/2) by float32 exponent B


def _half_r14() -> np.ndarray:
    global _HALF_R14
    if _HALF_R14 is None:
        # by float32 bits 8..23: the exponent's lowest bit, the top 15 fraction bits
        top = np.arange(1 << 16, dtype=np.int64) ^ (1 << 15)
        s = ((top << 8) + (127 << 23)).astype(np.int32).view(np.float32).astype(np.float64)
        _HALF_R14 = 0.5 * _reduce(s)[2]
    return _HALF_R14


def _sqrt32(x: np.ndarray) -> np.ndarray:
    """x: positive finite float32 (1-d)."""
    xd = x.astype(np.float64)
    q = np.sqrt(xd)  # float32(q) is the correctly rounded root
    low = q.view(np.int64) - _NEAR_FROM
    low &= _LOW29
    near = (low < _NEAR_WIDTH).nonzero()[0]
    out = q.astype(np.float32)
    if near.size == 0:
        return out
    # MKL's result is within 0.093 ulp of the root (|rsqrt14 error| <= 6.0e-5 bounds
    # |g + e*h - root| / root by 5.5e-9), so it is float32(q) unless the root lies within an
    # eighth of an ulp of a rounding midpoint
    xd = xd.take(near)
    tiny = (xd < 2.0**-60).nonzero()[0]
    if tiny.size:  # keep e normal in float32 (MKL scales inputs below 2**-78 likewise)
        xd[tiny] *= 2.0**100
    bits = xd.astype(np.float32).view(np.int32)
    h = _half_r14()[(bits >> 8) & 0xFFFF] * _POW2[bits >> 23]
    g = (xd * (h + h)).astype(np.float32).astype(np.float64)
    e = (xd - g * g).astype(np.float32).astype(np.float64)  # xd - g*g is exact in float64
    p = e * h  # exact
    y = g + p
    tie = (y.view(np.int64) & _LOW29) == _HALF29
    if np.count_nonzero(tie):  # a float32 halfway point: round the exact sum to odd first
        bb = y - g
        y = _to_odd(y, (g - (y - bb)) + (p - bb))
    if tiny.size:
        y[tiny] *= 2.0**-50
    out.put(near, y.astype(np.float32))
    return out


def _sqrt64(x: np.ndarray) -> np.ndarray:
    k, s, r = _reduce(x)
    h = 0.5 * r
    g = s * r
    ph, pl = _two_prod(g, h)
    t = (0.5 - ph) - pl  # 0.5 - ph is exact: one rounding, as the fma
    g = _fma(t, g, g)
    h = _fma(t, h, h)
    ph, pl = _two_prod(g, g)
    e = (s - ph) - pl  # s - ph is exact likewise
    return _fma(e, h, g) * _pow2(k)


# Emulating MKL's float64 steps exactly costs some 700 NumPy passes' time per element (2 s for
# 10**6): above this size a float64 root is NumPy's, correctly rounded (it differs from
# PyTorch's in the last bit of about 0.57% of the elements, which float64 printing hides).
FLOAT64_EMULATED = 1 << 14


def sqrt(x: Any) -> Any:
    """np.sqrt with PyTorch's (MKL, AVX-512) float32 bits, and float64 bits up to
    `FLOAT64_EMULATED` elements; np.sqrt for other dtypes and larger float64 arrays."""
    x = np.asarray(x)
    if x.dtype not in (np.float32, np.float64) or x.size == 0:
        return np.sqrt(x)
    if x.dtype == np.float32 and cpu.mkl_avx2():  # MKL's generic SSE vsSqrt: core.amd32
        from . import amd32  # (its tables are read only on such a machine)

        res = amd32.sqrtf(x)
        return res[()] if x.ndim == 0 else res
    if x.dtype == np.float64 and cpu.mkl_avx2():  # MKL's generic SSE vdSqrt: core.amd64
        from . import amd64

        return amd64.sqrt(x)
    if x.dtype == np.float64 and x.size > FLOAT64_EMULATED:
        return np.sqrt(x)
    root = _sqrt32 if x.dtype == np.float32 else _sqrt64
    flat = x.reshape(-1)  # C order (a copy when x is not C-contiguous)
    ok = flat > 0
    ok &= flat < np.inf
    if np.count_nonzero(ok) == ok.size:
        with np.errstate(all="ignore"):
            res = root(flat)
        return res[0] if x.ndim == 0 else res.reshape(x.shape)
    out = np.array(np.sqrt(flat))  # zeros, infinities, nan and negatives as NumPy (and MKL)
    if np.count_nonzero(ok):
        with np.errstate(all="ignore"):
            out[ok] = root(flat[ok])
    return out[0] if x.ndim == 0 else out.reshape(x.shape)
