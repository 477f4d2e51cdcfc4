"""Tensor arithmetic bound to the records: the operators (`+ - * / ** @`, unary `-`, `abs`)
and the elementwise methods (`x.exp()`, `x.cos()`...), installed on `Tensor` when this module is
imported (`gradcli.ops` imports it: every VJP rule is written with them).

Operands follow PyTorch: a Python number takes the tensor's float dtype, a list becomes a
tensor, shapes must broadcast (PyTorch's error wording). `surface` reuses these functions for
`torch.add`, `torch.exp`, ... and adds the methods with PyTorch's argument conventions.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import ArgumentTypeError, GradcliError
from ..core import autograd, cpu, dtypes, hooks
from ..core import saved as V
from ..core.inplace import drop_unread
from ..core.layout import like, row_major
from ..core.op import IMPLICIT_CASTS, SHOWN_INPUTS, apply, laid_out
from ..core.tensor import (
    Settings,
    Tensor,
    _GradMode,
    as_tensor,
    batched,
    bumped,
    data_array,
    numpy_data,
    pytype_name,
    typename,
    wrap,
)
from . import binary as B
from . import elementwise as E
from . import linalg as L
from . import matrices  # noqa: F401 - registers the torch.linalg records
from . import shape as S


def tensor_arg(v: Any, what: str = "argument") -> Tensor:
    if isinstance(v, Tensor):
        return v
    if isinstance(v, (int, float, bool)) and not isinstance(v, bool):
        return Tensor(np.asarray(v, dtype=Settings.default_dtype))
    if what.isidentifier():
        # PyTorch's parser's TypeError; the call of the program names the function and the
        # place (`lang.calls`: "mean(): argument 'input' (position 1) must be Tensor, not
        # list")
        raise ArgumentTypeError(
            "",
            what,
            None,
            "Tensor",
            pytype_name(v),
            f"{what} must be a Tensor, not {typename(v)}",
            hint="create it with torch.tensor(...)",
        )
    raise GradcliError(
        f"{what} must be a Tensor, not {typename(v)}",
        hint="create it with torch.tensor(...)",
    )


def tensor_param(v: Any, fn: str, param: str, position: int) -> Tensor:
    """A parameter PyTorch's parser takes only a tensor for (`matmul`'s `other`, `relu`'s
    `input`): anything else is its TypeError (`ArgumentTypeError`; position: the argument's
    place in the function's call, counted from 1)."""
    if isinstance(v, Tensor):
        return v
    raise ArgumentTypeError(fn, param, position, "Tensor", pytype_name(v))


_NUMBERS = (bool, int, float, complex, np.number, np.bool_)


def number_or_tensor(v: Any, fn: str, param: str, position: int) -> Any:
    """A parameter of a tensor or a Python number (`add`'s `other`): a string, None, a list...
    is PyTorch's TypeError (`add(): argument 'other' (position 2) must be Tensor, not str`)."""
    if isinstance(v, (Tensor, *_NUMBERS)):
        return v
    raise ArgumentTypeError(fn, param, position, "Tensor", pytype_name(v))


def int_param(v: Any, fn: str, param: str, position: int) -> Any:
    """A parameter of an int (`unsqueeze`'s `dim`, `topk`'s `k`): a string, a float, None is
    PyTorch's TypeError (`unsqueeze(): argument 'dim' (position 2) must be int, not str`); an
    int, a NumPy integer or a tensor (of one integer) goes on to the function's own checks."""
    if isinstance(v, (int, np.integer, Tensor)):
        return v
    raise ArgumentTypeError(fn, param, position, "int", pytype_name(v))


def size_check(shape: tuple[int, ...], what: str) -> None:
    total = 1
    for n in shape:
        total *= n
    limits.TENSOR_ELEMENTS.check(total, what)


def broadcast_shape(a: Tensor, b: Tensor) -> tuple[int, ...]:
    # The common cases need no checks: each operand is already within the limits.
    if a.shape == b.shape or b.ndim == 0:
        return a.shape
    if a.ndim == 0:
        return b.shape
    try:
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        n = max(a.ndim, b.ndim)
        sa = (1,) * (n - a.ndim) + a.shape
        sb = (1,) * (n - b.ndim) + b.shape
        for i in range(n - 1, -1, -1):
            if sa[i] != sb[i] and sa[i] != 1 and sb[i] != 1:
                raise GradcliError(
                    f"The size of tensor a ({sa[i]}) must match the size of tensor b ({sb[i]}) "
                    f"at non-singleton dimension {i}",
                    found=f"shapes {list(a.shape)} and {list(b.shape)}",
                    expected="shapes that broadcast (equal, or 1, in each dimension from the "
                    "right)",
                ) from None
        raise
    size_check(shape, "the broadcast result")
    return shape


def wrapped_number(v: int | float, dtype: np.dtype) -> Tensor:
    """A Python number as the operand of a tensor of `dtype` (PyTorch's "wrapped number"):
    a 0-d tensor of that dtype, marked with the number's type so that a node that saved it
    shows it as PyTorch does (`(x * 2).grad_fn._saved_other` is `tensor(2)`)."""
    t = wrap(dtypes.round_bf16(v) if dtype == dtypes.BF16 else np.asarray(v, dtype=dtype))
    t.name = _WRAPPED[type(v)]
    if type(v) is float and dtypes.PROGRAM_FLOAT[0] and dtype != _F64:
        dtypes.mark_program_float(t)  # (PyTorch's forward-mode transforms: `core.forward`)
    return t


_WRAPPED = V.WRAPPED


def operands(a: Any, b: Any, *, floating: bool = False) -> tuple[Tensor, Tensor]:
    """Two operands as tensors of PyTorch's result dtype (`core.dtypes.result_type`): numbers
    take the tensor's dtype, ints with floats give the float, ... `floating`: an integer result
    becomes the default float dtype (true division)."""
    # The common cases first: two tensors of one dtype, a float tensor and a Python number
    # (which takes the tensor's dtype). Their result dtype is that dtype.
    ka, kb = type(a), type(b)
    if ka is Tensor:
        if kb is Tensor:
            dt = a.data.dtype
            if b.data.dtype == dt and (not floating or dt.kind == "f"):
                broadcast_shape(a, b)
                return a, b
        elif (kb is float or kb is int) and a.data.dtype.kind == "f":
            return a, wrapped_number(b, a.data.dtype)
    elif (ka is float or ka is int) and kb is Tensor and b.data.dtype.kind == "f":
        return wrapped_number(a, b.data.dtype), b
    ta = a if isinstance(a, Tensor) else None
    tb = b if isinstance(b, Tensor) else None
    if ta is None and tb is None:
        if not isinstance(a, _NUMBERS) or not isinstance(b, _NUMBERS):
            raise GradcliError("expected at least one Tensor operand")
        # two numbers (torch.add(3, 5), which PyTorch's parser takes: the first becomes a
        # 0-d tensor of its own dtype, both promote as numbers: tensor(8), tensor(0.6000))
        ta = Tensor(np.asarray(a, dtype=dtypes.scalar_dtype(a, Settings.default_dtype)))
    ta = ta if ta is not None else scalar_operand(a, tb)
    tb = tb if tb is not None else scalar_operand(b, ta)
    broadcast_shape(ta, tb)
    dt = dtypes.result_type([_participant(a, ta), _participant(b, tb)], Settings.default_dtype)
    if floating and dt.kind not in "fc":
        dt = Settings.default_dtype
    return cast(ta, dt), cast(tb, dt)


def compared(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    """The values of two operands in their common dtype, for a comparison (which records
    nothing: its result is bool)."""
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        raise GradcliError("expected at least one Tensor operand")
    ta = a if isinstance(a, Tensor) else scalar_operand(a, b)
    tb = b if isinstance(b, Tensor) else scalar_operand(b, a)
    broadcast_shape(ta, tb)
    dt = dtypes.result_type([_participant(a, ta), _participant(b, tb)], Settings.default_dtype)
    return ta.data.astype(dt, copy=False), tb.data.astype(dt, copy=False)


def _participant(v: Any, t: Tensor) -> tuple[np.dtype, int | None]:
    # A Python number is a "wrapped number" of its own rank in promotion.
    if isinstance(v, (bool, int, float, complex, np.number)) and not isinstance(v, Tensor):
        return dtypes.scalar_dtype(v, Settings.default_dtype), None
    return t.dtype, t.ndim


def cast(t: Tensor, dt: np.dtype) -> Tensor:
    """`t` in dtype `dt`: a constant is converted; a float tensor in the graph goes through the
    recorded `astype` (its gradient comes back in its own dtype)."""
    if t.dtype == dt:
        return t
    if t.requires_grad or (_GradMode.dual and _has_tangent(t)):
        # (a dual tensor's tangent is cast with it, as PyTorch's: `core.dual.carry`)
        out = apply(S.astype, t, dtype=dt)
        if out.node is not None:
            IMPLICIT_CASTS.add(out.node)  # (not shown in `next_functions`, as PyTorch's)
        return out
    # (laid out as `t.to(dt)`: ATen's CPU kernels cast an operand of another dtype first,
    # and lay their result out after the cast copy)
    out = Tensor(like(t.data.astype(dt), t.data))
    if dt.kind == "c" and t.dtype.kind != "c":
        out.name = V.REAL_AS_COMPLEX  # (mul's complex rule: `ops.binary._conj`)
    return out


def _has_tangent(t: Tensor) -> bool:
    from ..core import dual

    return dual.tangent(t) is not None


def floating(x: Tensor) -> Tensor:
    """An integer or bool tensor as the default float dtype (the ops that compute a float of
    any input: exp, sin, sqrt, true division...); a float tensor as it is."""
    return x if x.dtype.kind in "fc" else Tensor(x.data.astype(Settings.default_dtype))


def scalar_operand(v: Any, like: Tensor) -> Tensor:
    if isinstance(v, (int, float, bool)) or isinstance(v, np.number):
        if like.dtype.kind == "f":
            if type(v) in V.WRAPPED:
                return wrapped_number(v, like.dtype)
            return as_tensor(v, like=like)
        if like.dtype.kind == "c" and isinstance(v, (float, np.floating)):
            # (a double, rounded once to the complex tensor's dtype in `operands`: not first to
            # the default float dtype, which would make `z * 0.1` of complex128 z inexact)
            return Tensor(np.asarray(v, dtype=np.float64))
        return Tensor(np.asarray(v, dtype=dtypes.scalar_dtype(v, Settings.default_dtype)))
    if isinstance(v, complex):
        # a Python complex number (double precision: it takes the result's dtype in `operands`,
        # its own rank in promotion is the default complex dtype's, `_participant`)
        return Tensor(np.asarray(v, dtype=np.complex128))
    if isinstance(v, (list, tuple)):
        return Tensor(data_array(v, None))
    if isinstance(v, np.ndarray):  # a NumPy array is a tensor of its dtype, as in PyTorch
        return Tensor(numpy_data(v))
    raise GradcliError(
        f"unsupported operand type: {typename(v)} and Tensor", expected="a Tensor or a number"
    ).mirror("TypeError")  # PyTorch's argument parser: "argument 'other' must be Tensor"


def binop(
    op: Any, label: str | None = None, *, floating: bool = False
) -> Callable[[Any, Any], Tensor]:
    def f(input: Any, other: Any) -> Tensor:  # noqa: A002 - PyTorch's keyword
        ka, kb = type(input), type(other)
        if ka is float or kb is float or ka is int or kb is int:
            half = _half_with_number(op, input, other)
            if half is not None:
                return _in_opmath(op, input, other, half)
        ta, tb = operands(input, other, floating=floating)
        return apply(op, ta, tb, label=label)

    return f


def _half_with_number(op: Any, a: Any, b: Any) -> Tensor | None:
    """The float16 tensor of `a op b` when the other operand is a Python number that float16
    cannot hold exactly (0.1, 1e5): PyTorch's CPU kernels compute such an operation in float
    (their "opmath") with the number as float, and round the result to half once; the number
    taken in half first gives another last bit in about a third of the elements of x * 0.1.
    Only * and / (measured, 2.13: their kernels read the number as float; add and sub take it
    as a half, `x + 0.1` is half arithmetic), and for / only the number second (`0.1 / x` is
    PyTorch's reciprocal then product)."""
    if op is B.mul:
        pairs: tuple = ((a, b), (b, a))
    elif op is B.div:
        pairs = ((a, b),)
    else:
        return None
    for t, v in pairs:
        if type(t) is Tensor and type(v) in (int, float):
            dt = t.data.dtype
            if dt == _F16:
                f32 = np.float32(v)
                if f32 == f32 and np.float16(f32) != f32:  # (NaN and infinities are exact)
                    return t
            elif dt == dtypes.BF16:  # (bfloat16 alike, measured: the number as float)
                f32 = np.float32(v)
                if f32 == f32 and dtypes.round_bf16(f32) != f32:
                    return t
    return None


_F16 = np.dtype(np.float16)
_REDUCED = (_F16, dtypes.BF16)  # the dtypes whose kernels take some numbers as float
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)


def _in_opmath(op: Any, a: Any, b: Any, half: Tensor) -> Tensor:
    """`a op b` of a float16 tensor and a number as PyTorch computes it: in float32, rounded
    to half once; one node of the operation's name, whose inputs are the tensor and the
    number (kept in float32): `y.grad_fn.next_functions` is PyTorch's, and its gradient is
    computed the same way (half(float(g) * number))."""
    opmath = _opmath_op(op)
    if half is a:
        return apply(opmath, half, wrapped_number(b, _F32))
    return apply(opmath, wrapped_number(a, _F32), half)


_OPMATH: dict[str, Any] = {}


def _opmath_op(op: Any) -> Any:
    """The record `op` of a float16 tensor and a float32 number: its forward in float32,
    rounded to half; its rule the same for the gradient (the number has none)."""
    got = _OPMATH.get(op.name)
    if got is not None:
        return got
    wide = op.forward

    def forward(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        if x.dtype == _F16 or y.dtype == _F16:
            return np.asarray(wide(x.astype(_F32), y.astype(_F32))).astype(_F16)
        return np.asarray(wide(x, y))  # bfloat16 (`core.op.apply` rounds it)

    def vjp(g: Tensor, out: Tensor, x: Tensor, y: Tensor) -> tuple:
        half, number = (x, y) if x.dtype != _F32 else (y, x)
        if not half.requires_grad:
            return (None, None)
        if op is B.mul:
            d = apply(got, g, number)
        elif op is B.div:
            d = apply(got, g, number)
        elif op is B.sub and half is y:
            d = -g
        else:
            d = g
        return (d, None) if half is x else (None, d)

    got = _OPMATH[op.name] = op.replace(forward=forward, vjp=vjp, link=None, accumulate=None)
    return got


add_t = binop(B.add)


_sub = binop(B.sub)


def sub_t(a: Any, b: Any) -> Tensor:
    """`a - b`; refused on bool tensors, in PyTorch's words."""
    check_bool_sub(a, b)
    return _sub(a, b)


def check_bool_sub(a: Any, b: Any) -> None:
    """PyTorch's refusal of a subtraction with a bool tensor (any alpha)."""
    # (of two numbers, the first is a tensor to PyTorch: `torch.sub(True, 2)`)
    ba = (isinstance(a, Tensor) and a.dtype == np.bool_) or (
        type(a) is bool and not isinstance(b, Tensor)
    )
    # a Python bool is a bool operand to PyTorch too (`x - True`: its wrapped number's dtype)
    bb = (isinstance(b, Tensor) and b.dtype == np.bool_) or (
        type(b) is bool and isinstance(a, Tensor)
    )
    ba = ba or (type(a) is bool and isinstance(b, Tensor))
    if ba and bb:
        raise GradcliError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
            "`^` or `logical_xor()` operator instead."
        ).pytorch()
    if ba or bb:
        raise GradcliError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead."
        ).pytorch()


