"""Elementwise records of the activation functions PyTorch computes with kernels of their own:
elu (and selu, celu through its scale parameters), hardtanh (and relu6), hardswish,
hardsigmoid, mish, silu, logsigmoid, softshrink, hardshrink, threshold.

Each has PyTorch's forward, its backward kernel's rule at the kinks (documented in `kink`) and
a sympy form. Rules are written with the records' own operations (`ops.arithmetic`), so that
gradients can be differentiated again; masks of the input's values are constants.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core import saved as V
from ..core.op import Sample, apply, defop, unary_samples
from ..core.primitives import from_end
from ..core.tensor import Tensor, grad_enabled, mask_like
from . import act32
from .binary import where
from .elementwise import (
    _clamp_fwd,
    _first_order32,
    _first_order_reduced,
    _precise,
    in_vector_loop,
    log1p,
    piecewise_grad,
    threshold_backward,
)
from .elementwise import _sigmoid as sigmoid_values
from .shape import cat, index


def _precise32(fn):
    """`_precise(fn)` for float16; float32 arrays go to `fn` itself (its exact kernel)."""
    through = _precise(fn)
    return lambda x, *a, **k: fn(x, *a, **k) if x.dtype == np.float32 else through(x, *a, **k)


# --- elu: scale * x for x > 0, scale * alpha * (exp(input_scale * x) - 1) otherwise ------------


def _elu_fwd(
    x: np.ndarray,
    alpha: float = 1.0,
    scale: float = 1.0,
    input_scale: float = 1.0,
    grad_input_scale: float | None = None,
    is_result: bool = False,
) -> np.ndarray:
    if x.dtype == np.float32:
        return act32.elu(x, alpha, scale, input_scale)
    neg = np.expm1(np.minimum(x, 0) * input_scale) * (alpha * scale)
    return np.where(x > 0, x * scale, neg).astype(x.dtype)


def _elu_vjp(
    g: Tensor,
    out: Tensor,
    x: Tensor,
    alpha: float = 1.0,
    scale: float = 1.0,
    input_scale: float = 1.0,
    grad_input_scale: float | None = None,
    is_result: bool = False,
) -> tuple:
    # `grad_input_scale`: the input scale of the gradient where PyTorch's derivative takes
    # another (celu's `1.0 / alpha.toFloat()`, derivatives.yaml: alpha rounded to float32)
    if grad_input_scale is not None:
        input_scale = grad_input_scale
    params = {"alpha": alpha, "scale": scale, "input_scale": input_scale}
    if is_result:
        # the in-place kernels (elu_, selu_, celu_: EluBackward1, CeluBackward1) save their
        # result and differentiate from it, as PyTorch's elu_backward(..., is_result=True)
        if _first_order32(g, out):
            return (Tensor(_elu_result_fwd(g.data, out.data, **params)),)
        return (apply(elu_backward_result, g, out, **params),)
    if _first_order32(g, x):
        return (Tensor(act32.elu_backward(g.data, x.data, alpha, scale, input_scale)),)
    # ATen's elu_backward, also recorded (create_graph=True: EluBackwardBackward0)
    return (apply(elu_backward, g, x, **params),)


def _same_shape(*arrays: np.ndarray) -> list[np.ndarray]:
    """Operands of a float32 kernel in one shape (a batched pass broadcasts them)."""
    if all(a.shape == arrays[0].shape for a in arrays):
        return list(arrays)
    return [np.ascontiguousarray(a) for a in np.broadcast_arrays(*arrays)]


def _elu_backward_fwd(g: np.ndarray, x: np.ndarray, *, alpha, scale, input_scale) -> np.ndarray:
    """g * scale where x > 0, else ((g * input_scale) * alpha * scale) * exp(x * input_scale)
    (ATen's kernel of the input; float32: `act32.elu_backward`, bit for bit)."""
    if g.dtype == x.dtype == np.float32:
        return act32.elu_backward(*_same_shape(g, x), alpha, scale, input_scale)
    with np.errstate(all="ignore"):
        neg = ((g * input_scale) * (alpha * scale)) * np.exp(np.minimum(x, 0) * input_scale)
        # x <= 0 picks the exponential side, so NaN takes g * scale (the scalar loop); the
        # vector loop gives NaN there (measured)
        out = np.where(x <= 0, neg, g * scale)
        nan = np.isnan(x) & in_vector_loop(x, 128)
        if nan.any():
            out = np.where(np.broadcast_to(nan, out.shape), np.nan, out)
        return out


def _elu_backward_vjp(h: Tensor, out: Tensor, g: Tensor, x: Tensor, **params) -> tuple:
    # derivatives.yaml: grad_output: elu_backward(grad, ..., self); self: elu_double_backward =
    # elu_backward(grad * grad_output * input_scale, ..., self) * (self < 0): at 0 the
    # derivative is the constant of the x <= 0 side, its own derivative 0
    first = apply(elu_backward, h, x, **params)
    scaled = apply(elu_backward, (h * g) * params["input_scale"], x, **params)
    return (first, scaled * mask_like(x.data < 0, h))


elu_backward = defop(
    "elu_backward",
    _elu_backward_fwd,
    _elu_backward_vjp,
    "EluBackwardBackward0",
    "elu_backward(h, x), elu_backward(h * g * input_scale, x) * (x < 0)",
    kind="internal",
    jvp_zeros=(0, 1),  # (PyTorch's forward formula materializes a missing tangent)
    saves=False,
    sym=lambda sp, g, x, alpha, scale, input_scale: np.frompyfunc(
        lambda gv, xv: sp.Piecewise(
            (gv * scale, xv > 0),
            (gv * input_scale * alpha * scale * sp.exp(xv * input_scale), True),
        ),
        2,
        1,
    )(g, x),
    samples=(
        Sample(((2, 3), (2, 3)), {"alpha": 1.0, "scale": 1.0, "input_scale": 1.0}, avoid=(0.0,)),
        Sample(
            ((4, 2, 3), (2, 3)),
            {"alpha": 1.6732632423543772, "scale": 1.0507009873554805, "input_scale": 1.0},
            avoid=(0.0,),
        ),
        Sample(((3,), (3,)), {"alpha": 0.7, "scale": 1.0, "input_scale": 1 / 0.7}, avoid=(0.0,)),
    ),
)


def _elu_result_fwd(g: np.ndarray, r: np.ndarray, *, alpha, scale, input_scale) -> np.ndarray:
    """ATen's elu_backward from the result r (is_result=True): g * scale where r > 0, else
    (g * input_scale) * (r + alpha * scale), in the dtype (float32: its coefficients in
    float32, as the kernel's opmath)."""
    dt = np.result_type(g, r)
    neg, pos, ipt = (dt.type(alpha) * dt.type(scale)), dt.type(scale), dt.type(input_scale)
    with np.errstate(all="ignore"):
        return np.where(r > 0, g * pos, (g * ipt) * (r + neg)).astype(dt, copy=False)


def _elu_result_vjp(h: Tensor, out: Tensor, g: Tensor, r: Tensor, **params) -> tuple:
    # derivatives.yaml: grad_output: elu_backward(grad, ..., is_result, result); result:
    # elu_double_backward = grad * grad_output * input_scale * (result < 0)
    first = apply(elu_backward_result, h, r, **params)
    return (first, ((h * g) * params["input_scale"]) * mask_like(r.data < 0, h))


elu_backward_result = defop(
    "elu_backward_result",
    _elu_result_fwd,
    _elu_result_vjp,
    "EluBackwardBackward0",
    "elu_backward_result(h, r), h * g * input_scale * (r < 0)",
    kind="internal",
    jvp_zeros=(0, 1),  # (PyTorch's forward formula materializes a missing tangent)
    saves=False,
    sym=lambda sp, g, r, alpha, scale, input_scale: np.frompyfunc(
        lambda gv, rv: sp.Piecewise(
            (gv * scale, rv > 0), (gv * input_scale * (rv + alpha * scale), True)
        ),
        2,
        1,
    )(g, r),
    samples=(
        Sample(((2, 3), (2, 3)), {"alpha": 1.0, "scale": 1.0, "input_scale": 1.0}, avoid=(0.0,)),
        Sample(
            ((3,), (3,)),
            {"alpha": 1.6732632423543772, "scale": 1.0507009873554805, "input_scale": 1.0},
            avoid=(0.0,),
        ),
    ),
)


elu = defop(
    "elu",
    _precise32(_elu_fwd),
    _elu_vjp,
    "EluBackward0",
    "g * scale (x > 0), g * scale * alpha * input_scale * exp(input_scale * x) (x <= 0)",
    sym=lambda sp, x, alpha=1.0, scale=1.0, input_scale=1.0, **_: sp.Piecewise(
        (scale * x, x > 0), (scale * alpha * (sp.exp(input_scale * x) - 1), True)
    ),
    # the in-place kernels' rule reads the result (a change of it since is PyTorch's error),
    # the others' the input
    reads=lambda p: (True, frozenset()) if p.get("is_result") else (False, frozenset({0})),
    kink="elu'(0) = scale * alpha * input_scale (the x <= 0 side) and elu''(0) = 0, as PyTorch",
    signature="elu(x, alpha=1.0), selu(x), celu(x, alpha=1.0)",
    samples=unary_samples({"alpha": 1.0, "scale": 1.0, "input_scale": 1.0}, avoid=(0.0,))
    + (
        Sample(((2, 3),), {"alpha": 0.5, "scale": 1.0, "input_scale": 1.0}, avoid=(0.0,)),
        Sample(
            ((2, 3),),
            {"alpha": 1.6732632423543772, "scale": 1.0507009873554805, "input_scale": 1.0},
            avoid=(0.0,),
        ),
        Sample(((4,),), {"alpha": 2.0, "scale": 1.0, "input_scale": 0.5}, avoid=(0.0,)),
    ),
    to_torch=lambda w, a, p: (
        f"torch.ops.aten.elu({a[0]}, {w.lit(p['alpha'])}, {w.lit(p['scale'])}, "
        f"{w.lit(p['input_scale'])})"
    ),
    to_jax=lambda w, a, p: (
        f"jnp.where({a[0]} > 0, {w.lit(p['scale'])} * {a[0]}, "
        f"{w.lit(p['scale'] * p['alpha'])} * jnp.expm1({w.lit(p['input_scale'])} * "
        f"jnp.minimum({a[0]}, 0.0)))"
    ),
)


# --- hardtanh: x clipped to [min_val, max_val]; no gradient at or beyond the bounds ----------


def _hardtanh_vjp(
    g: Tensor, out: Tensor, x: Tensor, min_val: float = -1.0, max_val: float = 1.0
) -> tuple:
    # PyTorch's kernel writes 0 outside the bounds: +0 (g * mask gave -0 where g is negative)
    return (piecewise_grad(g, x, "hardtanh", min_val, max_val),)


hardtanh = defop(
    "hardtanh",
    # ATen's clamp: x kept where it ties with a bound (relu6(-0.) is -0.)
    lambda x, min_val=-1.0, max_val=1.0: _clamp_fwd(x, min_val, max_val),
    _hardtanh_vjp,
    "HardtanhBackward0",
    "g * (min_val < x < max_val)",
    sym=lambda sp, x, min_val=-1.0, max_val=1.0: sp.Min(sp.Max(x, min_val), max_val),
    kink="hardtanh'(min_val) = hardtanh'(max_val) = 0, as PyTorch (relu6'(0) = 0)",
    signature="hardtanh(x, min_val=-1.0, max_val=1.0), relu6(x)",
    samples=unary_samples({"min_val": -1.0, "max_val": 1.0}, avoid=(-1.0, 1.0))
    + (
        Sample(((2, 3),), {"min_val": 0.0, "max_val": 6.0}, low=-3.0, high=8.0, avoid=(0.0, 6.0)),
        Sample(((4,),), {"min_val": -0.5, "max_val": 0.5}, avoid=(-0.5, 0.5)),
    ),
    to_torch="F.hardtanh({0}, {min_val}, {max_val})",
    to_jax="jnp.clip({0}, {min_val}, {max_val})",
    jvp_reads_primal=True,
)


# --- hardswish: x * relu6(x + 3) / 6 ----------------------------------------------------------


def _hardswish_fwd(x: np.ndarray) -> np.ndarray:
    return (x * np.minimum(np.maximum(x + 3, 0), 6) / 6).astype(x.dtype)


def _hardswish_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    # ATen's hardswish_backward, also recorded (HardswishBackwardBackward0)
    return (apply(hardswish_backward, g, x),)


def _hardswish_backward_fwd(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    # +0 for x <= -3, g * (x / 3 + 1/2) below 3, g from 3 on (each step rounded)
    with np.errstate(all="ignore"):
        mid = g * (x / np.asarray(3, x.dtype) + np.asarray(0.5, x.dtype))
    out = np.where(x <= -3, np.zeros((), dtype=g.dtype), np.where(x < 3, mid, g))
    # NaN: g in the scalar loop, NaN in the vector one (measured)
    nan = np.isnan(x) & in_vector_loop(x, 128)
    if nan.any():
        out = np.where(np.broadcast_to(nan, out.shape), np.nan, out)
    return out


def _hardswish_backward_vjp(h: Tensor, out: Tensor, g: Tensor, x: Tensor) -> tuple:
    # derivatives.yaml: grad_output: hardswish_backward(grad, self); self: where(-3 < x < 3,
    # grad * grad_output / 3, 0)
    mid = Tensor((x.data > -3) & (x.data < 3))
    return (
        apply(hardswish_backward, h, x),
        apply(where, mid, h * g / 3, Tensor(np.zeros((), dtype=h.dtype))),
    )


hardswish_backward = defop(
    "hardswish_backward",
    _hardswish_backward_fwd,
    _hardswish_backward_vjp,
    "HardswishBackwardBackward0",
    "hardswish_backward(h, x), h * g / 3 (-3 < x < 3)",
    kind="internal",
    jvp_zeros=(0, 1),  # (PyTorch's forward formula materializes a missing tangent)
    saves=False,
    sym=lambda sp, g, x: np.frompyfunc(
        lambda gv, xv: sp.Piecewise(
            (0, xv <= -3), (gv * (xv / 3 + sp.Rational(1, 2)), xv < 3), (gv, True)
        ),
        2,
        1,
    )(g, x),
    samples=(
        Sample(((2, 3), (2, 3)), {}, low=-5.0, high=5.0, avoid=(-3.0, 3.0)),
        Sample(((4, 2, 3), (2, 3)), {}, low=-5.0, high=5.0, avoid=(-3.0, 3.0)),
    ),
)


hardswish = defop(
    "hardswish",
    _hardswish_fwd,
    _hardswish_vjp,
    "HardswishBackward0",
    "g * (0 (x <= -3), x / 3 + 1/2 (-3 < x < 3), 1 (x >= 3))",
    sym=lambda sp, x: sp.Piecewise((0, x <= -3), (x * (x + 3) / 6, x < 3), (x, True)),
    kink="hardswish'(-3) = 0, hardswish'(3) = 1, as PyTorch",
    samples=unary_samples(low=-5.0, high=5.0, avoid=(-3.0, 3.0)),
    to_torch="F.hardswish",
    to_jax="{0} * jnp.clip({0} + 3.0, 0.0, 6.0) / 6.0",
)


# --- hardsigmoid: relu6(x + 3) / 6 ------------------------------------------------------------

# PyTorch's backward kernel multiplies by 1/6 computed in float32, in every dtype.
_ONE_SIXTH = float(np.float32(1.0) / np.float32(6.0))


def _hardsigmoid_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    if grad_enabled():
        # create_graph=True: PyTorch records its kernel with no derivative (NotImplemented)
        from .arithmetic import shown_over

        # (its one edge: x's, as PyTorch's NotImplemented node collects)
        return (shown_over(apply(hardsigmoid_backward, g, x), x),)
    # outside (-3, 3) the kernel picks a +0 (a product with a 0 mask gave -0 for g < 0)
    inside = Tensor(np.broadcast_to((x.data > -3) & (x.data < 3), g.shape))
    return (apply(where, inside, g * _ONE_SIXTH, Tensor(np.zeros((), dtype=g.dtype))),)


def _hardsigmoid_backward_fwd(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    inside = np.broadcast_to((x > -3) & (x < 3), g.shape)
    return np.where(inside, g * _ONE_SIXTH, np.zeros((), dtype=g.dtype)).astype(g.dtype)


def _hardsigmoid_backward_vjp(h: Tensor, out: Tensor, g: Tensor, x: Tensor) -> tuple:
    raise GradcliError(
        "derivative for aten::hardsigmoid_backward is not implemented",
        hint="hardsigmoid has no second derivative in PyTorch: take the gradient without "
        "create_graph=True, or use F.relu6(x + 3) / 6",
    )


def _hardsigmoid_backward_jvp(dots: tuple, out: Tensor, g: Tensor, x: Tensor) -> None:
    raise GradcliError(
        "Trying to use forward AD with aten::hardsigmoid_backward that does not support it.",
        hint="use reverse mode twice (jacrev(jacrev(f))), which fails too: hardsigmoid has "
        "no second derivative in PyTorch",
    )


# hardsigmoid's gradient under create_graph=True: PyTorch's kernel as a node with no
# derivative (grad_fn NotImplemented, the result requiring grad); a second derivative
# through it fails in PyTorch's words
hardsigmoid_backward = defop(
    "hardsigmoid_backward",
    _hardsigmoid_backward_fwd,
    _hardsigmoid_backward_vjp,
    "torch::autograd::NotImplemented",  # (name(); printed without the namespace)
    "not differentiable (as in PyTorch)",
    kind="internal",
    saves=False,
    jvp=_hardsigmoid_backward_jvp,
    samples=(
        Sample(
            ((2,), (2,)),
            fixed={0: np.array([1.5, -2.0]), 1: np.array([0.5, 3.5])},
            hessian=False,
        ),
    ),
)


hardsigmoid = defop(
    "hardsigmoid",
    lambda x: (np.minimum(np.maximum(x + 3, 0), 6) / 6).astype(x.dtype),
    _hardsigmoid_vjp,
    "HardsigmoidBackward0",
    "g / 6 (-3 < x < 3), 0 elsewhere (1/6 rounded to float32, as PyTorch)",
    sym=lambda sp, x: sp.Min(sp.Max(x + 3, 0), 6) / 6,
    kink="hardsigmoid'(-3) = hardsigmoid'(3) = 0, as PyTorch",
    # (no second derivative in PyTorch: its gradient's node is NotImplemented)
    samples=unary_samples(low=-5.0, high=5.0, avoid=(-3.0, 3.0), hessian=False),
    to_torch="F.hardsigmoid",
    to_jax="jnp.clip({0} + 3.0, 0.0, 6.0) / 6.0",
)


# --- mish: x * tanh(softplus(x)) ---------------------------------------------------------------


def _mish_fwd(x: np.ndarray) -> np.ndarray:
    if x.dtype == np.float32:
        return act32.mish(x)
    return (x * np.tanh(np.logaddexp(0, x))).astype(x.dtype)


def _mish_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    if _first_order32(g, x) and out.node is not None:
        # (forward mode, `out` without a node, takes the differentiable form below, as
        # PyTorch's tangent rule where grad mode is on: torch.func.jvp, jacfwd)
        return (Tensor(act32.mish_backward(g.data, x.data)),)
    if _first_order_reduced(g, x):
        from ..core.half import reduced_kernel

        return (Tensor(reduced_kernel(act32.mish_backward, g.data, x.data)),)
    # PyTorch's infinitely_differentiable_mish_backward (its path under create_graph=True),
    # operation by operation: softplus as exp then log1p (no threshold)
    s = x.sigmoid()
    t = apply(log1p, x.exp()).tanh()
    return (g * (t + x * s * (1 - t * t)),)


mish = defop(
    "mish",
    _precise32(_mish_fwd),
    _mish_vjp,
    "MishBackward0",
    "g * (tanh(sp) + x * sigmoid(x) * (1 - tanh(sp)^2)), sp = softplus(x)",
    sym=lambda sp, x: x * sp.tanh(sp.log(1 + sp.exp(x))),
    samples=unary_samples(low=-4.0, high=4.0),
    to_torch="F.mish",
    to_jax="{0} * jnp.tanh(jax.nn.softplus({0}))",
)


# --- silu: x * sigmoid(x), and logsigmoid: log(sigmoid(x)) ------------------------------------


def _silu_fwd(x: np.ndarray) -> np.ndarray:
    if x.dtype == np.float32:
        return act32.silu(x)
    return (x / (1 + np.exp(-x))).astype(x.dtype)


def _silu_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    if _first_order32(g, x) and out.node is not None:  # (forward mode: as mish's)
        return (Tensor(act32.silu_backward(g.data, x.data)),)
    if _first_order_reduced(g, x):
        from ..core.half import reduced_kernel

        return (Tensor(reduced_kernel(act32.silu_backward, g.data, x.data)),)
    # ATen's infinitely_differentiable_silu_backward, `grad_output * sigmoid * (1.0 + input *
    # (1.0 - sigmoid))`: its compiler builds the right factor first, so the recorded nodes
    # (create_graph=True) come in that order, which orders the float sums of a later pass
    s = x.sigmoid()
    right = x * (1 - s) + 1
    return (g * s * right,)


silu = defop(
    "silu",
    _precise32(_silu_fwd),
    _silu_vjp,
    "SiluBackward0",
    "g * s * (1 + x * (1 - s)), s = sigmoid(x)",
    sym=lambda sp, x: x / (1 + sp.exp(-x)),
    samples=unary_samples(low=-5.0, high=5.0),
    to_torch="F.silu",
    to_jax="jax.nn.silu",
)


def _logsigmoid_fwd(x: np.ndarray) -> np.ndarray:
    if x.dtype == np.float32:
        return act32.logsigmoid(x)
    return (np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))).astype(x.dtype)


def logsigmoid_values(x: np.ndarray) -> np.ndarray:
    """log(sigmoid(x)) as the logsigmoid record computes it (binary_cross_entropy_with_logits
    subtracts it, as ATen does)."""
    return _precise32(_logsigmoid_fwd)(x)


def _logsigmoid_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    if _first_order32(g, x):
        return (Tensor(act32.logsigmoid_backward(g.data, x.data)),)
    # ATen's log_sigmoid_backward, also recorded (LogSigmoidBackwardBackward0)
    return (apply(logsigmoid_backward, g, x),)


def _logsigmoid_backward_fwd(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    """(1 - q where x < 0, else q) * g, q = b / (1 + b), b = exp(-|x|) (ATen's kernel; float32:
    `act32.logsigmoid_backward`, bit for bit)."""
    if g.dtype == x.dtype == np.float32:
        return act32.logsigmoid_backward(*_same_shape(g, x))
    with np.errstate(all="ignore"):
        b = np.exp(-np.abs(x))
        q = b / (1 + b)
        return np.where(x < 0, 1 - q, q) * g


def _logsigmoid_backward_vjp(h: Tensor, out: Tensor, g: Tensor, x: Tensor) -> tuple:
    # derivatives.yaml: grad_output: log_sigmoid_backward(grad, self, buffer); self:
    # log_sigmoid_double_backward(grad * grad_output, self) = hg * (z - 1) * z, z = sigmoid(x)
    z = x.sigmoid()
    return (apply(logsigmoid_backward, h, x), (h * g) * (z - 1) * z)


logsigmoid_backward = defop(
    "logsigmoid_backward",
    _logsigmoid_backward_fwd,
    _logsigmoid_backward_vjp,
    "LogSigmoidBackwardBackward0",
    "logsigmoid_backward(h, x), h * g * (z - 1) * z",
    kind="internal",
    jvp_zeros=(0,),  # (PyTorch's forward formula materializes a missing tangent)
    saves=False,
    sym=lambda sp, g, x: np.frompyfunc(lambda gv, xv: gv / (1 + sp.exp(xv)), 2, 1)(g, x),
    samples=(
        Sample(((2, 3), (2, 3)), {}, low=-4.0, high=4.0),
        Sample(((4, 2, 3), (2, 3)), {}, low=-4.0, high=4.0),
    ),
)


logsigmoid = defop(
    "logsigmoid",
    _precise32(_logsigmoid_fwd),
    _logsigmoid_vjp,
    "LogSigmoidBackward0",
    "g * sigmoid(-x)",
    sym=lambda sp, x: -sp.log(1 + sp.exp(-x)),
    samples=unary_samples(low=-6.0, high=6.0),
    to_torch="F.logsigmoid",
    to_jax="jax.nn.log_sigmoid",
)


# --- the shrinks and threshold: piecewise linear ----------------------------------------------


def _passed(g: Tensor, keep: np.ndarray) -> Tensor:
    """g where `keep`, else PyTorch's kernels' 0 (+0: g * mask gave -0 for a negative g)."""
    return apply(where, Tensor(keep), g, Tensor(np.zeros((), dtype=g.dtype)))


def _softshrink_fwd(x: np.ndarray, lambd: float = 0.5) -> np.ndarray:
    # PyTorch's kernels: the scalar loop gives x * 0 inside the band (-0.0 for a negative x),
    # the vector loop +0.0; NaN stays NaN in both
    with np.errstate(invalid="ignore"):
        scalar = np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, x * 0))
        vector = np.where(np.abs(x) <= lambd, 0, np.where(x > lambd, x - lambd, x + lambd))
    return np.where(in_vector_loop(x), vector, scalar).astype(x.dtype)


