"""float32 `pow` as PyTorch's CPU kernel computes it, bit for bit, in NumPy.

ATen's vectorised pow loop (tensor ** tensor, and tensor ** scalar for exponents other than
0, 1, 2, 3, -1, -2, 0.5, -0.5) calls SLEEF's `powf` with 1.0-ulp accuracy on 16 (AVX512) or
8 (AVX2) lanes; both builds use fused multiply-adds and give the same bits. SLEEF's algorithm
is public: log|x| in double-float (a float pair, hi + lo), times y, then exp of the pair.
This module follows that algorithm in float32 NumPy arithmetic (each step rounded the way
the vector instructions round) with an exact float32 fused multiply-add emulated in float64
(`fma32`). The elements the vector loop does not reach (a contiguous run's last n % 32, or
n % 16 on AVX2; every element of a strided loop) go through the C library's `powf` instead;
`pow32` takes that split from the caller.
"""

from __future__ import annotations

import math

import numpy as np

from . import hooks
from .vecloop import split_loop, vec_step

F32 = np.float32
_ODD = np.int64(1)
_LOW28 = np.int64(0x0FFFFFFF)
_SMALL = 256  # elements up to which fma32's check of midpoints works on whole arrays


_FEW = 16  # elements up to which `fma32_few` computes in Python floats
_MID = float(1 << 25)  # m * 2**25 integral (m of frexp): at most 25 significant bits


def fma32_few(a: np.ndarray, b: float | np.ndarray, c: np.ndarray) -> np.ndarray | None:
    """`fma32(a, b, c)` of a few elements (a and c float32 arrays of one shape, b a float32
    number or an array of that shape) in Python floats: each float64 sum a * b + c rounded to
    float32 once, as fma32 does where the sum is off a float32 midpoint's bits or exact there
    (its two-sum error zero); None where a sum is not finite or was rounded on a midpoint
    (fma32 decides)."""
    frexp = math.frexp
    out = []
    cs = c.reshape(-1).tolist()
    if type(b) is np.ndarray:
        pairs = zip((x * z for x, z in zip(a.reshape(-1).tolist(), b.reshape(-1).tolist())), cs)
    else:
        pairs = zip((x * b for x in a.reshape(-1).tolist()), cs)
    for p, y in pairs:
        s = p + y
        if s - s != 0:
            return None  # (inf or NaN)
        if (frexp(s)[0] * _MID).is_integer():
            v = s - p
            if (p - (s - v)) + (y - v) != 0:
                return None
        out.append(s)
    return np.array(out, np.float64).astype(F32).reshape(a.shape)


