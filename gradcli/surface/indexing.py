"""Indexing as PyTorch's: `x[i]`, `x[:, 1:3]`, `x[..., 0]`, `x[None]`, index and mask tensors,
checked (bounds, the size of the result) before anything is made; and `x[key] = value` where
gradients flow through it (PyTorch's CopySlices), out of place."""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core import hooks
from ..core import inplace as core_inplace
from ..core import op as core_op
from ..core.dtypes import checked_scalar, scalar_type_name, wrap_unsigned
from ..core.inplace import (
    VIEW_OF_LEAF,
    check_capture,
    check_nograd_setitem,
    check_restated,
    check_view_setitem,
    inplace,
)
from ..core.op import apply, versioned
from ..core.tensor import (
    META,
    META_NONZERO,
    Tensor,
    _GradMode,
    batched,
    bumped,
    data_array,
    enable_grad,
    grad_enabled,
    own,
    typename,
)
from ..ops import binary as B
from ..ops import shape as S
from ..ops.arithmetic import scalar_operand, size_check
from .functional import expand, expand_check, to_dtype


def index_result_size(shape: tuple[int, ...], idx: tuple) -> int:
    """The number of elements `x[idx]` has, computed without making it (0 if the index is
    invalid: NumPy then refuses it without allocating anything)."""
    try:
        consumed = 0
        for k in idx:
            if isinstance(k, np.ndarray) and k.dtype == bool:
                consumed += k.ndim
            elif k is not None and k is not Ellipsis:
                consumed += 1
        total, pos, arrays = 1, 0, []
        for k in idx:
            if k is None:
                continue
            if k is Ellipsis:
                for d in shape[pos : pos + len(shape) - consumed]:
                    total *= d
                pos += len(shape) - consumed
            elif isinstance(k, slice):
                total *= len(range(*k.indices(shape[pos])))
                pos += 1
            elif isinstance(k, np.ndarray):
                arrays.append((int(np.count_nonzero(k)),) if k.dtype == bool else k.shape)
                pos += k.ndim if k.dtype == bool else 1
            else:
                pos += 1
        for d in shape[pos:]:
            total *= d
        if arrays:
            total *= math.prod(np.broadcast_shapes(*arrays))
        return total
    except (IndexError, ValueError, TypeError):
        return 0


def _index_error(message: str) -> GradcliError:
    return GradcliError(message).mirror("IndexError")


def check_index(shape: tuple[int, ...], idx: tuple) -> None:
    """Refuse an invalid index in PyTorch's words, before anything is made.

    PyTorch applies the integers, slices, None and the ellipsis first (an integer's error names
    its position in the index as written), then the index tensors together: an integer tensor's
    error names its place among the index tensors, a mask's the dimension it covers."""
    ndim = len(shape)
    specified = 0
    for k in idx:
        if isinstance(k, np.ndarray) and k.dtype == bool:
            specified += k.ndim
        elif k is not None and k is not Ellipsis:
            specified += 1
    if ndim == 0 and any(isinstance(k, (int, np.ndarray)) and not _is_bool(k) for k in idx):
        raise _index_error(
            "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
            "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
        )
    if specified > ndim:
        raise _index_error(f"too many indices for tensor of dimension {ndim}")
    # The basic indices, in order: the shape they leave and where each tensor index lands.
    dim, result, arrays, ellipsis_seen = 0, [], [], False
    for i, k in enumerate(idx):
        if k is None:
            result.append(1)
        elif k is Ellipsis:
            width = 0 if ellipsis_seen else ndim - specified
            ellipsis_seen = True
            result.extend(shape[dim : dim + width])
            dim += width
        elif isinstance(k, int):
            size = shape[dim]
            if not -size <= k < size:
                raise _index_error(f"index {k} is out of bounds for dimension {i} with size {size}")
            dim += 1
        elif isinstance(k, slice):
            result.append(len(range(*k.indices(shape[dim]))))
            dim += 1
        else:  # an index array: a mask covers k.ndim dimensions
            width = k.ndim if k.dtype == bool else 1
            arrays.append((len(result), k))
            result.extend(shape[dim : dim + width])
            dim += width
    result.extend(shape[dim:])
    shapes, position = [], 0
    for at, k in arrays:
        if k.dtype == bool:
            if k.ndim and tuple(k.shape) != tuple(result[at : at + k.ndim]):
                bad = next(j for j in range(k.ndim) if k.shape[j] != result[at + j])
                raise _index_error(
                    f"The shape of the mask {list(k.shape)} at index {bad} does not match the "
                    f"shape of the indexed tensor {result} at index {at + bad}"
                )
            shapes.append([int(np.count_nonzero(k))] if k.ndim else [])
            position += k.ndim
            continue
        size = result[at]
        out = (k < -size) | (k >= size)
        if out.any():
            value = int(k[out].flat[0]) if k.ndim else int(k)
            raise _index_error(
                f"index {value} is out of bounds for dimension {position} with size {size}"
            )
        shapes.append(list(k.shape))
        position += 1
    try:
        np.broadcast_shapes(*(tuple(s) for s in shapes))
    except ValueError:
        listed = ", ".join(str(s) for s in shapes)
        raise _index_error(
            f"shape mismatch: indexing tensors could not be broadcast together with shapes {listed}"
        ) from None


