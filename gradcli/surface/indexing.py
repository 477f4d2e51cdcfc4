"""Indexing as PyTorch's: `x[i]`, `x[:, 1:3]`, `x[..., 0]`, `x[None]`, index and mask tensors,
checked (bounds, the size of the result) before anything is made; and `x[key] = value` where
gradients flow through it (PyTorch's CopySlices), out of place."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core import inplace as core_inplace
from ..core.inplace import VIEW_OF_LEAF, inplace
from ..core.op import apply, versioned
from ..core.tensor import Tensor, bumped, data_array, grad_enabled, typename
from ..ops import binary as B
from ..ops import shape as S
from ..ops.arithmetic import mul_t, scalar_operand, size_check
from .functional import expand, to_dtype


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
                            f"slice indices must be integers or None, not {typename(part)}"
                        )
                if k.step is not None and int(k.step) <= 0:
                    raise GradcliError("step must be greater than zero")
            out.append(k)
        elif isinstance(k, bool):
            out.append(np.asarray(k))
        elif isinstance(k, (int, np.integer)):
            out.append(int(k))
        elif isinstance(k, Tensor):
            if k.dtype.kind == "b":
                out.append(k.data)
            elif k.dtype.kind in "iu" or (
                k.dtype.kind == "f" and np.all(k.data == np.round(k.data))
            ):
                if k.dtype.kind == "f" and k.ndim == 0:
                    raise GradcliError(
                        "only integers, slices, ellipsis, None and integer or "
                        "boolean tensors are valid indices",
                        found="a float tensor",
                    )
                out.append(k.data.astype(np.int64))
            else:
                raise GradcliError(
                    "tensors used as indices must be long, int, byte or bool tensors"
                )
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
            raise GradcliError(
                "only integers, slices (`:`), ellipsis (`...`), None and integer or boolean "
                f"tensors are valid indices (got {typename(k)})"
            )
    idx = tuple(out)
    # The probe below makes the result (of bytes): refuse a huge one before it is made.
    size_check((index_result_size(x.shape, idx),), "the indexed result")
    # Check bounds (and let NumPy find any other problem) on a zero-cost view.
    try:
        probe = np.broadcast_to(np.zeros((), dtype=np.int8), x.shape)[idx]
    except IndexError as e:
        msg = str(e)
        if "out of bounds" in msg:
            raise GradcliError(
                f"index out of range: {msg}", hint=f"the tensor has shape {list(x.shape)}"
            ) from None
        raise GradcliError(
            f"invalid index: {msg}", hint=f"the tensor has shape {list(x.shape)}"
        ) from None
    size_check(probe.shape, "the indexed result")
    return idx


def index_assign(x: Tensor, key: Any, value: Any) -> Tensor:
    """`x[key] = value` when gradients must flow (PyTorch's CopySlices), out of place: the
    result is x with the indexed region replaced, differentiable in both x and value."""
    idx = normalize_index(x, key)
    region = np.broadcast_to(np.zeros((), dtype=np.int8), x.shape)[idx].shape
    v = value if isinstance(value, Tensor) else scalar_operand(value, x)
    try:
        np.broadcast_shapes(v.shape, region)
        if len(v.shape) > len(region):
            raise ValueError
    except ValueError:
        raise GradcliError(
            f"shape mismatch: value tensor of shape {list(v.shape)} cannot be broadcast to "
            f"indexing result of shape {list(region)}"
        ) from None
    if v.dtype != x.dtype:
        v = to_dtype(v, x.dtype)
    if v.shape != region:
        v = expand(v, region)
    keep = np.ones(x.shape, dtype=bool)
    keep[idx] = False
    placed = apply(
        S.index_put, v, idx=idx, shape=x.shape, out_ndim=len(region), label="IndexPutBackward0"
    )
    return apply(
        B.add, mul_t(x, Tensor(keep.astype(x.dtype))), placed, label="torch::autograd::CopySlices"
    )


def setitem(x: Tensor, key: Any, value: Any) -> None:
    """`x[key] = value`, in place: recorded as PyTorch's CopySlices when gradients flow."""
    if grad_enabled() and (x.requires_grad or (isinstance(value, Tensor) and value.requires_grad)):
        if x.requires_grad and x.node is None:
            raise GradcliError(
                VIEW_OF_LEAF, hint="assign under `with torch.no_grad():`, or into a clone"
            )
        inplace(x, lambda old: index_assign(old, key, value))
        return
    idx = normalize_index(x, key)
    new = value.data if isinstance(value, Tensor) else data_array(value, x.dtype)
    try:
        x.data[idx] = new
    except (ValueError, TypeError, IndexError) as e:
        raise GradcliError(f"cannot assign: {e}") from None
    bumped(x)


def _rebase(view: Tensor, base: Tensor, idx: tuple, new: Tensor) -> None:
    """`view` (= base[idx]) changed in place to `new`: recorded as `base[idx] = new` (PyTorch's
    CopySlices on base, whose storage the view shares), the view then a view of base's new
    version."""
    inplace(base, lambda old: index_assign(old, idx, new))
    r = apply(S.index, base, idx=idx, label="AsStridedBackward0")  # PyTorch's name for it
    if r.node is not None:
        r.node.out = view
        versioned(r.node, view.node)
        view.node = r.node
        view.requires_grad = True


core_inplace.REBASE = _rebase


def getitem(x: Tensor, key: Any) -> Tensor:
    items = key if isinstance(key, tuple) else (key,)
    ints = [isinstance(k, int) and not isinstance(k, bool) for k in items]
    arrays = [
        isinstance(k, (list, Tensor)) and not (isinstance(k, Tensor) and k.ndim == 0) for k in items
    ]
    plain = all(k is not None and k is not Ellipsis for k in items)
    if any(ints) and any(arrays) and plain:
        # PyTorch selects integer indices first and then applies the tensor indices; NumPy
        # would treat the integers as advanced indices too (and can move the result's axes).
        first = tuple(k if i else slice(None) for k, i in zip(items, ints))
        rest = tuple(k for k, i in zip(items, ints) if not i)
        return getitem(getitem(x, first), rest)
    idx = normalize_index(x, key)
    return apply(S.index, x, idx=idx, label=index_label(x.shape, key))


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
