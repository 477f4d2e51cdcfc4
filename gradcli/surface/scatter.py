"""PyTorch's scatter family on the `scatter` / `scatter_add` records: `scatter` (with src or a
value), `scatter_add`, `index_add`, `index_fill`, `masked_fill`, their in-place forms (through
`core.inplace`: version counters, the leaf check, the node taken over by the tensor), with
PyTorch's argument checks and error words, made before any work.

Each result is named as PyTorch names it (`ScatterBackward0`, `ScatterBackward1` for a value,
`ScatterAddBackward0`, `IndexAddBackward0`, `IndexFillBackward0/1`, `MaskedFillBackward0/1`)
and differentiates as PyTorch's `derivatives.yaml` says.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core import hooks
from ..core.dtypes import checked_scalar, cpp_type_name, scalar_type_name
from ..core.inplace import drop_unread, inplace
from ..core.layout import row_major
from ..core.op import SEQ, apply
from ..core.tensor import Tensor, typename
from ..ops import arithmetic as A
from ..ops import scatter as Sc
from .args import check_dim
from .declare import declare
from .functional import expand, reshape, to_dtype, where


def _tensor(v: Any, fn: str, arg: str, pos: int) -> Tensor:
    if isinstance(v, Tensor):
        return v
    raise GradcliError(
        f"{fn}(): argument '{arg}' (position {pos}) must be Tensor, not {typename(v)}",
        hint="make it a tensor first: torch.tensor(...)",
    ).mirror("TypeError")


def _number(v: Any, fn: str) -> Any:
    if isinstance(v, (bool, int, float, complex, np.number)):
        return v
    raise GradcliError(
        f"{fn}(): argument 'value' must be Number, not {typename(v)}",
        hint="a Python number, or a 0-dimensional tensor",
    ).mirror("TypeError")


def _dim(dim: Any, x: Tensor) -> int:
    try:
        return check_dim(dim, max(x.ndim, 1))
    except GradcliError as e:
        raise e.mirror("IndexError") from None


def _bounds(idx: np.ndarray, size: int, dim: int, error: str = "RuntimeError") -> None:
    """PyTorch's bounds check: every index in [0, size) (a negative one is refused)."""
    if idx.size == 0:
        return
    lo, hi = int(idx.min()), int(idx.max())
    if lo < 0 or hi >= size:
        # the first one out of bounds in row-major order, as ATen's loop meets it
        out = ((idx < 0) | (idx >= size)).reshape(-1)
        bad = int(idx.reshape(-1)[int(np.argmax(out))])
        raise GradcliError(
            f"index {bad} is out of bounds for dimension {dim} with size {size}",
            hint=f"indices along dimension {dim} go from 0 to {size - 1}",
        ).mirror(error)


# --- scatter / scatter_add ---------------------------------------------------------------------


def _scatter_args(
    x: Tensor, dim: Any, index: Any, src: Tensor | None, fn: str
) -> tuple[Tensor, int, np.ndarray]:
    """x (as 1-D when it is 0-D), the dimension and the index array, checked as ATen's
    `scatter_gather_dtype_check` and `scatter_shape_check`."""
    idx_t = _tensor(index, fn, "index", 2)
    d = _dim(dim, x)
    if idx_t.dtype not in (np.int64, np.int32):
        raise GradcliError("scatter(): Expected dtype int32/int64 for index")
    if src is not None and src.dtype != x.dtype:
        raise GradcliError(
            "scatter(): Expected self.dtype to be equal to src.dtype",
            hint=f"convert src: src.to({x.dtype.name}) (x is {x.dtype.name})",
        )
    idx = idx_t.data.astype(np.int64, copy=False)
    nd = max(x.ndim, 1)
    if idx.ndim == 0 or x.ndim == 0:
        idx = idx.reshape(-1) if idx.ndim <= 1 else idx
    if idx.size == 0:
        # nothing is written, whatever the index's shape; src's gradient is refused naming
        # that shape ("got [0] but expected shape compatible with [2, 3]")
        return x, d, idx
    if idx.ndim != nd:
        raise GradcliError("Index tensor must have the same number of dimensions as self tensor")
    xs = x.shape if x.ndim else (1,)
    if src is not None:
        ss = src.shape if src.ndim else (1,)
        if len(ss) < idx.ndim:
            raise GradcliError(
                f"Dimension out of range (expected to be in range of [{-len(ss)}, "
                f"{len(ss) - 1}], but got {len(ss)})"
            ).mirror("IndexError")
        if any(idx.shape[k] > xs[k] for k in range(nd) if k != d) or any(
            idx.shape[k] > ss[k] for k in range(nd)
        ):
            raise GradcliError(
                f"Expected index {list(idx.shape)} to be no larger than self {list(xs)} apart "
                f"from dimension {d} and to be no larger size than src {list(ss)}"
            )
    elif any(idx.shape[k] > xs[k] for k in range(nd) if k != d):
        raise GradcliError(
            f"Expected index {list(idx.shape)} to be no larger than self {list(xs)} apart from "
            f"dimension {d}"
        )
    _bounds(idx, xs[d], d)
    return x, d, idx