_UINT8_INDEX = (
    "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead."
)
_NO_VALUE = object()


def program_key(key: Any, value: Any = _NO_VALUE) -> Any:
    """A program's subscript of a tensor as PyTorch reads it: a list read as a tuple of
    indices as `legacy_key` says, and a uint8 tensor as a bool mask (warned; an assignment of a
    number through one is PyTorch's masked_fill_ error). `value`: what an assignment writes."""
    key = legacy_key(key)
    items = key if isinstance(key, tuple) else (key,)
    if any(isinstance(k, Tensor) and k.dtype == np.uint8 for k in items):
        if value is not _NO_VALUE and (not isinstance(value, Tensor) or value.ndim == 0):
            raise GradcliError(
                "masked_fill_ only supports boolean masks, but got mask with dtype unsigned char",
                hint="make the mask bool: x[mask.bool()] = v",
            ).mirror("RuntimeError")
        hooks.warn(_UINT8_INDEX, "make the mask bool: mask.bool()")
        items = tuple(
            Tensor(k.data.astype(bool)) if isinstance(k, Tensor) and k.dtype == np.uint8 else k
            for k in items
        )
        key = items if isinstance(key, tuple) else items[0]
    return key


def _sequence_warning(line: int) -> str:
    return (
        "Using a non-tuple sequence for multidimensional indexing is deprecated and will be "
        "changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will "
        "be interpreted as tensor index, x[torch.tensor(seq)], which will result either in an "
        "error or a different result (Triggered internally at "
        f"/__w/pytorch/pytorch/torch/csrc/autograd/python_variable_indexing.cpp:{line}.)"
    )


def legacy_key(key: Any) -> Any:
    """A list used as a tensor's index, as PyTorch 2.13 reads it (NumPy's old rule): a list of
    fewer than 32 items of which one is a tensor, a sequence (list, tuple, range, array,
    string), a slice, None or Ellipsis is a tuple of indices, with PyTorch's deprecation
    warning: `x[[rows, range(n)]]` is `x[rows, range(n)]`, `x[[[0, 1], [1, 2]]]` picks two
    elements. Any other key is itself (a list of numbers is one integer index)."""
    if type(key) is not list or len(key) >= 32:
        return key
    for k in key:
        if isinstance(k, (Tensor, list, tuple, range, slice, np.ndarray, str)):
            hooks.warn(_sequence_warning(349))
            return tuple(key)
        if k is None or k is Ellipsis:
            hooks.warn(_sequence_warning(359))
            return tuple(key)
    return key


def _is_bool(k: Any) -> bool:
    return isinstance(k, np.ndarray) and k.dtype == bool


