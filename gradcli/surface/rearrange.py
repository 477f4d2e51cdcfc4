"""PyTorch's functions that move, pick or repeat elements: flip, fliplr, flipud, roll, tile,
narrow, index_select, masked_select, take, repeat_interleave, diff (the scatter family is
surface/scatter.py's).

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
from ..core.op import apply
from ..core.tensor import Tensor, typename
from ..ops import arithmetic as A
from ..ops import shape as S
from . import args as C
from . import functional as F
from .declare import declare


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


def flip(x: Any, dims: Any) -> Tensor:
    x = A.tensor_arg(x, "input")
    if isinstance(dims, (int, np.integer)) and not isinstance(dims, bool):
        raise GradcliError(
            "flip(): argument 'dims' (position 2) must be tuple of ints, not int"
        ).mirror("TypeError")
    ds = _dims_list(dims, x.ndim, "flip")
    if x.ndim == 0 or not ds:
        return _copy(x, "FlipBackward0")
    return _take_along(x, {d: np.arange(x.shape[d] - 1, -1, -1) for d in ds}, "FlipBackward0")


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


def fliplr(x: Any) -> Tensor:
    x = A.tensor_arg(x, "input")
    if x.ndim < 2:
        raise GradcliError("Input must be >= 2-d.")
    return flip(x, (1,))


def flipud(x: Any) -> Tensor:
    x = A.tensor_arg(x, "input")
    if x.ndim < 1:
        raise GradcliError("Input must be >= 1-d.")
    return flip(x, (0,))


def roll(x: Any, shifts: Any, dims: Any = None) -> Tensor:
    x = A.tensor_arg(x, "input")
    sh = tuple(shifts) if isinstance(shifts, (list, tuple)) else (shifts,)
    sh = tuple(C.int_arg(s, "shifts") for s in sh)
    if any(not -(2**63) <= s < 2**63 for s in sh):
        raise GradcliError("Overflow when unpacking long").mirror("TypeError")
    if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
        if len(sh) != 1:
            raise GradcliError(f"shifts and dimensions must align. shifts: {len(sh)}, dims:0")
        flat = F.reshape(x, -1)
        n = flat.shape[0]
        pos = (np.arange(n) - sh[0]) % n if n else np.arange(0)
        out = _take_along(flat, {0: pos}, "RollBackward0")
        return A.named(apply(S.reshape, out, shape=x.shape), "RollBackward0")
    ds = tuple(dims) if isinstance(dims, (list, tuple)) else (dims,)
    if len(ds) != len(sh):
        raise GradcliError(f"shifts and dimensions must align. shifts: {len(sh)}, dims:{len(ds)}")
    picks: dict[int, np.ndarray] = {}
    for s, d in zip(sh, ds):
        dd = C.check_dim(d, x.ndim)
        n = x.shape[dd] if x.ndim else 1
        base = picks.get(dd, np.arange(n))
        picks[dd] = base[(np.arange(n) - s) % n] if n else base
    if x.ndim == 0:
        return _copy(x, "RollBackward0")
    return _take_along(x, picks, "RollBackward0")


def tile(x: Any, dims: Any) -> Tensor:
    x = A.tensor_arg(x, "input")
    reps = C.shape_arg(dims if isinstance(dims, (list, tuple)) else (dims,), "dims")
    if len(reps) < x.ndim:
        reps = (1,) * (x.ndim - len(reps)) + tuple(reps)
    from .composite import repeat

    return repeat(x, *reps)


def narrow(x: Any, dim: Any, start: Any, length: Any) -> Tensor:
    x = A.tensor_arg(x, "input")
    if x.ndim == 0:
        raise GradcliError("narrow() cannot be applied to a 0-dim tensor.")
    d = C.check_dim(dim, x.ndim)
    s, n = C.int_arg(start, "start"), C.int_arg(length, "length")
    size = x.shape[d]
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
    return apply(S.index, x, idx=idx, label="SliceBackward0")


def _index_vector(index: Any, fn: str, name: str = "index") -> np.ndarray:
    if not isinstance(index, Tensor):
        raise GradcliError(
            f"{fn}(): argument '{name}' must be Tensor, not {typename(index)}"
        ).mirror("TypeError")
    if index.dtype.kind not in "iu":
        raise GradcliError(f"{fn}(): Expected dtype int32 or int64 for index")
    return index.data.astype(np.int64)


def index_select(x: Any, dim: Any, index: Any) -> Tensor:
    x = A.tensor_arg(x, "input")
    d = C.check_dim(dim, x.ndim)
    idx = _index_vector(index, "index_select")
    if idx.ndim > 1:
        raise GradcliError("index_select(): Index is supposed to be a vector").mirror("IndexError")
    idx = idx.reshape(-1)
    n = x.shape[d] if x.ndim else 1
    bad = idx[(idx < 0) | (idx >= n)]
    if bad.size:
        raise GradcliError(f"INDICES element is out of DATA bounds, id={int(bad[0])} axis_dim={n}")
    if x.ndim == 0:
        x = F.reshape(x, 1)
    return _take_along(x, {d: idx}, "IndexSelectBackward0")


def masked_select(x: Any, mask: Any) -> Tensor:
    x = A.tensor_arg(x, "input")
    if not isinstance(mask, Tensor) or mask.dtype != np.bool_:
        raise GradcliError("masked_select: expected BoolTensor for mask")
    shape = A.broadcast_shape(x, mask)
    if x.shape != shape:
        x = F.expand(x, shape)
    m = np.broadcast_to(mask.data, shape)
    return apply(S.index, x, idx=(m,), label="MaskedSelectBackward0")


def take(x: Any, index: Any) -> Tensor:
    x = A.tensor_arg(x, "input")
    if not isinstance(index, Tensor):
        raise GradcliError(
            f"take(): argument 'index' (position 2) must be Tensor, not {typename(index)}"
        ).mirror("TypeError")
    if index.dtype != np.int64:
        name = {"f": "Float", "b": "Bool"}.get(index.dtype.kind, "Int")
        if index.dtype == np.float64:
            name = "Double"
        raise GradcliError(f"take(): Expected a long tensor for index, but got {name}")
    n = x.numel()
    idx = index.data
    bad = idx[(idx < -n) | (idx >= n)]
    if bad.size:
        raise GradcliError(
            f"out of range: tried to access index {int(bad.reshape(-1)[0])} on a tensor of "
            f"{n} elements."
        ).mirror("IndexError")
    flat = apply(S.reshape, x, shape=(n,), label="ViewBackward0")
    return apply(S.index, flat, idx=(idx % n if n else idx,), label="TakeBackward0")


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
    r = int(r)
    if r < 0:
        raise GradcliError("Repeats must be non-negative")
    if x.ndim == 0:
        x = F.reshape(x, 1)
    A.size_check(x.shape[:d] + (n * r,) + x.shape[d + 1 :], "the repeated tensor")
    wide = F.expand(F.unsqueeze(x, d + 1), x.shape[: d + 1] + (r,) + x.shape[d + 1 :])
    return F.reshape(wide, x.shape[:d] + (n * r,) + x.shape[d + 1 :])


def _counts(t: Tensor, n: int | None, d: int = 0) -> np.ndarray:
    if t.dtype.kind not in "iu":
        raise GradcliError("repeat_interleave: repeats has to be Long or Int tensor")
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


def diff(x: Any, n: Any = 1, dim: Any = -1, prepend: Any = None, append: Any = None) -> Tensor:
    x = A.tensor_arg(x, "input")
    if x.ndim == 0:
        raise GradcliError("diff expects input to be at least one-dimensional")
    k = C.int_arg(n, "n")
    if k < 0:
        raise GradcliError(f"order must be non-negative but got {k}")
    d = C.check_dim(dim, x.ndim)
    parts = []
    for name, t in (("prepend", prepend), ("append", append)):
        if t is None:
            continue
        if not isinstance(t, Tensor):
            raise GradcliError(
                f"diff(): argument '{name}' must be Tensor, not {typename(t)}"
            ).mirror("TypeError")
        if t.ndim != x.ndim:
            raise GradcliError("diff expects prepend or append to be the same dimension as input")
        for i in range(x.ndim):
            if i != d and t.shape[i] != x.shape[i]:
                raise GradcliError(
                    "diff expects the shape of tensor to prepend or append to match that of "
                    f"input except along the differencing dimension; input.size({i}) = "
                    f"{x.shape[i]}, but got tensor.size({i}) = {t.shape[i]}"
                )
        parts.append((name, t))
    if parts:
        pre = [t for name, t in parts if name == "prepend"]
        post = [t for name, t in parts if name == "append"]
        x = F.cat(pre + [x] + post, dim=d)
    if k == 0:
        return _copy(x, "torch::autograd::CopyBackwards")
    # Each difference is one shorter: past the size there is nothing left to difference.
    k = builtins.min(k, x.shape[d])
    # The k differences make k tensors, of k * (m - (k+1)/2) rows along dim in all.
    m = x.shape[d]
    rest = x.numel() // m if m else 0
    limits.TENSOR_ELEMENTS.check(
        k * (2 * m - k - 1) // 2 * rest, f"the elements of the {k} differences diff(n={k}) makes"
    )
    lead = (slice(None),) * d
    for _ in range(k):
        m = x.shape[d]
        hi = apply(S.index, x, idx=lead + (slice(1, m),), label="SliceBackward0")
        lo = apply(
            S.index, x, idx=lead + (slice(0, builtins.max(m - 1, 0)),), label="SliceBackward0"
        )
        if x.dtype == np.bool_:
            x = Tensor(hi.data != lo.data)
        else:
            x = A.sub_t(hi, lo)
    return x


NAMES = declare(
    ("flip", "torch", flip, "composition of index"),
    ("flip", "Tensor", flip_method, "composition of index reshape"),
    ("fliplr", "torch Tensor", fliplr, "composition of index"),
    ("flipud", "torch Tensor", flipud, "composition of index"),
    ("roll", "torch Tensor", roll, "composition of index reshape"),
    ("tile", "torch Tensor", tile, "composition of expand reshape"),
    ("narrow", "torch Tensor", narrow, "composition of index"),
    ("index_select", "torch Tensor", index_select, "composition of index"),
    ("masked_select", "torch Tensor", masked_select, "composition of index"),
    ("take", "torch Tensor", take, "composition of index reshape"),
    ("repeat_interleave", "torch Tensor", repeat_interleave, "composition of expand reshape"),
    ("diff", "torch Tensor", diff, "composition of index sub"),
)