softshrink = defop(
    "softshrink",
    _softshrink_fwd,
    lambda g, out, x, lambd=0.5: (piecewise_grad(g, x, "softshrink", lambd),),
    "SoftshrinkBackward0",
    "g * (|x| > lambd)",
    sym=lambda sp, x, lambd=0.5: sp.Piecewise(
        (x - lambd, x > lambd), (x + lambd, x < -lambd), (0, True)
    ),
    kink="softshrink'(+-lambd) = 0, as PyTorch",
    signature="softshrink(x, lambd=0.5)",
    samples=unary_samples({"lambd": 0.5}, avoid=(-0.5, 0.5))
    + (Sample(((2, 3),), {"lambd": 1.0}, avoid=(-1.0, 1.0)),),
    to_torch="F.softshrink({0}, {lambd})",
    to_jax=(
        "jnp.where({0} > {lambd}, {0} - {lambd}, jnp.where({0} < -{lambd}, {0} + {lambd}, 0.0))"
    ),
)

hardshrink = defop(
    "hardshrink",
    # PyTorch's kernel: 0 where -lambd <= x <= lambd, else x (NaN stays NaN)
    lambda x, lambd=0.5: np.where((x >= -lambd) & (x <= lambd), 0, x).astype(x.dtype),
    lambda g, out, x, lambd=0.5: (piecewise_grad(g, x, "hardshrink", lambd),),
    "HardshrinkBackward0",
    "g * (|x| > lambd)",
    sym=lambda sp, x, lambd=0.5: sp.Piecewise((x, (x > lambd) | (x < -lambd)), (0, True)),
    kink="hardshrink'(+-lambd) = 0, as PyTorch",
    signature="hardshrink(x, lambd=0.5)",
    samples=unary_samples({"lambd": 0.5}, avoid=(-0.5, 0.5))
    + (Sample(((2, 3),), {"lambd": 1.0}, avoid=(-1.0, 1.0)),),
    to_torch="F.hardshrink({0}, {lambd})",
    to_jax="jnp.where(jnp.abs({0}) > {lambd}, {0}, 0.0)",
)

