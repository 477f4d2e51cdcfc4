"""PyTorch's argument conventions for the elementwise records that need more than "a float
tensor in, a float tensor out" (`ops.arithmetic.unary`): the rounding functions (an integer
tensor is returned as it is), `round(decimals=)`, `frac`, `nan_to_num`, `sgn`, `heaviside`,
`atan2`, and the divisions that round and the remainders (`//`, `%`, `floor_divide`,
`remainder`, `fmod`, `div(rounding_mode=)`), with PyTorch's dtypes, labels and errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core import dtypes as D
from ..core.dtypes import scalar_type_name
from ..core.op import Op, apply
from ..core.tensor import Tensor, typename
from ..ops import binary as B
from ..ops import elementwise as E
from ..ops.arithmetic import abs as E_abs
from ..ops.arithmetic import div_t, named, operands, sign, tensor_arg, tensor_param


def _not_for(kernel: str, x: Tensor) -> GradcliError:
    return GradcliError(f"\"{kernel}\" not implemented for '{scalar_type_name(x.dtype)}'").mirror(
        "NotImplementedError"
    )


def rounding(op: Op, kernel: str) -> Callable[[Any], Tensor]:
    """floor / ceil / trunc: an integer tensor is already whole (a copy of it is the result,
    as in PyTorch); a bool tensor is refused in PyTorch's words."""

    def f(input: Any) -> Tensor:
        x = tensor_param(input, op.name, "input", 1)
        if x.dtype == np.bool_:
            raise _not_for(kernel, x)
        if x.dtype.kind != "f":
            return Tensor(x.data.copy())
        return apply(op, x)

    f.__name__ = op.name
    return f


floor = rounding(E.floor, "floor_vml_cpu")
ceil = rounding(E.ceil, "ceil_vml_cpu")
trunc = rounding(E.trunc, "trunc_vml_cpu")


def round(input: Any, *, decimals: Any = None) -> Tensor:  # noqa: A001 - torch.round
    """Halves to even; `decimals=` (keyword only, as PyTorch's) rounds to that many decimal
    places (negative: to tens, hundreds...)."""
    x = tensor_arg(input, "input")
    if decimals is None:
        if x.dtype == np.bool_:
            raise _not_for("round_vml_cpu", x)
        return Tensor(x.data.copy()) if x.dtype.kind != "f" else apply(E.round, x)
    if isinstance(decimals, bool) or not isinstance(decimals, int):
        raise GradcliError(
            f"round(): argument 'decimals' must be int, not {typename(decimals)}"
        ).mirror("TypeError")
    if x.dtype.kind != "f":
        raise _not_for("round_cpu", x)
    return apply(E.round, x, decimals=decimals, label="RoundBackward1")


def frac(input: Any) -> Tensor:
    x = tensor_arg(input, "input")
    if x.dtype.kind != "f":
        raise _not_for("frac_cpu", x)
    return apply(E.frac, x)


def _float_or_none(v: Any, name: str) -> float | None:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise GradcliError(
            f"nan_to_num(): argument '{name}' must be float, not {typename(v)}"
        ).mirror("TypeError")
    return float(v)


def nan_to_num(input: Any, nan: Any = 0.0, posinf: Any = None, neginf: Any = None) -> Tensor:
    """nan -> `nan` (0.0), inf -> `posinf` (the dtype's largest), -inf -> `neginf` (its
    smallest); values beyond the dtype's range become +-inf, as PyTorch's."""
    x = tensor_arg(input, "input")
    params = {
        "nan": _float_or_none(nan, "nan") or 0.0,
        "posinf": _float_or_none(posinf, "posinf"),
        "neginf": _float_or_none(neginf, "neginf"),
    }
    if x.dtype.kind != "f":
        return Tensor(x.data.copy())
    return apply(E.nan_to_num, x, **params)


