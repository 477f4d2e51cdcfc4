"""The loss functions of `torch.nn.functional` beyond the four records of `ops.loss`:
smooth_l1_loss, huber_loss, kl_div, soft_margin_loss, poisson_nll_loss, margin_ranking_loss,
triplet_margin_loss, hinge_embedding_loss, cosine_embedding_loss, gaussian_nll_loss and
multilabel_soft_margin_loss, as compositions of records
written the way PyTorch's kernels compute them (so their values, gradients at the kinks and
grad_fn names are PyTorch's), with PyTorch's argument checks and warnings.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import ArgumentTypeError, GradcliError
from ..base.lazy import lazy_module
from ..core import hooks
from ..core.dtypes import BF16, promote_types, scalar_type_name
from ..core.op import apply
from ..core.tensor import Tensor, pytype_name, typename
from ..ops import arithmetic as A
from ..ops import shape as S
from . import functional as F
from .args import (
    c_reduction,
    float_common,
    kernel_type_error,
    legacy_reductions,
    not_differentiable,
    parsed_pair,
    reduction_arg,
    sized_pair,
    target_size_warning,
)
from .nnfunctional import pairwise_distance

# Op families few programs use, imported at their first use (start-up pays nothing).
L = lazy_module("gradcli.ops.loss")
Ctc = lazy_module("gradcli.ops.ctc")
Sp = lazy_module("gradcli.ops.special")


def _reduced(loss: Tensor, reduction: str, label: str | None = None) -> Tensor:
    out = loss if reduction == "none" else F.mean(loss) if reduction == "mean" else F.sum(loss)
    return A.named(out, label) if label else out


def _target(target: Any, like: Tensor) -> Tensor:
    return target if isinstance(target, Tensor) else A.scalar_operand(target, like)


def _common(x: Tensor, t: Tensor) -> tuple[Tensor, Tensor]:
    """Both in their common dtype, as ATen's kernel computes (a bool target is 0. and 1.)."""
    dt = promote_types(x.dtype, t.dtype)
    return tuple(v if v.dtype == dt else F.to_dtype(v, dt) for v in (x, t))  # type: ignore[return-value]


@legacy_reductions
def smooth_l1_loss(
    input: Any,  # noqa: A002
    target: Any,
    size_average: Any = None,
    reduce: Any = None,  # noqa: A002
    reduction: str = "mean",
    beta: float = 1.0,
) -> Tensor:
    x, t = sized_pair(input, target)
    float_common(x, t, "smooth_l1_cpu")
    x, t = _common(x, t)
    target_size_warning(x, t)
    r = reduction_arg(reduction)
    b = float(beta)
    if b < 0:
        raise GradcliError("smooth_l1_loss does not support negative values for beta.")
    A.broadcast_shape(x, t)
    if b == 0:
        return _reduced(A.abs(A.sub_t(x, t)), r, "MeanBackward0" if r == "mean" else None)
    if x.data.dtype in (np.float16, np.float32, np.float64, BF16) and x.shape == t.shape:
        # ATen's kernels, forward and backward (SmoothL1LossBackwardBackward0 when recorded)
        return apply(L.smooth_l1_loss, x, t, reduction=r, beta=b)
    d = A.sub_t(x, t)
    ad = A.abs(d)
    quad = A.div_t(A.mul_t(A.mul_t(d, d), 0.5), b)
    lin = A.sub_t(ad, 0.5 * b)
    loss = F.where(Tensor(ad.data < b), quad, lin)
    return _reduced(loss, r, "SmoothL1LossBackward0")


