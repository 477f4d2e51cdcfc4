"""Loss records (PyTorch's defaults: reduction='mean'): mse_loss, binary_cross_entropy,
binary_cross_entropy_with_logits, nll_loss. Targets and weights are constants: NumPy arrays in
the params, or a tensor input that is not differentiated."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.dtypes import BF16, round_bf16
from ..core.op import REGISTRY, Sample, apply, defop, register
from ..core.summation import sum_float
from ..core.tensor import Tensor, constant, grad_enabled
from .elementwise import clamp
from .shape import reshape_to, unsqueeze
from .softmax32 import cascade_sum


def _reduce(a: np.ndarray, reduction: str) -> np.ndarray:
    """A loss's reduction as ATen's: float sums in its kernel's order (a mean is that sum
    divided by the count, in the dtype; half: in float, rounded once); other arrays (sympy's)
    as NumPy reduces them."""
    if reduction == "none":
        return a
    if isinstance(a, np.ndarray) and a.dtype == BF16:  # (as half's, rounded to bfloat16)
        return round_bf16(_reduce(a.astype(np.float32), reduction))
    if not isinstance(a, np.ndarray) or a.dtype.kind != "f":
        return np.mean(a) if reduction == "mean" else np.sum(a)
    if a.dtype == np.float16:  # in float, rounded once (a mean: the float sum / count)
        wide = _reduce(a.astype(np.float32), reduction)
        with np.errstate(over="ignore"):
            return np.asarray(wide).astype(np.float16)
    total = sum_float(a, tuple(range(a.ndim)), False)
    if reduction == "sum":
        return total
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.divide(total, a.dtype.type(a.size), dtype=a.dtype)


def _dtype_of(*arrays: Any) -> np.dtype:
    """The common dtype of a kernel's arrays: bfloat16 (`BF16`, which NumPy's promotion would
    take for float32) where one of them is, else NumPy's result type."""
    for a in arrays:
        if getattr(a, "dtype", None) == BF16:
            return BF16
    return np.result_type(*arrays)


def _loss_g(g: Tensor, out_ndim: int, shape: tuple, reduction: str) -> Tensor:
    """The upstream gradient of a loss, broadcastable to the elementwise losses' shape (the
    loss's own dimensions are `out_ndim`: a rule reads the loss's size, never its value)."""
    if reduction == "none":
        return g
    nb = g.ndim - out_ndim
    gu = reshape_to(g, g.shape[:nb] + (1,) * len(shape))
    n = int(np.prod(shape)) if shape else 1
    return gu / n if reduction == "mean" else gu


_FLOAT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _mse_vjp(g: Tensor, out: Tensor, x: Tensor, y: Tensor, reduction: str = "mean") -> tuple:
    shape = np.broadcast_shapes(x.shape, y.shape)
    dt = x.data.dtype
    if (
        reduction != "none"
        and not grad_enabled()
        and type(g) is Tensor
        and g.shape == out.shape
        and dt in _FLOAT_DTYPES
        and g.data.dtype == dt
        and y.data.dtype == dt
    ):
        # A first-order pass (nothing recorded, no batch axes): the kernel on the arrays, and
        # only the gradients that are wanted (a target seldom requires grad)
        gu = np.reshape(g.data, (1,) * len(shape))
        gx = _mse_backward_fwd(gu, x.data, y.data, reduction=reduction)
        # the target's as derivatives.yaml has it, the kernel with the two swapped (not -gx:
        # +0, not -0, where they are equal)
        gy = _mse_backward_fwd(gu, y.data, x.data, reduction=reduction) if y.requires_grad else None
        return (Tensor(gx) if x.requires_grad else None, None if gy is None else Tensor(gy))
    gu = g
    if reduction != "none":
        nb = g.ndim - out.ndim
        gu = reshape_to(g, g.shape[:nb] + (1,) * len(shape))
    if x.data.dtype == y.data.dtype == gu.data.dtype:
        # PyTorch's kernel, also recorded (create_graph=True: MseLossBackwardBackward0)
        gx = apply(mse_loss_backward, gu, x, y, reduction=reduction)
        return (gx, apply(mse_loss_backward, gu, y, x, reduction=reduction))
    else:
        gx = _loss_g(g, out.ndim, shape, reduction) * (x - y) * 2
    return (gx, -gx)


def _mse_backward_fwd(g: np.ndarray, x: np.ndarray, y: np.ndarray, *, reduction: str) -> Any:
    """ATen's mse_loss_backward: `norm * (x - y) * g`, norm = 2 / numel (mean) or 2, a double
    rounded to the tensors' dtype, each product rounded."""
    dt = np.result_type(g, x, y)
    n = int(np.prod(np.broadcast_shapes(x.shape, y.shape)))
    norm = np.asarray(2.0 / n if reduction == "mean" else 2.0, dtype=dt)
    with np.errstate(all="ignore"):
        return (norm * (x - y)) * g


def _grad_output_term(
    backward: Any, h: Tensor, g: Tensor, x: Tensor, t: Tensor, **params: Any
) -> Any:
    """derivatives.yaml's `*_double_backward_grad_output` of a loss's backward kernel (mse,
    soft_margin, huber): the kernel applied to h for 'none', else the kernel of ones times h
    (the engine sums it down to g's shape)."""
    if params["reduction"] == "none":
        return apply(backward, h, x, t, **params)
    return apply(backward, Tensor(np.ones(g.shape, dtype=g.dtype)), x, t, **params) * h


def _mse_backward_vjp(
    h: Tensor, out: Tensor, g: Tensor, x: Tensor, y: Tensor, *, reduction: str
) -> tuple:
    # derivatives.yaml: grad_output: mse_loss_double_backward_grad_output (the kernel of h for
    # 'none', else sum(kernel(ones) * h)); self: mse_loss_double_backward(h * g) = 2 * (h * g)
    # (/ numel for 'mean'); target: its negative
    dg = _grad_output_term(mse_loss_backward, h, g, x, y, reduction=reduction)
    dx = (h * g) * 2
    if reduction == "mean":
        dx = dx / int(np.prod(np.broadcast_shapes(x.shape, y.shape)))
    return (dg, dx, -dx)