def _run(
    op: Any, x: Tensor, d: int, idx: np.ndarray, src: Tensor, label: str | None, **more: Any
) -> Tensor:
    if x.ndim == 0:
        # A 0-dimensional tensor scatters as one of one element.
        out = apply(
            op, reshape(x, 1), reshape(src, -1), dim=0, index=idx.reshape(-1), label=label, **more
        )
        return A.named(reshape(out, ()), label) if label else reshape(out, ())
    return apply(op, x, src, dim=d, index=idx, label=label, **more)


def scatter(
    input: Any, dim: Any, index: Any, src: Any = None, value: Any = None, reduce: Any = None
) -> Tensor:
    """`x.scatter(dim, index, src)` / `x.scatter(dim, index, value)`: a copy of x with src's
    values (or the value) written at the places the index names along `dim`."""
    input = _tensor(input, "scatter", "input", 1)
    if reduce is not None:
        return _scatter_legacy(input, dim, index, src, value, reduce)
    if src is None and value is None:
        raise GradcliError("scatter() missing 1 required argument: 'src' or 'value'").mirror(
            "TypeError"
        )
    if src is None or not isinstance(src, Tensor):
        v = _number(value if src is None else src, "scatter")
        input, d, idx = _scatter_args(input, dim, index, None, "scatter")
        checked_scalar(v, input.dtype)
        filled = Tensor(np.full(idx.shape, v).astype(input.dtype))
        return _run(Sc.scatter, input, d, idx, filled, "ScatterBackward1")
    input, d, idx = _scatter_args(input, dim, index, src, "scatter")
    return _run(Sc.scatter, input, d, idx, src, "ScatterBackward0")


_LEGACY = {"add": "sum", "multiply": "prod"}


def _scatter_legacy(x: Tensor, dim: Any, index: Any, src: Any, value: Any, reduce: Any) -> Tensor:
    """`x.scatter(dim, index, src, reduce="add" | "multiply")`, PyTorch's older form of
    scatter_reduce (sum / prod with x's own values): the same values, and as in PyTorch no
    derivative (a result that requires grad has grad_fn NotImplemented; a backward through it
    fails in PyTorch's words)."""
    if not isinstance(reduce, str):
        raise GradcliError(
            f"scatter(): argument 'reduce' must be str, not {typename(reduce)}"
        ).mirror("TypeError")
    if src is None and value is None:
        raise GradcliError("scatter() missing 1 required argument: 'src' or 'value'").mirror(
            "TypeError"
        )
    if reduce not in _LEGACY:
        raise GradcliError(
            "reduce argument must be either add or multiply.",
            hint="torch.scatter_reduce takes 'sum', 'prod', 'mean', 'amax' and 'amin'",
        )
    if src is None or not isinstance(src, Tensor):
        v = _number(value if src is None else src, "scatter")
        x, d, idx = _scatter_args(x, dim, index, None, "scatter")
        checked_scalar(v, x.dtype)
        src = Tensor(np.full(idx.shape, v).astype(x.dtype))
    else:
        x, d, idx = _scatter_args(x, dim, index, src, "scatter")
        hooks.warn(
            "The reduce argument of torch.scatter with Tensor src is deprecated and will be "
            "removed in a future PyTorch release. Use torch.scatter_reduce instead for more "
            "reduction options.",
            hint=f"write x.scatter_reduce(dim, index, src, {_LEGACY[reduce]!r})",
            once=True,
        )
    return _run(Sc.scatter_legacy, x, d, idx, src, None, reduce=_LEGACY[reduce])


_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")


def _reduce_arg(reduce: Any, fn: str) -> str:
    if reduce is None:
        raise GradcliError(f'{fn}() missing 1 required positional arguments: "reduce"').mirror(
            "TypeError"
        )
    if not isinstance(reduce, str):
        raise GradcliError(
            f"{fn}(): argument 'reduce' (position 4) must be str, not {typename(reduce)}"
        ).mirror("TypeError")
    return reduce


def _include_self(v: Any, fn: str) -> bool:
    if not isinstance(v, (bool, np.bool_)):
        raise GradcliError(
            f"{fn}(): argument 'include_self' must be bool, not {typename(v)}"
        ).mirror("TypeError")
    return bool(v)