threshold = defop(
    "threshold",
    lambda x, threshold, value: np.where(x > threshold, x, value).astype(x.dtype),
    # ATen's threshold_backward of the input (ThresholdBackwardBackward0 when recorded)
    lambda g, out, x, threshold, value: (apply(threshold_backward, g, x, threshold=threshold),),
    "ThresholdBackward0",
    "g * (x > threshold)",
    saved=V.saves(self=V.SELF, threshold=V.param("threshold")),
    sym=lambda sp, x, threshold, value: sp.Piecewise((x, x > threshold), (value, True)),
    kink="threshold'(threshold) = 0, as PyTorch",
    signature="threshold(x, threshold, value)",
    samples=unary_samples({"threshold": 0.5, "value": -1.0}, avoid=(0.5,))
    + (Sample(((2, 3),), {"threshold": -1.0, "value": 20.0}, avoid=(-1.0,)),),
    to_torch="F.threshold({0}, {threshold}, {value})",
    to_jax="jnp.where({0} > {threshold}, {0}, {value})",
    jvp_reads_primal=True,
)


# --- glu: a * sigmoid(b), a and b the halves of x along dim ----------------------------------
#
# PyTorch computes glu and its gradients with kernels of their own, each rounding in its own
# order: the gradient of a is sigmoid(b) * g, that of b ((1 - s) * s * a) * g with s = sigmoid(b)
# (glu_backward; a composition of mul and sigmoid would round (g * a) * (1 - s) * s instead).


