"""The loss functions as PyTorch's (`F.mse_loss`, `F.binary_cross_entropy`, `F.nll_loss`,
`F.cross_entropy`): targets, weights and `reduction=` checked, then the loss records."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..base.lazy import lazy_module
from ..core import dtypes
from ..core.op import apply
from ..core.tensor import Tensor, pytype_name
from ..ops import binary as B
from ..ops import elementwise as E
from ..ops.arithmetic import add_t, div_t, mul_t, named, neg, operands, sub_t, tensor_arg
from ..ops.binary import div as div_op
from .args import (
    float_common,
    float_kernel,
    legacy_reductions,
    not_differentiable,
    reduction_arg,
    sized_pair,
    target_size_warning,
)
from .functional import log_softmax, sum

# Op families few programs use, imported at their first use (start-up pays nothing).
Lo = lazy_module("gradcli.ops.loss")


@legacy_reductions
def mse_loss(
    input: Any,
    target: Any,
    size_average: Any = None,
    reduce: Any = None,  # noqa: A002
    reduction: str = "mean",
    weight: Any = None,
) -> Tensor:
    input, target = sized_pair(input, target)
    float_common(input, target, "mse_cpu")
    target_size_warning(input, target)
    x, y = operands(input, target)
    if weight is not None:
        from ..ops.arithmetic import pow as pow_

        return weighted_loss(pow_(sub_t(x, y), 2), weight, input, reduction, by_weight=True)
    return apply(Lo.mse_loss, x, y, reduction=reduction_arg(reduction))


def weighted_loss(
    unweighted: Tensor, weight: Any, input: Any, reduction: Any, *, by_weight: bool
) -> Tensor:
    """F.mse_loss / l1_loss / huber_loss given `weight=`: PyTorch's Python composition, the
    unreduced loss times the weight, then summed, averaged (huber_loss) or divided by the
    weights' sum (`by_weight`: mse_loss, l1_loss), so its grad_fn is Mul/Sum/Mean/Div."""
    from .functional import mean, sum

    w = tensor_arg(weight, "weight")
    if w.shape != input.shape:
        raise GradcliError("Weights and input must have the same size.").mirror("ValueError")
    if reduction not in ("mean", "sum", "none"):
        raise GradcliError(
            f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'."
        ).mirror("ValueError")
    out = mul_t(unweighted, w)
    if reduction == "none":
        return out
    if reduction == "sum":
        return sum(out)
    return div_t(sum(out), sum(w)) if by_weight else mean(out)