def scatter_reduce(
    input: Any, dim: Any, index: Any, src: Any, reduce: Any = None, *, include_self: Any = True
) -> Tensor:
    """`x.scatter_reduce(dim, index, src, reduce, include_self=True)`: a copy of x where each
    place the index names along `dim` holds src's values there reduced ("sum", "prod",
    "mean", "amax", "amin") with x's own value (include_self) or without it."""
    input = _tensor(input, "scatter_reduce", "input", 1)
    src = _tensor(src, "scatter_reduce", "src", 3)
    reduce = _reduce_arg(reduce, "scatter_reduce")
    keep = _include_self(include_self, "scatter_reduce")
    # PyTorch also takes "max" / "min" for amax / amin.
    how = {"max": "amax", "min": "amin"}.get(reduce, reduce)
    if how not in _REDUCTIONS:
        raise GradcliError(
            f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
        )
    input, d, idx = _scatter_args(input, dim, index, src, "scatter")
    return _run(
        Sc.scatter_reduce,
        input,
        d,
        idx,
        src,
        "ScatterReduceBackward0",
        reduce=how,
        include_self=keep,
    )


def index_reduce(
    input: Any, dim: Any, index: Any, source: Any, reduce: Any = None, *, include_self: Any = True
) -> Tensor:
    """`x.index_reduce(dim, index, source, reduce, include_self=True)`: source's slices
    reduced ("prod", "mean", "amax", "amin") into x's slices the index names along `dim`."""
    input = _tensor(input, "index_reduce", "input", 1)
    source = _tensor(source, "index_reduce", "source", 3)
    reduce = _reduce_arg(reduce, "index_reduce")
    keep = _include_self(include_self, "index_reduce")
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise GradcliError(
            "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got "
            f"{reduce}."
        )
    hooks.warn(
        "index_reduce() is in beta and the API may change at any time.",
        hint="x.scatter_reduce does the same with an index per element",
        once=True,
    )
    d = _dim(dim, input)
    idx_t = _tensor(index, "index_reduce", "index", 2)
    if idx_t.ndim > 1:
        raise GradcliError(
            f"index_reduce_(): Index is supposed to be a vector, but got dim: {idx_t.ndim} "
            f"with type: {scalar_type_name(idx_t.dtype)} and size: {list(idx_t.shape)}"
        ).mirror("IndexError")
    if idx_t.dtype not in (np.int64, np.int32):
        raise GradcliError(
            "index_reduce_(): Expected dtype int32/int64 for index but got: "
            + scalar_type_name(idx_t.dtype)
        )
    idx = idx_t.data.astype(np.int64, copy=False).reshape(-1)
    if source.dtype != input.dtype:
        raise GradcliError(
            f"index_reduce_(): self ({scalar_type_name(input.dtype)}) and source "
            f"({scalar_type_name(source.dtype)}) must have the same scalar type"
        )
    xs = input.shape if input.ndim else (1,)
    ss = source.shape if input.ndim or source.ndim else (1,)
    if len(ss) <= d or len(idx) != ss[d]:
        raise GradcliError(
            f"index_reduce_(): Number of indices ({len(idx)}) should be equal to "
            f"source.size(dim): ({ss[d] if len(ss) > d else 1}), for dim: {d}"
        )
    if len(ss) != len(xs) or any(ss[k] != xs[k] for k in range(len(xs)) if k != d):
        raise GradcliError(
            "source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = {list(input.shape)} source.shape = {list(source.shape)}"
        )
    if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= xs[d]):
        raise GradcliError(
            "index out of range in self",
            hint=f"indices along dimension {d} go from 0 to {xs[d] - 1}",
        ).mirror("IndexError")
    src = reshape(source, ss) if source.shape != ss else source
    params = {"reduce": reduce, "include_self": keep}
    if input.ndim == 0:
        out = apply(
            Sc.scatter_reduce,
            reshape(input, 1),
            src,
            dim=0,
            index=idx,
            label="IndexReduceBackward0",
            **params,
        )
        return reshape(out, ())
    return apply(
        Sc.scatter_reduce,
        input,
        src,
        dim=d,
        index=_along(idx, ss, d),
        label="IndexReduceBackward0",
        **params,
    )


def scatter_add(input: Any, dim: Any, index: Any, src: Any) -> Tensor:
    """`x.scatter_add(dim, index, src)`: a copy of x with src's values added at the places the
    index names along `dim` (a place named several times gets each addition)."""
    input = _tensor(input, "scatter_add", "input", 1)
    src = _tensor(src, "scatter_add", "src", 3)
    input, d, idx = _scatter_args(input, dim, index, src, "scatter_add")
    return _run(Sc.scatter_add, input, d, idx, src, "ScatterAddBackward0")


# --- index_add / index_fill ----------------------------------------------------------------