# mse_loss's gradient as PyTorch computes it, also under create_graph=True (PINNs' weighted
# residual losses): its own node, MseLossBackwardBackward0
mse_loss_backward = defop(
    "mse_loss_backward",
    lambda g, x, y, reduction: _mse_backward_fwd(g, x, y, reduction=reduction),
    _mse_backward_vjp,
    "MseLossBackwardBackward0",
    "norm * (x - y) * h; 2 * h * g / n, -(same)",
    kind="internal",
    saves=False,
    samples=(
        Sample(((1, 1), (2, 3), (2, 3)), {"reduction": "mean"}),
        Sample(((1, 1), (2, 3), (2, 3)), {"reduction": "sum"}),
        Sample(((2, 3), (2, 3), (2, 3)), {"reduction": "none"}),
        Sample(((4, 1, 1), (2, 3), (2, 3)), {"reduction": "mean"}),
    ),
)


mse_loss = defop(
    "mse_loss",
    lambda x, y, reduction="mean": _reduce((x - y) ** 2, reduction),
    _mse_vjp,
    "MseLossBackward0",
    "g * 2 (x - y) / n, -(same)",
    kind="loss",
    signature="mse_loss(input, target, reduction='mean')",
    samples=tuple(
        Sample(a, {"reduction": r})
        for a, r in (
            (((2, 3), (2, 3)), "mean"),
            (((2, 3), (2, 3)), "sum"),
            (((2, 3), (2, 3)), "none"),
            (((2, 3), (3,)), "mean"),
            (((), ()), "mean"),
            (((4,), (4,)), "none"),
            (((3,), (2, 3)), "sum"),
        )
    ),
    to_torch=lambda w, a, p: f"F.mse_loss({a[0]}, {a[1]}, reduction={w.lit(p.get('reduction'))})",
    to_jax=lambda w, a, p: w.reduced(f"({a[0]} - {a[1]}) ** 2", p),
)


def _bce_check_ranges(p: np.ndarray, t: np.ndarray) -> None:
    """ATen's CPU kernel checks every element in order, the input then the target (a NaN
    fails both checks): the first element outside [0, 1] names which one is wrong."""
    p, t = np.broadcast_arrays(np.asarray(p), np.asarray(t))
    bad_p = ~((p >= 0) & (p <= 1))
    bad = bad_p | ~((t >= 0) & (t <= 1))
    if np.any(bad):
        first = np.flatnonzero(bad.ravel())[0]
        which = "input" if bad_p.ravel()[first] else "target"
        raise GradcliError(f"all elements of {which} should be between 0 and 1").mirror(
            "RuntimeError"
        )


def _bce_fwd(
    p: np.ndarray, t: np.ndarray, weight: np.ndarray | None = None, reduction: str = "mean"
) -> np.ndarray:
    _bce_check_ranges(p, t)
    # PyTorch clamps the logs at -100 so that p = 0 or 1 gives a finite loss.
    if isinstance(p, np.ndarray) and p.dtype == np.float32:
        # ATen's kernel is a scalar loop: the C library's logf and log1pf, element by element
        # (NumPy's float32 log is another approximation: a last bit differs for many inputs).
        from ..core.sleef32 import libm

        lp = np.maximum(libm("logf", p, np.log), np.float32(-100))
        l1p = np.maximum(libm("log1pf", -p, np.log1p), np.float32(-100))
    else:
        lp, l1p = np.maximum(np.log(p), -100), np.maximum(np.log1p(-p), -100)
    loss = -(t * lp + (1 - t) * l1p)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def _at_least(t: Tensor, low: float) -> Tensor:
    """`t.clamp(min=low)`."""
    return apply(clamp, t, min=float(low), max=None)


def _bce_vjp(
    g: Tensor, out: Tensor, p: Tensor, t: Tensor, weight: Any = None, reduction: str = "mean"
) -> tuple:
    # PyTorch's binary_cross_entropy_backward and _target_backward, in their order: the
    # upstream gradient times the elementwise derivative, times the weight, divided by the
    # count for a mean last (dividing the upstream gradient first moved last bits).
    if reduction == "none":
        gu = g
    else:
        nb = g.ndim - out.ndim
        gu = reshape_to(g, g.shape[:nb] + (1,) * p.ndim)
    from .arithmetic import named

    gp = gt = None
    kernel = (
        grad_enabled()
        and p.requires_grad
        and g.ndim == out.ndim
        and p.dtype in (np.float32, np.float64)
    )
    # only the gradients that are wanted (a target that does not require grad, the usual
    # case, costs its log for nothing)
    if p.requires_grad and not kernel:
        gp = gu * (p - t) / _at_least((1 - p) * p, 1e-12)
    if t.requires_grad:
        # FunctionsManual's binary_cross_entropy_target_backward: logit(p).neg_().mul_(grad)
        # (.mul_(weight)) (.div_(numel): DivBackward1 when recorded)
        gt = -(p / (1 - p)).log() * gu  # ATen's logit: log(p / (1 - p))
    if weight is not None:
        w = constant(weight)
        gp, gt = (None if gp is None else gp * w), (None if gt is None else gt * w)
    if reduction == "mean":
        n = p.data.size
        gp = None if gp is None else gp / n
        gt = None if gt is None else named(gt / n, "DivBackward1")
    if kernel:
        # create_graph=True: PyTorch's binary_cross_entropy_backward as its own node
        # (BinaryCrossEntropyBackwardBackward0), differentiated by its double-backward rules
        gp = apply(bce_backward, g, p, t, weight=weight, reduction=reduction)
    return (gp, gt)


def _bce_backward_fwd(
    g: np.ndarray, p: np.ndarray, t: np.ndarray, *, weight: Any = None, reduction: str = "mean"
) -> np.ndarray:
    """The input gradient `_bce_vjp` computes unrecorded, with its numbers (the upstream
    gradient a scalar for 'mean' and 'sum')."""
    with np.errstate(all="ignore"):
        gp = g * (p - t) / np.maximum((1 - p) * p, np.asarray(1e-12, p.dtype))
        if weight is not None:
            gp = gp * np.asarray(weight, p.dtype)
        if reduction == "mean":
            gp = gp / np.asarray(p.size, p.dtype)
    return np.asarray(gp, p.dtype)


_BCE_EPS = 1e-12


