"""Special functions on NumPy float64 arrays (no SciPy): the log-gamma function and its
derivatives (digamma, trigamma, polygamma, Hurwitz zeta), the inverse error functions, the
scaled complementary error function, and the modified Bessel functions of order 0 and 1.

Each follows the algorithm PyTorch's CPU kernels use where its float64 values are to be
matched (digamma, trigamma, polygamma by zeta: the same steps in the same order), and is
otherwise written to be accurate to a few ulp: the inverses by Halley's iteration on the
error functions from a rough start, the Bessel functions by their power series (all terms
positive) below |x| = 20 and their asymptotic series above. Values at the poles and outside
the domains are PyTorch's (inf, -inf, nan as its kernels give them).
"""

from __future__ import annotations

import math

import numpy as np

from . import hooks

_PI = math.pi
_2_SQRTPI = 2 / math.sqrt(math.pi)

# Bernoulli numbers B_2 ... B_24 as (numerator, denominator), for the asymptotic series of
# digamma and zeta (the floats below are the exact quotients correctly rounded: Python's
# division of integers).
_B = [
    (1, 6),
    (-1, 30),
    (1, 42),
    (-1, 30),
    (5, 66),
    (-691, 2730),
    (7, 6),
    (-3617, 510),
    (43867, 798),
    (-174611, 330),
    (854513, 138),
    (-236364091, 2730),
]
# (2k)! / B_2k: the divisors of the Euler-Maclaurin corrections of the zeta sum.
_ZETA_DIV = [math.factorial(2 * k + 2) * d / n for k, (n, d) in enumerate(_B)]
# B_2k / (2k), k = 7 ... 1: digamma's asymptotic series in 1/x^2 (Horner's order).
_PSI_SERIES = [n / (d * (2 * k + 2)) for k, (n, d) in enumerate(_B[:7])][::-1]
_PSI_10 = 2.25175258906672110764  # digamma(10)


def _errstate() -> np.errstate:
    return np.errstate(all="ignore")


_CHUNK = 1 << 15


def _map(fn: object, x: np.ndarray) -> np.ndarray:
    """A scalar function (math's, the C library's) over a float array, chunk by chunk with
    the run's time limit checked between chunks (a call per element is a microsecond)."""
    values = x.reshape(-1).tolist()
    out: list[float] = []
    for i in range(0, len(values), _CHUNK):
        out += [fn(v) for v in values[i : i + _CHUNK]]  # type: ignore[operator]
        hooks.observer.check_clock()
    return np.array(out, dtype=np.float64).reshape(x.shape)


# --- log-gamma and its derivatives ----------------------------------------------------------


def _lgamma1(v: float) -> float:
    if math.isnan(v):
        return v
    if math.isinf(v):
        return math.inf
    try:
        return math.lgamma(v)
    except (ValueError, OverflowError):
        return math.inf  # the poles 0, -1, -2, ...


_LIBM: list = []


def _libm() -> object:
    """The C library's lgamma (more accurate than Python's: within 2 ulp of PyTorch's SLEEF
    lgamma on positive x, where Python's is up to tens of ulp off), or None without one."""
    if not _LIBM:
        fn = None
        try:
            import ctypes
            import ctypes.util

            name = ctypes.util.find_library("m")
            if name:
                fn = ctypes.CDLL(name).lgamma
                fn.restype, fn.argtypes = ctypes.c_double, [ctypes.c_double]
        except (OSError, AttributeError):
            fn = None
        _LIBM.append(fn)
    return _LIBM[0]


def lgamma(x: np.ndarray) -> np.ndarray:
    """log |Gamma(x)| in float64: inf at the poles (0 and the negative integers) and at
    +-inf."""
    fn = _libm()
    return _map(_lgamma1 if fn is None else fn, np.asarray(x, np.float64))


def _factorial(n: int) -> float:
    """exp(lgamma(n + 1)), as PyTorch's polygamma computes n! (one or two ulp off)."""
    f64 = _libm()
    try:
        return math.exp(f64(n + 1.0) if f64 is not None else math.lgamma(n + 1.0))  # type: ignore[operator]
    except OverflowError:
        return math.inf