_rsub = binop(B.rsub)


def rsub_t(input: Any, other: Any) -> Tensor:  # noqa: A002 - PyTorch's keyword
    """`torch.rsub(input, other)`: other - input (RsubBackward0 of two tensors; of a number
    `other`, the number minus the tensor, RsubBackward1, as `other - input` computes it)."""
    if not isinstance(other, Tensor):
        return sub_op(other, input)
    if other.dtype == np.bool_ or (isinstance(input, Tensor) and input.dtype == np.bool_):
        return sub_t(other, input)  # (refused in PyTorch's words)
    return _rsub(input, other)


mul_t = binop(B.mul)


div_t = binop(B.div, floating=True)


def pow(input: Any, exponent: Any) -> Tensor:
    if isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        if isinstance(exponent, bool):  # a bool scalar does not promote (`x ** True`)
            if input.dtype == np.bool_:
                return Tensor(input.data.copy() if exponent else np.ones_like(input.data))
            exponent = int(exponent)
        if isinstance(exponent, np.integer):  # a NumPy number, as PyTorch's parser reads it
            exponent = int(exponent)
        elif isinstance(exponent, (np.floating, np.bool_)):
            exponent = float(exponent)
        if isinstance(exponent, complex):
            # a complex exponent makes the result complex (a float32 base complex64): the
            # tensor-tensor power of the promoted operands, named as PyTorch's tensor-scalar
            return apply(B.pow, *operands(input, exponent), label="PowBackward0")
        if not isinstance(exponent, (int, float)):
            raise GradcliError(
                f"pow(): exponent must be a number or Tensor, not {typename(exponent)}"
            )
        if input.dtype.kind not in "fc":
            if isinstance(exponent, float):
                input = floating(input)
            elif exponent < 0:
                raise GradcliError(
                    "Integers to negative integer powers are not allowed.",
                    hint="make the base a float tensor first: x.float() ** " + str(exponent),
                )
        # (the kernel takes the exponent in the base's dtype, float32 and float64 bases
        # excepted (their exponent is a double): PyTorch's overflow error where it does not
        # fit, `int8_tensor ** 300`, `half_tensor ** 70000`)
        if input.dtype not in (np.float32, np.float64):
            dtypes.checked_scalar(exponent, input.dtype)
        if isinstance(exponent, int) and builtins.abs(exponent) > 10_000:
            raise GradcliError(f"exponent {exponent} is too large", hint="use a float exponent")
        return apply(E.pow_scalar, input, p=exponent)
    if not isinstance(input, Tensor) and isinstance(exponent, Tensor):
        if isinstance(input, bool):  # `True ** x`: the bool does not promote
            if exponent.dtype == np.bool_:
                raise GradcliError("\"pow\" not implemented for 'Bool'").mirror(
                    "NotImplementedError"
                )
            input = int(input)
        if isinstance(input, complex) or exponent.dtype.kind == "c":
            # complex: the tensor-tensor power of the promoted operands (PowBackward2)
            return _row_major(apply(B.pow, *operands(input, exponent), label="PowBackward2"))
        if not isinstance(input, (int, float)):
            raise GradcliError(f"pow(): base must be a number or Tensor, not {typename(input)}")
        if exponent.dtype.kind != "f":
            if isinstance(input, float):
                exponent = floating(exponent)
            else:
                a, b = operands(input, exponent)
                return _row_major(apply(B.pow, a, b))
        return _row_major(apply(E.rpow_scalar, exponent, base=float(input)))
    a, b = operands(input, exponent)
    return apply(B.pow, a, b)


