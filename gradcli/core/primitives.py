"""The four records the kernel itself applies: `add` (accumulating gradients), and `sum`,
`reshape`, `expand` (undoing broadcasting, `autograd.unbroadcast`).

They are declared here, below reverse mode, so that the kernel needs nothing above it;
`ops.binary`, `ops.reduction` and `ops.shape` register them in their places among their
families. Their rules use `apply` directly (not Tensor methods, which higher layers install).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from .op import Op, Sample, apply, binary_samples, reduction_samples
from .summation import sum_float
from .tensor import Tensor


def alpha_sum(alpha: complex) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """`x + alpha * y` of complex values as ATen's add kernel computes it: both in the complex
    dtype, then alpha's complex product (its signs of zero: `-0j + -0j` is 0j there; an
    infinite part times alpha's zero is nan)."""

    def forward(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        dt = np.result_type(x, y)
        return np.add(x.astype(dt, copy=False), np.multiply(y.astype(dt, copy=False), alpha))

    return forward


add = Op(
    "add",
    np.add,
    lambda g, out, x, y: (g, g),
    "AddBackward0",
    "g, g",
    sym=lambda sp, x, y: x + y,
    saves=False,
    kind="binary",
    samples=binary_samples(),
    to_torch="{0} + {1}",
    to_jax="{0} + {1}",
    jvp_terms=((0, ()), (1, ())),  # (`self_t + other_t`: a tangent that requires grad plus zeros)
    complex="holo",
    complex_forward=alpha_sum(1 + 0j),
)


# --- reductions: the dims convention of every reduction record --------------------------------


def dims_of(dim: Any, ndim: int) -> tuple[int, ...]:
    """The axes a reduction's `dim` param names: all for None (and for a 0-d tensor, where
    dim=0 / -1 name the only "axis"), else the given ones, non-negative and sorted."""
    if dim is None or ndim == 0:
        return tuple(range(ndim))
    ds = dim if isinstance(dim, (tuple, list)) else (dim,)
    return tuple(sorted(d % ndim for d in ds))


def reduced_shape(shape: tuple[int, ...], dim: Any, keepdim: bool) -> tuple[int, ...]:
    """The shape of a reduction's result over `dim` (see `dims_of`)."""
    dims = dims_of(dim, len(shape))
    if keepdim:
        return tuple(1 if i in dims else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in dims)


def check_reduced(x: np.ndarray, dim: Any, keepdim: bool, name: str) -> None:
    """Refuse, before NumPy allocates it, a reduction's result over the element limit. A
    result is never larger than its input, except that of an empty input: a (0, 10**8) tensor
    summed over dim 0 is 10**8 zeros (of a tensor that took no memory at all)."""
    if x.size == 0 and x.ndim:
        n = 1
        for k in reduced_shape(x.shape, dim, keepdim):
            n *= k
        if n > limits.TENSOR_ELEMENTS.value:
            limits.TENSOR_ELEMENTS.check(n, f"the result of {name}")


def from_end(dim: int, ndim: int) -> int:
    """A dim counted from the end, so that it still names the same axis under batch axes."""
    return dim % ndim - ndim if ndim else -1


def count(shape: tuple[int, ...], dims: tuple[int, ...]) -> int:
    """The number of elements each group of a reduction over `dims` has."""
    return int(np.prod([shape[d] for d in dims])) if dims else 1


def unreduce(t: Tensor, x: Tensor, dim: Any, keepdim: bool) -> Tensor:
    """Give a reduced tensor (with any leading batch axes) back the reduced axes as size 1,
    so that it broadcasts against `x`."""
    if keepdim or x.ndim == 0:
        return t
    dims = dims_of(dim, x.ndim)
    nb = t.ndim - (x.ndim - len(dims))
    if dim is None and nb == 0:
        return t  # a whole reduction's one number broadcasts as it is (PyTorch expands it)
    keep = tuple(1 if i in dims else s for i, s in enumerate(x.shape))
    # PyTorch's sum_backward unsqueezes the reduced dims back
    return apply(reshape, t, shape=t.shape[:nb] + keep, label="UnsqueezeBackward0")


def _sum_fwd(x: np.ndarray, dim: Any = None, keepdim: bool = False) -> np.ndarray:
    check_reduced(x, dim, keepdim, "sum")
    # Floats are added in the order PyTorch's kernel adds them (bit for bit in float32).
    return sum_float(x, dims_of(dim, x.ndim), keepdim)


def sum_vjp(g: Tensor, out: Tensor, x: Tensor, dim: Any = None, keepdim: bool = False) -> tuple:
    gu = unreduce(g, x, dim, keepdim)
    nb = g.ndim - out.ndim
    return (apply(expand, gu, shape=g.shape[:nb] + x.shape),)


sum = Op(  # noqa: A001 - the record of torch.sum
    "sum",
    _sum_fwd,
    sum_vjp,
    "SumBackward0",
    "g (broadcast back)",
    kind="reduction",
    saves=False,
    signature="sum(x, dim=None, keepdim=False)",
    samples=reduction_samples(),
    to_torch=lambda w, a, p: w.reduction("torch.sum", a[0], p),
    to_jax=lambda w, a, p: w.reduction("jnp.sum", a[0], p),
    complex="holo",
    jvp_terms=((0, ()),),  # (auto_linear: the sum of the tangent)
)

# --- shape ------------------------------------------------------------------------------------


# The node a reshape's gradient is recorded as, by the node of the reshape itself: PyTorch's
# unsqueeze goes back by squeeze(dim) and its squeezes by unsqueeze (what a double backward's
# result shows as its grad_fn); a view goes back by a view.
_REVERSED = {
    "UnsqueezeBackward0": "SqueezeBackward1",
    "SqueezeBackward0": "UnsqueezeBackward0",
    "SqueezeBackward1": "UnsqueezeBackward0",
    "SqueezeBackward2": "UnsqueezeBackward0",
    # a selection along a dim that drops it (gradcli: its values gathered, then squeezed):
    # PyTorch's backward unsqueezes the gradient, then scatters it
    "KthvalueBackward0": "UnsqueezeBackward0",
    "ModeBackward0": "UnsqueezeBackward0",
    "MedianBackward1": "UnsqueezeBackward0",
    "NanmedianBackward1": "UnsqueezeBackward0",
}


def _reshape_vjp(g: Tensor, out: Tensor, x: Tensor, shape: tuple[int, ...]) -> tuple:
    nb = g.ndim - out.ndim
    node = out.node
    label = _REVERSED.get(node.label, "ViewBackward0") if node is not None else "ViewBackward0"
    return (apply(reshape, g, shape=g.shape[:nb] + x.shape, label=label),)


def _shape_saved(label: str) -> Any:
    """The saved sizes PyTorch's `label` node shows (`_saved_self_sym_sizes`: the input's
    shape), for the nodes shown under that name (a reshape is also PyTorch's Unsqueeze,
    Squeeze, UnsafeView... nodes, which save other values: none declared)."""

    def saved(n: Any) -> Any:
        from . import saved as V

        return V.saves(self_sym_sizes=V.sizes(0)) if n.name() == label else None

    return saved


reshape = Op(
    "reshape",
    lambda x, shape: np.reshape(x, shape),
    _reshape_vjp,
    "ViewBackward0",
    "g reshaped to x's shape",
    kind="shape",
    saves=False,
    saved=_shape_saved("ViewBackward0"),
    signature="reshape(x, shape), view, flatten, squeeze, unsqueeze",
    samples=tuple(
        Sample((a,), {"shape": b})
        for a, b in (
            ((2, 3), (3, 2)),
            ((2, 3), (6,)),
            ((), (1, 1)),
            ((2, 3, 4), (4, 6)),
            ((6,), (2, 1, 3)),
            ((1, 1), ()),
        )
    ),
    to_torch=lambda w, a, p: f"{a[0]}.reshape({w.lit(tuple(p['shape']))})",
    to_jax=lambda w, a, p: f"jnp.reshape({a[0]}, {w.lit(tuple(w.out.shape))})",
    complex="holo",
)


def _expand_fwd(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    out = np.broadcast_to(x, shape)
    if x.ndim and 1 in x.shape:
        # NumPy gives every dimension of size 1 the stride 0; PyTorch's expand keeps the
        # stride of one that stays of size 1 (it shows in `.stride()` and in the layout of
        # an elementwise result)
        lead = len(shape) - x.ndim
        steps = list(out.strides)
        for i, n in enumerate(x.shape):
            if n == 1 and shape[lead + i] == 1:
                steps[lead + i] = x.strides[i]
        if steps != list(out.strides):
            out = np.lib.stride_tricks.as_strided(out, shape, steps, writeable=False)
    return out


expand = Op(
    "expand",
    _expand_fwd,
    lambda g, out, x, shape: (g,),
    "ExpandBackward0",
    "g summed over the expanded axes",
    kind="shape",
    saves=False,
    saved=_shape_saved("ExpandBackward0"),
    signature="expand(x, *sizes), expand_as, broadcast_to",
    samples=tuple(
        Sample((a,), {"shape": b})
        for a, b in (
            ((3, 1), (2, 3, 4)),
            ((), (2, 3)),
            ((1, 3), (2, 3)),
            ((3,), (3,)),
            ((2, 1, 1), (2, 3, 2)),
        )
    ),
    to_torch=lambda w, a, p: f"{a[0]}.expand({w.lit(tuple(p['shape']))})",
    to_jax=lambda w, a, p: f"jnp.broadcast_to({a[0]}, {w.lit(tuple(w.out.shape))})",
    complex="holo",
)