def huber_loss(
    input: Any,  # noqa: A002
    target: Any,
    reduction: str = "mean",
    delta: float = 1.0,
    weight: Any = None,
) -> Tensor:
    x, t = sized_pair(input, target)
    float_common(x, t, "huber_cpu")
    target_dtype, input_dtype = t.dtype, x.dtype
    x, t = _common(x, t)
    target_size_warning(x, t)
    r = reduction_arg(reduction)
    dl = float(delta)
    if dl <= 0:
        raise GradcliError("huber_loss does not support non-positive values for delta.")
    A.broadcast_shape(x, t)
    if weight is not None:
        # PyTorch's Python composition: the unreduced loss times the weight, then reduced
        from .losses import weighted_loss

        unweighted = huber_loss(input, target, "none", delta)
        return weighted_loss(unweighted, weight, input, reduction, by_weight=False)
    if (
        target_dtype == input_dtype == x.dtype
        and x.data.dtype in (np.float16, np.float32, np.float64)
        and x.shape == t.shape
    ):
        # ATen's kernels, forward and backward (HuberLossBackwardBackward0 when recorded)
        return apply(L.huber_loss, x, t, reduction=r, delta=dl)
    d = A.sub_t(x, t)
    ad = A.abs(d)
    quad = A.mul_t(A.mul_t(d, d), 0.5)
    lin = A.mul_t(A.sub_t(ad, 0.5 * dl), dl)
    loss = F.where(Tensor(ad.data < dl), quad, lin)
    # (ATen's loss is empty_like(input): computed in the common dtype, rounded to the input's)
    loss = A.cast(loss, input_dtype)
    out = _reduced(loss, r, "HuberLossBackward0")
    if target_dtype != input_dtype and out.requires_grad:
        # ATen's huber_loss_backward takes the target as it is and checks its dtype: the loss
        # of integer labels, or of a float target of another dtype, computes; its backward
        # fails (smooth_l1's and mse's promote)
        message = (
            f"Found dtype {scalar_type_name(target_dtype)} but expected "
            f"{scalar_type_name(input_dtype)}"
        )

        def refuse(_g: Tensor) -> None:
            raise GradcliError(message, hint="make the target float: target.float()")

        out.register_hook(refuse)
    return out


def _kl_reduction(reduction: Any) -> str:
    if reduction not in ("mean", "sum", "none", "batchmean", "elementwise_mean"):
        raise GradcliError(f"{reduction} is not a valid value for reduction").mirror("ValueError")
    return reduction


@legacy_reductions
def kl_div(
    input: Any,  # noqa: A002
    target: Any,
    size_average: Any = None,
    reduce: Any = None,  # noqa: A002
    reduction: str = "mean",
    log_target: bool = False,
) -> Tensor:
    r = _kl_reduction(reduction)
    if r == "mean":
        hooks.warn(
            "reduction: 'mean' divides the total loss by both the batch size and the support "
            "size.'batchmean' divides only by the batch size, and aligns with the KL div math "
            "definition.'mean' will be changed to behave the same as 'batchmean' in the next "
            "major release."
        )
    if r == "elementwise_mean":
        r = reduction_arg(r)  # (its deprecation warning: PyTorch's get_enum)
    x, t = parsed_pair(input, target, "kl_div")  # the kernel's parser, after the warning
    if x.dtype.kind in "biu" or t.dtype.kind in "biu":
        raise (
            GradcliError(
                "kl_div: Integral inputs not supported.", hint="convert them first: x.float()"
            )
            .mirror("RuntimeError")
            .pytorch()
        )
    # PyTorch's kernel is C++ whose compiler records the right operand first: the later node
    # runs first in backward, which fixes the order the target's gradients are summed in
    if log_target:
        diff = A.sub_t(t, x)
        loss = A.mul_t(A.exp(t), diff)
    else:
        # PyTorch's xlogy(t, t) - t * x: 0 where the target is 0, NaN where it is negative or
        # NaN, and xlogy's gradient in the target (NaN at 0: 0 / 0)
        tx = A.mul_t(t, x)
        loss = A.sub_t(apply(Sp.xlogy, t, t), tx)
    if r == "batchmean":
        total = F.sum(loss)
        return A.div_t(total, x.shape[0]) if x.ndim else total
    return _reduced(loss, r)


@legacy_reductions
def soft_margin_loss(
    input: Any,  # noqa: A002
    target: Any,
    size_average: Any = None,
    reduce: Any = None,  # noqa: A002
    reduction: str = "mean",
) -> Tensor:
    x, t = parsed_pair(input, target, "soft_margin_loss")
    r = reduction_arg(reduction)
    not_differentiable(t, "soft_margin_loss", "target")
    if (
        x.data.dtype == t.data.dtype
        and x.data.dtype in (np.float16, np.float32, np.float64)
        and (x.shape == t.shape)
    ):
        # ATen's kernels, forward and backward (SoftMarginLossBackwardBackward0 when recorded)
        return apply(L.soft_margin_loss, x, t, reduction=r)
    z = A.mul_t(A.neg(x), t)
    if x.dtype.kind == "f":  # (ATen's steps are in place on -input: the input's dtype)
        z = A.cast(z, x.dtype)
    loss = A.log1p(A.exp(z))
    return _reduced(loss, r, "SoftMarginLossBackward0")


