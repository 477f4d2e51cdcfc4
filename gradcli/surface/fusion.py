"""`torch.nn.utils.fusion`: a convolution or a linear layer with the BatchNorm after it folded
into one layer for inference. The fused weight is the weight times bn.weight / sqrt(running_var
+ eps) along the output channels, the fused bias (bias - running_mean) times that scale plus
bn.bias, computed in the tensors' dtypes with the same operations in the same order as
PyTorch (so float32 rounds alike), each returned as a new leaf Parameter. The `_eval` forms
work on a deep copy of the layer (the copy is the language's: `copy` is passed in)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base.errors import GradcliError
from ..core.tensor import Tensor, no_grad, typename
from . import functional as F
from . import names as N
from .nn import Module, Parameter

_T = N.FUNCTIONS


def _tensor_or_none(v: Any, what: str, fn: str) -> Tensor | None:
    if v is None or isinstance(v, Tensor):
        return v
    raise GradcliError(f"{fn}(): {what} must be a Tensor or None, not {typename(v)}").mirror(
        "TypeError"
    )


def _tensor(v: Any, what: str, fn: str) -> Tensor:
    if isinstance(v, Tensor):
        return v
    if v is None:
        # PyTorch's own failure: arithmetic with None
        raise GradcliError(
            "unsupported operand type(s) for *: 'NoneType' and 'Tensor'",
            hint=f"{fn}(): {what} is None (a BatchNorm with affine=False): pass ones/zeros",
        ).mirror("TypeError")
    raise GradcliError(f"{fn}(): {what} must be a Tensor, not {typename(v)}").mirror("TypeError")


def _eps(v: Any, fn: str) -> Any:
    if isinstance(v, Tensor) or (isinstance(v, (int, float)) and not isinstance(v, bool)):
        return v
    raise GradcliError(f"{fn}(): bn_eps must be a number, not {typename(v)}").mirror("TypeError")


def fuse_conv_bn_weights(
    conv_w: Any,
    conv_b: Any,
    bn_rm: Any,
    bn_rv: Any,
    bn_eps: Any,
    bn_w: Any,
    bn_b: Any,
    transpose: Any = False,
) -> tuple[Parameter, Parameter]:
    fn = "fuse_conv_bn_weights"
    conv_w = _tensor(conv_w, "conv_w", fn)
    conv_b = _tensor_or_none(conv_b, "conv_b", fn)
    bn_rm = _tensor(bn_rm, "bn_rm", fn)
    bn_rv = _tensor(bn_rv, "bn_rv", fn)
    bn_w = _tensor_or_none(bn_w, "bn_w", fn)
    bn_b = _tensor_or_none(bn_b, "bn_b", fn)
    eps = _eps(bn_eps, fn)
    w_dtype = conv_w.dtype
    b_dtype = conv_b.dtype if conv_b is not None else w_dtype
    with no_grad():  # (the results are new leaves: Parameter(...) detaches in PyTorch too)
        if conv_b is None:
            conv_b = _T["zeros_like"](bn_rm)
        if bn_w is None:
            bn_w = _T["ones_like"](bn_rm)
        if bn_b is None:
            bn_b = _T["zeros_like"](bn_rm)
        rsqrt = _T["rsqrt"](bn_rv + eps)
        rest = [1] * (conv_w.ndim - 2)
        shape = [1, -1, *rest] if transpose else [-1, 1, *rest]
        w = F.to_dtype(conv_w * _T["reshape"](bn_w * rsqrt, shape), w_dtype)
        b = F.to_dtype((conv_b - bn_rm) * rsqrt * bn_w + bn_b, b_dtype)
    return Parameter(w, conv_w.requires_grad), Parameter(b, conv_b.requires_grad)


def fuse_linear_bn_weights(
    linear_w: Any,
    linear_b: Any,
    bn_rm: Any,
    bn_rv: Any,
    bn_eps: Any,
    bn_w: Any,
    bn_b: Any,
) -> tuple[Parameter, Parameter]:
    fn = "fuse_linear_bn_weights"
    linear_w = _tensor(linear_w, "linear_w", fn)
    linear_b = _tensor_or_none(linear_b, "linear_b", fn)
    bn_rm = _tensor(bn_rm, "bn_rm", fn)
    bn_rv = _tensor(bn_rv, "bn_rv", fn)
    eps = _eps(bn_eps, fn)
    bn_w = _tensor(bn_w, "bn_w", fn)
    bn_b = _tensor(bn_b, "bn_b", fn)
    w_dtype = linear_w.dtype
    b_dtype = linear_b.dtype if linear_b is not None else w_dtype
    with no_grad():
        if linear_b is None:
            linear_b = _T["zeros_like"](bn_rm)
        scale = bn_w * _T["rsqrt"](bn_rv + eps)
        w = linear_w * F.to_dtype(_T["unsqueeze"](scale, -1), w_dtype)
        b = F.to_dtype((linear_b - bn_rm) * scale + bn_b, b_dtype)
    return Parameter(w, linear_w.requires_grad), Parameter(b, linear_b.requires_grad)


def _get(m: Any, name: str) -> Any:
    if isinstance(m, Module):
        return m.program_attribute(name)
    raise GradcliError(f"'{typename(m)}' object has no attribute '{name}'").mirror("AttributeError")


def _bn_stats(bn: Any) -> tuple[Any, Any]:
    rm, rv = _get(bn, "running_mean"), _get(bn, "running_var")
    if rm is None or rv is None:
        raise GradcliError("bn.running_mean and bn.running_var must not be None").mirror(
            "AssertionError"
        )
    return rm, rv


def _eval_check(layer: Any, bn: Any) -> None:
    if _get(layer, "training") or _get(bn, "training"):
        raise GradcliError(
            "Fusion only for eval!", hint="call .eval() on both modules before fusing them"
        ).mirror("AssertionError")


def fuse_conv_bn_eval(
    copy: Callable[[Any], Any], conv: Any, bn: Any, transpose: Any = False
) -> Any:
    """`fuse_conv_bn_eval(conv, bn)`: a deep copy of `conv` with the fused weight and bias."""
    _eval_check(conv, bn)
    fused = copy(conv)
    rm, rv = _bn_stats(bn)
    w, b = fuse_conv_bn_weights(
        _get(fused, "weight"),
        _get(fused, "bias"),
        rm,
        rv,
        _get(bn, "eps"),
        _get(bn, "weight"),
        _get(bn, "bias"),
        transpose,
    )
    fused.program_set("weight", w)
    fused.program_set("bias", b)
    return fused


def fuse_linear_bn_eval(copy: Callable[[Any], Any], linear: Any, bn: Any) -> Any:
    """`fuse_linear_bn_eval(linear, bn)`: a deep copy of `linear` with the fused weight and
    bias (bn's features equal to linear's outputs, or one)."""
    _eval_check(linear, bn)
    fused = copy(linear)
    out, nf = _get(linear, "out_features"), _get(bn, "num_features")
    if out != nf and nf != 1:
        raise GradcliError(
            "To fuse, linear.out_features == bn.num_features or bn.num_features == 1, "
            f"got linear.out_features={out} and bn.num_features={nf}"
        ).mirror("AssertionError")
    rm, rv = _bn_stats(bn)
    w, b = fuse_linear_bn_weights(
        _get(fused, "weight"),
        _get(fused, "bias"),
        rm,
        rv,
        _get(bn, "eps"),
        _get(bn, "weight"),
        _get(bn, "bias"),
    )
    fused.program_set("weight", w)
    fused.program_set("bias", b)
    return fused


def functions(copy: Callable[[Any], Any]) -> dict[str, Callable[..., Any]]:
    """The four functions, the `_eval` ones copying with `copy` (Python's copy.deepcopy as
    the language runs it)."""

    def conv_eval(conv: Any, bn: Any, transpose: Any = False) -> Any:
        return fuse_conv_bn_eval(copy, conv, bn, transpose)

    def linear_eval(linear: Any, bn: Any) -> Any:
        return fuse_linear_bn_eval(copy, linear, bn)

    return {
        "fuse_conv_bn_eval": conv_eval,
        "fuse_conv_bn_weights": fuse_conv_bn_weights,
        "fuse_linear_bn_eval": linear_eval,
        "fuse_linear_bn_weights": fuse_linear_bn_weights,
    }
