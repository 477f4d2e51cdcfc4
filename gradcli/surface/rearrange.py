"""PyTorch's functions that move, pick or repeat elements: flip, fliplr, flipud, roll, tile,
narrow, index_select, masked_select, take, repeat_interleave, diff, rot90, block_diag,
diag_embed, cartesian_prod, combinations, vander; the index makers tril_indices, triu_indices,
searchsorted, bucketize (the scatter family is surface/scatter.py's).

Each is a selection of the input's elements (the `index` record with index arrays built here
with NumPy, so its gradient is index's: g added back at the picked places), or a sum of such
selections, named with PyTorch's grad_fn. Every size is checked before an index array or a
result is made.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError
from ..core.dtypes import scalar_type_name
from ..core.op import apply
from ..core.tensor import Tensor, typename
from ..ops import arithmetic as A
from ..ops import shape as S
from . import args as C
from . import functional as F
from . import indexing as I
from .composite import _flat, _picked, diag_embed
from .declare import declare
from .predicates import as_strided, storage_offset
from .sampling import laid_out_like


def _copy(x: Tensor, label: str) -> Tensor:
    """A copy of x recorded under PyTorch's name (flip of no dims, diff of order 0...)."""
    return A.named(F.clone(x), label)


def _take_along(x: Tensor, picks: dict[int, np.ndarray], label: str) -> Tensor:
    """x with the positions `picks[d]` (a 1-D int array) along each dim d in `picks`: one index
    array for one dim (the other axes stay in place), open grids for several."""
    if len(picks) == 1:
        ((d, arr),) = picks.items()
        idx: tuple = (slice(None),) * d + (arr,)
    else:
        idx = np.ix_(*[picks.get(d, np.arange(n)) for d, n in enumerate(x.shape)])
    A.size_check(tuple(len(picks.get(d, range(n))) for d, n in enumerate(x.shape)), label)
    return apply(S.index, x, idx=idx, label=label)


def _dims_list(dims: Any, ndim: int, fn: str) -> tuple[int, ...]:
    if isinstance(dims, (list, tuple)):
        out = tuple(C.check_dim(d, ndim) for d in dims)
    elif isinstance(dims, (int, np.integer)) and not isinstance(dims, bool):
        out = (C.check_dim(dims, ndim),)
    else:
        raise GradcliError(
            f"{fn}(): argument 'dims' must be tuple of ints, not {typename(dims)}"
        ).mirror("TypeError")
    if len(set(out)) != len(out):
        d = next(d for d in out if out.count(d) > 1)
        raise GradcliError(f"dim {d} appears multiple times in the list of dims")
    return out


def flip(input: Any, dims: Any) -> Tensor:
    input = A.tensor_arg(input, "input")
    if isinstance(dims, (int, np.integer)) and not isinstance(dims, bool):
        raise GradcliError(
            "flip(): argument 'dims' (position 2) must be tuple of ints, not int"
        ).mirror("TypeError")
    ds = _dims_list(dims, input.ndim, "flip")
    if input.ndim == 0 or not ds:
        return _copy(input, "FlipBackward0")
    out = _take_along(
        input, {d: np.arange(input.shape[d] - 1, -1, -1) for d in ds}, "FlipBackward0"
    )
    # ATen's flip writes into empty_like(input): a transposed input gives a transposed result
    out.data = laid_out_like(out.data, input.data)
    return out


def _flip_dims(*dims: Any) -> Any:
    """`x.flip(0, 1)` as well as `x.flip((0, 1))` / `x.flip(dims=[0])`."""

    def method(x: Any, *args: Any, dims: Any = None) -> Tensor:
        if dims is None:
            dims = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
            if len(args) == 1 and not isinstance(args[0], (list, tuple)):
                dims = (args[0],)
        return flip(x, tuple(dims) if isinstance(dims, list) else dims)

    return method


flip_method = _flip_dims()


def fliplr(input: Any) -> Tensor:
    input = A.tensor_arg(input, "input")
    if input.ndim < 2:
        raise GradcliError("Input must be >= 2-d.")
    return flip(input, (1,))


def flipud(input: Any) -> Tensor:
    input = A.tensor_arg(input, "input")
    if input.ndim < 1:
        raise GradcliError("Input must be >= 1-d.")
    return flip(input, (0,))


