"""Memory layouts as PyTorch chooses them: the strides of an elementwise result (ATen's
TensorIterator lays its output out after its inputs) and of an `empty_like` tensor (a dense
tensor keeps its strides; any other is closed up in the order of its strides).

A gradcli tensor is a NumPy array whose strides are the tensor's (`torch_strides`), so a
result laid out here prints PyTorch's `.stride()` and `.is_contiguous()`, allows the same
`.view()`s, and is filled in the same order by a later in-place draw.

The rules, learned from ATen (TensorIterator's `fast_set_up`, `compute_strides`,
`reorder_dimensions` and `allocate_or_resize_outputs`; `infer_dense_strides`):

* inputs of one shape that are all contiguous give a contiguous result; all channels-last
  (4-d), a channels-last one; all dense (no gaps, no overlap) with the very same strides, a
  result with those strides;
* otherwise each input's strides are taken in the broadcast shape (0 where it is broadcast)
  and the dimensions are sorted from the fastest: an insertion sort whose comparison asks
  the inputs in order, the first with a strict opinion deciding (a broadcast dimension has
  none; equal strides put the smaller size inside), an undecided comparison passing on to
  the next dimension out. The result is dense in that order.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

_STANDARD: dict[tuple, tuple] = {}


def _standard(shape: tuple, itemsize: int) -> tuple:
    """The byte strides of a fresh row-major array of `shape` (NumPy's and PyTorch's)."""
    key = (shape, itemsize)
    got = _STANDARD.get(key)
    if got is None:
        got = tuple(s * itemsize for s in contiguous_strides(shape))
        if len(_STANDARD) > 4096:
            _STANDARD.clear()
        _STANDARD[key] = got
    return got


# (shape, byte strides) of arrays known to be row-major as PyTorch lays it out, or of fewer
# than 2 dimensions (whose layout takes no part in an elementwise result's)
PLAIN: set[tuple] = set()


def _plain(a: np.ndarray) -> bool:
    """Whether `a` is row-major with PyTorch's strides or has fewer than 2 dimensions
    (remembered in `PLAIN` when it is)."""
    if a.ndim < 2 or a.strides == _standard(a.shape, a.itemsize):
        if len(PLAIN) > 4096:
            PLAIN.clear()
        PLAIN.add((a.shape, a.strides))
        return True
    return False


def contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """Row-major strides in elements, as PyTorch gives them (a size 0 or 1 counts as 1)."""
    out, step = [], 1
    for n in reversed(shape):
        out.append(step)
        step *= max(int(n), 1)
    return tuple(reversed(out))


def column_major(values: np.ndarray) -> np.ndarray:
    """`values` (a matrix or a batch of matrices) laid out as LAPACK returns it through ATen:
    each matrix column-major, the batch row-major (`linalg.inv` of a 2 x 3 x 3 batch has
    strides (9, 1, 3)). Fewer than 2 dimensions or an empty array: `values` unchanged."""
    if values.ndim < 2 or values.size == 0:
        return values
    shape = values.shape
    m, n = int(shape[-2]), int(shape[-1])
    batch = contiguous_strides(shape[:-2]) if values.ndim > 2 else ()
    strides = tuple(s * m * n for s in batch) + (1, m)
    return with_strides(values, strides)


def torch_strides(a: np.ndarray) -> tuple[int, ...]:
    """The tensor's strides in elements. A new axis of size 1 (x[None], x[:, None]) has
    NumPy's stride 0; PyTorch's unsqueeze gives it the extent of the dimension after it."""
    size = a.itemsize
    steps = [int(v) // size for v in a.strides]
    shape = a.shape
    for d in range(a.ndim - 1, -1, -1):
        if shape[d] == 1 and steps[d] == 0:
            steps[d] = steps[d + 1] * shape[d + 1] if d + 1 < a.ndim else 1
    return tuple(steps)


def is_contiguous(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """PyTorch's row-major contiguity: sizes of 1 do not count, an empty tensor is."""
    if 0 in shape:
        return True
    expected = 1
    for n, s in zip(reversed(shape), reversed(strides)):
        if n == 1:
            continue
        if s != expected:
            return False
        expected *= n
    return True


