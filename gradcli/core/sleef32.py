"""float32 math kernels as PyTorch's CPU kernels compute them, bit for bit, in NumPy: SLEEF's
vectorised functions (what `Vectorized<float>` calls on an AVX512 machine: `Sleef_expf16_u10`,
`Sleef_logf16_u10`, `Sleef_log1pf16_u10`, `Sleef_tanhf16_u10`...), ATen's own vectorised
`erf`, and the C library's scalar functions for the elements a vectorised loop leaves to its
scalar tail (glibc's expf, erff...).

Every step is float32 arithmetic in NumPy, rounded as the vector instructions round; fused
multiply-adds go through `powf32.fma32` (exact). Used by the softmax kernels (ops.softmax32)
and the float32 activations (ops.act32).
"""

from __future__ import annotations

import math
import struct

import numpy as np

from . import hooks
from .powf32 import _div_f2f2 as _df_div
from .powf32 import _mul_f2f as _df_mul_vf2_vf
from .powf32 import _mul_f2f2 as _df_mul_vf2_vf2
from .powf32 import _squ_f2 as _df_squ
from .powf32 import fma32

# The split of an elementwise loop is vecloop's (powf32 uses it too); re-exported for callers.
from .vecloop import (  # noqa: F401,E501
    VEC_STEP,
    VEC_STEP_AVX2,
    _inner_run,
    _loop_order,
    split_loop,
    vec_step,
    vector_count,
)

_F = np.float32
_LOW28 = np.int64(0x0FFFFFFF)  # (as fma32's check of midpoints)
_PIECE = 1 << 17  # elements computed at once (the emulations make a dozen temporaries)


def in_pieces(f):
    """`f` (elementwise) applied to a large array in pieces of `_PIECE` elements: its float64
    temporaries stay bounded."""

    def run(*args: np.ndarray) -> np.ndarray:
        if len(args) > 1 or type(args[0]) is not np.ndarray:
            args = np.broadcast_arrays(*args)  # (~10 us: not for the usual single array)
        if args[0].size <= _PIECE:
            return f(*args)
        flat = [np.ascontiguousarray(a).reshape(-1) for a in args]
        out = np.empty(flat[0].size, _F)
        for i in range(0, out.size, _PIECE):
            if i:
                hooks.observer.check_clock()  # the time limit between pieces
            out[i : i + _PIECE] = f(*(a[i : i + _PIECE] for a in flat))
        return out.reshape(args[0].shape)

    run.__doc__ = f.__doc__
    return run


def _fits(v, shape) -> bool:
    """Whether `v` is a float32 scalar or a float32 array of `shape` (as `fma32` takes it)."""
    t = type(v)
    return t is _F or (t is np.ndarray and v.dtype == _F and v.shape == shape)


def _fma(a, b, c) -> np.ndarray:
    """Correctly rounded float32 a*b + c."""
    if type(a) is np.ndarray and a.dtype == _F and _fits(b, a.shape) and _fits(c, a.shape):
        return fma32(a, b, c)  # the kernels' usual call: no conversion, no broadcasting
    a, b, c = np.asarray(a, _F), np.asarray(b, _F), np.asarray(c, _F)
    shape = np.broadcast_shapes(a.shape, b.shape, c.shape)
    if a.shape != shape:
        a = np.broadcast_to(a, shape)
    return fma32(a, b, c)


# --- SLEEF's expf (u10) --------------------------------------------------------------------