def roll(input: Any, shifts: Any, dims: Any = None) -> Tensor:
    input = A.tensor_arg(input, "input")
    sh = tuple(shifts) if isinstance(shifts, (list, tuple)) else (shifts,)
    sh = tuple(C.int_arg(s, "shifts") for s in sh)
    if any(not -(2**63) <= s < 2**63 for s in sh):
        raise GradcliError("Overflow when unpacking long").mirror("TypeError")
    if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
        if len(sh) != 1:
            raise GradcliError(f"shifts and dimensions must align. shifts: {len(sh)}, dims:0")
        flat = F.reshape(input, -1)
        n = flat.shape[0]
        pos = (np.arange(n) - sh[0]) % n if n else np.arange(0)
        out = _take_along(flat, {0: pos}, "RollBackward0")
        out = A.named(apply(S.reshape, out, shape=input.shape), "RollBackward0")
        return A.shown_over(out, input)
    ds = tuple(dims) if isinstance(dims, (list, tuple)) else (dims,)
    if len(ds) != len(sh):
        raise GradcliError(f"shifts and dimensions must align. shifts: {len(sh)}, dims:{len(ds)}")
    picks: dict[int, np.ndarray] = {}
    for s, d in zip(sh, ds):
        dd = C.check_dim(d, input.ndim)
        n = input.shape[dd] if input.ndim else 1
        base = picks.get(dd, np.arange(n))
        picks[dd] = base[(np.arange(n) - s) % n] if n else base
    if input.ndim == 0:
        return _copy(input, "RollBackward0")
    return _take_along(input, picks, "RollBackward0")


def tile(input: Any, dims: Any) -> Tensor:
    input = A.tensor_arg(input, "input")
    reps = C.shape_arg(dims if isinstance(dims, (list, tuple)) else (dims,), "dims")
    if len(reps) < input.ndim:
        reps = (1,) * (input.ndim - len(reps)) + tuple(reps)
    from .composite import repeat

    return repeat(input, *reps)


def narrow(input: Any, dim: Any, start: Any, length: Any) -> Tensor:
    input = A.tensor_arg(input, "input")
    if input.ndim == 0:
        raise GradcliError("narrow() cannot be applied to a 0-dim tensor.")
    d = C.check_dim(dim, input.ndim)
    s, n = C.int_arg(start, "start"), C.int_arg(length, "length")
    size = input.shape[d]
    if not -size <= s <= size:
        raise GradcliError(
            f"start out of range (expected to be in range of [{-size}, {size}], but got {s})"
        ).mirror("IndexError")
    if s < 0:
        s += size
    if n < 0:
        raise GradcliError("narrow(): length must be non-negative.")
    if s + n > size:
        raise GradcliError(f"start ({s}) + length ({n}) exceeds dimension size ({size}).")
    idx = (slice(None),) * d + (slice(s, s + n),)
    return apply(S.index, input, idx=idx, label="SliceBackward0")


def narrow_copy(input: Any, dim: Any, start: Any, length: Any) -> Tensor:  # noqa: A002
    """`torch.narrow_copy`: narrow's elements in a tensor of their own (NarrowCopyBackward0)."""
    return _own_copy(narrow(input, dim, start, length), "NarrowCopyBackward0")


def _own_copy(t: Tensor, label: str | None = None) -> Tensor:
    """View `t` made a tensor of its own (contiguous, its own version counter), keeping the
    view's node, named `label` or, as PyTorch's `*_copy` functions name theirs, the view's
    node name with `_copy` after it."""
    t.data = np.array(t.data, order="C")
    t._vc = t._base = None
    if F.NOGRAD_VIEWS and t in F.NOGRAD_VIEWS:
        F.NOGRAD_VIEWS.discard(t)
        t.requires_grad = False
    if t.node is not None:
        A.named(t, label or f"{t.node.name()}_copy")
    return t