_MATH_NAMES = frozenset(
    "exp log sin cos tan sqrt tanh sinh cosh asin acos atan asinh acosh atanh log1p expm1 log2 "
    "log10 erf erfc exp2 floor ceil trunc".split()
)


def unary(op: Any, keeps_integers: bool = False) -> Callable[..., Tensor]:
    """A function of one tensor; unless `keeps_integers`, an integer input is computed in the
    default float dtype (as PyTorch's `exp`, `sin`, ... of an int64 tensor)."""

    def f(input: Any) -> Tensor:  # noqa: A002 - PyTorch's keyword: torch.exp(input=x)
        if type(input) is Tensor and input.data.dtype.kind == "f":
            return apply(op, input)  # the common case: what the lines below do with a float one
        if not isinstance(input, Tensor):
            # PyTorch's parser takes no number here (torch.exp(2.0) is its TypeError)
            raise ArgumentTypeError(
                op.name,
                "input",
                1,
                "Tensor",
                pytype_name(input),
                hint=f"make it a tensor first: torch.{op.name}(torch.tensor(...)), or use "
                f"math.{op.name} on a Python number"
                if op.name in _MATH_NAMES
                else f"make it a tensor first: torch.{op.name}(torch.tensor(...))",
            )
        return apply(op, input if keeps_integers else floating(input))

    f.__name__ = op.name
    return f