@legacy_reductions
def poisson_nll_loss(
    input: Any,  # noqa: A002
    target: Any,
    log_input: bool = True,
    full: bool = False,
    size_average: Any = None,
    eps: float = 1e-8,
    reduce: Any = None,  # noqa: A002
    reduction: str = "mean",
) -> Tensor:
    """The negative log likelihood of a Poisson target, as ATen's poisson_nll_loss: exp(x) -
    t x for a log rate x (else x - t log(x + eps)); `full` adds Stirling's term t log t - t +
    log(2 pi t) / 2 where t > 1."""
    if reduction not in ("none", "mean", "sum"):
        raise GradcliError(f"{reduction} is not a valid value for reduction").mirror("ValueError")
    x, t = parsed_pair(input, target, "poisson_nll_loss")
    r = reduction_arg(reduction)
    if log_input:
        loss = A.sub_t(A.exp(x), A.mul_t(t, x))
    else:
        loss = A.sub_t(x, A.mul_t(t, A.log(A.add_t(x, float(eps)))))
    if full:
        big = Tensor(t.data > 1)
        safe = F.where(big, t, 2.0)
        stirling = A.add_t(
            A.sub_t(A.mul_t(safe, A.log(safe)), safe),
            A.mul_t(A.log(A.mul_t(safe, 2 * math.pi)), 0.5),
        )
        loss = A.add_t(loss, F.where(big, stirling, 0.0))
    return _reduced(loss, r)


@legacy_reductions
def margin_ranking_loss(
    input1: Any,
    input2: Any,
    target: Any,
    margin: float = 0.0,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    r = reduction_arg(reduction)
    return _reduced(_margin_ranking(input1, input2, target, margin, True), r)


def _margin_ranking(input1: Any, input2: Any, target: Any, margin: Any, py: bool) -> Tensor:
    """The margin ranking loss, unreduced; `py`: F's (its Python code refuses inputs of
    different numbers of dimensions, the C++ torch.margin_ranking_loss broadcasts them)."""
    a, b = A.tensor_arg(input1, "input1"), A.tensor_arg(input2, "input2")
    t = _target(target, a)
    if py and not a.ndim == b.ndim == t.ndim:
        raise GradcliError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: torch.Size({list(a.shape)}), input2: torch.Size({list(b.shape)}), "
            f"target: torch.Size({list(t.shape)}) "
        )
    return F.clamp_min(A.add_t(A.mul_t(A.neg(t), A.sub_t(a, b)), float(margin)), 0)