def _bce_backward_vjp(
    h: Tensor,
    out: Tensor,
    g: Tensor,
    p: Tensor,
    t: Tensor,
    *,
    weight: Any = None,
    reduction: str = "mean",
) -> tuple:
    # derivatives.yaml: grad_output: binary_cross_entropy_double_backward_grad_output;
    # self: binary_cross_entropy_double_backward (eps = 1e-12 added, as PyTorch's formulas)
    # (the operations in PyTorch's order as compiled: an operator's right operand first)
    w = None if weight is None else constant(weight)
    gg = None
    if g.requires_grad:
        one_m = (1 - p) + _BCE_EPS
        den = (p + _BCE_EPS) * one_m
        gg = (p - t) / den * h
        if w is not None:
            gg = gg * w
        if reduction == "mean":
            gg = gg / p.data.size  # (the engine sums it down to a scalar upstream gradient)
    inp_pl_eps = p + _BCE_EPS
    one_m_inp_pl_eps = (1 - p) + _BCE_EPS
    right = one_m_inp_pl_eps.pow(2)
    den = inp_pl_eps.pow(2) * right
    two_x_t = (p * 2) * t
    num = (p * p - two_x_t) + t
    gi = num / den
    gi = gi * (h * g)
    if w is not None:
        gi = gi * w
    if reduction == "mean":
        gi = gi / p.data.size
    gt = None
    if t.requires_grad:
        # binary_cross_entropy_double_backward_target: -h * g (* w) / clamp_min(p (1 - p),
        # eps) (/ numel); PyTorch clamps in place without recording, gradcli records the
        # clamp (the same below the bound, where its derivative is 0, not 1)
        gt = -h * g
        if w is not None:
            gt = gt * w
        gt = gt / _at_least((1 - p) * p, _BCE_EPS)
        if reduction == "mean":
            gt = gt / p.data.size
    return (gg, gi, gt)


# binary_cross_entropy's input gradient under create_graph=True: PyTorch's kernel as its own
# node (its target's gradient, when the target requires grad, the composition of ATen's
# binary_cross_entropy_target_backward)
bce_backward = defop(
    "bce_backward",
    _bce_backward_fwd,
    _bce_backward_vjp,
    "BinaryCrossEntropyBackwardBackward0",
    "g * (p - t) / max(p (1 - p), 1e-12)",
    kind="internal",
    saves=False,
    sym=lambda sp, g, p, t, weight=None, reduction="mean": (
        np.frompyfunc(lambda gv, a, b: gv * (a - b) / sp.Max(a * (1 - a), 1e-12), 3, 1)(g, p, t)
        * (1 if weight is None else weight)
        / (p.size if reduction == "mean" else 1)
    ),
    samples=(
        Sample(
            ((), (2, 3), (2, 3)),
            {"reduction": "mean"},
            low=0.05,
            high=0.95,
            hessian=False,
        ),
        Sample(
            ((2, 3), (2, 3), (2, 3)),
            {"reduction": "none", "weight": np.array([[0.5, 1.0, 2.0], [1.5, 0.2, 1.0]])},
            low=0.05,
            high=0.95,
            hessian=False,
        ),
    ),
)


def _torch_weight(w: Any, p: dict[str, Any]) -> str:
    """Export text: `, weight=torch.tensor(...)` for a weight param, nothing for None."""
    weight = p.get("weight")
    return "" if weight is None else f", weight={w.array(weight)}"


def _jax_bce(w: Any, a: list[str], p: dict[str, Any]) -> str:
    # PyTorch clamps both logs at -100.
    code = (
        f"-({a[1]} * jnp.maximum(jnp.log({a[0]}), -100.0) + (1 - {a[1]}) * "
        f"jnp.maximum(jnp.log1p(-{a[0]}), -100.0))"
    )
    weight = p.get("weight")
    if weight is not None:
        code = f"{code} * {w.array(weight)}"
    return w.reduced(code, p)


binary_cross_entropy = defop(
    "binary_cross_entropy",
    _bce_fwd,
    _bce_vjp,
    "BinaryCrossEntropyBackward0",
    "g * (p - t) / max(p (1 - p), 1e-12), g * (log(1 - p) - log(p))",
    kind="loss",
    # (the sympy form leaves out the clamp of the logs at -100)
    sym=lambda sp, p, t, weight=None, reduction="mean": _reduce(
        np.frompyfunc(lambda a, b: -(b * sp.log(a) + (1 - b) * sp.log(1 - a)), 2, 1)(p, t)
        * (1 if weight is None else weight),
        reduction,
    ),
    signature="binary_cross_entropy(input, target, weight=None, reduction='mean')",
    samples=tuple(
        Sample(a, q, low=0.05, high=0.95)
        for a, q in (
            (((2, 3), (2, 3)), {"reduction": "mean"}),
            (((2, 3), (2, 3)), {"reduction": "sum"}),
            (((2, 3), (2, 3)), {"reduction": "none"}),
            (((), ()), {"reduction": "mean"}),
            (((4,), (4,)), {"reduction": "none"}),
            (
                ((2, 3), (2, 3)),
                {"reduction": "mean", "weight": np.array([[0.5, 1.0, 2.0], [1.5, 0.2, 1.0]])},
            ),
            (((2, 3), (2, 3)), {"reduction": "none", "weight": np.array([[0.5, 1.0, 2.0]] * 2)}),
        )
    ),
    to_torch=lambda w, a, p: (
        f"F.binary_cross_entropy({a[0]}, {a[1]}{_torch_weight(w, p)}, "
        f"reduction={w.lit(p.get('reduction'))})"
    ),
    to_jax=_jax_bce,
)


def _bcel_fwd(
    x: np.ndarray,
    t: np.ndarray,
    weight: np.ndarray | None = None,
    reduction: str = "mean",
    pos_weight: np.ndarray | None = None,
) -> np.ndarray:
    """ATen's (1 - t) x - log_sigmoid(x), each step rounded in the target's dtype (that of the
    loss: ATen works in place on 1 - t; log_sigmoid, in the input's dtype, is the
    logsigmoid record's forward: its float32 bits are ATen's vector kernel's); with a
    pos_weight p, log_sigmoid(x) is first scaled in place by (p - 1) t + 1, as ATen does. The
    weights are multiplied in place: in their common dtype, rounded to the target's."""
    from .activation import logsigmoid_values

    with np.errstate(all="ignore"):
        ls = logsigmoid_values(x)
        if pos_weight is not None:
            lw = (pos_weight - pos_weight.dtype.type(1)) * t
            ls = (ls * (lw + lw.dtype.type(1))).astype(x.dtype)
        # each step in place on 1 - t: the loss keeps the target's dtype (a float64 input
        # with a float32 target: a float32 loss), each product rounded to it
        loss = ((t.dtype.type(1) - t) * x).astype(t.dtype)
        loss = (loss - ls).astype(t.dtype)
        if weight is not None:
            loss = (loss * weight).astype(t.dtype)
    return _reduce(loss, reduction)


