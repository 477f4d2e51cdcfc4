"""PyTorch functions that are compositions of gradcli's operations.

Each is written with the registry's differentiable operations (so its gradient, its Jacobian,
its Hessian and its sympy form come from theirs, and need no rule of its own); constants such
as masks are built with NumPy. They are registered into `names.FUNCTIONS` / `METHODS` / `MODULES`.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core.dtypes import scalar_type_name
from ..core.layout import row_major
from ..core.op import apply, link_siblings, peek_seq
from ..core.primitives import check_reduced
from ..core.tensor import Tensor, typename
from ..ops import activation as Ac
from ..ops import arithmetic as A
from ..ops import binary as B
from ..ops import loss as Lo
from ..ops import shape as S
from . import args as C
from . import constructors as K
from . import functional as F
from . import indexing as I
from . import nn
from . import nnfunctional as NF
from .declare import declare


def linear(input: Any, weight: Any, bias: Any = None) -> Tensor:  # noqa: A002
    """`F.linear`: input @ weight^T + bias."""
    # (PyTorch's parser's TypeError for anything but a tensor, from nn.Linear's forward too)
    x, w = (
        A.tensor_param(input, "linear", "input", 1),
        A.tensor_param(weight, "linear", "weight", 2),
    )
    return F.linear_forward(x, w, bias)


def silu(input: Any, inplace: bool = False) -> Tensor:
    """`F.silu`: one record (ATen's kernels: its float32 bits, forward and backward)."""
    t = NF._float_input(input, "silu_cpu")
    return NF._maybe_inplace(t, inplace, lambda v: apply(Ac.silu, v))


def logsigmoid(input: Any) -> Tensor:
    return apply(Ac.logsigmoid, NF._float_input(input, "log_sigmoid_cpu"))


@C.legacy_reductions
def l1_loss(
    input: Any,
    target: Any,
    size_average: Any = None,
    reduce: Any = None,  # noqa: A002
    reduction: str = "mean",
    weight: Any = None,
) -> Tensor:
    input, target = C.sized_pair(input, target)
    C.target_size_warning(input, target)
    d = A.abs(A.sub_t(input, target))
    if weight is not None:
        from .losses import weighted_loss

        return weighted_loss(d, weight, input, reduction, by_weight=True)
    r = C.reduction_arg(reduction)
    return d if r == "none" else (F.mean(d) if r == "mean" else F.sum(d))


@C.legacy_reductions
def binary_cross_entropy_with_logits(
    input: Any,
    target: Any,
    weight: Any = None,  # noqa: A002
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    pos_weight: Any = None,
) -> Tensor:
    x, t = C.sized_pair(input, target)
    C.float_kernel(x, "log_sigmoid_cpu", "f")
    if t.shape != x.shape:
        raise GradcliError(
            f"Target size (torch.Size({list(t.shape)})) must be the same as input size "
            f"(torch.Size({list(x.shape)}))"
        ).mirror("ValueError")
    r = C.reduction_arg(reduction)
    C.not_differentiable(weight, "binary_cross_entropy_with_logits", "weight")
    C.not_differentiable(pos_weight, "binary_cross_entropy_with_logits", "pos_weight")
    if t.dtype == np.bool_:
        # ATen's first step, 1 - target, in the target's dtype
        raise (
            GradcliError(
                "Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
                "`^` or `logical_xor()` operator instead.",
                hint="make the target float: target.float()",
            )
            .mirror("RuntimeError")
            .pytorch()
        )
    if t.dtype.kind in "iu":
        raise GradcliError(
            f"result type {scalar_type_name(x.dtype)} can't be cast to the desired output type "
            f"{scalar_type_name(t.dtype)}",
            hint="make the target float: target.float()",
        ).mirror("RuntimeError")
    pw = None if pos_weight is None else A.tensor_arg(pos_weight, "pos_weight").data
    wd = None if weight is None else A.tensor_arg(weight, "weight").data
    floats = (np.float16, np.float32, np.float64)
    if (
        (t.dtype == x.dtype or (t.dtype in floats and x.dtype in floats))
        and builtins.all(
            a is None or a.dtype in (x.dtype, np.float16, np.float32, np.float64) for a in (pw, wd)
        )
        and np.broadcast_shapes(x.shape, *(a.shape for a in (pw, wd) if a is not None)) == x.shape
    ):
        # One record, whose backward is PyTorch's formula in its order (its float32 bits); with
        # a target of another float dtype the loss has the target's (ATen works in place on it)
        w = None if wd is None else np.broadcast_to(wd, x.shape)
        p = None if pw is None else np.broadcast_to(pw, x.shape)
        return apply(Lo.binary_cross_entropy_with_logits, x, t, weight=w, reduction=r, pos_weight=p)
    if pos_weight is None:
        # softplus(x) - x t: stable for large |x| (softplus is computed without overflow).
        loss = A.sub_t(F.softplus(x), A.mul_t(x, t))
    else:
        # (1 - t) x + (1 + (pos_weight - 1) t) softplus(-x), as PyTorch weighs the positives
        lw = A.add_t(A.mul_t(A.sub_t(pos_weight, 1), t), 1)
        loss = A.add_t(A.mul_t(A.sub_t(1, t), x), A.mul_t(lw, F.softplus(A.neg(x))))
    if weight is not None:
        loss = A.mul_t(loss, weight)
    out = loss if r == "none" else (F.mean(loss) if r == "mean" else F.sum(loss))
    return A.named(out, "BinaryCrossEntropyWithLogitsBackward0")


def torch_binary_cross_entropy_with_logits(
    input: Any,  # noqa: A002 - torch's C++ function: pos_weight 4th, an int reduction 5th
    target: Any,
    weight: Any = None,
    pos_weight: Any = None,
    reduction: Any = 0,
) -> Tensor:
    r = C.c_reduction(reduction, "binary_cross_entropy_with_logits", 5)
    return binary_cross_entropy_with_logits(
        input, target, weight, reduction=r, pos_weight=pos_weight
    )


def masked_fill(x: Any, mask: Any, value: Any) -> Tensor:
    x = A.tensor_arg(x, "input")
    m = mask if isinstance(mask, Tensor) else Tensor(np.asarray(mask, dtype=bool))
    return A.named(F.where(m, value, x), "MaskedFillBackward0")


def _tri(upper: bool) -> Any:
    def tri(input: Any, diagonal: int = 0) -> Tensor:
        input = A.tensor_arg(input, "input")
        if input.ndim < 2:
            raise GradcliError(
                f"{'triu' if upper else 'tril'}: input tensor must have at least 2 dimensions"
            )
        n, m = input.shape[-2:]
        diagonal = C.parsed_int(diagonal)
        keep = np.triu(np.ones((n, m)), diagonal) if upper else np.tril(np.ones((n, m)), diagonal)
        # a selection, not a product with the mask: -inf (a causal mask) and nan outside the
        # triangle become exact zeros, as PyTorch's (0 * -inf would be nan)
        since = peek_seq()
        out = apply(B.where, Tensor(keep.astype(bool)), input, Tensor(np.zeros((), input.dtype)))
        # PyTorch's TrilBackward0 / TriuBackward0 save nothing: a backward leaves them
        out.data = row_major(out.data)  # (ATen's tril/triu: a row-major result)
        return A.frees_nothing(A.named(out, "TriuBackward0" if upper else "TrilBackward0"), since)

    return tri


tril = _tri(False)
triu = _tri(True)


def diagonal(input: Any, offset: Any = 0, dim1: Any = 0, dim2: Any = 1) -> Tensor:
    """`torch.diagonal` / `x.diagonal()`: the elements (i, i + offset) of the planes spanned by
    dim1 and dim2, as the last dimension: a view of x, as PyTorch's."""
    out = _diagonal(input, offset, dim1, dim2, view=True)
    return A.shown_over(out, input) if isinstance(input, Tensor) else out


def _diagonal(x: Any, offset: Any, dim1: Any, dim2: Any, *, view: bool) -> Tensor:
    x = A.tensor_arg(x, "input")
    k = C.int_arg(offset, "offset")
    d1, d2 = C.check_dim(dim1, x.ndim), C.check_dim(dim2, x.ndim)
    if d1 == d2:
        raise GradcliError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    rest = [d for d in range(x.ndim) if d not in (d1, d2)]
    y = x if rest + [d1, d2] == list(range(x.ndim)) else F.permute(x, *rest, d1, d2)
    n1, n2 = x.shape[d1], x.shape[d2]
    count = max(0, min(n1, n2 - k) if k >= 0 else min(n1 + k, n2))
    f_only = x.data.flags.f_contiguous and not x.data.flags.c_contiguous
    if view and x.ndim == 2 and count > 0 and f_only:
        # a transposed matrix: the diagonal -k of the contiguous one it views, the same elements
        # in the same order
        return _diagonal(F.permute(x, 1, 0), -k if (d1, d2) == (0, 1) else k, 0, 1, view=True)
    if view and x.ndim == 2 and (d1, d2) == (1, 0):
        return _diagonal(F.permute(x, 1, 0), k, 0, 1, view=True)
    if view and x.ndim == 2 and (d1, d2) == (0, 1) and count > 0 and x.data.flags.c_contiguous:
        # A view, as PyTorch's: every (n2 + 1)-th element of the flattened matrix, so that a
        # change through it (`a.diagonal().add_(1)`, a draw into it) reaches x, and a draw
        # fills it in PyTorch's order (not contiguous).
        start = k if k >= 0 else -k * n2
        flat = F.reshape(x, -1)
        out = I.getitem(flat, slice(start, start + (count - 1) * (n2 + 1) + 1, n2 + 1))
        return A.named(out, "DiagonalBackward0")
    if view and count > 0:
        # A view of x's storage, as PyTorch's (a batch of matrices, a strided matrix): the
        # step of each other dimension, and one of both dims' steps along the diagonal, so a
        # change through it (`K.diagonal(dim1=-2, dim2=-1).add_(eps)`) reaches x.
        from .predicates import as_strided, storage_offset, stride

        st = stride(x)
        size = [x.shape[d] for d in rest] + [count]
        steps = [st[d] for d in rest] + [st[d1] + st[d2]]
        start = storage_offset(x) + (k * st[d2] if k >= 0 else -k * st[d1])
        return A.named(as_strided(x, size, steps, start), "DiagonalBackward0")
    rows = np.arange(count) + max(0, -k)
    out = I.getitem(y, (Ellipsis, Tensor(rows), Tensor(rows + k)))
    return A.named(out, "DiagonalBackward0")


def _picked(flat_parts: list[Tensor], ids: np.ndarray, label: str) -> Tensor:
    """The elements of `flat_parts` (1-D, one dtype) laid out by `ids` (positions in their
    concatenation; `-1`: a zero): one index record, so the gradient is index's."""
    zero = Tensor(np.zeros(1, flat_parts[0].dtype))
    source = apply(S.cat, *flat_parts, zero, dim=0) if flat_parts else zero
    total = builtins.sum(t.data.size for t in flat_parts)
    picks = np.where(ids < 0, total, ids).astype(np.intp)
    return A.named(apply(S.index, source, idx=(picks,)), label)


def _flat(t: Tensor) -> Tensor:
    return F.reshape(t, -1) if t.ndim != 1 else t


def diag_embed(input: Any, offset: Any = 0, dim1: Any = -2, dim2: Any = -1) -> Tensor:
    """`torch.diag_embed(x, offset, dim1, dim2)`: the last dim of x as the diagonal (`offset`
    above the main one) of new square matrices in dims (dim1, dim2) (DiagEmbedBackward0)."""
    input = A.tensor_arg(input, "input")
    off = C.int_arg(offset, "offset")
    nd = input.ndim + 1
    d1, d2 = C.check_dim(dim1, nd), C.check_dim(dim2, nd)
    if d1 == d2:
        raise GradcliError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    n = input.shape[-1] if input.ndim else 1
    m = n + builtins.abs(off)
    lead = input.shape[:-1] if input.ndim else ()
    A.size_check((*lead, m, m), "the torch.diag_embed() result")
    ids = np.full((*lead, m, m), -1, np.int64)
    i = np.arange(n)
    ids[..., i + builtins.max(-off, 0), i + builtins.max(off, 0)] = np.arange(
        input.data.size
    ).reshape((*lead, n))
    ids = np.moveaxis(ids, [-2, -1], [d1, d2])
    return A.shown_over(_picked([_flat(input)], ids, "DiagEmbedBackward0"), input)


def diag(input: Any, diagonal: int = 0) -> Tensor:
    input = A.tensor_arg(input, "input")
    if input.ndim == 2:
        # a copy, as PyTorch's diag: its node is diagonal_copy's (DiagonalBackward0_copy)
        return A.named(_diagonal(input, diagonal, 0, 1, view=False), "DiagonalBackward0_copy")
    if input.ndim == 1:
        return diag_embed(input, diagonal)
    raise GradcliError(f"diag(): Supports 1D or 2D tensors. Got {input.ndim}D")


diagonal_of = diagonal


def trace(input: Any) -> Tensor:
    input = C.float_kernel(A.tensor_arg(input, "input"), "trace", "fciu")
    if input.ndim != 2:
        raise GradcliError(f"trace: expected a matrix, but got tensor with dim {input.ndim}")
    out = A.shown_over(A.named(F.sum(diag(input)), "TraceBackward0"), input)
    if input.data.dtype == np.float32 and input.data.size:
        # PyTorch's CPU trace adds the diagonal in order in its accumulation type, double for
        # float, and rounds once; a float sum can differ in the last bit (4.7015166 against
        # 4.7015171 for a 50 x 50 randn). The same value, rounded as PyTorch's (the graph and
        # gradient are the sum's).
        total = np.cumsum(np.diagonal(input.data), dtype=np.float64)[-1]
        out.data = np.asarray(np.float32(total))
    return out


def _multi_views(outs: tuple[Tensor, ...], fn: str) -> tuple[Tensor, ...]:
    """The outputs of a function that returns several views (`split`, `chunk`, `unbind`, and
    so iterating a tensor): as PyTorch's, one made while gradients are recorded may not be
    changed in place (its error names `fn`: "Output 0 of Unbind is a view ...")."""
    from ..core.inplace import mark_custom_view
    from ..core.tensor import grad_enabled

    if grad_enabled():
        for i, o in enumerate(outs):
            if o.requires_grad:
                mark_custom_view(o, i, fn, several=True)
        link_siblings(outs)
    return outs


def _pieces(
    x: Tensor, dim: int, sizes: list[int], fn: str = "Split", asked: int | None = None
) -> tuple[Tensor, ...]:
    """The pieces of `x` along `dim` (`asked`: split's split_size, which PyTorch's node
    saves; else the sizes, split_with_sizes')."""
    from ..ops.shape import PIECE_SIZES

    d = C.check_dim(dim, x.ndim)
    out, start = [], 0
    saved = asked if asked is not None else tuple(sizes)
    for s in sizes:
        idx = (slice(None),) * d + (slice(start, start + s),)
        piece = I.index_as(x, idx, f"{fn}Backward0")
        if piece.node is not None:
            PIECE_SIZES[piece.node] = saved
        out.append(piece)
        start += s
    return _multi_views(tuple(out), fn)


def split_method(self: Any, split_size: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """`x.split(split_size, dim=0)`: PyTorch's method names its size `split_size` (the
    function's `split_size_or_sections`)."""
    return split(self, split_size, dim)


def split(tensor: Any, split_size_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    tensor = A.tensor_arg(tensor, "input")
    n = tensor.shape[C.check_dim(dim, tensor.ndim)]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [C.int_arg(s, "split size") for s in split_size_or_sections]
        if sum(sizes) != n:
            raise GradcliError(
                f"split_with_sizes expects split_sizes to sum exactly to {n} "
                f"(input tensor's size at dimension {dim}), but got "
                f"split_sizes={sizes}"
            )
    else:
        size = C.int_arg(split_size_or_sections, "split size")
        if size <= 0:
            raise GradcliError("split expects split_size be positive")
        sizes = [min(size, n - i) for i in range(0, n, size)]
        return _pieces(tensor, dim, sizes, asked=size)
    return _pieces(tensor, dim, sizes, "SplitWithSizes")


def split_with_sizes(input: Any, split_sizes: Any, dim: int = 0) -> tuple[Tensor, ...]:  # noqa: A002
    """`torch.split_with_sizes(x, sizes, dim)`: split with a list of sizes."""
    if not isinstance(split_sizes, (list, tuple)):
        raise GradcliError(
            "split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of ints, "
            f"not {typename(split_sizes)}"
        ).mirror("TypeError")
    return split(input, list(split_sizes), dim)


def chunk(input: Any, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    input = A.tensor_arg(input, "input")
    c = C.int_arg(chunks, "chunks")
    if c <= 0:
        raise GradcliError("chunk expects `chunks` to be greater than 0")
    n = input.shape[C.check_dim(dim, input.ndim)]
    size = -(-n // c) if n else 1
    return split(input, size, dim)


def unbind(input: Any, dim: int = 0) -> tuple[Tensor, ...]:
    input = A.tensor_arg(input, "input")
    d = C.check_dim(dim, input.ndim)
    return _multi_views(
        tuple(
            I.index_as(input, (slice(None),) * d + (i,), "UnbindBackward0")
            for i in range(input.shape[d])
        ),
        "Unbind",
    )


def repeat(x: Any, *sizes: Any, **kwargs: Any) -> Tensor:
    x = A.tensor_arg(x, "input")
    # x.repeat(repeats=(2, 1)): PyTorch's parser names the sizes `repeats`
    if not sizes and not kwargs:  # (none at all: the parser's TypeError, even for a 0-d x)
        raise GradcliError('repeat() missing 1 required positional arguments: "repeats"').mirror(
            "TypeError"
        )
    sizes = C.int_list_keyword("repeat", "repeats", sizes, kwargs)
    reps = C.shape_arg(sizes, "repeats", fn="repeat")
    if len(reps) < x.ndim:
        raise GradcliError(
            "Number of dimensions of repeat dims can not be smaller than number "
            "of dimensions of tensor"
        )
    shape = (1,) * (len(reps) - x.ndim) + x.shape
    A.size_check(tuple(r * s for r, s in zip(reps, shape)), "the repeated tensor")
    inter = F.reshape(x, tuple(v for s in shape for v in (1, s)))
    big = F.expand(inter, tuple(v for r, s in zip(reps, shape) for v in (r, s)))
    out = F.reshape(big, tuple(r * s for r, s in zip(reps, shape)))
    if not out.data.flags.owndata:
        # PyTorch's repeat is a new tensor: never a view of x (x.add_(1) later must not show
        # in it) nor one whose elements share memory (its .add_() and an optimizer's step on
        # it are allowed)
        out = F.clone(out)
    return A.shown_over(A.named(out, "RepeatBackward0"), x)


def gather(input: Any, dim: int, index: Any, *, sparse_grad: bool = False) -> Tensor:
    input = A.tensor_arg(input, "input")
    if sparse_grad:
        raise NotSupported(
            "gather(..., sparse_grad=True) (a sparse gradient) is not supported by gradcli",
            hint="drop sparse_grad=True: the gradient is the same values, dense",
        )
    # (a list is not an index; torch.gather's own call is checked before, its position 3)
    idx = A.tensor_param(index, "gather", "index", 3)
    d = C.check_dim(dim, input.ndim)
    if idx.dtype not in (np.int32, np.int64):
        raise GradcliError("gather(): Expected dtype int32/int64 for index")
    if idx.ndim != input.ndim and idx.data.size:
        raise GradcliError("Index tensor must have the same number of dimensions as input tensor")
    ind = idx.data.astype(np.int64)
    if ind.size and input.ndim:  # ATen's scatter_gather shape check, then its bounds check
        for i, (n, m) in enumerate(zip(ind.shape, input.shape)):
            if i != d and n > m:
                raise GradcliError(
                    f"Size does not match at dimension {i} expected index {list(ind.shape)} to "
                    f"be no larger than self {list(input.shape)} apart from dimension {d}"
                )
    if ind.size:
        from .scatter import _bounds

        _bounds(ind, input.shape[d] if input.ndim else 1, d)
    if ind.size == 0 and ind.ndim != input.ndim:
        # an empty index of any shape gathers nothing: an empty result of its shape (and a
        # gradient of zeros), as PyTorch's
        flat = F.reshape(input, (-1,))
        return A.named(I.getitem(flat, (Tensor(ind),)), "GatherBackward0")
    if input.ndim == 0:
        # a scalar's only element, by a 0-d index (0 or -1), as PyTorch's gather of one
        one = gather(F.reshape(input, (1,)), 0, Tensor(ind.reshape(1)))
        return A.named(F.reshape(one, ()), "GatherBackward0")
    grids = list(np.indices(ind.shape, sparse=True))
    grids[d] = ind
    out = I.getitem(input, tuple(Tensor(np.broadcast_to(g, ind.shape)) for g in grids))
    return A.named(out, "GatherBackward0")


def take_along_dim(input: Any, indices: Any, dim: Any = None) -> Tensor:
    """`torch.take_along_dim(x, indices, dim)`: gather after broadcasting x and the indices on
    every dim but `dim`; without a dim, of the flattened tensors (PyTorch's composition)."""
    input = A.tensor_arg(input, "input")
    idx = indices if isinstance(indices, Tensor) else Tensor(np.asarray(indices))
    if dim is not None and input.ndim != idx.ndim:
        raise GradcliError(
            "torch.take_along_dim(): input and indices should have the same number of "
            f"dimensions, but got {input.ndim} dimensions for input, and {idx.ndim} dimensions "
            "for indices"
        )
    if idx.dtype != np.int64:  # (int32 as well: ATen checks for Long alone)
        raise GradcliError(
            "torch.take_along_dim(): dtype of indices should be Long but got "
            + scalar_type_name(idx.dtype)
        )
    if dim is None:
        # (without a dim a negative index is gather's error, as PyTorch's)
        return gather(F.reshape(input, -1), 0, Tensor(idx.data.reshape(-1)))
    d = C.check_dim(dim, input.ndim)
    shape = []
    for k, (a, b) in enumerate(zip(input.shape, idx.shape)):
        if k != d and a != b and 1 not in (a, b):
            raise GradcliError(
                f"The size of tensor a ({a}) must match the size of tensor b ({b}) at "
                f"non-singleton dimension {k}"
            )
        shape.append(max(a, b) if a and b else 0)
    xs = tuple(input.shape[k] if k == d else n for k, n in enumerate(shape))
    ids = tuple(idx.shape[k] if k == d else n for k, n in enumerate(shape))
    A.size_check(ids, "take_along_dim output")
    if xs != input.shape:
        input = F.expand(input, xs)
    return gather(input, d, Tensor(_wrapped(np.broadcast_to(idx.data, ids), input.shape[d])))


def _wrapped(ind: np.ndarray, size: int) -> np.ndarray:
    """take_along_dim's indices along a dim: a negative one counts from the end, as PyTorch's
    (gather refuses them)."""
    return np.where((ind < 0) & (ind >= -size), ind + size, ind)


class _NotGiven:
    """sort's `stable` when the call does not give it (PyTorch's `sort.stable` overload,
    whose node is SortBackward1, is the one taking it, even as False or None)."""

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "False"


_NOT_GIVEN = _NotGiven()


def _sorted(fn: str) -> Any:
    def run(
        x: Any,
        k: Any = None,
        dim: int = -1,
        largest: bool = True,
        sorted: bool = True,
        descending: bool = False,
        stable: Any = _NOT_GIVEN,
    ) -> Any:
        x = A.tensor_arg(x, "input")
        d = C.check_dim(dim, x.ndim)
        down = largest if fn == "topk" else descending
        kk = None
        if fn == "topk":
            kk = C.int_arg(k, "k")
            # (a 0-d tensor has one element along its one implicit dimension)
            if not 0 <= kk <= (x.shape[d] if x.ndim else 1):
                raise GradcliError("selected index k out of range")
        name = "TopkBackward0" if fn == "topk" else "SortBackward0"
        if fn == "sort" and stable is not _NOT_GIVEN:
            name = "SortBackward1"
        if x.ndim == 0:
            # PyTorch returns the element itself, in a new tensor of this node, whatever k
            # (0 or 1): a copy, not the input (a change in place of one is not seen in the other)
            zero = Tensor(np.zeros((), dtype=np.int64))
            return F.MaxMin(A.named(gather(x, 0, zero), name), zero, fn)
        order = _order(x.data, d, bool(down), bool(stable), kk, bool(sorted))
        values = A.named(gather(x, d, Tensor(order)), name)
        indices = Tensor(order.astype(np.int64))
        if fn == "sort":  # (ATen's sort fills tensors laid out as the input; topk's are row-major)
            from .sampling import laid_out_like

            values.data = laid_out_like(values.data, x.data)
            indices.data = laid_out_like(indices.data, x.data)
        return F.MaxMin(values, indices, fn)

    return run


# Past this many elements in the slices that need it, std::sort's order of equal values is
# not reproduced (a Python emulation: about a second): such slices keep index order.
_TIE_ORDER_MAX = 50_000


def _order(
    data: np.ndarray, d: int, down: bool, stable: bool, k: int | None, sorted_: bool
) -> np.ndarray:
    """The positions along `d` in PyTorch's order: stable (equal values in index order; NaN
    last ascending, first descending), or, as ATen's CPU sort without stable and topk do,
    libstdc++'s std::sort / nth_element / partial_sort on (value, index) pairs, whose order of
    equal values is their own past 16 elements (core/stdalgo.py)."""
    moved = np.moveaxis(data, d, -1)
    n = moved.shape[-1]
    if down:  # stable descending: the stable ascending order of the reversed slice, reversed
        order = n - 1 - np.argsort(moved[..., ::-1], axis=-1, kind="stable")[..., ::-1]
    else:
        order = np.argsort(moved, axis=-1, kind="stable")
    if k is not None:
        order = order[..., :k]
    # (topk's selection is not stable at any size; std::sort is insertion sort up to 16)
    emulate = k is not None or (not stable and n > 16)
    if emulate and n > 1:
        flat = moved.reshape(-1, n)
        flat_order = order.reshape(flat.shape[0], -1).copy()
        ranked = np.take_along_axis(flat, np.argsort(flat, axis=-1, kind="stable"), axis=-1)
        with np.errstate(invalid="ignore"):
            same = (ranked[:, 1:] == ranked[:, :-1]) | (
                (ranked[:, 1:] != ranked[:, 1:]) & (ranked[:, :-1] != ranked[:, :-1])
            )
        rows = np.flatnonzero(same.any(axis=1) if k is None or sorted_ else np.ones(len(flat)))
        if rows.size * n <= _TIE_ORDER_MAX:
            from ..core.stdalgo import sort_order, topk_order

            for r in rows:
                values = flat[r].tolist()
                flat_order[r] = (
                    sort_order(values, down)
                    if k is None
                    else topk_order(values, k, largest=down, sorted=sorted_)
                )
            order = flat_order.reshape(order.shape)
    return np.moveaxis(order, -1, d)


def sort(input: Any, dim: int = -1, descending: bool = False, stable: Any = _NOT_GIVEN) -> Any:
    return _sorted("sort")(input, dim=dim, descending=descending, stable=stable)


def topk(input: Any, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:  # noqa: A002
    A.int_param(k, "topk", "k", 2)
    if isinstance(input, Tensor) and input.dtype == np.bool_:
        raise GradcliError("topk does not support bool dtypes on CPU").mirror("RuntimeError")
    return _sorted("topk")(input, k, dim=dim, largest=largest, sorted=sorted)


def one_hot(input: Any, num_classes: int = -1) -> Tensor:
    input = input if isinstance(input, Tensor) else Tensor(np.asarray(input))
    # ATen's checks in its order: int64 only (an int32, a bool or a float tensor of whole
    # numbers is refused as well), an empty tensor needs a number of classes, then the values
    if input.dtype != np.int64:
        raise GradcliError("one_hot is only applicable to index tensor of type LongTensor.")
    if isinstance(num_classes, Tensor):  # (`num_classes=y.max() + 1`: its index, as PyTorch)
        from .args import int_arg

        num_classes = int_arg(num_classes, "num_classes")
    ind, n = input.data, int(num_classes)
    if not ind.size:
        if n <= 0:
            raise GradcliError("Can not infer total number of classes from empty tensor.")
    elif ind.min() < 0:
        raise GradcliError("Class values must be non-negative.")
    elif n == -1:
        n = int(ind.max()) + 1
    elif n <= ind.max():
        raise GradcliError("Class values must be smaller than num_classes.")
    # A row of the table is `n` elements, even when there are no rows (PyTorch makes an empty
    # tensor of any width; the comparison below would first make the n class numbers).
    A.size_check((n,), "one_hot's number of classes")
    A.size_check(ind.shape + (n,), "the one-hot tensor")
    return Tensor((np.arange(n) == ind[..., None]).astype(np.int64))


def _logical(fn: str) -> Any:
    reduce = np.all if fn == "all" else np.any

    def f(input: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
        input = A.tensor_arg(input, "input")
        d = C.dims_arg(dim, input.ndim)
        check_reduced(input.data, d, bool(keepdim), fn)
        return Tensor(np.asarray(reduce(input.data, axis=d, keepdims=bool(keepdim))))

    f.__name__ = fn
    return f


all = _logical("all")  # noqa: A001 - torch.all


any = _logical("any")  # noqa: A001 - torch.any


def _new(fill: Any) -> Any:
    def make(
        x: Tensor,
        *sizes: Any,
        size: Any = C.NO_SIZE,
        dtype: Any = None,
        requires_grad: bool = False,
        device: Any = None,
    ) -> Tensor:
        dt = x.dtype if dtype is None else dtype
        if sizes:  # the parser's errors name the method
            C.int_list(sizes, "new_" + fill.__name__)
        given = sizes or ((size,) if isinstance(size, (tuple, list)) else ())
        if given:  # the shared size check's words (zeros' own message is torch.zeros' only)
            C.shape_arg(given)
        return fill(*sizes, size=size, dtype=dt, requires_grad=requires_grad)

    return make


def new_tensor(
    x: Tensor, data: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None
) -> Tensor:
    K.copy_construct_warning(data, "tensor.new_tensor(sourceTensor)")
    return K.made_tensor(data, x.dtype if dtype is None else dtype, requires_grad)


def new_full(
    x: Tensor,
    size: Any,
    fill_value: Any,
    dtype: Any = None,
    requires_grad: bool = False,
    device: Any = None,
) -> Tensor:
    return K.full(
        size, fill_value, dtype=x.dtype if dtype is None else dtype, requires_grad=requires_grad
    )


_L1 = ("size_average", "reduce", "reduction")
_BCE = ("weight", "size_average", "reduce", "reduction")
NAMES = declare(
    ("silu", "torch Tensor", silu, "silu"),
    ("tril", "torch Tensor", tril, "composition of where"),
    ("triu", "torch Tensor", triu, "composition of where"),
    ("diag", "torch Tensor", diag, "composition of cat index"),
    ("diagonal", "torch Tensor", diagonal, "composition of as_strided index permute reshape"),
    ("trace", "torch Tensor", trace, "composition of index sum"),
    ("split", "torch", split, "composition of index"),
    ("split", "Tensor", split_method, "composition of index"),
    ("split_with_sizes", "torch Tensor", split_with_sizes, "composition of index"),
    ("chunk", "torch Tensor", chunk, "composition of index"),
    ("unbind", "torch Tensor", unbind, "composition of index"),
    ("gather", "torch Tensor", gather, "composition of index"),
    ("take_along_dim", "torch Tensor", take_along_dim, "composition of index reshape expand"),
    ("sort", "torch Tensor", sort, "composition of index"),
    ("topk", "torch Tensor", topk, "composition of index"),
    ("all", "torch Tensor", all, ""),
    ("any", "torch Tensor", any, ""),
    ("linear", "F", linear, "composition of matmul permute add"),
    ("logsigmoid", "F", logsigmoid, "logsigmoid"),
    ("l1_loss", "F", l1_loss, "composition of sub abs mean sum"),
    (
        "binary_cross_entropy_with_logits",
        "torch",
        torch_binary_cross_entropy_with_logits,
        "binary_cross_entropy_with_logits softplus neg mul sub add mean sum",
    ),
    (
        "binary_cross_entropy_with_logits",
        "F",
        binary_cross_entropy_with_logits,
        "binary_cross_entropy_with_logits softplus neg mul sub add mean sum",
    ),
    ("one_hot", "F", one_hot, ""),
    ("repeat", "Tensor", repeat, "composition of expand reshape clone"),
    ("new_zeros", "Tensor", C.sizes_required(_new(K.zeros), "new_zeros", "size"), ""),
    ("new_ones", "Tensor", C.sizes_required(_new(K.ones), "new_ones", "size"), ""),
    ("new_empty", "Tensor", C.sizes_required(_new(K.empty), "new_empty", "size"), ""),
    ("new_tensor", "Tensor", new_tensor, ""),
    ("new_full", "Tensor", new_full, ""),
    ("SiLU", "nn", nn._module("SiLU", silu), "silu"),
    ("LogSigmoid", "nn", nn._module("LogSigmoid", logsigmoid), "logsigmoid"),
    ("L1Loss", "nn", nn._module("L1Loss", l1_loss, _L1), "composition of sub abs mean sum"),
    (
        "BCEWithLogitsLoss",
        "nn",
        nn._module("BCEWithLogitsLoss", binary_cross_entropy_with_logits, _BCE),
        "binary_cross_entropy_with_logits softplus neg mul sub add mean sum",
    ),
)
