"""Reduction records: sum, mean, prod, max / min, norm, logsumexp, softmax, log_softmax,
var, std. A reduction's `dim` param is None, an int or a tuple (`core.primitives.dims_of`);
rules give the reduced gradient its axes back with `unreduce`.

Ops of other kinds than elementwise / binary have `sym` forms on whole object arrays of sympy
expressions (`_sym_reduce`), evaluated by `analysis.symbolic`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core import hooks
from ..core import primitives as P
from ..core import saved as V
from ..core.dtypes import BF16
from ..core.op import Sample, apply, defop, reduction_samples, register
from ..core.primitives import check_reduced, count, dims_of, from_end, sum_vjp, unreduce
from ..core.summation import sum_float
from ..core.tensor import Tensor, _GradMode, constant, grad_enabled, mask_like
from .softmax32 import softmax32, softmax_backward32

sum = register(P.sum)  # noqa: A001 - the record of torch.sum
# PyTorch keeps the dims as the program wrote them (-1 shows as 2**64 - 1); gradcli's node has
# them made non-negative.
_DIM = V.refused("gradcli keeps the dims of a reduction made non-negative")
_SUM_SAVED = {
    "SumBackward0": V.saves(self_sym_sizes=V.sizes(0)),
    "SumBackward1": V.saves(dim=_DIM, keepdim=V.param("keepdim"), self_sym_sizes=V.sizes(0)),
}
_MEAN_SAVED = {
    "MeanBackward0": V.saves(self_sym_numel=V.numel(0), self_sym_sizes=V.sizes(0)),
    "MeanBackward1": V.saves(
        dim=_DIM, keepdim=V.param("keepdim"), self_sym_numel=V.numel(0), self_sym_sizes=V.sizes(0)
    ),
}
sum.saved = lambda n: _SUM_SAVED.get(n.name())


def _mean_fwd(
    x: np.ndarray, dim: Any = None, keepdim: bool = False, welford: bool = False
) -> np.ndarray:
    """`welford`: var_mean / std_mean's mean, Welford's running mean in double, a float32
    tensor's rounded once (a float32 sum past 3.4e38 would be inf; this mean is not)."""
    check_reduced(x, dim, keepdim, "mean")
    if welford and x.dtype in (np.float32, np.float64):
        # (ATen's Welford running mean in double: `_welford`, rounded once)
        got = _welford(x.astype(np.float64), dims_of(dim, x.ndim), 1, keepdim)
        if got is not None:
            return np.asarray(got[1]).astype(x.dtype)
    if welford and x.dtype == np.float32:
        wide = np.mean(x.astype(np.float64), axis=dims_of(dim, x.ndim), keepdims=keepdim)
        return np.asarray(wide).astype(np.float32)
    if x.dtype.kind != "f" or x.dtype.itemsize < 4:
        return np.mean(x, axis=dims_of(dim, x.ndim), keepdims=keepdim)
    # As PyTorch's CPU mean: the sum (in its kernel's order), then divided by the count.
    dims = dims_of(dim, x.ndim)
    total = sum_float(x, dims, keepdim)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.divide(total, x.dtype.type(count(x.shape, dims)), dtype=x.dtype)


def _mean_vjp(
    g: Tensor, out: Tensor, x: Tensor, dim: Any = None, keepdim: bool = False, welford: bool = False
) -> tuple:
    (gs,) = sum_vjp(g, out, x, dim, keepdim)
    r = gs / count(x.shape, dims_of(dim, x.ndim))
    if r.node is not None:  # ATen divides by a C++ number: div(Tensor, Scalar)
        r.node.label = "DivBackward1"
    return (r,)


mean = defop(
    "mean",
    _mean_fwd,
    _mean_vjp,
    "MeanBackward0",
    "g / n (broadcast back)",
    saved=lambda n: _MEAN_SAVED.get(n.name()),
    kind="reduction",
    saves=False,
    signature="mean(x, dim=None, keepdim=False)",
    samples=reduction_samples(),
    to_torch=lambda w, a, p: w.reduction("torch.mean", a[0], p),
    to_jax=lambda w, a, p: w.reduction("jnp.mean", a[0], p),
    complex="holo",
    jvp_terms=((0, ()),),  # (auto_linear: the mean of the tangent)
)


def _nansum_fwd(x: np.ndarray, dim: Any = None, keepdim: bool = False) -> np.ndarray:
    check_reduced(x, dim, keepdim, "nansum")
    if x.dtype.kind in "fc":
        x = np.where(np.isnan(x), np.zeros((), x.dtype), x)
    return sum_float(x, dims_of(dim, x.ndim), keepdim)


def _nansum_vjp(g: Tensor, out: Tensor, x: Tensor, dim: Any = None, keepdim: bool = False) -> tuple:
    # PyTorch's nansum_backward: the gradient broadcast back, times "not NaN" (a product, so a
    # NaN or inf gradient still reaches the NaN places as NaN, as PyTorch's)
    (gx,) = sum_vjp(g, out, x, dim, keepdim)
    return (gx * constant(~np.isnan(x.data)),)


nansum = defop(
    "nansum",
    _nansum_fwd,
    _nansum_vjp,
    "NansumBackward0",
    "g (broadcast back) where x is not NaN, else 0",
    kind="reduction",
    saves=True,
    signature="nansum(x, dim=None, keepdim=False)",
    samples=reduction_samples(),
    to_torch=lambda w, a, p: w.reduction("torch.nansum", a[0], p),
    to_jax=lambda w, a, p: w.reduction("jnp.nansum", a[0], p),
)


