"""The PyTorch-shaped functions over the records (`torch.sum`, `F.relu`, `x.reshape(...)`):
PyTorch's argument conventions (`dim=` / `keepdim=`, `*sizes` or a tuple), checked with
PyTorch's error wording, turned into `apply(op, ...)` calls with PyTorch's grad_fn names.
The operators and the elementwise math are `ops.arithmetic`'s; indexing is in `indexing`,
losses in `losses`, compositions of these in `composite`.
"""

from __future__ import annotations

import builtins
import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core import dtypes, hooks
from ..core import op as core_op
from ..core.dtypes import LEGACY_TYPES, check_dtype, scalar_type_name
from ..core.inplace import inplace
from ..core.inplace import inplace as inplace_change
from ..core.layout import in_format, iterated, like, restrided, row_major, torch_strides
from ..core.op import apply, laid_out, operand_arrays, peek_seq
from ..core.sparse import SparseCOO, SparseCSR
from ..core.tensor import (
    NOGRAD_VIEWS,
    Settings,
    Tensor,
    _GradMode,
    bumped,
    carry_batched,
    check_batched_write,
    conj_view,
    grad_enabled,
    pytype_name,
    typename,
)
from ..core.tensor import is_conj as is_conj_view
from ..core.tensor import is_neg as is_neg_view
from ..ops import arithmetic as A
from ..ops import binary as B
from ..ops import elementwise as E
from ..ops import reduction as R
from ..ops import shape as S
from ..ops.arithmetic import (
    add_t,
    binop,
    broadcast_shape,
    cast,
    compared,
    matmul,
    mul_t,
    named,
    product,
    scalar_operand,
    size_check,
    sub_t,
    tensor_arg,
)
from .args import (
    check_dim,
    dims_arg,
    float_kernel,
    infer_shape,
    int_list_keyword,
    invalid_combination,
    memory_format_arg,
    parsed_number,
    parser_typename,
    reduction_dims,
    shape_arg,
    tensor_list,
)
from .printing import MaxMin


def add(x: Any, y: Any, alpha: Any = 1) -> Tensor:
    y, alpha = old_signature(y, alpha)
    if alpha == 1:
        return add_t(x, y)
    _check_alpha(x, y, alpha)
    y = alpha_operand(x, y)
    return laid_out(_scaled(add_t(x, _times_alpha(y, alpha))), x, y)


def sub(x: Any, y: Any, alpha: Any = 1) -> Tensor:
    y, alpha = old_signature(y, alpha)
    if alpha == 1:
        return sub_t(x, y)
    A.check_bool_sub(x, y)
    _check_alpha(x, y, alpha)
    y = alpha_operand(x, y)
    return laid_out(_scaled(sub_t(x, _times_alpha(y, alpha))), x, y)


def _alpha_dtype(x: Any, y: Any) -> np.dtype:
    return dtypes.result_type(
        [
            (v.dtype, v.ndim)
            if isinstance(v, Tensor)
            else (dtypes.scalar_dtype(v, Settings.default_dtype), None)
            for v in (x, y)
        ],
        Settings.default_dtype,
    )


def _check_alpha(x: Any, y: Any, alpha: Any) -> None:
    """add / sub's kernel converts alpha to the result's type: PyTorch's error when it does
    not fit (alpha=1e39 for float32)."""
    if isinstance(x, Tensor) or isinstance(y, Tensor):
        dtypes.checked_scalar(alpha, _alpha_dtype(x, y))


def alpha_operand(x: Any, y: Any) -> Any:
    """The scaled operand `y` of `x + alpha * y` as ATen's add kernel takes it: in the result's
    dtype before the product (a float32 `y` added to a float64 `x` with alpha=1e300 is
    3e300, not the inf of a float32 product; a float16 one scaled by 70000 likewise), and a
    Python number made a 0-d tensor of a float result's dtype (its product with alpha then
    rounds as the float32 kernel's: 0.3 * 0.1 is float32(0.3f * 0.1f)). The conversion is
    recorded (its gradient comes back in y's own dtype, as PyTorch's engine casts it)."""
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        return y
    dt = np.dtype(_alpha_dtype(x, y))
    if isinstance(y, Tensor):  # (a bool one keeps its own checks: sub's refusal)
        return y if y.dtype == np.bool_ else A.cast(y, dt)
    if isinstance(y, (int, float)) and not isinstance(y, bool) and dt.kind == "f":
        if dt == dtypes.BF16:
            return Tensor(dtypes.round_bf16(np.array(float(y))))
        with np.errstate(over="ignore"):
            return Tensor(np.array(float(y)).astype(dt))
    return y


def _times_alpha(y: Any, alpha: Any) -> Any:
    """other * alpha of add / sub: for a float tensor and a real alpha PyTorch's rule,
    maybe_multiply(grad, alpha) (a MulBackward1 node under create_graph, `E.scale`)."""
    if not isinstance(y, Tensor):
        return y * alpha
    if (
        y.dtype in (np.float32, np.float64)
        and isinstance(alpha, (int, float))
        and not isinstance(alpha, bool)
    ):
        return E.scale(y, alpha)
    return mul_t(y, alpha)


def old_signature(y: Any, alpha: Any) -> tuple[Any, Any]:
    """`x.add_(-lr, grad)`: PyTorch's deprecated `add(Number alpha, Tensor other)` (still
    accepted, with a warning) is `x.add_(grad, alpha=-lr)`."""
    if isinstance(alpha, Tensor) and not isinstance(y, Tensor) and isinstance(y, (int, float)):
        return alpha, y
    return y, alpha


def _scaled(out: Tensor) -> Tensor:
    """A sum with alpha= (recorded as a product, then the sum): its node is given its name as
    a label, which tells `core.saved` that its `_saved_alpha` is not 1."""
    n = out.node
    if n is not None and n.label is None:
        n.label = n.op.torch_name
    return out


maximum = binop(B.maximum)


minimum = binop(B.minimum)


def relu(input: Any, inplace: bool = False) -> Tensor:
    x = A.tensor_param(input, "relu", "input", 1)
    if x.dtype == np.bool_:
        raise GradcliError("Boolean inputs not supported for relu").mirror("RuntimeError").pytorch()
    if inplace:  # x changed to it, as x.relu_() (PyTorch's F.relu(inplace=True) calls relu_)
        return inplace_change(x, lambda t: apply(E.relu, t), op="aten::relu_")
    return apply(E.relu, x)