def _bcel_vjp(
    g: Tensor,
    out: Tensor,
    x: Tensor,
    t: Tensor,
    weight: Any = None,
    reduction: str = "mean",
    pos_weight: Any = None,
) -> tuple:
    # PyTorch's binary_cross_entropy_with_logits_backward and _target_backward, in their order:
    # (sigmoid(x) - t), or with a pos_weight p and q = p t: ((q + 1) - t) sigmoid(x) - q; the
    # target's: log_sigmoid(-x) - log_sigmoid(x) p, or -x; each times the upstream gradient,
    # times the weight, divided by the count for a mean (in place: a weight of a wider dtype
    # does not widen the result; the input's gradient is cast to its dtype at the end).
    from .arithmetic import cast

    if reduction == "none":
        gu = g
    else:
        nb = g.ndim - out.ndim
        gu = reshape_to(g, g.shape[:nb] + (1,) * x.ndim)
    # (not recording, ATen's steps are in place on sigmoid(x), or on q + 1: with a target of
    # another dtype, gx keeps that first operand's dtype, each step rounded to it)
    inplace = not grad_enabled()
    if pos_weight is None:
        gx, gt = x.sigmoid() - t, -x
        if inplace:
            gx = cast(gx, x.dtype)
    else:
        from .activation import logsigmoid

        p = constant(pos_weight)
        q = p * t
        if inplace:
            gx = cast(cast(cast((q + 1) - t, q.dtype) * x.sigmoid(), q.dtype) - q, q.dtype)
        else:
            gx = ((q + 1) - t) * x.sigmoid() - q
        ls = apply(logsigmoid, x)
        gt = apply(logsigmoid, -x) - cast(ls * p, ls.dtype)
    gx, gt = cast(gx * gu, gx.dtype), cast(gt * gu, gt.dtype)
    if weight is not None:
        w = constant(weight)
        gx, gt = cast(gx * w, gx.dtype), cast(gt * w, gt.dtype)
    if reduction == "mean":
        n = x.data.size
        gx, gt = gx / n, gt / n
        for r in (gx, gt):
            if r.node is not None:  # ATen divides by a C++ number: div(Tensor, Scalar)
                r.node.label = "DivBackward1"
    return (cast(gx, x.dtype), cast(gt, t.dtype))


def _bcel_sym(sp: Any, x: Any, t: Any, weight=None, reduction="mean", pos_weight=None) -> Any:
    if pos_weight is None:
        loss = np.frompyfunc(lambda a, b: sp.log(1 + sp.exp(a)) - a * b, 2, 1)(x, t)
    else:
        loss = np.frompyfunc(
            lambda a, b, p: (1 - b) * a + ((p - 1) * b + 1) * sp.log(1 + sp.exp(-a)), 3, 1
        )(x, t, pos_weight)
    return _reduce(loss * (1 if weight is None else weight), reduction)


def _torch_pos_weight(w: Any, p: dict[str, Any]) -> str:
    pw = p.get("pos_weight")
    return "" if pw is None else f", pos_weight={w.array(pw)}"


binary_cross_entropy_with_logits = defop(
    "binary_cross_entropy_with_logits",
    _bcel_fwd,
    _bcel_vjp,
    "BinaryCrossEntropyWithLogitsBackward0",
    "g * (sigmoid(x) - t) / n, -g * x / n (pos_weight p, q = p t: g * ((q + 1 - t) sigmoid(x)"
    " - q) / n, g * (log_sigmoid(-x) - p log_sigmoid(x)) / n)",
    kind="loss",
    sym=_bcel_sym,
    signature=(
        "binary_cross_entropy_with_logits(input, target, weight=None, reduction='mean', "
        "pos_weight=None)"
    ),
    samples=tuple(
        Sample(a, q, low=-3.0, high=3.0)
        for a, q in (
            (((2, 3), (2, 3)), {"reduction": "mean"}),
            (((2, 3), (2, 3)), {"reduction": "sum"}),
            (((2, 3), (2, 3)), {"reduction": "none"}),
            (((), ()), {"reduction": "mean"}),
            (
                ((2, 3), (2, 3)),
                {"reduction": "mean", "weight": np.array([[0.5, 1.0, 2.0], [1.5, 0.2, 1.0]])},
            ),
            (((2, 3), (2, 3)), {"reduction": "sum", "pos_weight": np.array([0.5, 3.0, 1.5])}),
            (
                ((2, 3), (2, 3)),
                {
                    "reduction": "none",
                    "pos_weight": np.array([2.0, 0.25, 1.0]),
                    "weight": np.array([[0.5, 1.0, 2.0], [1.5, 0.2, 1.0]]),
                },
            ),
        )
    ),
    to_torch=lambda w, a, p: (
        f"F.binary_cross_entropy_with_logits({a[0]}, {a[1]}{_torch_weight(w, p)}, "
        f"reduction={w.lit(p.get('reduction'))}{_torch_pos_weight(w, p)})"
    ),
    to_jax=lambda w, a, p: w.reduced(
        (
            f"(jnp.logaddexp(0.0, {a[0]}) - {a[0]} * {a[1]})"
            if p.get("pos_weight") is None
            else f"((1 - {a[1]}) * {a[0]} + (({w.array(p['pos_weight'])} - 1) * {a[1]} + 1)"
            f" * jnp.logaddexp(0.0, -{a[0]}))"
        )
        + ("" if p.get("weight") is None else f" * {w.array(p['weight'])}"),
        p,
    ),
)


