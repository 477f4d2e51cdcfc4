"""Float sums in the order PyTorch's CPU kernel adds them, so that float32 results (a loss, a
gradient reduced over a broadcast dimension, a mean) are PyTorch's to the bit.

ATen's `sum` on floats (`cascade_sum` in aten/src/ATen/native/cpu/SumKernel.cpp) does not add
left to right, nor pairwise as NumPy does:

- A `TensorIterator` first orders the dimensions (reduced ones first, then by increasing
  stride) and merges the ones that are contiguous with each other; its loop then hands the
  kernel 2-d blocks (the first two dimensions; one block per index of the others), and each
  block's sums are added (`out += value`) to the output, which starts at zero.
- In a block, the reduced dimension is summed by one of four loops, chosen by the strides:
  contiguous along the reduction and at least one vector long ("inner"): the row is read as
  vectors of 32 bytes (8 floats, 4 doubles), summed lane by lane, then the scalar tail and the
  lanes are added to a scalar in order; contiguous across the reduction ("outer"): 4 vectors of
  columns at a time, then one vector, then single columns; otherwise scalar loops.
- Each of those sums is a cascade (`multi_row_sum`): runs of `2**max(4, ceil(log2 n) / 4)`
  items are added in order into a first accumulator, whose totals are added in order into a
  second, and so on over four levels, the remainder added at the end; `row_sum` first splits
  the row four ways (items i, i+4, i+8... in four accumulators), as an unrolled loop does.

Every step here is a float addition in the tensor's own dtype, in that order, computed with
NumPy (`np.add.accumulate` adds along an axis strictly in order), vectorised over all the
independent sums at once: linear time. Measured against PyTorch 2.13 with one thread (the
corpus is recorded with OMP_NUM_THREADS=1: PyTorch splits a sum of 32768 items or more between
threads, which changes its order), on AVX2 and AVX512 machines alike (ATen's reduction vectors
are 32 bytes on both), every float32 and float64 sum tested, of 1 to 300,000 items, full and
along dims, of contiguous and transposed tensors, is PyTorch's.

Integer and bool sums are left to NumPy (they are exact); float16 ones are added as float32
ones are and rounded once (ATen accumulates half in float).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .layout import _sorted_dims

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_VECTOR_BYTES = 32  # ATen's Vectorized<float> holds 8 floats, Vectorized<double> 4 doubles
_ILP = 4  # row_sum's four-way split
_NROWS = 4  # the outer loops' vectors (or columns) at a time
_LEVELS = 4


def sum_float(x: np.ndarray, axes: tuple[int, ...], keepdims: bool) -> np.ndarray:
    """`np.sum(x, axis=axes, keepdims=keepdims)` added in ATen's order (float32 and float64;
    other dtypes as NumPy sums them; float16 in float32, rounded once, as ATen accumulates
    it). `axes`: non-negative, sorted, each once."""
    if x.dtype == np.float16 and x.size and x.ndim:
        wide = sum_float(x.astype(np.float32), axes, keepdims)
        with np.errstate(over="ignore"):  # past float16's range: inf, as ATen rounds it
            return wide.astype(np.float16)
    if x.dtype not in _FLOATS or x.size == 0 or x.ndim == 0:
        out = np.sum(x, axis=axes, keepdims=keepdims)
        return out + out.dtype.type(0) if x.dtype in _FLOATS else out
    if any(s < 0 for s in x.strides):
        x = np.ascontiguousarray(x)
    if len(axes) == x.ndim and x.flags.c_contiguous:
        # The common case (`loss.sum()`, `.mean()`): the iterator has one dimension.
        lanes = _VECTOR_BYTES // x.dtype.itemsize
        if x.size <= _SMALL and x.dtype == np.float64:
            total = _small_total(x, lanes) + 0.0
            return np.full((1,) * x.ndim if keepdims else (), total, dtype=x.dtype)
        flat = x.reshape(-1, 1)
        total = _vectorized_inner(flat, lanes) if flat.shape[0] >= lanes else _row_sum(flat)
        total = total[0] + x.dtype.type(0)
        return np.full((1,) * x.ndim if keepdims else (), total, dtype=x.dtype)
    kept = tuple(1 if d in axes else n for d, n in enumerate(x.shape))
    out = np.empty(kept, dtype=x.dtype)
    if not axes:
        out[...] = x + x.dtype.type(0)  # a sum over nothing: 0 + x (a copy)
    else:
        _reduce_into(x, out, axes)
    if keepdims:
        return out
    return out.reshape(tuple(n for d, n in enumerate(x.shape) if d not in axes))


# --- the TensorIterator's view of a reduction ---------------------------------------------------


def _geometry(
    shape: list[int], ins: list[int], outs: list[int]
) -> tuple[list[int], list[int], list[int], list[list[int]]]:
    """The iterator's dimensions, fastest first: ordered as `reorder_dimensions` orders them
    for a reduction (the output's zero strides first, then by the strides of the output and
    then the input, ties to the smaller size), then merged as `coalesce_dimensions` merges.
    Also the tensor's dimensions each one holds (fastest first)."""
    nd = len(shape)
    perm = _sorted_dims(shape, [ins], reduced=outs)
    sh = [shape[p] for p in perm]
    st = [[ins[p] for p in perm], [outs[p] for p in perm]]
    groups = [[p] for p in perm]

    prev = 0
    for d in range(1, nd):
        s0, s1 = sh[prev], sh[d]
        if s0 == 1 or s1 == 1 or all(s0 * t[prev] == t[d] for t in st):
            if s0 == 1:
                for t in st:
                    t[prev] = t[d]
            sh[prev] *= s1
            groups[prev] = groups[prev] + groups[d]
        else:
            prev += 1
            if prev != d:
                for t in st:
                    t[prev] = t[d]
                sh[prev] = s1
                groups[prev] = groups[d]
    n = prev + 1
    return sh[:n], st[0][:n], st[1][:n], groups[:n]