_neg = unary(E.neg, keeps_integers=True)


def neg(input: Any) -> Tensor:
    """`-x`; refused on a bool tensor, in PyTorch's words."""
    if isinstance(input, Tensor) and input.dtype == np.bool_:
        raise GradcliError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
            "to invert a mask, use the `~` or `logical_not()` operator instead."
        ).pytorch()
    return _neg(input)


exp = unary(E.exp)


log = unary(E.log)


log1p = unary(E.log1p)


sqrt = unary(E.sqrt)


_abs = unary(E.abs, keeps_integers=True)


def abs(input: Any) -> Tensor:  # noqa: A001 - torch.abs
    """|x|; refused on a bool tensor, in PyTorch's words (ATen's abs has no bool loop)."""
    if isinstance(input, Tensor) and input.dtype == np.bool_:
        raise GradcliError("\"abs_cpu\" not implemented for 'Bool'").mirror("NotImplementedError")
    return _abs(input)


sin = unary(E.sin)


cos = unary(E.cos)


tan = unary(E.tan)


tanh = unary(E.tanh)


sigmoid = unary(E.sigmoid)


sign = unary(E.sign, keeps_integers=True)


erf = unary(E.erf)


def named(t: Tensor, label: str) -> Tensor:
    """Show PyTorch's grad_fn name for a result gradcli computes with a more general op."""
    if t.node is not None:
        if _GradMode.dual:
            _name_tangent(t, label)
        t.node.label = label
    return t