def _rounded(fn: object, v: np.ndarray) -> np.ndarray:
    """A libm function of a float32 array as C's float version gives it (correctly rounded
    from float64), or of a float64 array."""
    if v.dtype == np.float32:
        return fn(v.astype(np.float64)).astype(np.float32)  # type: ignore[operator]
    return fn(v)  # type: ignore[operator]


def digamma(x: np.ndarray) -> np.ndarray:
    """psi(x) = Gamma'(x) / Gamma(x), in PyTorch's steps and in x's precision (float32 in
    float32 arithmetic, as its float kernel): -inf at +0 and inf at -0, nan at the negative
    integers; below 0 reflected (psi(1 - x) - pi / tan(pi frac(x))); below 10 raised by the
    recurrence psi(x) = psi(x + 1) - 1/x; from 10 the asymptotic series."""
    x = np.asarray(x)
    if x.dtype == np.float16:
        # ATen's float16 kernel: the float kernel's result rounded once (it returned float64)
        return digamma(x.astype(np.float32)).astype(np.float16)
    if x.dtype != np.float32:
        x = x.astype(np.float64)
    f = x.dtype.type
    with _errstate():
        neg = x < 0
        frac = x - np.trunc(x)
        # the reflection term in double (PyTorch's float kernel too: pi is a double there)
        wide = frac.astype(np.float64)
        reflect = np.where(neg, (_PI / np.tan(_PI * wide)).astype(x.dtype), f(0))
        z = np.where(neg, f(1) - x, x)
        acc = np.zeros_like(z)
        for _ in range(10):
            hooks.observer.check_clock()  # ten passes over a large array: seconds
            low = z < 10
            if not low.any():
                break
            acc = np.where(low, acc - f(1) / z, acc)
            z = np.where(low, z + f(1), z)
        # z can stay below 10 only for x = 0 (handled below) and nan
        zz = f(1) / (z * z)
        poly = np.zeros_like(z)
        for c in _PSI_SERIES:
            poly = poly * zz + f(c)
        y = np.where(z < f(1e17), zz * poly, f(0))
        out = acc + _rounded(np.log, z) - f(0.5) / z - y
        out = np.where(z == 10, acc + f(_PSI_10), out)
        out = np.where(neg, out - reflect, out)
        out = np.where(neg & (x == np.trunc(x)), f(np.nan), out)
        return np.where(x == 0, np.copysign(f(np.inf), -x), out).astype(x.dtype)


def trigamma(x: np.ndarray) -> np.ndarray:
    """psi'(x), in PyTorch's steps: below 1/2 reflected (pi^2 / sin^2(pi x) - psi'(1 - x)),
    six steps of the recurrence, then the asymptotic series to its 1/z^7 term: PyTorch's
    trigamma, and so this one, is accurate to about 1e-10 relative (its values to the bit).
    A float32 x is computed in float32 steps, as PyTorch's float kernel."""
    x = np.asarray(x)
    if x.dtype != np.float32:
        x = x.astype(np.float64)
    f = x.dtype.type
    pi = f(_PI)
    with _errstate():
        low = x < 0.5
        s = _rounded(np.sin, pi * x)
        acc = np.where(low, -(pi * pi) / (s * s), f(0))
        z = np.where(low, f(1) - x, x)
        for _ in range(6):
            hooks.observer.check_clock()
            acc = acc + f(1) / (z * z)
            z = z + f(1)
        ixx = f(1) / (z * z)
        tail = ixx * (f(1 / 6) - ixx * (f(1 / 30) - ixx * f(1 / 42)))
        acc = acc + (f(1) + f(1) / (f(2) * z) + tail) / z
        return np.where(low, -acc, acc)


_MACHEP = 1.11022302462515654042e-16