class _Plan:
    """How one reduction geometry is computed (made once per shape, strides and dims)."""

    __slots__ = ("order", "shape", "pad", "swap", "ins", "within", "moved", "final", "back")

    def __init__(self, shape: tuple[int, ...], strides: tuple[int, ...], axes: tuple[int, ...]):
        out_strides, step = [], 1
        for d in range(len(shape) - 1, -1, -1):  # the output: contiguous, its reduced dims 0
            out_strides.append(0 if d in axes else step)
            step *= 1 if d in axes else shape[d]
        out_strides.reverse()
        dims, ins, outs, groups = _geometry(list(shape), list(strides), out_strides)
        # The iterator's view of x: its dimensions as NumPy axes (a merged group, slowest
        # first, is one axis: the dims it merges are adjacent in memory, so this is a view).
        self.order = [d for g in groups for d in reversed(g)]
        self.shape = tuple(dims)
        self.pad = len(dims) == 1  # the loop is handed a block of one column
        if self.pad:
            dims, ins, outs, groups = dims + [1], ins + [0], outs + [0], groups + [[]]
        # The kernel moves a reduced second dimension first.
        self.swap = outs[0] != 0 and outs[1] == 0
        if self.swap:
            for v in (dims, ins, outs, groups):
                v[0], v[1] = v[1], v[0]
        nd = len(dims)
        self.ins = (dims[0], dims[1], ins[0], ins[1])
        # Within a block: a reduction of its dimension 0, or (both kept) plain additions.
        self.within = outs[0] == 0
        kept = [] if self.within and outs[1] == 0 else ([0] if self.within else [0, 1])
        outer = 1 if self.within else 2  # the axis of the iterator's dimension 2
        # Every output element receives its sums in the loop's order: the outer indices (the
        # last dimension slowest), and within a block the columns in order.
        reduced = [outer + d - 2 for d in range(nd - 1, 1, -1) if outs[d] == 0]
        if outs[0] == 0 and outs[1] == 0:
            reduced.append(0)
        kept += [outer + d - 2 for d in range(2, nd) if outs[d] != 0]
        self.moved = (reduced + kept, len(reduced))
        # Back to the tensor's dimensions: each kept iterator dimension is a group of them.
        kept_iter = ([0, 1] if not self.within else ([1] if outs[1] != 0 else [])) + [
            d for d in range(2, nd) if outs[d] != 0
        ]
        back = [d for i in kept_iter for d in reversed(groups[i])]
        self.final = tuple(shape[d] for d in back)
        self.back = sorted(range(len(back)), key=lambda i: back[i])


