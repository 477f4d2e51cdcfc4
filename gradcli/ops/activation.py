"""Elementwise records of the activation functions PyTorch computes with kernels of their own:
elu (and selu, celu through its scale parameters), hardtanh (and relu6), hardswish,
hardsigmoid, mish, silu, logsigmoid, softshrink, hardshrink, threshold.

Each has PyTorch's forward, its backward kernel's rule at the kinks (documented in `kink`) and
a sympy form. Rules are written with the records' own operations (`ops.arithmetic`), so that
gradients can be differentiated again; masks of the input's values are constants.
"""

from __future__ import annotations

import numpy as np

from ..core.op import Sample, apply, defop, unary_samples
from ..core.tensor import Tensor, mask_like
from . import act32
from . import saved as V
from .binary import where
from .elementwise import _first_order32, _precise, clamp, softplus


def _precise32(fn):
    """`_precise(fn)` for float16; float32 arrays go to `fn` itself (its exact kernel)."""
    through = _precise(fn)
    return lambda x, *a, **k: fn(x, *a, **k) if x.dtype == np.float32 else through(x, *a, **k)


# --- elu: scale * x for x > 0, scale * alpha * (exp(input_scale * x) - 1) otherwise ------------


def _elu_fwd(
    x: np.ndarray, alpha: float = 1.0, scale: float = 1.0, input_scale: float = 1.0
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
) -> tuple:
    if _first_order32(g, x):
        return (Tensor(act32.elu_backward(g.data, x.data, alpha, scale, input_scale)),)
    c = alpha * scale * input_scale
    pos = mask_like(x.data > 0, x)
    neg = mask_like(x.data < 0, x)
    # exp of the non-positive part only (no overflow where x > 0, where the mask drops it).
    # At 0 the derivative is the constant c (exp(0) = 1): its own derivative there is 0, as
    # PyTorch's double backward gives.
    e = (apply(clamp, x, min=None, max=0.0) * input_scale).exp()
    at0 = mask_like(x.data == 0, x)
    return (g * (pos * scale + neg * e * c + at0 * c),)


elu = defop(
    "elu",
    _precise32(_elu_fwd),
    _elu_vjp,
    "EluBackward0",
    "g * scale (x > 0), g * scale * alpha * input_scale * exp(input_scale * x) (x <= 0)",
    sym=lambda sp, x, alpha=1.0, scale=1.0, input_scale=1.0: sp.Piecewise(
        (scale * x, x > 0), (scale * alpha * (sp.exp(input_scale * x) - 1), True)
    ),
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
    keep = Tensor((x.data > min_val) & (x.data < max_val))
    return (apply(where, keep, g, Tensor(np.zeros((), dtype=g.dtype))),)


hardtanh = defop(
    "hardtanh",
    lambda x, min_val=-1.0, max_val=1.0: np.minimum(np.maximum(x, min_val), max_val).astype(
        x.dtype
    ),
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
    mid = mask_like((x.data > -3) & (x.data < 3), x)
    high = mask_like(x.data >= 3, x)
    return (g * (mid * (x / 3 + 0.5) + high),)


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
    return (g * (mask_like((x.data > -3) & (x.data < 3), x) * _ONE_SIXTH),)


hardsigmoid = defop(
    "hardsigmoid",
    lambda x: (np.minimum(np.maximum(x + 3, 0), 6) / 6).astype(x.dtype),
    _hardsigmoid_vjp,
    "HardsigmoidBackward0",
    "g / 6 (-3 < x < 3), 0 elsewhere (1/6 rounded to float32, as PyTorch)",
    sym=lambda sp, x: sp.Min(sp.Max(x + 3, 0), 6) / 6,
    kink="hardsigmoid'(-3) = hardsigmoid'(3) = 0, as PyTorch",
    samples=unary_samples(low=-5.0, high=5.0, avoid=(-3.0, 3.0)),
    to_torch="F.hardsigmoid",
    to_jax="jnp.clip({0} + 3.0, 0.0, 6.0) / 6.0",
)


# --- mish: x * tanh(softplus(x)) ---------------------------------------------------------------


def _mish_fwd(x: np.ndarray) -> np.ndarray:
    if x.dtype == np.float32:
        return act32.mish(x)
    return (x * np.tanh(np.logaddexp(0, x))).astype(x.dtype)


def _mish_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    if _first_order32(g, x):
        return (Tensor(act32.mish_backward(g.data, x.data)),)
    t = apply(softplus, x, beta=1.0, threshold=20.0).tanh()
    return (g * (t + x * x.sigmoid() * (1 - t * t)),)


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
    if _first_order32(g, x):
        return (Tensor(act32.silu_backward(g.data, x.data)),)
    s = x.sigmoid()
    return (g * s * (x * (1 - s) + 1),)


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
    return (g * (-x).sigmoid(),)


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


def _in_vector_loop(x: np.ndarray) -> np.ndarray:
    """Which elements PyTorch's shrink kernels compute in their vector loop (whole AVX512
    vectors from the start: 16 floats, 8 doubles, in memory order); the rest, the tail, go
    through the scalar loop. The two differ only at signs of zero and NaN."""
    lanes = max(1, 64 // x.dtype.itemsize)
    n = x.size
    flat = np.zeros(n, bool)
    flat[: n - n % lanes] = True
    if x.ndim > 1 and x.flags.f_contiguous and not x.flags.c_contiguous:
        return flat.reshape(x.shape[::-1]).T
    return flat.reshape(x.shape)


def _softshrink_fwd(x: np.ndarray, lambd: float = 0.5) -> np.ndarray:
    # PyTorch's kernels: the scalar loop gives x * 0 inside the band (-0.0 for a negative x),
    # the vector loop +0.0; NaN stays NaN in both
    with np.errstate(invalid="ignore"):
        scalar = np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, x * 0))
        vector = np.where(np.abs(x) <= lambd, 0, np.where(x > lambd, x - lambd, x + lambd))
    return np.where(_in_vector_loop(x), vector, scalar).astype(x.dtype)


def _shrink_keep(x: np.ndarray, lambd: float) -> np.ndarray:
    """Where the shrink kernels' backward passes the gradient: outside the band; at NaN the
    scalar loop passes it and the vector loop does not, as PyTorch's."""
    with np.errstate(invalid="ignore"):
        outside = ~((x >= -lambd) & (x <= lambd))
        return np.where(_in_vector_loop(x), np.abs(x) > lambd, outside)


softshrink = defop(
    "softshrink",
    _softshrink_fwd,
    lambda g, out, x, lambd=0.5: (_passed(g, _shrink_keep(x.data, lambd)),),
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
    lambda g, out, x, lambd=0.5: (_passed(g, _shrink_keep(x.data, lambd)),),
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
    lambda g, out, x, threshold, value: (_passed(g, x.data > threshold),),
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