def _vector_index(index: Any, fn: str, pos: int) -> np.ndarray:
    idx_t = _tensor(index, fn, "index", pos)
    if fn == "index_fill":
        if idx_t.dtype != np.int64:
            raise GradcliError("index_fill_(): Expected dtype int64 for index.").mirror(
                "IndexError"
            )
        if idx_t.ndim > 1:
            raise GradcliError("Index has to be a vector/scalar")
    else:
        if idx_t.dtype not in (np.int64, np.int32):
            raise GradcliError(
                "index_add_(): Expected dtype int32/int64 for index but got: "
                + scalar_type_name(idx_t.dtype)
            )
        if idx_t.ndim > 1:
            raise GradcliError(
                f"index_add_(): Index is supposed to be a vector, but got dim: {idx_t.ndim} "
                f"with type: {scalar_type_name(idx_t.dtype)} and size: {list(idx_t.shape)}"
            ).mirror("IndexError")
    return idx_t.data.astype(np.int64, copy=False).reshape(-1)


def _along(idx: np.ndarray, shape: tuple[int, ...], d: int) -> np.ndarray:
    """The index of a whole slice per entry: idx along dimension d, broadcast over the others
    (the index `scatter` takes for `index_add` / `index_fill`)."""
    view = [1] * len(shape)
    view[d] = len(idx)
    full = list(shape)
    full[d] = len(idx)
    return np.broadcast_to(idx.reshape(view), full)


def index_add(input: Any, dim: Any, index: Any, source: Any, alpha: Any = 1) -> Tensor:
    """`x.index_add(dim, index, source, alpha=1)`: source's slices, times alpha, added to x's
    slices that the index names along `dim` (in the index's order)."""
    input = _tensor(input, "index_add", "input", 1)
    source = _tensor(source, "index_add", "source", 3)
    d = _dim(dim, input)
    idx = _vector_index(index, "index_add", 2)
    if source.dtype != input.dtype:
        raise GradcliError(
            f"index_add_(): self ({scalar_type_name(input.dtype)}) and source "
            f"({scalar_type_name(source.dtype)}) must have the same scalar type"
        )
    # A 0-dimensional x takes a 0-dimensional source (or one of one element): as 1-D.
    xs = input.shape if input.ndim else (1,)
    ss = source.shape if input.ndim or source.ndim else (1,)
    if len(ss) != len(xs) or any(ss[k] != xs[k] for k in range(len(xs)) if k != d):
        raise GradcliError(
            "source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = {list(input.shape)} source.shape = {list(source.shape)}"
        )
    if len(idx) != ss[d]:
        raise GradcliError(
            f"index_add_(): Number of indices ({len(idx)}) should be equal to "
            f"source.size(dim): ({ss[d]}), for dim: {d}"
        )
    if input.ndim <= 1 and idx.size and (int(idx.min()) < 0 or int(idx.max()) >= xs[d]):
        # (ATen's 1-D kernel checks each index itself, in index_select's words)
        raise GradcliError(
            "index out of range in self", hint=f"indices go from 0 to {xs[d] - 1}"
        ).mirror("IndexError")
    _bounds(idx, xs[d], d)
    src = reshape(source, ss) if source.shape != ss else source
    if not (isinstance(alpha, (int, float, np.integer, np.floating)) and alpha == 1):
        a = _number(alpha, "index_add")
        src = A.mul_t(src, int(a) if input.dtype.kind in "iub" else a)
    if input.ndim == 0:
        out = apply(
            Sc.scatter_add, reshape(input, 1), src, dim=0, index=idx, label="IndexAddBackward0"
        )
        return reshape(out, ())
    return apply(
        Sc.scatter_add, input, src, dim=d, index=_along(idx, ss, d), label="IndexAddBackward0"
    )


def index_copy(input: Any, dim: Any, index: Any, source: Any) -> Tensor:
    """`x.index_copy(dim, index, source)`: x with the slices the index names along `dim`
    replaced by source's slices, in order (a scatter of whole slices)."""
    input = _tensor(input, "index_copy", "input", 1)
    source = _tensor(source, "index_copy", "source", 3)
    d = _dim(dim, input)
    idx_t = _tensor(index, "index_copy", "index", 2)
    if idx_t.dtype != np.int64:
        kind = {"f": "Float", "b": "Bool", "i": "Int"}.get(idx_t.dtype.kind, str(idx_t.dtype))
        raise GradcliError(f"index_copy_(): Expected a long tensor for index, but got {kind}")
    if idx_t.ndim > 1:
        raise GradcliError("index_copy_(): Index should have dimension 1 or 0 (got 2)").mirror(
            "IndexError"
        )
    idx = idx_t.data.reshape(-1)
    if source.dtype != input.dtype:
        raise GradcliError(
            "index_copy_(): self and source expected to have the same dtype, but got (self) "
            f"{scalar_type_name(input.dtype)} and (source) {scalar_type_name(source.dtype)}"
        )
    xs = input.shape if input.ndim else (1,)
    ss = source.shape if input.ndim or source.ndim else (1,)
    n = ss[d] if len(ss) > d else 1
    if len(idx) != n:
        raise GradcliError(
            f"index_copy_(): Number of indices ({len(idx)}) should be equal to "
            f"source.size(dim) ({n})"
        ).mirror("IndexError")
    if len(ss) != len(xs):
        raise GradcliError(
            "index_copy_(): When source and destination are not scalars, their dimensionality "
            "must match. Source dimensionality "
            f"({len(ss)}), destination dimensionality ({len(xs)})"
        ).mirror("IndexError")
    for k in range(len(xs)):
        if k != d and ss[k] != xs[k]:
            at = k if k < d else k - 1  # PyTorch counts the slice's own dimensions
            raise GradcliError(
                "index_copy_(): Source/destination tensor must have same slice shapes. "
                f"Destination slice shape: {xs[k]} at dimension {at} and source slice shape: "
                f"{ss[k]} at dimension {at}."
            )
    bad = (idx < 0) | (idx >= xs[d])
    if np.any(bad):
        raise GradcliError(
            f"index_copy_(): index {int(idx[bad][0])} is out of bounds for dimension {d} "
            f"with size {xs[d]}"
        ).mirror("IndexError")
    src = reshape(source, ss) if source.shape != ss else source
    if input.ndim == 0:
        out = apply(
            Sc.scatter, reshape(input, 1), src, dim=0, index=idx, label="IndexCopyBackward0"
        )
        return reshape(out, ())
    return apply(
        Sc.scatter, input, src, dim=d, index=_along(idx, ss, d), label="IndexCopyBackward0"
    )


