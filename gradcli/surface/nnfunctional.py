"""`torch.nn.functional` beyond the basics: the activations (elu, selu, celu, hardtanh, relu6,
softsign, mish, hardswish, hardsigmoid, softmin, the shrinks, threshold, glu), normalize and
the similarities, layer_norm / group_norm, pad, conv1d / conv2d, max / avg pooling, embedding
and flip, with PyTorch's arguments, defaults, grad_fn names and error wording.

The activations, conv and pooling are records (`ops.activation`, `ops.conv`); the rest are
compositions of records (their gradients come from the records', to every order). Every size
is checked before a record allocates: output shapes against `tensor_elements`, a
convolution's multiply-adds against `multiply_adds`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import ArgumentTypeError, GradcliError, NotSupported
from ..base.lazy import lazy_module
from ..core import dtypes, hooks
from ..core import primitives as P
from ..core.dtypes import (
    BF16,
    checked_scalar,
    cpp_type_name,
    promote_types,
    scalar_type_name,
    type_string,
)
from ..core.inplace import inplace as _inplace
from ..core.inplace import write as _inplace_write
from ..core.op import apply
from ..core.tensor import (
    Tensor,
    _GradMode,
    batched,
    constant,
    grad_enabled,
    no_grad,
    pytype_name,
    typename,
)
from ..ops import arithmetic as A
from ..ops import reduction as R
from ..ops import shape as S
from . import functional as F
from .args import _int_like, check_dim, float_kernel, int_arg, kernel_dtype, parsed_int

# Op families few programs use, imported at their first use (start-up pays nothing).
Ac = lazy_module("gradcli.ops.activation")
Bn = lazy_module("gradcli.ops.batchnorm")
Cv = lazy_module("gradcli.ops.conv")
Gs = lazy_module("gradcli.ops.gridsample")
Gn = lazy_module("gradcli.ops.groupnorm")
Ln = lazy_module("gradcli.ops.layernorm")
Rs = lazy_module("gradcli.ops.resample")

# --- activations -----------------------------------------------------------------------------


def _float_input(x: Any, kernel: str) -> Tensor:
    return float_kernel(A.tensor_arg(x, "input"), kernel, "f")


def _maybe_inplace(
    x: Tensor, inplace: Any, fn: Callable[[Tensor], Tensor], op: str | None = None
) -> Tensor:
    """`fn(x)`, or x changed in place to it (`inplace=True`), recorded as PyTorch records it
    (`op`: the ATen name of the in-place operation, `aten::elu_`)."""
    if inplace:
        return _inplace(x, fn, op=op)
    return fn(x)


def _elu_apply(
    x: Tensor,
    alpha: float,
    scale: float,
    input_scale: float,
    label: str,
    grad_input_scale: float | None = None,
) -> Tensor:
    params: dict = {"alpha": alpha, "scale": scale, "input_scale": input_scale}
    if grad_input_scale is not None and grad_input_scale != input_scale:
        params["grad_input_scale"] = grad_input_scale
    if label.endswith("1"):  # the in-place kernel: its gradient from the result it saves
        params["is_result"] = True
    return apply(Ac.elu, x, label=label, **params)


def elu(input: Any, alpha: Any = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    x = _float_input(input, "elu_cpu")
    a = _number(alpha, "alpha", "elu")
    label = "EluBackward1" if inplace else "EluBackward0"
    return _maybe_inplace(x, inplace, lambda t: _elu_apply(t, a, 1.0, 1.0, label), "aten::elu_")


SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def selu(input: Any, inplace: bool = False) -> Tensor:  # noqa: A002
    x = _float_input(input, "elu_cpu")
    label = "EluBackward1" if inplace else "EluBackward0"
    return _maybe_inplace(
        x, inplace, lambda t: _elu_apply(t, SELU_ALPHA, SELU_SCALE, 1.0, label), "aten::elu_"
    )


def celu(input: Any, alpha: Any = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    x = _float_input(input, "elu_cpu")
    a = _number(alpha, "alpha", "celu")
    if a == 0:
        raise GradcliError("ZeroDivisionError: alpha cannot be 0 for CELU")
    label = "CeluBackward1" if inplace else "CeluBackward0"
    # forward: elu with 1.0 / alpha; PyTorch's derivative (derivatives.yaml) takes the input
    # scale 1.0 / alpha.toFloat(): alpha rounded to float32 first
    back = 1.0 / float(np.float32(a))
    return _maybe_inplace(
        x, inplace, lambda t: _elu_apply(t, a, 1.0, 1.0 / a, label, back), "aten::elu_"
    )


def _number(v: Any, what: str, fn: str) -> float:
    if isinstance(v, Tensor) and v.data.size == 1:
        return float(v.data.reshape(()))
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise GradcliError(f"{fn}(): argument '{what}' must be Number, not {typename(v)}").mirror(
            "TypeError"
        )
    return float(v)


def hardtanh(
    input: Any,  # noqa: A002
    min_val: Any = -1.0,
    max_val: Any = 1.0,
    inplace: bool = False,
) -> Tensor:
    lo, hi = _number(min_val, "min_val", "hardtanh"), _number(max_val, "max_val", "hardtanh")
    if lo > hi:
        raise GradcliError("min_val cannot be greater than max_val").mirror("ValueError")
    x = A.tensor_arg(input, "input")
    if x.dtype == np.bool_:
        raise (
            GradcliError("Bool inputs not supported for hardtanh").mirror("RuntimeError").pytorch()
        )
    if x.dtype.kind == "u" and (lo < 0 or hi < 0):
        raise GradcliError("cannot do hardtanh on an unsigned type with negative limits")
    for b in (lo, hi):
        checked_scalar(b, x.dtype)  # (the kernel converts the bounds to x's type)
    return _maybe_inplace(x, inplace, lambda t: _hardtanh(t, lo, hi), "aten::hardtanh_")


def _hardtanh(x: Tensor, lo: float, hi: float) -> Tensor:
    if x.dtype.kind in "iu":
        # an integer tensor stays integer, the bounds cast to it (toward zero), as ATen's
        return Tensor(np.clip(x.data, int(lo), int(hi)).astype(x.dtype))
    return apply(Ac.hardtanh, x, min_val=lo, max_val=hi)


def relu6(input: Any, inplace: bool = False) -> Tensor:  # noqa: A002
    return hardtanh(input, 0.0, 6.0, inplace)


def softsign(input: Any) -> Tensor:  # noqa: A002
    x = A.tensor_arg(input, "input")
    return A.div_t(x, A.add_t(A.abs(x), 1))


def _unary_record(name: str, kernel: str) -> Callable[..., Tensor]:
    """F's function of the activation record `name` (looked up at the call: the activations
    are imported when first used)."""

    def f(input: Any, inplace: bool = False) -> Tensor:  # noqa: A002
        x = _float_input(input, kernel)
        return _maybe_inplace(x, inplace, lambda t: apply(getattr(Ac, name), t), f"aten::{name}_")

    f.__name__ = name
    return f


mish = _unary_record("mish", "mish_cpu")
hardswish = _unary_record("hardswish", "hardswish_cpu")
hardsigmoid = _unary_record("hardsigmoid", "hardsigmoid_cpu")


def softmin(input: Any, dim: Any = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:  # noqa: A002
    x = F._softmax_input(input, dtype, "softmax", dim)
    return apply(R.softmax, A.neg(x), dim=F._implicit_dim(x, dim, "softmin"))


def softshrink(input: Any, lambd: Any = 0.5) -> Tensor:  # noqa: A002
    lam = _number(lambd, "lambd", "softshrink")
    if lam < 0:
        raise GradcliError(f"lambda must be greater or equal to 0, but found to be {lam:g}.")
    return apply(Ac.softshrink, _float_input(input, "softshrink_cpu"), lambd=lam)


def hardshrink(input: Any, lambd: Any = 0.5) -> Tensor:  # noqa: A002
    lam = _number(lambd, "lambd", "hardshrink")
    return apply(Ac.hardshrink, _float_input(input, "hardshrink_cpu"), lambd=lam)


def tanhshrink(input: Any) -> Tensor:  # noqa: A002
    x = A.tensor_arg(input, "input")
    return A.sub_t(x, A.tanh(x))


def threshold(input: Any, threshold: Any, value: Any, inplace: bool = False) -> Tensor:  # noqa: A002
    th, v = _number(threshold, "threshold", "threshold"), _number(value, "value", "threshold")
    x = A.tensor_arg(input, "input")
    # the kernel converts both to x's type (an int as an int: -1 wraps into uint8's 255)
    given = [a if isinstance(a, (int, np.integer)) and not isinstance(a, bool) else b
             for a, b in ((threshold, th), (value, v))]  # fmt: skip
    for b in given:
        checked_scalar(b, x.dtype)
    if x.dtype.kind in "iu" and not inplace:
        # an integer tensor stays integer (both numbers cast to it), as ATen's kernel
        t, w = (np.asarray(b).astype(x.dtype) for b in given)
        return Tensor(np.where(x.data > t, x.data, w))
    return _maybe_inplace(
        x,
        inplace,
        lambda t: apply(
            Ac.threshold,
            A.floating(t),
            threshold=th,
            value=v,
            label="ThresholdBackward1" if inplace else None,
        ),
    )


# F's in-place activations: the function with inplace=True (x changed and returned, recorded
# as PyTorch records the in-place kernel: EluBackward1, ThresholdBackward1, ...).
def elu_(input: Any, alpha: Any = 1.0) -> Tensor:  # noqa: A002
    return elu(input, alpha, True)


def selu_(input: Any) -> Tensor:  # noqa: A002
    return selu(input, True)


# torch.selu, torch.celu, torch.threshold: PyTorch's C++ functions, without F's inplace
def torch_selu(input: Any) -> Tensor:  # noqa: A002
    return selu(input)


def torch_celu(input: Any, alpha: Any = 1.0) -> Tensor:  # noqa: A002
    return celu(input, alpha)


def torch_threshold(input: Any, threshold: Any, value: Any) -> Tensor:  # noqa: A002
    return globals()["threshold"](input, threshold, value)


def celu_(input: Any, alpha: Any = 1.0) -> Tensor:  # noqa: A002
    return celu(input, alpha, True)


def hardtanh_(input: Any, min_val: Any = -1.0, max_val: Any = 1.0) -> Tensor:  # noqa: A002
    return hardtanh(input, min_val, max_val, True)


def threshold_(input: Any, threshold: Any, value: Any) -> Tensor:  # noqa: A002
    return globals()["threshold"](input, threshold, value, True)


def leaky_relu_(input: Any, negative_slope: Any = 0.01) -> Tensor:  # noqa: A002
    return F.leaky_relu(input, negative_slope, True)


def glu(input: Any, dim: int = -1) -> Tensor:  # noqa: A002
    x = float_kernel(A.tensor_arg(input, "input"), "glu_cpu", "f")
    if x.ndim == 0:
        raise GradcliError("glu does not support scalars because halving size must be even")
    d = check_dim(dim, x.ndim)
    n = x.shape[d]
    if n % 2:
        raise GradcliError(f"Halving dimension must be even, but dimension {d} is size {n}")
    return apply(Ac.glu, x, dim=d)


# --- normalize and the similarities -----------------------------------------------------------


def normalize(
    input: Any,  # noqa: A002
    p: Any = 2.0,
    dim: Any = 1,
    eps: float = 1e-12,
    out: Any = None,
) -> Tensor:
    x = A.tensor_arg(input, "input")
    check_dim(dim, x.ndim)
    denom = F.clamp_min(F.norm(x, p, dim, keepdim=True), eps)
    return A.div_t(x, F.expand_as(denom, x))


def _clamped_norm(x: Tensor, dim: int, eps: float) -> Tensor:
    """||x|| along dim (kept), at least eps in value; the gradient is the norm's own (PyTorch
    clamps the norm in place outside the graph)."""
    n = F.norm(x, 2, dim, keepdim=True)
    raised = np.maximum(n.data, eps) - n.data
    return A.add_t(n, constant(raised.astype(n.dtype))) if np.any(raised) else n


def cosine_similarity(x1: Any, x2: Any, dim: int = 1, eps: float = 1e-8) -> Tensor:
    a, b = A.tensor_arg(x1, "x1"), A.tensor_arg(x2, "x2")
    shape = A.broadcast_shape(a, b)
    dt = promote_types(a.dtype, b.dtype)  # PyTorch's promotion: int64 with float32 is float32
    if dt.kind != "f":
        raise GradcliError(
            "expected common dtype to be floating point, yet common dtype is "
            + scalar_type_name(dt)
        ).mirror("RuntimeError")
    a, b = (t if t.dtype == dt else F.to_dtype(t, dt) for t in (a, b))
    a = F.expand(a, shape) if a.shape != shape else a
    b = F.expand(b, shape) if b.shape != shape else b
    d = check_dim(dim, len(shape))
    na, nb = _clamped_norm(a, d, eps), _clamped_norm(b, d, eps)
    return F.sum(A.mul_t(A.div_t(a, na), A.div_t(b, nb)), dim=d)


def pairwise_distance(
    x1: Any, x2: Any, p: Any = 2.0, eps: float = 1e-6, keepdim: bool = False
) -> Tensor:
    a, b = A.tensor_arg(x1, "x1"), A.tensor_arg(x2, "x2")
    diff = A.add_t(A.sub_t(a, b), eps)
    return A.named(F.norm(diff, p, -1, keepdim=bool(keepdim)), "NormBackward1")


# --- layer_norm / group_norm --------------------------------------------------------------------


def _normalized(x: Tensor, dims: tuple[int, ...], eps: float) -> Tensor:
    mu = F.mean(x, dim=dims, keepdim=True)
    centred = A.sub_t(x, mu)
    var = F.mean(A.mul_t(centred, centred), dim=dims, keepdim=True)
    return A.div_t(centred, A.sqrt(A.add_t(var, eps)))


def _shape_list(v: Any, what: str, fn: str) -> tuple[int, ...]:
    if isinstance(v, (list, tuple)) or (hasattr(v, "__iter__") and not isinstance(v, str)):
        out = []
        for i, s in enumerate(v):
            if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
                raise GradcliError(
                    f"{fn}(): argument '{what}' must be tuple of ints, but found element of "
                    f"type {typename(s)} at pos {i}"
                ).mirror("TypeError")
            out.append(int(s))
        return tuple(out)
    raise GradcliError(
        f"{fn}(): argument '{what}' (position 2) must be tuple of ints, not {typename(v)}"
    ).mirror("TypeError")


def rms_norm(
    input: Any,  # noqa: A002
    normalized_shape: Any,
    weight: Any = None,
    eps: float | None = None,
) -> Tensor:
    """`F.rms_norm`: x * rsqrt(mean(x**2 over the last dims) + eps) (times weight), as ATen's
    CPU composition computes it, node by node (Pow, Mean, Add, Rsqrt, Mul); eps defaults to
    the input dtype's machine epsilon."""
    from ..ops import elementwise as E

    x = A.tensor_arg(input, "input")
    shape = _shape_list(normalized_shape, "normalized_shape", "rms_norm")
    k = len(shape)
    if k == 0 or x.ndim < k or tuple(x.shape[x.ndim - k :]) != shape:
        raise GradcliError(
            f"Given normalized_shape={list(shape)}, expected input with shape "
            f"[*{', '.join(map(str, shape))}], but got input of size{list(x.shape)}"
        )
    if weight is not None and tuple(A.tensor_arg(weight, "weight").shape) != shape:
        raise GradcliError(
            f"Expected weight to be of same shape as normalized_shape, but got weight of "
            f"shape {list(weight.shape)} and normalized_shape = {list(shape)}"
        )
    if x.dtype.kind != "f":
        raise GradcliError(
            f"\"rms_norm\" not implemented for '{scalar_type_name(x.dtype)}'"
        ).mirror("NotImplementedError")
    if eps is None:
        eps = float(np.finfo(x.dtype).eps)
    dims = tuple(range(x.ndim - k, x.ndim))
    ms = F.mean(A.pow(x, 2), dim=dims, keepdim=True)
    r = apply(E.rsqrt, A.named(A.add_t(ms, float(eps)), "AddBackward1"))
    y = A.mul_t(x, r)
    return y if weight is None else A.mul_t(y, weight)