def _halves(x: np.ndarray, dim: int) -> tuple[np.ndarray, np.ndarray]:
    """The two halves of `x` along `dim` (counted from the end), as views."""
    h = x.shape[dim] // 2
    tail = (slice(None),) * (-dim - 1)
    return x[(Ellipsis, slice(0, h)) + tail], x[(Ellipsis, slice(h, 2 * h)) + tail]


def _glu_fwd(x: np.ndarray, *, dim: int) -> np.ndarray:
    a, b = _halves(x, from_end(dim, x.ndim))
    with np.errstate(all="ignore"):
        return a * sigmoid_values(b)


def _glu_vjp(g: Tensor, out: Tensor, x: Tensor, *, dim: int) -> tuple:
    # ATen's glu_backward, also recorded (GluBackwardBackward0)
    return (apply(glu_backward, g, x, dim=from_end(dim, x.ndim)),)


def _glu_jvp(dots: tuple, out: Tensor, x: Tensor, *, dim: int) -> Any:
    # ATen's glu_jvp kernel: da * s + out * (db - s * db), s = sigmoid(b) computed again (its
    # float32 loops fuse products into FMAs: `act32.glu_jvp`)
    (d,) = dots
    if d is None:
        return None
    dn = from_end(dim, x.ndim)
    recorded = grad_enabled() and (d.requires_grad or out.requires_grad or x.requires_grad)
    if not recorded and d.shape == x.shape and x.dtype == d.dtype == np.float32:
        return Tensor(act32.glu_jvp(out.data, _halves(x.data, dn)[1], *_halves(d.data, dn)))
    h = x.shape[dn] // 2
    tail = (slice(None),) * (-dn - 1)
    s = Tensor(sigmoid_values(_halves(x.data, dn)[1]))
    da = apply(index, d, idx=(Ellipsis, slice(0, h)) + tail, label="SliceBackward0")
    db = apply(index, d, idx=(Ellipsis, slice(h, 2 * h)) + tail, label="SliceBackward0")
    return da * s + out * (db - s * db)


