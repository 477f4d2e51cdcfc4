"""PyTorch's cumulative and order statistics: cumsum, cumprod, cummax, cummin, logcumsumexp,
median, nanmedian, mode, quantile, std_mean, var_mean, trapezoid / trapz.

The running sums and products are records (`ops.scan`). The statistics that pick an element
(cummax, median(dim), mode...) are the `index` record at the index PyTorch's CPU kernel picks,
so the gradient goes where PyTorch sends it (`value_selecting_reduction_backward`): the index
is computed here exactly as the kernel chooses it, ties included. median() without a dim
shares the gradient between tied medians (`evenly_distribute_backward`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core import hooks
from ..core.dtypes import check_dtype, scalar_type_name
from ..core.layout import row_major
from ..core.op import apply, link_siblings
from ..core.stdalgo import _StdAlgorithms
from ..core.tensor import Tensor, typename
from ..ops import arithmetic as A
from ..ops import binary as B
from ..ops import reduction as R
from ..ops import scan as SC
from ..ops import shape as S
from . import args as C
from . import functional as F
from .declare import declare
from .indexing import getitem
from .printing import MaxMin

# --- running sums and products ----------------------------------------------------------------


def _scan_input(x: Any, dtype: Any, fn: str) -> Tensor:
    return F.reduced_dtype(A.tensor_arg(x, "input"), dtype, fn)


def cumsum(input: Any, dim: Any, dtype: Any = None) -> Tensor:
    x = A.tensor_arg(input, "input")
    if dtype is not None and x.dtype.kind == "f" and np.dtype(check_dtype(dtype)).kind == "c":
        # a real input made complex: PyTorch's CumsumBackward0 converts its gradient back
        # (the real part), unlike sum's
        input = F.to_dtype(x, dtype)
    else:
        input = _scan_input(x, dtype, "cumsum")
    return F.kept_dtype(apply(SC.cumsum, input, dim=C.check_dim(dim, input.ndim)), input)


def cumprod(input: Any, dim: Any, dtype: Any = None) -> Tensor:
    input = _scan_input(input, dtype, "cumprod")
    return F.kept_dtype(apply(SC.cumprod, input, dim=C.check_dim(dim, input.ndim)), input)


def logcumsumexp(input: Any, dim: Any) -> Tensor:
    input = A.tensor_arg(input, "input")
    if input.dtype.kind != "f":
        raise GradcliError(
            f"\"logcumsumexp_out_cpu\" not implemented for '{scalar_type_name(input.dtype)}'",
            hint="convert first: x.float()",
        ).mirror("NotImplementedError")
    return apply(SC.logcumsumexp, input, dim=C.check_dim(dim, input.ndim))


# --- picking an element along a dim --------------------------------------------------------------


def _picked(x: Tensor, d: int, idx: np.ndarray, keepdim: bool, label: str) -> Tensor:
    """x at `idx` (x's shape with 1 along d) along dim d: the index record, so the gradient is
    g put back at the picked places."""
    grids = list(np.indices(idx.shape, sparse=True))
    grids[d] = idx
    if not keepdim:
        grids = [np.squeeze(g, axis=d) for g in grids]
    shape = np.broadcast_shapes(*(g.shape for g in grids))
    return apply(S.index, x, idx=tuple(np.broadcast_to(g, shape) for g in grids), label=label)


def _pair(x: Tensor, d: int, idx: np.ndarray, keepdim: bool, label: str, kind: str) -> MaxMin:
    if x.ndim == 0:
        return MaxMin(A.named(F.clone(x), label), Tensor(np.zeros((), dtype=np.int64)), kind)
    values = _picked(x, d, idx, keepdim, label)
    ind = idx if keepdim else np.squeeze(idx, axis=d)
    return MaxMin(values, Tensor(np.array(ind, dtype=np.int64)), kind)


def _isnan(a: np.ndarray) -> np.ndarray:
    return np.isnan(a) if a.dtype.kind == "f" else np.zeros(a.shape, dtype=bool)


def _running_index(a: np.ndarray, d: int, fn: str) -> np.ndarray:
    """PyTorch's cummax / cummin indices: a new extreme, or one equal to the current, takes
    over (the latest of tied extremes); a NaN takes over and stays (the latest NaN)."""
    acc = np.maximum.accumulate if fn == "cummax" else np.minimum.accumulate
    run = acc(a, axis=d)
    with np.errstate(invalid="ignore"):
        takes = (a == run) | _isnan(a)
    pos = np.arange(a.shape[d]).reshape([-1 if i == d else 1 for i in range(a.ndim)])
    return np.maximum.accumulate(np.where(takes, pos, -1), axis=d)


def _cumulative_extreme(fn: str) -> Any:
    label = "CummaxBackward0" if fn == "cummax" else "CumminBackward0"

    def f(input: Any, dim: Any) -> MaxMin:
        input = A.tensor_arg(input, "input")
        d = C.check_dim(dim, input.ndim)
        if input.ndim == 0:
            return _pair(input, 0, np.zeros((), dtype=np.int64), True, label, fn)
        idx = _running_index(input.data, d, fn)
        grids = list(np.indices(input.shape, sparse=True))
        grids[d] = idx
        grids = [np.broadcast_to(g, input.shape) for g in grids]
        values = apply(S.index, input, idx=tuple(grids), label=label)
        values.data = row_major(values.data)  # (ATen's: row-major, any input layout)
        return MaxMin(values, Tensor(np.ascontiguousarray(idx, dtype=np.int64)), fn)

    f.__name__ = fn
    return f


cummax = _cumulative_extreme("cummax")
cummin = _cumulative_extreme("cummin")


def _median_index(a: np.ndarray, d: int, ignore_nan: bool) -> np.ndarray:
    """PyTorch's CPU median(dim) index (kept dim of size 1): the element at position (n-1)//2
    in the order (value, index) -- ties go to the lower index; with a NaN, the first NaN
    (median) or the median of the others (nanmedian; all NaN: the first)."""
    n = a.shape[d]
    order = np.argsort(a, axis=d, kind="stable")  # NaN last; ties in index order
    nan = _isnan(a)
    nans = nan.sum(axis=d, keepdims=True)
    if ignore_nan:
        k = n - nans
        pos = np.where(k > 0, (k - 1) // 2, 0)
        idx = np.take_along_axis(order, pos, axis=d)
        if np.any(k == 0):
            # All NaN: every element is equivalent under the kernel's order, and nth_element
            # leaves one of them first by how it moves elements.
            idx = np.where(k == 0, _StdAlgorithms(n, lambda i, j: False).nth_element(0)[0], idx)
        return idx
    pos = np.full(nans.shape, (n - 1) // 2)
    idx = np.take_along_axis(order, pos, axis=d)
    return np.where(nans > 0, np.argmax(nan, axis=d, keepdims=True), idx)


def _median(ignore_nan: bool) -> Any:
    fn = "nanmedian" if ignore_nan else "median"
    base = "NanmedianBackward" if ignore_nan else "MedianBackward"

    def f(input: Any, dim: Any = None, keepdim: bool = False) -> Any:
        input = A.tensor_arg(input, "input")
        if input.dtype == np.bool_:
            kernel = "median_out" if dim is not None and not ignore_nan else "median_cpu"
            C.float_kernel(input, kernel, "fciu")
        if dim is None:
            return _median_all(input, ignore_nan, base + "0")
        d = C.check_dim(dim, input.ndim)
        if input.ndim and input.shape[d] == 0:
            raise GradcliError(f"{fn}(): Expected reduction dim {d} to have non-zero size.").mirror(
                "IndexError"
            )
        if input.ndim == 0:
            return _pair(input, 0, np.zeros((), dtype=np.int64), True, base + "1", fn)
        idx = _median_index(input.data, d, ignore_nan)
        return _pair(input, d, idx, bool(keepdim), base + "1", fn)

    f.__name__ = fn
    return f


def _median_all(x: Tensor, ignore_nan: bool, label: str) -> Tensor:
    """The median of all elements; the gradient is shared between the elements equal to it
    (the NaNs when it is NaN), as PyTorch's evenly_distribute_backward."""
    flat = x.data.reshape(-1)
    nan = _isnan(flat)
    if flat.size == 0 or (not ignore_nan and nan.any()) or nan.all():
        value = np.asarray(np.nan if x.dtype.kind == "f" else 0, dtype=x.dtype)
    else:
        vals = np.sort(flat[~nan], kind="stable")
        value = np.asarray(vals[(len(vals) - 1) // 2], dtype=x.dtype)
    if not (x.requires_grad and x.dtype.kind == "f") or flat.size == 0:
        return Tensor(value)
    hit = (nan if np.isnan(value) else flat == value).reshape(x.shape)
    w = Tensor((hit / hit.sum()).astype(x.dtype))
    out = apply(R.sum, A.mul_t(x, w), dim=None, keepdim=False, label=label)
    out.data = value  # the exact element (a weighted sum of the ties may round it)
    return A.shown_over(out, x)


median = _median(False)
nanmedian = _median(True)


# --- mode: the index PyTorch's CPU kernel returns (std::sort of (value, index) by value) -------


def _mode_row(v: list) -> tuple[Any, int]:
    """PyTorch's mode of one row: sort, then the first run (in sorted order) longer than every
    earlier one; its value and the index at its end."""
    order = _StdAlgorithms(len(v), lambda i, j: v[i] < v[j]).sort()
    best, best_i, best_f, f = v[order[0]], order[0], 0, 0
    for k, i in enumerate(order):
        f += 1
        if k == len(order) - 1 or v[i] != v[order[k + 1]]:
            if f > best_f:
                best, best_i, best_f = v[i], i, f
            f = 0
    return best, best_i


def _mode_index(rows: np.ndarray) -> np.ndarray:
    """The mode's index in each row of a 2-D array."""
    n = rows.shape[1]
    if n <= 16 and not _isnan(rows).any():
        # Insertion sort (16 elements or fewer) is stable: a run of equal values ends at the
        # last occurrence.
        return _stable_mode(rows)
    work = len(rows) * n * max(1, n.bit_length())
    if work > _MODE_REPLAY_WORK:
        hooks.warn(
            f"mode(): rows of {n} elements are too long to replay PyTorch's sort exactly; "
            "the values are exact, and where several elements equal the mode its index is "
            "the last one's, which PyTorch's CPU kernel may not return",
            hint="the index among equal values is PyTorch's for inputs of up to about 150,000 "
            "elements",
        )
        return _stable_mode(rows)
    out = np.empty(len(rows), dtype=np.int64)
    for r, row in enumerate(rows):
        hooks.observer.tick()
        out[r] = _mode_row(row.tolist())[1]
    return out


# About a second of replaying libstdc++'s sort in Python (n log2 n summed over the rows).
_MODE_REPLAY_WORK = 3_000_000


def _stable_mode(rows: np.ndarray) -> np.ndarray:
    """The mode's index with a stable sort (the last of the equal elements), vectorized."""
    n = rows.shape[1]
    order = np.argsort(rows, axis=1, kind="stable")
    sv = np.take_along_axis(rows, order, axis=1)
    with np.errstate(invalid="ignore"):
        change = sv[:, 1:] != sv[:, :-1]
    edge = np.ones((len(rows), 1), dtype=bool)
    pos = np.arange(n)
    start = np.maximum.accumulate(np.where(np.concatenate([edge, change], 1), pos, 0), 1)
    end = np.concatenate([change, edge], 1)
    best = np.argmax(np.where(end, pos - start + 1, 0), axis=1)
    return order[np.arange(len(rows)), best]


def mode(input: Any, dim: Any = -1, keepdim: bool = False) -> MaxMin:
    input = A.tensor_arg(input, "input")
    d = C.check_dim(dim, input.ndim)
    if input.ndim and input.shape[d] == 0:
        raise GradcliError(f"mode(): Expected reduction dim {d} to have non-zero size.").mirror(
            "IndexError"
        )
    if input.ndim == 0:
        return _pair(input, 0, np.zeros((), dtype=np.int64), True, "ModeBackward0", "mode")
    moved = np.moveaxis(input.data, d, -1)
    rows = _mode_index(moved.reshape(-1, moved.shape[-1])) if moved.size else np.zeros(0, int)
    idx = np.expand_dims(rows.reshape(moved.shape[:-1]), d)
    return _pair(input, d, idx, bool(keepdim), "ModeBackward0", "mode")


def _kept(shape: tuple[int, ...], d: int) -> tuple[int, ...]:
    return tuple(1 if i == d else s for i, s in enumerate(shape))


# --- quantile -----------------------------------------------------------------------------------

_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def quantile(
    input: Any, q: Any, dim: Any = None, keepdim: bool = False, *, interpolation: str = "linear"
) -> Tensor:
    return _quantile("quantile", input, q, dim, keepdim, interpolation)


def nanquantile(
    input: Any, q: Any, dim: Any = None, keepdim: bool = False, *, interpolation: str = "linear"
) -> Tensor:
    """quantile of the values that are not NaN (NaN where a row has none)."""
    return _quantile("nanquantile", input, q, dim, keepdim, interpolation)


def _quantile(fn: str, x: Any, q: Any, dim: Any, keepdim: bool, interpolation: str) -> Tensor:
    x = A.tensor_arg(x, "input")
    if x.dtype.kind != "f":
        raise GradcliError("quantile() input tensor must be either float or double dtype")
    if interpolation not in _INTERPOLATIONS:
        raise GradcliError(
            "quantile() interpolation must be one of linear, lower, higher, midpoint or "
            f"nearest, but got {interpolation}"
        )
    if isinstance(q, Tensor):
        if q.ndim > 1:
            raise GradcliError("quantile() q must be a scalar or 1D tensor")
        if q.dtype != x.dtype:
            raise GradcliError("quantile() q tensor must be same dtype as the input tensor")
        qs = q.data.astype(np.float64)
        scalar = q.ndim == 0
    elif isinstance(q, (int, float)) and not isinstance(q, bool):
        qs, scalar = np.asarray(float(q)), True
    else:
        raise GradcliError(f"quantile(): argument 'q' must be Tensor or float, not {typename(q)}")
    if np.any((qs < 0) | (qs > 1)) or np.any(np.isnan(qs)):
        bad = float(qs.reshape(-1)[~((qs >= 0) & (qs <= 1)).reshape(-1)][0])
        if scalar and not isinstance(q, Tensor):
            raise GradcliError(f"quantile() q must be in the range [0, 1] but got {bad}")
        raise GradcliError("quantile() q values must be in the range [0, 1]")
    if x.numel() == 0:
        raise GradcliError("quantile() input tensor must be non-empty")
    # The sorted values along the last axis: x flattened (no dim) or its dim moved last.
    if dim is None:
        src = F.reshape(x, -1)
        out_shape: tuple[int, ...] = (1,) * x.ndim if keepdim else ()
    else:
        d = C.check_dim(dim, x.ndim)
        src = F.transpose(x, d, -1) if x.ndim else F.reshape(x, 1)
        out_shape = _kept(x.shape, d) if keepdim else x.shape[:d] + x.shape[d + 1 :]
    from .composite import sort

    ordered = sort(src, dim=-1).values
    n = ordered.shape[-1]
    qv = qs.reshape(-1)
    A.size_check((len(qv),) + ordered.shape[:-1] + (2,), "the quantiles")
    # PyTorch's ranks are computed in the input's dtype (q as a tensor of it, times the count
    # less one); the interpolation weight is the rank's fraction in that dtype too.
    dt = x.dtype
    ranks = np.broadcast_to(
        qv.astype(dt).reshape((-1,) + (1,) * (ordered.ndim - 1)), (len(qv),) + ordered.shape[:-1]
    )
    if fn == "nanquantile":  # the NaNs sort last: ranks among the others
        valid = (~np.isnan(ordered.data)).sum(axis=-1)
        ranks = np.where(valid == 0, dt.type(n - 1), ranks * np.maximum(valid - 1, 0).astype(dt))
    else:
        has_nan = np.isnan(ordered.data).any(axis=-1)
        ranks = np.where(has_nan, dt.type(n - 1), ranks * dt.type(n - 1))
    ranks = ranks.astype(dt)
    if interpolation == "lower":
        ranks = np.floor(ranks)
    elif interpolation == "higher":
        ranks = np.ceil(ranks)
    elif interpolation == "nearest":
        ranks = np.round(ranks)
    below = ranks.astype(np.int64)
    above = np.ceil(ranks).astype(np.int64)
    lead = tuple(np.indices(ordered.shape[:-1], sparse=True))
    lo = apply(
        S.index, ordered, idx=tuple(np.broadcast_to(g, below.shape) for g in lead) + (below,)
    )
    if interpolation in ("linear", "midpoint"):
        hi = apply(
            S.index, ordered, idx=tuple(np.broadcast_to(g, above.shape) for g in lead) + (above,)
        )
        w = (
            np.full(ranks.shape, 0.5, dt)
            if interpolation == "midpoint"
            else (ranks - below.astype(dt)).astype(dt)
        )
        wt = Tensor(w.astype(x.dtype))
        # PyTorch's lerp: from the nearer end (exact at both ends).
        near_lo = A.add_t(lo, A.mul_t(wt, A.sub_t(hi, lo)))
        near_hi = A.sub_t(hi, A.mul_t(A.sub_t(hi, lo), Tensor((dt.type(1) - w).astype(dt))))
        if dt == np.float32:
            # ATen's lerp kernel is compiled with contraction: each end's form is one fused
            # multiply-add (float64 holds the float32 product exactly).
            d = (hi.data - lo.data).astype(np.float64)
            with np.errstate(all="ignore"):
                near_lo.data[...] = (lo.data + w.astype(np.float64) * d).astype(dt)
                near_hi.data[...] = (hi.data - d * (dt.type(1) - w).astype(np.float64)).astype(dt)
        lo = apply(B.where, Tensor(w < 0.5), near_lo, near_hi)
    result = apply(S.reshape, lo, shape=(() if scalar else (len(qv),)) + out_shape)
    return A.named(result, "SqueezeBackward4")


# --- two statistics at once ---------------------------------------------------------------------


def _with_mean(fn: str) -> Any:
    label = "StdMeanBackward0" if fn == "std" else "VarMeanBackward0"
    spread = F.std if fn == "std" else F.var

    def f(
        input: Any,
        dim: Any = None,
        unbiased: Any = None,
        keepdim: bool = False,
        *,
        correction: Any = None,
    ) -> tuple[Tensor, Tensor]:
        input = A.tensor_arg(input, "input")
        if input.dtype.kind != "f":
            raise GradcliError(f"{fn}_mean only support floating point and complex dtypes")
        if isinstance(dim, bool):  # std_mean(x, False): the old positional `unbiased`
            unbiased, dim = dim, None
        sink = hooks.warning_sink
        if sink is not None:
            # PyTorch's warning of too few degrees of freedom names var_mean / std_mean

            def renamed(message: str, hint: str | None, once: bool) -> None:
                sink(message.replace(f"{fn}(): ", f"{fn}_mean(): ", 1), hint, once)

            hooks.warning_sink = renamed
        try:
            # ATen's var_mean / std_mean reduce with Welford's algorithm, to one element too
            s = spread(
                input, dim, unbiased=unbiased, keepdim=keepdim, correction=correction, welford=True
            )
        finally:
            hooks.warning_sink = sink
        m = F.mean(input, dim, keepdim=keepdim, welford=True)
        outs = (A.named(s, label), A.named(m, label))
        link_siblings(outs)  # (PyTorch's one node: their hooks run together)
        return outs

    f.__name__ = f"{fn}_mean"
    return f


std_mean = _with_mean("std")
var_mean = _with_mean("var")


# --- trapezoid ----------------------------------------------------------------------------------


def _check_x_dx(fn: str, x: Any, dx: Any) -> None:
    """The trapezoid rules' sample points `x` or spacing `dx`, not both, in PyTorch's words."""
    if x is not None and dx is not None:
        raise GradcliError(
            f"{fn}() received an invalid combination of arguments: give x or dx, not both"
        ).mirror("TypeError")
    if x is not None and not isinstance(x, Tensor):
        raise GradcliError(
            f"{fn}(): argument 'x' must be Tensor, not {typename(x)}",
            hint="write the spacing as dx=",
        ).mirror("TypeError")


def _step(fn: str, dx: Any) -> Any:
    step = 1 if dx is None else dx
    if not isinstance(step, (int, float)) or isinstance(step, bool):
        raise GradcliError(f"{fn}(): argument 'dx' must be a number, not {typename(step)}")
    return step


def _spacing(fn: str, x: Tensor, y: Tensor, d: int, dim: Any) -> Tensor:
    """The differences of the sample points `x` along y's dimension d (a 1-D x: one point for
    each sample, laid along d), recorded as ATen slices them."""
    n = y.shape[d]
    if x.ndim == 1:
        if x.shape[0] != n:
            raise GradcliError(f"{fn}: There must be one `x` value for each sample point")
        x = F.reshape(x, tuple(n if i == d else 1 for i in range(y.ndim)))
    xd = C.check_dim(dim, x.ndim)
    m = x.shape[xd]
    xl = (slice(None),) * xd
    return A.sub_t(
        apply(S.index, x, idx=xl + (slice(1, max(m, 1)),), label="SliceBackward0"),
        apply(S.index, x, idx=xl + (slice(0, max(m - 1, 0)),), label="SliceBackward0"),
    )


def _no_bool(fn: str, y: Tensor, x: Any) -> None:
    """ATen's trapezoid rules refuse bool samples (or bool sample points) first."""
    if isinstance(x, Tensor):
        if y.dtype == np.bool_ or x.dtype == np.bool_:
            raise GradcliError(
                f"{fn}: received a bool input for `x` or `y`, but bool is not supported"
            ).pytorch()
    elif y.dtype == np.bool_:
        raise GradcliError(
            f"{fn}: received a bool input for `y`, but bool is not supported"
        ).pytorch()


def trapezoid(y: Any, x: Any = None, *, dx: Any = None, dim: Any = -1) -> Tensor:
    y = A.tensor_arg(y, "y")
    _check_x_dx("trapezoid", x, dx)
    _no_bool("trapezoid", y, x)
    d = C.check_dim(dim, y.ndim)
    if y.ndim == 0:
        raise GradcliError(
            f"Dimension out of range (expected to be in range of [-1, 0], but got {dim})"
        ).mirror("IndexError")
    n = y.shape[d]
    lead = (slice(None),) * d
    if n == 0:
        shape = y.shape[:d] + y.shape[d + 1 :]
        return Tensor(np.zeros(shape, dtype=y.dtype if y.dtype.kind == "f" else np.float32))
    if x is None:
        step = _step("trapezoid", dx)
        ends = A.add_t(getitem(y, lead + (0,)), getitem(y, lead + (-1,)))
        total = A.sub_t(F.sum(y, d), A.mul_t(ends, 0.5))
        return A.named(A.mul_t(total, step), "MulBackward1")
    spacing = _spacing("trapezoid", x, y, d, dim)
    hi = apply(S.index, y, idx=lead + (slice(1, n),), label="SliceBackward0")
    lo = apply(S.index, y, idx=lead + (slice(0, n - 1),), label="SliceBackward0")
    total = F.sum(A.mul_t(spacing, A.add_t(hi, lo)), d)
    return A.named(A.div_t(total, 2.0), "DivBackward1")


def cumulative_trapezoid(y: Any, x: Any = None, *, dx: Any = None, dim: Any = -1) -> Tensor:
    """`torch.cumulative_trapezoid`: the running trapezoid rule, as ATen composes it:
    (dx / 2 * (left + right)).cumsum(dim) for a spacing, (dx * (left + right)).cumsum(dim) / 2
    for sample points x (dx their differences)."""
    y = A.tensor_arg(y, "y")
    _check_x_dx("cumulative_trapezoid", x, dx)
    _no_bool("cumulative_trapezoid", y, x)
    if y.ndim == 0:
        raise GradcliError(
            f"Dimension out of range (expected to be in range of [-1, 0], but got {dim})"
        ).mirror("IndexError")
    d = C.check_dim(dim, y.ndim)
    n = y.shape[d]
    lead = (slice(None),) * d
    hi = apply(S.index, y, idx=lead + (slice(1, max(n, 1)),), label="SliceBackward0")
    lo = apply(S.index, y, idx=lead + (slice(0, max(n - 1, 0)),), label="SliceBackward0")
    if x is None:
        return cumsum(A.mul_t(A.add_t(lo, hi), _step("cumulative_trapezoid", dx) / 2.0), d)
    spacing = _spacing("cumulative_trapezoid", x, y, d, dim)
    return A.named(A.div_t(cumsum(A.mul_t(spacing, A.add_t(lo, hi)), d), 2.0), "DivBackward1")


def trapz(y: Any, x: Any = None, *, dx: Any = None, dim: Any = -1) -> Tensor:
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        x, dx = None, x  # torch.trapz(y, dx) of old
    return trapezoid(y, x, dx=dx, dim=dim)


# --- gradient ---------------------------------------------------------------------------------

_GRADIENT_SIGNATURES = (
    " * (Tensor input, *, tuple of ints dim, int edge_order = 1)\n"
    " * (Tensor input, *, Number spacing, tuple of ints dim, int edge_order = 1)\n"
    " * (Tensor input, *, Number spacing = None, int dim = None, int edge_order = 1)\n"
    " * (Tensor input, *, tuple of Scalars spacing, int dim = None, int edge_order = 1)\n"
    " * (Tensor input, *, tuple of Scalars spacing, tuple of ints dim, int edge_order = 1)\n"
    " * (Tensor input, *, tuple of Tensors spacing, int dim = None, int edge_order = 1)\n"
    " * (Tensor input, *, tuple of Tensors spacing, tuple of ints dim, int edge_order = 1)\n"
)


def _gradient_type_error(args: tuple, kwargs: dict) -> GradcliError:
    got = [typename(a) for a in args] + [f"{k}={typename(v)}" for k, v in kwargs.items()]
    return GradcliError(
        f"gradient() received an invalid combination of arguments - got ({', '.join(got)}), "
        f"but expected one of:\n{_GRADIENT_SIGNATURES}",
        hint="torch.gradient(y, spacing=h, dim=d, edge_order=1): spacing and dim by keyword",
    ).mirror("TypeError")


def _is_number(v: Any) -> bool:
    if isinstance(v, Tensor):
        return v.ndim == 0 and v.dtype.kind != "b"
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _number(v: Any) -> Any:
    return v.item() if isinstance(v, Tensor) else v


def _slice(x: Tensor, d: int, start: int | None, stop: int | None = None) -> Tensor:
    idx = (slice(None),) * d + (slice(start, stop),)
    return apply(S.index, x, idx=idx, label="SliceBackward0")


def _gradient_float(x: Tensor, h: Any, d: int, edge_order: int) -> Tensor:
    """ATen's gradient_helper_float along d: central differences over 2h inside, one-sided
    (first or second order) at the ends, concatenated."""

    def div(t: Tensor, v: Any) -> Tensor:
        return A.named(A.div_op(t, v), "DivBackward1")

    def times(v: float, t: Tensor) -> Tensor:
        return A.named(A.mul_op(t, v), "MulBackward1")

    center = div(A.sub_op(_slice(x, d, 2), _slice(x, d, 0, -2)), h)
    if edge_order == 1:
        first = div(A.sub_op(_slice(x, d, 1, 2), _slice(x, d, 0, 1)), h)
        last = div(A.sub_op(_slice(x, d, -1), _slice(x, d, -2, -1)), h)
    else:
        first = A.sub_op(
            A.add_op(times(-1.5, _slice(x, d, 0, 1)), times(2, _slice(x, d, 1, 2))),
            times(0.5, _slice(x, d, 2, 3)),
        )
        first = div(first, h)
        last = A.add_op(
            A.sub_op(times(0.5, _slice(x, d, -3, -2)), times(2, _slice(x, d, -2, -1))),
            times(1.5, _slice(x, d, -1)),
        )
        last = div(last, h)
    return F.cat([first, div(center, 2), last], d)


def _gradient_coordinates(x: Tensor, coords: Tensor, d: int, edge_order: int) -> Tensor:
    """ATen's gradient_helper along d at sample points `coords` (1-d): the weighted
    three-point differences of unevenly spaced samples, one-sided at the ends."""
    if coords.ndim != 1:
        raise GradcliError(
            "torch.gradient expected each element of spacing to have one dimension, but got an "
            f"element with {coords.ndim} dimensions!"
        )
    shape = [1] * x.ndim
    shape[d] = -1
    dx = A.sub_op(_slice(coords, 0, 1), _slice(coords, 0, 0, -1))  # diff(1, 0): as ATen's
    dx1, dx2 = _slice(dx, 0, 0, -1), _slice(dx, 0, 1)
    mul, add, sub, div = A.mul_op, A.add_op, A.sub_op, A.div_op
    a = F.reshape(div(A.neg(dx2), mul(dx1, add(dx1, dx2))), shape)
    b = F.reshape(div(sub(dx2, dx1), mul(dx1, dx2)), shape)
    c = F.reshape(div(dx1, mul(dx2, add(dx1, dx2))), shape)
    center = add(
        add(mul(a, _slice(x, d, 0, -2)), mul(b, _slice(x, d, 1, -1))), mul(c, _slice(x, d, 2))
    )
    h0, h1 = getitem(dx, 0), getitem(dx, -1)
    if edge_order == 1:
        first = div(sub(_slice(x, d, 1, 2), _slice(x, d, 0, 1)), h0)
        last = div(sub(_slice(x, d, -1), _slice(x, d, -2, -1)), h1)
    else:
        g0, g1 = getitem(dx, 1), getitem(dx, -2)
        a = A.neg(div(add(mul(2.0, h0), g0), mul(h0, add(h0, g0))))
        b = div(add(h0, g0), mul(h0, g0))
        c = div(A.neg(h0), mul(g0, add(h0, g0)))
        first = add(
            add(mul(a, _slice(x, d, 0, 1)), mul(b, _slice(x, d, 1, 2))), mul(c, _slice(x, d, 2, 3))
        )
        a = div(h1, mul(g1, add(h1, g1)))
        b = A.neg(div(add(h1, g1), mul(h1, g1)))
        c = div(add(mul(2, h1), g1), mul(h1, add(h1, g1)))
        last = add(
            add(mul(a, _slice(x, d, -3, -2)), mul(b, _slice(x, d, -2, -1))),
            mul(c, _slice(x, d, -1)),
        )
    return F.cat([first, center, last], d)


def gradient(*args: Any, **kwargs: Any) -> tuple:
    """`torch.gradient(input, *, spacing=1, dim=None, edge_order=1)`: the derivative of
    samples along each dimension (or the given ones) by ATen's compositions (CatBackward0 of
    one-sided differences at the ends and central ones inside), one tensor per dimension."""
    unknown = set(kwargs) - {"input", "spacing", "dim", "edge_order"}
    if "input" in kwargs and not args:
        args = (kwargs.pop("input"),)
    if len(args) != 1 or unknown:
        raise _gradient_type_error(args, kwargs)
    x = args[0]
    if not isinstance(x, Tensor):
        raise GradcliError(
            f"gradient(): argument 'input' (position 1) must be Tensor, not {typename(x)}"
        ).mirror("TypeError")
    spacing = kwargs.get("spacing")
    dim = kwargs.get("dim")
    edge_order = kwargs.get("edge_order", 1)
    ints = isinstance(dim, (list, tuple)) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in dim
    )
    if not (dim is None or ints or (isinstance(dim, int) and not isinstance(dim, bool))) or not (
        isinstance(edge_order, int) and not isinstance(edge_order, bool)
    ):
        raise _gradient_type_error(args, kwargs)
    coords = None
    if spacing is None or _is_number(spacing):
        # one step for every dimension differentiated (ATen checks its count only when given)
        h = 1.0 if spacing is None else _number(spacing)
        steps = [h] * (len(dim) if ints else 1 if dim is not None else x.ndim)
        spacing_size = len(steps) if ints or spacing is not None else None
    elif isinstance(spacing, (list, tuple)) and all(
        _is_number(v) and not isinstance(v, Tensor) for v in spacing
    ):
        steps = [_number(v) for v in spacing]
        spacing_size = len(steps)
    elif isinstance(spacing, (list, tuple)) and all(isinstance(v, Tensor) for v in spacing):
        coords = list(spacing)
        steps = coords
        spacing_size = len(steps)
    elif isinstance(spacing, (list, tuple)) and any(isinstance(v, Tensor) for v in spacing):
        k = next(i for i, v in enumerate(spacing) if not isinstance(v, Tensor))
        raise GradcliError(
            f"expected Tensor as element {k} in argument 1, but got {typename(spacing[k])}"
        ).mirror("TypeError")
    else:
        raise _gradient_type_error(args, kwargs)
    if x.dtype == np.uint8:
        raise GradcliError("torch.gradient does not support uint8 input.")
    if x.ndim == 0 and dim is None:
        return ()
    dims = list(dim) if ints else [dim] if dim is not None else list(range(x.ndim))
    if spacing_size is not None and dim is None and spacing_size != x.ndim:
        raise GradcliError(
            "torch.gradient expected spacing to be unspecified, a scalar, or a list of length "
            f"equal to 'self.dim() = {x.ndim}', since dim argument was not given, but got a "
            f"list of length {spacing_size}"
        )
    if spacing_size is not None and dim is not None and spacing_size != len(dims):
        raise GradcliError(
            "torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
            f"arguments to have the same length, but got a spacing argument of length "
            f"{spacing_size} and a dim argument of length {len(dims)}."
        )
    if edge_order not in (1, 2):
        raise GradcliError("torch.gradient only supports edge_order=1 and edge_order=2.")
    wrapped = [C.check_dim(v, x.ndim) for v in dims]
    seen: set[int] = set()
    for v in wrapped:
        if v in seen:
            raise GradcliError(f"dim {v} appears multiple times in the list of dims")
        seen.add(v)
    if any(x.shape[d] < edge_order + 1 for d in wrapped):
        raise GradcliError(
            "torch.gradient expected each dimension size to be at least edge_order+1"
        )
    out = []
    for i, d in enumerate(wrapped):
        if coords is None:
            out.append(_gradient_float(x, steps[i], d, edge_order))
        else:
            out.append(_gradient_coordinates(x, coords[i], d, edge_order))
    return tuple(out)


NAMES = declare(
    ("cumsum", "torch Tensor", cumsum, "cumsum"),
    ("cumprod", "torch Tensor", cumprod, "cumprod"),
    ("cummax", "torch Tensor", cummax, "composition of index"),
    ("cummin", "torch Tensor", cummin, "composition of index"),
    ("logcumsumexp", "torch Tensor", logcumsumexp, "logcumsumexp"),
    ("median", "torch Tensor", median, "composition of index mul sum"),
    ("nanmedian", "torch Tensor", nanmedian, "composition of index mul sum"),
    ("mode", "torch Tensor", mode, "composition of index"),
    ("quantile", "torch Tensor", quantile, "composition of index mul sub add where reshape"),
    ("nanquantile", "torch Tensor", nanquantile, "composition of index mul sub add where reshape"),
    ("std_mean", "torch", std_mean, "composition of std mean"),
    ("var_mean", "torch", var_mean, "composition of var mean"),
    ("trapezoid", "torch", trapezoid, "composition of index add mul sum div sub reshape"),
    (
        "cumulative_trapezoid",
        "torch",
        cumulative_trapezoid,
        "composition of index add mul cumsum div sub reshape",
    ),
    ("trapz", "torch", trapz, "composition of index add mul sum div sub reshape"),
    ("gradient", "torch", gradient, "composition of index sub div mul add cat reshape neg"),
)
