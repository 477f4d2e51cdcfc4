"""Scatter records: `scatter` (src's values written into a copy of x at the places an index
tensor names along one dimension) and `scatter_add` (added there), as PyTorch's
`Tensor.scatter` / `scatter_add`; `index_add`, `index_fill` and `scatter(value=...)` are made
of them in `surface`.

The index is a parameter (an int64 array of x's number of dimensions, checked in range by
`surface` before the record runs), never differentiated. Where it names one place twice,
`scatter` keeps the value written last in the index's row-major order, and `scatter_add`
adds in that order, one addition at a time in the tensor's dtype: PyTorch's CPU kernels do
both the same way (a float32 result is PyTorch's to the bit).

Gradients are PyTorch's (`derivatives.yaml`): for x, `g` where nothing was written
(`scatter`) or `g` (`scatter_add`); for src, `g.gather(dim, index)`. That is src's shape only
when the index is, and PyTorch's engine then refuses the gradient ("returned an invalid
gradient"); so does gradcli, in the same words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.op import Sample, apply, defop
from ..core.tensor import Tensor
from . import binary as B
from . import shape as S


def targets(shape: tuple[int, ...], dim: int, idx: np.ndarray) -> np.ndarray:
    """The flat positions in an array of `shape` that the elements of `idx` name: each
    element's own coordinates, with coordinate `dim` replaced by its value."""
    grids = list(np.indices(idx.shape, sparse=True))
    grids[dim] = idx
    return np.ravel_multi_index(tuple(np.broadcast_arrays(*grids)), shape).reshape(-1)


