"""float32 softmax and log_softmax in the order and with the exp and log PyTorch's CPU kernels
use, and nll_loss's cascade sum over the batch: so that a float32 softmax, log_softmax,
cross-entropy or NLL loss is PyTorch's to the last bit.

What ATen 2.13 does (aten/src/ATen/native/cpu/SoftMaxKernel.cpp, LogSoftmaxKernelImpl.h;
these kernels are registered for AVX512 too, so a machine with AVX512 runs 16-float vectors,
where the sum and norm kernels run 8: measured, below):

- Over the last dimension, each row is reduced by `vec::reduce_all` / `map_reduce_all`: a row
  of 16 or more floats is read as whole vectors of 16 combined lane by lane into one vector
  accumulator, the elements left over (fewer than 16) combined into its first lanes, then the
  16 lanes folded as a butterfly (lane i with lane i^8, then ^4, ^2, ^1); a shorter row is
  folded left to right. The maximum is reduced so (its bits do not depend on the order); then
  softmax stores e = exp(x - max), sums the stored e so, and multiplies each e by
  `1 / sum`; log_softmax sums exp(x - max) so and writes `(x - max) - log(sum)`.
- Over another dimension (`_vec_softmax`, `serial_vec_logsoftmax_range`), each column of the
  (outer, dim, inner) view is reduced down `dim` in order (max, then the sum of the exps from
  zero); softmax divides each exp by its column's sum. The columns are processed 16 at a time
  while 16 remain in the row of `inner`; the last `inner % 16` columns by a scalar loop, whose
  exp is the C library's `expf` (glibc's, see `_glibc_expf`), not the vector one.
- The vector exp is SLEEF's `expf` (u10, FMA build): `_sleef_expf`; the vector log SLEEF's
  `logf` (u10, AVX512 build, getexp/getmant and double-float arithmetic): `_sleef_logf`.
  Neither is correctly rounded: about 1 result in 100 differs from the float64 result rounded.
- nll_loss (aten/src/ATen/native/LossNLL.cpp, `nll_loss_out_frame`): the picked values
  (negated, times the class weight) are added over the batch into a cascade of 8 partial sums:
  level 0 takes each value; after a value at batch index b (not ignored) with b % 16 == 0,
  level 0 is added into level 1 and cleared, and so on up while b % 16**(j+1) == 0; the levels
  are added at the end from zero, 0 to 7, and a mean divided by the weights summed the same
  way (or by the count of targets not ignored).

Measured against PyTorch 2.13 (one thread) on random float32 inputs: softmax / log_softmax over
the last dimension of 1 to 100 rows of 1 to 300 elements (scales 0.1 to 30: 2.4 million
elements each) and over other dimensions of random 2-d and 3-d shapes (1.5 million elements),
nll_loss and cross_entropy with and without weights and ignored targets (400 batches of 1 to
300): every result is PyTorch's to the bit. Everything is computed with NumPy in float32 (each
step rounded as the C++ rounds it; fused multiply-adds through `linalg._fma32`), vectorised over
rows, in pieces of bounded size.
"""

from __future__ import annotations

import numpy as np

from .linalg import _fma32

_F = np.float32
_LANES = 16  # Vectorized<float> in the AVX512 softmax kernels (measured: 8 lanes disagree)
_PIECE = 1 << 17  # elements computed at once (the emulations make a dozen temporaries)


def _in_pieces(f):
    """`f` (elementwise) applied to a large array in pieces of `_PIECE` elements: its float64
    temporaries stay bounded."""

    def run(*args: np.ndarray) -> np.ndarray:
        args = np.broadcast_arrays(*args)
        if args[0].size <= _PIECE:
            return f(*args)
        flat = [np.ascontiguousarray(a).reshape(-1) for a in args]
        out = np.empty(flat[0].size, _F)
        for i in range(0, out.size, _PIECE):
            out[i : i + _PIECE] = f(*(a[i : i + _PIECE] for a in flat))
        return out.reshape(args[0].shape)

    run.__doc__ = f.__doc__
    return run


