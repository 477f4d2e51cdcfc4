"""Shape records: reshape, permute, expand, index (and its transpose, index_put), cat, stack,
astype; and the shape functions VJP rules call, with PyTorch's grad_fn names (so that a
recorded gradient graph is named as PyTorch names it).
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core import primitives as P
from ..core import saved as V
from ..core.layout import like
from ..core.op import Sample, apply, complex_grad_of_real, defop, register
from ..core.primitives import from_end
from ..core.tensor import Tensor, _GradMode, wrap

reshape = register(P.reshape)

clone = defop(
    "clone",
    lambda x: np.reshape(x, x.shape),  # (a view: torch.clone's surface makes the copy, laid
    # out as the memory_format says)
    lambda g, out, x: (g,),  # PyTorch's CloneBackward0 hands on the gradient itself
    "CloneBackward0",
    "g",
    kind="shape",
    saves=False,
    signature="clone(x)",
    samples=(Sample(((2, 3),), {}), Sample(((),), {})),
    to_torch=lambda w, a, p: f"{a[0]}.clone()",
    to_jax=lambda w, a, p: f"jnp.array({a[0]})",
    complex="holo",
    jvp_terms=((0, ()),),  # (auto_linear: the tangent cloned)
)


def _set_vjp(g: Tensor, out: Tensor, x: Tensor, source: Tensor) -> tuple:
    raise GradcliError(
        "derivative for set_ is not implemented",
        hint="x.copy_(source) is differentiable; or call set_ under torch.no_grad()",
    )


# `x.set_(source)` with gradients recorded: x takes source's memory and shape (the surface
# shares the array); PyTorch gives the result no derivative (grad_fn NotImplemented), so a
# backward through it fails in PyTorch's words, and one through a node that saved x's old
# value fails on x's version.
set_source = defop(
    "set_source",
    lambda x, source: source,
    _set_vjp,
    "torch::autograd::NotImplemented",
    "not differentiable (as in PyTorch)",
    kind="internal",  # (reached only in place, as index_put: `gradcli ops` lists no name)
    saves=False,
    signature="x.set_(source)",
    samples=(
        Sample(
            ((2,), (3,)),
            fixed={0: np.array([1.5, -2.0]), 1: np.array([0.5, 3.0, -1.0])},
            hessian=False,
        ),
    ),
    to_torch=lambda w, a, p: f"{a[0]}.clone().set_({a[1]})",
    to_jax=lambda w, a, p: f"jnp.array({a[1]})",
)


def _perm_fwd(x: np.ndarray, perm: tuple[int, ...]) -> np.ndarray:
    lead = x.ndim - len(perm)
    return np.transpose(x, tuple(range(lead)) + tuple(lead + p for p in perm))


def _permute_vjp(g: Tensor, out: Tensor, perm: tuple) -> Tensor:
    # PyTorch's TBackward0 and TransposeBackward0 compute g.t() / g.transpose(d0, d1): their
    # gradients (seen under create_graph, or as torch.func.grad's results) carry those names
    inverse = tuple(sorted(range(len(perm)), key=lambda i: perm[i]))  # (argsort, no NumPy call)
    if type(g) is Tensor and not _GradMode.enabled and not _GradMode.dual:
        # a pass that records nothing: the inverse permutation's view of the array (what the
        # op computes), without its dispatch
        return wrap(_perm_fwd(g.data, inverse))
    node = getattr(out, "node", None)
    name = node.name() if node is not None else None
    if name in ("TBackward0", "TransposeBackward0"):
        return apply(permute, g, perm=inverse, label=name)
    return apply(permute, g, perm=inverse)


permute = defop(
    "permute",
    _perm_fwd,
    lambda g, out, x, perm: (_permute_vjp(g, out, perm),),
    "PermuteBackward0",
    "g with the inverse permutation",
    kind="shape",
    saves=False,
    # (`_saved_dims`; a transpose shown as TransposeBackward0 / TBackward0 saves others)
    saved=lambda n: (
        V.saves(dims=V.const(tuple(int(i) for i in n.params["perm"])))
        if n.name() == "PermuteBackward0"
        else None
    ),
    signature="permute(x, dims), transpose(x, d0, d1), t(x), x.T, x.mT",
    samples=tuple(
        Sample((a,), {"perm": b})
        for a, b in (
            ((2, 3), (1, 0)),
            ((2, 3, 4), (2, 0, 1)),
            ((2, 3, 4), (0, 2, 1)),
            ((4,), (0,)),
            ((), ()),
        )
    ),
    to_torch=lambda w, a, p: f"{a[0]}.permute({w.lit(tuple(int(i) for i in p['perm']))})",
    to_jax=lambda w, a, p: f"jnp.transpose({a[0]}, {w.lit(tuple(int(i) for i in p['perm']))})",
    complex="holo",
)


expand = register(P.expand)


def _index_fwd(x: np.ndarray, idx: tuple, lead: int = 0, pad: Any = None) -> np.ndarray:
    if lead and _has_array(idx):
        # NumPy puts the axes of index arrays that are not adjacent in front of all others,
        # the `lead` batch axes included: index with the batch axes last, then move them back.
        r = np.moveaxis(x, range(lead), range(-lead, 0))[_no_ellipsis(idx, x.ndim - lead)]
        return np.moveaxis(r, range(r.ndim - lead, r.ndim), range(lead))
    full = (slice(None),) * lead + idx
    r = x[full]
    if (
        type(r) is np.ndarray
        and not lead
        and _has_array(idx)
        and (x.ndim <= 2 or x.flags.c_contiguous)
    ):
        # A copy: NumPy may lay it out as the index walks (x[:, [0, 2]] column by column);
        # PyTorch's is row-major (so x[:, i].view(-1) works), for any layout of a matrix
        r = np.asarray(r, order="C")  # (ascontiguousarray would make a 0-d result 1-d)
    if not isinstance(r, np.ndarray) and not any(i is Ellipsis for i in full):
        # All integers: NumPy gives a scalar, a copy; with `...` it gives a 0-d view, as
        # PyTorch's x[0] is (changing it in place changes x).
        r = x[full + (Ellipsis,)]
    return r


def _no_ellipsis(idx: tuple, ndim: int) -> tuple:
    """`idx` with its Ellipsis replaced by the full slices it stands for on `ndim` axes."""
    k = next((k for k, i in enumerate(idx) if i is Ellipsis), None)
    if k is None:
        return idx
    used = sum(
        0
        if i is None or i is Ellipsis
        else i.ndim
        if isinstance(i, np.ndarray) and i.dtype == bool
        else 1
        for i in idx
    )
    return idx[:k] + (slice(None),) * (ndim - used) + idx[k + 1 :]


def _index_vjp(
    g: Tensor, out: Tensor, x: Tensor, idx: tuple, lead: int = 0, pad: Any = None
) -> tuple:
    if pad is not None:
        # An embedding's padding (`pad`: a boolean mask of the looked-up rows, out's shape
        # without the batch axes): no gradient flows back to them, as PyTorch's
        # EmbeddingBackward0 skips them (+0, not g * 0). Only the reverse rule masks: the
        # forward-mode tangent is the plain lookup of the weight's, as PyTorch's.
        from .binary import where

        keep = Tensor(np.broadcast_to(pad, g.shape[g.ndim - pad.ndim :]) == 0)
        g = apply(where, keep, g, Tensor(np.zeros((), dtype=g.dtype)))
    return (
        apply(
            index_put,
            g,
            idx=idx,
            shape=x.shape[lead:],
            out_ndim=out.ndim - lead,
            label=_grad_name(out, idx),
        ),
    )


# The node PyTorch records for the gradient of a selection that gradcli computes by indexing
# (seen when the gradient is differentiated again: `x.grad.grad_fn` after
# `backward(create_graph=True)`): its backward formula's op, by the selection's node (those
# whose gradient has the selection's shape; max(dim) and the others that drop the dim unsqueeze
# the gradient first, and keep the indexing's name).
_SELECTION_GRADS = {
    "GatherBackward0": "ScatterAddBackward0",
    "SortBackward0": "ScatterBackward0",
    "TopkBackward0": "ScatterBackward0",
    "IndexSelectBackward0": "IndexAddBackward0",
    "MaskedSelectBackward0": "MaskedScatterBackward0",
    "FlipBackward0": "FlipBackward0",
    "RollBackward0": "RollBackward0",
    "CummaxBackward0": "ScatterAddBackward0",
    "CumminBackward0": "ScatterAddBackward0",
    "KthvalueBackward0": "ScatterBackward0",
    "ModeBackward0": "ScatterBackward0",
    "MedianBackward1": "ScatterBackward0",
    "NanmedianBackward1": "ScatterBackward0",
}


def _grad_name(out: Tensor, idx: tuple) -> str | None:
    n = out.node
    if n is not None and n.op is index and n.label in _SELECTION_GRADS:
        return _SELECTION_GRADS[n.label]
    return _index_grad_name(idx)


def _index_jvp(
    dots: tuple, out: Tensor, x: Tensor, idx: tuple, lead: int = 0, pad: Any = None
) -> Tensor | None:
    # The tangent indexed as the value (an embedding's padding rows included, as PyTorch's
    # forward AD looks them up); extra leading axes of a batched tangent are batch axes.
    d = dots[0]
    if d is None:
        return None
    return apply(index, d, idx=idx, lead=lead + d.ndim - x.ndim)


def _index_grad_name(idx: tuple) -> str | None:
    """PyTorch's grad_fn of an indexing's gradient (seen when it is differentiated again):
    PyTorch applies the basic parts of an index first, in order, and the tensor indices last,
    so the backward ends with the first basic part's: x[:, 1:] and x[0, 1:] are
    SliceBackwardBackward0 and SelectBackwardBackward0, x[[0, 2]] IndexPutImplBackward0."""
    advanced = False
    for c in idx:
        if c is None or c is Ellipsis:
            continue
        if isinstance(c, slice):
            if c != slice(None):
                return "SliceBackwardBackward0"
        elif isinstance(c, (int, np.integer)):
            return "SelectBackwardBackward0"
        else:
            advanced = True
    return "IndexPutImplBackward0" if advanced else None


_INDEX_CASES = (
    ((2, 3, 4), (0,)),
    ((2, 3, 4), (slice(None), slice(1, 3))),
    ((2, 3, 4), (Ellipsis, 0)),
    ((2, 3), (None, 1)),
    ((2, 3), (1, 2)),
    ((5,), (slice(None, None, 2),)),
    ((3, 4), (np.array([0, 2, 0]),)),
    ((3, 4), (np.array([True, False, True]),)),
    ((3, 4), (np.array([[0, 1], [2, 0]]), np.array([3, 3]))),
    ((2, 3, 4), (0, slice(None), np.array([1, 2, 1]))),
    ((2, 3, 4), (np.array([0, 1]), slice(None), np.array([3, 0]))),
    ((2, 3, 4), (slice(None), np.array([2, 0]), np.array([1, 1]))),
    ((2, 3), (np.array(True),)),
    ((), (None,)),
    ((2, 3, 4), (Ellipsis, np.array([0, 2]))),
    ((2, 3, 4), (np.array([1, 0]), Ellipsis, 0)),
)

# The pieces of split / chunk / split_with_sizes (index nodes labelled SplitBackward0,
# SplitWithSizesBackward0): node -> the split_size asked for, or the tuple of sizes. Set by
# `surface.composite`.
PIECE_SIZES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _index_saved(n: Any) -> Any:
    """What PyTorch's node of split's, split_with_sizes' and unbind's pieces saves (one
    node for them all: `_saved_dim`, `_saved_self_sym_sizes`, `_saved_split_size(s)`); the
    pieces are index records whose key is whole slices then the piece's index or slice in
    dimension `dim`. Other nodes an index records: none declared here."""
    name = n.name()
    if name in ("SliceBackward0", "SelectBackward0"):
        return _slice_saved(n, name)
    if name not in _PIECES_SAVED:
        return None
    dim = V.const(len(n.params["idx"]) - 1)
    if name == "UnbindBackward0":
        return V.saves(dim=dim)
    size = PIECE_SIZES.get(n)
    if size is None:
        return None
    key = "split_size" if name == "SplitBackward0" else "split_sizes"
    return V.saves(dim=dim, self_sym_sizes=V.sizes(0), **{key: V.const(size)})


def _plain_entry(k: Any) -> bool:
    """An int, `...`, or a slice of ints (a key entry whose node PyTorch's slicing names)."""
    if type(k) is slice:
        return all(type(v) in (int, type(None)) for v in (k.start, k.stop, k.step))
    return type(k) is int or k is Ellipsis


def _as_shown(v: int) -> int:
    """A saved int as PyTorch's node shows it: a negative one read back as unsigned 64 bits
    (`x[-3:]` shows `_saved_start` 18446744073709551613)."""
    return v + 2**64 if v < 0 else v


def _slice_saved(n: Any, name: str) -> Any:
    """`_saved_*` of the node of `x[key]` for a key of ints and slices (and one `...`):
    PyTorch slices or selects one dim at a time, left to right (a whole `:` does nothing), so
    the node shown is the last entry's, over the shape the entries before it left. Other keys:
    none declared."""
    idx = n.params["idx"]
    if "lead" in n.params or not all(_plain_entry(k) for k in idx):
        return None
    dots = [i for i, k in enumerate(idx) if k is Ellipsis]
    if len(dots) > 1:
        return None
    if dots:
        fill = (slice(None),) * (n.inputs[0].ndim - len(idx) + 1)
        idx = idx[: dots[0]] + fill + idx[dots[0] + 1 :]
    last = max((i for i, k in enumerate(idx) if k != slice(None)), default=None)
    if last is None or (type(idx[last]) is int) != (name == "SelectBackward0"):
        return None
    before = np.broadcast_to(np.empty((), dtype=np.int8), n.inputs[0].shape)[idx[:last]].shape
    dim = last - sum(type(k) is int for k in idx[:last])
    k = idx[last]
    if name == "SelectBackward0":
        return V.saves(
            dim=V.const(dim), index=V.const(_as_shown(k)), self_sym_sizes=V.const(before)
        )
    return V.saves(
        dim=V.const(dim),
        end=V.const(2**63 - 1 if k.stop is None else _as_shown(k.stop)),
        self_sym_sizes=V.const(before),
        start=V.const(0 if k.start is None else _as_shown(k.start)),
        step=V.const(1 if k.step is None else k.step),
    )


_PIECES_SAVED = frozenset(("SplitBackward0", "SplitWithSizesBackward0", "UnbindBackward0"))

index = defop(
    "index",
    _index_fwd,
    _index_vjp,
    "IndexBackward0",
    "g scattered (added) back into zeros of x's shape",
    kind="shape",
    jvp=_index_jvp,
    saves=False,
    saved=_index_saved,
    holds=lambda n: _has_array(n.params["idx"]) and n.name() in HOLDING,
    signature="x[i], x[i, j], x[:, 1:3], x[..., 0], x[None], x[index_tensor]",
    samples=tuple(Sample((a,), {"idx": b}) for a, b in _INDEX_CASES)
    + (
        Sample(((2, 3, 4),), {"idx": (1,), "lead": 1}),
        Sample(((2, 3, 4),), {"idx": (np.array([2, 0, 2]), slice(1, 3)), "lead": 1}),
        Sample(((2, 3, 4),), {"idx": (np.array([2, 0]), Ellipsis, 1), "lead": 1}),
    ),
    to_torch=lambda w, a, p: f"{a[0]}[{w.index(p['idx'])}]",
    to_jax=lambda w, a, p: f"{a[0]}[{w.index(p['idx'])}]",
    complex="holo",
    jvp_terms=((0, ()),),  # (auto_linear: the tangent indexed)
)


# The nodes of an index (or index_put) by an index tensor or mask whose PyTorch counterparts
# save the index tensors (freed by a backward: a second one through them fails). The other
# names an index by arrays gives its nodes are PyTorch nodes that keep no index: FlipBackward0,
# RollBackward0, a diagonal's...
HOLDING = frozenset(
    (
        "IndexBackward0",
        "IndexPutBackward0",
        "IndexSelectBackward0",
        "GatherBackward0",
        "TakeBackward0",
        "TakeAlongDimBackward0",
        "MaskedSelectBackward0",
        "EmbeddingBackward0",
        "SortBackward0",
        "TopkBackward0",
        "KthvalueBackward0",
        "MedianBackward1",
        "NanmedianBackward1",
        "ModeBackward0",
        "MaxBackward0",
        "MinBackward0",
        "CummaxBackward0",
        "CumminBackward0",
        "ReflectionPad1DBackward0",
        "ReflectionPad2DBackward0",
        "ReflectionPad3DBackward0",
        "ReplicationPad1DBackward0",
        "ReplicationPad2DBackward0",
        "ReplicationPad3DBackward0",
    )
)


def _has_array(idx: tuple) -> bool:
    return any(isinstance(i, np.ndarray) for i in idx)


def _index_put_fwd(g: np.ndarray, idx: tuple, shape: tuple, out_ndim: int) -> np.ndarray:
    lead = g.ndim - out_ndim
    z = np.zeros(g.shape[:lead] + tuple(shape), dtype=g.dtype)
    full = (slice(None),) * lead + idx
    if _has_array(idx) and lead:
        # As in `_index_fwd`: the batch axes last (views of z and g), so none move.
        back = range(-lead, 0)
        np.add.at(
            np.moveaxis(z, range(lead), back),
            _no_ellipsis(idx, len(shape)),
            np.moveaxis(g, range(lead), back),
        )
    elif _has_array(idx):
        np.add.at(z, full, g)
    else:
        z[full] = g
    return z


index_put = defop(
    "index_put",
    _index_put_fwd,
    lambda g, out, gin, idx, shape, out_ndim: (apply(index, g, idx=idx, lead=g.ndim - len(shape)),),
    "IndexPutBackward0",
    "g indexed like the forward index",
    kind="internal",
    saves=False,
    holds=lambda n: _has_array(n.params["idx"]) and n.name() in HOLDING,
    samples=tuple(
        Sample(
            (_index_fwd(np.zeros(a), b).shape,),
            {"idx": b, "shape": a, "out_ndim": _index_fwd(np.zeros(a), b).ndim},
        )
        for a, b in _INDEX_CASES
    ),
    complex="holo",
)


def _zero_region_fwd(x: np.ndarray, idx: tuple, base: int) -> np.ndarray:
    # `idx` indexes the last `base` dims (any before them are batch axes); None adds no place
    out = x.copy()
    places = tuple(k for k in _no_ellipsis(idx, base) if k is not None)
    out[(slice(None),) * (x.ndim - base) + places] = 0
    return out


def _zero_region_vjp(g: Tensor, out: Tensor, x: Tensor, idx: tuple, base: int) -> tuple:
    return (apply(zero_region, g, idx=idx, base=base),)


# x with the places an index names set to 0: the part of x an item assignment keeps (`y[i] =
# v`'s CopySlices), its gradient g with those places 0. Linear; reads no values (a mask of
# x's size, which a selection would hold per assignment, is not kept).
zero_region = defop(
    "zero_region",
    _zero_region_fwd,
    _zero_region_vjp,
    "CopySlices",
    "g with the assigned places 0",
    kind="internal",
    saves=False,
    samples=tuple(
        Sample((a,), {"idx": b, "base": len(a)})
        for a, b in _INDEX_CASES
        if not any(k is None for k in b)
    ),
    complex="rule",  # (the rule zeroes places of g, complex values as they are)
)


def _windows(n: int, size: int, step: int) -> np.ndarray:
    """The positions each window of `Tensor.unfold` reads: (count, size)."""
    count = (n - size) // step + 1
    return np.arange(count)[:, None] * step + np.arange(size)[None, :]


def _unfold_fwd(x: np.ndarray, dim: int, size: int, step: int) -> np.ndarray:
    # A view over x's memory, as PyTorch's: dimension `dim` becomes the windows' count, and a
    # last dimension of `size` walks each window (overlapping windows share elements).
    count = (x.shape[dim] - size) // step + 1
    shape = x.shape[:dim] + (count,) + x.shape[dim + 1 :] + (size,)
    strides = x.strides[:dim] + (x.strides[dim] * step,) + x.strides[dim + 1 :] + (x.strides[dim],)
    return np.lib.stride_tricks.as_strided(x, shape, strides)


def _unfold_order(ndim: int, dim: int) -> tuple[int, ...]:
    """The permutation of unfold's output (.., count, .., size) to (.., count, size, ..)."""
    return (*range(dim + 1), ndim - 1, *range(dim + 1, ndim - 1))


def _unfold_index(x_shape: tuple, dim: int, size: int, step: int) -> tuple:
    return (slice(None),) * dim + (_windows(x_shape[dim], size, step),)


def _unfold_vjp(g: Tensor, out: Tensor, x: Tensor, dim: int, size: int, step: int) -> tuple:
    # each element's gradient: the sum over the windows that read it (g put back, added up)
    moved = apply(permute, g, perm=_unfold_order(out.ndim, dim))
    idx = _unfold_index(x.shape, dim, size, step)
    return (apply(index_put, moved, idx=idx, shape=x.shape, out_ndim=out.ndim),)


def _unfold_jax(w: Any, x: str, p: dict) -> str:
    idx = w.index(_unfold_index(w.inputs[0].shape, p["dim"], p["size"], p["step"]))
    return f"jnp.moveaxis({x}[{idx}], {p['dim'] + 1}, -1)"


# (`unfold_windows`: the name `unfold` is F.unfold's record, ops.conv's im2col)
unfold_windows = defop(
    "unfold_windows",
    _unfold_fwd,
    _unfold_vjp,
    "UnfoldBackward0",
    "g of each window added back at the positions it read",
    kind="shape",
    saves=False,
    signature="x.unfold(dimension, size, step)",
    samples=tuple(
        Sample((a,), {"dim": d, "size": n, "step": k})
        for a, d, n, k in (
            ((7,), 0, 3, 2),
            ((7,), 0, 2, 1),
            ((3, 5), 1, 2, 1),
            ((4, 3), 0, 2, 2),
            ((2, 5, 3), 1, 3, 1),
            ((4,), 0, 0, 1),
        )
    ),
    to_torch=lambda w, a, p: f"{a[0]}.unfold({p['dim']}, {p['size']}, {p['step']})",
    to_jax=lambda w, a, p: _unfold_jax(w, a[0], p),
)


def _as_strided_fwd(
    x: np.ndarray, size: tuple, stride: tuple, idx: tuple, offset: int
) -> np.ndarray:
    # A view over x's memory, as PyTorch's: it starts at the element of x the first place
    # reads and steps `stride` elements. `idx` (x's index of every place, checked by the
    # surface to name elements of x) keeps every read inside x's elements.
    if not idx[0].size:
        return np.empty(tuple(size), x.dtype)
    first = x[tuple(int(i.flat[0]) for i in idx) + (Ellipsis,)]
    return np.lib.stride_tricks.as_strided(
        first, tuple(size), tuple(st * x.itemsize for st in stride)
    )


def _as_strided_vjp(
    g: Tensor, out: Tensor, x: Tensor, size: tuple, stride: tuple, idx: tuple, offset: int
) -> tuple:
    # each element of x: the sum of g over the places of the view that read it
    return (apply(index_put, g, idx=idx, shape=x.shape, out_ndim=len(size)),)


def _strided_places(shape: tuple, size: tuple, stride: tuple, offset: int) -> tuple:
    """x's index (x contiguous, of `shape`) of each place of x.as_strided(size, stride, offset)."""
    at = np.full(size, offset, dtype=np.int64)
    for k, (n, st) in enumerate(zip(size, stride)):
        at += (np.arange(n, dtype=np.int64) * st).reshape(
            (1,) * k + (n,) + (1,) * (len(size) - k - 1)
        )
    return np.unravel_index(at, shape)


as_strided = defop(
    "as_strided",
    _as_strided_fwd,
    _as_strided_vjp,
    "AsStridedBackward0",
    "g of each place of the view added back at the element of x it reads",
    kind="shape",
    saves=False,
    signature="x.as_strided(size, stride, storage_offset)",
    samples=tuple(
        Sample((a,), {"size": z, "stride": st, "idx": _strided_places(a, z, st, k), "offset": k})
        for a, z, st, k in (
            ((6,), (2, 2), (1, 2), 0),
            ((3, 4), (3,), (5,), 0),
            ((2, 3), (2, 2), (1, 1), 1),
            ((7,), (3, 3), (2, 1), 0),
        )
    ),
    to_torch=lambda w, a, p: f"{a[0]}.as_strided({p['size']}, {p['stride']}, {p['offset']})",
    to_jax=lambda w, a, p: f"{a[0]}[{w.index(p['idx'])}]",  # (JAX has no strided views)
)


def _cat_fwd(*xs: np.ndarray, dim: int = 0) -> np.ndarray:
    return _torch_layout(np.concatenate(xs, axis=dim))


def _torch_layout(out: np.ndarray) -> np.ndarray:
    """PyTorch's cat and stack write a contiguous result below 4 dimensions whatever the
    inputs' layouts (NumPy's follows theirs: `torch.cat([w.t(), w.t()])` would be laid out
    transposed, and a later `.normal_()` on it would draw in another order)."""
    return np.ascontiguousarray(out) if out.ndim < 4 else out


def _cat_vjp(g: Tensor, out: Tensor, *xs: Tensor, dim: int = 0) -> tuple:
    d = from_end(dim, out.ndim)
    tail = (slice(None),) * (-d - 1)
    grads, start = [], 0
    for x in xs:
        n = x.shape[dim] if x.ndim else 1
        # PyTorch's cat backward slices g (SliceBackward0 when the gradient is differentiated)
        grads.append(
            apply(index, g, idx=(Ellipsis, slice(start, start + n)) + tail, label="SliceBackward0")
        )
        start += n
    return tuple(grads)


def _joined_tangents(dots: tuple, xs: tuple) -> tuple[list[Tensor], int] | None:
    """The tangents cat and stack join (PyTorch's cat_jvp / stack_jvp): an input without one
    gives zeros of its shape and dtype (+0.0: `stack([-t[0], t[1]])`'s first row keeps its
    -0.0 where the transposed rule's sum into zeros would not), all in their promoted dtype;
    and the tangents' batch axes. None: no input has one."""
    lead = next((d.ndim - x.ndim for d, x in zip(dots, xs) if d is not None), None)
    if lead is None:
        return None
    shape = next(d.shape[:lead] for d in dots if d is not None)
    ts = [
        d if d is not None else Tensor(np.zeros(shape + x.shape, dtype=x.data.dtype))
        for d, x in zip(dots, xs)
    ]
    dt = np.result_type(*(t.data.dtype for t in ts))
    return [t if t.data.dtype == dt else apply(astype, t, dtype=dt) for t in ts], lead


def _cat_jvp(dots: tuple, out: Tensor, *xs: Tensor, dim: int = 0) -> Tensor | None:
    got = _joined_tangents(dots, xs)
    if got is None:
        return None
    ts, lead = got
    return apply(cat, *ts, dim=from_end(dim, out.ndim) if lead else dim)


cat = defop(
    "cat",
    _cat_fwd,
    _cat_vjp,
    "CatBackward0",
    "g split along dim",
    kind="shape",
    jvp=_cat_jvp,
    saves=False,
    signature="cat(tensors, dim=0)",
    samples=tuple(
        Sample(a, {"dim": d})
        for a, d in (
            (((2, 3), (4, 3)), 0),
            (((2, 3), (2, 1), (2, 2)), 1),
            (((3,), (2,)), 0),
            (((2, 3),), 0),
            (((2, 1, 3), (2, 2, 3)), 1),
        )
    ),
    to_torch=lambda w, a, p: f"torch.cat([{', '.join(a)}], dim={p.get('dim', 0)})",
    to_jax=lambda w, a, p: f"jnp.concatenate([{', '.join(a)}], axis={int(p.get('dim', 0))})",
    complex="holo",
)


def _stack_vjp(g: Tensor, out: Tensor, *xs: Tensor, dim: int = 0) -> tuple:
    d = from_end(dim, out.ndim)
    tail = (slice(None),) * (-d - 1)
    return tuple(apply(index, g, idx=(Ellipsis, i) + tail) for i in range(len(xs)))


def _stack_jvp(dots: tuple, out: Tensor, *xs: Tensor, dim: int = 0) -> Tensor | None:
    got = _joined_tangents(dots, xs)
    if got is None:
        return None
    ts, lead = got
    return apply(stack, *ts, dim=from_end(dim, out.ndim) if lead else dim)


stack = defop(
    "stack",
    lambda *xs, dim=0: _torch_layout(np.stack(xs, axis=dim)),
    _stack_vjp,
    "StackBackward0",
    "g unstacked along dim",
    kind="shape",
    jvp=_stack_jvp,
    saves=False,
    signature="stack(tensors, dim=0)",
    samples=tuple(
        Sample(a, {"dim": d})
        for a, d in (
            (((2, 3), (2, 3)), 0),
            (((2, 3), (2, 3)), 1),
            (((2, 3), (2, 3), (2, 3)), 2),
            (((), ()), 0),
            (((3,), (3,), (3,)), 1),
            (((4,),), 0),
        )
    ),
    to_torch=lambda w, a, p: f"torch.stack([{', '.join(a)}], dim={p.get('dim', 0)})",
    to_jax=lambda w, a, p: f"jnp.stack([{', '.join(a)}], axis={int(p.get('dim', 0))})",
    complex="holo",
)


def _astype_vjp(g: Tensor, out: Tensor, x: Tensor, dtype: Any, strict: bool = False) -> tuple:
    if g.data.dtype.kind == "c" and x.data.dtype.kind != "c":
        if strict:
            # a conversion PyTorch does not record (a reduction's `dtype=`, torch.where's
            # promotion): its rule hands the complex gradient to the real input as it is, and
            # its engine refuses that
            raise complex_grad_of_real(
                "convert the real tensor first, x.to(torch.complex128): that conversion's "
                "gradient is the real part"
            )
        # a real tensor made complex: the real part of the gradient (PyTorch's handle_r_to_c)
        from .complexnum import real

        g = apply(real, g)
    return (apply(astype, g, dtype=x.dtype),)


astype = defop(
    "astype",
    # (laid out as PyTorch's empty_like(x); `strict`: a conversion PyTorch makes inside an
    # operation, a reduction's `dtype=`, whose gradient it does not convert back; complex to
    # real: the real parts, the caller having given PyTorch's warning)
    lambda x, dtype, strict=False: like(
        (x.real if x.dtype.kind == "c" != dtype.kind else x).astype(dtype), x
    ),
    _astype_vjp,
    "ToCopyBackward0",
    "g cast back to x's dtype",
    kind="shape",
    saves=False,
    sym=lambda sp, x, dtype: x,
    signature="x.float(), x.double(), x.to(dtype)",
    samples=(
        Sample(((2, 3),), {"dtype": np.dtype(np.float32)}),
        Sample(((),), {"dtype": np.dtype(np.float32)}),
        Sample(((2, 3),), {"dtype": np.dtype(np.float64)}),
    ),
    to_torch=lambda w, a, p: f"{a[0]}.to(torch.{np.dtype(p['dtype']).name})",
    to_jax=lambda w, a, p: f"{a[0]}.astype(jnp.{np.dtype(p['dtype']).name})",
    complex="rule",
)


# --- the shape functions of VJP rules ---------------------------------------------------------


def reshape_to(t: Tensor, shape: tuple[int, ...]) -> Tensor:
    """`t.reshape(shape)` (one -1 is inferred)."""
    shape = tuple(int(s) for s in shape)
    if -1 in shape:
        known = 1
        for s in shape:
            if s != -1:
                known *= s
        shape = tuple(t.data.size // known if s == -1 else s for s in shape)
    return apply(reshape, t, shape=shape, label="ViewBackward0")


def unsqueeze(t: Tensor, dim: int) -> Tensor:
    """`t.unsqueeze(dim)`."""
    d = dim % (t.ndim + 1)
    return apply(reshape, t, shape=t.shape[:d] + (1,) + t.shape[d:], label="UnsqueezeBackward0")


def squeeze(t: Tensor, dim: int) -> Tensor:
    """`t.squeeze(dim)`: the axis goes if it has size 1."""
    d = dim % max(t.ndim, 1)
    shape = tuple(s for i, s in enumerate(t.shape) if not (i == d and s == 1))
    return apply(reshape, t, shape=shape, label="SqueezeBackward1")


def transpose_last(t: Tensor) -> Tensor:
    """`t.mT`: the last two axes swapped (permute acts on trailing axes, so this also
    transposes a gradient with batch axes)."""
    return apply(permute, t, perm=(1, 0), label="TransposeBackward0")


def select(t: Tensor, i: int) -> Tensor:
    """`t[i]`, along the first axis."""
    return apply(index, t, idx=(i,), label="SelectBackward0")