def _nll_fwd(
    x: np.ndarray,
    target: np.ndarray,
    weight: np.ndarray | None = None,
    reduction: str = "mean",
    ignore_index: int = -100,
) -> np.ndarray:
    if getattr(x, "ndim", None) == 1 and np.ndim(target) == 1:
        # One unbatched sample with a one-item target: PyTorch's forward reads it as 0-d.
        target = np.asarray(target).reshape(())
    if isinstance(x, np.ndarray) and x.dtype in (np.float32, np.float64, np.float16):
        # (float16: ATen's partial sums are of the tensor's dtype, each addition rounded to it)
        return _nll_aten(x, np.asarray(target), weight, reduction, ignore_index)
    m = _nll_mask(x.shape, target, weight, ignore_index, x.dtype)
    picked = -np.sum(m * x, axis=-1)
    if reduction == "none":
        # An ignored target's loss is PyTorch's +0 (not the -0 of negating a zero sum).
        return np.where(np.asarray(target) != ignore_index, picked, x.dtype.type(0))
    total = np.sum(picked)
    if reduction == "sum":
        return total
    return total / np.sum(m)


def _nll_aten(
    x: np.ndarray, target: np.ndarray, weight: Any, reduction: str, ignore_index: int
) -> np.ndarray:
    """nll_loss of an (N, C) or (C,) float array as ATen's `nll_loss_out_frame` computes it:
    `-x[i, t] * w[t]` per item (0 where ignored); reduced, the negated picked values (times
    the weight) added over the batch in its cascade of partial sums (`cascade_sum`), a mean
    divided by the weights of the targets kept, summed the same way, or by their count."""
    dt = x.dtype.type
    x2 = x.reshape(-1, x.shape[-1])
    t = target.reshape(-1).astype(np.int64)
    keep = np.flatnonzero(t != ignore_index)
    d = x2[keep, t[keep]]
    w = None if weight is None else np.asarray(weight, dtype=x.dtype)[t[keep]]
    if reduction == "none":
        out = np.zeros(t.shape, x.dtype)
        out[keep] = -d if w is None else -d * w
        return out.reshape(target.shape)
    total = cascade_sum(-d if w is None else -(d * w), keep)
    if reduction == "sum":
        return np.asarray(total, x.dtype)
    if w is None:
        den = dt(len(keep))
    else:
        den = cascade_sum(w, keep)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(np.divide(total, den, dtype=x.dtype))


def _nll_mask(shape: tuple, target: np.ndarray, weight: Any, ignore_index: int, dtype) -> Any:
    """One-hot of the targets, times the class weight, zero where target == ignore_index."""
    c = shape[-1]
    t = np.asarray(target)
    m = (np.arange(c) == t[..., None]).astype(dtype)
    if weight is not None:
        m = m * np.asarray(weight, dtype=dtype)
    return m * (t != ignore_index)[..., None]


def _nll_grad_aten(
    g: np.ndarray, shape: tuple, target: Any, weight: Any, reduction: str, ignore_index: int
) -> np.ndarray:
    """nll_loss's gradient as ATen's `nll_loss_backward_out_frame` writes it (no graph): zeros,
    then at each kept target `-w * g[i]` ('none') or `w * -(g / total_weight)` ('mean', the
    weight summed as the forward sums it; 'sum': `w * -g`)."""
    dt = g.dtype.type
    gi = np.zeros(shape, g.dtype)
    gi2 = gi.reshape(-1, shape[-1])
    t = np.asarray(target).reshape(-1).astype(np.int64)
    keep = np.flatnonzero(t != ignore_index)
    w = None if weight is None else np.asarray(weight, dtype=g.dtype)[t[keep]]
    with np.errstate(all="ignore"):
        if reduction == "none":
            gv = g.reshape(-1)[keep]
            gi2[keep, t[keep]] = -gv if w is None else -w * gv
            return gi
        if reduction == "mean":
            tw = dt(len(keep)) if w is None else cascade_sum(w, keep)
            grad = -np.divide(g.reshape(()), tw, dtype=g.dtype)
        else:
            grad = -g.reshape(())
        gi2[keep, t[keep]] = grad if w is None else w * grad
    return gi


def _nll_vjp(
    g: Tensor,
    out: Tensor,
    x: Tensor,
    target: np.ndarray,
    weight: Any = None,
    reduction: str = "mean",
    ignore_index: int = -100,
) -> tuple:
    if x.ndim == 1 and np.ndim(target) == 1:
        # The forward took a one-item target for an unbatched input; PyTorch's backward does not.
        raise GradcliError(f"size mismatch (got input: [{x.shape[0]}], target: [1])")
    if (
        not grad_enabled()
        and x.dtype in (np.float32, np.float64)
        and g.dtype == x.dtype
        and g.shape == out.shape
        and isinstance(g.data, np.ndarray)
    ):
        return (Tensor(_nll_grad_aten(g.data, x.shape, target, weight, reduction, ignore_index)),)
    m = _nll_mask(x.shape, target, weight, ignore_index, x.dtype)
    if reduction == "none":
        return (_nll_place(unsqueeze(g, -1) * constant(-m), x, target, ignore_index),)
    nb = g.ndim - out.ndim
    gu = reshape_to(g, g.shape[:nb] + (1,) * x.ndim)
    if reduction == "mean" and x.dtype in (np.float32, np.float64):
        # ATen: w[t] * -(g / total_weight), the total weight summed as the forward sums it.
        t = np.asarray(target).reshape(-1).astype(np.int64)
        keep = np.flatnonzero(t != ignore_index)
        if weight is None:
            tw = x.dtype.type(len(keep))
        else:
            tw = cascade_sum(np.asarray(weight, dtype=x.dtype)[t[keep]], keep)
        return (_nll_place((gu / tw) * constant(-m), x, target, ignore_index),)
    scale = -m / np.sum(m) if reduction == "mean" else -m
    return (_nll_place(gu * constant(scale), x, target, ignore_index),)


def _nll_place(v: Tensor, x: Tensor, target: Any, ignore_index: int) -> Tensor:
    """The recorded gradient (create_graph, torch.func.grad) written only at the kept targets,
    into zeros, as ATen's nll_loss_backward: +0.0 elsewhere (the product with the mask's zeros
    gave -0.0 there, and NaN for an infinite g)."""
    from .binary import where

    hot = _nll_mask(x.shape, target, None, ignore_index, np.float64) != 0
    return apply(where, Tensor(hot), v, constant(np.zeros((), v.dtype)))