def _fma(a, b, c) -> np.ndarray:
    """Correctly rounded float32 a*b + c."""
    a = np.asarray(a, _F).astype(np.float64)
    b = np.asarray(b, _F).astype(np.float64)
    c = np.asarray(c, _F)
    p = a * b
    return _fma32(p, np.broadcast_to(c, np.broadcast_shapes(p.shape, c.shape)))


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


@_in_pieces
def _sleef_expf(d: np.ndarray) -> np.ndarray:
    """exp(d) as SLEEF's vectorised expf computes it: q = rint(d / ln2), the reduced argument
    in two fused steps, a degree-6 polynomial in Horner form of fused steps, 1 + s + s*s*u,
    scaled by 2**q in two exact halves; 0 below -104, inf above 100."""
    with np.errstate(all="ignore"):
        q = np.rint(d * _R_LN2)
        qi = np.clip(np.nan_to_num(q), -1000, 1000).astype(np.int32)
        qf = qi.astype(_F)
        s = _fma(qf, -_L2U, d)
        s = _fma(qf, -_L2L, s)
        u = np.full(d.shape, _EXP_POLY[0], _F)
        for c in _EXP_POLY[1:]:
            u = _fma(u, s, c)
        u = _F(1) + _fma(s * s, u, s)
        h = qi >> 1
        u = u * np.ldexp(_F(1), h).astype(_F) * np.ldexp(_F(1), qi - h).astype(_F)
        u = np.where(d < _F(-104), _F(0), u)
        u = np.where(d > _F(100), _F(np.inf), u)
        return np.where(np.isnan(d), d, u).astype(_F)


# --- SLEEF's logf (u10, the AVX512 variant) ------------------------------------------------

_LN2_HI, _LN2_LO = _F(0.69314718246459960938), _F(-1.904654323148236017e-09)
_LOG_POLY = (_F(0.3027294874), _F(0.3996108174), _F(0.6666694880))