def index_fill(input: Any, dim: Any, index: Any, value: Any) -> Tensor:
    """`x.index_fill(dim, index, value)`: x with the slices the index names along `dim` set to
    the value (a number, or a 0-dimensional tensor, whose gradient is the sum of g over them)."""
    input = _tensor(input, "index_fill", "input", 1)
    d = _dim(dim, input)
    idx = _vector_index(index, "index_fill", 2)
    xs = input.shape if input.ndim else (1,)
    if idx.size:
        lo, hi = int(idx.min()), int(idx.max())
        if lo < -xs[d] or hi >= xs[d]:
            bad = lo if lo < -xs[d] else hi
            raise GradcliError(
                f"index {bad} is out of bounds for dimension {d} with size {xs[d]}"
            ).mirror("IndexError")
        idx = np.where(idx < 0, idx + xs[d], idx)  # index_fill takes negative indices
    mask = np.zeros(xs, dtype=bool)
    mask[(slice(None),) * d + (idx,)] = True
    mask = mask.reshape(input.shape)
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise GradcliError(
                "index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                f"{value.ndim} dimension(s)."
            )
        checked_scalar(value.data.item(), input.dtype)  # (ATen fills with value.item())
        v = value if value.dtype == input.dtype else to_dtype(value, input.dtype)
        return A.named(where(Tensor(mask), expand(v, input.shape), input), "IndexFillBackward1")
    v = _number(value, "index_fill")
    if isinstance(v, (complex, np.complexfloating)) and input.dtype.kind != "c":
        raise (
            GradcliError(
                "index_fill_(): Converting complex Scalar to non-complex type is not supported",
                hint="give a real number (z.real), or make the tensor complex first",
            )
            .mirror("RuntimeError")
            .pytorch()
        )
    checked_scalar(v, input.dtype)
    fill = Tensor(np.asarray(v).astype(input.dtype))
    return A.named(where(Tensor(mask), fill, input), "IndexFillBackward0")


# --- masked_fill -------------------------------------------------------------------------------


def masked_fill(input: Any, mask: Any, value: Any) -> Tensor:
    """`x.masked_fill(mask, value)`: x where the (bool, broadcast) mask is False, the value
    where it is True."""
    input = _tensor(input, "masked_fill", "input", 1)
    m = _tensor(mask, "masked_fill", "mask", 2)
    if m.dtype != np.bool_:
        raise GradcliError(
            "masked_fill_ only supports boolean masks, but got mask with dtype "
            + cpp_type_name(m.dtype),
            hint="compare to make a mask: x > 0",
        )
    A.broadcast_shape(input, m)  # PyTorch's error when they do not broadcast
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise GradcliError(
                "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                f"{value.ndim} dimension(s)."
            )
        checked_scalar(value.data.item(), input.dtype)  # (ATen fills with value.item())
        v = value if value.dtype == input.dtype else to_dtype(value, input.dtype)
        return _row_major(A.named(where(m, v, input), "MaskedFillBackward1"))
    v = _number(value, "masked_fill")
    checked_scalar(v, input.dtype)
    if isinstance(v, (complex, np.complexfloating)) and input.dtype.kind != "c":
        v = bool(v) if input.dtype == np.bool_ else v.real  # (checked: no imaginary part)
    return _row_major(
        A.named(where(m, Tensor(np.asarray(v).astype(input.dtype)), input), "MaskedFillBackward0")
    )