def _view_copy(view: str, method: bool = False) -> Any:
    """`torch.<view>_copy`: the view function `view` (a torch function, or a Tensor method when
    `method`), its results made tensors of their own."""

    def copy(input: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: A002
        from . import names

        x = A.tensor_arg(input, "input")
        fn = names.METHODS[view] if method else names.FUNCTIONS[view]
        out = fn(x, *args, **kwargs)
        if isinstance(out, (tuple, list)):
            return type(out)(_own_copy(_fresh(o, x)) for o in out)
        return _own_copy(_fresh(out, x))

    copy.__name__ = f"{view}_copy"
    return copy


def _fresh(out: Tensor, x: Tensor) -> Tensor:
    # A view function may hand back its input itself: a copy is a tensor of its own.
    return I.getitem(x, (Ellipsis,)) if out is x else out


def slice_copy(
    input: Any,  # noqa: A002
    dim: Any = 0,
    start: Any = None,
    end: Any = None,
    step: Any = 1,
) -> Tensor:
    """`torch.slice_copy`: x[..., start:end:step] along `dim`, in a tensor of its own."""
    x = A.tensor_arg(input, "input")
    d = C.check_dim(dim, builtins.max(x.ndim, 1))
    key = (slice(None),) * d + (
        slice(
            None if start is None else C.int_arg(start, "start"),
            None if end is None else C.int_arg(end, "end"),
            C.int_arg(step, "step"),
        ),
    )
    return _own_copy(I.getitem(x, key), "SliceBackward0_copy")


def _index_vector(
    index: Any, fn: str, name: str = "index", position: int | None = None
) -> np.ndarray:
    if not isinstance(index, Tensor):
        if position is not None:
            A.tensor_param(index, fn, name, position)
        raise GradcliError(
            f"{fn}(): argument '{name}' must be Tensor, not {typename(index)}"
        ).mirror("TypeError")
    if index.dtype not in (np.int32, np.int64):  # (not int8, int16, uint8 either)
        raise GradcliError(f"{fn}(): Expected dtype int32 or int64 for index")
    return index.data.astype(np.int64)


def index_select(input: Any, dim: Any, index: Any) -> Tensor:
    input = A.tensor_arg(input, "input")
    d = C.check_dim(dim, input.ndim)
    idx = _index_vector(index, "index_select", position=3)
    if idx.ndim > 1:
        raise GradcliError("index_select(): Index is supposed to be a vector").mirror("IndexError")
    idx = idx.reshape(-1)
    n = input.shape[d] if input.ndim else 1
    bad = idx[(idx < 0) | (idx >= n)]
    if bad.size:
        if d != 1:  # ATen's general kernel checks each index; dim 1 has a kernel of its own
            raise GradcliError("index out of range in self").mirror("IndexError")
        raise GradcliError(f"INDICES element is out of DATA bounds, id={int(bad[0])} axis_dim={n}")
    if input.ndim == 0:
        input = F.reshape(input, 1)
    return _take_along(input, {d: idx}, "IndexSelectBackward0")


def masked_select(input: Any, mask: Any) -> Tensor:
    input = A.tensor_arg(input, "input")
    if not isinstance(mask, Tensor) or mask.dtype != np.bool_:
        raise GradcliError("masked_select: expected BoolTensor for mask")
    I.vmap_dynamic(mask, "masked_select")
    shape = A.broadcast_shape(input, mask)
    if input.shape != shape:
        input = F.expand(input, shape)
    m = np.broadcast_to(mask.data, shape)
    return apply(S.index, input, idx=(m,), label="MaskedSelectBackward0")


def take(input: Any, index: Any) -> Tensor:
    input = A.tensor_arg(input, "input")
    if not isinstance(index, Tensor):
        raise GradcliError(
            f"take(): argument 'index' (position 2) must be Tensor, not {typename(index)}"
        ).mirror("TypeError")
    if index.dtype != np.int64:
        raise GradcliError(
            f"take(): Expected a long tensor for index, but got {scalar_type_name(index.dtype)}"
        )
    n = input.numel()
    idx = index.data
    bad = idx[(idx < -n) | (idx >= n)]
    if bad.size:
        raise GradcliError(
            f"out of range: tried to access index {int(bad.reshape(-1)[0])} on a tensor of "
            f"{n} elements."
        ).mirror("IndexError")
    flat = apply(S.reshape, input, shape=(n,), label="ViewBackward0")
    out = apply(S.index, flat, idx=(idx % n if n else idx,), label="TakeBackward0")
    return A.shown_over(out, input)


def repeat_interleave(
    x: Any, repeats: Any = None, dim: Any = None, *, output_size: Any = None
) -> Tensor:
    x = A.tensor_arg(x, "input")
    if repeats is None:
        # torch.repeat_interleave(counts): each position, repeated its count times.
        counts = _counts(x, None)
        A.size_check((int(counts.sum()),), "the repeated tensor")
        return Tensor(np.repeat(np.arange(len(counts)), counts).astype(np.int64))
    if dim is None:
        x = F.reshape(x, -1)
        d = 0
    else:
        d = C.check_dim(dim, x.ndim)
    n = x.shape[d] if x.ndim else 1
    if isinstance(repeats, Tensor) and repeats.numel() != 1:
        counts = _counts(repeats, n, d)
        A.size_check(x.shape[:d] + (int(counts.sum()),) + x.shape[d + 1 :], "the repeated tensor")
        return _take_along(x, {d: np.repeat(np.arange(n), counts)}, "IndexSelectBackward0")
    r = C.int_arg(repeats, "repeats") if not isinstance(repeats, Tensor) else repeats.item()
    r = C.int_arg(r, "r")
    if r < 0:
        raise GradcliError("Repeats must be non-negative")
    if x.ndim == 0:
        x = F.reshape(x, 1)
    A.size_check(x.shape[:d] + (n * r,) + x.shape[d + 1 :], "the repeated tensor")
    wide = F.expand(F.unsqueeze(x, d + 1), x.shape[: d + 1] + (r,) + x.shape[d + 1 :])
    out = F.reshape(wide, x.shape[:d] + (n * r,) + x.shape[d + 1 :])
    # (PyTorch's flatten of the expanded copy is a view: ViewBackward0, as printed)
    return A.named(out, "ViewBackward0") if out.node is not None else out


def _counts(t: Tensor, n: int | None, d: int = 0) -> np.ndarray:
    if t.dtype not in (np.int32, np.int64):  # ATen's kernel has Long and Int variants only
        raise GradcliError(
            f"\"repeat_interleave_cpu\" not implemented for '{scalar_type_name(t.dtype)}'",
            hint="give the repeats as integers: torch.tensor([...]) or repeats.long()",
        ).mirror("NotImplementedError")
    c = t.data.reshape(-1).astype(np.int64)
    if t.ndim > 1:
        raise GradcliError("repeat_interleave only accept 1D vector as repeat")
    if n is not None and len(c) != n:
        raise GradcliError(
            f"repeats must have the same size as input along dim, but got repeats.size(0) = "
            f"{len(c)} and input.size({d}) = {n}"
        )
    if c.size and c.min() < 0:
        raise GradcliError("repeats can not be negative")
    return c


def diff(input: Any, n: Any = 1, dim: Any = -1, prepend: Any = None, append: Any = None) -> Tensor:
    input = A.tensor_arg(input, "input")
    if input.ndim == 0:
        raise GradcliError("diff expects input to be at least one-dimensional")
    k = C.int_arg(n, "n")
    if k < 0:
        raise GradcliError(f"order must be non-negative but got {k}")
    d = C.check_dim(dim, input.ndim)
    parts = []
    for name, t in (("prepend", prepend), ("append", append)):
        if t is None:
            continue
        if not isinstance(t, Tensor):
            raise GradcliError(
                f"diff(): argument '{name}' must be Tensor, not {typename(t)}"
            ).mirror("TypeError")
        if t.ndim != input.ndim:
            raise GradcliError("diff expects prepend or append to be the same dimension as input")
        for i in range(input.ndim):
            if i != d and t.shape[i] != input.shape[i]:
                raise GradcliError(
                    "diff expects the shape of tensor to prepend or append to match that of "
                    f"input except along the differencing dimension; input.size({i}) = "
                    f"{input.shape[i]}, but got tensor.size({i}) = {t.shape[i]}"
                )
        parts.append((name, t))
    if parts:
        pre = [t for name, t in parts if name == "prepend"]
        post = [t for name, t in parts if name == "append"]
        input = F.cat(pre + [input] + post, dim=d)
    if k == 0:
        return _copy(input, "torch::autograd::CopyBackwards")
    # Each difference is one shorter: past the size there is nothing left to difference.
    k = builtins.min(k, input.shape[d])
    # The k differences make k tensors, of k * (m - (k+1)/2) rows along dim in all.
    m = input.shape[d]
    rest = input.numel() // m if m else 0
    limits.TENSOR_ELEMENTS.check(
        k * (2 * m - k - 1) // 2 * rest, f"the elements of the {k} differences diff(n={k}) makes"
    )
    lead = (slice(None),) * d
    for _ in range(k):
        m = input.shape[d]
        hi = apply(S.index, input, idx=lead + (slice(1, m),), label="SliceBackward0")
        lo = apply(
            S.index, input, idx=lead + (slice(0, builtins.max(m - 1, 0)),), label="SliceBackward0"
        )
        if input.dtype == np.bool_:
            input = Tensor(hi.data != lo.data)
        else:
            input = A.sub_t(hi, lo)
    return input


# --- matrices and grids built from pieces ---------------------------------------------------


def rot90(input: Any, k: Any = 1, dims: Any = (0, 1)) -> Tensor:
    """`torch.rot90(x, k, dims)`: a quarter turn k times in the plane of `dims` (from the first
    axis towards the second), as flips and a transpose (Rot90Backward0)."""
    input = A.tensor_arg(input, "input")
    k = C.int_arg(k, "k")
    if not isinstance(dims, (list, tuple)):
        raise GradcliError(
            f"rot90(): argument 'dims' must be tuple of ints, not {typename(dims)}"
        ).mirror("TypeError")
    if len(dims) != 2:
        raise GradcliError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if input.ndim < 2:
        raise GradcliError(f"expected total dims >= 2, but got total dims = {input.ndim}")
    d0, d1 = (C.check_dim(d, input.ndim) for d in dims)
    if d0 == d1:
        raise GradcliError(
            f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}"
        )
    k %= 4
    if k == 1:
        out = F.transpose(flip(input, [d1]), d0, d1)
    elif k == 2:
        out = flip(input, [d0, d1])
    elif k == 3:
        out = F.transpose(flip(input, [d0]), d0, d1)
    else:
        out = F.clone(input)
    return A.named(out, "Rot90Backward0")