_PLANS: dict[tuple, _Plan] = {}


def _reduce_into(x: np.ndarray, out: np.ndarray, axes: tuple[int, ...]) -> None:
    key = (x.shape, x.strides, axes)
    plan = _PLANS.get(key)
    if plan is None:
        if len(_PLANS) > 512:
            _PLANS.clear()
        plan = _PLANS[key] = _Plan(x.shape, x.strides, axes)
    view = x.transpose(plan.order).reshape(plan.shape)
    if plan.pad:
        view = view[:, None]
    if plan.swap:
        view = view.swapaxes(0, 1)
    block = _block_sums(view, plan.ins, x.dtype.itemsize) if plan.within else view
    order, nreduced = plan.moved
    moved = block.transpose(order)
    flat = moved.reshape((-1,) + moved.shape[nreduced:])
    total = _in_order(flat) + x.dtype.type(0)
    out[...] = total.reshape(plan.final).transpose(plan.back).reshape(out.shape)


def _block_sums(view: np.ndarray, geometry: tuple[int, ...], item: int) -> np.ndarray:
    """The sums of a block's columns (the reduced dimension 0 summed), by the loop the kernel
    chooses from the strides, for every block at once: (size1, *outer)."""
    size0, size1, in0, in1 = geometry
    lanes = _VECTOR_BYTES // item
    if in0 == item and size0 >= lanes:
        return _vectorized_inner(view, lanes)
    if in1 == item and size1 >= lanes:
        split = (size1 // (_NROWS * lanes)) * (_NROWS * lanes)
        return _concat(_multi_row(view[:, :split]), _row_sum(view[:, split:]))
    if in0 < in1:
        return _row_sum(view)
    split = (size1 // _NROWS) * _NROWS
    return _concat(_multi_row(view[:, :split]), _row_sum(view[:, split:]))


def _concat(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.shape[0] == 0:
        return b
    if b.shape[0] == 0:
        return a
    return np.concatenate([a, b], axis=0)


# --- the kernel's sums, along axis 0, each lane of the other axes on its own -------------------


_ACCUMULATE_MAX = 1 << 13  # items up to which `_in_order` writes out the partial sums


def _in_order(a: np.ndarray) -> np.ndarray:
    """0 + a[0] + a[1] + ... in order (shape a.shape[1:])."""
    k = a.shape[0]
    if k == 0:
        return np.zeros(a.shape[1:], dtype=a.dtype)
    if k == 1:
        return a[0].copy()
    if k <= 4 or (a.size >= 64 * k and a.size > _ACCUMULATE_MAX):
        # Many sums side by side: one addition of all of them per item (each `acc + a[i]`,
        # the same additions as `accumulate`'s), without writing out every partial sum (a
        # small array's partial sums cost less than a call an item: `accumulate` then).
        acc = a[0].copy() if a.ndim > 1 else np.array(a[0])
        for i in range(1, k):
            np.add(acc, a[i], out=acc)
        return acc if acc.ndim else acc[()]
    return np.add.accumulate(a, axis=0)[-1]


def _ceil_log2(n: int) -> int:
    return 0 if n <= 1 else (n - 1).bit_length()


def _multi_row(a: np.ndarray) -> np.ndarray:
    """`multi_row_sum`: the rows of `a` (axis 0) summed by four levels of accumulators."""
    size = a.shape[0]
    lanes = a.shape[1:]
    power = max(4, _ceil_log2(size) // _LEVELS)
    step = 1 << power
    chunks = size // step
    if chunks == 0:  # fewer rows than one run: the first accumulator alone
        return _in_order(a)
    # Level 0: each full run of `step` rows, then the rows left over.
    runs = a[: chunks * step].reshape((chunks, step) + lanes)
    if runs.flags.c_contiguous and runs.size >= _BLOCKED:
        level = _runs_in_order(runs)
    else:
        level = _in_order(np.moveaxis(runs, 1, 0))
    finals = [_in_order(a[chunks * step :])]
    # Levels 1 and 2 flush every `step` totals of the level below into the next; level 3
    # keeps all it receives.
    for depth in range(1, _LEVELS):
        n = level.shape[0]
        if depth == _LEVELS - 1:
            finals.append(_in_order(level))
            break
        groups = n // step
        finals.append(_in_order(level[groups * step :]))
        level = _in_order(np.moveaxis(level[: groups * step].reshape((groups, step) + lanes), 1, 0))
    total = finals[0]
    for f in finals[1:]:
        total = total + f
    return total


_BLOCKED = 1 << 16  # items from which `_runs_in_order` pays
_RUNS_BLOCK = 256  # runs per block of `_runs_in_order` (256 x 16 x 16 doubles: 512 KB)
_REDUCE_LANES = 4  # lanes from which `_runs_in_order` leaves the additions to `np.add.reduce`


def _runs_in_order(runs: np.ndarray) -> np.ndarray:
    """`_in_order` of each run of a C-contiguous (chunks, step, *lanes): run c's rows added in
    order, for every lane side by side; the same additions, faster. Added as they lie, each
    addition is an inner loop of one row's few lanes (16 values), so the loops' overhead is most
    of the time; here a block of runs is first moved so that row i of every run in the block is
    contiguous (each row copied as one opaque item, `V` dtype), and each addition is then one
    long contiguous loop over the block."""
    chunks, step = runs.shape[:2]
    lanes = runs.shape[2:]
    if runs[0, 0].size >= _REDUCE_LANES:
        # NumPy's reduction along the run's axis, which is not the innermost (the lanes are,
        # contiguous): its inner loop is the binary addition of one row into the lanes' totals,
        # row after row in order (a pairwise sum is only for a reduced innermost axis), from
        # `initial`; -0.0 + a is a, to the bit, for every a. The same additions; no copy.
        return np.add.reduce(runs, axis=1, initial=runs.dtype.type(-0.0))
    row = runs[0, 0].size * runs.itemsize
    items = runs.reshape(chunks, step, -1).view(f"V{row}").reshape(chunks, step)
    out = np.empty((chunks,) + lanes, dtype=runs.dtype)
    flat = out.reshape(chunks, -1)
    buf = np.empty((step, min(_RUNS_BLOCK, chunks)), dtype=items.dtype)
    for c in range(0, chunks, _RUNS_BLOCK):
        block = items[c : c + _RUNS_BLOCK]
        n = block.shape[0]
        moved = buf[:, :n]
        np.copyto(moved, block.T)
        rows = moved.view(runs.dtype)  # (step, n * lanes): row i of each run, side by side
        acc = flat[c : c + n].reshape(-1)
        np.copyto(acc, rows[0])
        for i in range(1, step):
            np.add(acc, rows[i], out=acc)
    return out


def _row_sum(a: np.ndarray) -> np.ndarray:
    """`row_sum`: a four-way split (rows i, i+4, ... in four cascades), the left-over rows
    added to the first, then the four added in order."""
    size = a.shape[0]
    lanes = a.shape[1:]
    if size < _ILP or 0 in lanes:  # no full row of four: the left-over rows in order
        return _in_order(a)
    n = size // _ILP
    parts = _multi_row(a[: n * _ILP].reshape((n, _ILP) + lanes))  # (4, *lanes)
    first = _in_order(np.concatenate([parts[:1], a[n * _ILP :]], axis=0))
    return _in_order(np.concatenate([first[None], parts[1:]], axis=0))


def _vectorized_inner(a: np.ndarray, lanes: int) -> np.ndarray:
    """`vectorized_inner_sum`: the row as vectors of `lanes` summed lane by lane (`row_sum`),
    then 0 + the tail + each lane, in order."""
    size = a.shape[0]
    rest = a.shape[1:]
    n = size // lanes
    vec = _row_sum(a[: n * lanes].reshape((n, lanes) + rest))  # (lanes, *rest)
    return _in_order(np.concatenate([a[n * lanes :], vec], axis=0))


# --- small full sums, one item at a time ---------------------------------------------------------
# The same additions in the same order as the NumPy code above (a sum of a hundred items is its
# dozens of NumPy calls on tiny arrays: tens of microseconds, for a loss or a chain's `.sum()`),
# on Python floats (a Python float addition is the float64 addition). A row of lanes is a list;
# `tests/core/test_summation.py` checks these against the NumPy code bit for bit, in float32
# too (on NumPy float32 scalars, which round each addition; slower than the NumPy code).

_SMALL = 128  # float64 items up to which a full sum of a contiguous tensor is added here


def _small_total(x: np.ndarray, lanes: int) -> Any:
    """`_vectorized_inner(x.reshape(-1, 1), lanes)[0]` (or `_row_sum` of a row shorter than
    one vector): the total of a full sum, before the output's `+ 0`."""
    flat = x.reshape(-1)
    vals = flat.tolist() if x.dtype == np.float64 else list(flat)
    zero = 0.0 if x.dtype == np.float64 else x.dtype.type(0)
    n = len(vals)
    if n < lanes:
        return _l_row_sum([[v] for v in vals], 1, zero)[0]
    nv = n // lanes
    rows = [vals[i * lanes : (i + 1) * lanes] for i in range(nv)]
    vec = _l_row_sum(rows, lanes, zero)
    return _l_in_order([[v] for v in vals[nv * lanes :]] + [[v] for v in vec], 1, zero)[0]


def _l_in_order(rows: list, width: int, zero: Any) -> list:
    """`_in_order` on rows of `width` lanes (lists): the first row, plus each next in order."""
    if not rows:
        return [zero] * width
    acc = rows[0]
    for r in rows[1:]:
        acc = [a + b for a, b in zip(acc, r)]
    return list(acc)


def _l_multi_row(rows: list, width: int, zero: Any) -> list:
    """`_multi_row` on rows of `width` lanes."""
    size = len(rows)
    power = max(4, _ceil_log2(size) // _LEVELS)
    step = 1 << power
    chunks = size // step
    if chunks == 0:
        return _l_in_order(rows, width, zero)
    level = [_l_in_order(rows[c * step : (c + 1) * step], width, zero) for c in range(chunks)]
    finals = [_l_in_order(rows[chunks * step :], width, zero)]
    for depth in range(1, _LEVELS):
        n = len(level)
        if depth == _LEVELS - 1:
            finals.append(_l_in_order(level, width, zero))
            break
        groups = n // step
        finals.append(_l_in_order(level[groups * step :], width, zero))
        level = [_l_in_order(level[g * step : (g + 1) * step], width, zero) for g in range(groups)]
    total = finals[0]
    for f in finals[1:]:
        total = [a + b for a, b in zip(total, f)]
    return total


def _l_row_sum(rows: list, width: int, zero: Any) -> list:
    """`_row_sum` on rows of `width` lanes: the rows in fours (each four one row of 4 * width
    lanes) through the cascade, the left-over rows added to the first part, then the parts."""
    size = len(rows)
    if size < _ILP or width == 0:
        return _l_in_order(rows, width, zero)
    n = size // _ILP
    fours = [rows[4 * i] + rows[4 * i + 1] + rows[4 * i + 2] + rows[4 * i + 3] for i in range(n)]
    flat = _l_multi_row(fours, _ILP * width, zero)
    parts = [flat[j * width : (j + 1) * width] for j in range(_ILP)]
    first = _l_in_order([parts[0]] + rows[n * _ILP :], width, zero)
    return _l_in_order([first] + parts[1:], width, zero)
