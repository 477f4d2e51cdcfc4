"""float32 `pow` as PyTorch's CPU kernel computes it, bit for bit, in NumPy.

ATen's vectorised pow loop (tensor ** tensor, and tensor ** scalar for exponents other than
0, 1, 2, 3, -1, -2, 0.5, -0.5) calls SLEEF's `powf` with 1.0-ulp accuracy on 16 (AVX512) or
8 (AVX2) lanes; both builds use fused multiply-adds and give the same bits. SLEEF's algorithm
is public: log|x| in double-float (a float pair, hi + lo), times y, then exp of the pair.
This module follows that algorithm in float32 NumPy arithmetic (each step rounded the way
the vector instructions round) with an exact float32 fused multiply-add emulated in float64
(`fma32`). The elements the vector loop does not reach (a contiguous run's last n % 32, or
every element of a strided loop) go through the C library's `powf` instead; `pow32` takes
that split from the caller.
"""

from __future__ import annotations

import numpy as np

F32 = np.float32
_ODD = np.int64(1)


def fma32(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a * b + c rounded once to float32 (float32 inputs), exactly as a hardware FMA.

    a * b is exact in float64; the sum with c is formed in float64 and its rounding error
    recovered exactly (two-sum); the float64 result is then rounded to odd (its last bit set
    when the sum was inexact), which makes the final rounding to float32 a single correct
    rounding (float64 carries more than 24 + 2 bits)."""
    p = np.multiply(a, b, dtype=np.float64)
    c64 = np.asarray(c, dtype=np.float64)
    with np.errstate(all="ignore"):
        s = p + c64
        bb = s - p
        e = (p - (s - bb)) + (c64 - bb)
        s = np.atleast_1d(s)
        bits = s.view(np.int64)
        # inexact and even: step one float64 ulp towards the exact sum (e's side of s)
        fix = (e != 0) & ((bits & _ODD) == 0) & np.isfinite(e)
        step = np.where((e > 0) == (s > 0), np.int64(1), np.int64(-1))
        bits += fix * step
        return s.astype(F32).reshape(np.shape(p))


def _fmsub(a, b, c):
    return fma32(a, b, -c)


def _fnmadd(a, b, c):
    return fma32(-a, b, c)


# double-float helpers (FMA variants): pairs are (hi, lo) float32 arrays.
def _add2_ff(x, y):
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


def _add2_f2f2(xh, xl, yh, yl):
    s = xh + yh
    v = s - xh
    t = (xh - (s - v)) + (yh - v)
    return s, t + (xl + yl)


def _add2_f2f(xh, xl, y):
    s = xh + y
    v = s - xh
    t = (xh - (s - v)) + (y - v)
    return s, t + xl


def _add_f2f2(xh, xl, yh, yl):
    s = xh + yh
    return s, (((xh - s) + yh) + xl) + yl


def _add_ff2(x, yh, yl):
    s = x + yh
    return s, ((x - s) + yh) + yl


def _mul_f2f(xh, xl, y):
    s = xh * y
    return s, fma32(xl, y, _fmsub(xh, y, s))


def _mul_f2f2(xh, xl, yh, yl):
    s = xh * yh
    return s, fma32(xh, yl, fma32(xl, yh, _fmsub(xh, yh, s)))


def _squ_f2(xh, xl):
    s = xh * xh
    return s, fma32(xh + xh, xl, _fmsub(xh, xh, s))


def _div_f2f2(nh, nl, dh, dl):
    t = F32(1) / dh
    s = nh * t
    u = _fmsub(t, nh, s)
    v = _fnmadd(dl, t, _fnmadd(dh, t, np.ones_like(dh)))
    return s, fma32(s, v, fma32(nl, t, u))


def _getexp(d):
    """AVX512 getexp: floor(log2|d|) as float, for normal and subnormal d."""
    m, e = np.frexp(d)
    return (e - 1).astype(F32)


def _getmant(d):
    """AVX512 getmant with the [0.75, 1.5) interval: |d| scaled by a power of two."""
    m, e = np.frexp(d)  # m in [0.5, 1)
    m = np.abs(m).astype(F32)
    return np.where(m < F32(0.75), m * F32(2), m)


_L2U = F32(0.693145751953125)
_L2L = F32(1.428606765330187045e-06)
_R_LN2 = F32(1.442695040888963407359924681001892137426645954152985934135449406931)


def _logk(d):
    scaled = d * F32(1.0 / 0.75)
    e = np.where(np.isinf(scaled), F32(128), _getexp(scaled))
    m = _getmant(d)
    ah, al = _add2_ff(np.full_like(m, -1), m)
    bh, bl = _add2_ff(np.ones_like(m), m)
    xh, xl = _div_f2f2(ah, al, bh, bl)
    x2h, x2l = _squ_f2(xh, xl)
    t = np.full_like(m, F32(0.240320354700088500976562))
    t = fma32(t, x2h, np.full_like(m, F32(0.285112679004669189453125)))
    t = fma32(t, x2h, np.full_like(m, F32(0.400007992982864379882812)))
    sh, sl = _mul_f2f(np.full_like(m, F32(0.69314718246459960938)), np.full_like(m, F32(-1.904654323148236017e-09)), e)
    sh, sl = _add_f2f2(sh, sl, xh * F32(2), xl * F32(2))
    ph, pl = _mul_f2f2(x2h, x2l, xh, xl)
    qh, ql = _mul_f2f(x2h, x2l, t)
    qh, ql = _add2_f2f2(qh, ql, np.full_like(m, F32(0.66666662693023681640625)), np.full_like(m, F32(3.69183861259614332084311e-09)))
    rh, rl = _mul_f2f2(ph, pl, qh, ql)
    return _add_f2f2(sh, sl, rh, rl)


def _ldexp_steps(x, q):
    """SLEEF's vldexp: x * 2**q by multiplications by powers of two (each rounded)."""
    q = q.astype(np.int32)
    m = q >> 31
    m = (((m + q) >> 6) - m) << 4
    q = q - (m << 2)
    m = m + 0x7F
    m = np.where(m > 0, m, 0)
    m = np.where(m > 0xFF, 0xFF, m)
    u = (m.astype(np.int32) << 23).view(F32)
    x = x * u * u * u * u
    u = ((q + 0x7F).astype(np.int32) << 23).view(F32)
    return x * u


def _expk(dh, dl):
    u = (dh + dl) * _R_LN2
    with np.errstate(invalid="ignore"):
        q = np.rint(u)
        q = np.where(np.isfinite(q) & (np.abs(q) < 2.0**31), q, -(2.0**31)).astype(np.int32)
    qf = q.astype(F32)
    sh, sl = _add2_f2f(dh, dl, qf * -_L2U)
    sh, sl = _add2_f2f(sh, sl, qf * -_L2L)
    s = sh + sl
    sl = (sh - s) + sl
    sh = s
    u = np.full_like(sh, F32(0.00136324646882712841033936))
    for c in (0.00836596917361021041870117, 0.0416710823774337768554688,
              0.166665524244308471679688, 0.499999850988388061523438):
        u = fma32(u, sh, np.full_like(sh, F32(c)))
    ah, al = _squ_f2(sh, sl)
    ah, al = _mul_f2f(ah, al, u)
    th, tl = _add_f2f2(sh, sl, ah, al)
    th, tl = _add_ff2(np.ones_like(th), th, tl)
    u = _ldexp_steps(th + tl, q)
    return np.where(dh < F32(-104), F32(0), u)


def _mulsign(x, y):
    """x with its sign flipped where y's sign bit is set (SLEEF's vmulsign)."""
    return (x.view(np.uint32) ^ (y.view(np.uint32) & np.uint32(0x80000000))).view(F32)


def sleef_powf(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """SLEEF's xpowf (1.0 ulp), elementwise on float32 arrays of one shape."""
    x = np.asarray(x, dtype=F32)
    y = np.asarray(y, dtype=F32)
    x, y = np.broadcast_arrays(x, y)
    shape = x.shape
    x = x.reshape(-1)
    y = y.reshape(-1)
    with np.errstate(all="ignore"):
        ay = np.abs(y)
        yisint = (np.trunc(y) == y) | (ay > F32(1 << 24))
        ti = np.where(np.isfinite(y) & (ay < 2.0**31), np.trunc(y), -(2.0**31)).astype(np.int32)
        yisodd = ((ti & 1) == 1) & yisint & (ay < F32(1 << 24))
        lh, ll = _logk(np.abs(x))
        mh, ml = _mul_f2f(lh, ll, y)
        r = _expk(mh, ml)
        r = np.where(np.isnan(r), F32(np.inf), r)
        sgn = np.where(x > 0, F32(1), np.where(yisint, np.where(yisodd, F32(-1), F32(1)), F32(np.nan)))
        r = r * sgn
        efx = _mulsign(np.abs(x) - F32(1), y)
        yinf = np.where(efx < 0, F32(0), np.where(efx == 0, F32(1), F32(np.inf)))
        r = np.where(np.isinf(y), yinf, r)
        xz = (np.isinf(x)) | (x == 0)
        mag = np.where(np.signbit(y) ^ (x == 0), F32(0), F32(np.inf))
        r = np.where(xz, _mulsign(mag, np.where(yisodd, x, F32(1))), r)
        r = np.where(np.isnan(x) | np.isnan(y), F32(np.nan), r)
        r = np.where((y == 0) | (x == 1), F32(1), r)
    return r.astype(F32).reshape(shape)