def block_diag(*tensors: Any) -> Tensor:
    """`torch.block_diag(a, b, ...)`: the tensors (0-d: 1x1, 1-d: a row) along the diagonal of
    a matrix of zeros, in their common dtype (BlockDiagBackward0)."""
    ts = [A.tensor_arg(t, "tensors") for t in tensors]
    for i, t in enumerate(ts):
        if t.ndim > 2:
            raise GradcliError(
                "torch.block_diag: Input tensors must have 2 or fewer dimensions. "
                f"Input {i} has {t.ndim} dimensions"
            )
    if not ts:
        return Tensor(np.zeros((1, 0), np.float32))
    ts = F._promoted(ts)
    blocks = [(1, 1) if t.ndim == 0 else (1, t.shape[0]) if t.ndim == 1 else t.shape for t in ts]
    rows = builtins.sum(r for r, _ in blocks)
    cols = builtins.sum(c for _, c in blocks)
    A.size_check((rows, cols), "the torch.block_diag() matrix")
    ids = np.full((rows, cols), -1, np.int64)
    r0 = c0 = offset = 0
    for r, c in blocks:
        ids[r0 : r0 + r, c0 : c0 + c] = offset + np.arange(r * c).reshape(r, c)
        r0, c0, offset = r0 + r, c0 + c, offset + r * c
    return _picked([_flat(t) for t in ts], ids, "BlockDiagBackward0")