_R_LN2 = _F(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2U, _L2L = _F(0.693145751953125), _F(1.428606765330187045e-06)
_EXP_POLY = tuple(
    _F(c)
    for c in (
        0.000198527617612853646278381,
        0.00139304355252534151077271,
        0.00833336077630519866943359,
        0.0416664853692054748535156,
        0.166666671633720397949219,
        0.5,
    )
)


@in_pieces
def expf(d: np.ndarray) -> np.ndarray:
    """exp(d) as SLEEF's vectorised expf computes it: q = rint(d / ln2), the reduced argument
    in two fused steps, a degree-6 polynomial in Horner form of fused steps, 1 + s + s*s*u,
    scaled by 2**q in two exact halves; 0 below -104, inf above 100."""
    if d.size <= _SCALARS and d.dtype == _F:
        got = _expf_scalars(d.reshape(-1).tolist())
        if got is not None:
            return np.array(got, _F).reshape(d.shape)
    with np.errstate(all="ignore"):
        # Every element in [-100, 100] (no NaN, the usual case): q needs no clipping and no
        # element takes the special values (the same bits as the general path's, fewer calls).
        plain = d.size == 0 or bool(np.abs(d).max() <= _F(100))
        q = np.rint(d * _R_LN2)
        qi = (
            q.astype(np.int32) if plain else np.clip(np.nan_to_num(q), -1000, 1000).astype(np.int32)
        )
        qf = qi.astype(_F)
        s = d - qf * _L2U  # fma(q, -L2U, d): q * L2U is exact (|q| < 600, L2U has 15 bits)
        if qi.any():  # (every q zero, |d| < ln2 / 2: fma(0, -L2L, s) is s)
            s = _fma(qf, -_L2L, s)
        u = _exp_poly(s) if plain else None
        if u is None:
            u = _fma(s, _EXP_POLY[0], _EXP_POLY[1])  # (C0 * s + C1: a*b = b*a)
            for c in _EXP_POLY[2:]:
                u = _fma(u, s, c)
            u = _fma(s * s, u, s)
        u = _F(1) + u
        h = qi >> 1
        u = u * np.ldexp(_F(1), h).astype(_F) * np.ldexp(_F(1), qi - h).astype(_F)
        if plain:
            return u
        u = np.where(d < _F(-104), _F(0), u)
        u = np.where(d > _F(100), _F(np.inf), u)
        return np.where(np.isnan(d), d, u).astype(_F)


def _exp_poly(s: np.ndarray) -> np.ndarray | None:
    """expf's six fused steps (the Horner steps, then s*s*u + s) as one chain in float64: each
    product of float32 values is exact, each sum rounded to float64 and then to float32, the
    float64 sums and products kept; right unless a sum landed on a float32 midpoint's 29 low
    bits and was rounded there (the test of `fma32`, once for all the steps; a sum that is
    exact, as every step's at s = 0, softmax's largest element, is right): then None, and
    the steps are done one by one with the exact fma. Four NumPy calls a step, not ten."""
    shape = s.shape
    s = s.reshape(-1)
    s64 = s.astype(np.float64)
    sums = np.empty((6, s.size), np.float64)
    prods = np.empty((6, s.size), np.float64)
    np.multiply(s64, _EXP_POLY[0], out=prods[0])
    np.add(prods[0], _EXP_POLY[1], out=sums[0])
    u = sums[0].astype(_F).astype(np.float64)
    for j, c in enumerate(_EXP_POLY[2:], 1):
        np.multiply(u, s64, out=prods[j])
        np.add(prods[j], c, out=sums[j])
        u = sums[j].astype(_F).astype(np.float64)
    np.multiply((s * s).astype(np.float64), u, out=prods[5])
    np.add(prods[5], s64, out=sums[5])
    cand = (sums.view(np.int64) & _LOW28) == 0
    if cand.any() and _rounded(sums, prods, _exp_addends(s64), cand):
        return None  # (a sum on a midpoint that was rounded: the exact steps decide)
    return sums[5].astype(_F).reshape(shape)


_ADDENDS = np.array(_EXP_POLY[1:], np.float64)[:, None]

# --- a few elements in Python floats ---------------------------------------------------------
# The same float32 operations as the array paths, one element at a time: a float32 +, -, *
# or / is the float64 result rounded to float32 (53 >= 2 * 24 + 2 bits: the double rounding
# is innocuous), rounded here by packing it as a C float (`_r32`); a fused step is the exact
# float64 product plus the addend rounded to float64, then to float32, with fma32's test: a
# sum on a float32 midpoint's bits (25 significant bits or fewer) whose two-sum error is not
# zero was rounded there, and the element's function gives up (None: the array path decides).
# Only where no value leaves float32's range (packing would raise) and no special value is
# met: otherwise None too. ~10x fewer NumPy calls for softmax's rows of a tiny batch.

_SCALARS = 16  # elements up to which `expf` and `logf` try Python floats first
_F32 = struct.Struct("f")
_PACK, _UNPACK = _F32.pack, _F32.unpack
_MID = float(1 << 25)  # m * 2**25 integral (m of frexp): at most 25 significant bits


def _r32(x: float) -> float:
    return _UNPACK(_PACK(x))[0]


def _fma_s(a: float, b: float, c: float) -> float | None:
    """fma(a, b, c) of float32 values, rounded to float32; None where the float64 sum sat on
    a float32 midpoint's bits and was rounded (fma32's test)."""
    p = a * b
    s = p + c
    if (math.frexp(s)[0] * _MID).is_integer():
        v = s - p
        e = (p - (s - v)) + (c - v)
        if e != 0:
            return None
    return _UNPACK(_PACK(s))[0]


_EXP_C = tuple(float(c) for c in _EXP_POLY)
_R_LN2_F, _L2U_F, _L2L_F = float(_R_LN2), float(_L2U), float(_L2L)


def _expf_scalars(vals: list[float]) -> list[float] | None:
    """`expf` of float32 values in [-100, 88], one by one (see above); None otherwise or where
    a fused step's sum may be rounded otherwise than the fma."""
    up, pk, fma = _UNPACK, _PACK, _fma_s
    c0, c1, c2, c3, c4, c5 = _EXP_C
    out = []
    for d in vals:
        if not -100.0 <= d <= 88.0:
            return None  # (NaN too)
        qi = round(up(pk(d * _R_LN2_F))[0])  # rint, ties to even
        qf = float(qi)
        s = up(pk(d - up(pk(qf * _L2U_F))[0]))[0]
        if qi:  # (fma(0, -L2L, s) is s)
            s = fma(qf, -_L2L_F, s)
            if s is None:
                return None
        u = fma(s, c0, c1)
        for c in (c2, c3, c4, c5):
            if u is None:
                return None
            u = fma(u, s, c)
        if u is None:
            return None
        u = fma(up(pk(s * s))[0], u, s)
        if u is None:
            return None
        u = up(pk(1.0 + u))[0]
        h = qi >> 1
        out.append(up(pk(up(pk(u * math.ldexp(1.0, h)))[0] * math.ldexp(1.0, qi - h)))[0])
    return out


def _exp_addends(s64: np.ndarray) -> np.ndarray:
    """The addends of `_exp_poly`'s six steps, (6, n): the constants, then s."""
    out = np.empty((6, s64.size), np.float64)
    out[:5] = _ADDENDS
    out[5] = s64
    return out


# --- SLEEF's logf (u10, the AVX512 variant) ------------------------------------------------

_LN2_HI, _LN2_LO = _F(0.69314718246459960938), _F(-1.904654323148236017e-09)
_LOG_POLY = (_F(0.3027294874), _F(0.3996108174), _F(0.6666694880))


def _two_sum(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


class _Chain:
    """fused multiply-adds of float32 operands through float64: the product exact, the sum
    rounded to float64 and then to float32, the operands kept; `exact()` says whether each
    was the correctly rounded fma: a sum off a float32 midpoint's 29 low bits rounds right,
    and one on them where the float64 sum itself was exact (its two-sum error zero), the
    test of `fma32`, once for all the steps. Three NumPy calls a step instead of ten."""

    def __init__(self) -> None:
        self.steps: list[tuple[np.ndarray, np.ndarray, object]] = []

    def __call__(self, a, b, c) -> np.ndarray:
        p = np.multiply(a, b, dtype=np.float64)
        s = p + c
        self.steps.append((s, p, c))
        return s.astype(_F)

    def error(self, a, b, c) -> np.ndarray:
        """A step whose float64 sum is exact by construction, unchecked: a product's rounding
        error (c = -RN(a*b)) or a reciprocal's residual (1 - d * RN(1/d)); the exact value
        spans fewer than 53 bits (tested: `test_small_paths`)."""
        s = np.multiply(a, b, dtype=np.float64)
        s += c
        return s.astype(_F)

    def exact(self) -> bool:
        sums = np.concatenate([s.reshape(-1) for s, _, _ in self.steps])
        cand = (sums.view(np.int64) & _LOW28) == 0
        if not cand.any():
            return True
        # the steps with candidates (an fma that gives a product's exact error has them all)
        sizes = [s.size for s, _, _ in self.steps]
        starts = np.cumsum([0] + sizes[:-1])
        counts = np.add.reduceat(cand, starts).tolist()
        with np.errstate(all="ignore"):
            for (s, p, c), lo, size, count in zip(self.steps, starts.tolist(), sizes, counts):
                if count and _rounded(s, p, c, cand[lo : lo + size].reshape(s.shape)):
                    return False
        return True


def _rounded(s: np.ndarray, p: np.ndarray, c, cand: np.ndarray) -> bool:
    """Whether a candidate's float64 sum s = p + c was rounded (its two-sum error not zero, and
    not NaN: inf and NaN operands give NaN, and those are right as they are): fma32's fix."""
    v = s - p  # (the callers hold an errstate: inf - inf here is NaN, quietly)
    e = (p - (s - v)) + (c - v)
    return bool((cand & (e != 0) & (e == e)).any())


_CHAIN_MAX = 4096  # elements up to which `logf` tries the float64 chain first


@in_pieces
def logf(d: np.ndarray) -> np.ndarray:
    """log(d) as SLEEF's vectorised logf for AVX512 computes it: d = m * 2**e with m in
    [0.75, 1.5) (getmant / getexp), x = (m - 1) / (m + 1) as a double-float, log(d) =
    e*ln2 + 2x + x**3 * P(x**2) added in double-float arithmetic, the pair summed last.
    (Small arrays first with the fused steps as one float64 chain, `_Chain`; where one of its
    sums may be rounded otherwise than the fma, again with the exact fma.)"""
    if d.size <= _SCALARS and d.dtype == _F:
        got = _logf_scalars(d.reshape(-1).tolist())
        if got is not None:
            return np.array(got, _F).reshape(d.shape)
    with np.errstate(all="ignore"):
        if d.size <= _CHAIN_MAX:
            chain = _Chain()
            r = _logf_steps(d, chain, chain.error)
            if chain.exact():
                return r
        return _logf_steps(d, _fma)


_LN2_HI_F, _LN2_LO_F = float(_LN2_HI), float(_LN2_LO)
_LOG_C = tuple(float(c) for c in _LOG_POLY)
_F32_MAX = float(np.finfo(_F).max)


def _logf_scalars(vals: list[float]) -> list[float] | None:
    """`logf` (`_logf_steps`) of positive finite float32 values, one by one in Python floats
    (see `_expf_scalars`); None otherwise or where a fused step may be rounded otherwise."""
    up, pk, fma = _UNPACK, _PACK, _fma_s
    p0, p1, p2 = _LOG_C
    out = []
    for d in vals:
        if not 0.0 < d <= _F32_MAX:
            return None  # (NaN too)
        m, ex = math.frexp(d)
        m, ex = m * 2, ex - 1
        if m >= 1.5:
            m, ex = m / 2, ex + 1
        e = float(ex)
        sx = up(pk(_LN2_HI_F * e))[0]
        sy = fma(_LN2_LO_F, e, up(pk(_LN2_HI_F * e - sx))[0])
        nx = up(pk(m - 1.0))[0]  # _two_sum(-1, m)
        v = up(pk(nx + 1.0))[0]
        ny = up(pk(up(pk(-1.0 - up(pk(nx - v))[0]))[0] + up(pk(m - v))[0]))[0]
        dx = up(pk(1.0 + m))[0]  # _two_sum(1, m)
        v = up(pk(dx - 1.0))[0]
        dy = up(pk(up(pk(1.0 - up(pk(dx - v))[0]))[0] + up(pk(m - v))[0]))[0]
        t = up(pk(1.0 / dx))[0]
        xx = up(pk(nx * t))[0]
        u = up(pk(t * nx - xx))[0]
        w = fma(ny, t, u)
        v = fma(-dy, t, up(pk(-dx * t + 1.0))[0])
        if sy is None or w is None or v is None:
            return None
        xy = fma(xx, v, w)
        x2 = up(pk(xx * xx))[0]
        p = fma(p0, x2, p1)
        if xy is None or p is None:
            return None
        p = fma(p, x2, p2)
        if p is None:
            return None
        yx, yy = up(pk(xx * 2.0))[0], up(pk(xy * 2.0))[0]
        s2 = up(pk(sx + yx))[0]
        sy = up(pk(up(pk(up(pk(up(pk(sx - s2))[0] + yx))[0] + sy))[0] + yy))[0]
        sx = s2
        w = up(pk(up(pk(x2 * xx))[0] * p))[0]
        s2 = up(pk(sx + w))[0]
        sy = up(pk(up(pk(up(pk(sx - s2))[0] + w))[0] + sy))[0]
        out.append(up(pk(s2 + sy))[0])
    return out


def _logf_steps(d: np.ndarray, fma, err=None) -> np.ndarray:
    """logf's steps with `fma` for the fused steps, `err` (default `fma`) for those that
    compute a product's rounding error or a reciprocal's residual."""
    err = fma if err is None else err
    ok = (d > 0) & np.isfinite(d)
    m, ex = np.frexp(np.where(ok, d, _F(1)).astype(np.float64))
    m, ex = m * 2, ex - 1  # m in [1, 2)
    big = m >= 1.5
    m = np.where(big, m / 2, m).astype(_F)
    e = np.where(big, ex + 1, ex).astype(_F)
    sx = _LN2_HI * e
    sy = fma(_LN2_LO, e, err(_LN2_HI, e, -sx))
    nx, ny = _two_sum(np.full(m.shape, _F(-1)), m)
    dx, dy = _two_sum(np.full(m.shape, _F(1)), m)
    t = _F(1) / dx
    xx = nx * t
    u = err(t, nx, -xx)
    v = fma(-dy, t, err(-dx, t, _F(1)))
    xy = fma(xx, v, fma(ny, t, u))
    x2 = xx * xx
    p = fma(_LOG_POLY[0], x2, _LOG_POLY[1])
    p = fma(p, x2, _LOG_POLY[2])
    yx, yy = xx * _F(2), xy * _F(2)
    s2 = sx + yx
    sy = (((sx - s2) + yx) + sy) + yy
    sx = s2
    w = (x2 * xx) * p
    s2 = sx + w
    sy = ((sx - s2) + w) + sy
    r = s2 + sy
    r = np.where(d == 0, _F(-np.inf), r)
    r = np.where((d < 0) | np.isnan(d), _F(np.nan), r)
    return np.where(d == np.inf, _F(np.inf), r).astype(_F)


# --- glibc's expf (the scalar loops) -------------------------------------------------------


def _exp2_table() -> np.ndarray:
    from decimal import Decimal, localcontext

    with localcontext() as ctx:
        ctx.prec = 40
        ln2 = Decimal(2).ln()
        return np.array([float((Decimal(i) / 32 * ln2).exp()) for i in range(32)])


_EXP2_TAB: np.ndarray | None = None
_INVLN2_32 = float.fromhex("0x1.71547652b82fep+0") * 32
_GLIBC_POLY = (
    float.fromhex("0x1.c6af84b912394p-5") / 32**3,
    float.fromhex("0x1.ebfce50fac4f3p-3") / 32**2,
    float.fromhex("0x1.62e42ff0c52d6p-1") / 32,
)


@in_pieces
def glibc_expf(x: np.ndarray) -> np.ndarray:
    """expf as glibc computes it (the algorithm of ARM's optimized-routines): in float64,
    k = round(x * 32 / ln2), r the remainder, 2**(k/32) from a table of 32 and a cubic in r,
    rounded once to float32; 0 below -0x1.9fe368p6, inf above 0x1.62e42ep6. (The polynomial's
    fused steps in float64 are computed unfused: the two differ far below float32's rounding;
    identical to the C library's expf on all 800,000 arguments measured.)"""
    global _EXP2_TAB, _EXP2_LIST
    if _EXP2_TAB is None:
        _EXP2_TAB = _exp2_table()
        _EXP2_LIST = _EXP2_TAB.tolist()
    if 0 < x.size <= _GLIBC_SCALARS and x.dtype == _F:
        got = _glibc_expf_scalars(x)  # (None unless every element is in [-88, 88])
        if got is not None:
            return got
    with np.errstate(all="ignore"):
        # every element in [-88, 88] (no NaN): no clipping, no special value (as in expf)
        plain = x.size == 0 or bool(np.abs(x).max() <= _F(88))
        if plain and x.size <= _GLIBC_SCALARS:
            return _glibc_expf_scalars(x)
        xd = x.astype(np.float64)
        z = _INVLN2_32 * xd
        kd = np.rint(z)
        r = z - kd
        ki = (
            kd.astype(np.int64)
            if plain
            else np.clip(np.nan_to_num(kd), -10000, 10000).astype(np.int64)
        )
        s = np.ldexp(_EXP2_TAB[ki % 32], ki >> 5)
        y = (_GLIBC_POLY[0] * r + _GLIBC_POLY[1]) * (r * r) + (_GLIBC_POLY[2] * r + 1.0)
        y = (y * s).astype(_F)
        if plain:
            return y
        y = np.where(x < _F(float.fromhex("-0x1.9fe368p6")), _F(0), y)
        y = np.where(x > _F(float.fromhex("0x1.62e42ep6")), _F(np.inf), y)
        return np.where(np.isnan(x), x, y).astype(_F)


_GLIBC_SCALARS = 16  # elements up to which `glibc_expf` computes with Python floats
_EXP2_LIST: list[float] = []


def _glibc_expf_scalars(x: np.ndarray) -> np.ndarray | None:
    """`glibc_expf` of a few elements in [-88, 88], one by one in Python floats: the same
    float64 operations in the same order (Python's round is rint's, ties to even; ldexp,
    the index's floor modulo and shift are NumPy's on int64), rounded to float32 once; None
    where an element is outside [-88, 88] or NaN."""
    tab, p0, p1, p2 = _EXP2_LIST, *_GLIBC_POLY
    out = []
    for v in x.reshape(-1).tolist():
        if not -88.0 <= v <= 88.0:
            return None
        z = _INVLN2_32 * v
        k = round(z)
        r = z - k
        y = (p0 * r + p1) * (r * r) + (p2 * r + 1.0)
        out.append(y * math.ldexp(tab[k % 32], k >> 5))
    return np.array(out, np.float64).astype(_F).reshape(x.shape)


# The split of an elementwise loop lives in vecloop (powf32 needs it too, without sleef32).


# --- double-float arithmetic (pairs of float32 arrays, SLEEF's FMA variants) ---------------
# (the products, square and quotient are powf32's: the same SLEEF helpers, written once)


def _fms(a, b, c):
    """fma(a, b, -c)."""
    return _fma(a, b, -c)


def _two_sum(x, y):
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


def _df_add2_vf2_vf(xh, xl, y):
    s, t = _two_sum(xh, y)
    return s, t + xl


def _df_add2_vf2_vf2(xh, xl, yh, yl):
    s, t = _two_sum(xh, yh)
    return s, t + (xl + yl)


def _df_add_vf2_vf2(xh, xl, yh, yl):
    s = xh + yh
    return s, (((xh - s) + yh) + xl) + yl


def _df_add_vf_vf2(x, yh, yl):
    s = x + yh
    return s, ((x - s) + yh) + yl


def _df_add_vf_vf(x, y):
    s = x + y
    return s, (x - s) + y


def _df_rec(dh, dl):
    s = _F(1) / dh
    return s, s * _fma(-dl, s, _fma(-dh, s, _F(1)))


def _ldexp2(x, q):
    h = q >> 1
    return x * np.ldexp(_F(1), h).astype(_F) * np.ldexp(_F(1), q - h).astype(_F)


def _expk2(dh, dl):
    """SLEEF's expk2f: exp of a double-float, as a double-float."""
    u = (dh + dl) * _R_LN2
    q = np.clip(np.nan_to_num(np.rint(u)), -1000, 1000).astype(np.int32)
    qf = q.astype(_F)
    sh, sl = _df_add2_vf2_vf(dh, dl, qf * -_L2U)
    sh, sl = _df_add2_vf2_vf(sh, sl, qf * -_L2L)
    u = np.full(sh.shape, _F(0.1980960224e-3), _F)
    for c in (0.1394256484e-2, 0.8333456703e-2, 0.4166637361e-1):
        u = _fma(u, sh, _F(c))
    th, tl = _df_mul_vf2_vf(sh, sl, u)
    th, tl = _df_add2_vf2_vf(th, tl, _F(0.166666659414234244790680580464))
    th, tl = _df_mul_vf2_vf2(sh, sl, th, tl)
    th, tl = _df_add2_vf2_vf(th, tl, _F(0.5))
    ah, al = _df_squ(sh, sl)
    ah, al = _df_mul_vf2_vf2(ah, al, th, tl)
    th, tl = _df_add2_vf2_vf2(sh, sl, ah, al)
    th, tl = _df_add_vf_vf2(_F(1), th, tl)
    th, tl = _ldexp2(th, q), _ldexp2(tl, q)
    under = dh < _F(-104)
    return np.where(under, _F(0), th), np.where(under, _F(0), tl)


@in_pieces
def tanhf(x: np.ndarray) -> np.ndarray:
    """tanh(x) as SLEEF's vectorised tanhf (u10): from exp(|x|) as a double-float d,
    (d - 1/d) / (d + 1/d) in double-float arithmetic; 1 past 8.664339742, the sign of x."""
    with np.errstate(all="ignore"):
        y = np.abs(x)
        dh, dl = _expk2(y, np.zeros_like(y))
        eh, el = _df_rec(dh, dl)
        nh, nl = _df_add2_vf2_vf2(dh, dl, -eh, -el)
        mh, ml = _df_add2_vf2_vf2(dh, dl, eh, el)
        qh, ql = _df_div(nh, nl, mh, ml)
        r = qh + ql
        r = np.where((y > _F(8.664339742)) | np.isnan(r), _F(1), r)
        r = np.copysign(r, x)
        return np.where(np.isnan(x), x, r).astype(_F)


@in_pieces
def log1pf(d: np.ndarray) -> np.ndarray:
    """log(1 + d) as SLEEF's vectorised log1pf (u10, AVX512 build): 1 + d = m * 2**e with
    e from getexp((1 + d) / 0.75), m = d * 2**-e + (2**-e - 1), then 2 atanh(m / (2 + m))
    in double-float; logf past 1e38; nan below -1, -inf at -1, -0 at -0."""
    with np.errstate(all="ignore"):
        dp1 = d + _F(1)
        sc = dp1 * _F(1.0 / 0.75)
        ok = np.isfinite(sc) & (sc > 0)
        _, ex = np.frexp(np.where(ok, sc, _F(1)).astype(np.float64))
        e = np.where(ok, ex - 1, 0).astype(_F)
        e = np.where(sc == np.inf, _F(128), e)
        ei = np.clip(np.rint(e), -200, 200).astype(np.int32)
        t = np.ldexp(np.float64(1), -ei).astype(_F)
        m = _fma(d, t, t - _F(1))
        sh, sl = _df_mul_vf2_vf(
            np.full(d.shape, _F(0.69314718246459960938)),
            np.full(d.shape, _F(-1.904654323148236017e-09)),
            e,
        )
        ah, al = _df_add_vf_vf(np.full(d.shape, _F(2)), m)
        xh, xl = _df_div(m, np.zeros_like(m), ah, al)
        x2 = xh * xh
        t = _fma(_F(0.3027294874), x2, _F(0.3996108174))
        t = _fma(t, x2, _F(0.6666694880))
        sh, sl = _df_add_vf2_vf2(sh, sl, xh * _F(2), xl * _F(2))
        w = (x2 * xh) * t
        s2 = sh + w
        sl = ((sh - s2) + w) + sl
        r = s2 + sl
        big = d > _F(float.fromhex("0x1.2ced32p+126"))
        if np.any(big):
            r = np.where(big, logf(d), r)
        r = np.where(d < _F(-1), _F(np.nan), r)
        r = np.where(d == _F(-1), _F(-np.inf), r)
        r = np.where((d == 0) & np.signbit(d), _F(-0.0), r)
        return np.where(np.isnan(d), d, r).astype(_F)


_ERF_P = (0.3275911, 0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


@in_pieces
def erf_vec(x: np.ndarray) -> np.ndarray:
    """`Vectorized<float>::erf` (ATen's own, AVX512): Abramowitz-Stegun 7.1.26 with fused
    steps and SLEEF's expf: sign(x) * (1 - r(t) * t * exp(-x*x)), t = 1 / (1 + p|x|)."""
    p, p1, p2, p3, p4, p5 = (_F(c) for c in _ERF_P)
    with np.errstate(all="ignore"):
        a = np.abs(x)
        t = _F(1) / _fma(p, a, _F(1))
        r = _fma(p5, t, p4)
        r = _fma(r, t, p3)
        r = _fma(r, t, p2)
        r = _fma(r, t, p1)
        e = expf(-(x * x))
        out = _fma(-e * t, r, _F(1))
        return np.copysign(out, x).astype(_F)


# --- the C library's scalar functions (a loop's tail: at most 31 elements) ------------------

LIBM_CALLS = 4096  # at most this many calls one by one; more are rounded from float64


def _libm(name: str):
    """The C library's float function `name` through ctypes, or None (`glibc32.c_function`)."""
    from .glibc32 import c_function

    return c_function(name)


# The functions `glibc32` computes in NumPy: ATen's scalar loops call the C library's on
# every machine (the same glibc functions whatever the CPU's vector width).
_EMULATED = ("logf", "log1pf", "asinhf", "acoshf")


def libm(name: str, x: np.ndarray, fallback) -> np.ndarray:
    """The C library's float function `name` (erff, tanhf, log1pf, expf) element by element
    (a scalar loop's few elements); for many elements of logf, log1pf, asinhf or acoshf,
    their emulation in NumPy (`glibc32`, proven equal to this library's functions in this
    process); where it
    cannot be called, or for many elements of the others, `fallback` (float64 to float64)
    rounded once: the two differ in a last bit for under 1% of inputs."""
    x = np.asarray(x, _F)
    if x.size > LIBM_CALLS and name in _EMULATED:
        from . import glibc32

        call = _libm(name)
        if glibc32.proven(name, call):  # the library's own function, in NumPy, bit for bit
            return in_pieces(lambda a: glibc32.emulated(name, a, call))(x)
    f = _libm(name) if x.size <= LIBM_CALLS else None
    if f is None:
        with np.errstate(all="ignore"):
            return np.asarray(fallback(x.astype(np.float64)), np.float64).astype(_F)
    return np.fromiter((f(v) for v in x.reshape(-1).tolist()), _F, x.size).reshape(x.shape)


@in_pieces
def expm1f(a: np.ndarray) -> np.ndarray:
    """exp(a) - 1 as SLEEF's vectorised expm1f (u10): expk2f's double-float minus 1, summed;
    inf past 88.72283172607421875, -1 below -16.635532333438687, -0 at -0."""
    with np.errstate(all="ignore"):
        dh, dl = _expk2(a, np.zeros_like(a))
        dh, dl = _df_add2_vf2_vf(dh, dl, np.full(a.shape, _F(-1)))
        r = dh + dl
        r = np.where(a > _F(88.72283172607421875), _F(np.inf), r)
        r = np.where(a < _F(-16.635532333438687426013570), _F(-1), r)
        r = np.where((a == 0) & np.signbit(a), _F(-0.0), r)
        return np.where(np.isnan(a), a, r).astype(_F)


# --- SLEEF's sinhf / coshf (u10) and atanhf (u10, AVX512 build) ---------------------------


def _df_sub_vf2_vf2(xh, xl, yh, yl):
    s = xh - yh
    return s, (((xh - s) - yh) + xl) - yl


def _exp_pair(y: np.ndarray, sub: bool) -> np.ndarray:
    """(e**y - e**-y) / 2 (sub) or (e**y + e**-y) / 2 for y >= 0 as SLEEF's sinhf / coshf:
    e**y as a double-float (expk2f), its reciprocal, the difference or sum in double-float,
    the pair summed and halved; inf past 89 (or where the pair overflows to nan)."""
    dh, dl = _expk2(y, np.zeros_like(y))
    eh, el = _df_rec(dh, dl)
    if sub:
        dh, dl = _df_sub_vf2_vf2(dh, dl, eh, el)
    else:
        dh, dl = _df_add_vf2_vf2(dh, dl, eh, el)
    r = (dh + dl) * _F(0.5)
    return np.where((y > _F(89)) | np.isnan(r), _F(np.inf), r)


@in_pieces
def sinhf(x: np.ndarray) -> np.ndarray:
    """sinh(x) as SLEEF's vectorised sinhf (u10), with the sign of x."""
    with np.errstate(all="ignore"):
        r = np.copysign(_exp_pair(np.abs(x), True), x)
        return np.where(np.isnan(x), x, r).astype(_F)


@in_pieces
def coshf(x: np.ndarray) -> np.ndarray:
    """cosh(x) as SLEEF's vectorised coshf (u10)."""
    with np.errstate(all="ignore"):
        r = _exp_pair(np.abs(x), False)
        return np.where(np.isnan(x), x, r).astype(_F)


_LOGK2_POLY = (
    _F(0.2392828464508056640625),
    _F(0.28518211841583251953125),
    _F(0.400005877017974853515625),
    _F(0.666666686534881591796875),
)


def _logk2(dh: np.ndarray, dl: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """SLEEF's logk2f (AVX512 build): log of a positive double-float as a double-float;
    e = rint(getexp(d / 0.75)), m = d * 2**-e, x = (m - 1) / (m + 1) in double-float,
    e*ln2 + 2x + x**3 * P(x**2)."""
    ok = np.isfinite(dh) & (dh > 0)
    _, ex = np.frexp(np.where(ok, dh * _F(1.0 / 0.75), _F(1)).astype(np.float64))
    ei = np.where(ok, ex - 1, 0).astype(np.int32)
    sc = np.ldexp(np.float64(1), -ei).astype(_F)
    mh, ml = dh * sc, dl * sc
    ah, al = _df_add2_vf2_vf(mh, ml, np.full(mh.shape, _F(-1)))
    bh, bl = _df_add2_vf2_vf(mh, ml, np.full(mh.shape, _F(1)))
    xh, xl = _df_div(ah, al, bh, bl)
    x2h, x2l = _df_squ(xh, xl)
    t = np.full(xh.shape, _LOGK2_POLY[0])
    for c in _LOGK2_POLY[1:]:
        t = _fma(t, x2h, c)
    e = ei.astype(_F)
    sh, sl = _df_mul_vf2_vf(np.full(e.shape, _LN2_HI), np.full(e.shape, _LN2_LO), e)
    sh, sl = _df_add_vf2_vf2(sh, sl, xh * _F(2), xl * _F(2))
    ph, pl = _df_mul_vf2_vf2(x2h, x2l, xh, xl)
    ph, pl = _df_mul_vf2_vf(ph, pl, t)
    return _df_add_vf2_vf2(sh, sl, ph, pl)


@in_pieces
def atanhf(x: np.ndarray) -> np.ndarray:
    """atanh(x) as SLEEF's vectorised atanhf (u10, AVX512 build): half the log (logk2f) of
    (1 + |x|) / (1 - |x|) formed in double-float; inf at |x| = 1, nan past it."""
    with np.errstate(all="ignore"):
        y = np.abs(x)
        nh, nl = _two_sum(np.full(y.shape, _F(1)), y)
        dh, dl = _two_sum(np.full(y.shape, _F(1)), -y)
        qh, ql = _df_div(nh, nl, dh, dl)
        sh, sl = _logk2(qh, ql)
        r = (sh + sl) * _F(0.5)
        r = np.where(y == _F(1), _F(np.inf), r)
        r = np.where((y > _F(1)) | np.isnan(r), _F(np.nan), r)
        r = np.copysign(r, x)
        return np.where(np.isnan(x), x, r).astype(_F)


_EXP2_POLY = tuple(
    _F(c)
    for c in (0.1535920892e-3, 0.1339262701e-2, 0.9618384764e-2, 0.5550347269e-1, 0.2402264476)
)


@in_pieces
def exp2f(d: np.ndarray) -> np.ndarray:
    """2**d as SLEEF's vectorised exp2f (u10): q = rint(d), s = d - q (exact), a degree-6
    polynomial in Horner form of fused steps ending in fma(u, s, 1), scaled by 2**q in two
    exact halves; inf from 128, 0 below -150."""
    with np.errstate(all="ignore"):
        u = np.rint(d)
        q = np.clip(np.nan_to_num(u), -1000, 1000).astype(np.int32)
        s = d - u
        p = np.full(d.shape, _EXP2_POLY[0], _F)
        for c in _EXP2_POLY[1:]:
            p = _fma(p, s, c)
        p = _fma(p, s, _F(0.6931471825))
        p = _fma(p, s, _F(1))
        p = _ldexp2(p, q)
        p = np.where(d >= _F(128), _F(np.inf), p)
        p = np.where(d < _F(-150), _F(0), p)
        return np.where(np.isnan(d), d, p).astype(_F)


# --- atan2f (u10) ------------------------------------------------------------------------------

_ATAN_POLY = tuple(
    _F(c)
    for c in (
        -0.00176397908944636583328247,
        0.0107900900766253471374512,
        -0.0309564601629972457885742,
        0.0577365085482597351074219,
        -0.0838950723409652709960938,
        0.109463557600975036621094,
        -0.142626821994781494140625,
        0.199983194470405578613281,
    )
)
_HALF_PI_HI, _HALF_PI_LO = _F(1.5707963705062866211), _F(-4.3711388286737928865e-08)
_TINY_X = _F(2.9387372783541830947e-39)  # below this |x|, both are scaled by 2^24 first
_ALL_ONES = np.array([0xFFFFFFFF], np.uint32).view(_F)[0]


@in_pieces
def atan2f(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """atan2(y, x) as SLEEF's vectorised atan2f with 1.0-ulp accuracy (what ATen's
    Vectorized<float>::atan2 calls, fused multiply-adds): the quotient of the smaller by the
    larger of |y| and |x| as a float pair, an odd polynomial in its square, plus q * pi/2 in
    pairs; the sign and the special values (zeros, infinities, NaN) fixed after."""
    y = np.asarray(y, _F)
    x = np.asarray(x, _F)
    with np.errstate(all="ignore"):
        tiny = np.abs(x) < _TINY_X
        scale = _F(1 << 24)
        x = np.where(tiny, x * scale, x)
        y = np.where(tiny, y * scale, y)
        ay = np.abs(y)
        # the kernel on (|y|, x): x negative is turned to -x with q = -2
        q = np.where(x < 0, -2, 0).astype(np.int32)
        xs = np.where(x < 0, -x, x)
        zero = np.zeros_like(x)
        q = np.where(xs < ay, q + 1, q)
        swap = xs < ay
        sh, sl = np.where(swap, -xs, ay), np.where(swap, -zero, zero)
        th, tl = np.where(swap, ay, xs), zero
        sh, sl = _df_div(sh, sl, th, tl)
        th, tl = _df_squ(sh, sl)
        th, tl = _df_add_vf_vf(th, tl)  # (normalised)
        u = np.full(x.shape, _ATAN_POLY[0])
        for c in _ATAN_POLY[1:]:
            u = _fma(u, th, c)
        ah, al = _df_add_vf_vf(np.full(x.shape, _F(-0.333332866430282592773438)), u * th)
        th, tl = _df_mul_vf2_vf2(th, tl, ah, al)
        ah, al = _df_add_vf_vf2(np.full(x.shape, _F(1)), th, tl)
        th, tl = _df_mul_vf2_vf2(sh, sl, ah, al)
        qf = q.astype(_F)
        ph, pl = _df_mul_vf2_vf(np.full(x.shape, _HALF_PI_HI), np.full(x.shape, _HALF_PI_LO), qf)
        rh, rl = _df_add_vf2_vf2(ph, pl, th, tl)
        r = rh + rl
        r = _mulsign(r, x)
        half_pi, quarter_pi = _F(np.pi / 2), _F(np.pi / 4)
        r = np.where(np.isinf(x) | (x == 0), half_pi - _inf_part(x, _mulsign(half_pi, x)), r)
        r = np.where(np.isinf(y), half_pi - _inf_part(x, _mulsign(quarter_pi, x)), r)
        r = np.where(y == 0, np.where(np.signbit(x), _F(np.pi), _F(0)), r)
        # a NaN operand: every bit set (SLEEF ORs the NaN mask in)
        r = np.where(np.isnan(x) | np.isnan(y), _ALL_ONES, _mulsign(r, y))
    return r.astype(_F)


def _mulsign(v: np.ndarray, s: np.ndarray) -> np.ndarray:
    """v with its sign bit flipped where s's is set (SLEEF's mulsign)."""
    return np.where(np.signbit(s), -v, v).astype(_F)


def _inf_part(d: np.ndarray, m: np.ndarray) -> np.ndarray:
    """m's magnitude with d's and m's signs where d is infinite, else +0 (SLEEF's visinf2)."""
    return np.where(np.isinf(d), np.where(np.signbit(d), -np.abs(m), m), _F(0)).astype(_F)


# --- SLEEF's lgammaf (u1): what float32 `lgamma` runs on every element ------------------------
# The float version of `core.sleef64`'s algorithm (see there): float-float steps, a degree-8
# polynomial, the product x (x+1) (x+2) kept for 2.3 <= x <= 7 (x moves up by 3), Taylor
# series about 1 (0.5 <= x <= 1.2) or 2, the reflection below 0.5 through sin(pi t).

_LGF_U = (  # highest first: (x >= 2.3, t = 1/x), (0.5 <= x <= 1.2, t = x - 1), (t = x - 2)
    (0.000839498720672087279971000786, 0.9435157776e0, 0.1102489550e-3),
    (-5.17179090826059219329394422e-05, 0.8670063615e0, 0.8160019934e-4),
    (-0.000592166437353693882857342347, 0.4826702476e0, 0.1528468856e-3),
    (6.97281375836585777403743539e-05, -0.8855129778e-1, -0.2355068718e-3),
    (0.000784039221720066627493314301, 0.1013825238e0, 0.4962242092e-3),
    (-0.000229472093621399176949318732, -0.1493408978e0, -0.1193488017e-2),
    (-0.002681327160493827160473958490, 0.1697509140e0, 0.2891599433e-2),
    (0.003472222222222222222175164840, -0.2072454542e0, -0.7385451812e-2),
    (0.083333333333333333335592087900, 0.2705872357e0, 0.2058077045e-1),
)
_LGF_TAYLOR = (  # (about 1, about 2)
    (-0.400686534596170958447352690395e0, -0.673523028297382446749257758235e-1),
    (0.822466960142643054450325495997e0, 0.322467033928981157743538726901e0),
    (-0.577215665946766039837398973297e0, 0.422784335087484338986941629852e0),
)
_LGF_SIN = (  # (cos, sin) quadrant coefficients, then the float-float ones
    (-0.2430611801e-7, 0.3093842054e-6),
    (0.3590577080e-5, -0.3657307388e-4),
    (-0.3259917721e-3, 0.2490393585e-2),
)
_LGF_SIN_FF = (
    ((0.015854343771934509277, 4.4940051354032242811e-10),
     (-0.080745510756969451904, -1.3373665339076936258e-09)),
    ((-0.30842512845993041992, -9.0728339030733922277e-09),
     (0.78539818525314331055, -2.1857338617566484855e-08)),
)  # fmt: skip


def _ff(d: float) -> tuple:
    """A double constant as SLEEF's float-float (its float, then the float of the rest)."""
    hi = _F(d)
    return hi, _F(d - float(hi))


def _ff_add2_vf_vf2(x, yh, yl):
    s = x + yh
    v = s - x
    return s, ((x - (s - v)) + (yh - v)) + yl


def _ff_renorm(h, l):  # noqa: E741 - the low part
    s = h + l
    return s, (h - s) + l


def _ff_pick(mask, a, b):
    return np.where(mask, a[0], b[0]).astype(_F), np.where(mask, a[1], b[1]).astype(_F)


def _ff_log(dh, dl):
    """SLEEF's logk2f: log of a positive float-float, as a float-float."""
    e = np.frexp(dh * _F(1.0 / 0.75))[1] - 1  # (float32(1/0.75) = 1.3333334f)
    scale = np.ldexp(_F(1), -e).astype(_F)
    mh, ml = dh * scale, dl * scale
    xh, xl = _df_div(*_df_add2_vf2_vf(mh, ml, _F(-1)), *_df_add2_vf2_vf(mh, ml, _F(1)))
    x2h, x2l = _df_squ(xh, xl)
    t = np.full(dh.shape, _F(0.2392828464508056640625))
    for c in (0.28518211841583251953125, 0.400005877017974853515625, 0.666666686534881591796875):
        t = _fma(t, x2h, _F(c))
    ef = e.astype(_F)
    s = _df_mul_vf2_vf(np.full(dh.shape, _F(0.69314718246459960938)),
                       np.full(dh.shape, _F(-1.904654323148236017e-09)), ef)  # fmt: skip
    s = _df_add_vf2_vf2(*s, xh * _F(2), xl * _F(2))
    return _df_add_vf2_vf2(*s, *_df_mul_vf2_vf(*_df_mul_vf2_vf2(x2h, x2l, xh, xl), t))


def _ff_sin_pi(d):
    """SLEEF's sinpifk: sin(pi d) for |d| < 2**12, as a float-float."""
    u = d * _F(4)
    q = np.trunc(u).astype(np.int64)
    q = (q + np.where(q < 0, 0, 1)) & ~1
    cos = (q & 2) == 2
    t = (u - q.astype(_F)).astype(_F)
    s = t * t
    t2 = _df_mul(t, t)
    p = np.where(cos, _F(_LGF_SIN[0][0]), _F(_LGF_SIN[0][1])).astype(_F)
    for c_cos, c_sin in _LGF_SIN[1:]:
        p = _fma(p, s, np.where(cos, _F(c_cos), _F(c_sin)).astype(_F))
    (a_cos, a_sin), (b_cos, b_sin) = _LGF_SIN_FF
    pick = lambda pair_cos, pair_sin: (  # noqa: E731
        np.where(cos, _F(pair_cos[0]), _F(pair_sin[0])).astype(_F),
        np.where(cos, _F(pair_cos[1]), _F(pair_sin[1])).astype(_F),
    )
    x = _ff_add2_vf_vf2(p * s, *pick(a_cos, a_sin))
    x = _df_add2_vf2_vf2(*_df_mul_vf2_vf2(*t2, *x), *pick(b_cos, b_sin))
    x = _df_mul_vf2_vf2(*x, *_ff_pick(cos, t2, (t, np.zeros_like(t))))
    x = _ff_pick(cos, _df_add2_vf2_vf(*x, _F(1)), x)
    flip = (q & 4) == 4
    return np.where(flip, -x[0], x[0]).astype(_F), np.where(flip, -x[1], x[1]).astype(_F)


def _df_mul(x, y):
    """x * y of two floats, as a float-float."""
    s = x * y
    return s, _fms(x, y, s)


@in_pieces
def lgammaf(a: np.ndarray) -> np.ndarray:
    """log |Gamma(a)| of a float32 array as SLEEF's Sleef_lgammaf16_u1 (ATen's kernel)."""
    a = np.asarray(a, _F)
    with np.errstate(all="ignore"):
        zero, one = np.zeros_like(a), np.ones_like(a)
        tiny = np.abs(a) < _F(1e-30)
        reflect = a < _F(0.5)
        x = _ff_pick(tiny, (zero, zero), _ff_pick(reflect, _two_sum(one, -a), (a, zero)))
        near_one = (_F(0.5) <= x[0]) & (x[0] <= _F(1.2))
        large = _F(2.3) <= x[0]
        y = _ff_renorm(*_df_mul_vf2_vf2(*_df_add2_vf2_vf(*x, _F(1)), *x))
        y = _ff_renorm(*_df_mul_vf2_vf2(*_df_add2_vf2_vf(*x, _F(2)), *y))
        shift = large & (x[0] <= _F(7))
        num = _ff_pick(shift, y, (one, zero))
        x = _ff_pick(shift, _df_add2_vf2_vf(*x, _F(3)), x)
        back = np.where(near_one, _F(-1), _F(-2)).astype(_F)
        t = np.where(large, _F(1) / x[0], _ff_renorm(*_df_add2_vf2_vf(*x, back))[0]).astype(_F)
        first = _LGF_U[0]
        u = np.where(large, _F(first[0]), np.where(near_one, _F(first[1]), _F(first[2])))
        u = u.astype(_F)
        for c_large, c_one, c_two in _LGF_U[1:]:
            c = np.where(large, _F(c_large), np.where(near_one, _F(c_one), _F(c_two)))
            u = _fma(u, t, c.astype(_F))
        stirling = _df_mul_vf2_vf2(*_df_add2_vf2_vf(*x, _F(-0.5)), *_ff_log(*x))
        stirling = _df_add2_vf2_vf2(*stirling, -x[0], -x[1])
        half_log_2pi = _ff(0.91893853320467278056)
        stirling = _df_add2_vf2_vf2(*stirling, np.full_like(a, half_log_2pi[0]),
                                    np.full_like(a, half_log_2pi[1]))  # fmt: skip
        taylor = [np.where(near_one, _F(c1), _F(c2)).astype(_F) for c1, c2 in _LGF_TAYLOR]
        series = _df_add2_vf2_vf(*_df_mul(u, t), taylor[0])
        series = _df_add2_vf2_vf(*_df_mul_vf2_vf(*series, t), taylor[1])
        series = _df_add2_vf2_vf(*_df_mul_vf2_vf(*series, t), taylor[2])
        series = _df_mul_vf2_vf(*series, t)
        c = _ff_pick(large, stirling, series)
        den = _ff_pick(large, _df_add2_vf2_vf(*_df_mul(u, t), _F(1)), (one, zero))
        log_pi = _ff(1.1447298858494001639)
        reflected = _df_add2_vf2_vf2(np.full_like(a, log_pi[0]), np.full_like(a, log_pi[1]),
                                     -c[0], -c[1])  # fmt: skip
        log_2_60 = _ff(41.58883083359671856503)
        c = _ff_pick(tiny, (np.full_like(a, log_2_60[0]), np.full_like(a, log_2_60[1])),
                     _ff_pick(reflect, reflected, c))  # fmt: skip
        top = _ff_pick(tiny, (one, zero), _ff_pick(reflect, num, den))
        if reflect.any():
            r = (a - _F(4096) * np.trunc(a * _F(1.0 / 4096))).astype(_F)
            sin_term = _df_mul_vf2_vf2(*den, *_ff_sin_pi(r))
        else:
            sin_term = (zero, zero)
        bottom = _ff_pick(tiny, (a * _F(2.0**60), zero), _ff_pick(reflect, sin_term, num))
        qh, ql = _df_div(*top, *bottom)
        lh, ll = _ff_log(np.abs(qh), np.where(np.signbit(qh), -ql, ql).astype(_F))
        sh, sl = _df_add2_vf2_vf2(*c, lh, ll)
        out = sh + sl
        pole = np.isinf(a) | ((a <= 0) & (np.rint(a) == a)) | (np.isfinite(a) & np.isnan(out))
        return np.where(pole, _F(np.inf), out).astype(_F)
