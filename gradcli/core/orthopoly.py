"""torch.special's orthogonal polynomials of x and a degree n: chebyshev_polynomial_t / u /
v / w and their shifted forms (of 2x - 1),
hermite_polynomial_h / he, laguerre_polynomial_l, legendre_polynomial_p, as ATen's scalar CPU
kernels compute them in x's dtype (float32 or float64): the degree is n converted to an int
(negative: 0), the values at the edges (|x| = 1, x = 0) given directly, Chebyshev's of high
degree inside (-1, 1) by cos(n acos x) (sin ... / sin acos x), the others by their three-term
recurrence with its product and difference fused (`fma(2x, q, -p)`), stopped where a value
turns NaN. Elementwise over arrays: one step of the recurrence for all the elements that
still need it, the clock checked at each step and the work bounded before it starts.
"""

from __future__ import annotations

import numpy as np

from ..base import limits
from . import hooks
from .bessel import _libm
from .specfun import fma

# hermite's degree beyond which ATen gives NaN (getHermitianLimit)
_HERMITE_LIMIT = {np.dtype(np.float32): 128, np.dtype(np.float64): 512}


def degrees(n: np.ndarray) -> np.ndarray:
    """C's static_cast<int64_t> of n (truncation; NaN and infinities are INT64_MIN on x86)."""
    if n.dtype.kind in "iub":
        return n.astype(np.int64)
    with np.errstate(all="ignore"):
        bad = ~np.isfinite(n) | (np.abs(n) >= 2.0**63)
        return np.where(bad, np.iinfo(np.int64).min, np.trunc(np.where(bad, 0, n))).astype(np.int64)


def _steps(n: np.ndarray, loop: np.ndarray, first: int) -> int:
    top = int(n[loop].max()) if loop.any() else 0
    count = max(0, top - first + 1)
    limits.MULTIPLY_ADDS.check(count * int(loop.sum()), "the polynomial's recurrence steps")
    return count


def _recur(x: np.ndarray, n: np.ndarray, loop: np.ndarray, p0, q0, step, first: int, last):
    """The recurrence r = step(k, p, q) for k = first ... last(n) (inclusive) where `loop`,
    from (p0, q0); an element stops where q is NaN. Returns q (the last r)."""
    xs, ns = x[loop], n[loop]
    p, q = p0(xs), q0(xs)
    count = _steps(last(n), loop, first)
    for i in range(count):
        hooks.observer.tick()
        k = first + i
        on = (k <= last(ns)) & ~np.isnan(q)
        if not on.any():
            break
        r = step(k, xs, p, q)
        p, q = np.where(on, q, p), np.where(on, r, q)
    return q


def _twice(x: np.ndarray) -> np.ndarray:
    return x + x