def cartesian_prod(*tensors: Any) -> Tensor:
    """`torch.cartesian_prod(a, b, ...)`: every combination of the 1-d tensors' elements, one per
    row (a meshgrid, flattened and stacked: StackBackward0; one tensor: itself)."""
    from .basics import meshgrid

    ts = [A.tensor_arg(t, "tensors") for t in tensors]
    for t in ts:
        if t.ndim != 1:
            raise GradcliError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(ts) == 1:
        return ts[0]
    if not ts:
        raise GradcliError("meshgrid expects a non-empty TensorList")
    grids = meshgrid(*ts, indexing="ij")
    return F.stack([F.flatten(g) for g in grids], 1)


def combinations(input: Any, r: Any = 2, with_replacement: Any = False) -> Tensor:
    """`torch.combinations(x, r, with_replacement)`: the r-element combinations of a 1-d tensor's
    elements in lexicographic order of positions, one per row (StackBackward0)."""
    import itertools
    import math

    input = A.tensor_arg(input, "input")
    if input.ndim != 1:
        raise GradcliError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    r = C.int_arg(r, "r")
    if r < 0:
        raise GradcliError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return Tensor(np.zeros(0, input.dtype))
    n = input.shape[0]
    count = math.comb(n + r - 1, r) if with_replacement else math.comb(n, r)
    limits.TENSOR_ELEMENTS.check(count * r, "the elements of torch.combinations()")
    # A column an operation (with r > n, r empty ones): each is a recorded node.
    limits.GRAPH_NODES.check(r, "the columns of torch.combinations()")
    make = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    picks = np.array(list(make(range(n), r)) if count else (), np.intp).reshape(count, r)
    cols = [apply(S.index, input, idx=(picks[:, j],)) for j in range(r)]
    return F.stack(cols, 1)