def sgn(input: Any) -> Tensor:
    """torch.sgn: sign for real tensors, z / |z| for complex ones (0 at 0) (SgnBackward0)."""
    if isinstance(input, Tensor) and input.dtype.kind == "c":
        r = E_abs(input)
        zero = (r.data == 0).astype(r.dtype)
        unit = div_t(input, r + Tensor(zero))
        if not zero.any():
            return named(unit, "SgnBackward0")
        # (times 0 at 0: PyTorch's gradient there is 0, as its value; the product by a real
        # mask would turn the other elements' signed zeros (z = -1j: -0 - 1j) into +0, so
        # their values are z / |z| as they were, as ATen's sgn kernel gives them)
        out = apply(B.mul, *operands(unit, Tensor(1 - zero)), label="SgnBackward0")
        keep = zero == 0
        out.data[keep] = unit.data[keep]
        return out
    return named(sign(input), "SgnBackward0")


def _two_tensors(fn: str, input: Any, other: Any, second: str = "other") -> None:
    for pos, (name, v) in enumerate((("input", input), (second, other)), 1):
        if not isinstance(v, Tensor):
            raise GradcliError(
                f"{fn}(): argument '{name}' (position {pos}) must be Tensor, not {typename(v)}"
            ).mirror("TypeError")


def heaviside(input: Any, values: Any) -> Tensor:
    """0 where input < 0, `values` where input == 0, 1 where input > 0 (no derivative in
    PyTorch: the result's grad_fn is NotImplemented and a backward through it fails)."""
    _two_tensors("heaviside", input, values, "values")
    if input.dtype != values.dtype:
        raise GradcliError("heaviside is not yet implemented for tensors with different dtypes.")
    a, b = operands(input, values)
    return apply(B.heaviside, a, b)


def atan2(input: Any, other: Any) -> Tensor:
    """The angle of the point (other, input): atan2(y, x), in (-pi, pi]."""
    _two_tensors("atan2", input, other)
    return apply(B.atan2, *operands(input, other, floating=True))


def _division_operands(kernel: str, a: Any, b: Any) -> tuple[Tensor, Tensor]:
    ta, tb = operands(a, b)
    if ta.dtype == np.bool_:
        raise _not_for(kernel, ta)
    return ta, tb


def floor_divide(input: Any, other: Any) -> Tensor:
    """`a // b`: rounded down (Python's //), in the operands' dtype; an integer division by
    zero fails as PyTorch's. PyTorch has no derivative for it."""
    return apply(B.floor_divide, *_division_operands("div_floor_cpu", input, other))


def remainder(input: Any, other: Any) -> Tensor:
    """`a % b`: Python's remainder (the sign of b). Its gradient is g for a and
    -g * floor(a / b) for b; a number % tensor has none in PyTorch."""
    # (The record first: `gradcli ops` lists `%` under the first record the code names.)
    op = B.remainder if isinstance(input, Tensor) else B.rremainder
    a, b = _division_operands("remainder_cpu", input, other)
    label = "RemainderBackward0" if op is B.remainder and not isinstance(other, Tensor) else None
    return apply(op, a, b, label=label)


def fmod(input: Any, other: Any) -> Tensor:
    """C's fmod (the sign of a). Its gradient is g for a and -g * trunc(a / b) for b."""
    if not isinstance(input, Tensor):
        _two_tensors("fmod", input, other)
    a, b = _division_operands("fmod_cpu", input, other)
    return apply(B.fmod, a, b, label=None if isinstance(other, Tensor) else "FmodBackward0")


_MODES = ("trunc", "floor")


def div(input: Any, other: Any, *, rounding_mode: Any = None) -> Tensor:
    """True division, or with `rounding_mode='trunc'` / `'floor'` the quotient rounded (in the
    operands' dtype, with a zero gradient, as PyTorch's)."""
    if rounding_mode is None:
        if type(other) is float:
            with D.program_float():  # (PyTorch's wrapped number: `core.forward`)
                return div_t(input, other)
        return div_t(input, other)
    if rounding_mode not in _MODES:
        raise GradcliError(
            "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
            f"'{rounding_mode}'"
        )
    a, b = _division_operands(f"div_{rounding_mode}_cpu", input, other)
    return apply(B.div_mode, a, b, rounding_mode=rounding_mode)