def layer_norm(
    input: Any,  # noqa: A002
    normalized_shape: Any,
    weight: Any = None,
    bias: Any = None,
    eps: float = 1e-5,
) -> Tensor:
    x = A.tensor_arg(input, "input")
    shape = _shape_list(normalized_shape, "normalized_shape", "layer_norm")
    k = len(shape)
    if k == 0 or x.ndim < k or tuple(x.shape[x.ndim - k :]) != shape:
        raise GradcliError(
            f"Given normalized_shape={list(shape)}, expected input with shape "
            f"[*, {', '.join(map(str, shape))}], but got input of size{list(x.shape)}"
        )
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(A.tensor_arg(t, name).shape) != shape:
            raise GradcliError(
                f"Expected {name} to be of same shape as normalized_shape, but got {name} of "
                f"shape {list(t.shape)} and normalized_shape = {list(shape)}"
            )
    ts = [
        None if t is None else A.tensor_arg(t, name)
        for t, name in ((weight, "weight"), (bias, "bias"))
    ]
    given = [t for t in ts if t is not None]
    if given and given[0].dtype != x.dtype:
        # ATen's "mixed dtype" layer norm: float32 parameters only, for a float16 or bfloat16
        # input alone, computed in float32 and given in the input's dtype
        if any(t.dtype != np.float32 for t in given):
            raise GradcliError("mixed dtype (CPU): expect parameter to have scalar type of Float")
        if x.dtype not in (np.float16, BF16):
            raise GradcliError("mixed dtype (CPU): all inputs must share same datatype.")
        if grad_enabled() and any(t.requires_grad for t in given):
            # (the output and the input's gradient are float32's, rounded; the parameters'
            # gradients PyTorch's kernel sums in an order not measured)
            raise NotSupported(
                "layer_norm of a float16 input with float32 parameters that require grad is "
                "not supported by gradcli",
                hint="give both one dtype: `model.half()`, or the input as `x.float()`",
            )
        y = layer_norm(F.to_dtype(x, np.float32), normalized_shape, weight, bias, eps)
        return A.named(F.to_dtype(y, x.dtype), "NativeLayerNormBackward0")
    for t in given:
        if t.dtype != x.dtype:
            raise GradcliError(
                f"expected scalar type {scalar_type_name(x.dtype)} but found "
                f"{scalar_type_name(t.dtype)}"
            )
    xf = float_kernel(x, "LayerNormKernelImpl", "f")
    if all(t is None or t.dtype == xf.dtype for t in ts):
        # One record: PyTorch's kernel's float32 values and gradients (ops.layernorm)
        w, b = (
            t if t is not None else constant(np.full(shape, fill, dtype=xf.dtype))
            for t, fill in zip(ts, (1, 0))
        )
        params = {"k": k, "eps": float(eps), "has_w": ts[0] is not None}
        return apply(Ln.layer_norm, xf, w, b, **params, has_b=ts[1] is not None)
    y = _normalized(xf, tuple(range(x.ndim - k, x.ndim)), float(eps))
    if weight is not None:
        y = A.mul_t(y, weight)
    if bias is not None:
        y = A.add_t(y, bias)
    return A.named(y, "NativeLayerNormBackward0")


def group_norm(
    input: Any,  # noqa: A002
    num_groups: Any,
    weight: Any = None,
    bias: Any = None,
    eps: float = 1e-5,
) -> Tensor:
    x = float_kernel(A.tensor_arg(input, "input"), "GroupNormKernelImpl", "f")
    g = int_arg(num_groups, "num_groups")
    if x.ndim < 2:
        raise GradcliError(f"Expected at least 2 dimensions for input tensor but received {x.ndim}")
    n, c = x.shape[:2]
    if g <= 0 or c % g:
        raise GradcliError(
            "Expected number of channels in input to be divisible by num_groups, but got "
            f"input of shape {list(x.shape)} and num_groups={g}"
        )
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(A.tensor_arg(t, name).shape) != (c,):
            raise GradcliError(
                f"Expected {name} to be a vector of size equal to the number of channels in "
                f"input, but got {name} of shape {list(t.shape)} and input of shape "
                f"{list(x.shape)}"
            )
    ts = [
        None if t is None else A.tensor_arg(t, name)
        for t, name in ((weight, "weight"), (bias, "bias"))
    ]
    xf = A.floating(x)
    if xf.size and all(t is None or t.dtype == xf.dtype for t in ts):
        # One record: PyTorch's kernel's float32 values (ops.groupnorm)
        w, b = (
            t if t is not None else constant(np.full((c,), fill, dtype=xf.dtype))
            for t, fill in zip(ts, (1, 0))
        )
        params = {"groups": g, "eps": float(eps), "has_w": ts[0] is not None}
        return apply(Gn.group_norm, xf, w, b, **params, has_b=ts[1] is not None)
    grouped = F.reshape(A.floating(x), (n, g, -1) if x.size else (n, g, 0))
    y = F.reshape(_normalized(grouped, (2,), float(eps)), x.shape)
    per_channel = (c,) + (1,) * (x.ndim - 2)
    if weight is not None:
        y = A.mul_t(y, F.reshape(weight, per_channel))
    if bias is not None:
        y = A.add_t(y, F.reshape(bias, per_channel))
    return A.named(y, "NativeGroupNormBackward0")


# --- batch_norm --------------------------------------------------------------------------------


def torch_layer_norm(
    input: Any,  # noqa: A002 - torch.layer_norm's C++ signature
    normalized_shape: Any,
    weight: Any = None,
    bias: Any = None,
    eps: float = 1e-5,
    cudnn_enable: Any = True,
) -> Tensor:
    """torch.layer_norm: F's, with the C++ function's last argument (`cudnn_enable`, of no
    effect on the CPU)."""
    return layer_norm(input, normalized_shape, weight, bias, eps)


def torch_group_norm(
    input: Any,  # noqa: A002 - torch.group_norm's C++ signature
    num_groups: Any,
    weight: Any = None,
    bias: Any = None,
    eps: float = 1e-5,
    cudnn_enabled: Any = True,
) -> Tensor:
    """torch.group_norm: F's, with the C++ function's last argument (`cudnn_enabled`)."""
    return group_norm(input, num_groups, weight, bias, eps)


def _check_channels(t: Any, name: str, c: int) -> Tensor | None:
    if t is None:
        return None
    t = A.tensor_arg(t, name)
    if t.data.size != c:
        raise GradcliError(f"{name} should contain {c} elements not {t.data.size}")
    return t