def zeta(s: np.ndarray, q: np.ndarray, float_first: bool = False) -> np.ndarray:
    """The Hurwitz zeta function sum_k (k + q)^-s of two broadcast arrays, by Euler-Maclaurin
    summation in PyTorch's steps (each element's arithmetic and stopping point are those of
    its scalar loop; the elements go through the loop together): inf at s = 1 and at the
    poles q = 0, -1, ...; nan for s < 1 and for q < 0 with s not whole. The direct sum runs
    until q + k > 9, so q far below 0 is refused (a limit) before any work. `float_first`:
    the first term q^-s as ATen's float instantiation computes it (std::pow of two floats,
    the C library's powf; s and q float32 values), the rest in double as there."""
    from ..base import limits

    s, q = np.broadcast_arrays(np.asarray(s, np.float64), np.asarray(q, np.float64))
    shape = s.shape
    s, q = s.reshape(-1), q.reshape(-1)
    out = np.full(s.shape, np.nan)
    with _errstate():
        pole = (q <= 0) & (q == np.floor(q))
        out[s == 1] = np.inf
        out[(s > 1) & pole] = np.inf
        ok = (s > 1) & ~((q <= 0) & (pole | (s != np.floor(s))))
        if not ok.any():
            return out.reshape(shape)
        si, qi = s[ok], q[ok]
        # below q = 0 each element's direct sum takes about -q terms more (q = +inf, which
        # sums to nan as in PyTorch, adds none: -q there is not a count)
        lowest = float(qi.min())
        extra = int(math.ceil(-lowest)) if lowest < 0 else 0
        limits.TENSOR_ELEMENTS.check(
            si.size * extra, "the terms of zeta's direct sums (q far below 0)"
        )
        if float_first:
            from .powf32 import scalar_powf

            total = scalar_powf(qi, -si).astype(np.float64).reshape(qi.shape)
        else:
            total = qi**-si
        a = qi.copy()
        b = np.zeros_like(qi)
        live = np.ones(qi.shape, dtype=bool)  # still summing directly
        res = np.full(qi.shape, np.nan)
        done = np.zeros(qi.shape, dtype=bool)
        i = 0
        while True:
            go = live & ((i < 9) | (a <= 9))
            if not go.any():
                break
            i += 1
            a = np.where(go, a + 1, a)
            b = np.where(go, a**-si, b)
            total = np.where(go, total + b, total)
            conv = go & (np.abs(b / total) < _MACHEP)
            res[conv] = total[conv]
            done |= conv
            live &= ~conv
            live &= go  # those whose loop condition failed go on to the corrections
            hooks.observer.check_clock()  # each pass: several over the array
        rest = ~done
        w = a
        total = np.where(rest, total + b * w / (si - 1), total)
        total = np.where(rest, total - 0.5 * b, total)
        fac = np.ones_like(qi)
        k = 0.0
        for div in _ZETA_DIV:
            hooks.observer.check_clock()
            fac = fac * (si + k)
            b = b / w
            t = fac * b / div
            total = np.where(rest, total + t, total)
            conv = rest & (np.abs(t / total) < _MACHEP)
            res[conv] = total[conv]
            rest &= ~conv
            k += 1
            fac = fac * (si + k)
            b = b / w
            k += 1
        res[rest] = total[rest]
        out[ok] = res
    return out.reshape(shape)


def polygamma(n: int, x: np.ndarray) -> np.ndarray:
    """The n-th derivative of digamma: digamma and trigamma for n = 0, 1, else
    (-1)^(n+1) n! zeta(n + 1, x), as PyTorch computes it."""
    if n == 0:
        return digamma(x)
    if n == 1:
        return trigamma(x)
    sign = 1.0 if n % 2 else -1.0
    with _errstate():
        return sign * _factorial(n) * zeta(np.float64(n + 1), x)


# --- error functions and their inverses -----------------------------------------------------


def erf(x: np.ndarray) -> np.ndarray:
    return _map(math.erf, np.asarray(x, np.float64))


def erfc(x: np.ndarray) -> np.ndarray:
    return _map(math.erfc, np.asarray(x, np.float64))