def _jax_nll(w: Any, a: list[str], p: dict[str, Any]) -> str:
    """Export text: -x[..., target] times the class weight (0 at ignore_index), reduced; the
    one-hot mask of the targets is a constant of the script."""
    x = w.inputs[0]
    target = np.asarray(p["target"])
    m = (np.arange(x.shape[-1]) == target[..., None]).astype(x.dtype)
    if p.get("weight") is not None:
        m = m * np.asarray(p["weight"], dtype=x.dtype)
    m = m * (target != p.get("ignore_index", -100))[..., None]
    code = f"-jnp.sum({w.array(m)} * {a[0]}, axis=-1)"
    r = p.get("reduction", "mean")
    if r == "none":
        return code
    if r == "sum":
        return f"jnp.sum({code})"
    return f"jnp.sum({code}) / {w.lit(float(m.sum()))}"


nll_loss = defop(
    "nll_loss",
    _nll_fwd,
    _nll_vjp,
    "NllLossBackward0",
    "-g * w[t] / sum(w[t]) at the target classes, 0 elsewhere",
    # PyTorch's NllLossBackward0 saves the input (the rule reads only its size), not the loss
    reads=lambda p: (False, None),
    kind="loss",
    signature="nll_loss(input, target, weight=None, reduction='mean', ignore_index=-100)",
    samples=tuple(
        Sample(a, {"target": np.array(t), **q})
        for a, t, q in (
            (((3, 4),), [0, 2, 1], {"reduction": "mean"}),
            (((3, 4),), [0, 2, 1], {"reduction": "sum"}),
            (((3, 4),), [0, 2, 3], {"reduction": "none"}),
            (((3, 4),), [3, 3, 1], {"weight": np.array([1.0, 2.0, 0.5, 1.5])}),
            (((3, 4),), [0, 1, 2], {"weight": np.array([1.0, 2.0, 0.5, 1.5]), "reduction": "none"}),
            (((3, 4),), [0, -100, 3], {"ignore_index": -100}),
            (((3, 4),), [1, 2, 1], {"ignore_index": 1, "reduction": "sum"}),
            (((4,),), 2, {"reduction": "mean"}),
            (((4,),), 1, {"reduction": "none"}),
        )
    ),
    to_torch=lambda w, a, p: (
        f"F.nll_loss({a[0]}, torch.tensor({w.lit(p['target'])})"
        f"{_torch_weight(w, p)}, reduction={w.lit(p.get('reduction'))}, "
        f"ignore_index={w.lit(p.get('ignore_index', -100))})"
    ),
    to_jax=_jax_nll,
)


# --- soft_margin_loss: log(1 + exp(-t * x)), reduced ------------------------------------------


def _soft_margin_elements(x: np.ndarray, t: np.ndarray) -> np.ndarray:
    # ATen's forward: log1p(exp(-x * t)), each step its own kernel (the records' exp and log1p)
    from . import elementwise as E

    with np.errstate(all="ignore"):
        return E.log1p.forward(E.exp.forward(np.negative(x) * t))


def _soft_margin_norm(x: np.ndarray, t: np.ndarray, reduction: str) -> float:
    n = int(np.prod(np.broadcast_shapes(np.shape(x), np.shape(t))))
    return 1.0 / n if reduction == "mean" else 1.0


def _soft_margin_backward_fwd(g: np.ndarray, x: np.ndarray, t: np.ndarray, *, reduction: str):
    """ATen's soft_margin_loss_backward, step by step in place: z = exp(-t * x); (t * z) times
    -norm (a double rounded to the dtype), divided by z + 1, times g."""
    from . import elementwise as E

    dt = np.result_type(x, t)
    with np.errstate(all="ignore"):
        z = E.exp.forward(np.negative(t) * x)
        gi = (t * z) * dt.type(-_soft_margin_norm(x, t, reduction))
        return (gi / (z + dt.type(1))) * g


def _soft_margin_backward_vjp(
    h: Tensor, out: Tensor, g: Tensor, x: Tensor, t: Tensor, *, reduction: str
) -> tuple:
    # derivatives.yaml: grad_output: soft_margin_loss_double_backward_grad_output (the kernel
    # of h for 'none', else sum(kernel(ones) * h)); self: soft_margin_loss_double_backward(
    # h * g) = (h * g) * (t * t) * z / ((z + 1) * (z + 1)), z = exp(x * -t), / numel (mean)
    dg = _grad_output_term(soft_margin_loss_backward, h, g, x, t, reduction=reduction)
    z = (x * -t).exp()
    zp1 = z + 1
    dx = (h * g) * (t * t) * z / (zp1 * zp1)
    if reduction == "mean":
        dx = dx / int(np.prod(np.broadcast_shapes(x.shape, t.shape)))
    return (dg, dx, None)


soft_margin_loss_backward = defop(
    "soft_margin_loss_backward",
    lambda g, x, t, reduction: _soft_margin_backward_fwd(g, x, t, reduction=reduction),
    _soft_margin_backward_vjp,
    "SoftMarginLossBackwardBackward0",
    "-norm * t * z / (1 + z) * h, z = exp(-t x); h g t^2 z / (1 + z)^2 (/ n)",
    kind="internal",
    saves=False,
    nondiff=(2,),
    samples=(
        Sample(((1, 1), (2, 3), (2, 3)), {"reduction": "mean"}),
        Sample(((2, 3), (2, 3), (2, 3)), {"reduction": "none"}),
    ),
)


def _soft_margin_vjp(g: Tensor, out: Tensor, x: Tensor, t: Tensor, reduction: str = "mean"):
    gu = g
    if reduction != "none":
        nb = g.ndim - out.ndim
        gu = reshape_to(g, g.shape[:nb] + (1,) * x.ndim)
    return (apply(soft_margin_loss_backward, gu, x, t, reduction=reduction), None)


soft_margin_loss = defop(
    "soft_margin_loss",
    lambda x, t, reduction="mean": _reduce(_soft_margin_elements(x, t), reduction),
    _soft_margin_vjp,
    "SoftMarginLossBackward0",
    "g * -t * z / (1 + z) / n, z = exp(-t x)",
    kind="loss",
    nondiff=(1,),
    signature="soft_margin_loss(input, target, reduction='mean')",
    samples=tuple(
        Sample(a, {"reduction": r})
        for a, r in (
            (((2, 3), (2, 3)), "mean"),
            (((2, 3), (2, 3)), "sum"),
            (((4,), (4,)), "none"),
        )
    ),
    to_torch=lambda w, a, p: (
        f"F.soft_margin_loss({a[0]}, {a[1]}, reduction={w.lit(p.get('reduction'))})"
    ),
    to_jax=lambda w, a, p: w.reduced(f"jnp.log1p(jnp.exp(-{a[0]} * {a[1]}))", p),
)