def _glu_backward_fwd(g: np.ndarray, x: np.ndarray, *, dim: int) -> np.ndarray:
    """[s * g, ((1 - s) * s * a) * g] along dim, s = sigmoid(b): ATen's kernel's order."""
    a, b = _halves(x, dim)
    with np.errstate(all="ignore"):
        s = sigmoid_values(b)
        first = s * g
        second = (((1 - s).astype(s.dtype) * s) * a) * g
    return np.concatenate(np.broadcast_arrays(first, second), axis=dim)


def _glu_backward_vjp(h: Tensor, out: Tensor, g: Tensor, x: Tensor, *, dim: int) -> tuple:
    # derivatives.yaml: grad_output: glu_double_backward_grad_output(grad, self, dim);
    # self: glu_double_backward(grad, grad_output, self, dim), both in FunctionsManual's order
    n = x.shape[dim] // 2
    tail = (slice(None),) * (-dim - 1)

    def half(t: Tensor, k: int) -> Tensor:
        return apply(index, t, idx=(Ellipsis, slice(k * n, (k + 1) * n)) + tail)

    a, b = half(x, 0), half(x, 1)
    ones = Tensor(np.ones(g.shape[len(g.shape) - x.ndim :], dtype=x.dtype))
    tmp = h * apply(glu_backward, ones, x, dim=dim)
    gg = half(tmp, 0) + half(tmp, 1)
    s = b.sigmoid()
    one_minus = 1 - s
    s_one_minus = s * one_minus
    h_a, h_b = half(h, 0), half(h, 1)
    gx_a = h_b * g * s_one_minus
    second_order = s_one_minus * one_minus - s * s_one_minus
    gx_b = (h_b * a) * g * second_order + h_a * g * s_one_minus
    return (gg, apply(cat, gx_a, gx_b, dim=dim))