def batch_norm(
    input: Any,  # noqa: A002
    running_mean: Any,
    running_var: Any,
    weight: Any = None,
    bias: Any = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """`F.batch_norm`: each channel (dim 1) normalised by the batch's statistics in training
    (the running ones updated in place with `momentum`, the variance unbiased there), by the
    running ones in evaluation: one record (`ops.batchnorm`), PyTorch's kernel's values and
    float32 first-order gradients to the bit. Python's F.batch_norm (and so every nn.BatchNorm)
    checks `eps` first: positive in training, not negative in evaluation; torch.batch_norm and
    instance_norm (`_batch_norm`) do not."""
    return _batch_norm(
        input, running_mean, running_var, weight, bias, training, momentum, eps, check_eps=True
    )


def torch_batch_norm(
    input: Any,  # noqa: A002 - torch.batch_norm's C++ signature: every argument given
    weight: Any,
    bias: Any,
    running_mean: Any,
    running_var: Any,
    training: Any,
    momentum: Any,
    eps: Any,
    cudnn_enabled: Any,
) -> Tensor:
    """torch.batch_norm (PyTorch's C++ function, not F's: the parameters before the running
    statistics, all nine arguments required, `eps` not checked)."""
    return _batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


VMAP_RUNNING_STATS = (
    "Batch norm got a batched tensor as input while the running_mean or running_var, which "
    "will be updated in place, were not batched.\nIf you are using a module and do not need "
    "eval mode, please set `track_running_stats` to be False.If you are using a prebuilt module "
    "and do not need eval mode, please see the functorch website for resources on how to patch "
    "your module to work with vmap"
)


def _batch_norm_laid(
    input: Any,  # noqa: A002
    running_mean: Any,
    running_var: Any,
    weight: Any = None,
    bias: Any = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
    check_eps: bool = False,
) -> Tensor:
    x = A.floating(A.tensor_arg(input, "input"))
    if x.ndim < 2:
        raise GradcliError(
            "Dimension out of range (expected to be in range of [-1, 0], but got 1)"
        ).mirror("IndexError")
    c = x.shape[1]
    size = x.data.size // c if c else 0
    if training and size == 1:
        raise GradcliError(
            "Expected more than 1 value per channel when training, got input size "
            f"torch.Size([{', '.join(map(str, x.shape))}])"
        ).mirror("ValueError")
    if check_eps and not isinstance(eps, (int, float, Tensor)):
        op = "<=" if training else "<"  # Python's own words for F.batch_norm's comparison
        raise GradcliError(
            f"'{op}' not supported between instances of '{pytype_name(eps)}' and 'float'"
        ).mirror("TypeError")
    if check_eps and isinstance(eps, (int, float)) and training and eps <= 0.0:
        raise GradcliError(
            f"batch_norm eps must be positive during training, but got {eps}"
        ).mirror("ValueError")
    if check_eps and isinstance(eps, (int, float)) and eps < 0.0:
        raise GradcliError(f"batch_norm eps must be non-negative, but got {eps}").mirror(
            "ValueError"
        )
    rm = _check_channels(running_mean, "running_mean", c)
    rv = _check_channels(running_var, "running_var", c)
    w = _check_channels(weight, "weight", c)
    b = _check_channels(bias, "bias", c)
    if training and _GradMode.vmapped and batched(x):
        if any(t is not None and not batched(t) for t in (rm, rv)):
            # PyTorch's vmap cannot update one running statistic from a batch of inputs
            raise GradcliError(VMAP_RUNNING_STATS).mirror("RuntimeError")
    if not training and (rm is None or rv is None):
        which = "running_mean" if rm is None else "running_var"
        raise GradcliError(f"{which} must be defined in evaluation mode")
    if x.data.size == 0:
        # ATen's empty-input path: a clone, times weight[0], plus bias[0] (CloneBackward0,
        # MulBackward0, AddBackward0: the chain to the parameters kept, no statistics)
        from .indexing import getitem

        out = F.clone(x)
        if w is not None:
            out = out * getitem(w, 0)
        if b is not None:
            out = out + getitem(b, 0)
        return out
    dt = x.dtype
    if any(t is not None and t.dtype != dt for t in (w, b, rm, rv)):
        if dt == np.float16:
            raise NotSupported(
                "batch_norm of a float16 input with float32 parameters or running statistics "
                "is not supported by gradcli",
                hint="give both one dtype: `model.half()`, or the input as `x.float()`",
            )
        raise GradcliError(
            "mixed dtype (CPU): expect parameter to have scalar type of Float"
            if dt == np.float32
            else "mixed dtype (CPU): all inputs must share same datatype."
        )
    if training:
        _update_running(x, rm, rv, float(momentum), size)
    # One record: PyTorch's kernel's values and float32 gradients (ops.batchnorm)
    wc, bc = (
        t if t is not None else constant(np.full((c,), fill, dtype=dt))
        for t, fill in ((w, 1), (b, 0))
    )
    stats = () if training else (rm.detach(), rv.detach())
    has = {"has_w": w is not None, "has_b": b is not None}
    return apply(Bn.batch_norm, x, wc, bc, *stats, eps=float(eps), training=training, **has)


def _update_running(x: Tensor, rm: Tensor | None, rv: Tensor | None, momentum: float, size: int):
    """Training mode's update of the running statistics, in place (the variance unbiased)."""
    dt = x.dtype
    c = x.shape[1]
    mean, var_sum = Bn.channel_stats(x.data)
    m = dt.type(momentum)
    with no_grad():
        if rm is not None:
            # (PyTorch's CPU kernel writes the running statistics without counting a
            # version: `running_mean._version` stays)
            new_mean = (m * mean + (1 - m) * rm.data.reshape(c)).reshape(rm.shape)
            _inplace_write(rm, new_mean, versioned=False)
        if rv is not None:
            unbiased = np.asarray(var_sum / dt.type(size - 1), np.float64)
            new = np.float64(m) * unbiased + (1 - m) * rv.data.reshape(c)
            _inplace_write(rv, new.astype(dt).reshape(rv.shape), versioned=False)


# --- pad -------------------------------------------------------------------------------------


def _pad_pairs(x: Tensor, pad: Any) -> list[tuple[int, int]]:
    """`pad` (last dim first, as PyTorch's) as one (before, after) pair per padded dim, first
    dim first."""
    if isinstance(pad, Tensor) or not isinstance(pad, (list, tuple)):
        raise GradcliError(
            f"pad(): argument 'pad' (position 2) must be tuple of ints, not {typename(pad)}"
        ).mirror("TypeError")
    vals = []
    for i, v in enumerate(pad):
        v = parsed_int(v)
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise GradcliError(
                "pad(): argument 'pad' (position 2) must be tuple of ints, but found element "
                f"of type {typename(v)} at pos {i}"
            ).mirror("TypeError")
        vals.append(int(v))
    if len(vals) % 2:
        raise GradcliError("Padding length must be divisible by 2")
    if len(vals) // 2 > x.ndim:
        raise GradcliError(
            "Padding length should be less than or equal to two times the input dimension but "
            f"got padding length {len(vals)} and input of dimension {x.ndim}"
        )
    pairs = [(vals[2 * i], vals[2 * i + 1]) for i in range(len(vals) // 2)]
    return pairs[::-1]


def pad_laid(input: Any, pad: Any, mode: str = "constant", value: Any = None) -> Tensor:  # noqa: A002
    x = A.tensor_arg(input, "input")
    pairs = _pad_pairs(x, pad)
    k = len(pairs)
    first = x.ndim - k
    if mode == "constant":
        return _constant_pad(x, pairs, first, 0.0 if value is None else value)
    if mode not in ("reflect", "replicate", "circular"):
        raise GradcliError(f"Unrecognised padding mode {mode}").mirror("NotImplementedError")
    if value is not None and value != 0:
        raise GradcliError(f'Padding mode "{mode}" doesn\'t take in value argument')
    if k not in (1, 2, 3) or x.ndim not in (k + 1, k + 2):
        raise (
            GradcliError(
                f"Padding size {2 * k} is not supported for {x.ndim}D input tensor.\n"
                "Supported combinations for non-constant padding:\n"
                "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
            )
            .mirror("NotImplementedError")
            .pytorch()
        )
    if mode != "circular":
        # ATen's check_valid_input of the reflection/replication kernels: every dimension but a
        # batch one (the first of a k+2-D input) must be non-empty
        batched = x.ndim == k + 2
        if any(s == 0 for s in x.shape[1 if batched else 0 :]):
            raise GradcliError(
                f"Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 batch size "
                "and other non-zero dimensions for input, but got: "
                f"[{', '.join(map(str, x.shape))}]"
            )
    outs = [x.shape[first + i] + lo + hi for i, (lo, hi) in enumerate(pairs)]
    if mode == "circular" and min(outs) < 0:
        raise GradcliError("Negative padding value is resulting in an empty dimension")
    if mode != "circular" and all(o < 1 for o in outs):
        # the kernels' output-size check (an output of size 0 passes in 2-D and 3-D where
        # another dimension is left; those with one negative size fail elsewhere, below)
        names = "DHW"[3 - k :]
        ins = [f"{n}: {x.shape[first + i]}" for i, n in enumerate(names)]
        given = ins[0] if k == 1 else f"{' '.join(ins[:-1])}, {ins[-1]}"
        if k == 2 and mode == "replicate":
            given += " "
        got = " ".join(f"{n}: {o}" for n, o in zip(names, outs))
        raise GradcliError(f"input ({given}) is too small. Calculated output {got}")
    sizes = []
    for i, (lo, hi) in enumerate(pairs):
        s = x.shape[first + i]
        if s + lo + hi < 0:
            raise GradcliError(
                f"input tensor size {s} plus padding {lo} and {hi} is negative at dimension "
                f"{first + i}"
            )
        sizes.append(s + lo + hi)
    A.size_check(x.shape[:first] + tuple(sizes), "the padded tensor")
    if mode == "reflect":
        # ATen checks the last dimension first (its pads are argument #4 of the kernel, the
        # one before's #6, then #8)
        for i in reversed(range(k)):
            lo, hi = pairs[i]
            if lo >= x.shape[first + i] or hi >= x.shape[first + i]:
                raise GradcliError(
                    f"Argument #{4 + 2 * (k - 1 - i)}: Padding size should be less than the "
                    f"corresponding input dimension, but got: padding ({lo}, {hi}) at dimension "
                    f"{first + i} of input {list(x.shape)}"
                )
    idx = []
    for i, (lo, hi) in enumerate(pairs):
        s = x.shape[first + i]
        pos = np.arange(-lo, s + hi)
        if mode == "reflect":
            pos = np.abs(pos)
            pos = (s - 1) - np.abs((s - 1) - pos)
        elif mode == "replicate":
            if s == 0:
                raise GradcliError(
                    f"input tensor must have a non-empty dimension {first + i} to pad"
                )
            pos = np.clip(pos, 0, s - 1)
        else:
            if lo > s or hi > s:
                raise GradcliError("Padding value causes wrapping around more than once.")
            pos = np.mod(pos, s) if s else pos
        shape = [1] * k
        shape[i] = len(pos)
        idx.append(pos.reshape(shape))
    label = {
        "reflect": f"ReflectionPad{k}DBackward0",
        "replicate": f"ReplicationPad{k}DBackward0",
        "circular": "CopySlices",
    }[mode]
    return apply(S.index, x, idx=(Ellipsis, *idx), label=label)


def _constant_pad(x: Tensor, pairs: list, first: int, value: Any) -> Tensor:
    crop, place, shape = [], [], list(x.shape[:first])
    for i, (lo, hi) in enumerate(pairs):
        s = x.shape[first + i]
        size = s + lo + hi
        if size < 0:
            raise GradcliError(
                f"The input size {s}, plus negative padding {lo} and {hi} resulted in a negative "
                f"output size, which is invalid. Check dimension {first + i} of your input."
            )
        start, stop = max(-lo, 0), s - max(-hi, 0)
        crop.append(slice(start, max(stop, start)))
        kept = max(stop - start, 0)
        place.append(slice(max(lo, 0), max(lo, 0) + kept))
        shape.append(size)
    shape_t = tuple(shape)
    A.size_check(shape_t, "the padded tensor")
    inner = x
    if any(c.start or c.stop != x.shape[first + i] for i, c in enumerate(crop)):
        inner = apply(S.index, x, idx=(Ellipsis, *crop), label="SliceBackward0")
    body = apply(
        S.index_put,
        inner,
        idx=(Ellipsis, *place),
        shape=shape_t,
        out_ndim=inner.ndim,
        label="ConstantPadNdBackward0",
    )
    v = _number(value, "value", "pad") if not isinstance(value, (int, float)) else value
    if v:
        mask = np.ones(shape_t, dtype=bool)
        mask[(Ellipsis, *place)] = False
        fill = np.where(mask, v, 0).astype(x.dtype)
        body = A.named(A.add_t(body, constant(fill)), "ConstantPadNdBackward0")
    return body


# --- convolution -----------------------------------------------------------------------------


def _tuple(v: Any, d: int, what: str, fn: str) -> tuple[int, ...]:
    if isinstance(v, (list, tuple)):
        items = list(v)
    else:
        items = [v]
    for i in items:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise GradcliError(
                f"{fn}(): argument '{what}' must be tuple of ints, but found element of type "
                f"{typename(i)}"
            ).mirror("TypeError")
    if len(items) == 1:
        items = items * d
    if len(items) != d:
        raise GradcliError(
            f"expected {what} to be a single integer value or a list of {d} values to match the "
            f"convolution dimensions, but got {what}={list(map(int, v))}"
        )
    return tuple(int(i) for i in items)


def _conv_arguments(
    d: int, fn: str, x: Tensor, w: Tensor, stride: Any, dilation: Any, groups: Any
) -> tuple[bool, int, tuple[int, ...], tuple[int, ...]]:
    """What a convolution and a transposed one check alike, in PyTorch's order and words:
    (unbatched, groups, stride, dilation)."""
    if x.ndim not in (d + 1, d + 2):
        raise GradcliError(
            f"Expected {d + 1}D (unbatched) or {d + 2}D (batched) input to {fn}, but got input "
            f"of size: {list(x.shape)}"
        )
    g = int_arg(groups, "groups")
    st = _tuple(stride, d, "stride", fn)
    dl = _tuple(dilation, d, "dilation", fn)
    if g <= 0:
        raise GradcliError("non-positive groups is not supported")
    if any(s <= 0 for s in st):
        raise GradcliError("non-positive stride is not supported")
    if any(v <= 0 for v in dl):
        raise GradcliError(f"dilation should be greater than zero, but got {list(dl)}")
    return x.ndim == d + 1, g, st, dl


def _conv_dtypes(
    d: int,
    x: Tensor,
    w: Tensor,
    b: Tensor | None,
    transposed: bool,
    dilation: tuple[int, ...] = (),
    batch: int = 1,
) -> None:
    """The kernel's dtype checks, after all the shape checks: no loop for a bool input (nor an
    int one, transposed), else the weight (or bias) against the input."""
    other = w if w.dtype != x.dtype else b if b is not None and b.dtype != x.dtype else None
    if other is None:
        # operands of one integer (not int64) or bool dtype: the CPU kernel ATen picks has no
        # loop for it (measured on PyTorch 2.13; an empty batch runs no kernel)
        if batch and (x.dtype == np.bool_ or (x.dtype.kind in "iu" and x.dtype != np.int64)):
            if transposed:
                kernel_dtype(x.dtype, f"slow_conv_transpose{3 if d == 3 else 2}d_out_cpu")
            elif any(v != 1 for v in dilation):
                kernel_dtype(x.dtype, "slow_conv_dilated<>")
            elif x.dtype == np.bool_:
                kernel_dtype(x.dtype, "compute_columns3d" if d == 3 else "slow_conv2d_cpu")
        return
    narrow_int = x.dtype.kind in "iu" and x.dtype != np.int64
    if d <= 2 and (x.dtype == np.bool_ or (transposed and narrow_int)):
        kernel_dtype(x.dtype, "slow_conv_transpose2d_out_cpu" if transposed else "slow_conv2d_cpu")
    raise GradcliError(
        f"expected scalar type {scalar_type_name(x.dtype)} but found "
        f"{scalar_type_name(other.dtype)}",
        hint="convert the input to the layer's dtype: x.float()",
    )


def _conv_laid(
    d: int,
    input: Any,  # noqa: A002
    weight: Any,
    bias: Any,
    stride: Any,
    padding: Any,
    dilation: Any,
    groups: Any,
) -> Tensor:
    fn = f"conv{d}d"
    x, w = A.tensor_arg(input, "input"), A.tensor_arg(weight, "weight")
    if w.ndim < 3:
        raise GradcliError("weight should have at least three dimensions")
    if w.ndim != d + 2:
        raise GradcliError(
            "expected stride to be a single integer value or a list of "
            f"{w.ndim - 2} values to match the convolution dimensions, but got stride="
            f"{list(_tuple(stride, d, 'stride', fn))}"
        )
    unbatched, g, st, dl = _conv_arguments(d, fn, x, w, stride, dilation, groups)
    if isinstance(bias, Tensor) and bias.dtype != x.dtype:
        # ATen's first check of the operands, before their shapes (double data into a float32
        # Conv2d, the common case; a transposed one has no such check)
        raise GradcliError(
            f"Input type ({cpp_type_name(x.dtype)}) and bias type ({cpp_type_name(bias.dtype)}) "
            "should be the same",
            hint="convert the input to the layer's dtype: x.float()",
        )
    o, cg = w.shape[:2]
    kernel = tuple(w.shape[2:])
    xs = x.shape if not unbatched else (1,) + x.shape
    if o == 0:
        raise GradcliError(
            f"Given groups={g}, expected weight to be at least 1 at dimension 0, but got "
            f"weight of size {list(w.shape)} instead"
        )
    if o % g:
        raise GradcliError(
            f"Given groups={g}, expected weight to be divisible by {g} at dimension 0, but got "
            f"weight of size [{list(w.shape)}] instead"
        )
    if xs[1] != cg * g:
        shown = list(xs)
        raise GradcliError(
            f"Given groups={g}, weight of size {list(w.shape)}, expected input{shown} to have "
            f"{cg * g} channels, but got {xs[1]} channels instead"
        )
    b = None
    if bias is not None:
        b = A.tensor_arg(bias, "bias")
        if b.shape != (o,):
            raise GradcliError(
                f"Given weight of size {list(w.shape)}, expected bias to be 1-dimensional with "
                f"{o} elements, but got bias of size {list(b.shape)} instead"
            )
    spatial = xs[2:]
    span = tuple(v * (k - 1) + 1 for v, k in zip(dl, kernel))
    if isinstance(padding, str):
        if padding == "valid":
            lo = (0,) * d
            hi = lo
        elif padding == "same":
            if any(s != 1 for s in st):
                raise GradcliError("padding='same' is not supported for strided convolutions")
            total = tuple(v * (k - 1) for v, k in zip(dl, kernel))
            lo = tuple(t // 2 for t in total)
            hi = tuple(t - t // 2 for t in total)
            if any(t % 2 for t in total):
                hooks.warn(
                    "Using padding='same' with even kernel lengths and odd dilation may require "
                    "a zero-padded copy of the input be created"
                )
        else:
            raise GradcliError(f"Invalid padding string: '{padding}'")
    else:
        lo = _tuple(padding, d, "padding", fn)
        if any(p < 0 for p in lo):
            raise GradcliError("negative padding is not supported")
        hi = lo
    padded = tuple(s + a + c for s, a, c in zip(spatial, lo, hi))
    if any(p < k for p, k in zip(padded, span)):
        raise GradcliError(
            "Calculated padded input size per channel: ("
            + " x ".join(map(str, padded))
            + "). Kernel size: ("
            + " x ".join(map(str, span))
            + "). Kernel size can't be greater than actual input size"
        )
    _conv_dtypes(d, x, w, b, transposed=False, dilation=tuple(dl), batch=xs[0])
    out = tuple((p - k) // s + 1 for p, k, s in zip(padded, span, st))
    n = xs[0]
    A.size_check((n, o) + out, f"the output of {fn}")
    work = n * o * cg * math.prod(kernel) * math.prod(out)
    if work > limits.MULTIPLY_ADDS.value:
        limits.MULTIPLY_ADDS.check(work, f"the multiply-adds of {fn}")
    xb = F.unsqueeze(x, 0) if unbatched else x
    ins = (xb, w) if b is None else (xb, w, b)
    y = apply(Cv.conv, *ins, stride=st, dilation=dl, pad=lo, out=out, groups=g)
    return F.squeeze(y, 0) if unbatched else y


def conv1d(
    input: Any,  # noqa: A002
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: Any = 1,
) -> Tensor:
    return _conv(1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(
    input: Any,  # noqa: A002
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: Any = 1,
) -> Tensor:
    return _conv(2, input, weight, bias, stride, padding, dilation, groups)


def conv3d(
    input: Any,  # noqa: A002
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    dilation: Any = 1,
    groups: Any = 1,
) -> Tensor:
    return _conv(3, input, weight, bias, stride, padding, dilation, groups)


def _conv_transpose_laid(
    d: int,
    input: Any,  # noqa: A002
    weight: Any,
    bias: Any,
    stride: Any,
    padding: Any,
    output_padding: Any,
    groups: Any,
    dilation: Any,
) -> Tensor:
    """conv_transpose{d}d: the input gradient of a convolution as a layer (the decoders of
    autoencoders and GANs), output (n, Cout, (i - 1) * stride - 2 * padding + dilation *
    (k - 1) + output_padding + 1)."""
    fn = f"conv_transpose{d}d"
    x, w = A.tensor_arg(input, "input"), A.tensor_arg(weight, "weight")
    if w.ndim != d + 2:
        raise GradcliError(
            f"Expected {d + 2}-dimensional weight for {fn}, but got weight of size {list(w.shape)}"
        )
    unbatched, g, st, dl = _conv_arguments(d, fn, x, w, stride, dilation, groups)
    pd = _tuple(padding, d, "padding", fn)
    op = _tuple(output_padding, d, "output_padding", fn)
    if any(v < 0 for v in pd):
        raise GradcliError("negative padding is not supported")
    if any(o < 0 or (o >= s and o >= v) for o, s, v in zip(op, st, dl)):
        raise GradcliError(
            "output padding must be smaller than either stride or dilation, but got "
            f"output_padding={list(op)}, stride={list(st)}, dilation={list(dl)}"
        )
    cin, cg = w.shape[:2]
    kernel = tuple(w.shape[2:])
    xs = x.shape if not unbatched else (1,) + x.shape
    if cin % g:
        raise GradcliError(
            f"Given groups={g}, expected weight to be divisible by {g} at dimension 0, but got "
            f"weight of size [{list(w.shape)}] instead"
        )
    if xs[1] != cin:
        raise GradcliError(
            f"Given transposed=1, weight of size {list(w.shape)}, expected input{list(xs)} to "
            f"have {cin} channels, but got {xs[1]} channels instead"
        )
    cout = cg * g
    b = None
    if bias is not None:
        b = A.tensor_arg(bias, "bias")
        if b.shape != (cout,):
            raise GradcliError(
                f"Given transposed=1, weight of size {list(w.shape)}, expected bias to be "
                f"1-dimensional with {cout} elements, but got bias of size {list(b.shape)} "
                "instead"
            )
    spatial = xs[2:]
    size = tuple(
        (i - 1) * s - 2 * p + v * (k - 1) + o + 1
        for i, s, p, v, k, o in zip(spatial, st, pd, dl, kernel, op)
    )
    if any(n <= 0 for n in size):
        raise GradcliError(
            f"Given input size per channel: ({' x '.join(map(str, spatial))}). Calculated "
            f"output size per channel: ({' x '.join(map(str, size))}). Output size is too small"
        )
    _conv_dtypes(d, x, w, b, transposed=True, dilation=tuple(dl), batch=xs[0])
    n = xs[0]
    A.size_check((n, cout) + size, f"the output of {fn}")
    work = n * cin * cg * math.prod(kernel) * math.prod(spatial)
    if work > limits.MULTIPLY_ADDS.value:
        limits.MULTIPLY_ADDS.check(work, f"the multiply-adds of {fn}")
    xb = F.unsqueeze(x, 0) if unbatched else x
    ins = (xb, w) if b is None else (xb, w, b)
    y = apply(
        Cv.conv_transpose,
        *ins,
        size=size,
        stride=st,
        dilation=dl,
        pad=pd,
        out=tuple(spatial),
        groups=g,
    )
    return F.squeeze(y, 0) if unbatched else y


def conv_transpose1d(
    input: Any,  # noqa: A002
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: Any = 1,
    dilation: Any = 1,
) -> Tensor:
    return _conv_transpose(
        1, input, weight, bias, stride, padding, output_padding, groups, dilation
    )


def conv_transpose2d(
    input: Any,  # noqa: A002
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: Any = 1,
    dilation: Any = 1,
) -> Tensor:
    return _conv_transpose(
        2, input, weight, bias, stride, padding, output_padding, groups, dilation
    )


def conv_transpose3d(
    input: Any,  # noqa: A002
    weight: Any,
    bias: Any = None,
    stride: Any = 1,
    padding: Any = 0,
    output_padding: Any = 0,
    groups: Any = 1,
    dilation: Any = 1,
) -> Tensor:
    return _conv_transpose(
        3, input, weight, bias, stride, padding, output_padding, groups, dilation
    )


# --- resampling --------------------------------------------------------------------------------


def _nearest_index(
    n_in: int, n_out: int, scale: float | None, exact: bool, dt: Any
) -> tuple[int, ...]:
    """The source of each output position along one axis, as ATen's nearest kernels compute
    it (HelperInterpNearest / NearestExact) in the op's type (float32 but for float64
    inputs): s = 1 / scale_factor (when given) or n_in / n_out; `nearest` reads
    floor(i * s), `nearest-exact` floor(s * (i + 0.5) - 0.5 + 0.5) (the index through
    float32's floorf), at most n_in - 1."""
    t = np.float64 if dt == np.float64 else np.float32
    s = t(1.0 / scale) if scale is not None and scale > 0 else t(t(n_in) / t(n_out))
    i = np.arange(n_out)
    if exact:
        real = Rs._fma_v(s, (i + 0.5).astype(t), -0.5, t)
        real = (real + t(0.5)).astype(t)
    else:
        real = (s * i.astype(t)).astype(t)
    src = np.floor(real.astype(np.float32)).astype(np.int64)
    return tuple(int(v) for v in np.minimum(src, n_in - 1))


def _nearest_bindex(n_in: int, n_out: int, scale: float | None, exact: bool) -> tuple[int, ...]:
    """The sources as ATen's nearest backward computes them (nearest_idx /
    nearest_exact_idx): a float32 scale; `nearest` copies equal sizes and halves doubled
    ones, else floor(i * s); `nearest-exact` floor((i + 0.5) * s); at most n_in - 1."""
    i = np.arange(n_out)
    if not exact and n_out == n_in:
        return tuple(int(v) for v in i)
    if not exact and n_out == 2 * n_in:
        return tuple(int(v) for v in i >> 1)
    s = np.float32(1.0 / scale) if scale is not None and scale > 0 else np.float32(n_in) / n_out
    s = np.float32(s)
    if exact:
        real = ((i + 0.5) * np.float64(s)).astype(np.float32)
    else:
        real = (i.astype(np.float32) * s).astype(np.float32)
    return tuple(int(v) for v in np.minimum(np.floor(real).astype(np.int64), n_in - 1))


_INTERP_MODES = ("nearest", "linear", "bilinear", "bicubic", "trilinear", "area", "nearest-exact")
_INTERP_DIMS = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}
_INTERP_LABELS = {
    "linear": "UpsampleLinear1DBackward0",
    "bilinear": "UpsampleBilinear2DBackward0",
    "bicubic": "UpsampleBicubic2DBackward0",
    "trilinear": "UpsampleTrilinear3DBackward0",
}


def _interp_sizes(x: Tensor, size: Any, scale_factor: Any, d: int) -> tuple:
    """PyTorch's size / scale_factor processing: (output sizes or None, scale factors or
    None), exactly one given, a number applying to every spatial axis."""
    spatial = list(x.shape[2:])
    if size is not None and scale_factor is not None:
        raise GradcliError("only one of size or scale_factor should be defined").mirror(
            "ValueError"
        )
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != d:
                raise GradcliError(
                    "Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {spatial} and output size of "
                    f"{_pyrepr(size)}. Please provide input tensor in (N, C, d1, d2, ...,dK) "
                    "format and output size in (o1, o2, ...,oK) format."
                ).mirror("ValueError")
            if not all(_is_int(v) for v in size):
                kinds = ", ".join(f"<class '{_pytype(v)}'>" for v in size)
                raise GradcliError(
                    "expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                    f"Tuple[int, int, int], but got size with types [{kinds}]"
                ).mirror("TypeError")
            return [int(v) for v in size], None
        return [int_arg(size, "size")] * d, None
    if scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != d:
                raise GradcliError(
                    "Input and scale_factor must have the same number of spatial dimensions, "
                    f"but got input with spatial dimensions of {spatial} and scale_factor of "
                    f"shape {_pyrepr(scale_factor)}. Please provide input tensor in (N, C, d1, "
                    "d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format."
                ).mirror("ValueError")
            factors = list(scale_factor)
        else:
            factors = [scale_factor] * d
        for f in factors:
            if isinstance(f, bool) or not isinstance(f, (int, float)):
                raise GradcliError(f"scale_factor must be a number, not {typename(f)}").mirror(
                    "TypeError"
                )
        return None, [float(f) for f in factors]
    raise GradcliError("either size or scale_factor should be defined").mirror("ValueError")


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _pytype(v: Any) -> str:
    return {"Tensor": "torch.Tensor", "None": "NoneType"}.get(typename(v), typename(v))


def _pyrepr(v: Any) -> str:
    return repr(tuple(v) if isinstance(v, tuple) else list(v))


def _interp_size_check(spatial: tuple, out: tuple) -> None:
    if all(n > 0 for n in spatial) and all(o > 0 for o in out):
        return
    names = ("D", "H", "W")[3 - len(out) :]
    shown_in = ", ".join(f"{k}: {n}" for k, n in zip(names, spatial))
    shown_out = ", ".join(f"{k}: {n}" for k, n in zip(names, out))
    sep = " and output" if len(out) == 1 else " output"
    raise GradcliError(
        f"Input and output sizes should be greater than 0, but got input ({shown_in}){sep} "
        f"({shown_out})"
    )


def _channels_last_kernel(x: Tensor, out: tuple) -> bool:
    """Whether ATen's 2-d nearest and bilinear kernels take their channels-last path: an
    output height + width of at most 128, or an input that is channels-last contiguous too
    (1 x 1 images) with more than 3 channels."""
    from ..core.layout import suggested_format, torch_strides

    if x.ndim == 4 and suggested_format(x.shape, torch_strides(x.data)) == "channels_last":
        return True  # (a channels-last input: that kernel whatever the size)
    return sum(out) <= 128 or (x.shape[1] > 3 and tuple(x.shape[2:]) == (1, 1))


def interpolate_laid(
    input: Any,  # noqa: A002
    size: Any = None,
    scale_factor: Any = None,
    mode: Any = "nearest",
    align_corners: Any = None,
    recompute_scale_factor: Any = None,
    antialias: Any = False,
) -> Tensor:
    """F.interpolate in every mode but lanczos, on (N, C, L), (N, C, H, W) and
    (N, C, D, H, W) inputs, as ATen's CPU kernels compute it (`ops.resample`)."""
    x = A.tensor_arg(input, "input")
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise GradcliError(
                "align_corners option can only be set with the interpolating modes: linear | "
                "bilinear | bicubic | trilinear"
            ).mirror("ValueError")
    elif align_corners is None:
        align_corners = False
    d = x.ndim - 2
    out_size, factors = _interp_sizes(x, size, scale_factor, d)
    if recompute_scale_factor and size is not None:
        raise GradcliError(
            "recompute_scale_factor is not meaningful with an explicit size."
        ).mirror("ValueError")
    if mode == "area" and out_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor and factors is not None:
        for n, f in zip(x.shape[2:], factors):
            if not math.isfinite(n * f):
                what = "infinity" if math.isinf(n * f) else "NaN"
                raise GradcliError(f"cannot convert float {what} to integer").mirror(
                    "OverflowError" if what == "infinity" else "ValueError"
                )
        out_size = [int(math.floor(n * f)) for n, f in zip(x.shape[2:], factors)]
        factors = None
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and x.ndim == 4):
        raise GradcliError(
            "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and "
            "requires a 4-D tensor as input"
        ).mirror("ValueError")
    if d not in (1, 2, 3) or mode not in _INTERP_MODES:
        raise GradcliError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {x.ndim}D) for the "
            "modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
            f"nearest-exact (got {mode})"
        ).mirror("NotImplementedError")
    if antialias:
        raise NotSupported(
            "F.interpolate(antialias=True) is not supported by gradcli",
            hint="antialias=False (the default)",
        )
    if mode == "area":
        if d == 1:
            return adaptive_avg_pool1d(x, out_size[0])
        pool = adaptive_avg_pool2d if d == 2 else adaptive_avg_pool3d
        return pool(x, tuple(out_size))
    want = _INTERP_DIMS.get(mode, d)
    if want != d:
        raise GradcliError(f"Got {x.ndim}D input, but {mode} mode needs {want + 2}D input").mirror(
            "NotImplementedError"
        )
    spatial = tuple(x.shape[2:])
    if out_size is None:
        if any(not abs(n * f) < 2.0**63 for n, f in zip(spatial, factors)):
            raise GradcliError("value cannot be converted to type int64_t without overflow")
        out = tuple(int(n * f) for n, f in zip(spatial, factors))
    else:
        out = tuple(out_size)
    _interp_size_check(spatial, out)
    if x.size == 0:
        raise GradcliError(
            f"Non-empty {x.ndim}D data tensor expected but got a tensor with sizes {list(x.shape)}"
        )
    A.size_check(x.shape[:2] + out, "the output of F.interpolate()")
    scales: list[float | None] = list(factors) if factors is not None else [None] * d
    if mode in ("nearest", "nearest-exact"):
        if x.dtype.kind in "ib" or (x.dtype.kind == "u" and x.dtype != np.uint8):
            raise GradcliError(
                '"compute_indices_weights_nearest" not implemented for '
                f"'{scalar_type_name(x.dtype)}'"
            ).mirror("NotImplementedError")
        exact = mode == "nearest-exact"
        bindex = tuple(_nearest_bindex(n, o, s, exact) for n, o, s in zip(spatial, out, scales))
        if d == 2 and _channels_last_kernel(x, out):
            index = bindex  # ATen's channels-last kernel computes the sources as the backward
        else:
            index = tuple(
                _nearest_index(n, o, s, exact, x.dtype.type)
                for n, o, s in zip(spatial, out, scales)
            )
        kind = "NearestExact" if exact else "Nearest"
        return apply(
            Rs.upsample_nearest,
            x,
            index=index,
            bindex=bindex,
            label=f"Upsample{kind}{d}DBackward0",
        )
    cubic = mode == "bicubic"
    if x.dtype.kind not in "f":
        what = "cubic" if cubic else "linear"
        raise GradcliError(
            f"\"compute_indices_weights_{what}\" not implemented for '{scalar_type_name(x.dtype)}'"
        ).mirror("NotImplementedError")
    align = bool(align_corners)
    taps = tuple(
        Rs.interp_taps(n, o, cubic, align, s, x.dtype) for n, o, s in zip(spatial, out, scales)
    )
    # the bicubic backward computes its weights again, each step rounded
    btaps = (
        tuple(
            Rs.interp_taps(n, o, True, align, s, x.dtype, False)
            for n, o, s in zip(spatial, out, scales)
        )
        if cubic
        else taps
    )
    # ATen's channels-last bilinear kernel: small outputs, or 3 channels (one thread)
    kernel = "generic"
    if mode == "bilinear" and (_channels_last_kernel(x, out) or x.shape[1] == 3):
        kernel = "cl"
    return apply(
        Rs.upsample_interp,
        x,
        taps=taps,
        btaps=btaps,
        kernel=kernel,
        cubic=cubic,
        label=_INTERP_LABELS[mode],
    )


_ADAPTIVE_WINDOWS = 4096  # output positions an adaptive pooling composes one by one


def _adaptive_sizes(output_size: Any, spatial: tuple[int, ...], fn: str) -> tuple[int, ...]:
    n = len(spatial)
    sizes = output_size if isinstance(output_size, (tuple, list)) else (output_size,) * n
    if len(sizes) != n:
        raise GradcliError(
            f"{fn}() argument 'output_size' should contain {'one int' if n == 1 else f'{n} ints'} "
            f"(got {len(sizes)})"
        )
    out = []
    for pos, (s, full) in enumerate(zip(sizes, spatial)):
        if s is None:
            s = full
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
            raise GradcliError(
                f"{fn}(): argument 'output_size' (position 2) must be tuple of ints, but found "
                f"element of type {typename(s)} at pos {pos}"
            ).mirror("TypeError")
        out.append(int(s))
    if any(s < 0 for s in out):
        raise GradcliError(
            f"{fn}: elements of output_size must be greater than or equal to 0 but received "
            "{" + ", ".join(map(str, out)) + "}"
        )
    return tuple(out)


_SEQUENTIAL_WINDOW = 64  # window elements an adaptive average adds one by one


def _window_average(win: Tensor, sizes: tuple[int, ...]) -> Tensor:
    """The average of an adaptive pooling window (its last len(sizes) axes) as ATen's
    cpu_adaptive_avg_pool loop forms it: `sum += x` from 0 in the tensor's own dtype, row by
    row, then divided by each of the window's sizes (a float32 window summed another way
    differs in last bits). Windows of more than _SEQUENTIAL_WINDOW elements: the reduction's
    sum (its own summation order; a last-bit difference is possible there)."""
    from ..ops.arithmetic import add_t, div_t
    from .functional import flatten, sum

    ndims = len(sizes)
    n = math.prod(sizes)
    if n == 0 or n > _SEQUENTIAL_WINDOW or win.dtype.kind != "f":
        acc = sum(win, dim=tuple(range(-ndims, 0)))
    else:
        flat = flatten(win, -ndims, -1) if ndims > 1 else win
        acc = add_t(flat[..., 0], 0.0)  # 0 + x: -0.0 becomes 0.0, as the loop's first step
        for k in range(1, n):
            acc = add_t(acc, flat[..., k])
    for size in sizes:
        acc = div_t(acc, size)
    return acc


def adaptive_avg_pool2d_laid(input: Any, output_size: Any) -> Tensor:  # noqa: A002
    """`F.adaptive_avg_pool2d`: output cell (i, j) averages rows floor(i*H/oh) to
    ceil((i+1)*H/oh) and likewise columns, summed then divided by the window's height and
    width (PyTorch's kernel); a (1, 1) output is PyTorch's special case, a mean."""
    from ..ops.arithmetic import named
    from .functional import mean, stack

    x = A.tensor_arg(input, "input")
    if x.ndim not in (3, 4) or any(d == 0 for d in x.shape[-3:]):
        raise GradcliError(
            f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(x.shape)}"
        )
    h, w = x.shape[-2:]
    oh, ow = _adaptive_sizes(output_size, (h, w), "adaptive_avg_pool2d")
    A.size_check(tuple(x.shape[:-2]) + (oh, ow), "adaptive_avg_pool2d output")
    if (oh, ow) == (1, 1):
        return mean(x, dim=(-1, -2), keepdim=True)
    if oh * ow > _ADAPTIVE_WINDOWS:
        raise GradcliError(
            f"adaptive_avg_pool2d: gradcli composes at most {_ADAPTIVE_WINDOWS} output "
            f"positions, got {oh} x {ow}",
            hint="use avg_pool2d when the sizes divide evenly",
        )
    if oh == 0 or ow == 0:
        return named(x[..., :oh, :ow] * 1, "AdaptiveAvgPool2DBackward0")
    if x.dtype in (np.float32, np.float64):
        # ATen's kernel and its backward, in their order (`ops.resample.adaptive_avg_pool`)
        return apply(Rs.adaptive_avg_pool, x, out_size=(oh, ow), label="AdaptiveAvgPool2DBackward0")
    rows = []
    for i in range(oh):
        hs, he = (i * h) // oh, -(-((i + 1) * h) // oh)
        band = x[..., hs:he, :]
        cells = []
        for j in range(ow):
            ws, we = (j * w) // ow, -(-((j + 1) * w) // ow)
            cells.append(_window_average(band[..., ws:we], (he - hs, we - ws)))
        rows.append(stack(cells, -1))
    return named(stack(rows, -2), "AdaptiveAvgPool2DBackward0")


def adaptive_avg_pool3d(input: Any, output_size: Any) -> Tensor:  # noqa: A002
    """`F.adaptive_avg_pool3d`: output cell (i, j, k) averages the window of each axis from
    floor(i*D/od) to ceil((i+1)*D/od) (likewise H, W): summed, then divided by the window's
    depth, height and width; a (1, 1, 1) output is PyTorch's special case, a mean."""
    from ..ops.arithmetic import named
    from .functional import mean, stack

    x = A.tensor_arg(input, "input")
    if isinstance(output_size, (list, tuple)) and x.ndim <= len(output_size):
        raise GradcliError(f"Input dimension should be at least {len(output_size) + 1}").mirror(
            "ValueError"
        )
    if x.ndim >= 3:
        out = _adaptive_sizes(output_size, tuple(x.shape[-3:]), "adaptive_avg_pool3d")
        if tuple(out) == (1, 1, 1):  # PyTorch's mean, before any check of the input
            return mean(x, dim=(-1, -2, -3), keepdim=True)
    if x.ndim not in (4, 5) or any(d == 0 for d in x.shape[-4:]):
        raise GradcliError(
            f"adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got {list(x.shape)}"
        )
    sizes = tuple(x.shape[-3:])
    A.size_check(tuple(x.shape[:-3]) + tuple(out), "adaptive_avg_pool3d output")
    if math.prod(out) > _ADAPTIVE_WINDOWS:
        raise GradcliError(
            f"adaptive_avg_pool3d: gradcli composes at most {_ADAPTIVE_WINDOWS} output "
            f"positions, got {' x '.join(map(str, out))}",
            hint="use avg_pool3d when the sizes divide evenly",
        )
    if 0 in out:
        od, oh, ow = out
        return named(x[..., :od, :oh, :ow] * 1, "AdaptiveAvgPool3DBackward0")
    if x.dtype in (np.float32, np.float64):
        return apply(
            Rs.adaptive_avg_pool, x, out_size=tuple(out), label="AdaptiveAvgPool3DBackward0"
        )

    def window(i: int, n: int, o: int) -> tuple[int, int]:
        start, stop = (i * n) // o, -(-((i + 1) * n) // o)
        return start, stop - start

    planes = []
    for i in range(out[0]):
        ds, dn = window(i, sizes[0], out[0])
        slab = x[..., ds : ds + dn, :, :]
        rows = []
        for j in range(out[1]):
            hs, hn = window(j, sizes[1], out[1])
            band = slab[..., hs : hs + hn, :]
            cells = []
            for k in range(out[2]):
                ws, wn = window(k, sizes[2], out[2])
                cells.append(_window_average(band[..., ws : ws + wn], (dn, hn, wn)))
            rows.append(stack(cells, -1))
        planes.append(stack(rows, -2))
    return named(stack(planes, -3), "AdaptiveAvgPool3DBackward0")


def adaptive_avg_pool1d(input: Any, output_size: Any) -> Tensor:  # noqa: A002
    """`F.adaptive_avg_pool1d`: the 2-d pooling of a height-1 input (PyTorch's own way)."""
    from .functional import squeeze, unsqueeze

    x = A.tensor_arg(input, "input")
    if x.ndim not in (2, 3):
        raise GradcliError(
            f"adaptive_avg_pool1d(): Expected 2D or 3D tensor, but got {list(x.shape)}"
        )
    (n,) = _adaptive_sizes(output_size, x.shape[-1:], "adaptive_avg_pool1d")
    return squeeze(adaptive_avg_pool2d(unsqueeze(x, -2), (1, n)), -2)


# --- sampling grids ------------------------------------------------------------------------------

_ALIGN_WARNING = (
    "Default grid_sample and affine_grid behavior has changed to align_corners=False since "
    "1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
    "documentation of grid_sample for details."
)


def grid_sample(
    input: Any,  # noqa: A002
    grid: Any,
    mode: Any = "bilinear",
    padding_mode: Any = "zeros",
    align_corners: Any = None,
) -> Tensor:
    """F.grid_sample on (N, C, H, W) inputs, modes bilinear and nearest, as ATen's CPU kernel
    (`ops.gridsample`); bicubic and 5-d inputs say they are not supported."""
    x = A.tensor_arg(input, "input")
    g = A.tensor_arg(grid, "grid")
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise GradcliError(
            "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or "
            f"'bicubic', but got: '{mode}'"
        ).mirror("ValueError")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise GradcliError(
            "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
            f"'reflection', but got: '{padding_mode}'"
        ).mirror("ValueError")
    if align_corners is None:
        hooks.warn(_ALIGN_WARNING)
        align_corners = False
    if x.dtype != g.dtype:
        raise GradcliError(
            f"expected scalar type {scalar_type_name(x.dtype)} but found "
            f"{scalar_type_name(g.dtype)}"
        )
    if x.ndim == 5 or g.ndim == 5:
        raise NotSupported(
            "F.grid_sample of a 5-d input (volumes) is not supported by gradcli",
            hint="(N, C, H, W) inputs with (N, H_out, W_out, 2) grids",
        )
    if g.ndim != x.ndim or x.ndim != 4:
        raise GradcliError(
            "grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, "
            f"but got input with sizes {list(x.shape)} and grid with sizes {list(g.shape)}"
        )
    if x.shape[0] != g.shape[0]:
        raise GradcliError(
            "grid_sampler(): expected grid and input to have same batch size, but got input "
            f"with sizes {list(x.shape)} and grid with sizes {list(g.shape)}"
        )
    if g.shape[-1] != 2:
        raise GradcliError(
            "grid_sampler(): expected grid to have size 2 in last dimension, but got grid "
            f"with sizes {list(g.shape)}"
        )
    if any(n == 0 for n in x.shape[2:]):
        raise GradcliError(
            "grid_sampler(): expected input to have non-empty spatial dimensions, but input "
            f"has sizes {list(x.shape)} with dimension 2 being empty"
        )
    if x.dtype.kind != "f":
        raise GradcliError(
            f"\"grid_sampler_2d_cpu\" not implemented for '{scalar_type_name(x.dtype)}'"
        ).mirror("NotImplementedError")
    if mode == "bicubic":
        raise NotSupported(
            "F.grid_sample(mode='bicubic') is not supported by gradcli",
            hint="mode='bilinear' or 'nearest'",
        )
    A.size_check(x.shape[:2] + g.shape[1:3], "the output of F.grid_sample()")
    return apply(Gs.grid_sample, x, g, mode=mode, padding=padding_mode, align=bool(align_corners))


def affine_grid(theta: Any, size: Any, align_corners: Any = None) -> Tensor:
    """F.affine_grid for 2-d transforms: the base grid (x, y, 1) of each output pixel, as
    ATen builds it, times theta transposed (bmm), as AffineGridGeneratorBackward0."""
    from ..core.dtypes import torch_name
    from ..ops.arithmetic import named
    from .constructors import _linspace

    t = A.tensor_arg(theta, "theta")
    if align_corners is None:
        hooks.warn(_ALIGN_WARNING)
        align_corners = False
    if t.dtype.kind != "f":
        raise GradcliError(
            f"Expected theta to have floating point type, but got {torch_name(t.dtype)}"
        ).mirror("ValueError")
    dims = [int_arg(v, "size") for v in size]
    shown = f"({', '.join(map(str, dims))})" if not isinstance(size, list) else str(dims)
    if len(dims) == 4:
        if t.ndim != 3 or t.shape[-2] != 2 or t.shape[-1] != 3:
            raise GradcliError(
                "Expected a batch of 2D affine matrices of shape Nx2x3 for size "
                f"{shown}. Got torch.Size({list(t.shape)})."
            ).mirror("ValueError")
    elif len(dims) == 5:
        raise NotSupported(
            "F.affine_grid for 3-d transforms (5-d sizes) is not supported by gradcli",
            hint="a 4-d size (N, C, H, W) with Nx2x3 matrices",
        )
    else:
        raise GradcliError(
            "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
            f"respectively. Got size {shown}."
        ).mirror("NotImplementedError")
    n, _, h, w = dims
    if align_corners and min(h, w) == 1:
        hooks.warn(
            "Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
            "align_corners=True. This is not an intended use case of affine_grid. See the "
            "documentation of affine_grid for details."
        )
    elif min(dims) <= 0:
        raise GradcliError(f"Expected non-zero, positive output size. Got {shown}").mirror(
            "ValueError"
        )
    if n != t.shape[0]:
        raise GradcliError(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{n}, 3] but got: [{t.shape[0]}, 3]."
        )
    A.size_check((n, h, w, 3), "the base grid of F.affine_grid()")
    dt = t.dtype.type

    def steps(k: int) -> np.ndarray:
        if k <= 1:
            return np.zeros(1, dt)
        r = np.asarray(_linspace(-1.0, 1.0, k, t.dtype), dt)
        if not align_corners:
            r = ((r * dt(k - 1)).astype(dt) / dt(k)).astype(dt)
        return r

    base = np.empty((n, h, w, 3), dt)
    base[..., 0] = steps(w)[None, None, :]
    base[..., 1] = steps(h)[None, :, None]
    base[..., 2] = 1
    rows = Tensor(base.reshape(n, h * w, 3))
    grid = F.bmm(rows, F.transpose(t, 1, 2))
    return named(F.reshape(grid, (n, h, w, 2)), "AffineGridGeneratorBackward0")


# --- pooling ---------------------------------------------------------------------------------


def pool_out(size: int, k: int, s: int, p: int, dil: int, ceil_mode: bool) -> int:
    """PyTorch's pooling output size (with ceil_mode, a last window must start inside the
    input or its left padding)."""
    n = (size + 2 * p - dil * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (n - 1) * s >= size + p:
        n -= 1
    return n


def _pool_args(
    x: Tensor, d: int, kernel_size: Any, stride: Any, padding: Any, dilation: Any, fn: str
) -> tuple:
    k = _tuple(kernel_size, d, "kernel_size", fn)
    no_stride = stride is None or (isinstance(stride, (list, tuple)) and not stride)
    st = k if no_stride else _tuple(stride, d, "stride", fn)
    p = _tuple(padding, d, "padding", fn)
    dl = _tuple(dilation, d, "dilation", fn)
    if any(v == 0 for v in st):
        raise GradcliError("stride should not be zero")
    if any(v <= 0 for v in k):
        raise GradcliError(f"kernel_size must be greater than zero, but got kernel_size={list(k)}")
    if any(v < 0 for v in st):
        raise GradcliError("stride should be greater than zero")
    if any(v <= 0 for v in dl):
        raise GradcliError(f"dilation should be greater than zero, but got dilation={list(dl)}")
    for i in range(d):
        if p[i] < 0 or p[i] > (dl[i] * (k[i] - 1) + 1) // 2:
            raise GradcliError(
                f"pad should be at most half of effective kernel size, but got pad={p[i]}, "
                f"kernel_size={k[i]} and dilation={dl[i]}"
            )
    return k, st, p, dl


def _pool_input(x: Tensor, d: int, fn: str) -> Tensor:
    if d == 3 and x.ndim in (4, 5) and any(s == 0 for s in x.shape[-3:]):
        zero = next(i for i, s in enumerate(x.shape[-3:]) if s == 0)
        where = "max_pool3d_with_indices_out_cpu_template" if fn == "max_pool3d" else fn
        raise GradcliError(
            f"{where}(): Expected input's non-batch dimensions to have positive length, but "
            f"input has a shape of {list(x.shape)} and non-batch dimension {zero} has length "
            "zero!"
        )
    if x.ndim not in (d + 1, d + 2) or any(s == 0 for s in x.shape[-d - 1 :]):
        if d == 3:
            raise GradcliError("non-empty 4D or 5D (batch mode) tensor expected for input")
        if d == 1:
            raise GradcliError(
                f"{fn}: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                f"input, but got:{list(x.shape)}"
            )
        raise GradcliError("non-empty 3D or 4D (batch mode) tensor expected for input")
    return x


def _pool_out(x: Tensor, k, st, p, dl, ceil_mode: bool) -> tuple[int, ...]:
    d = len(k)
    size = x.shape[x.ndim - d :]
    out = tuple(pool_out(size[i], k[i], st[i], p[i], dl[i], bool(ceil_mode)) for i in range(d))
    if any(o < 1 for o in out):
        lead = x.shape[x.ndim - d - 1 : x.ndim - d]
        raise GradcliError(
            "Given input size: ("
            + "x".join(map(str, lead + size))
            + "). Calculated output size: ("
            + "x".join(map(str, lead + out))
            + "). Output size is too small"
        )
    A.size_check(x.shape[: x.ndim - d] + out, "the pooled tensor")
    work = math.prod(x.shape[: x.ndim - d] + out) * math.prod(k)
    if work > limits.MULTIPLY_ADDS.value:
        limits.MULTIPLY_ADDS.check(work, "the window elements the pooling reads")
    return out


def _as_2d(x: Tensor) -> Tensor:
    """A 1-d pooling input with a length-1 axis before its last (PyTorch pools 1-d as 2-d)."""
    return apply(P.reshape, x, shape=x.shape[:-1] + (1, x.shape[-1]), label="UnsqueezeBackward0")


def _from_2d(y: Tensor) -> Tensor:
    return apply(P.reshape, y, shape=y.shape[:-2] + (y.shape[-1],), label="SqueezeBackward1")


def _max_pool_laid(
    d: int,
    input: Any,  # noqa: A002
    kernel_size: Any,
    stride: Any,
    padding: Any,
    dilation: Any,
    ceil_mode: bool,
    return_indices: bool,
) -> Any:
    fn = f"max_pool{d}d"
    x = _pool_input(A.tensor_arg(input, "input"), d, fn)
    k, st, p, dl = _pool_args(x, d, kernel_size, stride, padding, dilation, fn)
    out = _pool_out(x, k, st, p, dl, ceil_mode)
    if d == 1 and not return_indices and x.dtype.kind in "iub":
        float_kernel(x, "max_pool1d_impl", "f")  # (ATen's one-dim kernel without indices)
    if x.dtype == np.bool_:
        raise GradcliError("\"max_pool2d\" not implemented for 'Bool'").mirror(
            "NotImplementedError"
        )
    geo = {"kernel": k, "stride": st, "dilation": dl, "pad": p, "out": out}
    if d == 1:
        geo2 = {key: (1 if key != "pad" else 0,) + v for key, v in geo.items()}
        y = _from_2d(apply(Cv.max_pool, _as_2d(x), **geo2))
    elif d == 3:
        y = apply(Cv.max_pool, x, label="MaxPool3DWithIndicesBackward0", **geo)
    else:
        y = apply(Cv.max_pool, x, **geo)
    if not return_indices:
        return y
    pos = Cv.argmax_positions(x.data, **geo) if x.size else np.zeros(y.shape, np.int64)
    return (y, Tensor(pos.astype(np.int64)))


def max_pool1d(
    input: Any,  # noqa: A002
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    return _max_pool(1, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def max_pool2d(
    input: Any,  # noqa: A002
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    return _max_pool(2, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def upsample(
    input: Any,  # noqa: A002
    size: Any = None,
    scale_factor: Any = None,
    mode: Any = "nearest",
    align_corners: Any = None,
) -> Tensor:
    """`F.upsample` (deprecated in PyTorch, with its warning): F.interpolate."""
    hooks.warn(
        "`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.",
        once=True,
    )
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_bilinear(input: Any, size: Any = None, scale_factor: Any = None) -> Tensor:  # noqa: A002
    """`F.upsample_bilinear` (deprecated in PyTorch, with its warning): F.interpolate,
    bilinear with align_corners=True."""
    hooks.warn(
        "`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
        once=True,
    )
    return interpolate(input, size, scale_factor, "bilinear", True)


def upsample_nearest(input: Any, size: Any = None, scale_factor: Any = None) -> Tensor:  # noqa: A002
    """`F.upsample_nearest` (deprecated in PyTorch, with its warning): F.interpolate."""
    hooks.warn(
        "`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
        once=True,
    )
    return interpolate(input, size, scale_factor, "nearest")


def max_pool1d_with_indices(
    input: Any,  # noqa: A002
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """`F.max_pool1d_with_indices`: max_pool1d's values and indices, whatever return_indices."""
    return _max_pool(1, input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d_with_indices(
    input: Any,  # noqa: A002
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """`F.max_pool2d_with_indices`: max_pool2d's values and indices, whatever return_indices."""
    return _max_pool(2, input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool3d_with_indices(
    input: Any,  # noqa: A002
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """`F.max_pool3d_with_indices`: max_pool3d's values and indices, whatever return_indices."""
    return _max_pool(3, input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool3d(
    input: Any,  # noqa: A002
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    return _max_pool(3, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def _avg_pool_laid(
    d: int,
    input: Any,  # noqa: A002
    kernel_size: Any,
    stride: Any,
    padding: Any,
    ceil_mode: bool,
    count_include_pad: bool,
    divisor_override: Any,
) -> Tensor:
    fn = f"avg_pool{d}d"
    x = _pool_input(A.tensor_arg(input, "input"), d, fn)
    k, st, p, _ = _pool_args(x, d, kernel_size, stride, padding, 1, fn)
    out = _pool_out(x, k, st, p, (1,) * d, ceil_mode)
    div = None
    if divisor_override is not None:
        div = int_arg(divisor_override, "divisor_override")
        if div == 0:
            raise GradcliError("divisor must be not zero")
        div = float(div)
    params = {"count_include_pad": bool(count_include_pad), "divisor": div}
    if d == 1:
        y = apply(
            Cv.avg_pool,
            _as_2d(x),
            kernel=(1,) + k,
            stride=(1,) + st,
            pad=(0,) + p,
            out=(1,) + out,
            **params,
        )
        return _from_2d(y)
    label = "AvgPool3DBackward0" if d == 3 else None
    return apply(Cv.avg_pool, x, kernel=k, stride=st, pad=p, out=out, label=label, **params)


def avg_pool1d(
    input: Any,  # noqa: A002
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Tensor:
    return _avg_pool(1, input, kernel_size, stride, padding, ceil_mode, count_include_pad, None)


def avg_pool2d(
    input: Any,  # noqa: A002
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: Any = None,
) -> Tensor:
    return _avg_pool(
        2, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override
    )


def avg_pool3d(
    input: Any,  # noqa: A002
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: Any = None,
) -> Tensor:
    return _avg_pool(
        3, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override
    )


# --- embedding and flip ------------------------------------------------------------------------


def sparse_gradient_check(w: Tensor) -> None:
    """Refuse `embedding_bag(..., sparse=True)` where the weight's gradient is computed
    (PyTorch's is a sparse COO tensor; gradcli's sparse gradients are embedding's only)."""
    if w.requires_grad and grad_enabled():
        raise NotSupported(
            "sparse gradients (sparse=True) of embedding_bag are not supported by gradcli: "
            "PyTorch computes the weight's gradient as a sparse COO tensor (gradcli models "
            "embedding's)",
            hint="write sparse=False (the same values, as a dense gradient)",
        )


def _sparse_embedding(w: Tensor, ind: np.ndarray, pad_row: Any, by_frequency: bool) -> Tensor:
    """The rows looked up, the weight's gradient a sparse COO tensor (`sparse=True`): one
    entry per looked-up index in input order (repeats kept, the padding row's left out),
    each the gradient of its output row, as PyTorch's embedding_sparse_backward."""
    from ..core.sparse import SparseCOO
    from ..ops.custom import custom_apply

    if w.node is not None or w.dtype not in (np.float32, np.float64):
        what = "a computed weight" if w.node is not None else f"a {type_string(w.dtype)} weight"
        raise NotSupported(
            f"sparse gradients (sparse=True) of {what} are not supported by gradcli (of a "
            "float32 or float64 leaf, a parameter, they are)",
            hint="write sparse=False (the same values, as a dense gradient)",
        )
    flat = ind.reshape(-1)
    keep = slice(None) if pad_row is None else flat != pad_row

    def forward() -> Tensor:
        return Tensor(w.data[ind])

    def vjp(g: Tensor) -> tuple:
        if by_frequency:
            raise GradcliError(
                "embedding_backward: scale_grad_by_freq not supported with sparse gradients",
                hint="write scale_grad_by_freq=False or sparse=False",
            ).pytorch()
        if grad_enabled() or g.ndim != ind.ndim + 1:
            raise NotSupported(
                "a sparse embedding gradient (sparse=True) under create_graph=True or a "
                "batched pass (vmap, jacobian) is not supported by gradcli",
                hint="write sparse=False (the same values, as a dense gradient)",
            )
        rows = g.data.view()
        try:
            rows.shape = (-1, w.shape[1])  # (PyTorch's reshape: a view where one exists)
            contiguous = pad_row is not None or rows.flags.c_contiguous
        except AttributeError:
            contiguous = True  # (a copy)
        values = np.array(g.data.reshape(-1, w.shape[1])[keep], dtype=w.dtype)
        return (SparseCOO(flat[keep][None], values, w.shape, contiguous=contiguous),)

    return custom_apply("Embedding", [w], forward, vjp, label="EmbeddingBackward0", program=False)


def embedding(
    input: Any,  # noqa: A002
    weight: Any,
    padding_idx: Any = None,
    max_norm: Any = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    # (F.embedding calls torch.embedding(weight, indices): a list is not taken)
    idx = A.tensor_param(input, "embedding", "indices", 2)
    w = A.tensor_arg(weight, "weight")
    if idx.dtype not in (np.int64, np.int32):  # (uint8, int16 too: Long or Int only)
        shown = type_string(idx.dtype)
        raise GradcliError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got {shown} instead (while checking arguments for embedding)",
            hint="indices are integers: torch.tensor([0, 2])",
        )
    if w.ndim != 2:
        raise GradcliError("'weight' must be 2-D")
    n = w.shape[0]
    pad_row = None
    if padding_idx is not None:
        pi = int_arg(padding_idx, "padding_idx")
        if not -n <= pi < n:
            raise GradcliError("Padding_idx must be within num_embeddings").mirror("AssertionError")
        pad_row = pi % n
    ind = idx.data.astype(np.int64)
    if ind.size and (ind.min() < 0 or ind.max() >= n):
        raise GradcliError(
            "index out of range in self", hint=f"indices must be in [0, {n - 1}]"
        ).mirror("IndexError")
    A.size_check(ind.shape + (w.shape[1],), "the embedding result")
    if max_norm is not None:
        _renorm_rows(w, np.unique(ind), float(max_norm), float(norm_type))
    if sparse and w.requires_grad and grad_enabled():
        return _sparse_embedding(w, ind, pad_row, bool(scale_grad_by_freq))
    if scale_grad_by_freq and w.requires_grad and grad_enabled():
        out = _embedding_by_frequency(w, ind)
        if pad_row is not None and np.any(ind == pad_row):
            # The padding row's value, without its gradient (PyTorch zeroes that row's).
            keep = Tensor(np.broadcast_to((ind != pad_row)[..., None], out.shape))
            out = A.named(F.where(keep, out, out.detach()), "EmbeddingBackward0")
        return out
    if pad_row is not None and np.any(ind == pad_row):
        # The padding row's value, with no gradient flowing back to it (PyTorch's backward
        # skips it) while forward mode carries its tangent (PyTorch's is the plain lookup).
        pad = (ind == pad_row)[..., None]
        return apply(S.index, w, idx=(ind,), pad=pad, label="EmbeddingBackward0")
    return apply(S.index, w, idx=(ind,), label="EmbeddingBackward0")


def torch_embedding(
    weight: Any,
    indices: Any,
    padding_idx: Any = -1,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    """torch.embedding (PyTorch's C++ function, not F's): the weight first, then the indices;
    `padding_idx` -1 (or any index outside the table) is no padding row."""
    w = A.tensor_arg(weight, "weight")
    if not _int_like(padding_idx, bool_ok=False):
        raise ArgumentTypeError("embedding", "padding_idx", 3, "int", pytype_name(padding_idx))
    for i, (name, v) in enumerate((("scale_grad_by_freq", scale_grad_by_freq), ("sparse", sparse))):
        if not isinstance(v, bool):  # PyTorch's parser: a bool only (not 1, not numpy.bool)
            raise ArgumentTypeError("embedding", name, 4 + i, "bool", pytype_name(v))
    p = int_arg(padding_idx, "padding_idx")
    if not -(2**63) <= p < 2**63:
        raise GradcliError("Overflow when unpacking long long").mirror("ValueError")
    pad = p if w.ndim and 0 <= p < w.shape[0] else None
    return embedding(indices, w, pad, scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def _embedding_by_frequency(w: Tensor, ind: np.ndarray) -> Tensor:
    """`F.embedding(..., scale_grad_by_freq=True)`: the rows looked up, each row's gradient
    divided by how often its index occurs in the input (PyTorch's rule, not the derivative:
    a node of its own, EmbeddingBackward0)."""
    from ..ops.custom import custom_apply

    _, where, counts = np.unique(ind, return_inverse=True, return_counts=True)
    scale = 1.0 / counts[where.reshape(ind.shape)]

    def forward() -> Tensor:
        return Tensor(w.data[ind])

    def vjp(g: Tensor) -> tuple[Tensor]:
        if g.dtype == np.float32 and not (grad_enabled() and g.requires_grad):
            return (Tensor(_frequency_rows(g.data, ind, scale, w.shape)),)
        # (create_graph, float64: of differentiable operations)
        scaled = A.mul_t(g, Tensor(scale.astype(g.dtype)[..., None]))
        return (
            apply(
                S.index_put,
                scaled,
                idx=(ind,),
                shape=w.shape,
                out_ndim=scaled.ndim,
                label="EmbeddingDenseBackwardBackward0",
            ),
        )

    return custom_apply("Embedding", [w], forward, vjp, label="EmbeddingBackward0", program=False)


def _frequency_rows(g: np.ndarray, ind: np.ndarray, scale: np.ndarray, shape: tuple) -> np.ndarray:
    """PyTorch's float32 CPU kernel: row k += g[i] * float32(1 / count), one fused
    multiply-add per element (the product of two float32s is exact in float64, so one
    rounding), the occurrences of each index in input order."""
    rows = g.reshape(-1, shape[1]).astype(np.float64)
    flat = ind.reshape(-1)
    alpha = scale.reshape(-1).astype(np.float32).astype(np.float64)
    acc = np.zeros(shape, np.float32)
    order = np.argsort(flat, kind="stable")
    starts = np.searchsorted(flat[order], flat[order], side="left")
    rank = np.empty(flat.size, np.int64)
    rank[order] = np.arange(flat.size) - starts  # how many earlier occurrences of its index
    for r in range(int(rank.max()) + 1 if flat.size else 0):
        pick = np.flatnonzero(rank == r)
        k = flat[pick]
        acc[k] = (acc[k] + rows[pick] * alpha[pick, None]).astype(np.float32)
    return acc


def _renorm_rows(w: Tensor, rows: np.ndarray, max_norm: float, p: float) -> None:
    """PyTorch's embedding_renorm_: the looked-up rows longer than max_norm scaled to it, in
    place, outside the graph."""
    from ..core.tensor import no_grad
    from .functional import norm
    from .sampling import _fill

    # each distinct row's norm in its own dtype (ATen: row.norm(p).item()), as a double
    with no_grad():
        norms = norm(Tensor(w.data[rows]), p, dim=1).data.astype(np.float64)
    big = norms > max_norm
    if not np.any(big):
        return
    values = w.data.copy()
    scale = (max_norm / (norms[big] + 1e-7)).astype(w.dtype)
    values[rows[big]] = values[rows[big]] * scale[:, None]
    with no_grad():
        _fill(w, values)


# --- unfold / fold (im2col / col2im) -----------------------------------------------------------


def _sliding(x_spatial: tuple, k, dl, p, st) -> tuple[int, ...]:
    return tuple(
        (s + 2 * pi - di * (ki - 1) - 1) // si + 1
        for s, ki, di, pi, si in zip(x_spatial, k, dl, p, st)
    )


def _block_args(kernel_size: Any, dilation: Any, padding: Any, stride: Any, fn: str) -> tuple:
    k = _tuple(kernel_size, 2, "kernel_size", fn)
    dl = _tuple(dilation, 2, "dilation", fn)
    p = _tuple(padding, 2, "padding", fn)
    st = _tuple(stride, 2, "stride", fn)
    if any(v <= 0 for v in k + dl + st) or any(v < 0 for v in p):
        raise GradcliError(
            f"{fn}: kernel_size, dilation and stride should be greater than zero and padding "
            f"non-negative, but got kernel_size={list(k)}, dilation={list(dl)}, "
            f"padding={list(p)}, stride={list(st)}"
        )
    return k, dl, p, st


def unfold(
    input: Any,  # noqa: A002
    kernel_size: Any,
    dilation: Any = 1,
    padding: Any = 0,
    stride: Any = 1,
) -> Tensor:
    """`F.unfold`: the sliding blocks of a (N, C, H, W) input as columns (N, C*kh*kw, L)."""
    x = A.tensor_arg(input, "input")
    if x.ndim < 3:  # PyTorch 2.13's im2col reads the size of dimension 2 first
        lo, hi = -max(x.ndim, 1), max(x.ndim, 1) - 1
        raise GradcliError(
            f"Dimension out of range (expected to be in range of [{lo}, {hi}], but got {x.ndim})"
        ).mirror("IndexError")
    if x.ndim > 4:
        raise GradcliError(
            "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other "
            f"non-zero dimensions for input, but got: {list(x.shape)}"
        )
    k, dl, p, st = _block_args(kernel_size, dilation, padding, stride, "im2col")
    out = _sliding(x.shape[-2:], k, dl, p, st)
    if any(o < 1 for o in out):
        raise GradcliError(
            f"Given input with spatial size ({x.shape[-2]}, {x.shape[-1]}), kernel_size="
            f"({k[0]}, {k[1]}), dilation=({dl[0]}, {dl[1]}), padding=({p[0]}, {p[1]}), "
            "calculated shape of the array of sliding blocks as "
            f"({out[0]}, {out[1]}), but its components must be at least one."
        )
    lead = x.shape[:-2]
    A.size_check(lead + k + out, "the unfolded tensor")
    cols = apply(Cv.unfold, x, kernel=k, stride=st, dilation=dl, pad=p, out=out)
    c = lead[-1]
    shape = lead[:-1] + (c * k[0] * k[1], out[0] * out[1])
    return A.named(apply(P.reshape, cols, shape=shape), "Im2ColBackward0")


def fold(
    input: Any,  # noqa: A002
    output_size: Any,
    kernel_size: Any,
    dilation: Any = 1,
    padding: Any = 0,
    stride: Any = 1,
) -> Tensor:
    """`F.fold`: columns (N, C*kh*kw, L) summed back into a (N, C, H, W) tensor."""
    x = A.tensor_arg(input, "input")
    if x.ndim not in (2, 3):
        raise GradcliError(
            "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and "
            f"non-zero dimensions for input, but got: {list(x.shape)}"
        )
    size = _tuple(output_size, 2, "output_size", "col2im")
    k, dl, p, st = _block_args(kernel_size, dilation, padding, stride, "col2im")
    out = _sliding(size, k, dl, p, st)
    kp = k[0] * k[1]
    if x.shape[-2] % kp:
        raise GradcliError(
            "Expected size of input's dimension 1 to be divisible by the product of "
            f"kernel_size, but got input.size(1)={x.shape[-2]} and kernel_size=({k[0]}, {k[1]})"
        )
    if x.shape[-1] != out[0] * out[1] or any(o < 1 for o in out):
        raise GradcliError(
            f"Given output_size=({size[0]}, {size[1]}), kernel_size=({k[0]}, {k[1]}), "
            f"dilation=({dl[0]}, {dl[1]}), padding=({p[0]}, {p[1]}), stride=({st[0]}, {st[1]}), "
            "expected size of input's dimension 2 to match the calculated number of sliding "
            f"blocks {out[0]} * {out[1]} = {out[0] * out[1]}, but got input.size(2)="
            f"{x.shape[-1]}."
        )
    c = x.shape[-2] // kp
    lead = x.shape[:-2]
    A.size_check(lead + (c,) + size, "the folded tensor")
    cols = apply(P.reshape, x, shape=lead + (c,) + k + out)
    return apply(Cv.fold, cols, size=size, kernel=k, stride=st, dilation=dl, pad=p, out=out)


# PyTorch's CPU kernels of these ops lay their output out in the input's suggested memory
# format (a convolution also in its weight's): a channels-last (NHWC) input gives a
# channels-last output, which `.stride()` and `.is_contiguous(memory_format=...)` show.
def _nhwc(y: Any, *inputs: Any) -> Any:
    """`y` (or each tensor of a tuple) laid out channels-last when it is 4-d and one of the
    4-d `inputs` suggests that format (`core.layout.suggested_format`)."""
    from ..core.layout import in_format, suggested_format, torch_strides

    if not any(
        isinstance(t, Tensor)
        and t.ndim == 4
        and t.data.size
        and suggested_format(t.shape, torch_strides(t.data)) == "channels_last"
        for t in inputs
    ):
        return y
    for t in y if isinstance(y, tuple) else (y,):
        if isinstance(t, Tensor) and t.ndim == 4 and t.data.size:
            t.data = in_format(t.data, "channels_last")
    return y


def _batch_norm(input: Any, *args: Any, **kwargs: Any) -> Tensor:  # noqa: A002
    return _nhwc(_batch_norm_laid(input, *args, **kwargs), input)


def _conv(d: int, input: Any, weight: Any, *args: Any) -> Tensor:  # noqa: A002
    if (
        isinstance(input, Tensor)
        and isinstance(weight, Tensor)
        and input.dtype.kind == "c"
        and weight.dtype == input.dtype
        and (not args or args[0] is None or getattr(args[0], "dtype", None) == input.dtype)
    ):
        return _complex_conv(d, input, weight, *args)
    if (
        isinstance(input, Tensor)
        and isinstance(weight, Tensor)
        and input.dtype.kind == "c"
        and weight.dtype != input.dtype
        and (not args or not isinstance(args[0], Tensor) or args[0].dtype == input.dtype)
    ):
        # (ATen's check of a complex convolution's operands, in its words)
        shown = (
            f"CPU{scalar_type_name(weight.dtype)}Type"
            if weight.dtype.kind == "c"
            else dtypes.LEGACY_TYPES.get(weight.dtype, str(weight.dtype))
        )
        raise GradcliError(
            f"Input type (CPU{scalar_type_name(input.dtype)}Type) and weight type ({shown}) "
            "should be the same",
            hint="give the input and the weight one dtype: w.to(x.dtype)",
        ).mirror("RuntimeError")
    y = _conv_laid(d, input, weight, *args)
    return _nhwc(y, input, weight) if d == 2 else y


def _complex_conv(d: int, x: Tensor, w: Tensor, bias: Any = None, *rest: Any) -> Tensor:
    """PyTorch's convolution of complex tensors (ATen's complex_convolution): three real
    ones by Gauss's trick, a = conv(xr, wr, br), b = conv(xi, wi), c = conv(xr + xi, wr + wi,
    br + bi), and the result a - b + i (c - a - b), recorded as those operations (gradients
    flow through them)."""
    xr, xi = F.real(x), F.imag(x)
    wr, wi = F.real(w), F.imag(w)
    br = bi = None
    if bias is not None:
        br, bi = F.real(bias), F.imag(bias)
    a = _conv(d, xr, wr, br, *rest)
    b = _conv(d, xi, wi, None, *rest)
    c = _conv(d, xr + xi, wr + wi, None if bias is None else br + bi, *rest)
    imag = 1j * (c - a - b)
    if imag.node is not None:
        imag.node.label = "MulBackward1"  # (ATen's C++ `i * t`: mul.Scalar)
    return (a - b) + imag


def _conv_transpose(d: int, input: Any, weight: Any, *args: Any, **kwargs: Any) -> Tensor:  # noqa: A002
    y = _conv_transpose_laid(d, input, weight, *args, **kwargs)
    return _nhwc(y, input, weight) if d == 2 else y


def _max_pool(d: int, input: Any, *args: Any) -> Any:  # noqa: A002
    y = _max_pool_laid(d, input, *args)
    return _nhwc(y, input) if d == 2 else y


def _avg_pool(d: int, input: Any, *args: Any, **kwargs: Any) -> Tensor:  # noqa: A002
    y = _avg_pool_laid(d, input, *args, **kwargs)
    return _nhwc(y, input) if d == 2 else y


def adaptive_avg_pool2d(input: Any, output_size: Any) -> Tensor:  # noqa: A002
    """`F.adaptive_avg_pool2d` (`adaptive_avg_pool2d_laid`), laid out as the input."""
    return _nhwc(adaptive_avg_pool2d_laid(input, output_size), input)


def interpolate(
    input: Any,  # noqa: A002
    size: Any = None,
    scale_factor: Any = None,
    mode: Any = "nearest",
    align_corners: Any = None,
    recompute_scale_factor: Any = None,
    antialias: Any = False,
) -> Tensor:
    """`F.interpolate` (`interpolate_laid`), laid out as the input."""
    y = interpolate_laid(
        input, size, scale_factor, mode, align_corners, recompute_scale_factor, antialias
    )
    return _nhwc(y, input)


def pad(input: Any, pad: Any, mode: str = "constant", value: Any = None) -> Tensor:  # noqa: A002
    """`F.pad` (`pad_laid`); a constant pad laid out as the input (ATen's constant_pad_nd)."""
    y = pad_laid(input, pad, mode, value)
    return _nhwc(y, input) if mode == "constant" else y