def _indices(fn: str, lower: bool) -> Any:
    def indices(
        row: Any,
        col: Any,
        offset: Any = 0,
        *,
        dtype: Any = None,
        device: Any = None,
        layout: Any = None,
    ) -> Tensor:
        row, col = C.int_arg(row, "row"), C.int_arg(col, "col")
        off = C.int_arg(offset, "offset")
        if row < 0:
            raise GradcliError(f"row must be non-negative, got{row}")
        if col < 0:
            raise GradcliError(f"col must be non-negative, got{col}")
        limits.TENSOR_ELEMENTS.check(2 * row * col, f"the elements of torch.{fn}()")
        rr, cc = np.tril_indices(row, off, col) if lower else np.triu_indices(row, off, col)
        dt = np.int64 if dtype is None else np.dtype(dtype)
        return Tensor(np.stack([rr, cc]).astype(dt).reshape(2, -1))

    indices.__name__ = fn
    return indices


tril_indices = _indices("tril_indices", True)
triu_indices = _indices("triu_indices", False)


def vander(x: Any, N: Any = None, increasing: Any = False) -> Tensor:  # noqa: N803
    """`torch.vander(x, N, increasing)`: the powers of x as columns, from cumulative products
    (PyTorch's cumprod then flip: FlipBackward0)."""
    from .functional import unsqueeze
    from .statistics import cumprod

    x = A.tensor_arg(x, "x")
    if x.ndim != 1:
        raise GradcliError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else C.int_arg(N, "N")
    if n < 0:
        raise GradcliError("N must be non-negative.")
    rows = x.shape[0]
    A.size_check((rows, n), "the torch.vander() matrix")
    dt = x.dtype if x.dtype.kind in "fc" else np.dtype(np.int64)
    ones = Tensor(np.ones((rows, 1), dt))
    if n == 0:
        return Tensor(np.zeros((rows, 0), dt))
    if n == 1:
        return ones
    # As ATen builds it: ones, x copied into columns 1.., then those columns replaced in place
    # by their cumulative products. cumprod saved the columns before that last copy, so a
    # backward through the result fails on PyTorch's own version check, as PyTorch's does.
    from .indexing import getitem

    out = Tensor(np.empty((rows, n), dt))
    F.INPLACE["fill_"](out, 1)
    cols = getitem(out, (slice(None), slice(1, None)))
    F.INPLACE["copy_"](cols, unsqueeze(x, 1))
    F.INPLACE["copy_"](cols, cumprod(cols, 1))
    return out if increasing else flip(out, [1])


def linalg_vander(x: Any, *, N: Any = None) -> Tensor:  # noqa: N803
    """`torch.linalg.vander(x, *, N)`: the powers x^0 .. x^(N-1) of a batch of vectors along a
    new last dimension, as ATen builds it: a column of ones joined to the cumulative products
    of x repeated N - 1 times (CatBackward0); an integer x gives int64, as cumprod does."""
    from .functional import cat, expand, unsqueeze
    from .statistics import cumprod

    if not isinstance(x, Tensor):
        raise GradcliError(
            f"linalg_vander(): argument 'x' must be Tensor, not {typename(x)}"
        ).mirror("TypeError")
    if N is not None and (isinstance(N, bool) or not isinstance(N, (int, np.integer, Tensor))):
        raise GradcliError(f"linalg_vander(): argument 'N' must be int, not {typename(N)}").mirror(
            "TypeError"
        )
    kind = scalar_type_name(x.dtype)
    if x.dtype.kind not in "iu" and kind not in (
        "Float",
        "Double",
        "ComplexFloat",
        "ComplexDouble",
    ):
        raise GradcliError(
            f"linalg.vander supports floating point, complex, and integer tensors, but got {kind}"
        )
    xs = unsqueeze(x, -1) if x.ndim == 0 else x
    n = xs.shape[-1] if N is None else C.int_arg(N, "N")
    if n <= 1:
        raise GradcliError("N must be greater than 1.")
    shape = (*xs.shape, n - 1)
    A.size_check((*xs.shape, n), "the torch.linalg.vander() result")
    powers = cumprod(expand(unsqueeze(xs, -1), *shape), -1)
    ones = Tensor(np.ones((*xs.shape, 1), powers.dtype))
    return cat([ones, powers], -1)