@legacy_reductions
def triplet_margin_loss(
    anchor: Any,
    positive: Any,
    negative: Any,
    margin: float = 1.0,
    p: float = 2,
    eps: float = 1e-6,
    swap: bool = False,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    r = reduction_arg(reduction)
    return _reduced(_triplet(anchor, positive, negative, margin, p, eps, swap, True), r)


def _triplet(
    anchor: Any, positive: Any, negative: Any, margin: Any, p: Any, eps: Any, swap: Any, py: bool
) -> Tensor:
    """The triplet losses, unreduced; `py`: F's (its Python code refuses a margin <= 0, the C++
    torch.triplet_margin_loss computes any)."""
    a = A.tensor_arg(anchor, "anchor")
    pos = A.tensor_arg(positive, "positive")
    neg = A.tensor_arg(negative, "negative")
    if not a.ndim == pos.ndim == neg.ndim:
        raise GradcliError(
            "The anchor, positive, and negative tensors are expected to have the same number of "
            f"dimensions, but got: anchor {a.ndim}D, positive {pos.ndim}D, and negative "
            f"{neg.ndim}D inputs"
        )
    if py and float(margin) <= 0:
        raise GradcliError(f"margin must be greater than 0, got {float(margin)}").mirror(
            "ValueError"
        )
    d_pos = pairwise_distance(a, pos, p, eps)
    d_neg = pairwise_distance(a, neg, p, eps)
    if swap:
        d_neg = F.minimum(d_neg, pairwise_distance(pos, neg, p, eps))
    return F.clamp_min(A.sub_t(A.add_t(d_pos, float(margin)), d_neg), 0)


@legacy_reductions
def hinge_embedding_loss(
    input: Any,  # noqa: A002
    target: Any,
    margin: float = 1.0,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    x, t = parsed_pair(input, target, "hinge_embedding_loss")
    r = reduction_arg(reduction)
    zeros = Tensor(np.zeros(x.shape, dtype=x.dtype))
    margin_part = F.where(Tensor(t.data != 1), F.clamp_min(A.sub_t(float(margin), x), 0), zeros)
    self_part = F.where(Tensor(t.data != -1), x, zeros)
    return _reduced(A.add_t(margin_part, self_part), r)


@legacy_reductions
def cosine_embedding_loss(
    input1: Any,
    input2: Any,
    target: Any,
    margin: float = 0.0,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    a, b = A.tensor_arg(input1, "input1"), A.tensor_arg(input2, "input2")
    t = _target(target, a)
    r = reduction_arg(reduction)
    if t.ndim > 1:
        raise GradcliError("0D or 1D target tensor expected, multi-target not supported")
    if t.ndim == 1 and not (a.ndim == b.ndim == 2):
        raise GradcliError(
            "1D target tensor expects 2D input tensors, but found inputs with sizes "
            f"{list(a.shape)} and {list(b.shape)}."
        )
    if t.ndim == 0 and not (a.ndim == b.ndim == 1):
        raise GradcliError(
            "0D target tensor expects 1D input tensors, but found inputs with sizes "
            f"{list(a.shape)} and {list(b.shape)}."
        )
    dim = a.ndim - 1
    prod = F.sum(A.mul_t(a, b), dim=dim)
    m1 = A.add_t(F.sum(A.mul_t(a, a), dim=dim), 1e-12)
    m2 = A.add_t(F.sum(A.mul_t(b, b), dim=dim), 1e-12)
    cos = A.div_t(prod, A.sqrt(A.mul_t(m1, m2)))
    zeros = Tensor(np.zeros(cos.shape, dtype=cos.dtype))
    pos = F.where(Tensor(t.data == 1), A.sub_t(1, cos), zeros)
    neg = F.where(Tensor(t.data == -1), F.clamp_min(A.sub_t(cos, float(margin)), 0), zeros)
    return _reduced(A.add_t(pos, neg), r)


# --- torch.X: the C++ losses (int reductions) ------------------------------------------------
# torch.kl_div, torch.margin_ranking_loss, ... are PyTorch's C++ functions, not F's: no
# size_average / reduce, `reduction` an int (1 mean, 2 sum, any other none, the default none)
# in the place F has size_average, and none of F's Python warnings.


def torch_kl_div(
    input: Any,  # noqa: A002
    target: Any,
    reduction: Any = 0,
    *,
    log_target: bool = False,
) -> Tensor:
    r = c_reduction(reduction, "kl_div", 3)
    if not isinstance(log_target, bool):  # PyTorch's parser: a bool only
        raise ArgumentTypeError("kl_div", "log_target", None, "bool", pytype_name(log_target))
    return _reduced(kl_div(input, target, reduction="none", log_target=log_target), r)


def torch_poisson_nll_loss(
    input: Any,  # noqa: A002
    target: Any,
    log_input: Any,
    full: Any,
    eps: Any,
    reduction: Any,
) -> Tensor:
    """torch.poisson_nll_loss: all six arguments required (no size_average, an int
    reduction)."""
    for i, (name, v) in enumerate((("log_input", log_input), ("full", full))):
        if not isinstance(v, bool):  # PyTorch's parser: a bool only
            raise ArgumentTypeError("poisson_nll_loss", name, 3 + i, "bool", pytype_name(v))
    r = c_reduction(reduction, "poisson_nll_loss", 6)
    return poisson_nll_loss(input, target, log_input, full, eps=eps, reduction=r)


def torch_margin_ranking_loss(
    input1: Any, input2: Any, target: Any, margin: float = 0.0, reduction: Any = 0
) -> Tensor:
    r = c_reduction(reduction, "margin_ranking_loss", 5)
    return _reduced(_margin_ranking(input1, input2, target, margin, False), r)


def torch_triplet_margin_loss(
    anchor: Any,
    positive: Any,
    negative: Any,
    margin: float = 1.0,
    p: float = 2,
    eps: float = 1e-6,
    swap: bool = False,
    reduction: Any = 0,
) -> Tensor:
    r = c_reduction(reduction, "triplet_margin_loss", 8)
    return _reduced(_triplet(anchor, positive, negative, margin, p, eps, swap, False), r)


def torch_hinge_embedding_loss(
    input: Any,  # noqa: A002
    target: Any,
    margin: float = 1.0,
    reduction: Any = 0,
) -> Tensor:
    r = c_reduction(reduction, "hinge_embedding_loss", 4)
    return _reduced(hinge_embedding_loss(input, target, margin, reduction="none"), r)


def torch_cosine_embedding_loss(
    input1: Any, input2: Any, target: Any, margin: float = 0.0, reduction: Any = 0
) -> Tensor:
    r = c_reduction(reduction, "cosine_embedding_loss", 5)
    return _reduced(cosine_embedding_loss(input1, input2, target, margin, reduction="none"), r)


def gaussian_nll_loss(
    input: Any,  # noqa: A002
    target: Any,
    var: Any,
    full: Any = False,
    eps: Any = 1e-6,
    reduction: Any = "mean",
) -> Tensor:
    """The negative log likelihood of a target under a normal of mean `input` and variance
    `var` (one per element, or one per sample broadcast over the last dim), as PyTorch's
    Python function: 0.5 (log var + (input - target)**2 / var), var clamped to eps without
    recording the clamp (its gradient passes unclamped), plus 0.5 log(2 pi) if `full`."""
    from ..core.inplace import write
    from ..core.tensor import no_grad

    if not isinstance(input, Tensor):  # PyTorch's code meets it in ones_like or input.size()
        if isinstance(var, float) and var >= 0:
            raise kernel_type_error("ones_like", "input", 1, input)
        if isinstance(var, Tensor) and not np.any(var.data < 0):
            sized_pair(input, var)
    x = A.tensor_arg(input, "input")
    if not isinstance(target, (Tensor, int, float)):  # met first in `input - target`
        raise GradcliError(
            f"unsupported operand type(s) for -: 'Tensor' and '{pytype_name(target)}'"
        ).mirror("TypeError")
    t = _target(target, x)
    if isinstance(var, float):
        if var < 0:
            raise GradcliError("var has negative entry/entries").mirror("ValueError")
        v = A.mul_t(F.INPLACE["fill_"](Tensor(np.ones_like(x.data)), 1.0), var)
    elif isinstance(var, Tensor):
        if np.any(var.data < 0):
            raise GradcliError("var has negative entry/entries").mirror("ValueError")
        v = var
    else:
        raise GradcliError(
            f"any(): argument 'input' (position 1) must be Tensor, not {typename(var < 0)}"
            if isinstance(var, (int, bool))
            else f"gaussian_nll_loss(): var must be a Tensor or a float, not {typename(var)}"
        ).mirror("TypeError")
    if v.shape != x.shape:
        if x.shape[:-1] == v.shape:
            v = F.unsqueeze(v, -1)
        elif not (x.ndim == v.ndim and sum(b for a, b in zip(x.shape, v.shape) if a != b) == 1):
            raise GradcliError("var is of incorrect size").mirror("ValueError")
    if reduction not in ("none", "mean", "sum"):
        raise GradcliError(f"{reduction} is not valid").mirror("ValueError")
    v = F.clone(v)
    with no_grad():
        write(v, np.maximum(v.data, np.asarray(eps).astype(v.dtype)))
    loss = A.mul_t(A.add_t(A.log(v), A.div_t(A.pow(A.sub_t(x, t), 2), v)), 0.5)
    if full:
        loss = F.INPLACE["add_"](loss, 0.5 * math.log(2 * math.pi))
    return _reduced(loss, reduction)


@legacy_reductions
def multilabel_soft_margin_loss(
    input: Any,  # noqa: A002
    target: Any,
    weight: Any = None,
    size_average: Any = None,
    reduce: Any = None,  # noqa: A002
    reduction: str = "mean",
) -> Tensor:
    """PyTorch's Python composition: -(t logsigmoid(x) + (1 - t) logsigmoid(-x)), times the
    weight, summed over the classes (the last dim) and divided by their number."""
    from .composite import logsigmoid

    if not isinstance(input, Tensor):  # met first in logsigmoid(input)
        raise kernel_type_error("log_sigmoid", "input", 1, input)
    if isinstance(target, (list, tuple, str)):  # Python's sequence repetition, `target * ...`
        raise GradcliError(
            "only integer tensors of a single element can be converted to an index"
        ).mirror("TypeError")
    if not isinstance(target, (Tensor, int, float)):
        raise GradcliError(
            f"unsupported operand type(s) for *: '{pytype_name(target)}' and 'Tensor'"
        ).mirror("TypeError")
    x = input
    t = _target(target, x)
    loss = A.neg(A.add_t(A.mul_t(t, logsigmoid(x)), A.mul_t(A.sub_t(1, t), logsigmoid(A.neg(x)))))
    if weight is not None:
        loss = A.mul_t(loss, A.tensor_arg(weight, "weight"))
    classes = x.shape[-1] if x.ndim else 1
    loss = A.div_t(F.sum(loss, x.ndim - 1 if x.ndim else None), classes)
    if reduction not in ("none", "mean", "sum"):
        # (PyTorch's own test, after the loss: no get_enum, so no 'elementwise_mean' either)
        raise GradcliError(f"{reduction} is not valid").mirror("ValueError")
    return _reduced(loss, reduction)


# --- ctc_loss ------------------------------------------------------------------------------


def _ctc_desc(v: Any) -> str:
    """An argument as PyTorch's parser describes it in its list of what it got."""
    if isinstance(v, list):
        return f"list of [{', '.join(pytype_name(e) for e in v)}]"
    if isinstance(v, tuple):
        return f"tuple of ({', '.join(pytype_name(e) for e in v)})"
    return pytype_name(v)


def _ctc_type_error(args: tuple) -> GradcliError:
    got = ", ".join(pytype_name(a) for a in args)
    marked = ", ".join(
        _ctc_desc(a) if i < 2 and isinstance(a, Tensor) else f"!{_ctc_desc(a)}!"
        for i, a in enumerate(args)
    )
    tail = "int blank = 0, int reduction = at::Reduction::Mean, bool zero_infinity = False)"
    return GradcliError(
        f"ctc_loss() received an invalid combination of arguments - got ({got}), but expected "
        "one of:\n"
        " * (Tensor log_probs, Tensor targets, tuple of ints input_lengths, tuple of ints "
        f"target_lengths, {tail}\n"
        "      didn't match because some of the arguments have invalid types: "
        f"({marked})\n"
        " * (Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, "
        f"{tail}\n"
        "      didn't match because some of the arguments have invalid types: "
        f"({marked})\n",
        hint="give the lengths as lists of ints or as integer tensors, one per batch item",
    ).mirror("TypeError")


def _ctc_lengths(v: Any, what: str) -> tuple | None:
    """Lengths given as a list / tuple of ints or an integer tensor (None: neither)."""
    if isinstance(v, Tensor):
        if v.dtype.kind not in "iu":
            raise GradcliError(f"{what} must be integral")
        return tuple(int(n) for n in np.asarray(v.data).reshape(-1))
    if isinstance(v, (list, tuple)) and all(
        isinstance(n, int) and not isinstance(n, bool) for n in v
    ):
        return tuple(v)
    return None


def _ctc_check(c: str, text: str) -> GradcliError:
    return GradcliError(f"{text} (while checking arguments for {c})")


def ctc_loss(
    log_probs: Any,
    targets: Any,
    input_lengths: Any,
    target_lengths: Any,
    blank: Any = 0,
    reduction: str = "mean",
    zero_infinity: Any = False,
) -> Tensor:
    """`F.ctc_loss` as ATen composes it: `_ctc_loss` (CtcLossBackward0) on (T, N, C) log
    probabilities (an unbatched (T, C) input unsqueezed at 1, its targets at 0), infinite
    losses zeroed by `where` with zero_infinity, then 'mean' divides each loss by its target
    length (at least 1) and averages, 'sum' adds, 'none' keeps them (squeezed back when
    unbatched)."""
    if reduction not in ("mean", "sum", "none"):
        raise GradcliError(f"{reduction} is not a valid value for reduction").mirror("ValueError")
    args = (log_probs, targets, input_lengths, target_lengths, blank, 1, zero_infinity)
    il = _ctc_lengths(input_lengths, "input_lengths")
    tl = _ctc_lengths(target_lengths, "target_lengths")
    same = isinstance(input_lengths, Tensor) == isinstance(target_lengths, Tensor)
    if (
        not isinstance(log_probs, Tensor)
        or not isinstance(targets, Tensor)
        or il is None
        or tl is None
        or not same
        or not isinstance(blank, int)
        or isinstance(blank, bool)
        or not isinstance(zero_infinity, bool)
    ):
        raise _ctc_type_error(args)
    c = "ctc_loss_allocate_outputs"
    batched = log_probs.ndim == 3
    x = log_probs if batched else S.unsqueeze(log_probs, 1)
    tg = targets if batched else F.unsqueeze(targets, 0)
    if x.ndim != 3:
        raise _ctc_check(
            c,
            f"Expected 3-dimensional tensor, but got {x.ndim}-dimensional tensor for argument #1 "
            "'log_probs'",
        )
    if x.dtype.kind != "f":
        raise GradcliError(
            f"\"ctc_loss_cpu\" not implemented for '{scalar_type_name(x.dtype)}'"
        ).mirror("NotImplementedError")
    if not 1 <= tg.ndim <= 2:
        raise _ctc_check(
            c,
            f"Expected 1 to 2 dimensions, but got {tg.ndim}-dimensional tensor for argument #2 "
            "'targets'",
        )
    n_t, n, n_c = x.shape
    if not 0 <= blank < n_c:
        raise GradcliError("blank must be in label range")
    if len(il) != n:
        raise GradcliError("input_lengths must be of size batch_size")
    if len(tl) != n:
        raise GradcliError("target_lengths must be of size batch_size")
    for v in tl:
        if v < 0:
            raise _ctc_check(
                c, f"Expected target_lengths to have value at least 0, but got value {v}"
            )
    if tg.ndim == 1:
        if tg.shape[0] != sum(tl):
            raise _ctc_check(
                c,
                f"Expected tensor to have size {sum(tl)} at dimension 0, but got size "
                f"{tg.shape[0]} for argument #2 'targets'",
            )
    else:
        if tg.shape[0] != n:
            raise _ctc_check(
                c,
                f"Expected tensor to have size {n} at dimension 0, but got size {tg.shape[0]} "
                "for argument #2 'targets'",
            )
        most = max(tl, default=0)
        if tg.shape[1] < most:
            raise _ctc_check(
                c,
                f"Expected tensor to have size at least {most} at dimension 1, but got size "
                f"{tg.shape[1]} for argument #2 'targets'",
            )
    for v in il:
        if v < 0:
            raise _ctc_check(
                c, f"Expected input_lengths to have value at least 0, but got value {v}"
            )
        if v > n_t:
            raise _ctc_check(
                c, f"Expected input_lengths to have value at most {n_t}, but got value {v}"
            )
    cells = n * n_t * (2 * max(tl, default=0) + 1)
    limits.TENSOR_ELEMENTS.check(cells, "ctc_loss's table of alignments (T * N * (2S + 1))")
    res = apply(
        Ctc.ctc_loss,
        x,
        targets=np.asarray(tg.data).astype(np.int64),
        input_lengths=il,
        target_lengths=tl,
        blank=blank,
        zero_infinity=zero_infinity,
    )
    if zero_infinity:
        res = F.where(Tensor(np.asarray(res.data) == np.inf), Tensor(np.zeros((), res.dtype)), res)
    if reduction == "mean":
        lengths = Tensor(np.maximum(np.asarray(tl, np.int64), 1).astype(res.dtype))
        return F.mean(A.div_op(res, lengths))
    if reduction == "sum":
        return F.sum(res)
    return res if batched else S.squeeze(res, 0)