def _prod_others(x: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
    """For each element, the product of the others in its reduction group (exact with zeros)."""
    rest = [d for d in range(x.ndim) if d not in dims]
    moved = np.transpose(x, rest + list(dims))
    flat = moved.reshape(moved.shape[: len(rest)] + (-1,))
    ones = np.ones(flat.shape[:-1] + (1,), dtype=x.dtype)
    # (ATen's cumprod runs its products in acc_type, each output rounded once: ops.scan)
    acc = {np.dtype(np.float32): np.float64, np.dtype(np.float16): np.float32}.get(x.dtype)

    def run(a: np.ndarray) -> np.ndarray:
        return np.cumprod(a, axis=-1, dtype=acc).astype(x.dtype, copy=False)

    left = run(np.concatenate([ones, flat[..., :-1]], axis=-1))
    right = run(np.concatenate([ones, flat[..., :0:-1]], axis=-1))[..., ::-1]
    others = (left * right).reshape(moved.shape)
    return np.transpose(others, np.argsort(rest + list(dims)))


def prod_others_recorded(x: Tensor, dims: tuple[int, ...]) -> Tensor:
    """`_prod_others` as recorded operations of x: along the one reduced dim, or over the
    whole tensor flattened (prod() reduces every dim)."""
    from .scan import exclusive_cumprod

    if len(dims) == 1:
        d = dims[0] - x.ndim
        return exclusive_cumprod(x, d) * exclusive_cumprod(x, d, reverse=True)
    flat = apply(P.reshape, x, shape=(x.data.size,))
    others = exclusive_cumprod(flat, -1) * exclusive_cumprod(flat, -1, reverse=True)
    return apply(P.reshape, others, shape=x.shape)


def _prod_fwd(x: np.ndarray, dim: Any = None, keepdim: bool = False) -> np.ndarray:
    check_reduced(x, dim, keepdim, "prod")
    ax = dims_of(dim, x.ndim)
    if x.dtype == np.float16 and x.size and ax:
        # ATen multiplies half values one after the other, each product rounded to half
        # (NumPy's prod rounds once): the reduced dims moved last, a running product
        kept = [d for d in range(x.ndim) if d not in ax]
        rows = np.transpose(x, kept + list(ax)).reshape([x.shape[d] for d in kept] + [-1])
        with np.errstate(over="ignore", invalid="ignore"):
            out = np.multiply.accumulate(rows, axis=-1)[..., -1]
        return out.reshape([1 if d in ax else n for d, n in enumerate(x.shape)]) if keepdim else out
    if x.dtype in (np.float32, np.float64) and x.size and ax:
        from ..core import cpu

        if cpu.amd():
            out = _prod_avx2(x, ax)
            if out is not None:
                return out if keepdim else np.squeeze(out, axis=ax)
    return np.prod(x, axis=ax, keepdims=keepdim)


def _prod_avx2(x: np.ndarray, ax: tuple[int, ...]) -> np.ndarray | None:
    """The product of float32 / float64 x over `ax` (kept as 1-dims) in the order ATen's
    `binary_kernel_reduce_vec` multiplies on an AVX2 build (8 floats or 4 doubles a vector),
    or None for a layout not modelled (reduced dims between kept ones).

    Dims of size 1 are dropped first, as TensorIterator does. When the reduced dims come after
    the kept ones (`prod()`, `prod(-1)`), each row of n values is reduced from 1: while whole
    groups of 4 vectors remain, 4 vector accumulators multiply the groups lane by lane (the
    first group loaded as they are), then the 4 are combined as (a0 * a1) * (a2 * a3), its lanes
    multiplied left to right into the result; the last n mod (4 * lanes) values are multiplied
    one by one. When they come before the kept ones (`prod(0)` of a matrix), each column is
    multiplied down in order. Measured on AMD EPYC (Zen 3) against PyTorch 2.13: every one of
    7500 rows of 1 to 300 float32 (2500 float64) and 10000 columns is PyTorch's product to the
    bit; NumPy's prod differed in 7 rows in 10 (the AVX-512 family keeps NumPy's prod)."""
    big = [d for d in range(x.ndim) if x.shape[d] != 1]
    red = [d for d in big if d in ax]
    kept = [d for d in big if d not in ax]
    shape = tuple(1 if d in ax else n for d, n in enumerate(x.shape))
    if not red:
        return np.prod(x, axis=ax, keepdims=True)  # nothing is multiplied but by 1
    m = int(np.prod([x.shape[d] for d in kept], dtype=np.int64))
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        if kept and max(red) < min(kept):
            cols = np.ascontiguousarray(x).reshape(-1, m)
            return np.multiply.accumulate(cols, axis=0)[-1].reshape(shape)
        if kept and min(red) < max(kept):
            return None
        if not kept and not x.flags.c_contiguous:
            runs = _strided_runs(x)
            if runs is not None:
                return _carried_prod(runs).reshape(shape)
        rows = np.ascontiguousarray(x).reshape(m, -1)
        out = np.ones(m, x.dtype)
        return _rows_prod(rows, out).reshape(shape)


def _rows_prod(rows: np.ndarray, out: np.ndarray) -> np.ndarray:
    """`out` times each row's product in `vectorized_reduction`'s order (see `_prod_avx2`)."""
    m = rows.shape[0]
    lanes = 32 // rows.dtype.itemsize
    group = 4 * lanes
    whole = rows.shape[1] // group
    if whole:
        blocks = rows[:, : whole * group].reshape(m, whole, 4, lanes)
        acc = np.multiply.accumulate(blocks, axis=1)[:, -1]
        acc = (acc[:, 0] * acc[:, 1]) * (acc[:, 2] * acc[:, 3])
        folded = acc[:, 0]
        for j in range(1, lanes):
            folded = folded * acc[:, j]
        out = out * folded
    for i in range(whole * group, rows.shape[1]):
        out = out * rows[:, i]
    return out


_CARRIED_ROWS = 4096  # rows of a strided full product multiplied one after another


def _strided_runs(x: np.ndarray) -> np.ndarray | None:
    """A non-contiguous array (a slice, a view) as TensorIterator walks it for a full
    reduction: dims by decreasing stride (a transpose is read in memory order), neighbours that
    are one run of memory merged, the innermost run a row; None when that is not a contiguous
    run of a few rows."""
    dims = sorted((d for d in range(x.ndim) if x.shape[d] > 1), key=lambda d: -x.strides[d])
    if any(x.strides[d] <= 0 for d in dims):
        return None
    merged: list[list[int]] = []
    for d in dims:
        if merged and merged[-1][1] == x.strides[d] * x.shape[d]:
            merged[-1] = [merged[-1][0] * x.shape[d], x.strides[d]]
        else:
            merged.append([x.shape[d], x.strides[d]])
    if not merged or merged[-1][1] != x.itemsize:
        return None
    moved = np.transpose(x, dims + [d for d in range(x.ndim) if x.shape[d] == 1])
    rows = np.ascontiguousarray(moved).reshape(-1, merged[-1][0])
    return rows if len(rows) <= _CARRIED_ROWS else None


def _carried_prod(rows: np.ndarray) -> np.ndarray:
    """One product over rows, the rows reduced one after another into the same value (the
    outer loop of `binary_kernel_reduce_vec` around each row's `vectorized_reduction`)."""
    out = np.ones(1, rows.dtype)
    for r in range(len(rows)):
        out = _rows_prod(rows[r : r + 1], out)
    return out


def _prod_vjp(g: Tensor, out: Tensor, x: Tensor, dim: Any = None, keepdim: bool = False) -> tuple:
    gu = unreduce(g, x, dim, keepdim)
    if np.any(x.data == 0) or (_GradMode.transforms and x.ndim):
        # (inside a torch.func transform too: ATen's prod_backward takes functorch's wrappers
        # as tensor subclasses and always builds the products of the others, other last bits
        # than the quotient)
        # out / x is 0/0 there: the exact product of the others is used, as constants, or (a
        # backward that records, to be differentiated again) as ATen's prod_safe_zeros_backward
        # builds it, from the products before and after each element
        if x.ndim == 0:
            return (g,)
        if grad_enabled():
            gx = gu * prod_others_recorded(x, dims_of(dim, x.ndim))
            if dim is None:
                # prod() (every dim) ends ATen's prod_backward in .view_as(input): the
                # gradient's grad_fn is then ViewBackward0 (prod(dim) ends in the product)
                gx = apply(P.reshape, gx, shape=gx.shape, label="ViewBackward0")
            return (gx,)
        if dim is None and not _GradMode.transforms and np.count_nonzero(x.data == 0) > 1:
            # prod() of two or more zeros, in a backward that does not record: ATen's
            # prod_backward answers zeros_like(input) (+0 everywhere, whatever the gradient),
            # where the products of the others would give -0 beside negative values
            return (constant(np.zeros_like(x.data)),)
        return (gu * constant(_prod_others(x.data, dims_of(dim, x.ndim))),)
    if x.ndim == 0:
        return (g,)  # PyTorch's prod_backward hands the gradient on as it is
    # PyTorch's prod_backward: grad * (result / input), the quotient first
    return (gu * (unreduce(out, x, dim, keepdim) / x),)


prod = defop(
    "prod",
    _prod_fwd,
    _prod_vjp,
    "ProdBackward0",
    "g * out / x (product of the others)",
    kind="reduction",
    signature="prod(x, dim=None, keepdim=False)",
    samples=tuple(
        Sample(s, q)
        for s, q in (
            (((2, 3),), {}),
            (((2, 3),), {"dim": 1}),
            (((2, 3),), {"dim": 0, "keepdim": True}),
            (((2, 3, 4),), {"dim": 2}),
            (((),), {}),
            (((),), {"dim": 0}),
            (((4,),), {"dim": 0}),
        )
    ),
    to_torch=lambda w, a, p: w.reduction("torch.prod", a[0], p),
    to_jax=lambda w, a, p: w.reduction("jnp.prod", a[0], p),
)


def _extreme_vjp(
    g: Tensor,
    out: Tensor,
    x: Tensor,
    dim: Any = None,
    keepdim: bool = False,
    fn: str = "max",
    idx: np.ndarray | None = None,
) -> tuple:
    from .binary import where

    gu = unreduce(g, x, dim, keepdim)
    zero = Tensor(np.zeros((), dtype=gu.dtype))
    if fn in ("amax", "amin"):
        # torch.amax / amin: AmaxBackward0's (g / ties) * (x == out) over each group, so the
        # others get g * 0 (-0 for a negative g) and a group whose result is NaN (no x
        # equals it: g / 0 * 0) gets NaN everywhere
        dims = dims_of(dim, x.ndim)
        value = np.asarray(out.data)
        if not keepdim and x.ndim:
            value = np.expand_dims(value, dims)
        hit = x.data == value
        ties = hit.sum(axis=dims, keepdims=True).astype(gu.dtype)
        with np.errstate(divide="ignore", invalid="ignore"):
            return ((gu / constant(ties)) * constant(hit.astype(gu.dtype)),)
    if dim is None or x.ndim == 0:
        # PyTorch's evenly_distribute_backward: zeros with g / (number of ties) at the ties
        # (a NaN result: at the NaNs)
        value = np.asarray(out.data).reshape((1,) * x.ndim)
        hit = np.isnan(x.data) if np.isnan(value).any() else x.data == value
        ties = int(hit.sum())
        if _GradMode.transforms:
            # inside a torch.func transform ATen's evenly_distribute_backward takes its
            # tensor-subclass form, mask * (g / ties): -0 beside the ties for a negative g
            with np.errstate(divide="ignore", invalid="ignore"):
                return ((gu / constant(np.array(ties, gu.dtype))) * constant(hit.astype(gu.dtype)),)
        # (recorded, create_graph: PyTorch's zeros_like(x).masked_fill_(mask, g / ties),
        # MaskedFillBackward1 after DivBackward0, the 0-d quotient broadcast by the fill)
        share = g / ties if grad_enabled() else (gu / ties if ties != 1 else gu)
        return (apply(where, Tensor(hit), share, zero, label="MaskedFillBackward1"),)
    d = dims_of(dim, x.ndim)[0]
    if idx is None:
        idx = np.expand_dims(getattr(np, "arg" + fn)(x.data, axis=d), d)
    hit = np.arange(x.shape[d]).reshape([-1 if i == d else 1 for i in range(x.ndim)]) == idx
    # PyTorch scatters g into zeros at the indices: +0 elsewhere (g * mask gave -0), recorded
    # (create_graph) as ScatterBackward0
    return (apply(where, Tensor(hit), gu, zero, label="ScatterBackward0"),)


def _extreme_reads(params: dict) -> tuple[bool, frozenset[int]]:
    # max(x) splits g between the ties of x with its result; max(x, dim) gives g to the
    # indices it returned, kept as `idx` (as PyTorch saves them: a change in place of the
    # values or of x after it is no matter), or to the argmax of x
    if params.get("dim") is None:
        return True, frozenset({0})
    return False, frozenset() if params.get("idx") is not None else frozenset({0})


def _extreme_fwd(
    x: np.ndarray, dim: Any = None, keepdim: bool = False, fn: str = "max", idx: Any = None
):
    if x.size == 0 and (dim is None or x.ndim == 0):
        raise ValueError(f"{fn}(): Expected reduction dim to be specified for input.numel() == 0")
    f = np.max if fn in ("max", "amax") else np.min
    if fn in ("amax", "amin"):  # any number of dims
        return f(x, axis=None if x.ndim == 0 else dims_of(dim, x.ndim), keepdims=keepdim)
    return f(
        x, axis=None if dim is None or x.ndim == 0 else dims_of(dim, x.ndim)[0], keepdims=keepdim
    )


def _sym_reduce(x: np.ndarray, dim: Any, keepdim: bool, f: Any) -> np.ndarray:
    """A `sym` helper: reduce an object array of sympy expressions over `dim`, each group (a
    list of elements) to `f(group)`. Ops of kind elementwise / binary have `sym` forms on one
    element; every other kind's `sym` takes and returns whole object arrays (gradcli.symbolic)."""
    dims = dims_of(dim, x.ndim)
    rest = [d for d in range(x.ndim) if d not in dims]
    moved = np.transpose(x, rest + list(dims))
    flat = moved.reshape(moved.shape[: len(rest)] + (-1,))
    out = np.empty(flat.shape[:-1], dtype=object)
    for i in np.ndindex(out.shape):
        out[i] = f(list(flat[i]))
    if keepdim:
        out = out.reshape(tuple(1 if d in dims else s for d, s in enumerate(x.shape)))
    return out


def _extreme_sym(
    sp: Any, x: np.ndarray, dim: Any = None, keepdim: bool = False, fn: str = "max", idx: Any = None
) -> np.ndarray:
    dims = None if dim is None or x.ndim == 0 else dims_of(dim, x.ndim)[0]
    return _sym_reduce(
        x, dims, keepdim, lambda v: (sp.Max if fn in ("max", "amax") else sp.Min)(*v)
    )


def _extreme_samples(fn: str) -> tuple[Sample, ...]:
    return tuple(
        Sample(s, {**q, "fn": fn}, distinct=True)
        for s, q in (
            (((2, 3),), {}),
            (((2, 3),), {"dim": 1}),
            (((2, 3),), {"dim": 0, "keepdim": True}),
            (((2, 3, 4),), {"dim": 2}),
            (((),), {}),
            (((),), {"dim": 0}),
            (((4,),), {"dim": 0}),
        )
    )


amax = defop(
    "max",
    _extreme_fwd,
    _extreme_vjp,
    "MaxBackward1",
    "g at the maximum; ties share g equally (no dim) or go to the first (with dim)",
    kind="reduction",
    kink="max() without dim splits g equally between tied maxima; max(dim) gives it "
    "to the index it returns (the first), as PyTorch",
    signature="max(x) / max(x, dim, keepdim=False) -> (values, indices) / max(x, y)",
    sym=_extreme_sym,
    samples=_extreme_samples("max"),
    reads=_extreme_reads,
    to_torch=lambda w, a, p: (
        w.reduction(f"torch.{p.get('fn', 'max')}", a[0], p)
        + ("" if p.get("dim") is None or p.get("fn", "max") in ("amax", "amin") else ".values")
    ),
    to_jax=lambda w, a, p: w.reduction(f"jnp.{p.get('fn', 'max')}", a[0], p),
)
amin = defop(
    "min",
    _extreme_fwd,
    _extreme_vjp,
    "MinBackward1",
    "g at the minimum; ties share g equally (no dim) or go to the first (with dim)",
    kind="reduction",
    kink="as max",
    signature="min(x) / min(x, dim, keepdim=False) -> (values, indices) / min(x, y)",
    sym=_extreme_sym,
    samples=_extreme_samples("min"),
    reads=_extreme_reads,
    to_torch=lambda w, a, p: (
        w.reduction(f"torch.{p.get('fn', 'max')}", a[0], p)
        + ("" if p.get("dim") is None or p.get("fn", "max") in ("amax", "amin") else ".values")
    ),
    to_jax=lambda w, a, p: w.reduction(f"jnp.{p.get('fn', 'min')}", a[0], p),
)


def _norm_fwd(x: np.ndarray, p: float = 2.0, dim: Any = None, keepdim: bool = False):
    check_reduced(x, dim, keepdim, "norm")
    if x.dtype == np.float16:
        # ATen accumulates a half norm in float (its opmath type) and rounds the result
        # once: squares summed in float16 overflow past 65504 (a norm of 256s is inf there).
        out = _norm_fwd(x.astype(np.float32), p, dim, keepdim)
        with np.errstate(over="ignore"):  # past float16's range: inf, as ATen rounds it
            return np.asarray(out).astype(np.float16)
    ax = dims_of(dim, x.ndim)
    if p == math.inf:
        return np.max(np.abs(x), axis=ax, keepdims=keepdim)
    if x.dtype in (np.float32, np.float64) and x.size:
        rows, kept = _norm_rows(x, ax)
        if p == 2 and _reduced_block_contiguous(x, ax):
            r = _norm2_rows(rows)
        else:
            r = _norm_in_order(rows, p)
        out = r.reshape(kept)
        if keepdim:
            out = out.reshape(tuple(1 if d in ax else n for d, n in enumerate(x.shape)))
        return out
    a = np.abs(x)
    if p == 2:
        return np.sqrt(np.sum(a * a, axis=ax, keepdims=keepdim))
    if p == 1:
        return np.sum(a, axis=ax, keepdims=keepdim)
    return np.sum(a**p, axis=ax, keepdims=keepdim) ** (1.0 / p)


def _norm_rows(x: np.ndarray, ax: tuple[int, ...]) -> tuple[np.ndarray, tuple[int, ...]]:
    """x as a matrix: one row per output element, its reduced elements in the order ATen's
    TensorIterator visits them (memory order: the reduced dimension of smallest stride
    innermost); and the shape of the kept dimensions."""
    keep = [d for d in range(x.ndim) if d not in ax]
    red = sorted(ax, key=lambda d: -abs(x.strides[d]))
    v = np.transpose(x, keep + red)
    kept = v.shape[: len(keep)]
    return v.reshape(int(np.prod(kept)) if kept else 1, -1), kept


def _reduced_block_contiguous(x: np.ndarray, ax: tuple[int, ...]) -> bool:
    """Whether the reduced dimensions make one contiguous run in memory, innermost: then the
    TensorIterator merges them into one dimension of unit stride, and ATen's 2-norm takes its
    vectorised path (`is_reduce_lastdim`)."""
    step = x.itemsize
    for d in sorted((d for d in ax if x.shape[d] != 1), key=lambda d: abs(x.strides[d])):
        if x.strides[d] != step:
            return False
        step *= x.shape[d]
    return True


def _norm_in_order(rows: np.ndarray, p: float) -> np.ndarray:
    """ATen's scalar norm kernels (`binary_kernel_reduce` with NormOneOps, NormTwoOps,
    NormOps): each term added to the accumulator in order, in the tensor's dtype (float for
    float32: its opmath type), `|x|`, `x * x` or `pow(|x|, p)`, then the root; pow is the C
    library's (std::pow), in float for float32 (with the exponent 1.0f / p). One thread's
    order, as the corpus records: PyTorch splits 32768 terms or more between threads."""
    from ..core.powf32 import scalar_pow64, scalar_powf

    dt = rows.dtype
    a = np.abs(rows)
    if p == 1:
        terms = a
    elif p == 2:
        terms = rows * rows
    elif dt == np.float32:
        terms = scalar_powf(a, np.full(a.size, p, np.float32)).reshape(a.shape)
    else:
        terms = scalar_pow64(a, p).reshape(a.shape)
    acc = np.add.accumulate(terms, axis=1)[:, -1] + dt.type(0)
    if p == 1:
        return acc
    if p == 2:
        return np.sqrt(acc)
    if dt == np.float32:
        inv = np.float32(1.0) / np.float32(p)
        return scalar_powf(acc, np.full(acc.size, inv, np.float32))
    return scalar_pow64(acc, 1.0 / p)


_NORM_VECTOR_BYTES = 32  # ATen's Vectorized<float> (8 lanes), Vectorized<double> (4) (measured)


def _norm2_rows(x: np.ndarray) -> np.ndarray:
    """The 2-norm of each row of a float32 or float64 matrix, added as ATen's fast path for a
    norm over one contiguous (innermost) run adds it (ReduceOpsKernel's
    `norm_kernel_tensor_iterator_impl`): squares rounded and summed into vector lanes (8
    floats, 4 doubles), the lanes added left to right, then the elements left over: in fours,
    each square rounded and added, the last ones (fewer than 4) fused, `fma(x, x, acc)`, as
    the compiled tail loop computes them; the square root rounded once. Measured against
    PyTorch 2.13: every float32 norm of 1 to 10,000 elements tested is PyTorch's to the bit,
    and the float64 ones, full and along dims, of contiguous and transposed tensors."""
    from ..core.fma64 import _fma64
    from .linalg import _fma32

    rows, n = x.shape
    width = _NORM_VECTOR_BYTES // x.itemsize
    full = n - n % width
    acc = np.zeros(rows, dtype=x.dtype)
    if full:
        sq = x[:, :full] * x[:, :full]
        lanes = np.add.accumulate(sq.reshape(rows, -1, width), axis=1)[:, -1]
        acc = lanes[:, 0].copy()
        for j in range(1, width):
            acc += lanes[:, j]
    tail = x[:, full:]
    fours = tail.shape[1] - tail.shape[1] % 4
    for j in range(fours):
        acc += tail[:, j] * tail[:, j]
    for j in range(fours, tail.shape[1]):
        t = tail[:, j]
        acc = _fma32(t.astype(np.float64) ** 2, acc) if x.dtype == np.float32 else _fma64(t, t, acc)
    return np.sqrt(acc)


def _norm_vjp(
    g: Tensor, out: Tensor, x: Tensor, p: float = 2.0, dim: Any = None, keepdim: bool = False
) -> tuple:
    gu = unreduce(g, x, dim, keepdim)
    o = unreduce(out, x, dim, keepdim)
    sgn = constant(np.sign(x.data))
    if p == 1:
        return (gu * sgn,)
    if p == math.inf:
        hit = (np.abs(x.data) == o.data).astype(x.dtype)
        hit = hit / np.sum(hit, axis=dims_of(dim, x.ndim), keepdims=True)
        return (gu * sgn * constant(hit),)
    # At a zero norm PyTorch returns a zero gradient (the subgradient 0). PyTorch's
    # norm_backward operation by operation (its roundings in float32): its masked_fill_ is a
    # `where` with +0 where the norm is 0.
    from .binary import where

    at_zero = Tensor(np.broadcast_to(o.data == 0, o.shape))
    nought = Tensor(np.zeros((), dtype=o.dtype))
    safe = o + mask_like(o.data == 0, o)
    if p == 2:
        return (gu * apply(where, at_zero, nought, x / safe),)
    if p < 1:
        scaled = sgn * apply(where, Tensor(x.data == 0), nought, x.abs() ** (p - 1))
        return (scaled * gu * o ** (1 - p),)
    scaled = sgn * x.abs() ** (p - 1) if p < 2 else x * x.abs() ** (p - 2)
    return (scaled * apply(where, at_zero, nought, gu / safe ** (p - 1)),)


def _norm_jvp(
    dots: tuple, out: Tensor, x: Tensor, p: float = 2.0, dim: Any = None, keepdim: bool = False
) -> Any:
    # PyTorch's norm_jvp for p = 2: sum(x * x_t) / norm, 0 where the norm is 0 (its order of
    # operations: the last float32 bits); other p: the gradient's weights times x_t, summed
    d = dots[0]
    if d is None:
        return None
    from .binary import div, mul, where

    lead = d.ndim - x.ndim
    dims = tuple(a + lead for a in dims_of(dim, x.ndim))
    if p == 2:
        total = apply(sum, apply(mul, x, d), dim=dims, keepdim=keepdim)
        zero = out.data == 0
        if not zero.any():
            return apply(div, total, out)
        safe = Tensor(np.where(zero, 1, out.data).astype(out.dtype))
        return apply(where, Tensor(zero), Tensor(np.zeros((), out.dtype)), apply(div, total, safe))
    weights = _norm_vjp(Tensor(np.ones(out.shape, out.dtype)), out, x, p, dim, keepdim)[0]
    return apply(sum, apply(mul, weights, d), dim=dims, keepdim=keepdim)


def _norm_sym(
    sp: Any, x: np.ndarray, p: float = 2.0, dim: Any = None, keepdim: bool = False
) -> np.ndarray:
    if p == math.inf:
        return _sym_reduce(x, dim, keepdim, lambda v: sp.Max(*[sp.Abs(e) for e in v]))
    if p == 2:
        return _sym_reduce(x, dim, keepdim, lambda v: sp.sqrt(sp.Add(*[e**2 for e in v])))
    if p == 1:
        return _sym_reduce(x, dim, keepdim, lambda v: sp.Add(*[sp.Abs(e) for e in v]))
    q = sp.nsimplify(p, rational=True)
    return _sym_reduce(x, dim, keepdim, lambda v: sp.Add(*[sp.Abs(e) ** q for e in v]) ** (1 / q))


norm = defop(
    "norm",
    _norm_fwd,
    _norm_vjp,
    "NormBackward1",
    "g * x / out  (p = 2)",
    kind="reduction",
    kink="the gradient of a zero norm is 0, as PyTorch",
    sym=_norm_sym,
    jvp=_norm_jvp,
    signature="norm(x, p=2, dim=None, keepdim=False)",
    samples=reduction_samples({"p": 2.0})
    + reduction_samples({"p": 3.0}, avoid=(0.0,))
    + reduction_samples({"p": 1.0}, avoid=(0.0,))
    + reduction_samples({"p": 1.5}, avoid=(0.0,))
    + reduction_samples({"p": math.inf}, distinct=True, avoid=(0.0,), gap=0.02),
    to_torch=lambda w, a, p: (
        f"torch.linalg.vector_norm({a[0]}, ord={w.lit(p.get('p', 2.0))}"
        f"{w.dim(p)}, keepdim={bool(p.get('keepdim'))})"
    ),
    to_jax=lambda w, a, p: (
        f"jnp.linalg.vector_norm({a[0]}, ord={w.lit(float(p.get('p', 2.0)))}, "
        f"axis={w.axis(p)}, {w.keep(p)})"
    ),
)


# --- dist: the norm of a difference, one record as ATen's dist ------------------------------------

_UNDEFINED = (
    "Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument #0 'self'"
)


def _dist_fwd(a: np.ndarray, b: np.ndarray, p: float = 2.0) -> np.ndarray:
    """ATen's dist: `norm(self - other, p)` over every element of the broadcast difference:
    the norm's kernels for p > 0 and negative p, the count of nonzeros for 0, min |d| for
    -inf."""
    d = np.subtract(a, b).reshape(-1)
    if p == 0:
        return np.asarray(np.count_nonzero(d), d.dtype)
    if p == -math.inf:
        return np.min(np.abs(d)) if d.size else np.asarray(math.inf, d.dtype)
    return np.asarray(_norm_fwd(d, p))


def _dist_grad(g: Tensor, out: Tensor, d: Tensor, p: float) -> Tensor:
    """ATen's norm_backward(grad, self - other, p, result) of a whole reduction."""
    if abs(p) == math.inf:  # (mask of the elements at the norm: sgn(d) * ((g / count) * mask))
        hit = (np.abs(d.data) == out.data) | np.isnan(d.data)
        n = np.asarray(np.count_nonzero(hit), d.dtype)
        gu = unreduce(g, d, None, False)
        return constant(np.sign(d.data)) * ((gu / constant(n)) * mask_like(hit, d))
    return _norm_vjp(g, out, d, p)[0]


def _pass_wants(t: Tensor) -> bool:
    """Whether the running backward pass needs t's gradient (PyTorch's
    `should_compute_output`): always for backward() of everything; for autograd.grad(...,
    inputs) / backward(inputs=...), when t is one of them or leads to one."""
    from ..core.autograd import CURRENT
    from ..core.graph import ancestors

    current = CURRENT[0]
    capture = current[1] if current is not None else ()
    if not capture:
        return True
    ids = {id(c) for c in capture}
    if id(t) in ids:
        return True
    if t.node is None:
        return False
    nodes = ancestors([t])
    made = {id(c.node) for c in capture if c.node is not None}
    return any(id(n) in made or any(id(i) in ids for i in n.inputs) for n in nodes)


def _dist_vjp(g: Tensor, out: Tensor, a: Tensor, b: Tensor, p: float = 2.0) -> tuple:
    if p == 0:
        # ATen's norm_backward gives an undefined tensor for p = 0: `self` gets no gradient
        # (None), `other`'s rule negates it: PyTorch's error
        if b.requires_grad and _pass_wants(b):
            raise GradcliError(_UNDEFINED).mirror("RuntimeError")
        return (None, None)
    ga = _dist_grad(g, out, a - b, p)
    gb = -ga
    if a.dtype != b.dtype:  # (the engine's cast of each gradient to its input's dtype)
        from .shape import astype

        ga = ga if ga.dtype == a.dtype else apply(astype, ga, dtype=a.dtype)
        gb = gb if gb.dtype == b.dtype else apply(astype, gb, dtype=b.dtype)
    return (ga, gb)


def _dist_jvp(dots: tuple, out: Tensor, a: Tensor, b: Tensor, p: float = 2.0) -> Any:
    from ..core.forward import broadcast_tangent

    ta, tb = dots
    if ta is None and tb is None:
        return None
    d = a - b
    nb = (ta if ta is not None else tb).ndim - (a if ta is not None else b).ndim
    ta, tb = (
        None if t is None else broadcast_tangent(t, x.shape, d.shape, nb)
        for t, x in ((ta, a), (tb, b))
    )
    t = -tb if ta is None else ta if tb is None else ta - tb
    if p == 0:
        return Tensor(np.zeros(t.shape[: t.ndim - d.ndim], out.dtype))
    if abs(p) == math.inf:
        w = _dist_grad(Tensor(np.ones((), out.dtype)), out, d, p)
        lead = t.ndim - d.ndim
        return apply(sum, w * t, dim=tuple(range(lead, t.ndim)), keepdim=False)
    return _norm_jvp((t,), out, d, p)


dist = defop(
    "dist",
    _dist_fwd,
    _dist_vjp,
    "DistBackward0",
    "g * norm'(a - b) for a, its negative for b",
    kind="reduction",
    kink="the gradient of a zero distance is 0; p = 0 has none (an error for b, as PyTorch)",
    sym=lambda sp, x, y, p=2.0: _norm_sym(sp, (x - y).reshape(-1), p),
    jvp=_dist_jvp,
    signature="dist(a, b, p=2)",
    samples=[
        Sample(((2, 3), (3,)), {"p": 2.0}, distinct=True),
        Sample(((3, 1), (4,)), {"p": 3.0}, distinct=True),
        Sample(((4,), (4,)), {"p": 1.0}, distinct=True),
        Sample(((2, 2), (2, 2)), {"p": 1.5}, distinct=True),
        Sample(((2, 3), (2, 3)), {"p": math.inf}, distinct=True, gap=0.02),
    ],
    to_torch=lambda w, a, p: f"torch.dist({a[0]}, {a[1]}, {w.lit(p.get('p', 2.0))})",
    to_jax=lambda w, a, p: (
        f"jnp.linalg.vector_norm(({a[0]} - {a[1]}).ravel(), ord={w.lit(float(p.get('p', 2.0)))})"
    ),
)


def _lse_fwd(x: np.ndarray, dim: Any = None, keepdim: bool = False) -> np.ndarray:
    check_reduced(x, dim, keepdim, "logsumexp")
    ax = dims_of(dim, x.ndim)
    m = np.max(x, axis=ax, keepdims=True) if x.size else np.zeros((1,) * x.ndim, x.dtype)
    m = np.where(np.isfinite(m), m, 0)
    if x.dtype in (np.float32, np.float64) and x.size:
        # ATen's order, each step rounded to the dtype: the shifted exponentials (torch.exp's,
        # MKL's bits), their sum (as torch.sum), its log (torch.log's), plus the maximum; the
        # NumPy path below agrees with it on 4 in 5 float32 inputs, this one on all measured
        # (float64 too: NumPy's exp, log and pairwise sum differed in 1 in 6 rows)
        m = m.astype(x.dtype)
        from .elementwise import exp as _exp
        from .elementwise import log as _log

        e = _exp.forward(x - m)
        s = _log.forward(sum_float(e, ax, True)) + m
        return s if keepdim else np.squeeze(s, axis=ax)
    s = np.log(np.sum(np.exp(x - m), axis=ax, keepdims=True)) + m
    return s if keepdim else np.squeeze(s, axis=ax)


def _lse_jvp(dots: tuple, out: Tensor, x: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    # PyTorch's logsumexp_jvp: sum(exp(x - amax(x)) * t) / sum(exp(x - amax(x))), not the
    # backward's sum(t * exp(x - out)), which rounds otherwise
    (t,) = dots
    if t is None:
        return None
    if x.ndim == 0:
        return t
    axes = dims_of(dim, x.ndim)
    back = tuple(a - x.ndim for a in axes)  # counted from the end: the same under batch axes
    with np.errstate(invalid="ignore"):
        top = np.max(x.data, axis=axes, keepdims=True) if x.data.size else np.zeros(())
    e = (x - constant(np.asarray(top, dtype=x.dtype))).exp()
    num = apply(P.sum, e * t, dim=back, keepdim=keepdim)
    return num / apply(P.sum, e, dim=back, keepdim=keepdim)


logsumexp = defop(
    "logsumexp",
    _lse_fwd,
    lambda g, out, x, dim=None, keepdim=False: (
        unreduce(g, x, dim, keepdim) * (x - unreduce(out, x, dim, keepdim)).exp(),
    ),
    "LogsumexpBackward0",
    "g * exp(x - out)",
    jvp=_lse_jvp,
    kind="reduction",
    sym=lambda sp, x, dim=None, keepdim=False: _sym_reduce(
        x, dim, keepdim, lambda v: sp.log(sp.Add(*[sp.exp(e) for e in v]))
    ),
    signature="logsumexp(x, dim, keepdim=False)",
    samples=reduction_samples(),
    to_torch=lambda w, a, p: (
        f"torch.logsumexp({a[0]}, "
        f"dim={w.lit(tuple(range(w.inputs[0].ndim)) if p.get('dim') is None else p['dim'])}"
        f", keepdim={bool(p.get('keepdim'))})"
    ),
    to_jax=lambda w, a, p: w.reduction("jax.scipy.special.logsumexp", a[0], p),
)


def _rounded(fn: Any, x: np.ndarray) -> np.ndarray:
    """`fn` of a float32 (float16) array through float64, rounded once: within the ulp of
    PyTorch's vectorised exp and log far more often than NumPy's float32 kernels."""
    if x.dtype.kind == "f" and x.dtype.itemsize < 8:
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            return fn(x.astype(np.float64)).astype(x.dtype)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        return fn(x)


def _shifted(x: np.ndarray, dim: int) -> np.ndarray:
    """x minus its maximum along `dim` (a non-finite maximum taken as 0, as logsumexp's)."""
    if not x.size:
        return x - 0
    m = np.max(x, axis=dim, keepdims=True)
    return x - np.where(np.isfinite(m), m, 0).astype(x.dtype, copy=False)


def _reduced(dt: np.dtype) -> bool:
    """float16 or bfloat16 (whose kernels `core.op.apply` runs in float32, rounding once)."""
    return dt == np.float16 or dt == BF16


def _softmax_vjp(g: Tensor, out: Tensor, x: Tensor, dim: int, log: bool) -> tuple:
    """softmax's `out * (g - sum(g * out, dim))`, log_softmax's `g - exp(out) * sum(g, dim)`.
    A float32 gradient computed without a graph (no create_graph, not batched) is ATen's
    backward kernels' to the bit (`softmax_backward32`); with a graph the rule's operations
    (whose last bits may differ)."""
    if x.ndim == 0:
        return (g * 0,)
    if (
        not grad_enabled()
        and g.dtype == np.float32
        and out.dtype == np.float32
        and g.shape == out.shape
        and isinstance(g.data, np.ndarray)
    ):
        return (Tensor(softmax_backward32(g.data, out.data, dim, log)),)
    if (
        not grad_enabled()
        and g.dtype == np.float64
        and out.dtype == np.float64
        and g.shape == out.shape
        and isinstance(g.data, np.ndarray)
    ):
        from .softmax64 import softmax_backward64, softmax_backward64_last  # (ATen's order)

        if dim % x.ndim == x.ndim - 1:
            return (Tensor(softmax_backward64_last(g.data, out.data, log)),)
        return (Tensor(softmax_backward64(g.data, out.data, dim % x.ndim, log)),)
    d = from_end(dim, x.ndim)
    if g.dtype == out.dtype and (grad_enabled() or _reduced(g.dtype)):
        # recorded (create_graph=True): PyTorch's own node (_softmax_backward_data,
        # SoftmaxBackwardDataBackward0 / LogSoftmaxBackwardDataBackward0), the same kernel;
        # float16 and bfloat16: that kernel in float32, rounded once (`core.half`)
        return (apply(log_softmax_backward if log else softmax_backward, g, out, dim=d),)
    if log:
        return (g - out.exp() * sum_dim(g, d),)
    return (out * (g - sum_dim(g * out, d)),)


def _softmax_jvp(log: bool) -> Any:
    def rule(dots: tuple, out: Tensor, x: Tensor, dim: int) -> Tensor | None:
        # PyTorch's forward formulas: softmax out * (t - lse'), log_softmax t - lse', where
        # lse' = sum(exp(x - amax(x)) * t) / sum(exp(x - amax(x))) (its logsumexp_jvp), not the
        # backward's sum(t * out), which rounds otherwise.
        (t,) = dots
        if t is None:
            return None
        if x.ndim == 0:
            return t - t if log else out * (t - t)
        d = from_end(dim, x.ndim)
        with np.errstate(invalid="ignore"):
            top = np.max(x.data, axis=d, keepdims=True) if x.data.size else 0
        e = (x - constant(np.asarray(top, dtype=x.dtype))).exp()
        lse_t = sum_dim(e * t, d) / sum_dim(e, d)
        return t - lse_t if log else out * (t - lse_t)

    return rule


def _softmax_backward_fwd(g: np.ndarray, y: np.ndarray, *, dim: int, log: bool) -> np.ndarray:
    """The first pass's kernel (`softmax_backward32` for float32, as without create_graph),
    the rule's operations for the other dtypes and for a batched pass."""
    if g.dtype == y.dtype == np.float32 and g.shape == y.shape:
        return softmax_backward32(g, y, dim % y.ndim, log)
    if g.dtype == y.dtype == np.float64 and g.shape == y.shape and y.ndim:
        from .softmax64 import softmax_backward64, softmax_backward64_last

        if dim % y.ndim == y.ndim - 1:
            return softmax_backward64_last(g, y, log)
        return softmax_backward64(g, y, dim % y.ndim, log)
    gt, yt = Tensor(g), Tensor(y)
    if log:
        return (gt - yt.exp() * sum_dim(gt, dim)).data
    return (yt * (gt - sum_dim(gt * yt, dim))).data


def _softmax_backward_jvp(dots: tuple, out: Tensor, g: Tensor, y: Tensor, *, dim: int) -> Any:
    # Forward mode as PyTorch runs it (its jvp decomposition of _softmax_backward_data, each
    # op's forward formula): new = g * y; out = new - y * sum(new), so the tangent is
    # new' - (sum(new') * y + y' * sum(new)), new' = y' * g + g' * y (a missing tangent's terms
    # left out). torch.func.hessian of a softmax runs through it.
    from .binary import tangent_at_rank

    tg, ty = (None if d is None else tangent_at_rank(d, t, out) for d, t in zip(dots, (g, y)))
    if tg is None and ty is None:
        return None
    if ty is None:
        new_t = tg * y
    elif tg is None:
        new_t = ty * g
    else:
        new_t = ty * g + tg * y
    prod_t = sum_dim(new_t, dim) * y
    if ty is not None:
        prod_t = prod_t + ty * sum_dim(g * y, dim)
    return new_t - prod_t


def _log_softmax_backward_jvp(dots: tuple, out: Tensor, g: Tensor, y: Tensor, *, dim: int) -> Any:
    # PyTorch's jvp decomposition of _log_softmax_backward_data: out = g - exp(y) * sum(g),
    # so the tangent is g' - (sum(g') * exp(y) + (y' * exp(y)) * sum(g)).
    from .binary import tangent_at_rank

    tg, ty = (None if d is None else tangent_at_rank(d, t, out) for d, t in zip(dots, (g, y)))
    if tg is None and ty is None:
        return None
    e = y.exp()
    prod_t = None if tg is None else sum_dim(tg, dim) * e
    if ty is not None:
        term = ty * e * sum_dim(g, dim)
        prod_t = term if prod_t is None else prod_t + term
    return -prod_t if tg is None else tg - prod_t


def _softmax_backward_vjp(h: Tensor, out: Tensor, g: Tensor, y: Tensor, *, dim: int) -> tuple:
    # derivatives.yaml: grad_output: _softmax_backward_data(grad, output); output:
    # softmax_double_backward = gO * h - sum(y * gO) * h - gO * sum(y * h), in its order
    first = apply(softmax_backward, h, y, dim=dim)
    second = g * h - sum_dim(y * g, dim) * h - g * sum_dim(y * h, dim)
    return (first, second)


def _log_softmax_backward_vjp(h: Tensor, out: Tensor, g: Tensor, y: Tensor, *, dim: int) -> tuple:
    # derivatives.yaml: grad_output: grad - (grad * output.exp()).sum(dim, true); output:
    # -grad_output.sum(dim, true) * output.exp() * grad
    e = y.exp()
    return (h - sum_dim(h * e, dim), -sum_dim(g, dim) * e * h)


_softmax_backward_samples = tuple(
    Sample(shapes, {"dim": d}, low=0.05, high=0.9)
    for shapes, d in ((((2, 3), (2, 3)), -1), (((2, 3), (2, 3)), -2), (((4, 2, 3), (2, 3)), -1))
)

# softmax's and log_softmax's gradients as PyTorch computes them, also under create_graph=True:
# one kernel of the incoming gradient and the result, its own node
softmax_backward = defop(
    "softmax_backward",
    lambda g, y, dim: _softmax_backward_fwd(g, y, dim=dim, log=False),
    _softmax_backward_vjp,
    "SoftmaxBackwardDataBackward0",
    "softmax_backward(h, y), g * h - sum(y * g) * h - g * sum(y * h)",
    jvp=_softmax_backward_jvp,
    kind="internal",
    saves=False,
    samples=_softmax_backward_samples,
)
log_softmax_backward = defop(
    "log_softmax_backward",
    lambda g, y, dim: _softmax_backward_fwd(g, y, dim=dim, log=True),
    _log_softmax_backward_vjp,
    "LogSoftmaxBackwardDataBackward0",
    "h - sum(h * exp(y)), -sum(g) * exp(y) * h",
    jvp=_log_softmax_backward_jvp,
    kind="internal",
    saves=False,
    sym=lambda sp, g, y, dim: (
        g - np.frompyfunc(sp.exp, 1, 1)(y) * _sym_reduce(g, dim, True, lambda v: sp.Add(*v))
    ),
    samples=_softmax_backward_samples,
)


def _softmax_fwd(x: np.ndarray, dim: int) -> np.ndarray:
    # (float16 and bfloat16 arrive as float32, computed as their kernels: `core.half`)
    if x.dtype == np.float32 and x.ndim:
        return softmax32(x, dim, log=False)  # PyTorch's kernels to the bit
    # PyTorch's CPU kernels: e = exp(x - max), each step rounded in the tensor's dtype; then,
    # along the last dim, e * (1 / sum(e)) (a product by the reciprocal: another last bit than a
    # quotient), and along any other dim (its `_vec_softmax`) the quotient e / sum(e).
    if x.dtype == np.float64 and x.ndim and x.size:
        from .softmax64 import softmax64, softmax64_last  # (ATen's exps and order)

        if dim % x.ndim == x.ndim - 1:
            return softmax64_last(x)
        with np.errstate(invalid="ignore"):  # (its max as it is: inf - inf is NaN there)
            return softmax64(x - np.max(x, axis=dim, keepdims=True), dim % x.ndim)
    e = _rounded(np.exp, _shifted(x, dim))
    total = np.sum(e, axis=dim, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        if x.ndim and dim % x.ndim != x.ndim - 1:
            return e / total
        return e * (np.ones((), e.dtype) / total)


_softmax_samples = tuple(
    Sample((s,), {"dim": d}, low=-3.0, high=3.0)
    for s, d in (((2, 3), 1), ((2, 3), 0), ((2, 3, 4), 2), ((2, 3, 4), 1), ((4,), 0), ((), 0))
)


softmax = defop(
    "softmax",
    _softmax_fwd,
    lambda g, out, x, dim: _softmax_vjp(g, out, x, dim, False),
    "SoftmaxBackward0",
    "out * (g - sum(g * out, dim))",
    jvp=_softmax_jvp(False),
    kind="reduction",
    sym=lambda sp, x, dim: np.frompyfunc(lambda e, s: sp.exp(e) / s, 2, 1)(
        x, _sym_reduce(x, dim, True, lambda v: sp.Add(*[sp.exp(e) for e in v]))
    ),
    signature="softmax(x, dim)",
    samples=_softmax_samples,
    to_torch=lambda w, a, p: f"torch.softmax({a[0]}, dim={w.lit(p['dim'])})",
    to_jax=lambda w, a, p: f"jax.nn.softmax({a[0]}, axis={w.axis(p)})",
)


def _log_softmax_fwd(x: np.ndarray, dim: int) -> np.ndarray:
    # (float16 and bfloat16 arrive as float32, computed as their kernels: `core.half`)
    if x.dtype == np.float32 and x.ndim:
        return softmax32(x, dim, log=True)  # PyTorch's kernels to the bit
    # PyTorch's CPU kernel: (x - max) - log(sum(exp(x - max))), in that order (the maximum is
    # not added to the logarithm first), each step rounded in the tensor's dtype.
    if x.dtype == np.float64 and x.ndim and x.size:
        from .softmax64 import log_softmax64, log_softmax64_last  # (ATen's exps, log, order)

        if dim % x.ndim == x.ndim - 1:
            return log_softmax64_last(x)
        return log_softmax64(x, dim % x.ndim)
    if x.ndim and dim % x.ndim != x.ndim - 1 and x.size:
        # (over another dimension, `serial_vec_logsoftmax_range`: x less its maximum as it is,
        # so a column holding +inf is NaN throughout)
        with np.errstate(invalid="ignore"):
            d = x - np.max(x, axis=dim, keepdims=True)
    else:
        d = _shifted(x, dim)
    return d - _rounded(np.log, np.sum(_rounded(np.exp, d), axis=dim, keepdims=True))


log_softmax = defop(
    "log_softmax",
    _log_softmax_fwd,
    lambda g, out, x, dim: _softmax_vjp(g, out, x, dim, True),
    "LogSoftmaxBackward0",
    "g - exp(out) * sum(g, dim)",
    jvp=_softmax_jvp(True),
    kind="reduction",
    sym=lambda sp, x, dim: (
        x - _sym_reduce(x, dim, True, lambda v: sp.log(sp.Add(*[sp.exp(e) for e in v])))
    ),
    signature="log_softmax(x, dim)",
    samples=_softmax_samples,
    to_torch=lambda w, a, p: f"torch.log_softmax({a[0]}, dim={w.lit(p['dim'])})",
    to_jax=lambda w, a, p: f"jax.nn.log_softmax({a[0]}, axis={w.axis(p)})",
)


def _var_fwd(
    x: np.ndarray,
    dim: Any = None,
    correction: float = 1,
    keepdim: bool = False,
    root: bool = False,
    welford: bool = False,
):
    """var (or, with `root`, std). ATen accumulates a float32 tensor's variance in double
    (Welford) and takes the root in double, then rounds once to float32: computed here in
    float64 and rounded once (the float32 results measured against PyTorch 2.13 are its). A
    float16 tensor's too (ATen accumulates it in float: a variance past 65504 is inf in half
    while its root is not). A float32 / float64 reduction to one element takes ATen's other
    road (`_var_all`) unless `welford` (var_mean / std_mean always take Welford's)."""
    check_reduced(x, dim, keepdim, "var")
    if count(x.shape, dims_of(dim, x.ndim)) - correction <= 0:
        hooks.warn(
            f"{'std' if root else 'var'}(): degrees of freedom is <= 0. Correction should be "
            "strictly less than the reduction factor (input numel divided by output numel).",
            "fewer corrections than samples (correction=0 is the population variance)",
        )
    dims = dims_of(dim, x.ndim)
    if (
        not welford
        and x.dtype in (np.float32, np.float64)
        and x.size
        and count(x.shape, dims) == x.size
    ):
        return _var_all(x, correction, keepdim, root)
    wide = x.astype(np.float64) if x.dtype in (np.float32, np.float16) else x
    got = _welford(wide, dims, correction, keepdim) if wide.dtype == np.float64 else None
    v = np.var(wide, axis=dims, ddof=correction, keepdims=keepdim) if got is None else got[0]
    if root:
        v = np.sqrt(v)
    if wide is x:
        return v
    with np.errstate(over="ignore"):  # past float16's range: inf, as ATen rounds it
        return v.astype(x.dtype)


# The longest reduction `_welford` runs step by step, to one result / to several (past it,
# NumPy's two-pass variance: the same value to a few units in the last place); a step costs
# ~0.5 us on Python's floats, ~8 us on arrays
_WELFORD_STEPS = 1 << 14
_WELFORD_ARRAY_STEPS = 1 << 10


def _welford(
    x: np.ndarray, dims: tuple[int, ...], correction: float, keepdim: bool
) -> tuple[np.ndarray, np.ndarray] | None:
    """ATen's CPU var / std / var_mean / std_mean of a float64 array (`WelfordOps`, one
    thread): each result's elements taken one at a time in memory order, mean += delta / n
    and m2 += delta * (x - new mean), the variance m2 / max(0, n - correction) (0 / 0 is
    NaN); (variance, mean), in float64. None for an empty or too long reduction
    (`_WELFORD_STEPS`, `_WELFORD_ARRAY_STEPS`)."""
    n = count(x.shape, dims)
    if n == 0 or n > _WELFORD_STEPS:
        return None
    keep = [d for d in range(x.ndim) if d not in dims]
    order = sorted(dims, key=lambda d: -abs(x.strides[d]))  # (memory order: outermost first)
    kept_shape = tuple(x.shape[d] for d in keep)
    outs = x.size // n
    if outs > 1 and n > _WELFORD_ARRAY_STEPS:
        return None
    steps = np.ascontiguousarray(np.transpose(x, order + keep).reshape(n, -1))
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        if outs == 1:  # (one result: Python's floats, the same IEEE steps, faster than arrays)
            mu = sq = 0.0
            for k, v in enumerate(steps[:, 0].tolist()):
                d = v - mu
                mu = mu + d / float(k + 1)
                sq = sq + d * (v - mu)
            mean, m2 = np.array([mu]), np.array([sq])
        else:
            mean, m2 = np.zeros(outs), np.zeros(outs)
            delta, tmp = np.empty(outs), np.empty(outs)
            for k in range(n):
                v = steps[k]
                np.subtract(v, mean, out=delta)
                np.divide(delta, float(k + 1), out=tmp)
                np.add(mean, tmp, out=mean)
                np.subtract(v, mean, out=tmp)
                np.multiply(delta, tmp, out=tmp)
                np.add(m2, tmp, out=m2)
        var = m2 / float(max(0.0, n - correction))
    shape = tuple(1 if d in dims else x.shape[d] for d in range(x.ndim)) if keepdim else kept_shape
    return var.reshape(shape), mean.reshape(shape)


def _var_all(x: np.ndarray, correction: float, keepdim: bool, root: bool) -> np.ndarray:
    """ATen's CPU var / std of a float32 or float64 tensor reduced to one element
    (`std_var_all_cpu`): the mean is the tensor's own `mean()` (in its dtype, so a float32 sum
    past 3.4e38 makes it inf, or NaN), then the squared deviations from it are added one by
    one in double in memory order, divided by max(0, n - correction), the root taken in double,
    and the result rounded once to the dtype."""
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        m = float(_mean_fwd(x))
        d = x.ravel(order="K").astype(np.float64) - m
        total = np.cumsum(d * d)[-1]  # a running sum: ATen's serial loop
        v = total / max(0.0, x.size - correction)
        if root:
            v = np.sqrt(v)
        out = np.asarray(v).astype(x.dtype)
    return out.reshape((1,) * x.ndim) if keepdim else out


def _var_vjp(
    g: Tensor,
    out: Tensor,
    x: Tensor,
    dim: Any = None,
    correction: float = 1,
    keepdim: bool = False,
    welford: bool = False,
) -> tuple:
    # PyTorch's var_backward, in its order: (2 / dof) * grad, then times (x - mean).
    dims = dims_of(dim, x.ndim)
    centered = x - mean_dims(x, dims)
    dof = count(x.shape, dims) - correction
    if dim is None or x.ndim == 0:
        if dof <= 0:
            # No degrees of freedom over the whole tensor: PyTorch's grad is inf, or NaN
            # where an element equals the mean (inf * 0), whatever the correction's sign.
            at_mean = centered.data == 0
            return (
                unreduce(g, x, dim, keepdim)
                * Tensor(np.where(at_mean, np.nan, np.inf).astype(x.dtype)),
            )
    elif dof == 0:
        # Along a dim: 2 / 0 is +inf, times (x - mean) (so NaN where x equals the mean).
        return (unreduce(g, x, dim, keepdim) * math.inf * centered,)
    return (unreduce(g, x, dim, keepdim) * (2 / dof) * centered,)


_var_samples = tuple(
    Sample(s, q)
    for s, q in (
        (((2, 3),), {"correction": 1}),
        (((2, 3),), {"correction": 0}),
        (((2, 3),), {"dim": 1, "correction": 1}),
        (((2, 3),), {"dim": 0, "correction": 0, "keepdim": True}),
        (((2, 3, 4),), {"dim": (0, 2), "correction": 1}),
        (((4,),), {"dim": 0, "correction": 1}),
        (((2, 3),), {"dim": None, "correction": 1, "keepdim": True}),
        (((3, 4),), {"dim": 1, "correction": 2}),
    )
)


def _var_sym(
    sp: Any,
    x: np.ndarray,
    dim: Any = None,
    correction: float = 1,
    keepdim: bool = False,
    welford: bool = False,
) -> np.ndarray:
    n = count(x.shape, dims_of(dim, x.ndim)) - sp.nsimplify(correction, rational=True)

    def f(v: list) -> Any:
        m = sp.Add(*v) / len(v)
        return sp.Add(*[(e - m) ** 2 for e in v]) / n

    return _sym_reduce(x, dim, keepdim, f)


var = defop(
    "var",
    _var_fwd,
    _var_vjp,
    "VarBackward0",
    "g * 2 (x - mean) / (n - correction)",
    kind="reduction",
    signature="var(x, dim=None, correction=1, keepdim=False)",
    sym=_var_sym,
    samples=_var_samples + (Sample(((),), {"dim": None, "correction": 0}),),
    to_torch=lambda w, a, p: (
        f"torch.var({a[0]}{w.dim(p)}, correction={w.lit(p.get('correction', 1))}, "
        f"keepdim={bool(p.get('keepdim'))})"
    ),
    to_jax=lambda w, a, p: (
        f"jnp.var({a[0]}, axis={w.axis(p)}, ddof={w.lit(p.get('correction', 1))}, {w.keep(p)})"
    ),
)


def _std_vjp(
    g: Tensor,
    out: Tensor,
    x: Tensor,
    dim: Any = None,
    correction: float = 1,
    keepdim: bool = False,
    welford: bool = False,
) -> tuple:
    # PyTorch's std_backward: grad / (2 * std) (0 where std is 0), then var's backward.
    zero = mask_like(out.data == 0, out)
    gv = g / (out * 2 + zero) * (1 - zero)
    return _var_vjp(gv, out, x, dim, correction, keepdim)


std = defop(
    "std",
    lambda x, dim=None, correction=1, keepdim=False, welford=False: _var_fwd(
        x, dim, correction, keepdim, True, welford
    ),
    _std_vjp,
    "StdBackward0",
    "g * (x - mean) / ((n - correction) * out)",
    kind="reduction",
    sym=lambda sp, x, dim=None, correction=1, keepdim=False, welford=False: np.frompyfunc(
        sp.sqrt, 1, 1
    )(_var_sym(sp, x, dim, correction, keepdim)),
    signature="std(x, dim=None, correction=1, keepdim=False)",
    samples=_var_samples,
    to_torch=lambda w, a, p: (
        f"torch.std({a[0]}{w.dim(p)}, correction={w.lit(p.get('correction', 1))}, "
        f"keepdim={bool(p.get('keepdim'))})"
    ),
    to_jax=lambda w, a, p: (
        f"jnp.std({a[0]}, axis={w.axis(p)}, ddof={w.lit(p.get('correction', 1))}, {w.keep(p)})"
    ),
)


# --- the reductions of VJP rules ---------------------------------------------------------------


def sum_dim(t: Tensor, dim: int) -> Tensor:
    """`t.sum(dim=dim, keepdim=True)`."""
    return apply(P.sum, t, dim=dim % max(t.ndim, 1), keepdim=True, label="SumBackward1")


def mean_dims(t: Tensor, dims: tuple[int, ...]) -> Tensor:
    """`t.mean(dim=dims, keepdim=True)`."""
    n = max(t.ndim, 1)
    return apply(mean, t, dim=tuple(d % n for d in dims), keepdim=True, label="MeanBackward1")