def fma32(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a * b + c rounded once to float32 (float32 inputs), exactly as a hardware FMA.

    a * b is exact in float64, and so is its float64 sum with c unless that sum is rounded.
    Rounding the float64 sum again to float32 is then right except where the float64 sum
    lands exactly on a float32 halfway point (or is a float32 subnormal with zero low bits)
    while the exact sum is not there: for those few, the rounding error of the float64 sum
    is recovered exactly (two-sum) and the sum is moved one float64 step towards the exact
    value (rounding to odd), which makes the final rounding a single correct one."""
    a = np.asarray(a, dtype=F32)
    s = a.astype(np.float64)
    s *= b
    s += c
    flat = s.reshape(-1)
    # halfway between two float32 values: the 29 bits below float32's last are 1000...0;
    # a float32 subnormal's halfway points also have those low 28 bits zero.
    cand = (flat.view(np.int64) & _LOW28) == 0
    if not cand.any():
        return s.astype(F32)
    shape = s.shape
    if flat.size <= _SMALL:
        # A small array: the sum's error for every element, by broadcasting arithmetic (a few
        # NumPy calls, none of `broadcast_to`'s Python), the same two-sum as below.
        p = a.astype(np.float64) * np.asarray(b, dtype=F32)
        with np.errstate(all="ignore"):
            v = s - p
            e = (p - (s - v)) + (np.asarray(c, dtype=F32).astype(np.float64) - v)
        e = e.reshape(-1)
        # a candidate's last bit is 0 (its 28 low bits are); e is finite or NaN (a float32
        # product and sum cannot overflow float64: NaN comes only from inf or NaN operands)
        fix = cand & (e != 0) & (e == e)
        if not fix.any():
            return s.astype(F32)
        bits = flat.view(np.int64)
        up = (e.view(np.int64) ^ bits) >= 0  # e on the side away from zero
        bits = bits + fix * ((up << 1) - 1)
        return bits.view(np.float64).astype(F32).reshape(shape)
    count = np.count_nonzero(cand)
    ab = np.broadcast_to(a, shape).reshape(-1)
    bb = np.broadcast_to(np.asarray(b, dtype=F32), shape).reshape(-1)
    cc = np.broadcast_to(np.asarray(c, dtype=F32), shape).reshape(-1)
    if count * 8 < flat.size:  # few: recover the error of those alone
        idx = np.flatnonzero(cand)
        ab, bb, cc, sm = ab[idx], bb[idx], cc[idx], flat[idx]
    else:
        idx, sm = None, flat
    p = ab.astype(np.float64) * bb
    cc = cc.astype(np.float64)
    with np.errstate(all="ignore"):
        v = sm - p
        e = (p - (sm - v)) + (cc - v)
    bits = sm.view(np.int64)
    fix = (e != 0) & ((bits & _ODD) == 0) & np.isfinite(e)
    if idx is None:
        fix &= cand
    if np.any(fix):
        up = (e.view(np.int64) ^ bits) >= 0  # e on the side away from zero
        bits = bits + fix * np.where(up, np.int64(1), np.int64(-1))
        if idx is None:
            flat = bits.view(np.float64)
        else:
            flat[idx] = bits.view(np.float64)
    return flat.astype(F32).reshape(shape)


def _prod_err(a, b, s):
    """fma(a, b, -s) where s is the float32 product a * b: that error is exact in float64 and
    fits a float32 (or rounds once into the subnormals), so no halfway check is needed."""
    p = a.astype(np.float64)
    p *= b
    p -= s
    return p.astype(F32)


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
    return s, fma32(xl, y, _prod_err(xh, y, s))


def _mul_f2f2(xh, xl, yh, yl):
    s = xh * yh
    return s, fma32(xh, yl, fma32(xl, yh, _prod_err(xh, yh, s)))


def _squ_f2(xh, xl):
    s = xh * xh
    return s, fma32(xh + xh, xl, _prod_err(xh, xh, s))


def _div_f2f2(nh, nl, dh, dl):
    t = F32(1) / dh
    s = nh * t
    u = _prod_err(t, nh, s)
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
    sh, sl = _mul_f2f(
        np.full_like(m, F32(0.69314718246459960938)),
        np.full_like(m, F32(-1.904654323148236017e-09)),
        e,
    )
    sh, sl = _add_f2f2(sh, sl, xh * F32(2), xl * F32(2))
    ph, pl = _mul_f2f2(x2h, x2l, xh, xl)
    qh, ql = _mul_f2f(x2h, x2l, t)
    qh, ql = _add2_f2f2(
        qh,
        ql,
        np.full_like(m, F32(0.66666662693023681640625)),
        np.full_like(m, F32(3.69183861259614332084311e-09)),
    )
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
    for c in (
        0.00836596917361021041870117,
        0.0416710823774337768554688,
        0.166665524244308471679688,
        0.499999850988388061523438,
    ):
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


BLOCK = 1 << 16  # elements a block: the temporaries (a dozen float64 arrays) stay small


def sleef_powf(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """SLEEF's xpowf (1.0 ulp), elementwise on float32 arrays (broadcast), block by block."""
    x, y = np.broadcast_arrays(np.asarray(x, dtype=F32), np.asarray(y, dtype=F32))
    shape = x.shape
    x = x.reshape(-1)
    y = y.reshape(-1)
    out = np.empty(x.size, dtype=F32)
    for i in range(0, x.size, BLOCK):
        if i:
            hooks.observer.check_clock()  # a block takes tens of ms: the time limit between
        out[i : i + BLOCK] = _powf_block(x[i : i + BLOCK], y[i : i + BLOCK])
    return out.reshape(shape)


def _powf_block(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        ay = np.abs(y)
        yisint = (np.trunc(y) == y) | (ay > F32(1 << 24))
        ti = np.where(np.isfinite(y) & (ay < 2.0**31), np.trunc(y), -(2.0**31)).astype(np.int32)
        yisodd = ((ti & 1) == 1) & yisint & (ay < F32(1 << 24))
        lh, ll = _logk(np.abs(x))
        mh, ml = _mul_f2f(lh, ll, y)
        r = _expk(mh, ml)
        r = np.where(np.isnan(r), F32(np.inf), r)
        sgn = np.where(
            x > 0, F32(1), np.where(yisint, np.where(yisodd, F32(-1), F32(1)), F32(np.nan))
        )
        r = r * sgn
        efx = _mulsign(np.abs(x) - F32(1), y)
        yinf = np.where(efx < 0, F32(0), np.where(efx == 0, F32(1), F32(np.inf)))
        r = np.where(np.isinf(y), yinf, r)
        xz = (np.isinf(x)) | (x == 0)
        mag = np.where(np.signbit(y) ^ (x == 0), F32(0), F32(np.inf))
        r = np.where(xz, _mulsign(mag, np.where(yisodd, x, F32(1))), r)
        r = np.where(np.isnan(x) | np.isnan(y), F32(np.nan), r)
        r = np.where((y == 0) | (x == 1), F32(1), r)
    return r.astype(F32)


# ---------------------------------------------------------------------------------------
# Where ATen's loop is vectorised, and what its scalar remainder computes.

_LIBM: dict = {}


def _libm_function(name: str, ctype: str):
    """The C library's `name` (powf, pow) of two `ctype` (ctypes' c_float, c_double) giving
    one, or None where it cannot be called."""
    if name not in _LIBM:
        _LIBM[name] = None
        try:
            import ctypes
            import ctypes.util

            lib = ctypes.util.find_library("m")
            if lib:
                f = getattr(ctypes.CDLL(lib), name)
                t = getattr(ctypes, ctype)
                f.restype = t
                f.argtypes = [t, t]
                _LIBM[name] = f
        except (OSError, AttributeError):
            pass
    return _LIBM[name]


def _libm_powf():
    """The C library's powf (what std::pow(float, float) calls), or None where unavailable."""
    return _libm_function("powf", "c_float")


SCALAR_CALLS = 4096  # at most this many powf calls one by one; more go through float64


def scalar_powf(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """std::pow(float, float) element by element: the C library's powf, called one element at
    a time for up to SCALAR_CALLS elements (a loop's remainder is at most 31); otherwise, or
    where it cannot be called, the double-precision power rounded once (glibc's powf differs
    from that in under 0.1% of inputs)."""
    x = np.asarray(x, dtype=F32).reshape(-1)
    y = np.asarray(y, dtype=F32).reshape(-1)
    f = _libm_powf() if x.size <= SCALAR_CALLS else None
    if f is None:
        return scalar_pow_double(x, y.astype(np.float64))
    return np.fromiter((f(a, b) for a, b in zip(x.tolist(), y.tolist())), F32, x.size)


def _libm_pow():
    """The C library's pow (what std::pow(double, double) calls), or None where unavailable."""
    return _libm_function("pow", "c_double")


def scalar_pow64(x: np.ndarray, p: float) -> np.ndarray:
    """std::pow(double, double) element by element: the C library's pow for up to
    SCALAR_CALLS elements (NumPy's float64 power differs from it in the last bit for a few
    percent of inputs); beyond that, or where it cannot be called, NumPy's."""
    x = np.asarray(x, dtype=np.float64).reshape(-1)
    f = _libm_pow() if x.size <= SCALAR_CALLS else None
    if f is None:
        with np.errstate(all="ignore"):
            return np.power(x, np.float64(p))
    q = float(p)
    return np.fromiter((f(a, q) for a in x.tolist()), np.float64, x.size)


def scalar_pow_double(x: np.ndarray, p) -> np.ndarray:
    """std::pow(double(x), double(p)) rounded to float32. NumPy's float64 power is not the C
    library's (it differs in the last double bit for a few percent of inputs), but rounding
    to float32 hides that except when the two doubles straddle a float32 rounding boundary
    (odds about 2**-29 an element)."""
    x = np.asarray(x, dtype=F32).reshape(-1).astype(np.float64)
    with np.errstate(all="ignore"):
        return np.power(x, np.asarray(p, dtype=np.float64)).astype(F32)


def _vector_mask(shape: tuple, strides_list: list) -> np.ndarray | None:
    """Which output elements ATen's vectorised loop computes (True) and which its scalar
    remainder does, for a C-contiguous output of `shape` and inputs with element strides
    (0 on broadcast dimensions); None when every element is vectorised."""
    dims = [(n, [s[i] for s in strides_list]) for i, n in enumerate(shape) if n != 1]
    if not dims:
        return np.zeros(shape, dtype=bool)  # one element: the scalar loop
    # coalesce from the innermost dimension outwards, as TensorIterator does
    out = [dims[-1]]
    for n, st in reversed(dims[:-1]):
        inner_n, inner_st = out[-1]
        if all(a == b * inner_n for a, b in zip(st, inner_st)):
            out[-1] = (n * inner_n, inner_st)
        else:
            out.append((n, st))
    inner_n, inner_st = out[0]
    n_scalar_inputs = sum(1 for s in inner_st if s == 0)
    if any(s not in (0, 1) for s in inner_st) or n_scalar_inputs == len(inner_st):
        return np.zeros(shape, dtype=bool)
    step = vec_step()
    vec = inner_n // step * step
    if vec == inner_n:
        return None
    total = int(np.prod(shape))
    return (np.arange(total) % inner_n < vec).reshape(shape)


def _bstrides(a_shape: tuple, shape: tuple) -> list:
    full = (1,) * (len(shape) - len(a_shape)) + tuple(a_shape)
    st, acc = [], 1
    for n in reversed(full):
        st.append(acc if n != 1 else 0)
        acc *= n
    st.reverse()
    return [s if full[i] == shape[i] else 0 for i, s in enumerate(st)]


def pow_tensor_tensor(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """float32 `x ** y` (both tensors, broadcast) as PyTorch's CPU kernel: SLEEF's powf
    where the loop is vectorised, the C library's powf on the remainder."""
    shape = np.broadcast_shapes(np.shape(x), np.shape(y))
    if (
        np.shape(x) == np.shape(y) == shape
        and len(shape) > 1
        and not (np.asarray(x).flags.c_contiguous and np.asarray(y).flags.c_contiguous)
    ):  # views of one shape: TensorIterator's loops over their rows
        with np.errstate(all="ignore"):
            return split_loop(
                sleef_powf, scalar_powf, np.asarray(x, dtype=F32), np.asarray(y, dtype=F32)
            )
    xb = np.broadcast_to(np.asarray(x, dtype=F32), shape)
    yb = np.broadcast_to(np.asarray(y, dtype=F32), shape)
    out = sleef_powf(xb, yb)
    mask = _vector_mask(shape, [_bstrides(np.shape(x), shape), _bstrides(np.shape(y), shape)])
    if mask is not None:
        rest = ~mask
        out[rest] = scalar_powf(xb[rest], yb[rest])
    return out


def pow_tensor_scalar(x: np.ndarray, p: float) -> np.ndarray:
    """float32 `x ** p` for a Python number p that ATen does not special-case: SLEEF's powf
    with p rounded to float32 where vectorised, std::pow(double, double) on the rest."""
    x = np.asarray(x, dtype=F32)
    if x.ndim > 1 and not x.flags.c_contiguous:  # a view: TensorIterator's loops over its rows
        q = float(p)
        with np.errstate(all="ignore"):
            return split_loop(
                lambda a: sleef_powf(a, np.full(a.shape, F32(q))),
                lambda a: scalar_pow_double(a, q),
                x,
            )
    out = sleef_powf(x, np.full(x.shape, F32(p)))
    mask = _vector_mask(x.shape, [_bstrides(x.shape, x.shape)])
    if mask is not None:
        rest = ~mask
        out[rest] = scalar_pow_double(x[rest], float(p))
    return out