def _two_sum(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


@_in_pieces
def _sleef_logf(d: np.ndarray) -> np.ndarray:
    """log(d) as SLEEF's vectorised logf for AVX512 computes it: d = m * 2**e with m in
    [0.75, 1.5) (getmant / getexp), x = (m - 1) / (m + 1) as a double-float, log(d) =
    e*ln2 + 2x + x**3 * P(x**2) added in double-float arithmetic, the pair summed last."""
    with np.errstate(all="ignore"):
        ok = (d > 0) & np.isfinite(d)
        m, ex = np.frexp(np.where(ok, d, _F(1)).astype(np.float64))
        m, ex = m * 2, ex - 1  # m in [1, 2)
        big = m >= 1.5
        m = np.where(big, m / 2, m).astype(_F)
        e = np.where(big, ex + 1, ex).astype(_F)
        sx = _LN2_HI * e
        sy = _fma(_LN2_LO, e, _fma(_LN2_HI, e, -sx))
        nx, ny = _two_sum(np.full(m.shape, _F(-1)), m)
        dx, dy = _two_sum(np.full(m.shape, _F(1)), m)
        t = _F(1) / dx
        xx = nx * t
        u = _fma(t, nx, -xx)
        v = _fma(-dy, t, _fma(-dx, t, _F(1)))
        xy = _fma(xx, v, _fma(ny, t, u))
        x2 = xx * xx
        p = _fma(_LOG_POLY[0], x2, _LOG_POLY[1])
        p = _fma(p, x2, _LOG_POLY[2])
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


@_in_pieces
def _glibc_expf(x: np.ndarray) -> np.ndarray:
    """expf as glibc computes it (the algorithm of ARM's optimized-routines): in float64,
    k = round(x * 32 / ln2), r the remainder, 2**(k/32) from a table of 32 and a cubic in r,
    rounded once to float32; 0 below -0x1.9fe368p6, inf above 0x1.62e42ep6. (The polynomial's
    fused steps in float64 are computed unfused: the two differ far below float32's rounding;
    identical to the C library's expf on all 800,000 arguments measured.)"""
    global _EXP2_TAB
    if _EXP2_TAB is None:
        _EXP2_TAB = _exp2_table()
    with np.errstate(all="ignore"):
        xd = x.astype(np.float64)
        z = _INVLN2_32 * xd
        kd = np.rint(z)
        r = z - kd
        ki = np.clip(np.nan_to_num(kd), -10000, 10000).astype(np.int64)
        s = np.ldexp(_EXP2_TAB[ki % 32], ki >> 5)
        y = (_GLIBC_POLY[0] * r + _GLIBC_POLY[1]) * (r * r) + (_GLIBC_POLY[2] * r + 1.0)
        y = (y * s).astype(_F)
        y = np.where(x < _F(float.fromhex("-0x1.9fe368p6")), _F(0), y)
        y = np.where(x > _F(float.fromhex("0x1.62e42ep6")), _F(np.inf), y)
        return np.where(np.isnan(x), x, y).astype(_F)


# --- the kernels ---------------------------------------------------------------------------


def _reduce_rows(v: np.ndarray, op) -> np.ndarray:
    """`vec::reduce_all` of each row of a float32 matrix (see the module's docstring)."""
    rows, n = v.shape
    if n < _LANES:
        acc = v[:, 0].copy()
        for j in range(1, n):
            acc = op(acc, v[:, j])
        return acc
    full = n - n % _LANES
    blocks = v[:, :full].reshape(rows, -1, _LANES)
    if op is np.add:  # lane by lane, block after block, in order
        acc = np.add.accumulate(blocks, axis=1)[:, -1].copy()
    else:
        acc = op.reduce(blocks, axis=1)
    if full < n:
        acc[:, : n - full] = op(acc[:, : n - full], v[:, full:])
    w = _LANES // 2
    while w:
        acc = op(acc, acc[:, np.arange(_LANES) ^ w])
        w //= 2
    return acc[:, 0]


def _down(v: np.ndarray) -> np.ndarray:
    """Each column of (outer, n, cols) summed down the middle axis in order from zero."""
    return np.add.accumulate(v, axis=1)[:, -1:]


_FUSED_STEPS = 50_000  # the longest fused chain computed step by step (a Python loop)


def _fused_down(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Each column's `acc = fma(g, y, acc)` down the middle axis from zero (ATen's softmax
    backward over another dimension). Longer than `_FUSED_STEPS`: the products rounded, then
    summed in order (a last-bit difference possible: the loop would take seconds)."""
    if g.shape[1] > _FUSED_STEPS:
        return _down(g * y)
    p = g.astype(np.float64) * y.astype(np.float64)
    acc = np.zeros((g.shape[0], 1, g.shape[2]), _F)
    for k in range(g.shape[1]):
        acc = _fma32(p[:, k : k + 1], acc)
    return acc


def _lastdim(x: np.ndarray, log: bool) -> np.ndarray:
    m = _reduce_rows(x, np.maximum)[:, None]  # NaN-propagating, as vec::maximum
    with np.errstate(all="ignore"):
        d = x - m
        e = _sleef_expf(d)
        s = _reduce_rows(e, np.add)[:, None]
        if log:
            return d - _sleef_logf(s)
        return e * (_F(1) / s)


def _inner(x: np.ndarray, log: bool, nv: int) -> np.ndarray:
    """x: (outer, dim, columns), reduced over the middle axis column by column; the first
    `nv` columns are the vector loop's."""
    m = np.maximum.reduce(x, axis=1, keepdims=True)
    with np.errstate(all="ignore"):
        d = x - m
        e = np.empty_like(d)
        e[:, :, :nv] = _sleef_expf(d[:, :, :nv])
        e[:, :, nv:] = _glibc_expf(d[:, :, nv:])
        s = _down(e)
        if log:
            return d - _sleef_logf(s)
        return e / s


def softmax32(x: np.ndarray, dim: int, log: bool) -> np.ndarray:
    """softmax (or log_softmax) of a float32 array of at least one dimension along `dim`
    (non-negative), as PyTorch's CPU kernels compute it."""
    x = np.ascontiguousarray(x, dtype=_F)
    shape = x.shape
    if x.size == 0:
        return np.empty(shape, _F)
    outer = int(np.prod(shape[:dim], dtype=np.int64))
    inner = int(np.prod(shape[dim + 1 :], dtype=np.int64))
    n = shape[dim]
    out = np.empty(shape, _F)
    if dim == x.ndim - 1:
        flat, res = x.reshape(outer, n), out.reshape(outer, n)
        step = max(1, _PIECE // n)
        for i in range(0, outer, step):
            res[i : i + step] = _lastdim(flat[i : i + step], log)
        return out
    x3, res = x.reshape(outer, n, inner), out.reshape(outer, n, inner)
    for rows, cols, nv in _blocks(outer, n, inner):
        res[rows, :, cols] = _inner(x3[rows, :, cols], log, nv)
    return out


def _blocks(outer: int, n: int, inner: int):
    """Pieces of an (outer, n, inner) reduction over its middle axis, of about `_PIECE`
    elements (whole rows of `outer`, or columns of one row), each with the count of its
    columns that are the vector loop's (all but the last `inner % 16` of a row)."""
    nv_all = inner - inner % _LANES
    step = _PIECE // (n * inner)
    if step >= 1:
        for i in range(0, outer, step):
            yield slice(i, i + step), slice(0, inner), nv_all
        return
    width = max(_LANES, _PIECE // n // _LANES * _LANES)
    for i in range(outer):
        for c in range(0, inner, width):
            c1 = min(inner, c + width)
            yield slice(i, i + 1), slice(c, c1), max(0, min(nv_all, c1) - c)


# --- nll_loss's cascade --------------------------------------------------------------------

_LEVELS = 8
_STEP = 16  # 2**max(4, ceil(log2(batch)) / 8): 16 for any batch below 2**40


def _in_order(seg_vals: list[np.ndarray], dtype) -> np.ndarray:
    """Each segment summed in order from zero (a sum of at most 16 items vectorised)."""
    out = np.zeros(len(seg_vals), dtype)
    short = [i for i, s in enumerate(seg_vals) if len(s) <= _STEP]
    if short:
        pad = np.full((len(short), _STEP), -0.0, dtype)  # x + -0.0 is x
        for r, i in enumerate(short):
            pad[r, : len(seg_vals[i])] = seg_vals[i]
        acc = np.zeros(len(short), dtype)
        for j in range(_STEP):
            acc = acc + pad[:, j]
        out[short] = acc
    for i, s in enumerate(seg_vals):
        if len(s) > _STEP:
            out[i] = np.add.accumulate(np.concatenate([np.zeros(1, dtype), s]))[-1]
    return out


def cascade_sum(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    """The sum of `values` (1-d, float) at batch indices `index` (increasing; the targets not
    ignored) as nll_loss's cascade of partial sums adds them."""
    dtype = values.dtype
    rests = []
    items, pos = values, index
    for j in range(_LEVELS - 1):
        flush = pos % (_STEP ** (j + 1)) == 0
        ends = np.flatnonzero(flush)
        starts = np.concatenate([[0], ends[:-1] + 1]) if len(ends) else np.zeros(0, int)
        closed = _in_order([items[a : b + 1] for a, b in zip(starts, ends)], dtype)
        tail_from = ends[-1] + 1 if len(ends) else 0
        rests.append(_in_order([items[tail_from:]], dtype)[0])
        items, pos = closed, pos[ends]
    rests.append(_in_order([items], dtype)[0])
    total = dtype.type(0)
    for r in rests:
        total = dtype.type(total + r)
    return total


# --- the backward kernels ------------------------------------------------------------------


@_in_pieces
def _fused(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """fma(a, b, c) of float32 arrays: the product exact in float64, one rounding."""
    return _fma32(a.astype(np.float64) * b.astype(np.float64), c)


def _dot_rows(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """`map2_reduce_all(x * y, +)` of each row: whole vectors' products rounded and added
    lane by lane, the left-over elements' products fused into their lanes, then the
    butterfly (a row shorter than a vector: products rounded, folded left to right)."""
    rows, n = g.shape
    if n < _LANES:
        return _reduce_rows(g * y, np.add)
    full = n - n % _LANES
    p = (g[:, :full] * y[:, :full]).reshape(rows, -1, _LANES)
    acc = np.add.accumulate(p, axis=1)[:, -1].copy()
    if full < n:
        acc[:, : n - full] = _fused(g[:, full:], y[:, full:], acc[:, : n - full])
    w = _LANES // 2
    while w:
        acc = acc + acc[:, np.arange(_LANES) ^ w]
        w //= 2
    return acc[:, 0]


def _backward_lastdim(g: np.ndarray, y: np.ndarray, log: bool) -> np.ndarray:
    with np.errstate(all="ignore"):
        if log:  # g - exp(y) * sum(g), fused
            s = np.broadcast_to(_reduce_rows(g, np.add)[:, None], g.shape)
            return _fused(-_sleef_expf(y), s, g)
        return (g - _dot_rows(g, y)[:, None]) * y


def _backward_inner(g: np.ndarray, y: np.ndarray, log: bool, nv: int) -> np.ndarray:
    with np.errstate(all="ignore"):
        s = np.broadcast_to(_down(g) if log else _fused_down(g, y), y.shape)
        if not log:
            return y * (g - s)
        e = np.empty_like(y)
        e[:, :, :nv] = _sleef_expf(y[:, :, :nv])
        e[:, :, nv:] = _glibc_expf(y[:, :, nv:])
        return _fused(-e, s, g)


def softmax_backward32(g: np.ndarray, y: np.ndarray, dim: int, log: bool) -> np.ndarray:
    """The gradient of softmax (log_softmax) along `dim` from the upstream float32 gradient
    `g` and the float32 output `y`, as ATen's backward kernels compute it (measured: every
    element of 1.2 million tested is PyTorch's):

    - last dimension: log_softmax `fma(-exp(y), sum(g), g)` with the sum `reduce_all`'s and
      SLEEF's exp; softmax `(g - sum(g * y)) * y`, the sum `map2_reduce_all`'s (the compiled
      tail of the row fuses its products into the lanes);
    - another dimension: the sums down `dim` column by column in order (softmax's products
      fused into them), then log_softmax `fma(-exp(y), sum, g)` (SLEEF's exp on the columns
      taken 16 at a time, glibc's on the last `inner % 16`), softmax `y * (g - sum)`."""
    g = np.ascontiguousarray(g, dtype=_F)
    y = np.ascontiguousarray(y, dtype=_F)
    shape = y.shape
    if y.size == 0:
        return np.empty(shape, _F)
    outer = int(np.prod(shape[:dim], dtype=np.int64))
    inner = int(np.prod(shape[dim + 1 :], dtype=np.int64))
    n = shape[dim]
    out = np.empty(shape, _F)
    if dim == y.ndim - 1:
        g2, y2, res = g.reshape(outer, n), y.reshape(outer, n), out.reshape(outer, n)
        step = max(1, _PIECE // n)
        for i in range(0, outer, step):
            part = slice(i, i + step)
            res[part] = _backward_lastdim(g2[part], y2[part], log)
        return out
    g3, y3 = g.reshape(outer, n, inner), y.reshape(outer, n, inner)
    res = out.reshape(outer, n, inner)
    for rows, cols, nv in _blocks(outer, n, inner):
        res[rows, :, cols] = _backward_inner(g3[rows, :, cols], y3[rows, :, cols], log, nv)
    return out