def _start(logc: np.ndarray) -> np.ndarray:
    """A rough |erfinv| (relative error below 0.5%) from log(1 - y^2) (Winitzki's formula)."""
    a = 0.147
    t = 2 / (_PI * a) + logc / 2
    return np.sqrt(np.maximum(np.sqrt(t * t - logc / a) - t, 0.0))


def _halley(x: np.ndarray, resid: object, steps: int = 3) -> np.ndarray:
    """Halley's iteration on f(x) = erf-like(x) - target, f' = +-2/sqrt(pi) exp(-x^2),
    f'' = -2x f' (`resid(x)` returns f(x) / f'(x))."""
    for _ in range(steps):
        hooks.observer.check_clock()
        r = resid(x)  # type: ignore[operator]
        x = x - r / (1 + x * r)
    return x


def erfcinv(c: np.ndarray) -> np.ndarray:
    """x with erfc(x) = c, for c in (0, 2); +inf at 0, -inf at 2, nan outside [0, 2]. For
    c <= 1 the iteration solves erfc(x) = c itself (relative accuracy in the tail)."""
    c = np.asarray(c, dtype=np.float64)
    with _errstate():
        upper = c > 1
        t = np.where(upper, 2 - c, c)  # in (0, 1]; exact for c in [1/2, 2]
        t = np.where((t > 0) & (t <= 1), t, 0.5)
        x = _start(np.log(t) + np.log(2 - t))
        ok = x > 0

        def resid(v: np.ndarray) -> np.ndarray:
            return -(erfc(v) - t) / (_2_SQRTPI * np.exp(-v * v))

        x = np.where(ok, _halley(np.where(ok, x, 1.0), resid), 0.0)
        x = np.where(upper, -x, x)
        x = np.where(c == 0, np.inf, np.where(c == 2, -np.inf, x))
        return np.where((c >= 0) & (c <= 2), x, np.nan)


def erfinv(y: np.ndarray) -> np.ndarray:
    """x with erf(x) = y, for y in (-1, 1); +-inf at +-1, nan outside; odd (-0 for -0)."""
    y = np.asarray(y, dtype=np.float64)
    with _errstate():
        a = np.abs(y)
        small = a <= 0.5
        ys = np.where(small, a, 0.25)
        x0 = _start(np.log1p(-ys * ys))

        def resid(v: np.ndarray) -> np.ndarray:
            return (erf(v) - ys) / (_2_SQRTPI * np.exp(-v * v))

        xs = np.where(ys > 0, _halley(np.where(ys > 0, x0, 1.0), resid), 0.0)
        big = np.where(small, 1.0, 1 - a)  # exact (Sterbenz)
        xb = erfcinv(big)
        x = np.where(small, xs, xb)
        x = np.where(a == 1, np.inf, x)
        x = np.copysign(x, y)
        x = np.where(a == 0, y, x)
        return np.where(a <= 1, x, np.nan)


def ndtri(p: np.ndarray) -> np.ndarray:
    """The standard normal quantile: sqrt(2) erfinv(2p - 1), from erfcinv(2p) below 1/2."""
    p = np.asarray(p, dtype=np.float64)
    with _errstate():
        low = p < 0.25  # above, 2p - 1 is exact (Sterbenz) and erfinv keeps its precision
        out = np.where(low, -math.sqrt(2) * erfcinv(np.where(low, 2 * p, 1.0)), 0.0)
        hi = math.sqrt(2) * erfinv(np.where(low, 0.0, 2 * p - 1))
        return np.where(low, out, hi)


def _erfcx_asymptotic(x: np.ndarray) -> np.ndarray:
    # 1/(x sqrt(pi)) * sum_k (-1)^k (2k-1)!! / (2x^2)^k, for x >= 12 (terms below 1e-17 by
    # k = 40)
    u = 1 / (2 * x * x)
    term = np.ones_like(x)
    total = np.ones_like(x)
    for k in range(1, 40):
        term = -term * (2 * k - 1) * u
        total = total + term
    return total / (x * math.sqrt(_PI))