def _sym_glu(sp, x, dim):
    a, b = np.split(np.asarray(x, dtype=object), 2, axis=dim)
    return np.frompyfunc(lambda u, v: u / (1 + sp.exp(-v)), 2, 1)(a, b)


def _sym_glu_backward(sp, g, x, dim):
    a, b = np.split(np.asarray(x, dtype=object), 2, axis=dim)
    s = np.frompyfunc(lambda v: 1 / (1 + sp.exp(-v)), 1, 1)(b)
    g = np.asarray(g, dtype=object)
    return np.concatenate(np.broadcast_arrays(g * s, g * a * s * (1 - s)), axis=dim)


glu_backward = defop(
    "glu_backward",
    _glu_backward_fwd,
    _glu_backward_vjp,
    "GluBackwardBackward0",
    "glu_double_backward(h, g, x), (h * glu_backward(1, x)) summed over the halves",
    kind="internal",
    saves=False,
    sym=_sym_glu_backward,
    signature="glu_backward(g, x, dim)",
    samples=(
        Sample(((2, 3), (2, 6)), {"dim": -1}, low=-3.0, high=3.0),
        Sample(((2, 3), (4, 3)), {"dim": -2}, low=-3.0, high=3.0),
    ),
)


glu = defop(
    "glu",
    _glu_fwd,
    _glu_vjp,
    "GluBackward0",
    "[g * s, ((1 - s) * s * a) * g], s = sigmoid(b)",
    kind="reduction",
    jvp=_glu_jvp,
    jvp_reads_primal=True,
    sym=_sym_glu,
    signature="glu(x, dim=-1)",
    samples=(
        Sample(((2, 6),), {"dim": 1}, low=-3.0, high=3.0),
        Sample(((4, 3),), {"dim": 0}, low=-3.0, high=3.0),
        Sample(((8,),), {"dim": 0}, low=-3.0, high=3.0),
    ),
    to_torch="F.glu({0}, {dim})",
    to_jax="jax.nn.glu({0}, axis={dim})",
)