def _row_major(out: Tensor) -> Tensor:
    """ATen's masked_fill fills a contiguous clone of the input: a row-major result whatever
    the input's layout (`x.t().masked_fill(...)`)."""
    out.data = row_major(out.data)
    return out


# --- index_put, masked_scatter -------------------------------------------------------------------


def index_put(input: Any, indices: Any, values: Any, accumulate: bool = False) -> Tensor:  # noqa: A002
    """`x.index_put(indices, values, accumulate=False)`: x[indices] = values out of place (a
    tuple of index tensors, as `x[i, j] = v` writes); accumulate=True adds the values instead,
    repeated indices adding up."""
    from ..ops import shape as S
    from .indexing import (
        _strip_leading_ones,
        check_put_dtype,
        check_value_shape,
        index_assign,
        normalize_index,
    )

    x = _tensor(input, "index_put", "input", 1)
    if not isinstance(indices, (tuple, list)):
        raise GradcliError(
            "index_put(): argument 'indices' (position 1) must be tuple of Tensors, not "
            + typename(indices)
        ).mirror("TypeError")
    for k in indices:
        if not isinstance(k, Tensor):
            raise GradcliError(
                "index_put(): argument 'indices' (position 1) must be tuple of Tensors, not "
                f"tuple of {typename(k)}"
            ).mirror("TypeError")
    v = _tensor(values, "index_put", "values", 2)
    key = tuple(indices)
    check_put_dtype(x, key, v, bool(accumulate))
    if not accumulate:
        start = SEQ[0]
        out = A.named(index_assign(x, key, v), "IndexPutBackward0")
        drop_unread(out, start)  # (its parts: a loop of index_put holds one tensor per step)
        return out
    idx = normalize_index(x, key)
    region = np.broadcast_to(np.zeros((), dtype=np.int8), x.shape)[idx].shape
    check_value_shape(v.shape, region, idx, v.dtype)  # (PyTorch's words for a misfit)
    if v.dtype != x.dtype:
        v = to_dtype(v, x.dtype)
    if v.shape != region:
        v = expand(reshape(v, _strip_leading_ones(v.shape, len(region))), region)
    placed = apply(S.index_put, v, idx=idx, shape=x.shape, out_ndim=len(region))
    return A.named(A.add_t(x, placed), "IndexPutBackward0")


def put(input: Any, index: Any, source: Any, accumulate: bool = False) -> Tensor:  # noqa: A002
    """`x.put(index, source, accumulate=False)`: x seen as one flat row, source's elements
    written (or added) at index's positions, as `index_put` on the flattened tensor (its
    gradients are put's: the grad with the written places zeroed, and the grad taken at index
    for source)."""
    x = _tensor(input, "put", "input", 1)
    if not isinstance(index, Tensor):
        raise GradcliError(
            f"put(): argument 'index' (position 1) must be Tensor, not {typename(index)}"
        ).mirror("TypeError")
    src = _tensor(source, "put", "source", 2)
    if index.dtype != np.int64:
        raise GradcliError(
            f"put_(): Expected a long tensor for index, but got {scalar_type_name(index.dtype)}"
        )
    if src.numel() != index.numel():
        raise GradcliError(
            "put_(): Expected source and index to have the same number of elements, but got "
            f"source.numel() = {src.numel()}, index.numel() = {index.numel()}"
        ).mirror("IndexError")
    if src.dtype != x.dtype:
        raise GradcliError(
            "put_(): self and source expected to have the same dtype, but got self.dtype = "
            f"{scalar_type_name(x.dtype)} and source.dtype = {scalar_type_name(src.dtype)}"
        )
    n = x.numel()
    idx = index.data.reshape(-1)
    bad = idx[(idx < -n) | (idx >= n)]
    if bad.size:
        raise GradcliError(
            f"out of range: tried to access index {int(bad[0])} on a tensor of {n} elements."
        ).mirror("IndexError")
    flat = reshape(x, (n,))
    placed = index_put(flat, (Tensor(idx % n if n else idx),), reshape(src, (-1,)), accumulate)
    return A.named(reshape(placed, x.shape), "PutBackward0")


