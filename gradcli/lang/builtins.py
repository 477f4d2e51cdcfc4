"""The Python builtins a program may call (`range`, `len`, `min`, `sum`, `round`, `str`...),
checked: their arguments' types, and the limits on what they make."""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from typing import Any

from ..base import limits
from ..base.errors import GradcliError
from ..core.tensor import Tensor, typename
from ..ops import arithmetic as A
from ..surface import functional as F
from ..surface.printing import Size, format_value
from .operators import binop
from .values import Builtin, check_structure, int_check, length, seq, short

BUILTINS: dict[str, Any] = {}


def _builtin_range(*args: Any) -> range:
    if not 1 <= len(args) <= 3:
        raise GradcliError(f"range expected 1 to 3 arguments, got {len(args)}")
    for a in args:
        if isinstance(a, bool) or not isinstance(a, int):
            raise GradcliError(
                f"range() takes integers, not {typename(a)}", hint="use int(...) to convert"
            )
    if len(args) == 3 and args[2] == 0:
        raise GradcliError("range() arg 3 must not be zero")
    return range(*args)


def _builtin_len(v: Any) -> int:
    if isinstance(v, Tensor):
        return len(v)
    n = length(v)
    if n is None:
        raise GradcliError(f"object of type '{typename(v)}' has no len()")
    return n


def _num(v: Any, conv: Callable[[Any], Any]) -> Any:
    name = conv.__name__
    if isinstance(v, Tensor):
        v = v.item()
    elif isinstance(v, str):
        try:
            return int_check(conv(v.strip()))
        except ValueError:
            raise GradcliError(f"could not convert string to {name}: {short(repr(v))}") from None
    if isinstance(v, (int, float, bool)):
        try:
            return int_check(conv(v))
        except (OverflowError, ValueError):
            raise GradcliError(
                f"cannot convert {v} to an integer", hint="the value is not finite"
            ) from None
    raise GradcliError(
        f"{name}() argument must be a number, a string or a one-element tensor, not {typename(v)}"
    )


def _minmax(which: Callable[..., Any], name: str) -> Callable[..., Any]:
    def f(*args: Any) -> Any:
        items = (
            seq(args[0], f"{name}()")
            if len(args) == 1 and not isinstance(args[0], Tensor)
            else list(args)
        )
        if not items:
            raise GradcliError(f"{name}() arg is an empty sequence")
        if any(isinstance(i, Tensor) for i in items):
            if len(items) == 1 and isinstance(items[0], Tensor):
                return (F.max if name == "max" else F.min)(items[0])
            raise GradcliError(
                f"Python's {name}() of tensors is ambiguous",
                hint=f"use torch.{name}imum(a, b) or x.{name}()",
            )
        for i in items:
            check_structure(i, f"{name}()")
        try:
            return which(items)
        except TypeError as e:
            raise GradcliError(f"{name}(): {e}") from None

    return f


def _builtin_sum(items: Any, start: Any = 0) -> Any:
    total = start
    for v in seq(items, "sum()"):
        total = binop(ast.Add(), total, v)
    return total


def _builtin_round(v: Any, nd: Any = None) -> Any:
    x = v.item() if isinstance(v, Tensor) else v
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise GradcliError(f"round() takes a number, not {typename(x)}")
    if nd is None:
        if isinstance(x, float) and not math.isfinite(x):
            raise GradcliError(f"cannot round {x} to an integer", hint="the value is not finite")
        return round(x)
    if isinstance(nd, bool) or not isinstance(nd, int):
        raise GradcliError(f"round(): ndigits must be an integer, not {typename(nd)}")
    # Beyond +-400 digits every finite float and every int gradcli allows rounds the same, and
    # round(int, -10**12) would compute 10**10**12.
    return round(x, max(-400, min(400, nd)))


def _builtin_abs(v: Any) -> Any:
    if isinstance(v, Tensor):
        return A.abs(v)
    if isinstance(v, (int, float)):
        return abs(v)
    raise GradcliError(f"bad operand type for abs(): '{typename(v)}'")


def size_builtin(s: Any = ()) -> Size:
    items = seq(s, "torch.Size()")
    for i in items:
        if isinstance(i, bool) or not isinstance(i, int):
            raise GradcliError(f"torch.Size() takes integers, not {typename(i)}")
    return Size(tuple(items))


def builtin_str(v: Any = "") -> str:
    check_structure(v, "str()", tensor_cost=100)
    text = format_value(v)
    limits.STRING_CHARS.check(len(text), "the length of the string")
    return text


BUILTINS.update(
    {
        "range": Builtin("range", _builtin_range),
        "len": Builtin("len", _builtin_len),
        "float": Builtin("float", lambda v=0.0: _num(v, float)),
        "int": Builtin("int", lambda v=0: _num(v, int)),
        "bool": Builtin("bool", lambda v=False: bool(v)),
        "abs": Builtin("abs", _builtin_abs),
        "min": Builtin("min", _minmax(min, "min")),
        "max": Builtin("max", _minmax(max, "max")),
        "sum": Builtin("sum", _builtin_sum),
        "round": Builtin("round", _builtin_round),
        "list": Builtin("list", lambda v=(): seq(v, "list()")),
        "tuple": Builtin("tuple", lambda v=(): tuple(seq(v, "tuple()"))),
        "enumerate": Builtin(
            "enumerate", lambda v, start=0: list(enumerate(seq(v, "enumerate()"), _index(start)))
        ),
        "zip": Builtin("zip", lambda *vs: list(zip(*[seq(v, "zip()") for v in vs]))),
        "str": Builtin("str", builtin_str),
        "None": None,
        "True": True,
        "False": False,
        # `if __name__ == "__main__":` in pasted scripts.
        "__name__": "__main__",
    }
)


def _index(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise GradcliError(f"expected an integer, not {typename(v)}")
    return v
