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

On a processor with AVX2 and no AVX-512 (the ``avx2`` family of `core.cpu`, measured on AMD
EPYC Zen 3) the same kernels run 8-float vectors: every reduction above, the backward's sums and
the vector loop over the columns (the last `inner % 8` columns scalar) take 8 lanes, the
butterfly folds lane i with i^4, ^2, ^1; SLEEF's AVX2 exp and log give the same bits as the
AVX512 ones on every input measured. With 8 lanes every softmax, log_softmax and their
gradients (over the last and over other dimensions) measured on that machine is PyTorch's
(1.2 million elements of 1 to 20 rows of 1 to 100); the 16-lane model differed in about 1
element in 4 of softmax over the last dimension.

Measured against PyTorch 2.13 (one thread) on random float32 inputs: softmax / log_softmax over
the last dimension of 1 to 100 rows of 1 to 300 elements (scales 0.1 to 30: 2.4 million
elements each) and over other dimensions of random 2-d and 3-d shapes (1.5 million elements),
nll_loss and cross_entropy with and without weights and ignored targets (400 batches of 1 to
300): every result is PyTorch's to the bit. Everything is computed with NumPy in float32 (each
step rounded as the C++ rounds it; fused multiply-adds through `linalg._fma32`), vectorised over
rows, in pieces of bounded size.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ..core import vecloop as _vecloop
from ..core.half import narrowed as _narrowed
from ..core.powf32 import _FEW, fma32_few
from ..core.sleef32 import _expf_scalars, _logf_scalars, _r32
from ..core.sleef32 import expf as _sleef_expf
from ..core.sleef32 import glibc_expf as _glibc_expf
from ..core.sleef32 import in_pieces as _in_pieces
from ..core.sleef32 import logf as _sleef_logf
from .linalg import _fma32

_F = np.float32
_LANES = 16  # Vectorized<float> in the AVX512 softmax kernels (measured: 8 lanes disagree)
_LANES_AVX2 = 8  # Vectorized<float> of an AVX2 build (measured on AMD EPYC: 16 lanes disagree)


def _lanes() -> int:
    """The float32 vector width of the kernels the emulation follows (read at each call)."""
    from ..core import cpu

    return _LANES_AVX2 if cpu.avx2() else _LANES


_PIECE = 1 << 17  # elements computed at once


# --- the kernels ---------------------------------------------------------------------------


def _reduce_rows(v: np.ndarray, op) -> np.ndarray:
    """`vec::reduce_all` of each row of a float32 matrix (see the module's docstring)."""
    rows, n = v.shape
    lanes = _lanes()
    if n < lanes:
        acc = v[:, 0].copy()
        for j in range(1, n):
            acc = op(acc, v[:, j])
        return acc
    full = n - n % lanes
    blocks = v[:, :full].reshape(rows, -1, lanes)
    if op is np.add:  # lane by lane, block after block, in order
        acc = np.add.accumulate(blocks, axis=1)[:, -1].copy()
    else:
        acc = op.reduce(blocks, axis=1)
    if full < n:
        acc[:, : n - full] = op(acc[:, : n - full], v[:, full:])
    return _fold(acc, op)


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
            # (a float16 or bfloat16 kernel keeps the sum, then its log, in a buffer of its
            # dtype, each rounded there: measured on 2.13, (x - max) - log(sum) rounded once
            # differs from PyTorch on 336 of 6524 float16 elements)
            return d - _narrowed(_sleef_logf(_narrowed(s)))
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