def _name_tangent(t: Tensor, label: str) -> None:
    """Inside a forward-AD level: t's tangent, when it is the same linear record applied to the
    tangents (`core.forward._applied`: diagonal's index, trace's sum), takes the name too, as
    PyTorch's auto_linear formula calls the op itself."""
    d = hooks.tangent(t)
    n = None if d is None else d.node
    if (
        n is not None
        and n.op is t.node.op
        and n.label == t.node.label
        and n.op.jvp_terms
        and not any(reads for _, reads in n.op.jvp_terms)
    ):
        n.label = label


def shown_over(t: Tensor, *operands: Tensor) -> Tensor:
    """t, PyTorch's one node that gradcli records as several (a reshape, an index, a sum):
    its `next_functions` show the operands PyTorch's node has, not gradcli's last record's."""
    n = t.node
    if n is not None and tuple(n.inputs) != operands:
        SHOWN_INPUTS[n] = operands
    return t


def frees_nothing(t: Tensor, since: int) -> Tensor:
    """Mark the nodes recorded since node number `since` that `t` was computed through as
    nodes a backward does not free: they make up one PyTorch node that saves nothing (a fill,
    tril, lerp by a number), so a second backward through them is allowed, as PyTorch's."""
    from ..core.graph import ancestors

    for n in ancestors([t], since=since):
        n.keeps = False
    return t


def addmm_bias(out: Tensor, x: Tensor, w: Tensor, bias: Any) -> Tensor:
    """F.linear's sum `out + bias` (out = x @ w.t(), made by F.linear for this sum alone),
    AddmmBackward0, rounded as PyTorch's addmm on MKL adds the bias (`linalg.linear_sum`: fused
    into a product of inner size 1, first in the blocked chains of more than 384 inner);
    elsewhere after the rounded product."""
    s = _addmm_sum(out, x, w, bias)
    if s.node is not None and out.node is not None and not _GradMode.vmapped:
        # The product is F.linear's own, made for this sum: no rule reads it, so the graph
        # keeps its shape only (PyTorch's fused addmm has no such intermediate; a model's
        # every layer held one).
        drop_unread(s, out.node.seq)
    return s


def _addmm_sum(out: Tensor, x: Tensor, w: Tensor, bias: Any) -> Tensor:
    s = named(add_t(out, bias), "AddmmBackward0")
    b = bias.data if isinstance(bias, Tensor) else None
    if b is None or x.ndim < 2 or w.ndim != 2 or not s.data.flags.writeable:
        return s
    if s.data.dtype == dtypes.BF16 and s.data.shape == out.data.shape:
        s.data[...] = bf16_addmm(x.data.reshape(-1, x.shape[-1]), w.data.T, b).reshape(s.shape)
        return s
    if _GradMode.vmapped and (batched(x) or batched(w) or batched(bias)):
        return s  # vmap decomposes addmm: add(bias, mm(x, w.t())), the bias added after
    if s.data.shape != out.data.shape or x.data.size == 0:
        return s
    if (
        x.ndim == 2
        and x.shape[1] != 1
        and s.data.dtype == np.float32
        and cpu.mkl_avx2()
        and _bias_after(x.data, w.data.T)
    ):
        # `out` is the avx2 family's product of these very arrays (F.linear's x @ w.t()), and
        # its kernel here adds the bias after the rounded product: `out + bias`, which s is
        # (inner size 1 aside: the matmul record's signed zeros of its single products)
        return s
    x2 = x.data.reshape(-1, x.shape[-1]) if x.ndim > 2 else x.data
    v = L.linear_sum(np.ascontiguousarray(x2) if x.ndim > 2 else x2, w.data.T, b)
    if v is not None:
        s.data[...] = v.reshape(s.data.shape)
    return s


def _bias_after(x: np.ndarray, y: np.ndarray) -> bool:
    from .gemm_avx2 import bias_after  # (linalg loads it with the avx2 family's products)

    return bias_after(x, y)


