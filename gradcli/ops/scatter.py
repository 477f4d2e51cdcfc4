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
    signature="scatter(x, dim, index, src), x.scatter_(dim, index, src), index_fill",
    samples=tuple(Sample(s, {"dim": d, "index": i}) for s, d, i in _SAMPLES),
    to_torch=_torch_scatter("scatter"),
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
    signature="scatter_add(x, dim, index, src), x.index_add_(dim, index, source)",
    samples=tuple(Sample(s, {"dim": d, "index": i}) for s, d, i in _ADD_SAMPLES),
    to_torch=_torch_scatter("scatter_add"),
    to_jax=_jax_scatter("add"),
)
