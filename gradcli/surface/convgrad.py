"""torch.nn.grad (also reached as F.grad): a convolution's input and weight gradients as
functions, `convNd_input(input_size, weight, grad_output, stride, padding, dilation, groups)`
and `convNd_weight(input, weight_size, grad_output, ...)`, as custom Functions' backward
passes call them. PyTorch computes each with `convolution_backward` (the kernel a
convolution's own backward runs): here one `conv_tx` / `conv_tw` record, the record of a
convolution's own backward, so the values (float32 bits included) are that backward's and
the result is differentiable in the weight (or input) and grad_output, as PyTorch's
(ConvolutionBackwardBackward0)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError
from ..core.op import apply
from ..core.tensor import Tensor
from ..ops import arithmetic as A
from ..ops import conv as Cv
from .args import int_arg
from .nnfunctional import _tuple


def _size(v: Any, what: str, fn: str, d: int) -> tuple[int, ...]:
    """A size argument (`input.shape`, a list or tuple of ints) of d + 2 dimensions."""
    if isinstance(v, Tensor) or not isinstance(v, (list, tuple)):
        raise GradcliError(
            f"{fn}(): {what} must be a sequence of {d + 2} ints (the shape, e.g. x.shape)"
        ).mirror("TypeError")
    out = []
    for i in v:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise GradcliError(
                f"{fn}(): {what} must be a sequence of ints, but found element of type "
                f"{type(i).__name__}"
            ).mirror("TypeError")
        if i < 0:
            raise GradcliError(f"{fn}(): {what} has a negative size {int(i)}")
        out.append(int(i))
    if len(out) != d + 2:
        raise GradcliError(
            f"{fn}(): {what} must have {d + 2} dimensions (batch, channels and {d} spatial), "
            f"got {out}",
            hint="torch.nn.grad works on batched shapes: give the unbatched input a batch of 1",
        )
    return tuple(out)


def _geometry(
    d: int,
    fn: str,
    x_shape: tuple[int, ...],
    w_shape: tuple[int, ...],
    g: Tensor,
    stride: Any,
    padding: Any,
    dilation: Any,
    groups: Any,
) -> dict[str, Any]:
    """The convolution's parameters (those of `ops.conv`), checked as convolution_backward
    would: the grad_output must be the shape the convolution of these shapes gives."""
    if isinstance(padding, str):
        raise GradcliError(
            f"{fn}(): padding={padding!r} is not supported by gradcli here",
            hint="give the padding as ints (what 'same' / 'valid' pad on each side)",
        )
    st = _tuple(stride, d, "stride", fn)
    pd = _tuple(padding, d, "padding", fn)
    dl = _tuple(dilation, d, "dilation", fn)
    grp = int_arg(groups, "groups")
    if grp <= 0:
        raise GradcliError("non-positive groups is not supported")
    if any(s <= 0 for s in st):
        raise GradcliError("non-positive stride is not supported")
    if any(v <= 0 for v in dl):
        raise GradcliError(f"dilation should be greater than zero, but got {list(dl)}")
    if any(v < 0 for v in pd):
        raise GradcliError("negative padding is not supported")
    o, cg = w_shape[:2]
    if o % grp or x_shape[1] != cg * grp:
        raise GradcliError(
            f"Given groups={grp}, weight of size {list(w_shape)}, expected input"
            f"{list(x_shape)} to have {cg * grp} channels, but got {x_shape[1]} channels instead"
        )
    kernel = w_shape[2:]
    span = tuple(v * (k - 1) + 1 for v, k in zip(dl, kernel))
    padded = tuple(s + 2 * p for s, p in zip(x_shape[2:], pd))
    if any(p < k for p, k in zip(padded, span)):
        raise GradcliError(
            f"{fn}(): the kernel {list(span)} (dilated) is larger than the padded input "
            f"{list(padded)}"
        )
    out = tuple((p - k) // s + 1 for p, k, s in zip(padded, span, st))
    expected = (x_shape[0], o) + out
    if tuple(g.shape) != expected:
        raise GradcliError(
            f"{fn}(): grad_output of size {list(g.shape)} is not the convolution's output "
            f"size {list(expected)}",
            hint="grad_output is the gradient of the convolution's output: its shape",
        )
    work = x_shape[0] * o * cg * math.prod(kernel) * math.prod(out)
    if work > limits.MULTIPLY_ADDS.value:
        limits.MULTIPLY_ADDS.check(work, f"the multiply-adds of {fn}")
    return {"stride": st, "dilation": dl, "pad": pd, "out": out, "groups": grp}


def _dtypes(fn: str, a: Tensor, b: Tensor) -> None:
    if a.dtype != b.dtype:
        raise GradcliError(f"{fn}(): grad_output and the convolution's tensors differ in dtype")
    if a.dtype.kind != "f":
        raise GradcliError(f"{fn}(): needs floating point tensors, got {a.dtype}")


def _input(d: int) -> Any:
    fn = f"conv{d}d_input"

    def convnd_input(
        input_size: Any,
        weight: Any,
        grad_output: Any,
        stride: Any = 1,
        padding: Any = 0,
        dilation: Any = 1,
        groups: Any = 1,
    ) -> Tensor:
        w = A.tensor_arg(weight, "weight")
        g = A.tensor_arg(grad_output, "grad_output")
        size = _size(input_size, "input_size", fn, d)
        if w.ndim != d + 2:
            raise GradcliError(f"{fn}(): weight must have {d + 2} dimensions, got {w.ndim}")
        _dtypes(fn, g, w)
        p = _geometry(d, fn, size, tuple(w.shape), g, stride, padding, dilation, groups)
        order = Cv.backward_order(size, w.shape, w.dtype, g.ndim == d + 2, p)
        return apply(Cv.conv_tx, g, w, size=size[2:], **p, **order)

    convnd_input.__name__ = convnd_input.__qualname__ = fn
    return convnd_input


def _weight(d: int) -> Any:
    fn = f"conv{d}d_weight"

    def convnd_weight(
        input: Any,  # noqa: A002 - PyTorch's parameter names
        weight_size: Any,
        grad_output: Any,
        stride: Any = 1,
        padding: Any = 0,
        dilation: Any = 1,
        groups: Any = 1,
    ) -> Tensor:
        x = A.tensor_arg(input, "input")
        g = A.tensor_arg(grad_output, "grad_output")
        size = _size(weight_size, "weight_size", fn, d)
        if x.ndim != d + 2:
            raise GradcliError(f"{fn}(): input must have {d + 2} dimensions, got {x.ndim}")
        _dtypes(fn, g, x)
        p = _geometry(d, fn, tuple(x.shape), size, g, stride, padding, dilation, groups)
        order = Cv.backward_order(x.shape, size, x.dtype, g.ndim == d + 2, p)
        return apply(Cv.conv_tw, x, g, kernel=size[2:], **p, **order)

    convnd_weight.__name__ = convnd_weight.__qualname__ = fn
    return convnd_weight


FUNCTIONS = {
    **{f"conv{d}d_input": _input(d) for d in (1, 2, 3)},
    **{f"conv{d}d_weight": _weight(d) for d in (1, 2, 3)},
}