def _src_part(src: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """The elements of src the index uses: the leading block of the index's shape."""
    if src.shape == idx.shape:
        return src.reshape(-1)
    return src[tuple(slice(0, n) for n in idx.shape)].reshape(-1)


def _scatter_fwd(x: np.ndarray, src: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
    out = x.copy()
    if index.size == 0:
        return out
    pos = targets(x.shape, dim, index)
    vals = _src_part(src, index)
    # The last write to a place wins: keep each place's last occurrence only.
    last = len(pos) - 1 - np.unique(pos[::-1], return_index=True)[1]
    out.reshape(-1)[pos[last]] = vals[last]
    return out


def _scatter_add_fwd(x: np.ndarray, src: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
    out = x.copy()
    if index.size:
        # In order, one addition at a time (np.add.at does not regroup them).
        np.add.at(out.reshape(-1), targets(x.shape, dim, index), _src_part(src, index))
    return out


def written_mask(shape: tuple[int, ...], dim: int, idx: np.ndarray) -> np.ndarray:
    """True where an index element writes."""
    m = np.zeros(int(np.prod(shape)), dtype=bool)
    if idx.size:
        m[targets(shape, dim, idx)] = True
    return m.reshape(shape)


def _gather_g(g: Tensor, out: Tensor, src: Tensor, dim: int, index: np.ndarray, op: str) -> Tensor:
    """`g.gather(dim, index)` (with g's leading batch axes, if any), the gradient of src."""
    if index.shape != src.shape:
        raise GradcliError(
            f"Function {op} returned an invalid gradient at index 1 - got "
            f"{list(index.shape)} but expected shape compatible with {list(src.shape)}",
            hint="PyTorch differentiates src only when the index has src's shape: slice src "
            "to the index's shape first",
        )
    grids = list(np.indices(index.shape, sparse=True))
    grids[dim] = index
    idx = tuple(np.broadcast_arrays(*grids))
    return apply(S.index, g, idx=idx, lead=g.ndim - out.ndim)


def _scatter_vjp(g: Tensor, out: Tensor, x: Tensor, src: Tensor, dim: int, index: np.ndarray):
    gx = None
    if x.requires_grad:
        # g.scatter(dim, index, 0): +0 where something was written.
        written = Tensor(written_mask(x.shape, dim, index))
        gx = apply(B.where, written, Tensor(np.zeros((), dtype=g.dtype)), g)
    gs = _gather_g(g, out, src, dim, index, "ScatterBackward0") if src.requires_grad else None
    return gx, gs


def _scatter_add_vjp(g: Tensor, out: Tensor, x: Tensor, src: Tensor, dim: int, index: np.ndarray):
    gs = _gather_g(g, out, src, dim, index, "ScatterAddBackward0") if src.requires_grad else None
    return (g if x.requires_grad else None), gs


_I = np.array

_SAMPLES = (
    # (x shape, src shape), dim, index (no place named twice: scatter's duplicates lose)
    (((3, 4), (1, 4)), 0, _I([[0, 2, 1, 0]])),
    (((3, 4), (3, 2)), 1, _I([[3, 0], [1, 2], [0, 1]])),
    (((2, 3, 4), (2, 1, 4)), 1, _I([[[2, 0, 1, 1]], [[0, 0, 2, 1]]])),
    (((4,), (2,)), 0, _I([3, 1])),
    (((2, 3), (2, 3)), 1, _I([[2, 1, 0], [0, 2, 1]])),
    (((3,), (0,)), 0, np.zeros((0,), dtype=np.int64)),
)
_ADD_SAMPLES = _SAMPLES + (
    (((3,), (5,)), 0, _I([2, 0, 2, 2, 1])),  # places named several times: added up
    (((2, 3), (2, 4)), 1, _I([[0, 0, 2, 0], [1, 1, 1, 2]])),
)


def _torch_scatter(method: str) -> Callable[..., str]:
    """Export text: `x.scatter(dim, index, src)` / `x.scatter_add(...)`, the index a constant."""

    def text(w: Any, a: list[str], p: dict[str, Any]) -> str:
        idx = np.asarray(p["index"])
        index = (
            f"torch.tensor({w.lit(idx.reshape(-1))}, dtype=torch.int64).reshape({w.lit(idx.shape)})"
        )
        return f"{a[0]}.{method}({int(p['dim'])}, {index}, {a[1]})"

    return text


def _jax_scatter(how: str) -> Callable[..., str]:
    """Export text: `x.at[places].set(src[block])` / `.add(...)`: each index element's own
    coordinates, with coordinate `dim` its value; src's leading block of the index's shape."""

    def text(w: Any, a: list[str], p: dict[str, Any]) -> str:
        idx = np.asarray(p["index"], dtype=np.int64)
        grids = list(np.indices(idx.shape, sparse=True))
        grids[int(p["dim"])] = idx
        places = tuple(np.ascontiguousarray(g) for g in np.broadcast_arrays(*grids))
        block = ", ".join(f":{n}" for n in idx.shape)
        return f"{a[0]}.at[{w.index(places)}].{how}({a[1]}[{block}])"

    return text


scatter = defop(
    "scatter",
    _scatter_fwd,
    _scatter_vjp,
    "ScatterBackward0",
    "g where nothing was written; g.gather(dim, index) for src",
    kind="shape",
    saves=False,
    holds=lambda n: True,  # (PyTorch saves the index)
    signature="scatter(x, dim, index, src), x.scatter_(dim, index, src), index_fill",
    samples=tuple(Sample(s, {"dim": d, "index": i}) for s, d, i in _SAMPLES),
    to_torch=_torch_scatter("scatter"),
    complex="rule",  # (the rule moves g's values, complex ones as they are: zeros stay +0)
    to_jax=_jax_scatter("set"),
)

scatter_add = defop(
    "scatter_add",
    _scatter_add_fwd,
    _scatter_add_vjp,
    "ScatterAddBackward0",
    "g; g.gather(dim, index) for src",
    kind="indexing",
    saves=False,
    holds=lambda n: True,  # (PyTorch saves the index)
    signature="scatter_add(x, dim, index, src), x.index_add_(dim, index, source)",
    samples=tuple(Sample(s, {"dim": d, "index": i}) for s, d, i in _ADD_SAMPLES),
    to_torch=_torch_scatter("scatter_add"),
    complex="rule",  # (the rule moves g's values, complex ones as they are: zeros stay +0)
    to_jax=_jax_scatter("add"),
)


# --- scatter_reduce ----------------------------------------------------------------------------
#
# `x.scatter_reduce(dim, index, src, reduce, include_self=True)`: each place the index names
# gets src's values combined with ("sum", "prod", "mean", "amax", "amin") x's own value there
# (or not, include_self=False: the place starts from the reduction's identity). One element at
# a time in the index's row-major order, in the tensor's dtype, as PyTorch's CPU kernel: a
# float32 result is PyTorch's to the bit. "mean" divides each place's sum by how many values
# it took (rounding down for integers, as PyTorch).
#
# Gradients are PyTorch's (`scatter_reduce_backward`), including its choices where the
# function has no derivative: for "prod", a zero in x or a single zero in src among a place's
# values gets the product of the others (two zeros: 0); for "amax"/"amin", the gradient is
# split evenly among all the values equal to the result (x's own counted even when
# include_self=False, as PyTorch does); x's gradient is 0 where something was written when
# include_self=False.

_REDUCE_UFUNC = {
    "sum": np.add,
    "mean": np.add,
    "prod": np.multiply,
    "amax": np.maximum,
    "amin": np.minimum,
}


def _identity(reduce: str, dtype: np.dtype) -> Any:
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype.kind == "f":
        return -np.inf if reduce == "amax" else np.inf
    if dtype.kind == "b":
        return reduce != "amax"
    info = np.iinfo(dtype)
    return info.min if reduce == "amax" else info.max


def _reduce_fwd(
    x: np.ndarray, src: np.ndarray, dim: int, index: np.ndarray, reduce: str, include_self: bool
) -> np.ndarray:
    out = x.copy()
    if index.size == 0:
        return out
    pos = targets(x.shape, dim, index)
    vals = _src_part(src, index)
    flat = out.reshape(-1)
    if not include_self:
        flat[pos] = _identity(reduce, out.dtype)
    # ufunc.at: one element at a time, in order (nan propagates through amax / amin).
    _REDUCE_UFUNC[reduce].at(flat, pos, vals)
    if reduce == "mean":
        count = np.bincount(pos, minlength=flat.size)
        hit = count > 0
        n = count[hit] + (1 if include_self else 0)
        if out.dtype.kind in "fc":
            flat[hit] = flat[hit] / n.astype(out.dtype)
        else:
            flat[hit] = np.floor_divide(flat[hit], n.astype(out.dtype))
    return out


def _counted(shape: tuple[int, ...], pos: np.ndarray, weights: np.ndarray, dtype: Any) -> Any:
    """An array of `shape` with each weight added at its place (a scatter_add into zeros)."""
    n = np.zeros(int(np.prod(shape)), dtype=dtype)
    np.add.at(n, pos, weights.reshape(-1).astype(dtype))
    return n.reshape(shape)


def _reduce_vjp(
    g: Tensor,
    out: Tensor,
    x: Tensor,
    src: Tensor,
    dim: int,
    index: np.ndarray,
    reduce: str,
    include_self: bool,
):
    name = "ScatterReduceBackward0"
    dt = g.dtype
    zero = Tensor(np.zeros((), dtype=dt))
    one = Tensor(np.ones((), dtype=dt))
    if src.requires_grad:
        _gather_g(g, out, src, dim, index, name)  # PyTorch's shape check, before the work
    pos = targets(x.shape, dim, index) if index.size else np.zeros(0, dtype=np.int64)
    written = Tensor(written_mask(x.shape, dim, index))

    def gather(t: Tensor) -> Tensor:
        return _gather_g(t, out, src, dim, index, name)

    def self_part(t: Tensor) -> Tensor:
        # grad_self.scatter(dim, index, 0) when x's values took no part
        return t if include_self else apply(B.where, written, zero, t)

    gx = gs = None
    if reduce == "sum":
        gx = self_part(g) if x.requires_grad else None
        gs = gather(g) if src.requires_grad else None
    elif reduce == "mean":
        n = _counted(x.shape, pos, np.ones(index.shape), dt) + (1 if include_self else 0)
        n[n == 0] = 1
        gn = apply(B.div, g, Tensor(n))
        gx = self_part(gn) if x.requires_grad else None
        gs = gather(gn) if src.requires_grad else None
    elif reduce == "prod":
        params = {"dim": dim, "index": index, "reduce": reduce, "include_self": include_self}
        if x.requires_grad:
            masked_x = apply(B.where, Tensor(x.data == 0), one, x)
            masked_result = apply(scatter_reduce, masked_x, src, **params)
            gx = self_part(apply(B.div, apply(B.mul, g, masked_result), masked_x))
        if src.requires_grad:
            src_zero = src.data == 0
            zeros_at = _counted(x.shape, pos, src_zero, np.int64).reshape(-1)[pos]
            single = Tensor(src_zero & (zeros_at.reshape(index.shape) == 1))
            masked_src = apply(B.where, single, one, src)
            masked_result = apply(scatter_reduce, x, masked_src, **params)
            other = apply(
                B.div,
                gather(apply(B.mul, g, out)),
                apply(B.where, Tensor(src_zero), one, src),
            )
            gs = apply(B.where, single, gather(apply(B.mul, g, masked_result)), other)
    else:  # amax, amin
        value = out.data.reshape(-1)[pos].reshape(index.shape)
        self_is = (x.data == out.data).astype(dt)
        src_is = (_src_part(src.data, index).reshape(index.shape) == value).astype(dt)
        n = self_is.reshape(-1).copy()
        np.add.at(n, pos, src_is.reshape(-1))
        share = apply(B.div, g, Tensor(n.reshape(x.shape)))
        gx = self_part(apply(B.mul, Tensor(self_is), share)) if x.requires_grad else None
        gs = apply(B.mul, Tensor(src_is), gather(share)) if src.requires_grad else None
    return gx, gs


def _reduce_sym(
    sp: Any, x: Any, src: Any, dim: int, index: np.ndarray, reduce: str, include_self: bool
) -> np.ndarray:
    """The sympy form, on object arrays: each place's values reduced in the index's order."""
    out = np.array(x, dtype=object)
    if index.size == 0:
        return out
    vals = _src_part(np.asarray(src, dtype=object), index)
    flat = out.reshape(-1)
    places: dict[int, list] = {}
    for p, v in zip(targets(out.shape, dim, index).tolist(), vals):
        places.setdefault(p, [flat[p]] if include_self else []).append(v)
    for p, items in places.items():
        if reduce in ("amax", "amin"):
            flat[p] = (sp.Max if reduce == "amax" else sp.Min)(*items)
            continue
        r = items[0]
        for v in items[1:]:
            r = r * v if reduce == "prod" else r + v
        flat[p] = r / len(items) if reduce == "mean" else r
    return out


_REDUCE_SAMPLES = (
    # (x shape, src shape), dim, index: places named several times, one not named at all
    (((3,), (5,)), 0, _I([2, 0, 2, 2, 1])),
    (((4,), (5,)), 0, _I([2, 0, 2, 2, 1])),
    (((2, 3), (2, 4)), 1, _I([[0, 0, 2, 0], [1, 1, 1, 2]])),
    (((3, 2), (4, 2)), 0, _I([[0, 2], [2, 2], [0, 0], [2, 1]])),
    (((3,), (0,)), 0, np.zeros((0,), dtype=np.int64)),
)


def _reduce_samples() -> tuple[Sample, ...]:
    out = []
    for reduce in ("sum", "prod", "mean", "amax", "amin"):
        for include_self in (True, False):
            for k, (s, d, i) in enumerate(_REDUCE_SAMPLES):
                if reduce != "sum" and k == 4:
                    continue
                p = {"dim": d, "index": i, "reduce": reduce, "include_self": include_self}
                ties = reduce in ("amax", "amin")
                out.append(Sample(s, p, distinct=ties, low=0.3 if reduce == "prod" else -2.0))
    return tuple(out)


def _torch_scatter_reduce(w: Any, a: list[str], p: dict[str, Any]) -> str:
    idx = np.asarray(p["index"])
    index = f"torch.tensor({w.lit(idx.reshape(-1))}, dtype=torch.int64).reshape({w.lit(idx.shape)})"
    return (
        f"{a[0]}.scatter_reduce({int(p['dim'])}, {index}, {a[1]}, {p['reduce']!r}, "
        f"include_self={bool(p['include_self'])})"
    )


_JAX_AT = {"sum": "add", "mean": "add", "prod": "multiply", "amax": "max", "amin": "min"}
_JAX_START = {"sum": "0", "mean": "0", "prod": "1", "amax": "-jnp.inf", "amin": "jnp.inf"}


def _jax_scatter_reduce(w: Any, a: list[str], p: dict[str, Any]) -> str:
    """Export text: `x.at[places].set(start)` (include_self=False), then `.add` / `.multiply`
    / `.max` / `.min` of src's block; a mean divides by each place's count (at least 1)."""
    idx = np.asarray(p["index"], dtype=np.int64)
    grids = list(np.indices(idx.shape, sparse=True))
    grids[int(p["dim"])] = idx
    places = w.index(tuple(np.ascontiguousarray(g) for g in np.broadcast_arrays(*grids)))
    block = ", ".join(f":{n}" for n in idx.shape)
    reduce, keep = p["reduce"], bool(p.get("include_self", True))
    start = "" if keep else f".at[{places}].set({_JAX_START[reduce]})"
    text = f"{a[0]}{start}.at[{places}].{_JAX_AT[reduce]}({a[1]}[{block}])"
    if reduce != "mean":
        return text
    count = f"jnp.zeros({a[0]}.shape).at[{places}].add(1.0)" + (" + 1" if keep else "")
    return f"({text} / jnp.maximum({count}, 1))"


scatter_reduce = defop(
    "scatter_reduce",
    _reduce_fwd,
    _reduce_vjp,
    "ScatterReduceBackward0",
    "sum: g, g.gather; mean: g / count; prod: g * result / x (zeros apart); "
    "amax/amin: g split evenly among the values equal to the result",
    kind="indexing",
    saves=True,
    signature="scatter_reduce(x, dim, index, src, reduce, include_self=True), index_reduce",
    samples=_reduce_samples(),
    sym=_reduce_sym,
    to_torch=_torch_scatter_reduce,
    to_jax=_jax_scatter_reduce,
)


def _legacy_vjp(g: Tensor, out: Tensor, *inputs: Tensor, **params: Any) -> tuple:
    raise GradcliError(
        "derivative for aten::scatter is not implemented",
        hint="x.scatter_reduce(dim, index, src, 'sum' or 'prod') has a derivative",
    )


# `x.scatter(dim, index, src, reduce="add" | "multiply")`: scatter_reduce's values with x's own
# ("sum" / "prod"); PyTorch gives it no derivative (grad_fn NotImplemented).
scatter_legacy = defop(
    "scatter_legacy",
    lambda x, src, dim, index, reduce: _reduce_fwd(x, src, dim, index, reduce, True),
    _legacy_vjp,
    "torch::autograd::NotImplemented",
    "not differentiable (as in PyTorch)",
    kind="indexing",
    saves=False,
    signature="x.scatter(dim, index, src, reduce='add' | 'multiply')",
    samples=tuple(
        Sample(
            ((4,), (5,)),
            {"dim": 0, "index": _I([2, 0, 2, 2, 1]), "reduce": r},
            fixed={0: np.array([1.5, -2.0, 0.5, 3.0]), 1: np.array([2.0, -1.0, 0.5, 4.0, 0.0])},
            hessian=False,
        )
        for r in ("sum", "prod")
    ),
    to_torch=lambda w, a, p: (
        _torch_scatter("scatter")(w, a, p).removesuffix(")")
        + f", reduce={'add' if p['reduce'] == 'sum' else 'multiply'!r})"
    ),
    to_jax=_jax_scatter_reduce,
)


# --- select_scatter, slice_scatter, diagonal_scatter ---------------------------------------------
# `src` written into a copy of `x` at one view of it: `x.select(dim, i)`, a slice along dim, or a
# diagonal. The place is `idx`, an index that starts with `...` (so that a gradient's leading
# batch axes pass through), applied to x itself or, for a diagonal, to x with the diagonal's
# two dims moved last (`move`, negative dims). PyTorch's rules: g with the place zeroed for x,
# g at the place for src.


def _place(a: np.ndarray, move: tuple[int, int] | None) -> np.ndarray:
    return a if move is None else np.moveaxis(a, move, (-2, -1))


def _view_scatter_fwd(x: np.ndarray, src: np.ndarray, idx: tuple, move: Any) -> np.ndarray:
    out = np.array(x, copy=True)
    _place(out, move)[idx] = src
    return out


def _view_scatter_text(w: Any, a: Any, p: dict, to: str) -> str:
    """x with src written at the place, as an expression: PyTorch's item assignment into a
    clone (through the moved view for a diagonal), JAX's `.at[...].set`."""
    idx, move = w.index(p["idx"]), p["move"]
    if to == "jax":
        if move is None:
            return f"{a[0]}.at[{idx}].set({a[1]})"
        d = f"({move[0]}, {move[1]})"
        inner = f"jnp.moveaxis({a[0]}, {d}, (-2, -1)).at[{idx}].set({a[1]})"
        return f"jnp.moveaxis({inner}, (-2, -1), {d})"
    place = "t" if move is None else f"t.movedim(({move[0]}, {move[1]}), (-2, -1))"
    # (a call's argument cannot hold `:`: the slices as slice objects)
    items = ", ".join(
        "..."
        if k is Ellipsis
        else f"slice({k.start!r}, {k.stop!r}, {k.step!r})"
        if isinstance(k, slice)
        else f"torch.tensor({np.asarray(k).tolist()!r})"
        if isinstance(k, np.ndarray)
        else repr(int(k))
        for k in p["idx"]
    )
    return f"(lambda t, s: ({place}.__setitem__(({items},), s), t)[1])({a[0]}.clone(), {a[1]})"


def _view_scatter_vjp(
    g: Tensor, out: Tensor, x: Tensor, src: Tensor, idx: tuple, move: Any
) -> tuple:
    gx = gs = None
    if x.requires_grad:
        zero = Tensor(np.zeros((), dtype=g.dtype))
        gx = apply(view_scatter, g, zero, idx=idx, move=move)
    if src.requires_grad:
        moved = g
        if move is not None:
            n = g.ndim
            d1, d2 = move[0] % n, move[1] % n
            perm = tuple(i for i in range(n) if i not in (d1, d2)) + (d1, d2)
            moved = apply(S.permute, g, perm=perm)
        gs = apply(S.index, moved, idx=idx)
    return gx, gs


def _diagonal_place(shape: tuple[int, ...], offset: int, d1: int, d2: int) -> tuple:
    """The index of the diagonal `offset` of dims d1, d2 (moved last) of an array of `shape`."""
    n1, n2 = shape[d1], shape[d2]
    n = max(0, min(n1, n2 - offset)) if offset >= 0 else max(0, min(n1 + offset, n2))
    rows = np.arange(n) + max(0, -offset)
    cols = np.arange(n) + max(0, offset)
    return (Ellipsis, rows, cols)


view_scatter = defop(
    "view_scatter",
    _view_scatter_fwd,
    _view_scatter_vjp,
    "SelectScatterBackward0",
    "g with the place zeroed; g at the place for src",
    kind="shape",
    saves=False,
    to_torch=lambda w, a, p: _view_scatter_text(w, a, p, "torch"),
    to_jax=lambda w, a, p: _view_scatter_text(w, a, p, "jax"),
    signature="select_scatter(x, src, dim, index), slice_scatter(x, src, dim, start, end, "
    "step), diagonal_scatter(x, src, offset, dim1, dim2)",
    samples=(
        Sample(((3, 4), (4,)), {"idx": (Ellipsis, 1, slice(None)), "move": None}),
        Sample(((2, 3, 4), (2, 4)), {"idx": (Ellipsis, 2, slice(None)), "move": None}),
        Sample(((3, 4), (3, 2)), {"idx": (Ellipsis, slice(0, 4, 2)), "move": None}),
        Sample(((3, 4), (1, 4)), {"idx": (Ellipsis, slice(2, None), slice(None)), "move": None}),
        Sample(((3, 3), (3,)), {"idx": _diagonal_place((3, 3), 0, 0, 1), "move": (-2, -1)}),
        Sample(((3, 4), (3,)), {"idx": _diagonal_place((3, 4), 1, 0, 1), "move": (-2, -1)}),
        Sample(((2, 3, 3), (2, 3)), {"idx": _diagonal_place((2, 3, 3), 0, 1, 2), "move": (-2, -1)}),
        Sample(
            ((4, 2, 3), (2, 3)), {"idx": _diagonal_place((4, 2, 3), -1, 0, 2), "move": (-3, -1)}
        ),
    ),
)


# --- as_strided_scatter ---------------------------------------------------------------------------
# src written into a copy of x at strided places (an index of x: one integer array an axis,
# after `...`). PyTorch 2.13's gradient for x (as_strided_scatter_backward) is not the
# derivative: it copies g at the places and leaves zeros elsewhere, where the derivative is g
# with the places zeroed. gradcli gives PyTorch's values (tests/ops/test_ops.py's
# BEYOND_DERIVATIVE says what the rule adds); src's gradient is g at the places.


def _strided_scatter_vjp(g: Tensor, out: Tensor, x: Tensor, src: Tensor, idx: tuple) -> tuple:
    gx = gs = None
    at_places = apply(S.index, g, idx=idx) if (x.requires_grad or src.requires_grad) else None
    if x.requires_grad:
        zeros = Tensor(np.zeros(g.shape, dtype=g.dtype))
        gx = apply(as_strided_scatter, zeros, at_places, idx=idx)
    if src.requires_grad:
        gs = at_places
    return gx, gs


def _strided_scatter_jvp(dots: tuple, out: Tensor, x: Tensor, src: Tensor, idx: tuple) -> Any:
    # (PyTorch's forward mode is the derivative: the tangents scattered as the values)
    dx, ds = dots
    if dx is None and ds is None:
        return None
    lead = (dx if dx is not None else ds).ndim - (x.ndim if dx is not None else src.ndim)
    if dx is None:
        dx = Tensor(np.zeros(ds.shape[:lead] + x.shape, dtype=ds.dtype))
    if ds is None:
        ds = Tensor(np.zeros(dx.shape[:lead] + src.shape, dtype=dx.dtype))
    return apply(view_scatter, dx, ds, idx=idx, move=None)


as_strided_scatter = defop(
    "as_strided_scatter",
    lambda x, src, idx: _view_scatter_fwd(x, src, idx, None),
    _strided_scatter_vjp,
    "AsStridedScatterBackward0",
    "PyTorch's: g at the places (zeros elsewhere) for x; g at the places for src",
    jvp=_strided_scatter_jvp,
    kind="shape",
    saves=False,
    to_torch=lambda w, a, p: _view_scatter_text(w, a, {"idx": p["idx"], "move": None}, "torch"),
    to_jax=lambda w, a, p: _view_scatter_text(w, a, {"idx": p["idx"], "move": None}, "jax"),
    signature="as_strided_scatter(x, src, size, stride, storage_offset)",
    samples=(
        Sample(
            ((3, 3), (2, 2)),
            # (as_strided_scatter(x, src, (2, 2), (3, 1), 1) of a 3x3 x)
            {"idx": (Ellipsis, np.array([[0, 0], [1, 1]]), np.array([[1, 2], [1, 2]]))},
        ),
        Sample(((6,), (2,)), {"idx": (Ellipsis, np.array([1, 3]))}),
    ),
)