def _channels_last(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """A 4-d tensor contiguous in channels-last order (sizes of 1 do not count)."""
    if len(shape) != 4:
        return False
    expected = 1
    for d in (1, 3, 2, 0):
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True


def _channels_last_strides(shape: Sequence[int]) -> tuple[int, ...]:
    n, c, h, w = shape
    s3 = c
    s2 = s3 * w
    return (s2 * h, 1, s2, s3)


# The channels-last memory formats: the rank each needs and the order of its dimensions from
# the fastest (PyTorch's NHWC and NDHWC).
FORMAT_ORDERS = {"channels_last": (1, 3, 2, 0), "channels_last_3d": (1, 4, 3, 2, 0)}


def format_strides(shape: Sequence[int], fmt: str) -> tuple[int, ...]:
    """The strides (in elements) of a tensor of `shape` laid out in the memory format `fmt`
    ("contiguous", "channels_last", "channels_last_3d"; the rank checked by the caller)."""
    order = FORMAT_ORDERS.get(fmt)
    if order is None:
        return contiguous_strides(shape)
    out = [0] * len(shape)
    step = 1
    for d in order:
        out[d] = step
        step *= max(int(shape[d]), 1)
    return tuple(out)


def format_contiguous(shape: Sequence[int], strides: Sequence[int], fmt: str) -> bool:
    """`x.is_contiguous(memory_format=fmt)`: dense in that format's order (sizes of 1 do not
    count); a tensor of another rank is not contiguous in a channels-last format."""
    order = FORMAT_ORDERS.get(fmt)
    if order is None:
        return is_contiguous(shape, strides)
    if len(shape) != len(order):
        return False
    expected = 1
    for d in order:
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True


def suggested_format(shape: Sequence[int], strides: Sequence[int]) -> str:
    """PyTorch's `suggest_memory_format()` (c10's is_channels_last_strides_2d/3d): whether
    the strides run in a channels-last order, ambiguous cases (a channel stride of 0, N111
    tensors) counted as contiguous."""
    order = FORMAT_ORDERS["channels_last" if len(shape) == 4 else "channels_last_3d"]
    if len(shape) not in (4, 5) or strides[1] == 0:
        return "contiguous"
    least = 0
    for d in order:
        if shape[d] == 0 or strides[d] < least:
            return "contiguous"
        if d == 0 and least == strides[1]:
            return "contiguous"
        least = strides[d] * (shape[d] if shape[d] > 1 else 1)
    return "channels_last" if len(shape) == 4 else "channels_last_3d"


def in_format(values: np.ndarray, fmt: str, copy: bool = False) -> np.ndarray:
    """`values` laid out in the memory format `fmt` (a copy when `copy`)."""
    return with_strides(values, format_strides(values.shape, fmt), copy)


def is_dense(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """Non-overlapping and dense: the elements fill a block of memory with no gaps, in some
    order of the dimensions (sizes of 0 and 1 do not count)."""
    if len(shape) == 1:
        return shape[0] < 2 or strides[0] == 1
    dims = sorted((d for d in range(len(shape)) if shape[d] >= 2), key=lambda d: strides[d])
    expected = 1
    for d in dims:
        if strides[d] != expected:
            return False
        expected *= shape[d]
    return True


def _sorted_dims(
    shape: Sequence[int],
    operands: Sequence[Sequence[int]],
    reduced: Sequence[int] | None = None,
) -> list[int]:
    """The dimensions from the fastest, as TensorIterator orders them: `operands` are the
    inputs' strides in the broadcast shape (0 where broadcast), in the op's order. For a
    reduction, `reduced` is the output's strides (0 on the reduced dimensions), which speak
    first: its zero strides go inside (`core.summation`)."""
    ndim = len(shape)
    perm = list(range(ndim - 1, -1, -1))
    ordered = operands if reduced is None else (reduced, *operands)

    def opinion(d0: int, d1: int) -> int:
        # 1: d0 goes outside d1; -1: it stays inside; 0: no input has a strict view
        for i, st in enumerate(ordered):
            s0, s1 = st[d0], st[d1]
            if reduced is not None and i == 0 and (s0 == 0) != (s1 == 0):
                return 1 if s1 == 0 else -1
            if s0 == 0 or s1 == 0:
                continue
            if s0 < s1:
                return -1
            if s0 > s1:
                return 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    for i in range(1, ndim):
        j = i
        for k in range(i - 1, -1, -1):
            c = opinion(perm[k], perm[j])
            if c > 0:
                perm[k], perm[j] = perm[j], perm[k]
                j = k
            elif c < 0:
                break
    return perm


def iterator_strides(
    shape: Sequence[int], inputs: Sequence[tuple[Sequence[int], Sequence[int]]]
) -> tuple[int, ...]:
    """The strides (in elements) of an elementwise result of `shape` whose inputs have these
    (shape, strides), in the op's order (a 0-d input counts for nothing)."""
    shape = tuple(int(n) for n in shape)
    ndim = len(shape)
    same = True
    scalars = tensors = False
    for s, _ in inputs:
        if len(s) == 0:
            scalars = True
        else:
            tensors = True
        if tuple(s) != shape:
            same = False
    if scalars and tensors:
        same = False
    if same and inputs:
        if all(is_contiguous(s, st) for s, st in inputs):
            return contiguous_strides(shape)
        if all(_channels_last(s, st) for s, st in inputs):
            return _channels_last_strides(shape)
        if all(is_dense(s, st) for s, st in inputs):
            first = tuple(inputs[-1][1])
            if all(tuple(st) == first for _, st in inputs):
                return first
    if ndim <= 1:
        return contiguous_strides(shape)
    operands = []
    for s, st in inputs:
        if len(s) == 0:
            continue
        lead = ndim - len(s)
        row = [0] * ndim
        for i, (n, step) in enumerate(zip(s, st)):
            row[lead + i] = 0 if (n == 1 and shape[lead + i] != 1) else int(step)
        operands.append(row)
    perm = _sorted_dims(shape, operands)
    if perm == list(range(ndim - 1, -1, -1)):
        return contiguous_strides(shape)
    out = [0] * ndim
    step = 1
    for d in perm:
        out[d] = step
        step *= shape[d]
    return tuple(out)


def like_strides(shape: Sequence[int], strides: Sequence[int]) -> tuple[int, ...]:
    """The strides of `torch.empty_like(x)` (preserve_format) for x of these: x's own when x
    is dense, else x's order of strides closed up (a stride of 0 keeps its place)."""
    shape = tuple(int(n) for n in shape)
    strides = tuple(int(s) for s in strides)
    if is_dense(shape, strides):
        return strides
    ndim = len(shape)
    perm = _sorted_dims(shape, [strides])  # (one tensor's opinion: its own order)
    out = [0] * ndim
    step = 1
    for d in perm:
        out[d] = step
        if shape[d] > 1:
            step *= shape[d]
    return tuple(out)


def with_strides(values: np.ndarray, strides: Sequence[int], copy: bool = False) -> np.ndarray:
    """`values` laid out with these strides (in elements; a dense layout): `values` itself
    when it already is (unless `copy`)."""
    if values.ndim == 0 or values.size == 0:
        return values.copy() if copy else values
    if not copy and torch_strides(values) == tuple(strides):
        return values
    buffer = np.empty(values.size, values.dtype)
    out = np.lib.stride_tricks.as_strided(
        buffer, values.shape, [s * values.itemsize for s in strides]
    )
    out[...] = values
    return out


def iterated(data: np.ndarray, arrays: Sequence[np.ndarray]) -> np.ndarray:
    """An elementwise op's result `data` laid out as PyTorch lays it out after its inputs
    `arrays` (in the op's order). Inputs that are all row-major (or of fewer than 2
    dimensions) give a row-major result, checked first at little cost; other layouts are
    worked out once per combination of shapes and strides."""
    shape = data.shape
    if len(shape) < 2 or not data.size:
        return data
    plain = PLAIN
    for a in arrays:
        if (a.shape, a.strides) not in plain and not _plain(a):
            break
    else:
        if (shape, data.strides) in plain or _plain(data):
            return data
        return with_strides(data, contiguous_strides(shape))
    key = (shape, *[(a.shape, a.strides, a.itemsize) for a in arrays])
    strides = _ITERATED.get(key)
    if strides is None:
        inputs = [
            (a.shape, torch_strides(a) if a.size else contiguous_strides(a.shape)) for a in arrays
        ]
        strides = iterator_strides(shape, inputs)
        if len(_ITERATED) > 4096:
            _ITERATED.clear()
        _ITERATED[key] = strides
    size = data.itemsize
    if data.strides == tuple(s * size for s in strides):
        return data
    return with_strides(data, strides)


# (shape of the result, (shape, strides, itemsize) of each input) -> the result's strides
_ITERATED: dict[tuple, tuple[int, ...]] = {}


def like(values: np.ndarray, model: np.ndarray, copy: bool = False) -> np.ndarray:
    """`values` (of `model`'s shape) laid out as `torch.empty_like(model)`: a clone, a cast
    (`x.double()`, `x.to(...)`), `zeros_like`, `rand_like`. `copy`: always a new array."""
    if values.ndim < 2 or values.size == 0:
        return values.copy() if copy else values
    if model.strides == _standard(model.shape, model.itemsize):
        strides = contiguous_strides(values.shape)
    else:
        strides = like_strides(model.shape, torch_strides(model))
    return with_strides(values, strides, copy)


def row_major(values: np.ndarray, copy: bool = False) -> np.ndarray:
    """`values` laid out row-major with PyTorch's strides (`x.contiguous()`,
    memory_format=torch.contiguous_format): NumPy's flag ignores the strides of dimensions
    of size 1, which `.stride()` shows."""
    if values.ndim == 0 or values.strides == _standard(values.shape, values.itemsize):
        return values.copy() if copy else values
    return with_strides(values, contiguous_strides(values.shape), copy)


def restrided(view: np.ndarray, strides: Sequence[int]) -> np.ndarray:
    """`view` (a view of a tensor's storage) with these strides in elements, on the same
    memory: only the strides of dimensions of size 1 may differ (a view's others are set by
    its shape), so the elements are the same ones."""
    if torch_strides(view) == tuple(strides):
        return view
    return np.lib.stride_tricks.as_strided(
        view,
        view.shape,
        [s * view.itemsize for s in strides],
        writeable=view.flags.writeable,
    )