def masked_scatter(input: Any, mask: Any, source: Any) -> Tensor:  # noqa: A002
    """`x.masked_scatter(mask, source)`: x with the elements where the (bool, broadcast) mask is
    True replaced, in order, by source's first elements."""
    from ..ops import shape as S
    from .indexing import getitem

    x = _tensor(input, "masked_scatter", "input", 1)
    m = _tensor(mask, "masked_scatter", "mask", 2)
    src = _tensor(source, "masked_scatter", "source", 3)
    if src.dtype != x.dtype:  # (ATen's words, its missing space too; before the mask's check)
        raise GradcliError(
            "masked_scatter: expected self and source to have same dtypes but got"
            f"{scalar_type_name(x.dtype)} and {scalar_type_name(src.dtype)}"
        )
    if m.dtype != np.bool_:
        raise GradcliError(
            "masked_scatter_ only supports boolean masks, but got mask with dtype "
            + scalar_type_name(m.dtype)
        )
    shape = A.broadcast_shape(x, m)
    A.size_check(shape, "the output of masked_scatter")
    if shape != x.shape:
        x = expand(x, shape)
    full = np.broadcast_to(m.data, shape)
    where_true = np.nonzero(full)
    k = int(where_true[0].size) if where_true else int(bool(full))
    if k > src.numel():
        raise GradcliError("Number of elements of source < number of ones in mask")
    flat = reshape(src, (-1,))
    picked = getitem(flat, slice(0, k))
    idx = tuple(where_true) if shape else (np.array(bool(full)),)
    placed = apply(S.index_put, picked, idx=idx, shape=shape, out_ndim=1)
    return A.named(where(Tensor(full.copy()), placed, x), "MaskedScatterBackward0")


# The in-place methods PyTorch runs on a tensor whose elements share memory places
# (`x.expand(...)`), with its deprecation warning (`core.inplace.overlapping`).
_OVERLAP_ALLOWED = frozenset(("masked_fill", "index_fill", "index_put"))


def _in_place(fn: Any) -> Any:
    """The in-place method: x changed in place to fn(x, ...) (its shape may not grow)."""
    from ..core.inplace import overlapping
    from .functional import aten_inplace_name

    name = fn.__name__ + "_"
    allowed = fn.__name__ in _OVERLAP_ALLOWED

    def method(x: Any, *args: Any, **kwargs: Any) -> Tensor:
        op = lambda: aten_inplace_name(fn.__name__, args, kwargs)  # noqa: E731
        if allowed:
            with overlapping(name):
                return inplace(A.tensor_arg(x), lambda old: fn(old, *args, **kwargs), op=op)
        return inplace(A.tensor_arg(x), lambda old: fn(old, *args, **kwargs), op=op)

    method.__name__ = fn.__name__ + "_"
    method.__wrapped__ = fn  # type: ignore[attr-defined]  # its signature is fn's
    return method


# --- select_scatter, slice_scatter, diagonal_scatter ---------------------------------------------


def _scattered(
    x: Tensor, src: Any, slot: tuple[int, ...], idx: tuple, move: Any, label: str
) -> Any:
    src = A.tensor_arg(src, "src")
    if tuple(src.shape) != slot:
        raise GradcliError(
            "expected src to have a size equal to the slice of self. src size = "
            f"{list(src.shape)}, slice size = {list(slot)}"
        ).mirror("RuntimeError")
    if src.dtype != x.dtype:
        src = A.cast(src, x.dtype)
    return apply(Sc.view_scatter, x, src, idx=idx, move=move, label=label)


def select_scatter(input: Any, src: Any, dim: int, index: int) -> Tensor:
    """A copy of input with `input.select(dim, index)` replaced by src
    (SelectScatterBackward0)."""
    x = A.tensor_arg(input, "input")
    if x.ndim == 0:
        raise GradcliError("select() cannot be applied to a 0-dim tensor.").mirror("IndexError")
    d = check_dim(dim, x.ndim)
    n = x.shape[d]
    if not -n <= index < n:
        raise GradcliError(
            f"select(): index {index} out of range for tensor of size {list(x.shape)} at "
            f"dimension {d}"
        ).mirror("IndexError")
    idx = (Ellipsis, index % n) + (slice(None),) * (x.ndim - 1 - d)
    slot = x.shape[:d] + x.shape[d + 1 :]
    return _scattered(x, src, slot, idx, None, "SelectScatterBackward0")


def slice_scatter(
    input: Any, src: Any, dim: int = 0, start: Any = None, end: Any = None, step: int = 1
) -> Tensor:
    """A copy of input with `input[..., start:end:step, ...]` (along dim) replaced by src
    (SliceScatterBackward0)."""
    x = A.tensor_arg(input, "input")
    d = check_dim(dim, x.ndim)
    if step <= 0:
        raise GradcliError("slice step must be positive").mirror("RuntimeError")
    cut = slice(start, end, step)
    idx = (Ellipsis, cut) + (slice(None),) * (x.ndim - 1 - d)
    slot = x.shape[:d] + (len(range(*cut.indices(x.shape[d]))),) + x.shape[d + 1 :]
    return _scattered(x, src, slot, idx, None, "SliceScatterBackward0")