# --- softmax of float16 and bfloat16 -------------------------------------------------------------
#
# ATen's softmax kernels for the two-byte floats are their own (SoftMaxKernel.cpp, the
# `_vec_softmax_lastdim` and `_vec_softmax` overloads for a scalar type that is not its opmath
# type), not the float32 kernels on widened values:
# - over the last dimension, each row is widened into a float buffer; the exps of the row's
#   first n - n % L elements (L: float32's lanes) are SLEEF's and summed lane by lane into one
#   vector, folded as a butterfly; the last n % L are glibc's expf, each added to the folded sum
#   in order after it (the float32 kernel combines them into the vector first); then each exp
#   times 1 / sum, rounded once;
# - over another dimension, the columns are taken 2 L at a time (a vector of the two-byte type)
#   while 2 L remain in the row, each column's exps (SLEEF's) summed down the dimension in float
#   from zero and each exp divided by the sum, rounded once; the last inner % 2L columns by a
#   scalar loop whose exp (glibc's) is first stored in the two-byte type, then read back and
#   divided by the float sum, rounded again.
# `softmax32` takes this road when `vecloop.REDUCED` names the kernel's dtype (`core.half`,
# `core.bf16`: the inputs arrive widened to float32, the result is rounded by the caller).


def _fold(acc: np.ndarray, op) -> np.ndarray:
    """`vec_reduce_all` of (rows, lanes) vectors: lane i with i ^ (lanes / 2), ..., ^1."""
    lanes = acc.shape[1]
    w = lanes // 2
    while w:
        acc = op(acc, acc[:, np.arange(lanes) ^ w])
        w //= 2
    return acc[:, 0]


def _reduced_lastdim(x: np.ndarray) -> np.ndarray:
    rows, n = x.shape
    lanes = _lanes()
    full = n - n % lanes
    m = np.max(x, axis=1, keepdims=True)
    with np.errstate(all="ignore"):
        d = x - m
        e = np.empty_like(d)
        e[:, :full] = _sleef_expf(d[:, :full])
        e[:, full:] = _glibc_expf(d[:, full:])
        if full:
            blocks = e[:, :full].reshape(rows, -1, lanes)
            total = _fold(np.add.accumulate(blocks, axis=1)[:, -1].copy(), np.add)
        else:
            total = np.zeros(rows, _F)
        for j in range(full, n):
            total = total + e[:, j]
        return e * (_F(1) / total)[:, None]


def _reduced_inner(x: np.ndarray, nv: int) -> np.ndarray:
    """x: (outer, dim, columns); the first `nv` columns are the vector loop's."""
    m = np.maximum.reduce(x, axis=1, keepdims=True)
    with np.errstate(all="ignore"):
        d = x - m
        e = np.empty_like(d)
        e[:, :, :nv] = _sleef_expf(d[:, :, :nv])
        e[:, :, nv:] = _glibc_expf(d[:, :, nv:])
        total = _down(e)
        e[:, :, nv:] = _narrowed(e[:, :, nv:])
        return e / total