def normalize_index(x: Tensor, key: Any) -> tuple:
    items = key if isinstance(key, tuple) else (key,)
    out = []
    for k in items:
        if k is None or k is Ellipsis or isinstance(k, slice):
            if isinstance(k, slice):
                for part in (k.start, k.stop, k.step):
                    if part is not None and not isinstance(part, (int, np.integer)):
                        if isinstance(part, Tensor) and part.data.size == 1:
                            continue
                        raise GradcliError(
                            "slice indices must be integers or None or have an __index__ method"
                        ).mirror("TypeError")
                if k.step is not None and int(k.step) == 0:
                    raise GradcliError("slice step cannot be zero").mirror("ValueError")
                if k.step is not None and int(k.step) < 0:
                    raise GradcliError(
                        "step must be greater than zero",
                        hint="PyTorch has no negative steps: `x.flip(dim)` reverses a dimension",
                    ).mirror("ValueError")
            out.append(k)
        elif isinstance(k, bool):
            out.append(np.asarray(k))
        elif isinstance(k, (int, np.integer)):
            out.append(int(k))
        elif isinstance(k, Tensor):
            if k.dtype.kind == "b":
                out.append(k.data)
            elif k.ndim == 0 and k.dtype.kind == "i":
                # PyTorch takes a 0-dim integer tensor as the integer it holds: x[:, t] is a
                # view (select), so a change in place through it reaches x
                out.append(int(k.data))
            elif k.dtype in (np.int64, np.int32):
                # (a tensor of indices is long or int; a uint8 one is a mask, made bool above;
                # int8 and int16 only as a 0-dim number, above)
                out.append(k.data.astype(np.int64))
            else:
                raise _index_error(
                    "tensors used as indices must be long, int, byte or bool tensors"
                )
        elif isinstance(k, np.ndarray) and k.dtype.kind in "biu":
            # A NumPy array of indices or a mask (`x[np.where(c)[0]]`), as PyTorch takes it.
            out.append(k.copy() if k.dtype == bool else k.astype(np.int64))
        elif isinstance(k, range):
            # A range is a sequence of integers, as a list of them (`x[range(n), target]`).
            n = max(0, -((k.start - k.stop) // k.step))  # len() overflows past sys.maxsize
            size_check((n,), "the range used as an index")
            out.append(np.arange(k.start, k.stop, k.step, dtype=np.int64))
        elif isinstance(k, list):
            # A list of booleans is a mask, as in PyTorch (not the integers 1 and 0).
            arr = data_array(k, None)
            out.append(arr if arr.dtype == bool else np.asarray(data_array(k, np.int64)))
        else:
            raise _index_error(
                "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
                f"are valid indices (got {typename(k)})"
            )
    idx = tuple(out)
    check_index(x.shape, idx)
    # The probe below makes the result (of bytes): refuse a huge one before it is made.
    size_check((index_result_size(x.shape, idx),), "the indexed result")
    # Let NumPy find any other problem on a zero-cost view.
    try:
        probe = np.broadcast_to(np.zeros((), dtype=np.int8), x.shape)[idx]
    except IndexError as e:
        raise GradcliError(
            f"invalid index: {e}", hint=f"the tensor has shape {list(x.shape)}"
        ).mirror("IndexError") from None
    size_check(probe.shape, "the indexed result")
    return idx


def index_assign(
    x: Tensor, key: Any, value: Any, label: str | None = None, shown: tuple | None = None
) -> Tensor:
    """`x[key] = value` when gradients must flow (PyTorch's CopySlices), out of place: the
    result is x with the indexed region replaced, differentiable in both x and value (its
    node `label`, else the one PyTorch records for the key; its `next_functions` those of x
    and `shown`, by default the value)."""
    split = selects_first(key)
    if split is not None:
        # x[first][rest] = value: the selected part with its rest replaced, put back
        first, rest = split
        part = index_assign(getitem(x, first), rest, value, shown=shown)
        return index_assign(x, first, part, label=label or put_label(x.shape, key), shown=shown)
    idx = normalize_index(x, key)
    region = np.broadcast_to(np.zeros((), dtype=np.int8), x.shape)[idx].shape
    v = value if isinstance(value, Tensor) else scalar_operand(value, x)
    check_value_shape(v.shape, region, idx, v.dtype)
    if v.dtype != x.dtype:
        v = to_dtype(v, x.dtype)
    if v.shape != region:
        v = expand(v.reshape(_strip_leading_ones(v.shape, len(region))), region)
    placed = apply(
        S.index_put, v, idx=idx, shape=x.shape, out_ndim=len(region), label="IndexPutBackward0"
    )
    # x where it is kept (its assigned places set, not multiplied: an inf or nan overwritten
    # must not leave 0 * inf)
    kept = apply(S.zero_region, x, idx=idx, base=x.ndim)
    out = apply(B.add, kept, placed, label=label or put_label(x.shape, key))
    if out.node is not None:
        # PyTorch's CopySlices (and index_put_'s node) is freed by a backward without
        # retain_graph, whatever it copied: a second backward through it fails
        out.node.keeps = True
        given = value if isinstance(value, Tensor) else v
        core_op.SHOWN_INPUTS[out.node] = (x, *((given,) if shown is None else shown))
    # the values themselves, as PyTorch writes them: the sum above turns a -0.0 (kept or
    # written) into +0.0, which prints as 0. instead of -0.
    if out.data.shape == x.data.shape and v.data.shape == region:
        if out.data.flags.writeable and out.data.dtype == x.data.dtype:
            # (the sum's own fresh array, written over: a large buffer's row writes allocate
            # one array less each)
            np.copyto(out.data, x.data)
            out.data[idx] = v.data
        else:
            exact = x.data.copy()
            exact[idx] = v.data
            out.data = exact
    return out


def check_put_dtype(x: Tensor, key: Any, value: Any, accumulate: bool = False) -> None:
    """ATen's index_put_ writes a tensor of x's own dtype only (`x[idx] = v` with an index
    tensor, a list or a mask; `x.index_put`): a float64 or an int64 tensor into a float32 one
    is its error. But for a single mask and a one-element value, which it passes to
    masked_fill_ (any dtype: `x[x > 0] = torch.tensor(0)`); basic indices copy (any dtype).
    A number is first made a one-element tensor of x's dtype: PyTorch's error when it does not
    fit."""
    if not isinstance(value, Tensor):
        checked_scalar(value, x.dtype, 1)
        return
    if value.dtype == x.dtype:
        return
    parts = key if isinstance(key, tuple) else (key,)
    tensors = [k for k in parts if _advanced(k)]
    if not tensors:
        return
    mask = len(tensors) == 1 and isinstance(tensors[0], Tensor) and tensors[0].dtype.kind in "bu"
    if mask and not accumulate and value.data.size == 1:
        return
    raise GradcliError(
        "Index put requires the source and destination dtypes match, got "
        f"{scalar_type_name(x.dtype)} for the destination and {scalar_type_name(value.dtype)} "
        "for the source.",
        hint="convert the value to the tensor's dtype first: v.to(x.dtype)",
    )


def _advanced(k: Any) -> bool:
    """An index PyTorch hands to index_put (a tensor of indices or a mask, a list, a range:
    a sequence of integers as a list of them)."""
    if isinstance(k, Tensor):
        return not (k.ndim == 0 and k.dtype.kind in "iu")
    return isinstance(k, (list, np.ndarray, range))


def _spans_all(shape: tuple[int, ...], items: tuple) -> bool:
    """Whether every index that is not a tensor is `...` or a slice that starts at 0 as
    written, stops at or past the end of its dimension and steps by 1: PyTorch's item
    assignment then indexes x itself, not a view of it (`x[-2:]` and `x[:, None]` make views)."""
    dims = [
        (k.ndim if isinstance(k, Tensor) and k.dtype == bool else 1)
        for k in items
        if k is not Ellipsis
    ]
    if sum(dims) > len(shape) or len(items) - len(dims) > 1:
        return False  # refused by normalize_index, in PyTorch's words
    pos = 0
    for k in items:
        if k is Ellipsis:
            pos += len(shape) - sum(dims)
            continue
        if _advanced(k):
            pos += k.ndim if isinstance(k, Tensor) and k.dtype == bool else 1
            continue
        if not isinstance(k, slice):
            return False  # an integer selects, None unsqueezes, True adds a dimension
        try:
            start = 0 if k.start is None else operator.index(k.start)
            stop = shape[pos] if k.stop is None else operator.index(k.stop)
            step = 1 if k.step is None else operator.index(k.step)
        except TypeError:
            return False  # bounds that are not integers: normalize_index says why
        if start != 0 or stop < shape[pos] or step != 1:
            return False
        pos += 1
    return True


def whole_key(shape: tuple[int, ...], key: Any) -> bool:
    """Whether `x[key] = value` writes all of x itself (`_spans_all`, no tensor index): as
    in PyTorch, `x[:] = 4` is `x.fill_(4)` (FillBackward3) and `x[...] = t` is `x.copy_(t)`
    (CopyBackwards), where other keys record CopySlices."""
    items = key if isinstance(key, tuple) else (key,)
    return not any(_advanced(k) for k in items) and _spans_all(shape, items)


def put_label(shape: tuple[int, ...], key: Any) -> str:
    """The node PyTorch records for `x[key] = value` when key is not whole: IndexPutBackward0
    when tensor indices apply to x itself (`x[mask] = 0`, `x[:, [1, 2]] = 4`), else
    CopySlices (the assignment goes into a view of x)."""
    items = key if isinstance(key, tuple) else (key,)
    if any(_advanced(k) for k in items) and _spans_all(shape, items):
        return "IndexPutBackward0"
    return "torch::autograd::CopySlices"


def assign_whole(x: Tensor, value: Any) -> None:
    """`x[key] = value` for a whole key (`whole_key`): as PyTorch's `copy_to`, x.copy_(value)
    when the shapes are equal, x.fill_(value) for a one-element value of no dimensions, else
    x.copy_(value expanded to x's shape); a leaf that requires grad is refused as a leaf."""
    from .functional import _overwritten

    v = value if isinstance(value, Tensor) else scalar_operand(value, x)
    check_value_shape(v.shape, x.shape, (), v.dtype)
    if v.shape != x.shape and v.ndim:
        v = v.reshape(_strip_leading_ones(v.shape, x.ndim))
    label = "FillBackward3" if v.ndim == 0 and x.ndim else "torch::autograd::CopyBackwards"
    inplace(x, lambda old: _overwritten(old, v, label))


def setitem_op(key: Any) -> str:
    """PyTorch's ATen name of `x[key] = value`: index_put_ for a tensor or list index (a mask
    too), else a copy into the view the key picks."""
    parts = key if isinstance(key, tuple) else (key,)
    advanced = any(isinstance(k, (Tensor, list, np.ndarray, range)) for k in parts)
    return "aten::index_put_" if advanced else "aten::copy_"


def setitem(x: Tensor, key: Any, value: Any) -> None:
    """`x[key] = value`, in place: recorded as PyTorch's CopySlices when gradients flow."""
    check_capture(x, lambda: setitem_op(key))
    check_put_dtype(x, key, value)
    value = wrap_unsigned(value, x.dtype)
    if whole_key(x.shape, key):
        assign_whole(x, value)
        return
    if grad_enabled() and (x.requires_grad or (isinstance(value, Tensor) and value.requires_grad)):
        if x.requires_grad and x.node is None:
            check_nograd_setitem(x, key)
            raise GradcliError(
                VIEW_OF_LEAF, hint="assign under `with torch.no_grad():`, or into a clone"
            )
        check_view_setitem(x, key)
        address = written_address(x, key) if hooks.before_write is not None else None
        inplace(x, lambda old: index_assign(old, key, value), address)
        return
    first, idx, region = place(x, key)
    new = value.data if isinstance(value, Tensor) else data_array(value, x.dtype)
    check_value_shape(np.shape(new), region, idx, getattr(new, "dtype", x.dtype))
    if hooks.before_write is not None:
        hooks.before_write(x, written_address(x, key))
    own(x)  # lent data (`core.tensor.lend`) is copied before its first write
    try:
        (x.data[first] if first else x.data)[idx] = fit_value(new, region)
    except (ValueError, TypeError, IndexError) as e:
        raise GradcliError(f"cannot assign: {e}") from None
    bumped(x)


def written_address(x: Tensor, key: Any) -> int | None:
    """The address of the first element `x[key] = v` writes through, as PyTorch's copy_ into
    the view `x[key]` has it (None: x's own, an advanced index's index_put_ on x)."""
    try:
        idx = normalize_index(x, key)
        idx = idx if isinstance(idx, tuple) else (idx,)
        if not any(i is Ellipsis for i in idx):
            idx = (*idx, Ellipsis)  # (a view of one element too, not a NumPy number)
        region = x.data[idx]
    except Exception:  # noqa: BLE001 - the assignment itself reports a wrong key
        return None
    if not isinstance(region, np.ndarray) or not np.shares_memory(region, x.data):
        return None
    return int(region.__array_interface__["data"][0])


def _strip_leading_ones(shape: tuple[int, ...], ndim: int) -> tuple[int, ...]:
    """A value's shape without the leading 1s past the region's dimensions (PyTorch drops
    them before copying: `x[0] = torch.ones(1, 3)` fills a row of 3)."""
    shape = tuple(shape)
    while len(shape) > ndim and shape[0] == 1:
        shape = shape[1:]
    return shape


def fit_value(value: Any, region: tuple[int, ...]) -> Any:
    """A value for `x[idx] = value` without the leading 1s PyTorch drops."""
    shape = np.shape(value)
    if len(shape) <= len(region):
        return value
    return np.reshape(value, _strip_leading_ones(shape, len(region)))


def check_value_shape(
    vshape: tuple[int, ...], region: tuple[int, ...], idx: tuple, dtype: Any
) -> None:
    """`x[idx] = value`: refuse a value that does not fit the region, in PyTorch's words
    (basic indices copy into a view, which expands the value; index tensors go through
    index_put, which broadcasts it)."""
    vshape = _strip_leading_ones(vshape, len(region))
    if any(isinstance(k, np.ndarray) for k in idx):
        try:
            if len(vshape) > len(region):
                raise ValueError
            np.broadcast_shapes(vshape, region)
        except ValueError:
            raise GradcliError(
                f"shape mismatch: value tensor of shape {list(vshape)} cannot be broadcast to "
                f"indexing result of shape {list(region)}"
            ) from None
        return
    expand_check(vshape, region, dtype)


def _rebase(view: Tensor, base: Tensor, idx: tuple, new: Tensor) -> None:
    """`view` (= base[idx]) changed in place to `new`: recorded as `base[idx] = new` (PyTorch's
    CopySlices on base, whose storage the view shares), the view then a view of base's new
    version."""
    inplace(
        base,
        lambda old: index_assign(old, idx, new, "torch::autograd::CopySlices", _operands(new)),
    )
    r = apply(S.index, base, idx=idx, label="AsStridedBackward0")  # PyTorch's name for it
    if r.node is not None:
        r.node.out = view
        versioned(r.node, view.node)
        view.node = r.node
        view.requires_grad = True
    view._vver = view._vc[0]


def _operands(new: Tensor) -> tuple:
    """The operands other than the view of the change in place that made `new` (what
    PyTorch's CopySlices shows after the tensor's previous version): none for a fill."""
    n = new.node
    if n is None or n.name().startswith(("Fill", "Zero")):
        return ()
    inner = core_op.SHOWN_INPUTS.get(n)
    if inner is not None:  # a change through a view of a view: the innermost change's
        return inner[1:]
    return tuple(n.inputs[1:])


core_inplace.REBASE = _rebase


def strided_places(shape: tuple, steps: Any, first: int) -> np.ndarray:
    """The storage place (in elements) of each element of a strided layout: `first` plus the
    steps times each index."""
    at = np.full(shape, first, dtype=np.int64)
    for k, (n, st) in enumerate(zip(shape, steps)):
        at += (np.arange(n, dtype=np.int64) * st).reshape(
            (1,) * k + (n,) + (1,) * (len(shape) - k - 1)
        )
    return at


def index_of_places(base: np.ndarray, at: np.ndarray) -> tuple | None:
    """The index of `base` (one integer array per axis, of `at`'s shape) of the elements at
    the storage places `at` (in elements from base's first one); None when a place is not an
    element of base, or base's storage is too sparse for a lookup table of its span."""
    item = base.itemsize
    if base.ndim == 0 or base.size == 0 or any(s % item for s in base.strides):
        return None
    held = strided_places(base.shape, [s // item for s in base.strides], 0)
    low, high = int(held.min()), int(held.max())
    if high - low >= 4 * base.size + 64:
        return None
    if at.size and (int(at.min()) < low or int(at.max()) > high):
        return None
    where = np.full(high - low + 1, -1, dtype=np.int64)
    where[held.ravel() - low] = np.arange(base.size, dtype=np.int64)
    flat = where[at - low]
    if (flat < 0).any():
        return None
    return np.unravel_index(flat, base.shape)


def _storage_index(view: np.ndarray, base: np.ndarray) -> tuple | None:
    """The index of `base` (one integer array per axis, each of the view's shape) that picks
    the elements `view` shows of base's storage; None when the view is not in that storage
    (its data was replaced) or reinterprets it (another dtype)."""
    if view.dtype != base.dtype:
        return None
    item = base.itemsize
    start, rest = divmod(
        view.__array_interface__["data"][0] - base.__array_interface__["data"][0], item
    )
    if rest or any(s % item for s in view.strides):
        return None
    return index_of_places(
        base, strided_places(view.shape, [s // item for s in view.strides], start)
    )


def _rederive(view: Tensor) -> None:
    """A view used after the tensor it views was changed in place: its new node picks its
    elements from the tensor's current version (PyTorch's regenerated grad_fn), so its
    gradient goes through the change. Nodes that used the view before keep the old one."""
    base = view._base
    if base.requires_grad or view.requires_grad:
        # (a custom Function's view of a tensor made inside its forward: that tensor does not
        # require grad, the view does, and PyTorch cannot regenerate its grad_fn either)
        check_restated(view)
    view._vver = view._vc[0]
    if not base.requires_grad:
        return
    idx = _storage_index(view.data, base.data)
    if idx is None:
        return  # (a backward pass through it is refused: `graph.stale_views`)
    with enable_grad():  # (PyTorch's view has its new grad_fn in any grad mode)
        r = apply(S.index, base, idx=idx, label="AsStridedBackward0")
    if r.node is not None:
        r.node.out = view
        versioned(r.node, view.node)
        view.node = r.node
        view.requires_grad = True


core_op.REDERIVE = _rederive
core_inplace.STORAGE_INDEX = _storage_index


VMAP_MASK = (
    "vmap: We do not support batching operators that can support dynamic shape. Attempting to "
    "batch over indexing with a boolean mask."
)


def vmap_dynamic(x: Tensor, aten: str) -> None:
    """Refuse, as PyTorch's vmap does, an op whose result's shape depends on the values
    (nonzero, unique...) over a tensor vmap batches, whatever the values are (`aten` the
    operator PyTorch names)."""
    if _GradMode.vmapped and batched(x):
        if aten == "nonzero_numpy":  # nonzero(as_tuple=True): no batching rule, no fallback
            msg = (
                "Batching rule not implemented for aten::nonzero_numpy. We could not generate "
                "a fallback."
            )
        elif aten == "masked_select":
            msg = (
                "vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) We cannot "
                "support this because for each batch this would return a differently shaped "
                "Tensor. Please file an issue at https://github.com/pytorch/pytorch/issues if you "
                "need this feature."
            )
        else:
            msg = (
                "vmap: We do not support batching operators that can output dynamic shape. "
                f"Attempted to vmap over aten::{aten}. Please file an issue at "
                "https://github.com/pytorch/pytorch/issues if you need this feature."
            )
        raise GradcliError(msg).mirror("RuntimeError")


def _basic(shape: tuple[int, ...], key: Any) -> tuple | None:
    """`key` as `normalize_index` gives it when it is only integers within their dimensions and
    slices of integers or None with a positive step, at most one per dimension (chunk, unbind,
    `x[:, -1]`): a view of no more elements than `x`, which every check passes. None for
    anything else (`normalize_index` checks it)."""
    items = key if type(key) is tuple else (key,)
    if len(items) > len(shape):
        return None
    for d, k in enumerate(items):
        tk = type(k)
        if tk is slice:
            start, stop, step = k.start, k.stop, k.step
            if not (
                (start is None or type(start) is int)
                and (stop is None or type(stop) is int)
                and (step is None or (type(step) is int and step > 0))
            ):
                return None
        elif tk is int:
            if not -shape[d] <= k < shape[d]:
                return None
        else:
            return None
    return items


def getitem(x: Tensor, key: Any) -> Tensor:
    """`x[key]` (`Tensor.__getitem__`), its node PyTorch's for the key (`index_label`)."""
    return index_as(x, key, None)


def index_as(x: Tensor, key: Any, label: str | None) -> Tensor:
    """`x[key]` whose node is `label` (split's pieces, unbind's: SplitBackward0,
    UnbindBackward0), or PyTorch's for the key when None."""
    shape = x.data.shape
    idx = _basic(shape, key)
    if idx is not None:
        return apply(S.index, x, idx=idx, label=label or index_label(shape, key))
    items = key if isinstance(key, tuple) else (key,)
    if META and any(isinstance(k, Tensor) and k.dtype == np.bool_ and k in META for k in items):
        raise GradcliError(  # (PyTorch's boolean index runs nonzero on the mask)
            META_NONZERO, hint="make the mask on the CPU: a meta tensor has no values"
        ).mirror("NotImplementedError")
    if _GradMode.vmapped:
        # a batched boolean mask gives each element a result of its own shape: PyTorch's vmap
        # refuses it (a mask of constants indexes every element alike)
        masks = [k for k in items if isinstance(k, Tensor) and k.dtype == np.bool_ and k.ndim]
        if any(batched(m) for m in masks):
            raise GradcliError(VMAP_MASK).mirror("RuntimeError")
    split = selects_first(key)
    if split is not None:
        # PyTorch selects integer indices first and then applies the tensor indices; NumPy
        # would treat the integers as advanced indices too (and can move the result's axes).
        first, rest = split
        return index_as(getitem(x, first), rest, label)
    idx = normalize_index(x, key)
    return apply(S.index, x, idx=idx, label=label or index_label(x.shape, key))


def _selects(k: Any) -> bool:
    """An index PyTorch applies as a select: an int, or a 0-dim integer tensor (its value)."""
    if isinstance(k, Tensor):
        return k.ndim == 0 and k.dtype.kind == "i"
    return isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_))


def selects_first(key: Any) -> tuple[tuple, tuple] | None:
    """A key of integers and tensors (or lists) together, as PyTorch applies it: the integers
    select first (`first`, slices elsewhere), then the rest indexes what is left (`rest`).
    NumPy takes the integers as advanced indices with the arrays, which moves the indexed axes
    to the front when a slice separates them: `x[0, :, idx]` would come out transposed. None
    for any other key (one NumPy index gives PyTorch's result)."""
    items = key if isinstance(key, tuple) else (key,)
    ints = [_selects(k) for k in items]
    arrays = [
        isinstance(k, (list, Tensor, np.ndarray)) and not (isinstance(k, Tensor) and k.ndim == 0)
        for k in items
    ]
    if not (any(ints) and any(arrays)) or any(k is None or k is Ellipsis for k in items):
        return None
    first = tuple(k if i else slice(None) for k, i in zip(items, ints))
    rest = tuple(k for k, i in zip(items, ints) if not i)
    return first, rest


def place(x: Tensor, key: Any) -> tuple[tuple, tuple, tuple[int, ...]]:
    """(first, idx, region) with `x.data[first][idx]` the places `x[key]` writes, as PyTorch
    indexes (first is () for one NumPy index: write `x.data[idx]`), and region their shape."""
    split = selects_first(key)
    if split is None:
        idx = normalize_index(x, key)
        return (), idx, np.broadcast_to(np.zeros((), dtype=np.int8), x.shape)[idx].shape
    first = normalize_index(x, split[0])  # (integers and slices: a view)
    part = np.broadcast_to(np.zeros((), dtype=np.int8), x.shape)[first]
    idx = normalize_index(Tensor(part), split[1])
    return first, idx, part[idx].shape


def _is_int(k: Any) -> bool:
    if isinstance(k, Tensor):
        return k.ndim == 0 and k.dtype.kind in "iu"
    return isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_))


def index_label(shape: tuple[int, ...], key: Any) -> str:
    """The grad_fn PyTorch shows for `x[key]`: the last of the views it records, index by
    index (an integer selects, `None` unsqueezes, a slice slices unless it spans the whole
    dimension inside a tuple; a lone slice always does), IndexBackward0 when tensors or lists
    index (applied last), AliasBackward0 when nothing was recorded (`x[:, :]`, `x[...]`)."""
    single = not isinstance(key, tuple)
    items = (key,) if single else key
    advanced = any(
        isinstance(k, (list, np.ndarray, bool, np.bool_))
        or (isinstance(k, Tensor) and not _is_int(k))
        for k in items
    )
    if advanced:
        return "IndexBackward0"
    consumed = sum(1 for k in items if k is not None and k is not Ellipsis)
    last, pos = "AliasBackward0", 0
    for k in items:
        if k is None:
            last = "UnsqueezeBackward0"
        elif k is Ellipsis:
            pos += max(len(shape) - consumed, 0)
        elif isinstance(k, slice):
            size = shape[pos] if pos < len(shape) else 0
            whole = (
                k.start in (None, 0)
                and (k.stop is None or (isinstance(k.stop, int) and k.stop >= size))
                and k.step in (None, 1)
            )
            if single or not whole:
                last = "SliceBackward0"
            pos += 1
        else:
            last = "SelectBackward0"
            pos += 1
    return last