def _sorted_search(fn: str) -> Any:
    def search(
        sorted_sequence: Any,
        input: Any,
        *,
        out_int32: Any = False,
        right: Any = False,
        side: Any = None,
        sorter: Any = None,
    ) -> Tensor:
        if side is not None:
            if side not in ("left", "right"):
                raise GradcliError(
                    f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}"
                )
            if side == "left" and right:
                raise GradcliError(
                    "torch.searchsorted(): side and right can't be set to opposites, got side "
                    "of left while right was True"
                )
            right = side == "right"
        b = A.tensor_arg(sorted_sequence, "sorted_sequence")
        scalar = not isinstance(input, Tensor)
        v = A.tensor_arg(input, "input") if not scalar else Tensor(np.asarray(input))
        if fn == "bucketize" and b.ndim != 1:
            raise GradcliError(f"boundaries tensor must be 1 dimension, but got dim({b.ndim})")
        if b.ndim > 1 and (v.ndim != b.ndim or v.shape[:-1] != b.shape[:-1]):
            raise GradcliError(
                "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                "dimensions of boundaries tensor and input value tensor must match, but we got "
                f"boundaries tensor {list(b.shape)} and input value tensor {list(v.shape)}"
            )
        bd = b.data
        if sorter is not None:
            order = A.tensor_arg(sorter, "sorter").data.astype(np.intp)
            bd = np.take_along_axis(bd, order, axis=-1)
        where = "right" if right else "left"
        if bd.ndim <= 1:
            out = np.searchsorted(bd, v.data, side=where)
        else:
            rows_b = bd.reshape(-1, bd.shape[-1])
            rows_v = v.data.reshape(-1, v.shape[-1])
            out = np.stack([np.searchsorted(rb, rv, side=where) for rb, rv in zip(rows_b, rows_v)])
            out = out.reshape(v.shape)
        return Tensor(np.asarray(out).astype(np.int32 if out_int32 else np.int64))

    search.__name__ = fn
    return search


searchsorted = _sorted_search("searchsorted")


def bucketize(input: Any, boundaries: Any, *, out_int32: Any = False, right: Any = False) -> Tensor:
    """`torch.bucketize(x, boundaries)`: searchsorted with the arguments the other way round."""
    return _bucketize(boundaries, input, out_int32=out_int32, right=right)


_bucketize = _sorted_search("bucketize")


def unfold(input: Any, dimension: Any, size: Any, step: Any) -> Tensor:  # noqa: A002
    """`x.unfold(dimension, size, step)`: the windows of `size` elements every `step` along
    `dimension`, as a last dimension; a view of x (a change in place of one is a change of x),
    its gradient adding up each element's windows (UnfoldBackward0)."""
    x = A.tensor_arg(input, "input")
    scalar = x.ndim == 0
    if scalar:
        x = F.reshape(x, (1,))  # (PyTorch's: the element itself, or nothing, as a vector)
    d = C.check_dim(dimension, x.ndim)
    n, k = C.int_arg(size, "size"), C.int_arg(step, "step")
    if n < 0:
        raise GradcliError(f"size is {n} but must be >= 0")
    if n > x.shape[d]:
        raise GradcliError(
            f"maximum size for tensor at dimension {d} is {x.shape[d]} but size is {n}"
        )
    if k <= 0:
        raise GradcliError(f"step is {k} but must be > 0")
    count = (x.shape[d] - n) // k + 1
    A.size_check(x.shape[:d] + (count,) + x.shape[d + 1 :] + (n,), "the result of unfold")
    out = apply(S.unfold_windows, x, dim=d, size=n, step=k)
    return A.named(F.reshape(out, (n,)), "UnfoldBackward0") if scalar else out