def _exp_square(x: np.ndarray) -> np.ndarray:
    """exp(x^2) without the rounding error of x^2 (x = hi + lo split, exp(lo-part) by its
    first terms)."""
    hi = np.float64(134217729.0) * x
    hi = hi - (hi - x)
    lo = x - hi
    sq = hi * hi
    err = 2 * hi * lo + lo * lo
    return np.exp(sq) * (1 + err + err * err / 2)


def erfcx(x: np.ndarray) -> np.ndarray:
    """exp(x^2) erfc(x), without its overflow for large x."""
    x = np.asarray(x, dtype=np.float64)
    with _errstate():
        big = x >= 12
        xb = np.where(big, x, 12.0)
        asym = _erfcx_asymptotic(xb)
        xm = np.where(big, 0.0, x)
        mid = _exp_square(xm) * erfc(xm)
        # the ends as PyTorch's calc_erfcx: 0 at +inf, inf at -inf (exp(inf) * erfc(-inf))
        return np.where(big, asym, np.where(x == np.inf, 0.0, np.where(x == -np.inf, np.inf, mid)))


# --- modified Bessel functions of the first kind, orders 0 and 1 ----------------------------


def _bessel_series(a: np.ndarray, order: int) -> np.ndarray:
    """sum_k (a/2)^(2k + order) / (k! (k + order)!), for 0 <= a <= 20 (the terms shrink below
    1e-17 of the sum by k = 100)."""
    q = (a / 2) ** 2
    term = (a / 2) ** order
    total = term.copy()
    for k in range(1, 100):
        hooks.observer.check_clock()  # 100 passes over a large array: seconds
        term = term * q / (k * (k + order))
        total = total + term
    return total


def _bessel_asymptotic(a: np.ndarray, order: int) -> np.ndarray:
    """I_order(a) exp(-a), for a >= 20: 1/sqrt(2 pi a) sum_k (-1)^k a_k(order) / a^k (the
    terms fall below 1e-17 of the sum by k = 40)."""
    mu = 4.0 * order * order
    term = np.ones_like(a)
    total = np.ones_like(a)
    for k in range(1, 60):
        hooks.observer.check_clock()
        term = -term * (mu - (2 * k - 1) ** 2) / (k * 8 * a)
        total = total + term
    return total / np.sqrt(2 * _PI * a)


def bessel_i(x: np.ndarray, order: int, scaled: bool) -> np.ndarray:
    """I_0 / I_1 of x (I_1 odd), times exp(-|x|) when `scaled`."""
    x = np.asarray(x, dtype=np.float64)
    with _errstate():
        a = np.abs(x)
        small = a <= 20
        s = _bessel_series(np.where(small, a, 0.0), order)
        if scaled:
            s = s * np.exp(-a)
        big = _bessel_asymptotic(np.where(small, 20.0, a), order)
        if not scaled:
            # exp(a) overflows past 709.78 while I(a) does not until about 713.9
            half = np.exp(a / 2)
            big = big * half * half
        out = np.where(small, s, big)
        out = np.where(np.isinf(a), 0.0 if scaled else np.inf, out)
        if order == 1:
            out = np.copysign(out, x)
        return np.where(np.isnan(x), np.nan, out)


# --- ATen's calc_i0 (Cephes' i0), as its kernels compiled with contraction compute it -------