# --- prelu: x where x > 0, else weight * x (ATen's _prelu_kernel, its weight already shaped to
# broadcast over x) ------------------------------------------------------------------------------
#
# Its backward kernel, _prelu_kernel_backward, gives two results: the input's gradient
# where(x > 0, g, w * g) and the weight's, where(x > 0, 0, x * g) in x's shape (the engine sums
# it to the weight's shape). Recorded under create_graph=True, PyTorch's one node of both is
# PreluKernelBackwardBackward0; gradcli records each result as an op of that name, its rule
# derivatives.yaml's: the input result is linear in g and w, the weight result in g and x.


def _prelu_fwd(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return np.where(x > 0, x, w * x).astype(np.result_type(x, w), copy=False)


def _prelu_vjp(g: Tensor, out: Tensor, x: Tensor, w: Tensor) -> tuple:
    gx = apply(prelu_backward_input, g, x, w) if x.requires_grad else None
    gw = apply(prelu_backward_weight, g, x, w) if w.requires_grad else None
    return (gx, gw)


def _positive(x: Tensor) -> Tensor:
    return Tensor(x.data > 0)


def _zeros(like: Tensor) -> Tensor:
    return Tensor(np.zeros(like.shape, dtype=like.data.dtype))


def _prelu_gi_fwd(g: np.ndarray, x: np.ndarray, w: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return np.where(x > 0, g, w * g).astype(np.result_type(g, x, w), copy=False)


def _prelu_gi_vjp(h: Tensor, out: Tensor, g: Tensor, x: Tensor, w: Tensor) -> tuple:
    # grad_output: where(x > 0, h, h * w); self: zeros (piecewise constant in x);
    # weight: where(x > 0, 0, g * h) (summed to the weight's shape by the engine)
    pos = _positive(x)
    dg = apply(where, pos, h, h * w) if g.requires_grad else None
    dx = _zeros(h) if x.requires_grad else None
    dw = apply(where, pos, _zeros(h), g * h) if w.requires_grad else None
    return (dg, dx, dw)


def _prelu_gw_fwd(g: np.ndarray, x: np.ndarray, w: np.ndarray) -> np.ndarray:
    dt = np.result_type(g, x, w)
    with np.errstate(all="ignore"):
        return np.where(x > 0, dt.type(0), x * g).astype(dt, copy=False)


def _prelu_gw_vjp(h: Tensor, out: Tensor, g: Tensor, x: Tensor, w: Tensor) -> tuple:
    # grad_output: where(x > 0, 0, h * x); self: where(x > 0, 0, g * h); weight: zeros
    pos = _positive(x)
    zero = _zeros(h)
    dg = apply(where, pos, zero, h * x) if g.requires_grad else None
    dx = apply(where, pos, zero, g * h) if x.requires_grad else None
    dw = _zeros(h) if w.requires_grad else None
    return (dg, dx, dw)


_PRELU_SAMPLES = (
    Sample(((2, 3), (2, 3)), avoid=(0.0,)),
    Sample(((2, 3, 4), (3, 1)), avoid=(0.0,)),
    Sample(((4,), ()), avoid=(0.0,)),
)

prelu_kernel = defop(
    "prelu_kernel",
    _prelu_fwd,
    _prelu_vjp,
    "PreluKernelBackward0",
    "where(x > 0, g, w * g), where(x > 0, 0, x * g)",
    sym=lambda sp, x, w: np.frompyfunc(lambda a, b: sp.Piecewise((a, a > 0), (b * a, True)), 2, 1)(
        x, w
    ),
    kink="prelu'(0) = w (the x <= 0 side), as PyTorch's kernel",
    signature="prelu(x, weight)",
    samples=_PRELU_SAMPLES,
    to_torch="torch._prelu_kernel({0}, {1})",
    to_jax="jnp.where({0} > 0, {0}, {1} * {0})",
)
prelu_backward_input = defop(
    "prelu_backward_input",
    _prelu_gi_fwd,
    _prelu_gi_vjp,
    "PreluKernelBackwardBackward0",
    "where(x > 0, h, h * w), 0, where(x > 0, 0, g * h)",
    kind="internal",
    saves=False,
    sym=lambda sp, g, x, w: np.frompyfunc(
        lambda gv, a, b: sp.Piecewise((gv, a > 0), (b * gv, True)), 3, 1
    )(g, x, w),
    samples=(
        Sample(((2, 3), (2, 3), (2, 3)), avoid=(0.0,)),
        Sample(((2, 3, 4), (2, 3, 4), (3, 1)), avoid=(0.0,)),
    ),
)
prelu_backward_weight = defop(
    "prelu_backward_weight",
    _prelu_gw_fwd,
    _prelu_gw_vjp,
    "PreluKernelBackwardBackward0",
    "where(x > 0, 0, h * x), where(x > 0, 0, g * h), 0",
    kind="internal",
    saves=False,
    sym=lambda sp, g, x, w: np.frompyfunc(
        lambda gv, a, b: sp.Piecewise((0, a > 0), (a * gv, True)), 3, 1
    )(g, x, w),
    samples=(
        Sample(((2, 3), (2, 3), (2, 3)), avoid=(0.0,)),
        Sample(((2, 3, 4), (2, 3, 4), (3, 1)), avoid=(0.0,)),
    ),
)


# --- rrelu in training: x times its drawn noise (1 where x > 0) ----------------------------------
#
# ATen's rrelu_with_noise keeps the noise it drew; its backward, rrelu_with_noise_backward, is
# g * noise in training, recorded under create_graph=True as RreluWithNoiseBackwardBackward0
# (derivatives.yaml: grad_output: the same backward of the incoming gradient; self: zeros).
# The noise is a param (a constant array of x's shape), as PyTorch's node saves it.


def _rrelu_noise_vjp(g: Tensor, out: Tensor, x: Tensor, *, noise: np.ndarray) -> tuple:
    return (apply(rrelu_noise_backward, g, x, noise=noise),)


def _rrelu_noise_backward_vjp(
    h: Tensor, out: Tensor, g: Tensor, x: Tensor, *, noise: np.ndarray
) -> tuple:
    dg = apply(rrelu_noise_backward, h, x, noise=noise) if g.requires_grad else None
    return (dg, _zeros(h) if x.requires_grad else None)


_NOISE = np.array([[1.0, 0.2, 0.3], [0.15, 1.0, 1.0]])

rrelu_noise = defop(
    "rrelu_noise",
    lambda x, noise: (x * noise).astype(x.dtype, copy=False),
    _rrelu_noise_vjp,
    "RreluWithNoiseBackward0",
    "g * noise",
    signature="rrelu(x, training=True) (its noise drawn)",
    samples=(Sample(((2, 3),), {"noise": _NOISE}),),
    # (the noise as drawn: a constant of the exported computation)
    to_torch=lambda w, a, p: f"{a[0]} * {w.array(p['noise'])}",
    to_jax=lambda w, a, p: f"{a[0]} * {w.array(p['noise'])}",
)
rrelu_noise_backward = defop(
    "rrelu_noise_backward",
    lambda g, x, noise: (g * noise).astype(np.result_type(g, x), copy=False),
    _rrelu_noise_backward_vjp,
    "RreluWithNoiseBackwardBackward0",
    "h * noise, 0",
    kind="internal",
    saves=False,
    samples=(Sample(((2, 3), (2, 3)), {"noise": _NOISE}),),
)