def bf16_addmm(m1: np.ndarray, m2: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """bias + m1 @ m2 of bfloat16 matrices as PyTorch's CPU addmm gives it: rounded to
    bfloat16 once (its kernel accumulates in float32 and adds the bias there, measured 2.13),
    in its kernels' order (`core.bf16.reduced_addmm`); where that is not modelled, the
    certain answer or a refusal where the sum's order would decide the last bit
    (`core.bf16.bf16_product`)."""
    from ..core.bf16 import bf16_product, reduced_addmm

    out = reduced_addmm(m1, m2, bias, 1.0, 1.0)
    if out is not None:
        return out
    f32 = np.float32
    return dtypes.round_bf16(bf16_product(m1.astype(f32), m2.astype(f32), bias.astype(f32)))


def add_op(a: Any, b: Any) -> Tensor:
    """`a + b`: with a number on the left PyTorch runs b.__radd__(a), b.add(a) (the tensor is
    the first of AddBackward0's next_functions)."""
    return add_t(b, a) if isinstance(b, Tensor) and not isinstance(a, Tensor) else add_t(a, b)


def mul_op(a: Any, b: Any) -> Tensor:
    """`a * b`: with a number on the left PyTorch runs b.mul(a) (see `add_op`)."""
    # The commonest product, `x * 2.0` (or `2.0 * x`) of a float tensor: what `operands` makes
    # of it (the number as a wrapped 0-d tensor of the tensor's dtype), without its dispatch.
    if type(a) is Tensor:
        kb = type(b)
        if (kb is float or kb is int) and a.data.dtype.kind == "f" and a.data.dtype not in _REDUCED:
            return apply(B.mul, a, wrapped_number(b, a.data.dtype))
    elif type(b) is Tensor:
        ka = type(a)
        if (ka is float or ka is int) and b.data.dtype.kind == "f" and b.data.dtype not in _REDUCED:
            return apply(B.mul, b, wrapped_number(a, b.data.dtype))
    return mul_t(b, a) if isinstance(b, Tensor) and not isinstance(a, Tensor) else mul_t(a, b)


def _row_major(out: Tensor) -> Tensor:
    """A power of a number base (`2 ** x`): ATen's result is made row-major before its kernel
    runs, whatever the exponent's layout."""
    out.data = row_major(out.data)
    return out


def sub_op(a: Any, b: Any) -> Tensor:
    """`a - b`: with a number on the left PyTorch runs rsub(b, a): RsubBackward1, whose one
    input is the tensor (in float16 too: its kernel takes the number as a half, in no
    opmath)."""
    if type(a) in (int, float) and isinstance(b, Tensor) and b.dtype.kind == "f":
        from .elementwise import rsub_scalar

        return laid_out(apply(rsub_scalar, b, c=a), a, b)  # (ATen wraps the number)
    out = sub_t(a, b)
    return out if isinstance(a, Tensor) else named(out, "RsubBackward1")


def div_op(a: Any, b: Any) -> Tensor:
    """`a / b`: PyTorch computes number / x as reciprocal(x) * number (`Tensor.__rdiv__`): a
    MulBackward0 of a ReciprocalBackward0, and float32 values rounded twice (3 / x is not
    always the correctly rounded quotient)."""
    if isinstance(a, Tensor) or not isinstance(b, Tensor):
        return div_t(a, b)
    from .elementwise import reciprocal

    tb = b if b.dtype.kind in "fc" else cast(b, Settings.default_dtype)
    return mul_t(apply(reciprocal, tb), a)


def matmul(input: Any, other: Any) -> Tensor:
    return product(input, other)


def product(input: Any, other: Any, label: str | None = None) -> Tensor:
    """matmul, its node named `label` (torch.bmm's BmmBackward0) instead of matmul's own: the
    name is known as the node is made (forward AD's tangent is computed then)."""
    input, other = checked_operands(input, other)
    # The node PyTorch's matmul ends with: a vector times a matrix is (1, n) @ matrix
    # squeezed in place (SqueezeBackward4, and the result is at version 1); a matrix times a
    # batch is computed transposed and made contiguous (CloneBackward0).
    label = label or (
        "DotBackward0"
        if input.ndim == other.ndim == 1
        else "MvBackward0"
        if other.ndim == 1 and input.ndim == 2
        else "MmBackward0"
        if input.ndim == other.ndim == 2
        else "SqueezeBackward4"
        if input.ndim == 1 and other.ndim == 2
        else "CloneBackward0"
        if input.ndim == 2 and other.ndim >= 3
        else "UnsafeViewBackward0"
    )
    out = apply(L.matmul, input, other, label=label)
    if _GradMode.vmapped and out.data.size:
        batched = vmap_product(input, other)
        if batched is not None and batched.shape == out.shape:
            out.data[...] = batched
    if input.ndim == 1 and other.ndim == 2 and not out._inf:
        bumped(out)
    return out


def checked_operands(input: Any, other: Any) -> tuple[Tensor, Tensor]:
    """matmul's operands after its checks (each error in PyTorch's words), routed as PyTorch
    hands them to its kernel (`_bmm_route`); nothing is computed."""
    input, other = (
        tensor_param(input, "matmul", "input", 1),
        tensor_param(other, "matmul", "other", 2),
    )
    if input.ndim == 0 or other.ndim == 0:
        raise GradcliError(
            f"both arguments to matmul need to be at least 1D, but they are {input.ndim}D and "
            f"{other.ndim}D"
        )
    if input.dtype == other.dtype and input.dtype in (np.float32, np.float64):
        input, other = _bmm_route(input, other)  # (before the check: bmm's error if so)
    batch = matmul_check(input.shape, other.shape)
    if input.dtype != other.dtype:
        raise _matmul_dtype_error(input, other)
    if input.dtype == np.bool_:
        # (ATen has no bool product: the kernel its route reaches names itself)
        nx, ny = input.ndim, other.ndim
        kernel = (  # (a batched right operand: bmm; a batched left one folds into rows)
            "dot"
            if nx == ny == 1
            else "addmv_impl_cpu"
            if ny == 1
            else "bmm"
            if ny >= 3
            else "addmm_impl_cpu_"
        )
        raise GradcliError(f"\"{kernel}\" not implemented for 'Bool'").mirror("NotImplementedError")
    rows = (input.shape[-2],) if input.ndim >= 2 else ()
    cols = (other.shape[-1],) if other.ndim >= 2 else ()
    size_check(tuple(batch) + rows + cols, "the matmul result")
    return input, other


def vmap_product(x: Tensor, y: Tensor) -> np.ndarray | None:
    """Inside vmap, the float32 or float64 product of a batch element as PyTorch's batching
    rules compute it: PyTorch runs the function once, on the whole batch, and turns a dot, mv
    or mm of a batched operand into one product of the batch (a folded mm, an mv of the
    stacked rows, a bmm; functorch's BatchRulesLinearAlgebra), whose float32 sums are in
    another order than one element's product. gradcli runs the function once per element:
    here the element's result is taken from that batched product (`linalg.aten_matmul`), the
    other elements' rows what they are (an input of the vmap: its own array) or zeros (a
    result computed in the function: no element's result depends on another row's values in
    any of the kernels). None where the element's own product stands: another dtype, a
    product of more than 2-D operands, operands batched at two levels, a batch too large to
    redo."""
    if x.dtype != y.dtype or x.dtype not in _VMAP_DTYPES or y.ndim > 2:
        return None
    if x.ndim > 2 and not (x.requires_grad or y.requires_grad or L._folds(x.data, y.data, 0, 0)):
        return None  # (matmul's bmm of the expanded batches: not taken here)
    levels = [lv for lv in _GradMode.vmapped if x in lv or y in lv]
    if len(levels) != 1:
        return None
    lv = levels[0]
    size, i = lv.size, getattr(lv, "index", None)
    bx, by = x in lv, y in lv
    if i is None or not 0 <= i < size:
        return None
    if size * (x.data.size if bx else 0) + size * (y.data.size if by else 0) > _VMAP_REDO:
        return None
    work = max(x.data.size, 1) * max(y.shape[-1], 1) * size  # the batched product's
    if work > _VMAP_WORK or work * size > _VMAP_TOTAL:
        return None
    px = lv.physical(x) if bx else x.data
    py = lv.physical(y) if by else y.data
    gx, gy = lv.outside_grad(x), lv.outside_grad(y)
    with np.errstate(all="ignore"):
        if x.ndim == 1 and y.ndim == 1:  # dot_batch_rule
            if bx and by:
                return L.aten_matmul(L.unsqueeze_view(px, 1), L.unsqueeze_view(py, 2), gx, gy)[
                    i, 0, 0
                ]
            if bx:
                return L.aten_matmul(px, py, gx, gy)[i]
            return L.aten_matmul(px, py.T, gx, gy)[i]
        if x.ndim == 2 and y.ndim == 1:  # mv_batch_rule
            if bx and by:
                return L.aten_matmul(px, L.unsqueeze_view(py, 2), gx, gy)[i, :, 0]
            if bx:
                return L.aten_matmul(px, py, gx, gy)[i]
            return L.aten_matmul(px, py.T, gx, gy)[:, i]
        if x.ndim > 2:
            # matmul folds the leading dims into the rows (as for a forward-mode tangent with
            # its basis dim: vmap over jvp), then the batching rule of the mv or mm
            lead = x.shape[:-1]
            rows = math.prod(lead)
            px = np.reshape(px, (size, rows, x.shape[-1]) if bx else (rows, x.shape[-1]))
            if y.ndim == 1:
                out = L.aten_matmul(px, py, gx, gy) if bx else L.aten_matmul(px, py.T, gx, gy).T
                return out[i].reshape(lead)
            return L.aten_matmul(px, py, gx, gy)[i].reshape(*lead, y.shape[-1])
        if x.ndim == 1:  # matmul: x.unsqueeze(0).mm(y).squeeze_(0)
            px = L.unsqueeze_view(px, 1 if bx else 0)
        # mm_batch_rule: at::matmul with the batch dims in front
        out = L.aten_matmul(px, py, gx, gy)[i]
        return out[0] if x.ndim == 1 else out


# vmap's batched products are redone for every element: bounded, past which the element's own
# product stands (PyTorch's last bits may differ there: README, "Where gradcli differs")
_VMAP_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
_VMAP_REDO = 1 << 22  # elements of the batched operands
_VMAP_WORK = 1 << 26  # multiply-adds of the batched product
_VMAP_TOTAL = 1 << 31  # and of all the elements' batched products together


def _bmm_route(x: Tensor, y: Tensor) -> tuple[Tensor, Tensor]:
    """The operands as PyTorch's matmul hands a matrix and a batch to bmm rather than folding
    the batch into one mm: a matrix that does not require grad is expanded to the batch's
    shape (on the left always, on the right when the batch's leading axes cannot be folded
    into its rows without a copy). With grad, or foldable, matmul folds (`_matmul_fwd`)."""
    if x.ndim >= 3 and y.ndim == 2 and not y.requires_grad and not _foldable(x.data):
        return x, _expanded(y, x.shape[:-2] + y.shape)
    if x.ndim == 2 and y.ndim >= 3 and not x.requires_grad:
        return _expanded(x, y.shape[:-2] + x.shape), y
    return x, y


def _expanded(t: Tensor, shape: tuple[int, ...]) -> Tensor:
    """t broadcast to `shape` outside the graph, with its forward-AD tangent broadcast too
    (inside a dual level: the product's tangent reads it)."""
    out = Tensor(np.broadcast_to(t.data, shape))
    if _GradMode.dual:
        from ..core import dual

        d = dual.tangent(t)
        if d is not None:
            lead = d.shape[: d.ndim - t.ndim]
            dual.set_tangent(out, apply(S.expand, d, shape=lead + shape))
    return out


def _foldable(a: np.ndarray) -> bool:
    """Whether the leading axes of `a` fold into its rows as a view (PyTorch's should_fold)."""
    st, sh = a.strides, a.shape
    return a.size == 0 or all(st[i] == st[i + 1] * sh[i + 1] for i in range(a.ndim - 2))


def _positive(x: Tensor) -> Tensor:
    """`+x`: x itself, as PyTorch's; refused for a bool tensor, in its words."""
    if x.dtype == np.bool_:
        raise GradcliError("The `+` operator, on a bool tensor is not supported.").pytorch()
    return x


def _matmul_dtype_error(x: Tensor, y: Tensor) -> GradcliError:
    """PyTorch does not promote a matrix product: operands of two dtypes are refused by the
    kernel matmul dispatches to, in its words."""
    a, b = dtypes.scalar_type_name(x.dtype), dtypes.scalar_type_name(y.dtype)
    if x.ndim == 1 and y.ndim == 1:
        message = f"dot : expected both vectors to have same dtype, but found {a} and {b}"
    elif y.ndim == 1:
        message = f"addmv input tensors must have the same dtype, but got {b}, {a}, and {b}"
    elif y.ndim == 2:
        message = (
            "expected m1 and m2 to have the same dtype, but got: "
            f"{dtypes.cpp_type_name(x.dtype)} != "
            f"{dtypes.cpp_type_name(y.dtype)}"
        )
    else:
        message = f"expected scalar type {a} but found {b}"
    return GradcliError(message, hint="convert one of them first (y.float(), x.double())")


def matmul_check(xs: tuple[int, ...], ys: tuple[int, ...]) -> tuple[int, ...]:
    """The batch shape of `x @ y` (shapes of at least 1 dimension), or the error PyTorch's
    matmul raises from the kernel it dispatches to (dot, mv, mm on folded batches, bmm)."""
    k1 = xs[-1]
    k2 = ys[-2] if len(ys) >= 2 else ys[0]
    if len(xs) == 1 and len(ys) == 1:
        if k1 != k2:
            raise GradcliError(
                f"inconsistent tensor size, expected tensor [{k1}] and src [{k2}] to have the "
                f"same number of elements, but got {k1} and {k2} elements respectively"
            )
        return ()
    if len(ys) == 1:  # mv, batches of x folded into its rows
        if k1 != k2:
            rows = math.prod(xs[:-1])
            raise GradcliError(
                f"size mismatch, got input ({rows}), mat ({rows}x{k1}), vec ({k2})",
                hint="the last dimension of the left operand must equal the vector's length",
            )
        return tuple(xs[:-2])
    if len(ys) == 2:  # mm, the batches of x folded into its rows
        if k1 != k2:
            rows = math.prod(xs[:-1])
            raise GradcliError(
                f"mat1 and mat2 shapes cannot be multiplied ({rows}x{k1} and {k2}x{ys[-1]})",
                found=f"shapes {list(xs)} @ {list(ys)}",
                expected="the last dimension of the left operand to equal the first (of the "
                "last two) of the right",
                hint="transpose one of them (x.T or x.t())?",
            )
        return tuple(xs[:-2])
    # bmm on the broadcast batches
    bx = xs[:-2]
    by = ys[:-2]
    batch = broadcast_shapes_checked(bx, by)
    if k1 != k2:
        n = math.prod(batch)
        raise GradcliError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{n}, {k1}] but "
            f"got: [{n}, {k2}]."
        )
    return batch