@legacy_reductions
def binary_cross_entropy(
    input: Any,
    target: Any,
    weight: Any = None,  # noqa: A002
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    p, t = sized_pair(input, target)
    float_kernel(p, "binary_cross_entropy", "f")
    if t.shape != p.shape:
        raise GradcliError(
            f"Using a target size (torch.Size({list(t.shape)})) that is different to the input "
            f"size (torch.Size({list(p.shape)})) is deprecated. Please ensure they have the "
            "same size."
        ).mirror("ValueError")
    if t.dtype != p.dtype:
        # (the error of many a first classifier: labels made as integers)
        raise GradcliError(
            f"Found dtype {dtypes.scalar_type_name(t.dtype)} but expected "
            f"{dtypes.scalar_type_name(p.dtype)}",
            hint="make the target the input's dtype: target.float()",
        ).mirror("RuntimeError")
    not_differentiable(weight, "binary_cross_entropy", "weight")
    w = None if weight is None else np.broadcast_to(tensor_arg(weight).data, p.shape)
    return apply(Lo.binary_cross_entropy, p, t, weight=w, reduction=reduction_arg(reduction))


def _tensor_target(target: Any, kernel: str) -> Tensor:
    """The target of nll_loss / cross_entropy: a Tensor, as PyTorch's argument parser wants."""
    if not isinstance(target, Tensor):
        raise GradcliError(
            f"{kernel}(): argument 'target' (position 2) must be Tensor, not {pytype_name(target)}",
            hint="make the targets a tensor: torch.tensor([...])",
        ).mirror("TypeError")
    return target


def _class_targets(x: Tensor, target: Any, fn: str, ignore_index: int = -100) -> np.ndarray:
    """The class indices of an (N, C) or (C) input, checked in PyTorch's order: the batch
    sizes (a 0-d target's is 0), a target of more than one dimension, its dtype, a 1-d input's
    one-item target, the classes' range."""
    t = target if isinstance(target, Tensor) else Tensor(np.asarray(target))
    if x.ndim == 2:
        batch = t.shape[0] if t.ndim else 0
        if batch != x.shape[0]:
            raise GradcliError(
                f"Expected input batch_size ({x.shape[0]}) to match target batch_size ({batch})."
            ).mirror("ValueError")
    if x.ndim > 2:
        raise GradcliError(
            f"{fn}: gradcli supports input of shape (C) or (N, C), got {list(x.shape)}"
        )
    if t.ndim > 1:
        # (PyTorch's words, "not supported" among them: a program may catch it)
        raise (
            GradcliError(
                "0D or 1D target tensor expected, multi-target not supported",
                hint="class indices have one number per sample; class probabilities (floats) "
                "are shaped as the input",
            )
            .mirror("RuntimeError")
            .pytorch()
        )
    d = t.data
    if d.dtype not in (dtypes.INT64, np.dtype(np.uint8)):
        # class indices are int64 (or uint8): float targets holding whole numbers too are
        # refused, as PyTorch refuses them
        raise GradcliError(
            f"expected target dtype to be Long or Byte, but got {dtypes.scalar_type_name(d.dtype)}",
            hint="class indices are int64: target.long(), or torch.tensor([...]) of ints",
        ).mirror("RuntimeError")
    if x.ndim == 1 and t.ndim == 1 and t.shape[0] != 1:
        # PyTorch takes a one-item target for one unbatched sample (its forward; its backward
        # then fails, as the op's rule does here).
        raise GradcliError(
            f"For 1D input, 1D target must have size 1, but got target size: {t.shape[0]}"
        ).mirror("ValueError")
    d = d.astype(np.int64)
    c = x.shape[-1]
    if d.size <= 64 and all(0 <= v < c or v == ignore_index for v in d.reshape(-1).tolist()):
        return d  # (a small batch's classes checked in Python: all in range)
    bad = (d != ignore_index) & ((d < 0) | (d >= c))
    if np.any(bad):
        raise GradcliError(
            f"Target {int(d[bad].flat[0])} is out of bounds.",
            hint=f"class indices must be in [0, {c - 1}]",
        ).mirror("IndexError")
    return d


def _class_weight(w: np.ndarray, x: Tensor, prefix: str = "") -> np.ndarray:
    """A class weight: one number per class (PyTorch's check and words)."""
    c = x.shape[-1] if x.ndim < 2 else x.shape[1]
    if w.ndim != 1 or w.shape[0] != c:
        raise GradcliError(
            f"{prefix}weight tensor should be defined either for all {c} classes or no "
            f"classes but got weight tensor of shape: {list(w.shape)}"
        ).mirror("RuntimeError")
    return w


@legacy_reductions
def nll_loss(
    input: Any,
    target: Any,
    weight: Any = None,
    size_average: Any = None,  # noqa: A002
    ignore_index: int = -100,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    x = tensor_arg(input, "input")
    target = _tensor_target(target, "nll_loss_nd")
    if x.ndim == 0:
        raise GradcliError("Expected 1 or more dimensions (got 0)").mirror("ValueError")
    not_differentiable(weight, "nll_loss2d_forward" if x.ndim > 2 else "nll_loss_forward", "weight")
    if x.ndim > 2:
        return _nll_spatial(x, target, weight, ignore_index, reduction)
    t = _class_targets(x, target, "nll_loss", int(ignore_index))
    w = None if weight is None else _class_weight(tensor_arg(weight).data, x)
    if w is not None and w.dtype != x.dtype:  # PyTorch's kernel: after the shape check
        raise GradcliError(
            f"expected scalar type {dtypes.scalar_type_name(x.dtype)} but found "
            f"{dtypes.scalar_type_name(w.dtype)}"
        ).mirror("RuntimeError")
    return apply(
        Lo.nll_loss,
        x,
        target=t,
        weight=w,
        reduction=reduction_arg(reduction),
        ignore_index=int(ignore_index),
    )


def _nll_spatial(x: Tensor, target: Any, weight: Any, ignore_index: int, reduction: str) -> Tensor:
    """nll_loss of an (N, C, d1, ...) input and (N, d1, ...) targets (images, sequences): the
    classes moved last and the positions made rows, in PyTorch's order (batch, then position),
    so the sum is the 2-d case's; PyTorch's kernel is nll_loss2d (NllLoss2DBackward0), its
    per-position losses shaped back as the targets (a view but for a 4-d input)."""
    from ..ops import arithmetic as A
    from ..ops.arithmetic import named
    from .functional import permute, reshape

    t = target if isinstance(target, Tensor) else Tensor(np.asarray(target))
    want = (x.shape[0],) + tuple(x.shape[2:])
    if tuple(t.shape) != want:
        if x.ndim == 4 and t.ndim != 3:
            raise GradcliError(
                "only batches of spatial targets supported (3D tensors) but got targets of "
                f"dimension: {t.ndim}"
            )
        if x.ndim == 4:
            raise GradcliError(
                f"size mismatch (got input: {list(x.shape)} , target: {list(t.shape)}"
            )
        raise GradcliError(f"Expected target size {list(want)}, got {list(t.shape)}")
    if t.dtype == np.uint8:  # (nll_loss takes Byte classes; nll_loss2d's kernel reads int64)
        raise GradcliError(
            "expected scalar type Long but found Byte", hint="class indices are int64: t.long()"
        ).mirror("RuntimeError")
    last = (0, *range(2, x.ndim), 1)  # the classes moved last
    rows = reshape(permute(x, last), (-1, x.shape[1]))
    flat = reshape(t, (-1,))
    reduction = reduction_arg(reduction)
    # The edges PyTorch's graph shows: nll_loss2d of the 4-d input itself, or of its view
    # (n, c, 1, -1) otherwise (ATen's nll_loss_nd; its per-position losses viewed back);
    # recorded before the loss (a node shows what was computed before it)
    shown = x
    if x.ndim != 4 and x.requires_grad and x.data.size:
        shown = reshape(x, (x.shape[0], x.shape[1], 1, -1))
    out = nll_loss(rows, flat, weight=weight, ignore_index=ignore_index, reduction=reduction)
    if reduction != "none":
        return A.shown_over(named(out, "NllLoss2DBackward0"), shown)
    if x.ndim == 4:
        return A.shown_over(named(reshape(out, want), "NllLoss2DBackward0"), shown)
    A.shown_over(named(out, "NllLoss2DBackward0"), shown)
    return reshape(out, want)


@legacy_reductions
def cross_entropy(
    input: Any,
    target: Any,
    weight: Any = None,  # noqa: A002
    size_average: Any = None,
    ignore_index: int = -100,
    reduce: Any = None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    x = tensor_arg(input, "input")
    reduction = reduction_arg(reduction)  # whichever kind of target, as PyTorch
    tt = _tensor_target(target, "cross_entropy_loss")
    if tt.shape == x.shape and tt.dtype.kind != "f":
        raise GradcliError(
            "Expected floating point type for target with class probabilities, got "
            f"{dtypes.scalar_type_name(tt.dtype)}",
            hint="a target shaped as the input holds class probabilities (floats); class "
            "indices have one number per sample",
        ).mirror("RuntimeError")
    if x.ndim == 0:
        # PyTorch's log_softmax over dim 1 of the 0-d input (its class dim is 1 but for a 1-d
        # input), whichever kind of target
        raise GradcliError(
            "Dimension specified as 1 but tensor has no dimensions"
            if tt.shape == x.shape
            else "Dimension out of range (expected to be in range of [-1, 0], but got 1)",
            hint="the input holds one score per class: shape (C) or (N, C)",
        ).mirror("IndexError")
    cdim = 1 if x.ndim >= 2 else 0
    logp = log_softmax(x, dim=cdim)
    eps = float(label_smoothing)
    if not 0.0 <= eps <= 1.0:
        raise GradcliError(f"label_smoothing must be between 0.0 and 1.0. Got: {eps:g}")
    if eps and x.ndim == 1 and tt.ndim == 1 and tt.dtype.kind != "f":
        raise GradcliError(
            f"output with shape [] doesn't match the broadcast shape {list(tt.shape)}"
        )
    if tt.shape == x.shape and tt.dtype.kind == "f":
        # Class probabilities as target, as ATen's cross_entropy_loss_prob_target forms it:
        # -(logp * target [* weight viewed along the class dim]) summed over the classes for
        # "none", over every element at once for "sum" and "mean" (not the per-sample losses
        # added: another order of float sums), the mean divided by numel / C
        prod = mul_t(logp, add_t(mul_t(tt, 1 - eps), eps / x.shape[cdim]) if eps else tt)
        if weight is not None:
            from .functional import reshape

            w = tensor_arg(weight)
            _class_weight(w.data, x, "cross_entropy: ")
            along = [1] * x.ndim
            along[cdim] = x.shape[cdim]
            prod = mul_t(prod, reshape(w, tuple(along)) if x.ndim > 1 else w)
        if reduction == "none":
            return neg(sum(prod, dim=cdim))
        total = sum(prod)
        if reduction == "sum":
            return neg(total)
        n = int(np.prod(x.shape)) // x.shape[cdim] if x.shape[cdim] else 0
        if int(np.prod(x.shape)) == 0:
            return neg(add_t(total, float("nan")))  # ATen's .fill_(NAN) of the empty sum
        # ATen divides by a C++ number: `div(Tensor, Scalar)`, DivBackward1.
        return apply(div_op, *operands(neg(total), n, floating=True), label="DivBackward1")
    nll = nll_loss(logp, tt, weight=weight, ignore_index=ignore_index, reduction=reduction)
    if not eps:
        return nll
    # ATen's (1 - eps) * nll + smooth * (eps / C): products with a number (MulBackward1)
    smooth = _smooth_part(logp, tt, weight, ignore_index, reduction, cdim)
    return add_t(
        E.scale(nll, 1 - eps),
        E.scale(smooth, eps / x.shape[cdim]),
    )


def _smooth_part(
    logp: Tensor, target: Tensor, weight: Any, ignore_index: int, reduction: str, cdim: int
) -> Tensor:
    """Label smoothing's term, -sum_c w_c log p_c per sample (0 where the target is ignored),
    reduced as PyTorch reduces it."""
    t = target.data.astype(np.int64)
    keep = t != ignore_index
    wv = weight
    if weight is not None and logp.ndim > 2:
        # ATen views the weight along the class dimension ([1, C, 1, ...]): K-dim inputs
        from .functional import reshape

        along = [1] * logp.ndim
        along[cdim] = -1
        wv = reshape(tensor_arg(weight), tuple(along))
    per = neg(sum(logp if wv is None else mul_t(logp, wv), dim=cdim))
    # ATen's smooth_loss.masked_fill_(ignore_mask, 0.0), whether or not a target is ignored
    # (MaskedFillBackward0, as gradcli's masked_fill: where(mask, 0, per), one edge)
    zero = Tensor(np.zeros((), per.dtype))
    per = named(apply(B.where, Tensor(~keep), zero, per), "MaskedFillBackward0")
    if reduction == "none":
        return per
    total = sum(per)
    if reduction == "sum":
        return total
    if weight is None:
        return div_t(total, float(np.count_nonzero(keep)))
    w = tensor_arg(weight).data
    return div_t(total, float(np.sum(w[t[keep]])))
