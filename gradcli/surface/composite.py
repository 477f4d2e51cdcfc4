"""PyTorch functions that are compositions of gradcli's operations.

Each is written with the registry's differentiable operations (so its gradient, its Jacobian,
its Hessian and its sympy form come from theirs, and need no rule of its own); constants such
as masks are built with NumPy. They are registered into `functional.FUNCTIONS` / `METHODS` /
`MODULES` at the end of `gradcli.functional`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.autograd import Tensor
from . import functional as f


def linear(input: Any, weight: Any, bias: Any = None) -> Tensor:  # noqa: A002
    """`F.linear`: input @ weight^T + bias."""
    x, w = f._tensor_arg(input, "input"), f._tensor_arg(weight, "weight")
    out = f.matmul(x, f.t(w) if w.ndim == 2 else w)
    return out if bias is None else f._named(f.add_t(out, bias), "AddmmBackward0")


def silu(x: Any, inplace: bool = False) -> Tensor:
    x = f._tensor_arg(x, "input")
    return f._named(f.mul_t(x, f.sigmoid(x)), "SiluBackward0")


def logsigmoid(x: Any) -> Tensor:
    x = f._tensor_arg(x, "input")
    return f._named(f.neg(f.softplus(f.neg(x))), "LogSigmoidBackward0")


def l1_loss(
    input: Any,
    target: Any,
    size_average: Any = None,
    reduce: Any = None,  # noqa: A002
    reduction: str = "mean",
) -> Tensor:
    d = f.abs_(f.sub_t(f._tensor_arg(input, "input"), target))
    r = f._reduction(reduction)
    return d if r == "none" else (f.mean(d) if r == "mean" else f.sum_(d))


def binary_cross_entropy_with_logits(
    input: Any,
    target: Any,
    weight: Any = None,  # noqa: A002
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    pos_weight: Any = None,
) -> Tensor:
    if pos_weight is not None:
        raise GradcliError("binary_cross_entropy_with_logits: pos_weight is not supported")
    x = f._tensor_arg(input, "input")
    t = target if isinstance(target, Tensor) else f._scalar_operand(target, x)
    # softplus(x) - x t: stable for large |x| (softplus is computed without overflow).
    loss = f.sub_t(f.softplus(x), f.mul_t(x, t))
    if weight is not None:
        loss = f.mul_t(loss, weight)
    r = f._reduction(reduction)
    out = loss if r == "none" else (f.mean(loss) if r == "mean" else f.sum_(loss))
    return f._named(out, "BinaryCrossEntropyWithLogitsBackward0")


def masked_fill(x: Any, mask: Any, value: Any) -> Tensor:
    x = f._tensor_arg(x, "input")
    m = mask if isinstance(mask, Tensor) else Tensor(np.asarray(mask, dtype=bool))
    return f._named(f.where(m, value, x), "MaskedFillBackward0")


def _tri(upper: bool) -> Any:
    def tri(x: Any, diagonal: int = 0) -> Tensor:
        x = f._tensor_arg(x, "input")
        if x.ndim < 2:
            raise GradcliError(
                f"{'triu' if upper else 'tril'}: input tensor must have at least 2 dimensions"
            )
        n, m = x.shape[-2:]
        keep = np.triu(np.ones((n, m)), diagonal) if upper else np.tril(np.ones((n, m)), diagonal)
        out = f.mul_t(x, Tensor(keep.astype(x.dtype)))
        return f._named(out, "TriuBackward0" if upper else "TrilBackward0")

    return tri


tril = _tri(False)
triu = _tri(True)


def diag(x: Any, diagonal: int = 0) -> Tensor:
    x = f._tensor_arg(x, "input")
    if diagonal != 0:
        raise GradcliError("diag: gradcli supports the main diagonal only (diagonal=0)")
    if x.ndim == 1:
        out = f.mul_t(f.unsqueeze(x, 0), Tensor(np.eye(x.shape[0], dtype=x.dtype)))
        return f._named(out, "DiagEmbedBackward0")
    if x.ndim == 2:
        k = np.arange(min(x.shape))
        return f._named(f.getitem(x, (Tensor(k), Tensor(k))), "DiagonalBackward0")
    raise GradcliError(f"diag: expected a 1-D or 2-D tensor, got {x.ndim}-D")


def trace(x: Any) -> Tensor:
    x = f._tensor_arg(x, "input")
    if x.ndim != 2:
        raise GradcliError(f"trace: expected a matrix, got a {x.ndim}-D tensor")
    return f._named(f.sum_(diag(x)), "TraceBackward0")


def cumsum(x: Any, dim: int, dtype: Any = None) -> Tensor:
    """Running sums along `dim`, as a product with a triangular matrix of ones."""
    x = f._tensor_arg(x, "input")
    if x.ndim == 0:
        return x
    d = f._check_dim(dim, x.ndim)
    n = x.shape[d]
    f._size_check((n, n), "cumsum's triangular matrix")
    upper = Tensor(np.triu(np.ones((n, n), dtype=x.dtype)))
    moved = f.transpose(x, d, -1)
    return f._named(f.transpose(f.matmul(moved, upper), d, -1), "CumsumBackward0")


def _pieces(x: Tensor, dim: int, sizes: list[int]) -> tuple[Tensor, ...]:
    d = f._check_dim(dim, x.ndim)
    out, start = [], 0
    for s in sizes:
        idx = (slice(None),) * d + (slice(start, start + s),)
        out.append(f._named(f.getitem(x, idx), "SplitBackward0"))
        start += s
    return tuple(out)


def split(x: Any, split_size_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    x = f._tensor_arg(x, "input")
    n = x.shape[f._check_dim(dim, x.ndim)]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [f._int(s, "split size") for s in split_size_or_sections]
        if sum(sizes) != n:
            raise GradcliError(
                f"split_with_sizes expects split_sizes to sum exactly to {n} "
                f"(input tensor's size at dimension {dim}), but got "
                f"split_sizes={sizes}"
            )
    else:
        size = f._int(split_size_or_sections, "split size")
        if size <= 0:
            raise GradcliError("split expects split_size be positive")
        sizes = [min(size, n - i) for i in range(0, n, size)]
    return _pieces(x, dim, sizes)


def chunk(x: Any, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    x = f._tensor_arg(x, "input")
    c = f._int(chunks, "chunks")
    if c <= 0:
        raise GradcliError("chunk expects `chunks` to be greater than 0")
    n = x.shape[f._check_dim(dim, x.ndim)]
    size = -(-n // c) if n else 1
    return split(x, size, dim)


def unbind(x: Any, dim: int = 0) -> tuple[Tensor, ...]:
    x = f._tensor_arg(x, "input")
    d = f._check_dim(dim, x.ndim)
    return tuple(
        f._named(f.getitem(x, (slice(None),) * d + (i,)), "UnbindBackward0")
        for i in range(x.shape[d])
    )


def repeat(x: Any, *sizes: Any) -> Tensor:
    x = f._tensor_arg(x, "input")
    reps = f._sizes(sizes)
    if len(reps) < x.ndim:
        raise GradcliError(
            "Number of dimensions of repeat dims can not be smaller than number "
            "of dimensions of tensor"
        )
    shape = (1,) * (len(reps) - x.ndim) + x.shape
    f._size_check(tuple(r * s for r, s in zip(reps, shape)), "the repeated tensor")
    inter = f.reshape(x, tuple(v for s in shape for v in (1, s)))
    big = f.expand(inter, tuple(v for r, s in zip(reps, shape) for v in (r, s)))
    return f._named(f.reshape(big, tuple(r * s for r, s in zip(reps, shape))), "RepeatBackward0")


def gather(x: Any, dim: int, index: Any) -> Tensor:
    x = f._tensor_arg(x, "input")
    idx = index if isinstance(index, Tensor) else Tensor(np.asarray(index))
    d = f._check_dim(dim, x.ndim)
    if idx.ndim != x.ndim:
        raise GradcliError("Index tensor must have the same number of dimensions as input tensor")
    ind = idx.data.astype(np.int64)
    grids = list(np.indices(ind.shape, sparse=True))
    grids[d] = ind
    out = f.getitem(x, tuple(Tensor(np.broadcast_to(g, ind.shape)) for g in grids))
    return f._named(out, "GatherBackward0")


def _sorted(fn: str) -> Any:
    def run(
        x: Any,
        k: Any = None,
        dim: int = -1,
        largest: bool = True,
        sorted: bool = True,
        descending: bool = False,
        stable: bool = False,
    ) -> Any:
        x = f._tensor_arg(x, "input")
        if x.ndim == 0:
            return f.MinMax(x, Tensor(np.zeros((), dtype=np.int64)), fn)
        d = f._check_dim(dim, x.ndim)
        down = largest if fn == "topk" else descending
        order = np.argsort(-x.data if down else x.data, axis=d, kind="stable")
        if fn == "topk":
            kk = f._int(k, "k")
            if not 0 <= kk <= x.shape[d]:
                raise GradcliError("selected index k out of range")
            order = np.take(order, np.arange(kk), axis=d)
        values = f._named(
            gather(x, d, Tensor(order)), "SortBackward0" if fn == "sort" else "TopkBackward0"
        )
        return f.MinMax(values, Tensor(order.astype(np.int64)), fn)

    return run


def sort(x: Any, dim: int = -1, descending: bool = False, stable: bool = False) -> Any:
    return _sorted("sort")(x, dim=dim, descending=descending)


def topk(x: Any, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:
    return _sorted("topk")(x, k, dim=dim, largest=largest)


def one_hot(t: Any, num_classes: int = -1) -> Tensor:
    t = t if isinstance(t, Tensor) else Tensor(np.asarray(t))
    if t.dtype.kind == "f" and not np.all(t.data == np.round(t.data)):
        raise GradcliError("one_hot is only applicable to index tensor")
    ind = t.data.astype(np.int64)
    n = int(ind.max()) + 1 if num_classes == -1 and ind.size else int(num_classes)
    if ind.size and (ind.min() < 0 or ind.max() >= n):
        raise GradcliError("Class values must be smaller than num_classes.")
    f._size_check(ind.shape + (n,), "the one-hot tensor")
    return Tensor((np.arange(n) == ind[..., None]).astype(np.int64))


def all_(x: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
    x = f._tensor_arg(x, "input")
    return Tensor(np.asarray(np.all(x.data, axis=f._dims_arg(dim, x.ndim), keepdims=keepdim)))


def any_(x: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
    x = f._tensor_arg(x, "input")
    return Tensor(np.asarray(np.any(x.data, axis=f._dims_arg(dim, x.ndim), keepdims=keepdim)))


def _new(fill: Any) -> Any:
    def make(
        x: Tensor, *size: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None
    ) -> Tensor:
        dt = x.dtype if dtype is None else dtype
        return fill(*size, dtype=dt, requires_grad=requires_grad)

    return make


def new_tensor(
    x: Tensor, data: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None
) -> Tensor:
    return f.tensor(data, dtype=x.dtype if dtype is None else dtype, requires_grad=requires_grad)


def new_full(
    x: Tensor,
    size: Any,
    fill_value: Any,
    dtype: Any = None,
    requires_grad: bool = False,
    device: Any = None,
) -> Tensor:
    return f.full(
        size, fill_value, dtype=x.dtype if dtype is None else dtype, requires_grad=requires_grad
    )


BOTH = {
    "silu": silu,
    "masked_fill": masked_fill,
    "tril": tril,
    "triu": triu,
    "diag": diag,
    "trace": trace,
    "cumsum": cumsum,
    "split": split,
    "chunk": chunk,
    "unbind": unbind,
    "gather": gather,
    "sort": sort,
    "topk": topk,
    "all": all_,
    "any": any_,
}
FUNCTIONS_ONLY = {
    "linear": linear,
    "logsigmoid": logsigmoid,
    "l1_loss": l1_loss,
    "binary_cross_entropy_with_logits": binary_cross_entropy_with_logits,
    "one_hot": one_hot,
}
METHODS_ONLY = {
    "repeat": repeat,
    "new_zeros": _new(f.zeros),
    "new_ones": _new(f.ones),
    "new_empty": _new(f.zeros),
    "new_tensor": new_tensor,
    "new_full": new_full,
}
MODULES = {
    "SiLU": f._module("SiLU", silu),
    "LogSigmoid": f._module("LogSigmoid", logsigmoid),
    "L1Loss": f._module("L1Loss", l1_loss, ("size_average", "reduce", "reduction")),
    "BCEWithLogitsLoss": f._module(
        "BCEWithLogitsLoss",
        binary_cross_entropy_with_logits,
        ("weight", "size_average", "reduce", "reduction"),
    ),
}