def _along(
    x: np.ndarray, dim: int, lastdim: Callable, inner_fn: Callable, lanes: int = 0
) -> np.ndarray:
    """A kernel pair run piece by piece along `dim` of a contiguous float32 array: `lastdim`
    on rows of the last dimension, else `inner_fn` on (rows, n, columns) blocks with the
    count of their vector-loop columns (`_blocks`, vectors of `lanes`)."""
    shape = x.shape
    outer = math.prod(shape[:dim])
    inner = math.prod(shape[dim + 1 :])
    n = shape[dim]
    out = np.empty(shape, _F)
    if dim == x.ndim - 1:
        flat, res = x.reshape(outer, n), out.reshape(outer, n)
        step = max(1, _PIECE // n)
        for i in range(0, outer, step):
            res[i : i + step] = lastdim(flat[i : i + step])
        return out
    x3, res = x.reshape(outer, n, inner), out.reshape(outer, n, inner)
    for rows, cols, nv in _blocks(outer, n, inner, lanes):
        res[rows, :, cols] = inner_fn(x3[rows, :, cols], nv)
    return out


def _softmax_reduced(x: np.ndarray, dim: int) -> np.ndarray:
    return _along(x, dim, _reduced_lastdim, _reduced_inner, 2 * _lanes())


def softmax32(x: np.ndarray, dim: int, log: bool) -> np.ndarray:
    """softmax (or log_softmax) of a float32 array of at least one dimension along `dim`
    (non-negative), as PyTorch's CPU kernels compute it (softmax as the float16 or bfloat16
    kernel where `vecloop.REDUCED` names one: `_softmax_reduced`)."""
    x = np.ascontiguousarray(x, dtype=_F)
    shape = x.shape
    if x.size == 0:
        return np.empty(shape, _F)
    if not log and _vecloop.REDUCED[0] is not None:
        return _softmax_reduced(x, dim)
    if (
        log
        and dim == x.ndim - 1
        and x.size <= _FEW
        and shape[-1] < _lanes()
        and _vecloop.REDUCED[0] is None  # (a two-byte kernel rounds its sum and log: `_lastdim`)
    ):
        got = _log_rows_scalars(x.reshape(-1).tolist(), shape[-1])
        if got is not None:
            return np.array(got, _F).reshape(shape)
    return _along(
        x, dim, lambda rows: _lastdim(rows, log), lambda block, nv: _inner(block, log, nv)
    )


def _log_rows_scalars(vals: list[float], n: int) -> list[float] | None:
    """`_lastdim`'s log_softmax of a few float32 rows shorter than a vector (each reduced
    left to right) in Python floats: the row's maximum, d = x - max, SLEEF's exp of d and
    the sum of the exps in order, d - log(sum), each float32 step rounded as the arrays
    round it (`sleef32._r32`); None (the arrays decide) for a zero, an infinity or NaN (the
    signs of zeros and NaN's propagation are NumPy's), or where the exp or the log of the
    Python floats gives up."""
    r32 = _r32
    out = []
    for i in range(0, len(vals), n):
        row = vals[i : i + n]
        m = row[0]
        for v in row:
            if not (v != 0 and -_BIG < v < _BIG):
                return None
            if v > m:
                m = v
        d = [r32(v - m) for v in row]
        e = _expf_scalars(d)
        if e is None:
            return None
        acc = e[0]
        for v in e[1:]:
            acc = r32(acc + v)
        lg = _logf_scalars([acc])
        if lg is None:
            return None
        out.extend(r32(v - lg[0]) for v in d)
    return out


_BIG = float(np.finfo(_F).max)


def _blocks(outer: int, n: int, inner: int, lanes: int = 0):
    """Pieces of an (outer, n, inner) reduction over its middle axis, of about `_PIECE`
    elements (whole rows of `outer`, or columns of one row), each with the count of its
    columns that are the vector loop's (all but the last `inner % lanes` of a row; `lanes`
    by default the float32 kernels')."""
    lanes = lanes or _lanes()
    nv_all = inner - inner % lanes
    step = _PIECE // (n * inner)
    if step >= 1:
        for i in range(0, outer, step):
            yield slice(i, i + step), slice(0, inner), nv_all
        return
    width = max(lanes, _PIECE // n // lanes * lanes)
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
    if values.size <= _SCALAR_CASCADE and dtype.type in (np.float32, np.float64, np.float16):
        return _cascade_scalars(values, index)
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


_SCALAR_CASCADE = 256  # items up to which `cascade_sum` adds NumPy scalars, one by one


def _cascade_scalars(values: np.ndarray, index: np.ndarray):
    """`cascade_sum` of a few items by scalar additions: the same segments, each summed in
    order from zero as it streams past (its flush closes it), the same additions in the same
    order in the same type (a batch of four was ~40 NumPy calls on arrays of one item)."""
    t = values.dtype.type
    items = [t(v) for v in values.tolist()]
    pos = index.tolist()
    rests = []
    for j in range(_LEVELS - 1):
        span = _STEP ** (j + 1)
        closed, ends = [], []
        acc = t(0)
        for v, p in zip(items, pos):
            acc = acc + v
            if p % span == 0:
                closed.append(acc)
                ends.append(p)
                acc = t(0)
        rests.append(acc)
        items, pos = closed, ends
    acc = t(0)
    for v in items:
        acc = acc + v
    rests.append(acc)
    total = t(0)
    for r in rests:
        total = t(total + r)
    return total


# --- the backward kernels ------------------------------------------------------------------


def _fused(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """fma(a, b, c) of float32 arrays: the product exact in float64, one rounding (a few
    elements of one shape in Python floats, `fma32_few`: the same bits)."""
    if a.size <= _FEW and a.shape == b.shape == c.shape and a.dtype == b.dtype == c.dtype == _F:
        got = fma32_few(a, b, c)
        if got is not None:
            return got
    return _fused_arrays(a, b, c)


@_in_pieces
def _fused_arrays(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    return _fma32(a.astype(np.float64) * b.astype(np.float64), c)


def _dot_rows(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """`map2_reduce_all(x * y, +)` of each row: whole vectors' products rounded and added
    lane by lane, the left-over elements' products fused into their lanes, then the
    butterfly (a row shorter than a vector: products rounded, folded left to right)."""
    rows, n = g.shape
    lanes = _lanes()
    if n < lanes:
        return _reduce_rows(g * y, np.add)
    full = n - n % lanes
    p = (g[:, :full] * y[:, :full]).reshape(rows, -1, lanes)
    acc = np.add.accumulate(p, axis=1)[:, -1].copy()
    if full < n:
        acc[:, : n - full] = _fused(g[:, full:], y[:, full:], acc[:, : n - full])
    w = lanes // 2
    while w:
        acc = acc + acc[:, np.arange(lanes) ^ w]
        w //= 2
    return acc[:, 0]


def _in_lane_order(v: np.ndarray, count: int) -> np.ndarray:
    """`vec_reduce_all` with a size: lanes 1 to count - 1 added to lane 0 in order."""
    acc = v[:, 0].copy()
    for j in range(1, count):
        acc = acc + v[:, j]
    return acc


def _dot_rows_reduced(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """`map2_reduce_all(x * y, +)` of each row of float16 or bfloat16 values (widened) as the
    two-byte overload sums it: a row of 2 L elements or more (L: float32's lanes) is read 2 L at
    a time into two float accumulators (elements 2 L i + j into the first's lane j, 2 L i + L + j
    into the second's), the tail added into their first lanes; then the first plus the second,
    folded as a butterfly. A shorter row: its second L elements added into the first L, then the
    L lanes (or the row's, if fewer) added in order. (The products of two two-byte floats are
    exact in float32: fused or not, the same.)"""
    rows, n = g.shape
    lanes = _lanes()
    p = g * y
    if n < 2 * lanes:
        if n <= lanes:
            return _in_lane_order(p, n)
        acc = p[:, :lanes].copy()
        acc[:, : n - lanes] += p[:, lanes:]
        return _in_lane_order(acc, lanes)
    full = n - n % (2 * lanes)
    pairs = p[:, :full].reshape(rows, -1, 2, lanes)
    acc = np.add.accumulate(pairs, axis=1)[:, -1].copy()  # (rows, 2, lanes)
    tail = p[:, full:]
    first = min(lanes, tail.shape[1])
    acc[:, 0, :first] += tail[:, :first]
    acc[:, 1, : tail.shape[1] - first] += tail[:, first:]
    return _fold(acc[:, 0] + acc[:, 1], np.add)


def _backward_lastdim(g: np.ndarray, y: np.ndarray, log: bool) -> np.ndarray:
    with np.errstate(all="ignore"):
        if log:  # g - exp(y) * sum(g), fused
            s = np.broadcast_to(_reduce_rows(g, np.add)[:, None], g.shape)
            return _fused(-_sleef_expf(y), s, g)
        if _vecloop.REDUCED[0] is not None:
            return (g - _dot_rows_reduced(g, y)[:, None]) * y
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
    outer = math.prod(shape[:dim])
    inner = math.prod(shape[dim + 1 :])
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