def _cheb_step(k: int, x: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    return fma(x + x, q, -p)


# Chebyshev's four kinds: the degree past which the trigonometric form is used inside
# (-1, 1) (unshifted, shifted), and the first polynomial from z (x, or 2x - 1 shifted).
_TRIG_FROM = {"t": (6, 6), "u": (8, 6), "v": (8, 6), "w": (8, 4)}
_FIRST = {
    "t": lambda z: z,
    "u": lambda z: z + z,
    "v": lambda z: z + z - z.dtype.type(1),
    "w": lambda z: z + z + z.dtype.type(1),
}


def _odd_sign(n: np.ndarray, v: np.ndarray) -> np.ndarray:
    return np.where(n % 2 == 0, v, -v)


def _edges(kind: str, n: np.ndarray, dt: type) -> tuple[np.ndarray, np.ndarray]:
    """The values at z = 1 and z = -1."""
    one, m, odd = np.ones(n.shape, dt), (n + 1).astype(dt), (n + n + 1).astype(dt)
    at_one = {"t": one, "u": m, "v": one, "w": odd}[kind]
    at_minus = {"t": _odd_sign(n, one), "u": _odd_sign(n, m), "v": _odd_sign(n, odd)}
    return at_one, at_minus.get(kind, _odd_sign(n, one))


def _trig(kind: str, z: np.ndarray, n: np.ndarray, x_pos: np.ndarray) -> np.ndarray:
    dt = z.dtype.type
    a = _libm(z, "acosf")
    if kind == "t":
        return _libm(n.astype(z.dtype) * a, "cosf")
    if kind == "u":
        m = (n + 1).astype(z.dtype)
        s = _libm(a, "sinf")
        safe = np.where(s != 0, s, 1)
        return np.where(s != 0, _libm(m * a, "sinf") / safe, m * _libm(m * a, "cosf") / z)
    half = a / dt(2.0)
    angle = (n.astype(z.dtype) + dt(0.5)) * a
    odd = (n + n + 1).astype(z.dtype)
    if kind == "v":
        ok = _libm(half, "sinf") != dt(1)
        c = _libm(half, "cosf")
        return np.where(ok, _libm(angle, "cosf") / np.where(ok, c, 1), _odd_sign(n, odd))
    c = _libm(half, "cosf")
    ok = c != dt(1)
    s = _libm(half, "sinf")
    fallback = np.where(x_pos, odd, _odd_sign(n, np.ones_like(z)))
    return np.where(ok, _libm(angle, "sinf") / np.where(ok, s, 1), fallback)


def chebyshev(kind: str, shifted: bool, x: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Chebyshev's polynomial of the first to fourth kind (t, u, v, w) of x, or of 2x - 1
    (shifted), as ATen computes each."""
    dt = x.dtype.type
    z = x + x - dt(1) if shifted else x
    out = np.where(n < 0, dt(0), np.nan).astype(x.dtype)
    ok = n >= 0
    if shifted:
        pos, neg = ok & (x == dt(1)), ok & (x == dt(0))
    else:
        pos, neg = ok & (np.abs(x) == 1) & (x > 0), ok & (np.abs(x) == 1) & ~(x > 0)
    at_one, at_minus = _edges(kind, n, x.dtype.type)
    out[pos], out[neg] = at_one[pos], at_minus[neg]
    rest = ok & ~pos & ~neg
    trig = rest & (n > _TRIG_FROM[kind][shifted]) & (np.abs(z) < 1)
    if trig.any():
        out[trig] = _trig(kind, z[trig], n[trig], x[trig] > 0)
    rest &= ~trig
    out[rest & (n == 0)] = dt(1)
    first = rest & (n == 1)
    out[first] = _FIRST[kind](z[first])
    loop = rest & (n >= 2)
    if loop.any():
        out[loop] = _recur(z, n, loop, np.ones_like, _FIRST[kind], _cheb_step, 2, lambda m: m)
    return out


def hermite_h(x: np.ndarray, n: np.ndarray) -> np.ndarray:
    dt = x.dtype.type
    out = np.where(n < 0, dt(0), np.nan).astype(x.dtype)
    out[n == 0] = dt(1)
    out[n == 1] = _twice(x[n == 1])
    loop = (n >= 2) & (n <= _HERMITE_LIMIT[x.dtype])
    if loop.any():
        # k = 2, 4, ..., 2n - 2: step i uses k = 2i (stops at i = n - 1)
        def step(i: int, v: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
            return fma(v + v, q, -(dt(2 * i) * p))

        out[loop] = _recur(x, n, loop, np.ones_like, _twice, step, 1, lambda m: m - 1)
    return out


def hermite_he(x: np.ndarray, n: np.ndarray) -> np.ndarray:
    dt = x.dtype.type
    out = np.where(n < 0, dt(0), np.nan).astype(x.dtype)
    out[n == 0] = dt(1)
    out[n == 1] = x[n == 1]
    loop = (n >= 2) & (n <= _HERMITE_LIMIT[x.dtype])
    if loop.any():

        def step(k: int, v: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
            return fma(v, q, -(dt(k) * p))

        out[loop] = _recur(x, n, loop, np.ones_like, lambda v: v, step, 1, lambda m: m - 1)
    return out


def laguerre_l(x: np.ndarray, n: np.ndarray) -> np.ndarray:
    dt = x.dtype.type
    out = np.where(n < 0, dt(0), np.nan).astype(x.dtype)
    ok = n >= 0
    zero = ok & (np.abs(x) == 0)
    out[zero | (ok & (n == 0))] = dt(1)
    one = ok & ~zero & (n == 1)
    out[one] = dt(1) - x[one]
    loop = ok & ~zero & (n >= 2)
    if loop.any():

        def step(k: int, v: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
            return fma(dt(k + k) + (dt(1) - v), q, -(dt(k) * p)) / dt(k + 1)

        out[loop] = _recur(x, n, loop, np.ones_like, lambda v: dt(1) - v, step, 1, lambda m: m - 1)
    return out


def legendre_p(x: np.ndarray, n: np.ndarray) -> np.ndarray:
    dt = x.dtype.type
    out = np.where(n < 0, dt(0), np.nan).astype(x.dtype)
    ok = n >= 0
    edge = ok & (np.abs(x) == 1)
    out[edge] = np.where((x[edge] > 0) | (n[edge] % 2 == 0), dt(1), dt(-1))
    rest = ok & ~edge
    out[rest & (n == 0)] = dt(1)
    out[rest & (n == 1)] = x[rest & (n == 1)]
    loop = rest & (n >= 2)
    if loop.any():

        def step(k: int, v: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
            return fma(dt(k + k + 1) * v, q, -(dt(k) * p)) / dt(k + 1)

        out[loop] = _recur(x, n, loop, np.ones_like, lambda v: v, step, 1, lambda m: m - 1)
    return out


FUNCTIONS = {
    **{
        f"{'shifted_' if shifted else ''}chebyshev_polynomial_{kind}": (
            lambda x, n, kind=kind, shifted=shifted: chebyshev(kind, shifted, x, n)
        )
        for shifted in (False, True)
        for kind in "tuvw"
    },
    "hermite_polynomial_h": hermite_h,
    "hermite_polynomial_he": hermite_he,
    "laguerre_polynomial_l": laguerre_l,
    "legendre_polynomial_p": legendre_p,
}


def compute(name: str, x: np.ndarray, n: np.ndarray) -> np.ndarray:
    """torch.special.<name>(x, n) of arrays of one float dtype and shape (n in x's dtype, as
    ATen's kernel takes it)."""
    with np.errstate(all="ignore"):
        return FUNCTIONS[name](x, degrees(n))