def broadcast_shapes_checked(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Two shapes broadcast, or PyTorch's error naming the mismatching dimension."""
    n = max(len(a), len(b))
    pa, pb = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    out = []
    for i, (u, v) in enumerate(zip(pa, pb)):
        if u != v and u != 1 and v != 1:
            raise GradcliError(
                f"The size of tensor a ({u}) must match the size of tensor b ({v}) at "
                f"non-singleton dimension {i}"
            )
        out.append(v if u == 1 else u)
    return tuple(out)


def swap(fn: Callable[[Any, Any], Tensor]) -> Callable[[Any, Any], Tensor]:
    return lambda a, b: fn(b, a)


# The operators, and the elementwise methods VJP rules are written with.
OPERATORS: dict[str, Callable[..., Any]] = {
    "__add__": add_t,
    # PyTorch's reflected operators run on the tensor: `2 + x` is x.add(2), `2 * x` is x.mul(2)
    # (the tensor is the first input of AddBackward0 / MulBackward0's next_functions).
    "__radd__": add_t,
    "__sub__": sub_t,
    "__rsub__": lambda a, b: sub_op(b, a),
    "__mul__": mul_t,
    "__rmul__": mul_t,
    "__truediv__": div_t,
    "__rtruediv__": lambda a, b: div_op(b, a),
    "__pow__": pow,
    "__rpow__": swap(pow),
    "__matmul__": matmul,
    "__rmatmul__": swap(matmul),
    "__neg__": neg,
    "__pos__": _positive,
    "__abs__": abs,
}
METHODS: dict[str, Callable[..., Tensor]] = {
    f.__name__: f
    for f in (neg, exp, log, log1p, sqrt, abs, sin, cos, tan, tanh, sigmoid, sign, erf)
}


def _install() -> None:
    for name, fn in {**OPERATORS, **METHODS}.items():
        setattr(Tensor, name, fn)


_install()


def _load_complex() -> None:
    """Import `ops.complexnum` (its conj and real records register themselves with the backward
    pass): done by the first complex gradient, not at start-up."""
    from . import complexnum  # noqa: F401


autograd.LOAD_COMPLEX[:] = [_load_complex]