def diagonal_scatter(input: Any, src: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """A copy of input with `input.diagonal(offset, dim1, dim2)` replaced by src
    (DiagonalScatterBackward0)."""
    x = A.tensor_arg(input, "input")
    d1, d2 = check_dim(dim1, x.ndim), check_dim(dim2, x.ndim)
    if d1 == d2:
        raise GradcliError(f"diagonal dimensions cannot be identical {dim1}, {dim2}").mirror(
            "RuntimeError"
        )
    idx = Sc._diagonal_place(x.shape, offset, d1, d2)
    others = tuple(n for i, n in enumerate(x.shape) if i not in (d1, d2))
    slot = others + (len(idx[1]),)
    move = (d1 - x.ndim, d2 - x.ndim)
    return _scattered(x, src, slot, idx, move, "DiagonalScatterBackward0")


def as_strided_scatter(
    input: Any,  # noqa: A002
    src: Any,
    size: Any,
    stride: Any,
    storage_offset: Any = None,
) -> Tensor:
    """A copy of input with the places `input.clone().as_strided(size, stride, offset)` would
    view replaced by src (AsStridedScatterBackward0): the places of the contiguous copy, in
    elements from its first one (PyTorch scatters into a fresh clone, so a view's own offset
    does not count)."""
    from ..core.layout import contiguous_strides, is_dense, torch_strides
    from .indexing import strided_places
    from .predicates import strided_view_args

    x = A.tensor_arg(input, "input")
    # (the clone PyTorch scatters into starts its storage at 0: offset 0 by default)
    z, st, k = strided_view_args(
        "as_strided_scatter", size, stride, storage_offset, 0, x.numel(), x.data.itemsize, 2
    )
    places = strided_places(z, st, k)
    own = torch_strides(x.data)
    if x.ndim and own != contiguous_strides(x.shape):
        if not is_dense(x.shape, own):
            raise NotSupported(
                "torch.as_strided_scatter of a tensor whose elements do not fill its storage "
                "(a slice or an expanded tensor) is not supported by gradcli: PyTorch scatters "
                "into a clone laid out as the input",
                hint="pass x.contiguous() (its places are then counted row by row)",
            )
        # (a dense permuted layout: the clone keeps it; each place is the element there)
        element_at = np.empty(x.numel(), np.int64)
        element_at[strided_places(x.shape, own, 0).reshape(-1)] = np.arange(x.numel())
        places = element_at[places]
    idx = (Ellipsis,) + tuple(np.unravel_index(places, x.shape)) if x.ndim else (Ellipsis,)
    src = A.tensor_arg(src, "src")
    if tuple(src.shape) != z:
        raise GradcliError(
            "expected src to have a size equal to the slice of self. src size = "
            f"{list(src.shape)}, slice size = {list(z)}"
        ).mirror("RuntimeError")
    if src.dtype != x.dtype:
        src = A.cast(src, x.dtype)
    return apply(Sc.as_strided_scatter, x, src, idx=idx)


NAMES = declare(
    ("scatter", "torch Tensor", scatter, "scatter scatter_legacy"),
    ("scatter_", "Tensor", _in_place(scatter), "scatter scatter_legacy"),
    ("scatter_reduce", "torch Tensor", scatter_reduce, "scatter_reduce"),
    ("scatter_reduce_", "Tensor", _in_place(scatter_reduce), "scatter_reduce"),
    ("index_reduce", "torch Tensor", index_reduce, "composition of scatter_reduce"),
    ("index_reduce_", "Tensor", _in_place(index_reduce), "composition of scatter_reduce"),
    ("scatter_add", "torch Tensor", scatter_add, "scatter_add"),
    ("scatter_add_", "Tensor", _in_place(scatter_add), "scatter_add"),
    ("index_add", "torch Tensor", index_add, "composition of scatter_add"),
    ("index_add_", "Tensor", _in_place(index_add), "composition of scatter_add"),
    ("index_copy", "torch Tensor", index_copy, "composition of scatter"),
    ("index_copy_", "Tensor", _in_place(index_copy), "composition of scatter"),
    ("index_fill", "torch Tensor", index_fill, "composition of where"),
    ("index_fill_", "Tensor", _in_place(index_fill), "composition of where"),
    ("masked_fill", "torch Tensor", masked_fill, "composition of where"),
    ("masked_fill_", "Tensor", _in_place(masked_fill), "composition of where"),
    ("index_put", "torch Tensor", index_put, "composition of index_put add zero_region"),
    ("index_put_", "Tensor", _in_place(index_put), "composition of index_put add zero_region"),
    ("put", "torch Tensor", put, "composition of index_put add zero_region reshape"),
    ("put_", "Tensor", _in_place(put), "composition of index_put add zero_region reshape"),
    ("select_scatter", "torch Tensor", select_scatter, "view_scatter"),
    ("slice_scatter", "torch Tensor", slice_scatter, "view_scatter"),
    ("diagonal_scatter", "torch Tensor", diagonal_scatter, "view_scatter"),
    ("as_strided_scatter", "torch Tensor", as_strided_scatter, "as_strided_scatter"),
    (
        "masked_scatter",
        "torch Tensor",
        masked_scatter,
        "composition of index index_put where reshape",
    ),
    (
        "masked_scatter_",
        "Tensor",
        _in_place(masked_scatter),
        "composition of index index_put where reshape",
    ),
)