# --- sympy forms of the records above (tests/analysis: symbolic derivatives) ------------------


def _sym_elementwise(fn, *arrays: np.ndarray) -> np.ndarray:
    arrays = np.broadcast_arrays(*(np.asarray(a, dtype=object) for a in arrays))
    return np.frompyfunc(fn, len(arrays), 1)(*arrays)


def _sym_reduce(loss: np.ndarray, reduction: str) -> Any:
    if reduction == "none":
        return loss
    total = np.sum(loss)
    return np.asarray(total / loss.size if reduction == "mean" else total, dtype=object)


def _sym_norm(x: np.ndarray, t: np.ndarray, reduction: str) -> Any:
    n = int(np.prod(np.broadcast_shapes(np.shape(x), np.shape(t))))
    return 1 / n if reduction == "mean" else 1


def _sym_soft_margin(sp, x, t, reduction="mean"):
    return _sym_reduce(_sym_elementwise(lambda a, b: sp.log(1 + sp.exp(-a * b)), x, t), reduction)


def _sym_soft_margin_backward(sp, g, x, t, reduction):
    norm = _sym_norm(x, t, reduction)
    return _sym_elementwise(
        lambda gv, a, b: -norm * b * sp.exp(-a * b) / (1 + sp.exp(-a * b)) * gv, g, x, t
    )


for _name, _sym in (
    ("soft_margin_loss", _sym_soft_margin),
    ("soft_margin_loss_backward", _sym_soft_margin_backward),
):
    globals()[_name] = register(REGISTRY[_name].replace(sym=_sym))


# --- smooth_l1_loss and huber_loss: one shape, d = x - t, p = beta or delta ---------------------
# smooth_l1: 0.5 d^2 / p below p, |d| - 0.5 p above; huber: 0.5 d^2 below p, p (|d| - 0.5 p)
# above: huber is smooth_l1 times p. ATen writes each with its own kernels, and the place of the
# multiplication or division by p decides float32 bits, so the maker below takes `divides`
# (smooth_l1: the quadratic part divided by p) and keeps each kernel's own order.