def fill_diagonal_(input: Any, fill_value: Any, wrap: Any = False) -> Tensor:  # noqa: A002
    """`x.fill_diagonal_(v, wrap=False)`: the main diagonal (of a matrix, or of a tensor of
    equal dimensions) set to the number v, in place (CopySlices when recorded, as PyTorch's
    writes through a strided view of x); `wrap` continues down a tall matrix every
    width + 1 rows."""
    from .functional import INPLACE
    from .predicates import stride

    x = A.tensor_arg(input, "input")
    number = isinstance(fill_value, (int, float, np.number)) or (
        isinstance(fill_value, Tensor) and fill_value.ndim == 0 and not fill_value.requires_grad
    )
    if not number:
        raise GradcliError(
            "fill_diagonal_(): argument 'fill_value' (position 1) must be Number, not "
            + typename(fill_value)
        ).mirror("TypeError")
    if x.ndim < 2:
        raise GradcliError("dimensions must larger than 1")
    if x.ndim > 2 and len(set(x.shape)) > 1:
        raise GradcliError("all dimensions of input must be of equal length")
    n = builtins.min(x.shape)
    if n == 0:
        return x
    value = fill_value.item() if isinstance(fill_value, Tensor) else fill_value
    steps = stride(x)
    step = builtins.sum(steps)
    INPLACE["fill_"](as_strided(x, (n,), (step,)), value)
    height, width = x.shape[0], x.shape[1]
    if wrap and x.ndim == 2 and height > width + 1:
        more = (x.numel() + width) // (width + 1) - n
        if more > 0:
            start = storage_offset(x) + steps[0] * (width + 1)
            INPLACE["fill_"](as_strided(x, (more,), (step,), start), value)
    return x


NAMES = declare(
    ("flip", "torch", flip, "composition of index"),
    ("flip", "Tensor", C.sizes_required(flip_method, "flip", "dims"), "composition of index clone"),
    ("fliplr", "torch Tensor", fliplr, "composition of index"),
    ("flipud", "torch Tensor", flipud, "composition of index"),
    ("roll", "torch Tensor", roll, "composition of index reshape"),
    ("tile", "torch Tensor", tile, "composition of expand reshape clone"),
    ("narrow", "torch Tensor", narrow, "composition of index"),
    ("narrow_copy", "torch Tensor", narrow_copy, "composition of index"),
    ("slice_copy", "torch", slice_copy, "composition of index"),
    *(
        (f"{v}_copy", "torch", _view_copy(v, method=v in ("view", "expand", "unfold")), records)
        for v, records in (
            ("diagonal", "composition of as_strided index permute reshape"),
            ("select", "index"),
            ("t", "permute"),
            ("unsqueeze", "reshape"),
            ("squeeze", "reshape"),
            ("permute", "permute"),
            ("transpose", "permute"),
            ("unbind", "composition of index"),
            ("split", "composition of index"),
            ("split_with_sizes", "composition of index"),
            ("as_strided", "as_strided"),
            ("view_as_real", "view_as_real"),
            ("view_as_complex", "view_as_complex"),
            ("view", "reshape"),
            ("expand", "expand"),
            ("unfold", "unfold_windows"),
        )
    ),
    ("unfold", "Tensor", unfold, "unfold_windows"),
    ("as_strided", "torch Tensor", as_strided, "as_strided"),
    (
        "fill_diagonal_",
        "Tensor",
        fill_diagonal_,
        "composition of as_strided mul add zero_region index index_put",
    ),
    ("index_select", "torch Tensor", index_select, "composition of index"),
    ("masked_select", "torch Tensor", masked_select, "composition of index"),
    ("take", "torch Tensor", take, "composition of index reshape"),
    ("repeat_interleave", "torch Tensor", repeat_interleave, "composition of expand reshape"),
    ("diff", "torch Tensor", diff, "composition of index sub"),
    ("rot90", "torch Tensor", rot90, "composition of index permute"),
    ("block_diag", "torch", block_diag, "composition of cat index reshape"),
    ("diag_embed", "torch Tensor", diag_embed, "composition of cat index reshape"),
    ("cartesian_prod", "torch", cartesian_prod, "composition of expand reshape stack"),
    ("combinations", "torch", combinations, "composition of index stack"),
    ("tril_indices", "torch", tril_indices, ""),
    ("triu_indices", "torch", triu_indices, ""),
    (
        "vander",
        "torch",
        vander,
        "composition of add cumprod index index_put mul reshape zero_region",
    ),
    ("vander", "linalg", linalg_vander, "composition of cat cumprod expand reshape"),
    ("searchsorted", "torch", searchsorted, ""),
    ("bucketize", "torch Tensor", bucketize, ""),
)