# Cephes' Chebyshev coefficients of exp(-x) I0(x) on [0, 8] and of exp(-x) sqrt(x) I0(x) on
# [8, inf) (in 32 / x - 2), the tables ATen's Math.h holds (public constants of the Cephes
# Math Library); a float kernel uses them rounded to float.
_I0_A = (
    -4.41534164647933937950e-18, 3.33079451882223809783e-17, -2.43127984654795469359e-16,
    1.71539128555513303061e-15, -1.16853328779934516808e-14, 7.67618549860493561688e-14,
    -4.85644678311192946090e-13, 2.95505266312963983461e-12, -1.72682629144155570723e-11,
    9.67580903537323691224e-11, -5.18979560163526290666e-10, 2.65982372468238665035e-9,
    -1.30002500998624804212e-8, 6.04699502254191894932e-8, -2.67079385394061173391e-7,
    1.11738753912010371815e-6, -4.41673835845875056359e-6, 1.64484480707288970893e-5,
    -5.75419501008210370398e-5, 1.88502885095841655729e-4, -5.76375574538582365885e-4,
    1.63947561694133579842e-3, -4.32430999505057594430e-3, 1.05464603945949983183e-2,
    -2.37374148058994688156e-2, 4.93052842396707084878e-2, -9.49010970480476444210e-2,
    1.71620901522208775349e-1, -3.04682672343198398683e-1, 6.76795274409476084995e-1,
)  # fmt: skip
_I0_B = (
    -7.23318048787475395456e-18, -4.83050448594418207126e-18, 4.46562142029675999901e-17,
    3.46122286769746109310e-17, -2.82762398051658348494e-16, -3.42548561967721913462e-16,
    1.77256013305652638360e-15, 3.81168066935262242075e-15, -9.55484669882830764870e-15,
    -4.15056934728722208663e-14, 1.54008621752140982691e-14, 3.85277838274214270114e-13,
    7.18012445138366623367e-13, -1.79417853150680611778e-12, -1.32158118404477131188e-11,
    -3.14991652796324136454e-11, 1.18891471078464383424e-11, 4.94060238822496958910e-10,
    3.39623202570838634515e-9, 2.26666899049817806459e-8, 2.04891858946906374183e-7,
    2.89137052083475648297e-6, 6.88975834691682398426e-5, 3.36911647825569408990e-3,
    8.04490411014108831608e-1,
)  # fmt: skip


def fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a * b + c rounded once, in the arrays' dtype (float32 or float64): what a kernel
    compiled with contraction computes. float32: the product is exact in float64, the sum
    rounded to odd there, then to float32 (so rounded once)."""
    from .fma64 import _fma64, _two_sum

    if a.dtype == np.float64:
        return np.asarray(_fma64(a, b, c), np.float64)
    p = a.astype(np.float64) * b.astype(np.float64)
    s, e = _two_sum(p, np.asarray(c, np.float64))
    even = (s.view(np.int64) & 1) == 0
    nudge = (e != 0) & even & np.isfinite(s)
    s = np.where(nudge, np.nextafter(s, np.where(e > 0, np.inf, -np.inf)), s)
    return s.astype(np.float32)


def _exp_c(x: np.ndarray) -> np.ndarray:
    """The C library's exp / expf of each element (a scalar kernel's std::exp)."""
    if x.dtype == np.float32:
        from .sleef32 import glibc_expf

        return glibc_expf(x)
    return np.fromiter((_exp1(v) for v in x.tolist()), np.float64, x.size).reshape(x.shape)


def _exp1(v: float) -> float:
    try:
        return math.exp(v)
    except OverflowError:
        return math.inf


# Cephes' Chebyshev coefficients of exp(-x) I1(x) on [0, 8] and of exp(-x) sqrt(x) I1(x) on
# [8, inf), the double tables of ATen's Math.h; its float tables are their last 17 and last 7
# terms (the series cut where float cannot see the rest).
_I1_A = (
    2.77791411276104639959e-18, -2.11142121435816608115e-17, 1.55363195773620046921e-16,
    -1.10559694773538630805e-15, 7.60068429473540693410e-15, -5.04218550472791168711e-14,
    3.22379336594557470981e-13, -1.98397439776494371520e-12, 1.17361862988909016308e-11,
    -6.66348972350202774223e-11, 3.62559028155211703701e-10, -1.88724975172282928790e-9,
    9.38153738649577178388e-9, -4.44505912879632808065e-8, 2.00329475355213526229e-7,
    -8.56872026469545474066e-7, 3.47025130813767847674e-6, -1.32731636560394358279e-5,
    4.78156510755005422638e-5, -1.61760815825896745588e-4, 5.12285956168575772895e-4,
    -1.51357245063125314899e-3, 4.15642294431288815669e-3, -1.05640848946261981558e-2,
    2.47264490306265168283e-2, -5.29459812080949914269e-2, 1.02643658689847095384e-1,
    -1.76416518357834055153e-1, 2.52587186443633654823e-1,
)  # fmt: skip
_I1_B = (
    7.51729631084210481353e-18, 4.41434832307170791151e-18, -4.65030536848935832153e-17,
    -3.20952592199342395980e-17, 2.96262899764595013876e-16, 3.30820231092092828324e-16,
    -1.88035477551078244854e-15, -3.81440307243700780478e-15, 1.04202769841288027642e-14,
    4.27244001671195135429e-14, -2.10154184277266431302e-14, -4.08355111109219731823e-13,
    -7.19855177624590851209e-13, 2.03562854414708950722e-12, 1.41258074366137813316e-11,
    3.25260358301548823856e-11, -1.89749581235054123450e-11, -5.58974346219658380687e-10,
    -3.83538038596423702205e-9, -2.63146884688951950684e-8, -2.51223623787020892529e-7,
    -3.88256480887769039346e-6, -1.10588938762623716291e-4, -9.76109749136146840777e-3,
    7.78576235018280120474e-1,
)  # fmt: skip


def calc_i0(x: np.ndarray) -> np.ndarray:
    """ATen's calc_i0 in x's dtype (finite x): exp(x) * chbevl(x / 2 - 2, A) up to 8, else
    exp(x) * chbevl(32 / x - 2, B) / sqrt(x), |x|; chbevl's step `x * b1 - b2 + c` with its
    product and difference fused (as the AVX2 / AVX512 builds compile it)."""
    return calc_bessel_i(x, 0, False)


def calc_bessel_i(x: np.ndarray, order: int, scaled: bool) -> np.ndarray:
    """ATen's calc_i0 / calc_i0e / calc_i1 / calc_i1e (Cephes' Chebyshev series) in x's dtype,
    float32 or float64: the series in |x| / 2 - 2 up to 8, in 32 / |x| - 2 beyond (divided by
    sqrt(|x|)); unscaled, times the C library's exp(|x|) first; order 1 times |x| on [0, 8]
    and the sign of x. chbevl's step `x * b1 - b2 + c` has its product and difference fused
    (as the AVX2 / AVX512 builds compile it). In pieces, the time limit checked between them."""
    x = np.asarray(x)
    out = np.empty_like(x)
    flat, res = x.reshape(-1), out.reshape(-1)
    step = 1 << 15
    for start in range(0, flat.size, step):
        hooks.observer.tick()
        res[start : start + step] = _calc_bessel_i(flat[start : start + step], order, scaled)
    return out


def _chbevl(y: np.ndarray, table: tuple[float, ...]) -> np.ndarray:
    dt = y.dtype.type
    b0, b1, b2 = np.full_like(y, dt(table[0])), np.zeros_like(y), np.zeros_like(y)
    for c in table[1:]:
        b2, b1 = b1, b0
        b0 = fma(y, b1, -b2) + dt(c)
    return dt(0.5) * (b0 - b2)


def _calc_bessel_i(x: np.ndarray, order: int, scaled: bool) -> np.ndarray:
    dt = x.dtype.type
    a = np.abs(x)
    out = np.full_like(x, np.nan)  # NaN stays NaN (neither branch takes it)
    table_a, table_b = (_I0_A, _I0_B) if order == 0 else (_I1_A, _I1_B)
    if order == 1 and dt is np.float32:
        table_a, table_b = table_a[-17:], table_b[-7:]
    with np.errstate(all="ignore"):
        small = a <= dt(8.0)
        v = a[small]
        if v.size:
            cheb = _chbevl(v / dt(2.0) - dt(2.0), table_a)
            if order == 0:
                out[small] = cheb if scaled else _exp_c(v) * cheb
            else:
                out[small] = cheb * v if scaled else _exp_c(v) * v * cheb
        big = a > dt(8.0)
        v = a[big]
        if v.size:
            cheb = _chbevl(dt(32.0) / v - dt(2.0), table_b)
            out[big] = (cheb if scaled else _exp_c(v) * cheb) / np.sqrt(v)
    if order == 1:
        out = np.where(x < 0, -out, out)
    return out