def leaky_relu(input: Any, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    input = float_kernel(A.tensor_param(input, "leaky_relu", "input", 1), "leaky_relu_cpu", "f")
    if inplace:  # input changed to it, recorded as PyTorch's leaky_relu_
        slope = float(parsed_number(negative_slope))
        return inplace_change(
            input,
            lambda t: apply(
                E.leaky_relu, t, negative_slope=slope, is_result=True, label="LeakyReluBackward1"
            ),
            op="aten::leaky_relu_",
        )
    return apply(E.leaky_relu, input, negative_slope=float(parsed_number(negative_slope)))


def softplus(input: Any, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return apply(
        E.softplus,
        float_kernel(A.tensor_param(input, "softplus", "input", 1), "softplus_cpu", "f"),
        beta=float(parsed_number(beta)),
        threshold=float(parsed_number(threshold)),
    )


def gelu(input: Any, approximate: str = "none") -> Tensor:
    if approximate not in ("none", "tanh"):
        raise GradcliError(f"approximate argument must be either none or tanh, not {approximate!r}")
    x = float_kernel(A.tensor_param(input, "gelu", "input", 1), "GeluKernelImpl", "f")
    return apply(E.gelu, x, approximate=approximate)


def clamp(input: Any, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    return _clamp(input, min, max, "clamp")


def clamp_min(input: Any, min: Any) -> Tensor:  # noqa: A002
    return _clamp(input, min, None, "clamp_min")


def clamp_max(input: Any, max: Any) -> Tensor:  # noqa: A002
    return _clamp(input, None, max, "clamp_max")


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating))


def _clamp(x: Any, lo: Any, hi: Any, fn: str) -> Tensor:
    """`clamp(x, min, max)`: both bounds numbers (the `clamp` record), or both tensors (None
    for either), which broadcast with x, as PyTorch's two overloads; anything else is refused
    in PyTorch's words before any work."""
    x = tensor_arg(x, "input")
    given = [b for b in (lo, hi) if b is not None]
    tensors = [b for b in given if isinstance(b, Tensor)]
    if tensors and len(tensors) != len(given):
        # a tensor bound with a number: PyTorch's parser takes a 0-d tensor that needs no
        # gradient as a number (the numbers' overload, ClampBackward1)
        lo, hi = (
            b.data.item() if isinstance(b, Tensor) and b.ndim == 0 and not b.requires_grad else b
            for b in (lo, hi)
        )
        given = [b for b in (lo, hi) if b is not None]
        tensors = [b for b in given if isinstance(b, Tensor)]
    if len(tensors) != len(given) and (tensors or not builtins.all(map(_is_number, given))):
        _clamp_refused(lo, hi, fn)
    if not given:
        raise GradcliError("torch.clamp: At least one of 'min' or 'max' must not be None")
    base = fn.rstrip("_")
    if not tensors:
        # A float bound makes an integer or bool tensor's result float, as PyTorch's
        # result_type (an int bound keeps the integer dtype)
        dt = dtypes.result_type(
            [(x.dtype, x.ndim)]
            + [(dtypes.scalar_dtype(b, Settings.default_dtype), None) for b in given],
            Settings.default_dtype,
        )
        for b in given:
            dtypes.checked_scalar(b, dt)  # (the kernel converts each bound to the result's type)
        if dt.kind in "iu":  # (converted: a negative bound wraps into an unsigned type)
            lo, hi = (None if b is None else int(np.asarray(b).astype(dt)) for b in (lo, hi))
        if dt != x.dtype:
            x = to_dtype(x, dt)
        out = apply(
            E.clamp,
            x,
            min=None if lo is None else float(lo),
            max=None if hi is None else float(hi),
        )
        label = {"clamp": "ClampBackward1", "clamp_min": "ClampMinBackward0"}
        return named(out, label.get(base, "ClampMaxBackward0"))
    # Tensor bounds: sizes after broadcasting checked (the element limit) before any work.
    shape = x.shape
    for b in tensors:
        shape = broadcast_shape(Tensor(np.broadcast_to(np.zeros((), bool), shape)), b)
    dt = dtypes.result_type([(t.dtype, t.ndim) for t in (x, *tensors)], Settings.default_dtype)
    # PyTorch's ClampBackward0 shows (input, min, max) in `next_functions`, a missing bound as
    # None; ClampMinBackward1 / ClampMaxBackward1 (input, bound): the operands themselves (its
    # kernel promotes inside)
    none = Tensor(np.zeros((), dt))
    shown = (x, lo, hi) if base == "clamp" else (x, lo if hi is None else hi)
    shown = tuple(none if t is None else t for t in shown)
    x, lo, hi = (t if t is None or t.dtype == dt else to_dtype(t, dt) for t in (x, lo, hi))
    xv = x.data
    keep = np.ones((), dtype=bool)  # where x passes (its gradient)
    low = high = np.zeros((), dtype=bool)  # where min, max are the value (theirs)
    value = xv
    if lo is not None:
        keep = keep & (xv >= lo.data)
        low = xv < lo.data
        value = np.maximum(value, lo.data)
    if hi is not None:
        keep = keep & (xv <= hi.data)
        high = xv > hi.data
        value = np.minimum(value, hi.data)
        if lo is not None:
            low = low & (lo.data < hi.data)
            high = high | (hi.data < lo.data)
    # As PyTorch's rule: the gradient goes to x where min <= x <= max, to min where x < min
    # (and min < max), to max where x > max (or max < min); elsewhere (x below min == max, or
    # NaN) the value is a constant.
    out = Tensor(np.broadcast_to(value, shape).copy())
    if hi is not None:
        out = where(Tensor(np.broadcast_to(high, shape)), hi, out)
    if lo is not None:
        out = where(Tensor(np.broadcast_to(low, shape)), lo, out)
    out = where(Tensor(np.broadcast_to(keep, shape)), x, out)
    laid_out(out, x, *(b for b in (lo, hi) if b is not None))  # (ATen's one kernel's layout)
    label = {"clamp": "ClampBackward0", "clamp_min": "ClampMinBackward1"}
    if out.node is not None:
        core_op.SHOWN_INPUTS[out.node] = shown
    return named(out, label.get(base, "ClampMaxBackward1"))


def _clamp_inplace(x: Any, lo: Any, hi: Any, fn: str) -> Tensor:
    x = tensor_arg(x)
    if x.dtype.kind in "biu" and builtins.any(isinstance(b, float) for b in (lo, hi)):
        # (clamp's kernel names the output's C++ type, as no other in-place change does)
        raise GradcliError(
            "result type Float can't be cast to the desired output type "
            f"{dtypes.cpp_type_name(x.dtype)}",
            hint="convert the tensor first (x = x.float()), or write y = x.clamp(...)",
        ).mirror("RuntimeError")
    given = (lo, hi) if fn == "clamp" else (lo,) if fn == "clamp_min" else (hi,)
    return inplace(
        x, lambda o: _clamp(o, lo, hi, fn + "_"), op=lambda: aten_inplace_name(fn, given)
    )


def _clamp_refused(lo: Any, hi: Any, fn: str) -> None:
    """PyTorch's TypeError for bounds of neither overload (a list, a string, a number with a
    tensor)."""
    if fn.startswith("clamp_min"):
        got, sigs = typename(lo), ("(Tensor min)", "(Number min)")
    elif fn.startswith("clamp_max"):
        got, sigs = typename(hi), ("(Tensor max)", "(Number max)")
    else:
        kw = [f"{k}={typename(v)}" for k, v in (("max", hi), ("min", lo)) if v is not None]
        got = ", ".join(kw) + ", "
        sigs = ("(Tensor min = None, Tensor max = None)", "(Number min = None, Number max = None)")
    # PyTorch's first line; its list of the overloads as what was expected.
    raise GradcliError(
        f"{fn}() received an invalid combination of arguments - got ({got}), but expected one of:",
        expected=f"{sigs[0]} or {sigs[1]}: numbers, or tensors that broadcast with the input",
        hint="a list is neither: make it a tensor, e.g. min=torch.tensor([...])"
        if isinstance(lo, (list, tuple)) or isinstance(hi, (list, tuple))
        else "give both bounds as tensors (torch.tensor(1.0)), or both as numbers"
        if isinstance(lo, Tensor) or isinstance(hi, Tensor)
        else None,
    ).mirror("TypeError")


_NO_VALUE = object()


_UINT8_WHERE = (
    "where received a uint8 condition tensor. This behavior is deprecated and will be removed "
    "in a future version of PyTorch. Use a boolean condition instead."
)


def where(condition: Any, input: Any = _NO_VALUE, other: Any = _NO_VALUE) -> Any:
    """`torch.where(cond, x, y)`; `torch.where(cond)` is `torch.nonzero(cond, as_tuple=True)`."""
    c = condition if isinstance(condition, Tensor) else Tensor(np.asarray(condition, dtype=bool))
    if input is _NO_VALUE and other is _NO_VALUE:
        found = np.nonzero(c.data if c.ndim else c.data.reshape(1))
        return tuple(Tensor(w.astype(np.int64)) for w in found)
    if input is _NO_VALUE or other is _NO_VALUE:
        raise GradcliError(
            "where() missing a required argument: 'other'",
            expected="torch.where(condition, input, other) or torch.where(condition)",
        ).mirror("TypeError")
    if c.dtype == np.uint8:  # (ATen: deprecated, warned, read as bool)
        hooks.warn(_UINT8_WHERE, "make the condition bool: cond.bool()", once=True)
        c = Tensor(c.data.astype(bool))
    elif c.dtype != np.bool_:
        raise GradcliError(
            "where expected condition to be a boolean tensor, but got a tensor with dtype "
            + scalar_type_name(c.dtype),
            hint="compare to make a condition: torch.where(c > 0, x, y), or c.bool()",
        )
    like = input if isinstance(input, Tensor) else other if isinstance(other, Tensor) else None
    if like is None:
        # Two numbers: their own dtype (ints give int64, bools bool, a float the default).
        kinds = {dtypes.scalar_dtype(v, Settings.default_dtype) for v in (input, other)}
        dt = (
            dtypes.to_complex(Settings.default_dtype)
            if any(k.kind == "c" for k in kinds)
            else Settings.default_dtype
            if any(k.kind == "f" for k in kinds)
            else builtins.max(kinds, key=lambda k: k.kind != "b")
        )
        like = Tensor(np.zeros((), dtype=dt))
    tx = input if isinstance(input, Tensor) else scalar_operand(input, like)
    ty = other if isinstance(other, Tensor) else scalar_operand(other, like)
    if tx.dtype != ty.dtype or tx.dtype != like.dtype:
        if isinstance(input, Tensor) or isinstance(other, Tensor):
            tx, ty = A.operands(input, other)  # PyTorch's promotion (a number is a wrapped number)
            # A real tensor selected into a complex result: PyTorch's rule hands it the complex
            # gradient (its engine refuses it at backward).
            tx, ty = (
                reduction_cast(v, t.dtype)
                if isinstance(v, Tensor) and v.dtype.kind == "f" and t.dtype.kind == "c"
                else t
                for v, t in ((input, tx), (other, ty))
            )
        else:
            tx, ty = cast(tx, like.dtype), cast(ty, like.dtype)
    for v in (input, other):
        if not isinstance(v, Tensor):  # (ATen makes a number a one-element tensor of the type)
            dtypes.checked_scalar(v, tx.dtype, 1)
    shape = broadcast_shape(tx, ty)
    broadcast_shape(c, Tensor(np.broadcast_to(np.zeros((), bool), shape)))
    return apply(B.where, c, tx, ty)


def _copy_(x: Tensor, src: Tensor) -> Tensor:
    if _GradMode.vmapped:
        check_batched_write(x, src)  # (the copy made by `_overwritten` is not an operation)
    return inplace(
        x, lambda o: _overwritten(o, src, "torch::autograd::CopyBackwards"), op="aten::copy_"
    )


# The orderings, as PyTorch's kernels name them (complex numbers have none).
_ORDERINGS = {np.less: "lt", np.less_equal: "le", np.greater: "gt", np.greater_equal: "ge"}


def _compare(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Tensor]:
    def f(input: Any, other: Any) -> Tensor:
        a, b = compared(input, other)
        if a.dtype.kind == "c" and fn in _ORDERINGS:
            raise GradcliError(
                f"\"{_ORDERINGS[fn]}_cpu\" not implemented for '{scalar_type_name(a.dtype)}'",
                hint="compare the real parts (z.real) or the magnitudes (z.abs())",
            ).mirror("NotImplementedError")
        out = Tensor(iterated(fn(a, b), operand_arrays(input, other)))
        if _GradMode.vmapped:
            carry_batched((input, other), out)
        return out

    return f


lt = _compare(np.less)


le = _compare(np.less_equal)


gt = _compare(np.greater)


ge = _compare(np.greater_equal)


eq = _compare(np.equal)


ne = _compare(np.not_equal)


def _reduce_label(base: str, dim: Any) -> str:
    return f"{base}Backward{0 if dim is None else 1}"


def reduced_dtype(input: Tensor, dtype: Any, fn: str) -> Tensor:
    """`input` in a reduction's or a scan's `dtype=` (PyTorch converts first, then reduces in
    that dtype); an integer or bool dtype for a tensor that requires grad is autograd's error;
    without one, integer and bool inputs are reduced in int64, as PyTorch's."""
    if dtype is None:
        if input.dtype.kind in "biu" and input.dtype != np.int64:
            return Tensor(input.data.astype(np.int64))
        return input
    target = np.dtype(check_dtype(dtype, fn=fn))
    if target.kind not in "fc" and input.requires_grad and grad_enabled():
        raise GradcliError(f"Autograd not support dtype: {scalar_type_name(target)}")
    return reduction_cast(input, target)


def reduction_cast(input: Tensor, target: np.dtype) -> Tensor:
    """`input` converted to a reduction's `dtype=`. A real float input made complex: its
    gradient is complex, which PyTorch's engine refuses to hand the real input at backward."""
    if target.kind == "c" and input.dtype.kind == "f":
        return apply(S.astype, input, dtype=target, strict=True)
    return to_dtype(input, target)


def kept_dtype(out: Tensor, input: Tensor) -> Tensor:
    """`out` in `input`'s integer dtype where NumPy's reduction widened it (a sum of int16
    with dtype=torch.int16 is int16 in PyTorch, wrapping as it does)."""
    if out.dtype != input.dtype and input.dtype.kind in "biu":
        with np.errstate(all="ignore"):
            return Tensor(out.data.astype(input.dtype))
    return out


def sum(input: Any, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
    input = reduced_dtype(tensor_arg(input, "input"), dtype, "sum")
    d = reduction_dims(dim, input.ndim)
    out = apply(R.sum, input, dim=d, keepdim=bool(keepdim), label=_reduce_label("Sum", dim))
    return kept_dtype(out, input)


def mean(
    input: Any,
    dim: Any = None,
    keepdim: bool = False,
    dtype: Any = None,
    *,
    welford: bool = False,
) -> Tensor:
    input = tensor_arg(input, "input")
    if dtype is not None:
        target = np.dtype(check_dtype(dtype, fn="mean"))
        input = reduction_cast(input, target)
    if input.dtype.kind not in "fc":
        raise GradcliError(
            f"mean(): could not infer output dtype. {'Optional' if dtype is not None else 'Input'}"
            " dtype must be either a "
            f"floating point or complex dtype. Got: {scalar_type_name(input.dtype)}",
            hint="convert first: x.float().mean()",
        )
    d = reduction_dims(dim, input.ndim)
    extra = {"welford": True} if welford else {}  # var_mean / std_mean's mean
    return apply(
        R.mean, input, dim=d, keepdim=bool(keepdim), label=_reduce_label("Mean", dim), **extra
    )


def prod(input: Any, dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
    # without a dtype, integer and bool inputs are multiplied in int64, as PyTorch's (NumPy's
    # own product of uint8 would be uint64)
    input = reduced_dtype(tensor_arg(input, "input"), dtype, "prod")
    d = None if dim is None else check_dim(dim, input.ndim)
    out = apply(R.prod, input, dim=d, keepdim=bool(keepdim), label=_reduce_label("Prod", dim))
    return kept_dtype(out, input) if dtype is not None else out


def _extreme(fn: str) -> Callable[..., Any]:
    op = R.amax if fn == "max" else R.amin
    pair = maximum if fn == "max" else minimum

    def f(input: Any, dim: Any = None, keepdim: bool = False, other: Any = None) -> Any:
        input = tensor_arg(input, "input")
        if isinstance(dim, Tensor):
            return pair(input, dim)
        if other is not None:
            return pair(input, other)
        if dim is None:
            if input.data.size == 0:
                raise GradcliError(
                    f"{fn}(): Expected reduction dim to be specified for input.numel() == 0. "
                    "Specify the reduction dim with the 'dim' argument."
                )
            return apply(op, input, fn=fn, label=f"{fn.capitalize()}Backward1")
        d = check_dim(dim, input.ndim)
        if input.ndim and input.shape[d] == 0:
            raise GradcliError(f"{fn}(): Expected reduction dim {d} to have non-zero size.").mirror(
                "IndexError"
            )
        idx = getattr(np, "arg" + fn)(input.data, axis=d if input.ndim else None)
        kept = np.expand_dims(idx, d) if input.ndim else None  # what the rule reads (PyTorch's)
        values = apply(
            op,
            input,
            dim=d,
            keepdim=bool(keepdim),
            fn=fn,
            idx=kept,
            label=f"{fn.capitalize()}Backward0",
        )
        if keepdim and input.ndim:
            idx = kept
        return MaxMin(values, Tensor(np.asarray(idx, dtype=np.int64)), fn)

    f.__name__ = fn
    return f


max = _extreme("max")


min = _extreme("min")


def _nonempty_dims(input: Tensor, dims: tuple, fn: str) -> None:
    """ATen's check of a reduction without an identity (amax, amin, aminmax): each reduced
    dim must have elements."""
    for d in dims:
        if input.shape[d % input.ndim] == 0:
            raise GradcliError(
                f"{fn}: Expected reduction dim {d % input.ndim} to have non-zero size."
            ).mirror("IndexError")


def _amax_like(fn: str) -> Callable[..., Tensor]:
    def f(input: Any, dim: Any = (), keepdim: bool = False) -> Tensor:
        input = A.tensor_param(input, f"a{fn}", "input", 1)
        if dim is None or (isinstance(dim, (tuple, list)) and not dim) or input.ndim == 0:
            # max()'s value; the gradient AmaxBackward0's (g / ties at the ties, g * 0 at the
            # others, NaN everywhere when the result is NaN)
            if input.data.size == 0:
                raise GradcliError(
                    f"a{fn}(): Expected reduction dim to be specified for input.numel() == 0. "
                    "Specify the reduction dim with the 'dim' argument."
                )
            op = R.amax if fn == "max" else R.amin
            return apply(op, input, fn="a" + fn, label=f"A{fn}Backward0")
        dims = dims_arg(dim, input.ndim)
        dims = dims if isinstance(dims, tuple) else (dims,)
        _nonempty_dims(input, dims, f"a{fn}()")
        # As torch.amax: the extreme itself; the gradient split evenly between tied extremes
        op = R.amax if fn == "max" else R.amin
        return apply(
            op, input, dim=dims, keepdim=bool(keepdim), fn="a" + fn, label=f"A{fn}Backward0"
        )

    f.__name__ = "a" + fn
    return f


amax = _amax_like("max")


amin = _amax_like("min")


def _arg_extreme(fn: str) -> Callable[..., Tensor]:
    pick = np.argmax if fn == "max" else np.argmin

    def f(input: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
        input = A.tensor_param(input, f"arg{fn}", "input", 1)
        if input.dtype == np.bool_:
            raise GradcliError(f"arg{fn}(): does not support bool input").mirror("RuntimeError")
        if dim is None:
            if input.data.size == 0:
                raise GradcliError(
                    f"arg{fn}(): Expected reduction dim to be specified for input.numel() == 0."
                ).mirror("IndexError")
            found = np.asarray(pick(input.data), dtype=np.int64)
            return Tensor(found.reshape((1,) * input.ndim) if keepdim else found)
        d = check_dim(dim, input.ndim)
        if input.ndim and input.shape[d] == 0:
            raise GradcliError(
                f"arg{fn}(): Expected reduction dim {d} to have non-zero size."
            ).mirror("IndexError")
        return (max if fn == "max" else min)(input.detach(), d, keepdim).indices  # no record

    f.__name__ = f"arg{fn}"
    return f


argmax = _arg_extreme("max")
argmin = _arg_extreme("min")


def norm(
    input: Any, p: Any = "fro", dim: Any = None, keepdim: bool = False, dtype: Any = None
) -> Tensor:
    input = tensor_arg(input, "input")
    if dtype is not None:
        input = to_dtype(input, check_dtype(dtype, fn="norm"))
    if input.dtype.kind == "c":
        input = A.abs(input)  # (a vector norm of complex numbers is their moduli's)
    if input.dtype.kind != "f":
        raise GradcliError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
            + scalar_type_name(input.dtype),
            hint="convert first: x.float().norm()",
        )
    if p in ("fro", None):
        pv = 2.0
    elif isinstance(p, str):
        raise GradcliError(f"norm(): p={p!r} is not supported", expected="'fro', a number or inf")
    else:
        pv = float(parsed_number(p))
        if pv == 0 or pv == -math.inf:  # (0: the number of nonzeros, no gradient; -inf)
            return nonpositive_norm(input, pv, reduction_dims(dim, input.ndim), bool(keepdim))
    return apply(
        R.norm,
        input,
        p=pv,
        dim=reduction_dims(dim, input.ndim),
        keepdim=bool(keepdim),
        label="LinalgVectorNormBackward0",
    )


def _at_most_two(dim: Any) -> bool:
    """A dim of torch.norm PyTorch takes for a Frobenius norm as a vector norm: an int, or
    up to two of them."""
    return isinstance(dim, (int, np.integer)) or len(dim) <= 2


def nonpositive_norm(input: Tensor, p: float, d: Any, kd: bool) -> Tensor:
    """linalg.vector_norm (and norm) of order 0 or -inf, over dims d (negative orders are
    ops.reduction's norm, as ATen's NormOps)."""
    label = "LinalgVectorNormBackward0"
    if p == 0:
        nz = Tensor((input.data != 0).astype(input.dtype))
        if not (input.requires_grad and grad_enabled()):
            return sum(nz, d, kd)
        # PyTorch's rule gives no gradient for ord 0 (an undefined one, not zeros: a leaf
        # reached only through it keeps grad None)
        from ..ops.custom import custom_apply

        return custom_apply(
            "LinalgVectorNorm",
            [input],
            lambda: sum(nz, d, kd),
            lambda g: (None,),
            label=label,
            program=False,
        )
    absx = A.abs(input)
    return A.named(amin(absx, () if d is None else d, kd), label)


def logsumexp(input: Any, dim: Any, keepdim: bool = False) -> Tensor:
    input = A.floating(tensor_arg(input, "input"))  # (an integer tensor's is the default float)
    return apply(R.logsumexp, input, dim=dims_arg(dim, input.ndim), keepdim=bool(keepdim))


def _softmax_dim(x: Tensor, dim: Any) -> int:
    if dim is None:
        # PyTorch's legacy implicit choice (with a warning there).
        dim = 0 if x.ndim in (0, 1, 3) else 1
    return check_dim(dim, x.ndim)


def _softmax_input(x: Any, dtype: Any, fn: str, dim: Any = -1) -> Tensor:
    """The input of softmax and its kin, in a float dtype: an integer tensor is ATen's error,
    named after the kernel it dispatches to (the last dim's own, or the general one)."""
    x = tensor_arg(x, "input")
    if dtype is not None:
        x = to_dtype(x, check_dtype(dtype, fn=fn))
    if x.dtype.kind != "f":
        kernel = "_lastdim"
        if x.ndim > 1 and (dim is None or isinstance(dim, int)) and -x.ndim <= (dim or 0) < x.ndim:
            kernel = "_lastdim" if _softmax_dim(x, dim) == x.ndim - 1 else ""
        raise GradcliError(
            f"\"{fn}{kernel}_kernel_impl\" not implemented for '{scalar_type_name(x.dtype)}'",
            hint=f"convert first: x.float().{fn}(dim)",
        ).mirror("NotImplementedError")
    return x


def _implicit_dim(x: Tensor, dim: Any, fn: str) -> int:
    """nn.functional's softmax without `dim`: PyTorch's legacy choice, with its warning."""
    if dim is None:
        hooks.warn(
            f"Implicit dimension choice for {fn} has been deprecated. Change the call to "
            "include dim=X as an argument."
        )
    return _softmax_dim(x, dim)


def softmax(input: Any, dim: Any, dtype: Any = None) -> Tensor:
    """`torch.softmax` / `x.softmax`: `dim` is required (an int: None is F.softmax's)."""
    A.int_param(dim, "softmax", "dim", 2)
    input = _softmax_input(input, dtype, "softmax", dim)
    return apply(R.softmax, input, dim=check_dim(dim, input.ndim))


def log_softmax(input: Any, dim: Any, dtype: Any = None) -> Tensor:
    input = _softmax_input(input, dtype, "log_softmax", dim)
    return apply(R.log_softmax, input, dim=check_dim(dim, input.ndim))


def _method_owner(input: Any, dim: Any, method: str) -> None:
    """F.softmax and F.log_softmax call the input's own method (`input.softmax(dim)`; without
    a dim, `input.dim()` first): anything but a tensor is Python's AttributeError, as in
    PyTorch (`nn.Softmax(0)(None)`)."""
    if not isinstance(input, Tensor):
        name = "dim" if dim is None else method
        raise GradcliError(
            f"'{pytype_name(input)}' object has no attribute '{name}'",
            hint="pass a tensor: torch.tensor(...)",
        ).mirror("AttributeError")


def f_softmax(input: Any, dim: Any = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:
    """`F.softmax`: without `dim`, PyTorch's implicit choice and its warning."""
    _method_owner(input, dim, "softmax")
    input = _softmax_input(input, dtype, "softmax", dim)
    return apply(R.softmax, input, dim=_implicit_dim(input, dim, "softmax"))


def f_log_softmax(input: Any, dim: Any = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:
    _method_owner(input, dim, "log_softmax")
    input = _softmax_input(input, dtype, "log_softmax", dim)
    return apply(R.log_softmax, input, dim=_implicit_dim(input, dim, "log_softmax"))


def _floating_only(x: Tensor) -> Tensor:
    if x.dtype.kind != "f":
        raise GradcliError(
            "std and var only support floating point and complex dtypes",
            found=f"a tensor of dtype {dtypes.torch_name(x.dtype)}",
            hint="convert first: x.float()",
        )
    return x


def _correction(unbiased: Any, correction: Any) -> float:
    if correction is not None:
        return float(parsed_number(correction))
    return 1.0 if unbiased in (None, True) else 0.0


def var(
    input: Any,
    dim: Any = None,
    unbiased: Any = None,
    keepdim: bool = False,
    correction: Any = None,
    *,
    welford: bool = False,
) -> Tensor:
    input = _floating_only(tensor_arg(input, "input"))
    if isinstance(dim, bool):  # torch.var(x, False): the old positional `unbiased`
        unbiased, dim = dim, None
    extra = {"welford": True} if welford else {}  # var_mean / std_mean's road
    return apply(
        R.var,
        input,
        dim=reduction_dims(dim, input.ndim),
        correction=_correction(unbiased, correction),
        keepdim=bool(keepdim),
        **extra,
    )


def std(
    input: Any,
    dim: Any = None,
    unbiased: Any = None,
    keepdim: bool = False,
    correction: Any = None,
    *,
    welford: bool = False,
) -> Tensor:
    input = _floating_only(tensor_arg(input, "input"))
    if isinstance(dim, bool):
        unbiased, dim = dim, None
    extra = {"welford": True} if welford else {}  # var_mean / std_mean's road
    return apply(
        R.std,
        input,
        dim=reduction_dims(dim, input.ndim),
        correction=_correction(unbiased, correction),
        keepdim=bool(keepdim),
        **extra,
    )


def _viewable(a: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether `a` can take `shape` without a copy (PyTorch's and NumPy's rule are one)."""
    try:
        np.reshape(a, shape, copy=False)
    except ValueError:
        return False
    return True


def _reshape_label(a: np.ndarray, shape: tuple[int, ...]) -> str:
    """PyTorch's node for a reshape: a view of a contiguous tensor, an alias with new strides,
    or a copy (`_unsafe_view` of a contiguous clone)."""
    if a.flags.c_contiguous:
        return "ViewBackward0"
    return "ReshapeAliasBackward0" if _viewable(a, shape) else "UnsafeViewBackward0"


def reshape(input: Any, *shape: Any) -> Tensor:
    input = tensor_arg(input, "input")
    target = infer_shape(shape_arg(shape, "shape", infer=True, fn="reshape"), input.numel())
    return _reshaped(input, target)


def _reshaped(input: Tensor, target: tuple[int, ...]) -> Tensor:
    label = _reshape_label(input.data, target)
    out = apply(S.reshape, input, shape=target, label=label)
    if label == "UnsafeViewBackward0" and out.node is not None:
        core_op.CLONE_FIRST.add(out.node)
    return out


def _is_dtype(v: Any) -> bool:
    return isinstance(v, np.dtype) or (isinstance(v, type) and issubclass(v, np.generic))


def view_dtype(x: Tensor, dtype: Any) -> Tensor:
    """`x.view(torch.int32)`: the same bytes read as another dtype (no copy: a write through
    either shows in the other), the last dimension scaled by the ratio of the element sizes;
    not differentiable (as PyTorch's: the result does not require grad). PyTorch's errors
    where the bytes do not divide."""
    from ..core.dtypes import check_dtype, scalar_type_name

    dt = check_dtype(dtype, fn="view")
    a = x.data
    old, new = a.dtype.itemsize, dt.itemsize
    if old != new:
        what = (
            f"to view {scalar_type_name(a.dtype)} as {scalar_type_name(dt)} "
            "(different element sizes)"
        )
        if a.ndim == 0:
            raise GradcliError(f"self.dim() cannot be 0 {what}")
        stride = a.strides[-1] // old if a.shape[-1] > 1 else 1
        if stride != 1:
            raise GradcliError(f"self.stride(-1) must be 1 {what}, but got {stride}")
        if new > old and a.shape[-1] % (new // old):
            raise GradcliError(
                f"self.size(-1) must be divisible by {new // old} {what}, but got {a.shape[-1]}"
            )
    if not a.flags.c_contiguous and a.shape[-1] <= 1 and old != new:
        a = a.reshape(a.shape)  # a last dimension of one element has any stride: its own
    return Tensor(a.view(dt))


def view(x: Any, *shape: Any, dtype: Any = None) -> Tensor:
    """`x.view(shape)`: refused, in PyTorch's words, where it would need a copy;
    `x.view(dtype)`: the bytes reinterpreted (`view_dtype`)."""
    x = tensor_arg(x, "input")
    if dtype is not None and not shape:
        return view_dtype(x, dtype)
    if len(shape) == 1 and _is_dtype(shape[0]):
        return view_dtype(x, shape[0])
    if len(shape) == 1 and not isinstance(shape[0], (tuple, list, int, np.integer, Tensor)):
        # neither of view's two overloads takes it: PyTorch's parser lists both
        raise invalid_combination("view", shape[0], ("torch.dtype dtype", "tuple of ints size"))
    target = infer_shape(shape_arg(shape, infer=True, fn="view"), x.numel())
    if not x.data.flags.c_contiguous and not _viewable(x.data, target):
        raise GradcliError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
            hint="x.reshape(...) copies where a view is impossible (or x.contiguous().view(...))",
        )
    return apply(S.reshape, x, shape=target, label="ViewBackward0")


def flatten(input: Any, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    input = A.tensor_param(input, "flatten", "input", 1)
    if input.ndim == 0:
        return apply(S.reshape, input, shape=(1,), label="ViewBackward0")
    s, e = check_dim(start_dim, input.ndim), check_dim(end_dim, input.ndim)
    if s > e:
        raise GradcliError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        # nothing to merge: PyTorch returns the tensor itself (`v.flatten()[::2] = 0` of a
        # vector writes into v, not into a view of it)
        return input
    mid = int(np.prod(input.shape[s : e + 1]))
    target = input.shape[:s] + (mid,) + input.shape[e + 1 :]
    return _reshaped(input, target)


def squeeze(input: Any, dim: Any = None) -> Tensor:
    input = tensor_arg(input, "input")
    if dim is None:
        shape = tuple(s for s in input.shape if s != 1)
        return apply(S.reshape, input, shape=shape, label="SqueezeBackward0")
    dims = dims_arg(dim, input.ndim)
    dims = dims if isinstance(dims, tuple) else (dims,)
    shape = tuple(s for i, s in enumerate(input.shape) if not (i in dims and s == 1))
    label = "SqueezeBackward2" if isinstance(dim, (tuple, list)) else "SqueezeBackward1"
    return apply(S.reshape, input, shape=shape, label=label)


def unsqueeze(input: Any, dim: Any) -> Tensor:
    input = tensor_arg(input, "input")
    d = check_dim(A.int_param(dim, "unsqueeze", "dim", 2), input.ndim + 1)
    out = apply(
        S.reshape, input, shape=input.shape[:d] + (1,) + input.shape[d:], label="UnsqueezeBackward0"
    )
    # PyTorch's strides: the new dimension's is the extent of the one it goes before (1 at
    # the end); NumPy's reshape may give another to it or to other dimensions of size 1
    if input.data.size:
        steps = torch_strides(input.data)
        new = steps[d] * input.shape[d] if d < input.ndim else 1
        out.data = restrided(out.data, (*steps[:d], new, *steps[d:]))
    return out


def permute(input: Any, *dims: Any, **kwargs: Any) -> Tensor:
    input = tensor_arg(input, "input")
    # torch.permute(x, dims=(1, 0)), x.permute(dims=...): the one keyword
    dims = int_list_keyword("permute", "dims", dims, kwargs)
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    perm = tuple(check_dim(d, input.ndim) for d in dims)
    if len(perm) != input.ndim or sorted(perm) != list(range(input.ndim)):
        raise GradcliError(
            f"permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {input.ndim} is not "
            f"equal to len(dims) = {len(perm)}"
            if len(perm) != input.ndim
            else "permute(): duplicate dims are not allowed."
        )
    return apply(S.permute, input, perm=perm)


def transpose(input: Any, dim0: Any, dim1: Any) -> Tensor:
    input = tensor_arg(input, "input")
    A.int_param(dim0, "transpose", "dim0", 2)
    A.int_param(dim1, "transpose", "dim1", 3)
    a, b = check_dim(dim0, input.ndim), check_dim(dim1, input.ndim)
    if input.ndim == 0:  # (dims 0 and -1 name its one place: a view of it, as PyTorch's)
        return apply(S.permute, input, perm=(), label="TransposeBackward0")
    perm = list(range(input.ndim))
    perm[a], perm[b] = perm[b], perm[a]
    return apply(S.permute, input, perm=tuple(perm), label="TransposeBackward0")


def swapaxes(input: Any, axis0: Any, axis1: Any) -> Tensor:
    """`torch.swapaxes` / `x.swapaxes`: transpose under NumPy's names (`axis0=`)."""
    return transpose(input, axis0, axis1)


def t(input: Any) -> Tensor:
    input = tensor_arg(input, "input")
    if input.ndim > 2:
        raise GradcliError(f"t() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    perm = (1, 0) if input.ndim == 2 else tuple(range(input.ndim))  # (< 2-D: a view of it)
    return apply(S.permute, input, perm=perm, label="TBackward0")


_T_NOT_2D = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated "
    "and it will throw an error in a future release. Consider `x.mT` to transpose batches of "
    "matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a "
    "tensor."
)
_T_0D = "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases."


def T(x: Tensor) -> Tensor:  # noqa: N802
    # PyTorch warns once a process (TORCH_WARN_ONCE) for a tensor that is not a matrix
    if x.ndim == 0:
        hooks.warn(_T_0D, "a 0-d tensor is its own transpose: use x itself", once=True)
    elif x.ndim != 2:
        hooks.warn(_T_NOT_2D, "x.mT transposes the last two dimensions", once=True)
    if x.ndim < 2:
        # Still a new (view) node in PyTorch, even when it changes nothing.
        return apply(S.permute, x, perm=tuple(range(x.ndim)), label="PermuteBackward0")
    return apply(S.permute, x, perm=tuple(range(x.ndim - 1, -1, -1)), label="PermuteBackward0")


def mT(x: Tensor) -> Tensor:  # noqa: N802
    if x.ndim < 2:
        raise GradcliError(
            "tensor.mT is only supported on matrices or batches of matrices. "
            f"Got {x.ndim}-D tensor."
        )
    # permute acts on trailing axes, so this also transposes a gradient with batch axes.
    return apply(S.permute, x, perm=(1, 0), label="TransposeBackward0")


def _cx() -> Any:
    """`ops.complexnum`, imported by the first complex function a program calls (not at
    start-up)."""
    from ..ops import complexnum

    return complexnum


def real(input: Any) -> Tensor:
    """`x.real` / `torch.real(x)`: of a real tensor the tensor itself (`x.real is x`, as
    PyTorch); of a complex one a view of its real parts (PyTorch's node: SelectBackward0, the
    first column of view_as_real)."""
    x = tensor_arg(input, "input")
    if x.dtype.kind != "c":
        return x
    if x.requires_grad and grad_enabled() and is_conj_view(x):
        return _part_of_conj(x, 0)
    return apply(_cx().real, x, label="SelectBackward0")


def imag(input: Any) -> Tensor:  # noqa: A002
    """`x.imag` / `torch.imag(x)`: a view of the imaginary parts of a complex tensor."""
    x = tensor_arg(input, "input")
    if x.dtype.kind != "c":
        raise GradcliError("imag is not implemented for tensors with non-complex dtypes.").mirror(
            "RuntimeError"
        )
    if x.requires_grad and grad_enabled() and is_conj_view(x):
        return _part_of_conj(x, 1)
    return apply(_cx().imag, x, label="SelectBackward0")


def _part_of_conj(x: Tensor, k: int) -> Tensor:
    """The real (k 0) or imaginary (k 1) parts of a conjugate view that requires grad, as
    ATen takes them: a column of view_as_real of x._conj() (the storage unconjugated), the
    imaginary one through a negative view. The gradient goes back through ConjBackward0,
    ViewAsRealBackward0 (NegViewBackward0) and SelectBackward0, so a zero keeps PyTorch's
    sign (`x.conj().imag.sum().backward()`: -0 - 1j)."""
    cx = _cx()
    pairs = apply(cx.view_as_real, apply(cx.conj, x))
    if k:
        pairs = apply(E.neg, pairs, label="NegViewBackward0")
    return apply(S.index, pairs, idx=(Ellipsis, k), label="SelectBackward0")


def conj(input: Any) -> Tensor:
    """`x.conj()` / `torch.conj(x)`: the complex conjugate (a real tensor itself), a view of
    x as PyTorch's (`is_conj()`; changes in place reach x conjugated: `core.tensor.conj_view`)."""
    x = tensor_arg(input, "input")
    if x.dtype.kind != "c":
        return x
    return conj_view(apply(_cx().conj, x), x)


def conj_physical(input: Any) -> Tensor:
    """`torch.conj_physical(x)`: the conjugate in a new tensor (not a view)."""
    x = tensor_arg(input, "input")
    if x.dtype.kind != "c":
        return x
    return apply(_cx().conj, x, label="ConjPhysicalBackward0")


def resolve_conj(input: Any) -> Tensor:
    """`x.resolve_conj()`: of a conjugate view a copy of its values (no longer a view), of
    anything else the tensor itself."""
    x = tensor_arg(input, "input")
    return clone(x) if is_conj_view(x) else x


def resolve_neg(input: Any) -> Tensor:
    """`x.resolve_neg()`: of a negative view (`x.conj().imag`) a copy, else the tensor."""
    x = tensor_arg(input, "input")
    return clone(x) if is_neg_view(x) else x


def angle(input: Any) -> Tensor:
    """`torch.angle`: the argument of each complex number, in (-pi, pi] (of a real number 0,
    or pi for a negative one)."""
    x = tensor_arg(input, "input")
    if x.dtype.kind not in "fc":
        x = A.floating(x)
    return apply(_cx().angle, x)


def complex(real: Any, imag: Any) -> Tensor:  # noqa: A001 - torch.complex
    """`torch.complex(real, imag)`: two float tensors of one dtype as a complex tensor."""
    re = tensor_arg(real, "real")
    im = tensor_arg(imag, "imag")
    if re.dtype.kind != "f" or im.dtype.kind != "f" or re.dtype == np.float16:
        raise GradcliError(
            "Expected both inputs to be Half, Float or Double tensors but got "
            f"{scalar_type_name(re.dtype)} and {scalar_type_name(im.dtype)}"
        )
    if re.dtype != im.dtype:
        raise GradcliError(
            f"Expected object of scalar type {scalar_type_name(re.dtype)} but got scalar type "
            f"{scalar_type_name(im.dtype)} for second argument"
        )
    A.broadcast_shape(re, im)
    return apply(_cx().complex_, re, im)


def polar(abs: Any, angle: Any) -> Tensor:  # noqa: A002 - torch.polar's names
    """`torch.polar(abs, angle)`: abs * (cos(angle) + i sin(angle)), as a complex tensor
    (computed as torch.complex of the two products; PyTorch's node: PolarBackward0)."""
    r = tensor_arg(abs, "abs")
    t = tensor_arg(angle, "angle")
    complex(r, t)  # (PyTorch's checks of the dtypes)
    return apply(_cx().complex_, r * t.cos(), r * t.sin(), label="PolarBackward0")


def view_as_real(input: Any) -> Tensor:
    x = tensor_arg(input, "input")
    if x.dtype.kind != "c":
        raise GradcliError("view_as_real is only supported for complex tensors")
    if is_conj_view(x):
        raise GradcliError(
            "view_as_real doesn't work on unresolved conjugated tensors.  To resolve the "
            "conjugate tensor so you can view it as real, use self.resolve_conj(); however, be "
            "warned that the resulting tensor will NOT alias the original.",
            hint="x.resolve_conj() first (a copy)",
        ).mirror("RuntimeError")
    return apply(_cx().view_as_real, x)


def view_as_complex(input: Any) -> Tensor:
    x = tensor_arg(input, "input")
    if x.dtype.kind != "f" or x.dtype == np.float16:
        raise GradcliError(
            "view_as_complex is only supported for float and double tensors, but got a "
            f"tensor of scalar type: {scalar_type_name(x.dtype)}"
        )
    if x.ndim == 0 or x.shape[-1] != 2:
        raise GradcliError("Tensor must have a last dimension of size 2")
    return apply(_cx().view_as_complex, x)


def H(x: Tensor) -> Tensor:  # noqa: N802
    """`x.H`: the conjugate transpose of a matrix (of a real one, its transpose)."""
    if x.ndim != 2:
        raise GradcliError(
            f"tensor.H is only supported on matrices (2-D tensors). Got {x.ndim}-D tensor."
        )
    return conj(apply(S.permute, x, perm=(1, 0), label="TransposeBackward0"))


def mH(x: Tensor) -> Tensor:  # noqa: N802
    """`x.mH`: the conjugate transpose of the last two dims (of real tensors, `x.mT`)."""
    if x.ndim < 2:
        raise GradcliError(
            "tensor.mH is only supported on matrices or batches of matrices. "
            f"Got {x.ndim}-D tensor."
        )
    return conj(mT(x))


def expand(x: Any, *sizes: Any) -> Tensor:
    x = tensor_arg(x, "input")
    shape = shape_arg(sizes, infer=True, fn="expand", negative=True)
    full_shape = expand_check(x.shape, shape, x.dtype)
    size_check(full_shape, "the expanded tensor")
    return apply(S.expand, x, shape=full_shape)


def expand_check(xshape: tuple[int, ...], shape: tuple[int, ...], dtype: Any) -> tuple[int, ...]:
    """The shape `expand` makes of a tensor of shape xshape (-1 keeps a size), or PyTorch's
    error."""
    xshape, shape = tuple(xshape), tuple(shape)
    if len(shape) < len(xshape):
        raise GradcliError(
            f"expand({LEGACY_TYPES.get(np.dtype(dtype), 'torch.FloatTensor')}{{{list(xshape)}}}, "
            f"size={list(shape)}): the number of sizes provided ({len(shape)}) must be greater "
            f"or equal to the number of dimensions in the tensor ({len(xshape)})"
        )
    lead = len(shape) - len(xshape)
    full = list(shape)
    # ATen's inferExpandGeometry walks the sizes from the last: the error names the last
    # mismatching dimension, not the first
    for i in range(len(shape) - 1, -1, -1):
        dim = i - lead
        size = xshape[dim] if dim >= 0 else 1
        target = shape[i]
        if target == -1:
            if dim < 0:
                raise GradcliError(
                    f"The expanded size of the tensor (-1) isn't allowed in a leading, "
                    f"non-existing dimension {i}"
                )
            target = size
        if size != target and size != 1:
            raise GradcliError(
                f"The expanded size of the tensor ({target}) must match the "
                f"existing size ({size}) at non-singleton dimension {i}.  "
                f"Target sizes: {list(shape)}.  Tensor sizes: {list(xshape)}"
            )
        full[i] = target
    full_shape = tuple(full)
    if any(n < 0 for n in full_shape) and 0 not in full_shape:
        raise GradcliError("numel: integer multiplication overflow")
    if any(n < 0 for n in full_shape):
        raise GradcliError(
            f"Trying to create tensor with negative dimension {min(full_shape)}: {list(shape)}"
        )
    return full_shape


def expand_as(x: Any, other: Tensor) -> Tensor:
    return expand(x, tensor_arg(other).shape)


def broadcast_to(input: Any, size: Any) -> Tensor:
    return expand(input, size)


def view_as(x: Any, other: Tensor) -> Tensor:
    return view(x, tensor_arg(other).shape)


def reshape_as(x: Any, other: Tensor) -> Tensor:
    return reshape(x, tensor_arg(other).shape)


def cat(tensors: Any, dim: int = 0) -> Tensor:
    ts = tensor_list(tensors, "cat")
    # One pass over the shapes, in C where it can be: a list may hold a million tensors.
    shapes = [tt.data.shape for tt in ts]
    if () in shapes:
        raise GradcliError(
            f"zero-dimensional tensor (at position {shapes.index(())}) cannot be concatenated"
        )
    # As PyTorch: a 1-D empty tensor is skipped whatever the others' shapes (legacy behaviour).
    kept = [i for i, sh in enumerate(shapes) if sh != (0,)] if (0,) in shapes else None
    if kept is not None:
        if not kept:
            kept = [0]
        ts, shapes = [ts[i] for i in kept], [shapes[i] for i in kept]
    nd = len(shapes[0])
    d = check_dim(dim, nd)
    rest = shapes[0][:d] + shapes[0][d + 1 :]
    if shapes.count(shapes[0]) != len(shapes):
        for j, sh in enumerate(shapes):
            i = kept[j] if kept is not None else j
            if len(sh) != nd:
                raise GradcliError(
                    f"Tensors must have same number of dimensions: got {nd} and {len(sh)}"
                )
            if sh[:d] + sh[d + 1 :] != rest:
                k = next(k for k in range(nd) if k != d and sh[k] != shapes[0][k])
                raise GradcliError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size "
                    f"{shapes[0][k]} but got size {sh[k]} for tensor number {i} in the list."
                )
    along = builtins.sum(sh[d] for sh in shapes)
    size_check((along, *rest), "the concatenated tensor")
    return apply(S.cat, *_promoted(ts), dim=d)


def _promoted(ts: list[Tensor]) -> list[Tensor]:
    """Tensors joined by cat / stack in their common dtype (PyTorch's promotion)."""
    first = ts[0].dtype
    if all(t.dtype == first for t in ts):
        return ts
    dt = first
    for t in ts:
        dt = dtypes.promote_types(dt, t.dtype)
    return [cast(t, dt) for t in ts]


def stack(tensors: Any, dim: int = 0) -> Tensor:
    ts = tensor_list(tensors, "stack")
    d = check_dim(dim, ts[0].ndim + 1)
    shapes = [tt.data.shape for tt in ts]
    if shapes.count(shapes[0]) != len(shapes):
        i = next(i for i, sh in enumerate(shapes) if sh != shapes[0])
        raise GradcliError(
            f"stack expects each tensor to be equal size, but got "
            f"{list(shapes[0])} at entry 0 and {list(shapes[i])} at entry {i}"
        )
    size_check((len(ts), *shapes[0]), "the stacked tensor")
    return apply(S.stack, *_promoted(ts), dim=d)


def mm(input: Any, mat2: Any) -> Tensor:
    if isinstance(input, SparseCSR):  # its entries row by row, each product rounded
        from ..ops.sparsemm import sparse_mm

        return sparse_mm(input.coo, mat2, "MmBackward0", fused=False)
    if isinstance(input, SparseCOO):  # torch.mm(sparse, dense): `ops.sparsemm`
        from ..ops.sparsemm import sparse_mm

        return sparse_mm(input, mat2, "MmBackward0")
    input, mat2 = tensor_arg(input), tensor_arg(mat2)
    if input.ndim != 2:
        raise GradcliError("self must be a matrix")
    if mat2.ndim != 2:
        raise GradcliError("mat2 must be a matrix")
    return matmul(input, mat2)


def mv(input: Any, vec: Any) -> Tensor:
    if isinstance(input, SparseCSR):
        raise NotSupported(
            "torch.mv of a sparse CSR matrix is not supported by gradcli (PyTorch's kernel sums "
            "in an order gradcli does not reproduce)",
            hint="multiply by the vector as a column: (s @ v.unsqueeze(1)).squeeze(1)",
        )
    input, vec = tensor_arg(input), tensor_arg(vec)
    if input.ndim == 0:
        raise GradcliError("Dimension specified as 0 but tensor has no dimensions").mirror(
            "IndexError"
        )
    if input.ndim != 2 or vec.ndim != 1:
        raise GradcliError(f"vector + matrix @ vector expected, got 1, {input.ndim}, {vec.ndim}")
    return matmul(input, vec)


def bmm(input: Any, mat2: Any) -> Tensor:
    input, mat2 = tensor_arg(input), tensor_arg(mat2)
    if input.ndim != 3:
        raise GradcliError("batch1 must be a 3D tensor")
    if mat2.ndim != 3:
        raise GradcliError("batch2 must be a 3D tensor")
    if mat2.shape[:2] != (input.shape[0], input.shape[2]):
        # (ATen's bmm meta checks the batch and the inner size in one message)
        raise GradcliError(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{input.shape[0]}, {input.shape[2]}] but got: [{mat2.shape[0]}, {mat2.shape[1]}]."
        )
    return product(input, mat2, "BmmBackward0")


def dot(input: Any, tensor: Any) -> Tensor:
    input, tensor = tensor_arg(input), tensor_arg(tensor)
    if input.ndim != 1 or tensor.ndim != 1:
        raise GradcliError(f"1D tensors expected, but got {input.ndim}D and {tensor.ndim}D tensors")
    if input.shape != tensor.shape:
        raise GradcliError(
            f"inconsistent tensor size, expected tensor [{input.shape[0]}] and src "
            f"[{tensor.shape[0]}] to have the same number of elements, but got "
            f"{input.shape[0]} and {tensor.shape[0]} elements respectively"
        )
    return matmul(input, tensor)


def outer(x: Any, y: Any) -> Tensor:
    x, y = tensor_arg(x), tensor_arg(y)
    if x.ndim != 1 or y.ndim != 1:
        raise GradcliError(f"outer: expected 1D tensors, got {x.ndim}D and {y.ndim}D")
    return mul_t(reshape(x, (-1, 1)), y)  # (ATen: x.reshape({n, 1}) * y, ViewBackward0)


ger = outer


def to_dtype(x: Any, dtype: Any) -> Tensor:
    x = tensor_arg(x)
    dt = check_dtype(dtype, fn="to")
    if dt == x.dtype:
        return x
    if x.dtype.kind == "c" and dt.kind != "c":
        from ..core import hooks

        hooks.warn("Casting complex values to real discards the imaginary part", once=True)
        if dt.kind != "f":
            return Tensor(like(x.data.real.astype(dt), x.data))
    if dt.kind not in "fc" or x.dtype.kind not in "fc":
        return Tensor(like(x.data.astype(dt), x.data))
    return apply(S.astype, x, dtype=dt)


def clone(input: Any, memory_format: Any = None) -> Tensor:
    input = A.tensor_param(input, "clone", "input", 1)
    layout = memory_format_arg(memory_format, "clone", input.shape)
    out = apply(S.clone, input)
    # Its own storage (the reshape record returns a view): changing the clone in place must
    # not reach x.
    if layout == "preserve":
        out.data = preserved_copy(out.data)
    elif layout == "contiguous":
        out.data = row_major(out.data, True)
    else:
        out.data = in_format(out.data, layout, True)
    out._vc = out._base = None
    out._inf = _GradMode.inference  # a new tensor: an inference tensor only if made inside
    if NOGRAD_VIEWS and out in NOGRAD_VIEWS:  # (not a view: no requires_grad under no_grad)
        NOGRAD_VIEWS.discard(out)
        out.requires_grad = False
    return out


def preserved_copy(a: np.ndarray) -> np.ndarray:
    """A copy laid out as PyTorch's `clone()` lays it out (memory_format=preserve_format):
    a dense tensor's strides kept, any other's order of strides closed up (`core.layout`)."""
    return like(a, a, copy=True)


def inplace_update(x: Tensor, value: Any, label: str) -> Tensor:
    """Overwrite x's values in place with `value` (constants: random draws), recorded as
    `label` when x requires grad."""
    return inplace(x, lambda old: _overwritten(old, value, label), op=lambda: _drawn_op(label))


def _drawn_op(label: str) -> str:
    """The ATen name of the draw recorded as `label` (NormalBackward0 -> aten::normal_)."""
    m = re.fullmatch(r"([A-Z][a-z]+)Backward\d*", label)
    if m is None:
        return "aten::copy_"
    name = m.group(1).lower()
    return f"aten::{name}_" + (".float" if name == "bernoulli" else "")


def _fill_value(v: Any) -> Any:
    """fill_'s value: a number or a 0-d tensor (its two overloads), in PyTorch's words."""
    if isinstance(v, Tensor):
        if v.ndim:
            raise GradcliError(
                "fill_ only supports 0-dimension value tensor but got tensor with "
                f"{v.ndim} dimensions."
            )
        return v
    if isinstance(v, (bool, int, float, builtins.complex, np.number)):
        return v
    raise invalid_combination("fill_", v, ("Tensor value", "Number value"))


def _as_element(value: Any, dt: np.dtype) -> Any:
    """A number checked for dtype `dt` (`dtypes.checked_scalar`) as c10 converts it: a
    complex one into a real type is its real part (its imaginary part was checked to be 0),
    into bool whether it is nonzero."""
    if isinstance(value, (builtins.complex, np.complexfloating)) and dt.kind != "c":
        return bool(value) if dt == np.bool_ else float(value.real)
    return value


def _overwritten(old: Tensor, value: Any, label: str) -> Tensor:
    """`value` broadcast to old's shape, as the new version of a tensor that is overwritten:
    it still requires grad when old did (with a zero gradient for it, as PyTorch's
    ZeroBackward0 / FillBackward2), and gradients flow to `value` when it is a tensor that
    requires grad (through the same node: CopyBackwards for copy_, FillBackward3 for a fill
    with a one-element tensor)."""
    if type(value) is int and value == 0:
        full = np.zeros(old.shape, old.dtype)  # zero_(): 0 in any dtype is its zero (+0.0)
    else:
        v = value.data if isinstance(value, Tensor) else np.asarray(value)
        try:
            full = np.broadcast_to(v, old.shape).astype(old.dtype)
        except ValueError:
            return Tensor(v)  # `inplace` refuses the shape, in PyTorch's words
    flows = isinstance(value, Tensor) and value.requires_grad and grad_enabled()
    since = peek_seq()
    if old.requires_grad and grad_enabled():
        out = apply(B.mul, old, Tensor(np.zeros((), dtype=old.dtype)), label=label)
    else:
        out = Tensor(np.zeros(old.shape, old.dtype) if flows else full)
    if flows:
        if value.dtype != old.dtype:
            value = to_dtype(value, old.dtype)
        # (0 + value: the node that sends the gradient to value; the data is value itself,
        # so a -0.0 stays -0.0)
        out = apply(B.add, out, value, label=label)
    out.data = full
    # PyTorch's fill / zero / copy nodes save nothing: a backward leaves them
    return A.frees_nothing(out, since)


_ADDS = ("add", "fused_add")  # add_'s batching rule words its vmap refusal as a broadcast


# The in-place operations whose ATen overload PyTorch names by their other operand: a tensor
# or a number (`pow_.Scalar`, `pow_.Tensor`); those always `.Tensor` (a number is wrapped).
_BY_OPERAND = {
    "pow", "remainder", "fmod", "lerp", "masked_fill", "fill", "__iand__", "__ior__", "__ixor__",
    "__ilshift__", "__irshift__", "eq", "ne", "lt", "le", "gt", "ge",
}  # fmt: skip
_TENSOR_OVERLOAD = {"add", "sub", "mul", "div", "floor_divide", "bitwise_and", "bitwise_or"}
_BASE_NAMES = {"mul_t": "mul", "div_t": "div", "fused_add": "add", "fused_sub": "sub"}


def aten_inplace_name(name: str, args: tuple = (), kwargs: dict | None = None) -> str:
    """PyTorch's ATen name of the in-place operation `name` (without its `_`) called with
    `args` and `kwargs` (`add` -> `aten::add_.Tensor`, `pow` with a number ->
    `aten::pow_.Scalar`, `exp` -> `aten::exp_`), as its errors show it."""
    kwargs = kwargs or {}
    base = _BASE_NAMES.get(name, name)
    values = [*args, *kwargs.values()]
    tensor = bool(values) and isinstance(values[-1], Tensor)
    if base in _TENSOR_OVERLOAD:
        mode = kwargs.get("rounding_mode") is not None
        return f"aten::{base}_.Tensor{'_mode' if mode else ''}"
    if base in ("clamp", "clamp_min", "clamp_max"):
        return f"aten::{base}_" + (".Tensor" if any(isinstance(v, Tensor) for v in values) else "")
    if base in _BY_OPERAND:
        name = base if base.startswith("__") else f"{base}_"  # (`__ior__` is in place)
        return f"aten::{name}.{'Tensor' if tensor else 'Scalar'}"
    if base == "bernoulli":
        return f"aten::bernoulli_.{'Tensor' if tensor else 'float'}"
    if base == "scatter":
        return f"aten::scatter_.{'src' if tensor else 'value'}"
    return f"aten::{base}_"


def _method_(fn: Callable[..., Tensor], name: str | None = None) -> Callable[..., Tensor]:
    """The in-place method of an out-of-place function: `x.add_(y)` is x changed in place to
    `add(x, y)` (recorded as PyTorch records it when gradients flow). (`name`: the operation's
    own, where the function's is not.)"""
    op_name = name or fn.__name__

    def method(x: Any, *args: Any, **kwargs: Any) -> Tensor:
        if type(x) is not Tensor:  # (torch.exp_(2.0): PyTorch's TypeError)
            x = A.tensor_param(x, f"{fn.__name__}_", "input", 1)
        if _GradMode.vmapped and fn.__name__ in _ADDS and args and isinstance(args[0], Tensor):
            check_batched_write(x, args[0], shape=True)  # (add_'s batching rule's words)
        return inplace(
            x,
            (lambda old: B.into_dividend(lambda: fn(old, *args, **kwargs)))
            if op_name == "div"
            else lambda old: fn(old, *args, **kwargs),
            op=lambda: aten_inplace_name(op_name, args, kwargs),
        )

    method.__wrapped__ = fn  # type: ignore[attr-defined]  # its signature is fn's
    return method


def _view_method_(
    fn: Callable[..., Tensor], base: str = "", overload: int = 1
) -> Callable[..., Tensor]:
    """The in-place form of a view (`x.unsqueeze_(0)`, `x.t_()`): x itself takes the view's
    shape and strides over the same memory, and (when gradients flow) the view's node, named
    as PyTorch names the in-place overload (`UnsqueezeBackward1`; squeeze_'s three forms are
    SqueezeBackward3, 4 and 5)."""
    from ..core.inplace import check_target
    from ..core.op import versioned

    def method(x: Any, *args: Any, **kwargs: Any) -> Tensor:
        x = tensor_arg(x)
        check_target(x)
        if grad_enabled() and x.requires_grad:
            old = Tensor(x.data)
            old.requires_grad = True
            old.node = x.node
            if x.node is not None and x.node._out() is x:
                # the node that made x made the old shape: its rule reads that, not x's new one
                x.node.out = old
        else:
            old = x
        new = fn(old, *args, **kwargs)
        if hooks.before_write is not None:
            hooks.before_write(x)
        x.data = new.data
        bumped(x)  # PyTorch counts a change of shape in place as a new version
        if old is not x and new.node is not None:
            if base == "Squeeze":
                dim = args[0] if args else kwargs.get("dim")
                n = 3 if dim is None else 5 if isinstance(dim, (tuple, list)) else 4
                new.node.label = f"SqueezeBackward{n}"
            elif base:
                new.node.label = f"{base}Backward{overload}"
            new.node.out = x
            # a new version of x: nodes recorded before still reach the old one (as inplace())
            made = new.node
            versioned(made, x.node)
            x.node = made
            vs = list(made.versions or (0,) * (len(made.inputs) + 1))
            vs[-1] = x._version
            made.versions = tuple(vs)
        return x

    method.__wrapped__ = fn  # type: ignore[attr-defined]  # its signature is fn's
    return method


def resize_(x: Any, *sizes: Any, memory_format: Any = None) -> Tensor:
    """`x.resize_(2, 3)`: x takes the shape, its elements read in order from its memory (the
    first ones when it shrinks; a view of x's memory, as PyTorch keeps the storage). Growing
    is refused (PyTorch's new elements are uninitialised memory), as is reshaping a
    non-contiguous tensor (PyTorch lays its storage out anew); a tensor that requires grad
    cannot be resized (PyTorch's error)."""
    x = tensor_arg(x)
    listed = sizes[0] if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) else sizes
    if any(isinstance(a, int) and a < 0 for a in listed):
        raise GradcliError("numel: integer multiplication overflow")  # ATen's words
    shape = shape_arg(sizes, fn="resize_")
    if x.requires_grad:
        raise GradcliError("cannot resize variables that require grad")
    if shape == x.shape:
        return x
    n = int(np.prod(shape, dtype=np.int64))
    if n > x.data.size and _grown_deterministically(x, shape, n):
        return x
    if n > x.data.size:
        raise NotSupported(
            f"resize_ to {n} elements from {x.data.size} is not supported: PyTorch's new "
            "elements would be uninitialised memory",
            hint="make a new tensor (torch.zeros(...)), or keep the number of elements "
            "(x.reshape(...), x.view(...))",
        )
    if not x.data.flags.c_contiguous:
        raise NotSupported(
            "resize_ of a non-contiguous tensor to a new shape is not supported",
            hint="x = x.contiguous() first, or x.reshape(...)",
        )
    if hooks.before_write is not None:
        hooks.before_write(x)
    x.data = x.data.reshape(-1)[:n].reshape(shape)
    bumped(x)
    return x


def _grown_deterministically(x: Tensor, shape: tuple[int, ...], n: int) -> bool:
    """resize_ growing a tensor that owns its memory while deterministic algorithms fill new
    memory (torch.utils.deterministic.fill_uninitialized_memory): its elements in order, then
    the fill (NaN, or an integer dtype's largest value) as PyTorch writes it into the new
    storage. False when the fill is off or x is a view or holds part of a larger memory."""
    from ..core.tensor import FILLED, deterministic_fill

    tail = deterministic_fill((n - x.data.size,), x.data.dtype)
    if tail is None or getattr(x, "_base", None) is not None or x.data.base is not None:
        return False
    if not x.data.flags.c_contiguous:
        return False
    if hooks.before_write is not None:
        hooks.before_write(x)
    grown = np.empty(shape, dtype=x.data.dtype)  # (an array of its own: it may grow again)
    flat = grown.reshape(-1)
    flat[: x.data.size] = x.data.reshape(-1)
    flat[x.data.size :] = tail
    FILLED[id(grown)] = grown  # (its NaN is PyTorch's fill)
    x.data = grown
    bumped(x)
    return True


def _filled(x: Any, value: Any, name: str) -> Tensor:
    """zero_ / fill_: with a number, also on a tensor whose elements share memory places
    (`x.expand(...)`: each place takes the value, as PyTorch's); fill_ with a tensor there is
    PyTorch's error."""
    from ..core.inplace import overlapping

    x = tensor_arg(x)
    op = (
        "aten::zero_"
        if name == "ZeroBackward0"
        else f"aten::fill_.{'Tensor' if isinstance(value, Tensor) else 'Scalar'}"
    )
    if isinstance(value, Tensor):
        return inplace(x, lambda o: _overwritten(o, _fill_value(value), name), op=op)
    with overlapping():
        return inplace(x, lambda o: _overwritten(o, _checked_fill(value, o), name), op=op)


def fill(input: Any, value: Any) -> Tensor:  # noqa: A002 - PyTorch's keyword
    """torch.fill(input, value): a new tensor of input's shape and dtype holding value (a
    number or a 0-d tensor: PyTorch's two overloads, FillBackward0 and FillBackward1); input
    gets a zero gradient, a tensor value the sum of the gradient."""
    number = isinstance(value, (bool, int, float, builtins.complex, np.number))
    if type(input) is not Tensor or not (number or isinstance(value, Tensor)):
        got = f"{pytype_name(input)}, {pytype_name(value)}"
        # (PyTorch's parser marks the value in both overloads, and input when it is no tensor)
        first = "Tensor" if type(input) is Tensor else f"!{parser_typename(input)}!"
        marks = f"{first}, !{parser_typename(value)}!"
        listed = "".join(
            f" * (Tensor input, {kind} value)\n"
            f"      didn't match because some of the arguments have invalid types: ({marks})\n"
            for kind in ("Tensor", "Number")
        )
        raise GradcliError(
            f"fill() received an invalid combination of arguments - got ({got}), "
            f"but expected one of:\n{listed}"
        ).mirror("TypeError")
    value = _fill_value(value)
    if not isinstance(value, Tensor):
        dtypes.checked_scalar(value, input.dtype, input.data.size)
        value = _as_element(value, input.dtype)
    v = value.data if isinstance(value, Tensor) else np.asarray(value)
    # (laid out as empty_like(input), as ATen's fill makes it)
    full = like(np.broadcast_to(v, input.shape).astype(input.dtype), input.data, copy=True)
    on = grad_enabled()
    since = peek_seq()
    flows = on and (input.requires_grad or (isinstance(value, Tensor) and value.requires_grad))
    if flows and input.dtype.kind == "c":
        raise core_op.complex_refusal("torch.fill() of a tensor that requires grad")
    if isinstance(value, Tensor) and on and (value.requires_grad or input.requires_grad):
        # one node of the two inputs, as PyTorch's: where(False, input, value) sends input a
        # zero gradient and value the sum of the gradient
        given = value
        if value.dtype != input.dtype:
            value = to_dtype(value, input.dtype)
        off = Tensor(np.zeros((), dtype=np.bool_))
        out = apply(B.where, off, input, value, label="FillBackward1")
        core_op.SHOWN_INPUTS[out.node] = (input, given)
    elif input.requires_grad and on:
        # where(False, input, 0): input's gradient is zeros (complex too); one input shown
        off = Tensor(np.zeros((), dtype=np.bool_))
        zero = Tensor(np.zeros((), dtype=input.dtype))
        out = apply(B.where, off, input, zero, label="FillBackward0")
        core_op.SHOWN_INPUTS[out.node] = (input,)
    else:
        return Tensor(full)
    out.data = full
    return A.frees_nothing(out, since)


def _checked_fill(value: Any, x: Tensor) -> Any:
    """fill_'s number, refused in PyTorch's words when x's dtype cannot hold it."""
    value = _fill_value(value)
    dtypes.checked_scalar(value, x.dtype, x.data.size)
    return _as_element(value, x.dtype)


# C++'s names of the element types in PyTorch's "Could not set tensor of type ..." message.
_CPP_TYPES = {
    np.dtype(np.float32): "float",
    np.dtype(np.float64): "double",
    np.dtype(np.float16): "c10::Half",
    np.dtype(np.int64): "long int",
    np.dtype(np.int32): "int",
    np.dtype(np.int16): "short int",
    np.dtype(np.int8): "signed char",
    np.dtype(np.uint8): "unsigned char",
    np.dtype(np.bool_): "bool",
}


def set_(x: Any, source: Any = None, *rest: Any, **kw: Any) -> Tensor:
    """`x.set_(source)`: x takes source's memory (and shape): from then on a change of either
    is seen by the other, as in PyTorch; `x.set_()` makes x empty. A view keeps the memory it
    had (as PyTorch's). With gradients recorded (x in a graph, or a source that requires grad)
    x's node has no derivative, as PyTorch's (`NotImplemented`). Refused on a view, and with a
    storage, an offset or strides."""
    from ..core.inplace import check_target
    from ..core.tensor import _GradMode, own

    x = tensor_arg(x)
    if rest or kw or (source is not None and not isinstance(source, Tensor)):
        raise NotSupported(
            "x.set_(storage, offset, size, stride) is not supported: gradcli tensors share "
            "memory only as whole tensors",
            hint="x.set_(other_tensor), or make the view itself: other[2:5].view(...)",
        )
    if _GradMode.transforms or _GradMode.vmapped:
        raise NotSupported(
            "set_ inside torch.func transforms is not supported",
            hint="return a new tensor from the function instead",
        )
    check_target(x)  # (a leaf that requires grad, with grad mode on: PyTorch's error)
    if source is not None and source.dtype != x.dtype:
        names = (_CPP_TYPES.get(source.dtype), _CPP_TYPES.get(x.dtype))
        if None in names:
            raise NotSupported(f"set_ from {source.dtype} to {x.dtype} is not supported")
        raise GradcliError(
            f"Could not set tensor of type {names[0]} to a tensor of type {names[1]}",
            hint="convert the source first: x.set_(y.to(x.dtype)) shares y's converted copy",
        )
    if x._base is not None:
        raise NotSupported(
            "set_ on a view is not supported",
            hint="set the tensor the view was made from, or x = x.clone() first",
        )
    if source is x:
        bumped(x)
        return x
    if grad_enabled() and (x.node is not None or (source is not None and source.requires_grad)):
        return _set_recorded(x, source)
    if hooks.before_write is not None:
        hooks.before_write(x)
    if source is None:
        x.data = np.empty((0,), dtype=x.dtype)
    else:
        own(source)  # (a lent array is copied before it is shared: both see one memory)
        x.data = source.data
    bumped(x)
    return x


def _set_recorded(x: Tensor, source: Tensor | None) -> Tensor:
    """`x.set_(source)` with gradients recorded, x in a graph or source requiring grad: as
    PyTorch's, x takes source's memory and a node with no derivative (NotImplemented) whose
    inputs are x's old value and source; x's version moves on, so a node that saved x's old
    value refuses its backward pass."""
    from ..core.op import versioned
    from ..core.tensor import own
    from ..ops.shape import set_source

    shape = (0,) if source is None else source.shape
    if x.node is not None and shape != x.shape:
        raise NotSupported(
            f"set_ that changes the shape of a tensor of the autograd graph (from "
            f"{list(x.shape)} to {list(shape)}) is not supported",
            hint="set it from a tensor of its own shape, or under torch.no_grad(), or make a "
            "new tensor (x = y.clone())",
        )
    old = Tensor(x.data.copy())
    old.requires_grad = x.requires_grad
    old.node = x.node  # (x's own node keeps x as its output: a rule reading it checks x's
    # version, as PyTorch's saved output)
    if hooks.before_write is not None:
        hooks.before_write(x)
    if source is None:
        source = Tensor(np.empty((0,), dtype=x.dtype))
    own(source)  # (a lent array is copied before it is shared: both see one memory)
    new = apply(set_source, old, source)
    x.data = source.data
    bumped(x)
    node = new.node
    node.out = x
    versioned(node, x.node)
    x.node = node
    x.requires_grad = True
    vs = list(node.versions or (0,) * (len(node.inputs) + 1))
    vs[-1] = x._version
    node.versions = tuple(vs)
    return x


INPLACE: dict[str, Callable[..., Tensor]] = {
    "set_": set_,
    "unsqueeze_": _view_method_(unsqueeze, "Unsqueeze"),
    "squeeze_": _view_method_(squeeze, "Squeeze"),
    "t_": _view_method_(t, "T"),
    "transpose_": _view_method_(transpose, "Transpose"),
    "swapaxes_": _view_method_(swapaxes, "Transpose"),
    "resize_": resize_,
    "resize_as_": lambda x, the_template, memory_format=None: resize_(
        x, tensor_arg(the_template, "the_template").shape
    ),
    "zero_": lambda input: _filled(input, 0, "ZeroBackward0"),
    # fill_(Scalar) and fill_(Tensor) are two overloads, FillBackward2 and FillBackward3
    "fill_": lambda input, value: _filled(
        input, value, "FillBackward3" if isinstance(value, Tensor) else "FillBackward2"
    ),
    "copy_": lambda x, other, non_blocking=False: _copy_(tensor_arg(x), tensor_arg(other, "src")),
    "add_": _method_(add, "add"),
    "sub_": _method_(sub, "sub"),
    "mul_": _method_(A.mul_t, "mul"),
    "div_": _method_(A.div_t, "div"),
    "pow_": _method_(A.pow, "pow"),
    "clamp_": lambda input, min=None, max=None: _clamp_inplace(input, min, max, "clamp"),
    "clamp_min_": lambda input, min: _clamp_inplace(input, min, None, "clamp_min"),
    "clamp_max_": lambda input, max: _clamp_inplace(input, None, max, "clamp_max"),
    "relu_": _method_(relu, "relu"),
    **{f"{name}_": _method_(fn, name) for name, fn in A.METHODS.items()},
}


def write_out(
    out: Any, result: Any, name: str, inputs: tuple = (), warn_resize: bool = True
) -> Any:
    """`torch.f(..., out=t)`: the result written into t (resized to the result's shape, cast
    to t's dtype as PyTorch allows) and t returned, as PyTorch's `out=` does (a factory,
    `torch.zeros(3, out=t)`, resizes without the deprecation warning: `warn_resize`)."""
    from ..core import hooks
    from ..core.inplace import write

    if not isinstance(out, Tensor):
        raise GradcliError(f"{name}(): argument 'out' must be Tensor, not {typename(out)}").mirror(
            "TypeError"
        )
    if not isinstance(result, Tensor):
        raise GradcliError(f"{name}(): out= is not supported for a result that is not a tensor")
    if grad_enabled() and (
        out.requires_grad or any(isinstance(a, Tensor) and a.requires_grad for a in inputs)
    ):
        raise GradcliError(
            f"{name}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )
    if out.shape != result.shape:
        if out.data.size and warn_resize:
            hooks.warn(
                "An output with one or more elements was resized since it had shape "
                f"{list(out.shape)}, which does not match the required output shape "
                f"{list(result.shape)}. This behavior is deprecated, and in a future PyTorch "
                "release outputs will not be resized unless they have zero elements. You can "
                "explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
                "with t.resize_(0)."
            )
        out.data = np.zeros(result.shape, dtype=out.dtype)
    write(out, result.detach())
    return out


def addmm_dtypes_checked(inp: Tensor, m1: Tensor, m2: Tensor) -> None:
    """addmm's dtype checks in ATen's order and words (an operand of another dtype is not
    promoted): the added tensor against mat2 first, then mat1 against mat2."""
    if inp.dtype != m2.dtype:
        raise GradcliError(
            "self and mat2 must have the same dtype, but got "
            f"{scalar_type_name(inp.dtype)} and {scalar_type_name(m2.dtype)}",
            hint="convert the added tensor (a bias) to the matrices' dtype first",
        )
    if m1.dtype != m2.dtype:
        raise GradcliError(
            "mat1 and mat2 must have the same dtype, but got "
            f"{scalar_type_name(m1.dtype)} and {scalar_type_name(m2.dtype)}",
            hint="convert one of them first (x.float(), or the module's .double())",
        )


def linear_forward(x: Tensor, w: Tensor, bias: Any) -> Tensor:
    """F.linear / nn.Linear as ATen's linear: a 2-D input is one addmm (AddmmBackward0); any
    other contiguous input with a bias has its leading axes folded into rows (a view), one
    addmm, and a view back (ViewBackward0: a 1-D sample's output prints so in PyTorch);
    without a bias, a matmul."""
    if w.ndim > 2:  # ATen's linear transposes the weight first
        raise GradcliError(
            f"t() expects a tensor with <= 2 dimensions, but self is {w.ndim}D",
            hint="a Linear's weight is (out_features, in_features)",
        ).mirror("RuntimeError")
    if isinstance(bias, Tensor) and w.ndim == 1 and (x.ndim == 2 or x.data.flags.c_contiguous):
        # (an input folded into rows, or a matrix: one addmm, whose weight must be a matrix; a
        # weight set through `.data` to a vector used to give a number where PyTorch stops)
        raise GradcliError(
            "mat2 must be a matrix, got 1-D tensor",
            hint="a Linear's weight is (out_features, in_features): torch.tensor([[1., 1.]])",
        ).mirror("RuntimeError")
    if isinstance(bias, Tensor) and x.ndim >= 1 and w.ndim == 2:
        addmm_dtypes_checked(bias, x, w)
    if (
        bias is not None
        and x.ndim != 2
        and x.ndim >= 1
        and w.ndim == 2
        and isinstance(bias, Tensor)
        and bias.ndim == 1
        and x.data.flags.c_contiguous
        and x.shape[-1] == w.shape[1]
    ):
        lead = x.shape[:-1]
        rows = 1
        for n in lead:
            rows *= n
        x2 = reshape(x, rows, x.shape[-1])
        out = A.addmm_bias(A.matmul(x2, t(w)), x2, w, bias)
        return view(out, *lead, w.shape[0])
    out = A.matmul(x, t(w) if w.ndim == 2 else w)
    if bias is None:
        return out
    if x.ndim > 2:
        # a non-contiguous input of 3 or more dimensions (a transposed sequence): ATen's
        # linear is a matmul, then the bias added in place (AddBackward0, a separate sum,
        # never fused into the product)
        return A.add_t(out, bias)
    return A.addmm_bias(out, x, w, bias)