def _make_l2_l1_loss(
    name: str, param: str, *, divides: bool, torch_name: str, bwd_torch_name: str
) -> tuple:
    """The records of one of the two losses (the loss and its backward kernel as an op, for
    double backward), with ATen's arithmetic of each."""

    def elements(x: np.ndarray, t: np.ndarray, p: float) -> np.ndarray:
        # ATen's forward kernel: z = |x - t|; smooth_l1: 0.5 * z * z / p where z < p, else
        # z - 0.5 * p; huber: 0.5 * z * z where z < p, else p * (z - 0.5 * p)
        dt = _dtype_of(x, t)
        if dt == (BF16 if divides else np.float16):
            # measured: smooth_l1 on bfloat16 and huber on half compute in float (the
            # difference unrounded) and round the loss once; the other two, op by op
            out = elements(np.asarray(x, np.float32), np.asarray(t, np.float32), p)
            return round_bf16(out) if dt == BF16 else out.astype(dt)
        pv, half = dt.type(p), dt.type(0.5)
        with np.errstate(all="ignore"):
            z = np.abs(x - t)
            if divides:
                return np.where(z < pv, ((half * z) * z) / pv, z - half * pv).astype(dt)
            return np.where(z < pv, (half * z) * z, pv * (z - half * pv)).astype(dt)

    def backward_fwd(g, x, t, reduction: str, p: float) -> np.ndarray:
        # ATen's backward kernel. The vector loop rounds (norm * inner) * g, inner = d / p or
        # +-1 (smooth_l1), d or +-p (huber); the scalar loop keeps p a double, as are its
        # comparisons: smooth_l1 (norm * d) * g / p or +-norm * g, huber (norm * d) * g or
        # (+-norm * g) * p. norm = 1 / numel for 'mean' (a double rounded to the dtype), else 1.
        # float64 arrays: the vector loop's rule throughout.
        from ..core import sleef32

        dt = _dtype_of(g, x, t)
        shape = np.broadcast_shapes(np.shape(g), np.shape(x), np.shape(t))
        n = int(np.prod(np.broadcast_shapes(np.shape(x), np.shape(t))))
        norm = dt.type(1.0 / n if reduction == "mean" else 1.0)
        pv = dt.type(p)
        one = dt.type(1)

        def vec(xv, tv, gv):
            d = xv - tv
            sign = np.where(d > 0, one, -one)
            if divides:
                inner = np.where(np.abs(d) >= pv, sign, d / pv)
            else:
                inner = np.where(np.abs(d) >= pv, sign * pv, d)
            return (norm * inner) * gv

        def scalar(xv, tv, gv):
            d = xv - tv
            d64 = d.astype(np.float64)
            mid, lo, hi = (norm * d) * gv, -norm * gv, norm * gv
            if divides:
                mid = (mid.astype(np.float64) / p).astype(dt)
            else:
                lo, hi = ((v.astype(np.float64) * p).astype(dt) for v in (lo, hi))
            return np.where(d64 <= -p, lo, np.where(d64 >= p, hi, mid))

        with np.errstate(all="ignore"):
            if divides and dt in (np.float16, BF16):
                # ATen's reduced-precision kernel: the values converted to float, computed in
                # float (norm and beta floats) and rounded once; its vector loop steps over
                # Vectorized<Half> / <BFloat16> (twice float's elements), its vector function
                # (norm * inner) * g, its scalar tail ((norm * d) * g) / beta or +-norm * g
                f = np.float32
                fn, fp, fone = f(1.0 / n if reduction == "mean" else 1.0), f(p), f(1)

                def rvec(xv, tv, gv):
                    d = xv - tv
                    sign = np.where(d > 0, fone, -fone)
                    return (fn * np.where(np.abs(d) >= fp, sign, d / fp)) * gv

                def rscalar(xv, tv, gv):
                    d = xv - tv
                    mid = ((fn * d) * gv) / fp
                    return np.where(d <= -fp, -fn * gv, np.where(d >= fp, fn * gv, mid))

                xs, ts, gs = (np.broadcast_to(np.asarray(a, f), shape) for a in (x, t, g))
                if len(shape):
                    got = sleef32.split_loop(
                        rvec, rscalar, xs, ts, gs, dtype=f, step_of=np.float16, avx2_only=True
                    )
                else:
                    got = rscalar(xs, ts, gs)
                return round_bf16(got) if dt == BF16 else np.asarray(got).astype(dt)
            if dt in (np.float32, np.float16) and len(shape):
                # (half: Vectorized<Half>, twice the elements a step; each operation rounded)
                xs, ts, gs = (np.broadcast_to(np.asarray(a, dt), shape) for a in (x, t, g))
                # (ATen builds these kernels for AVX2 only: a Zen 4 runs their steps too)
                return sleef32.split_loop(vec, scalar, xs, ts, gs, dtype=dt.type, avx2_only=True)
            return np.asarray(vec(x, t, g), dtype=dt)

    def backward_vjp(h: Tensor, out: Tensor, g: Tensor, x: Tensor, t: Tensor, **kw) -> tuple:
        # derivatives.yaml. grad_output: smooth_l1 the kernel of h; huber the kernel of h for
        # 'none', else kernel(ones) * h (summed to g's shape by the engine). self: (h * g) *
        # (|x - t| < p), divided by p for smooth_l1, by numel for 'mean'; target: its negative
        p, reduction = kw[param], kw["reduction"]
        if divides:
            dg = apply(backward, h, x, t, **kw)
        else:
            dg = _grad_output_term(backward, h, g, x, t, **kw)
        mask = constant(np.asarray(np.abs(x.data - t.data) < p, dtype=h.dtype))
        dx = (h * g) * mask
        if divides:
            dx = dx / p
        if reduction == "mean":
            dx = dx / int(np.prod(np.broadcast_shapes(x.shape, t.shape)))
        return (dg, dx, -dx)

    def vjp(g: Tensor, out: Tensor, x: Tensor, t: Tensor, reduction="mean", **kw) -> tuple:
        kw = {"reduction": reduction, param: kw.get(param, 1.0)}
        gu = g
        if reduction != "none":
            nb = g.ndim - out.ndim
            gu = reshape_to(g, g.shape[:nb] + (1,) * len(np.broadcast_shapes(x.shape, t.shape)))
        # the target's as derivatives.yaml has it: the kernel with the two swapped
        return (apply(backward, gu, x, t, **kw), apply(backward, gu, t, x, **kw))

    inner = f"(x - t) / {param}, -1, 1" if divides else f"x - t, -{param}, {param}"
    backward = defop(
        f"{name}_backward",
        lambda g, x, t, reduction, **kw: backward_fwd(g, x, t, reduction, kw[param]),
        backward_vjp,
        bwd_torch_name,
        f"norm * clamp({inner}) * h; h g (|x - t| < {param})"
        + (f" / {param}" if divides else "")
        + " (/ n), -(same)",
        kind="internal",
        saves=False,
        samples=(
            Sample(((1, 1), (2, 3), (2, 3)), {"reduction": "mean", param: 1.0}, low=-0.4, high=0.4),
            Sample(((2, 3), (2, 3), (2, 3)), {"reduction": "none", param: 2.0}, low=-0.8, high=0.8),
        ),
        sym=lambda sp, g, x, t, reduction, **kw: _sym_l2_l1_backward(
            sp, g, x, t, reduction, kw[param], divides
        ),
    )

    def lit(w, p):
        return w.lit(p.get(param, 1.0))

    def jax_text(w, a, p):
        d, q = f"({a[0]} - {a[1]})", lit(w, p)
        quad = f"0.5 * {d} ** 2 / {q}" if divides else f"0.5 * {d} ** 2"
        lin = f"jnp.abs{d} - 0.5 * {q}" if divides else f"{q} * (jnp.abs{d} - 0.5 * {q})"
        return w.reduced(f"jnp.where(jnp.abs{d} < {q}, {quad}, {lin})", p)

    loss = defop(
        name,
        lambda x, t, reduction="mean", **kw: _reduce(elements(x, t, kw.get(param, 1.0)), reduction),
        vjp,
        torch_name,
        f"g * clamp({inner}) / n, -(same)",
        kind="loss",
        signature=f"{name}(input, target, reduction='mean', {param}=1.0)",
        samples=tuple(
            Sample(a, {"reduction": r, param: v})
            for a, r, v in (
                (((2, 3), (2, 3)), "mean", 1.0),
                (((2, 3), (2, 3)), "sum", 0.5),
                (((4,), (4,)), "none", 2.0),
            )
        ),
        to_torch=lambda w, a, p: (
            f"F.{name}({a[0]}, {a[1]}, reduction={w.lit(p.get('reduction'))}, {param}={lit(w, p)})"
        ),
        to_jax=jax_text,
        sym=lambda sp, x, t, reduction="mean", **kw: _sym_l2_l1(
            sp, x, t, reduction, kw.get(param, 1.0), divides
        ),
    )
    return loss, backward


def _sym_l2_l1(sp, x, t, reduction, p, divides):
    def f(a, b):
        z = sp.Abs(a - b)
        if divides:
            return sp.Piecewise((sp.Rational(1, 2) * z * z / p, z < p), (z - p / 2, True))
        return sp.Piecewise((sp.Rational(1, 2) * z * z, z < p), (p * (z - p / 2), True))

    return _sym_reduce(_sym_elementwise(f, x, t), reduction)


def _sym_l2_l1_backward(sp, g, x, t, reduction, p, divides):
    norm = _sym_norm(x, t, reduction)

    def f(gv, a, b):
        d = a - b
        if divides:
            return norm * gv * sp.Piecewise((d / p, sp.Abs(d) < p), (sp.sign(d), True))
        return norm * gv * sp.Piecewise((d, sp.Abs(d) < p), (p * sp.sign(d), True))

    return _sym_elementwise(f, g, x, t)


smooth_l1_loss, smooth_l1_loss_backward = _make_l2_l1_loss(
    "smooth_l1_loss",
    "beta",
    divides=True,
    torch_name="SmoothL1LossBackward0",
    bwd_torch_name="SmoothL1LossBackwardBackward0",
)
huber_loss, huber_loss_backward = _make_l2_l1_loss(
    "huber_loss",
    "delta",
    divides=False,
    torch_name="HuberLossBackward0",
    bwd_torch_name="HuberLossBackwardBackward0",
)
