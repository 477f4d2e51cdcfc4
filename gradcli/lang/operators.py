"""Python's binary operators and comparisons on a program's values: numbers (with limits on
integer growth), strings and lists, and tensors (through `ops.arithmetic` / `surface`)."""

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
from .values import DType, check_structure, int_check


def binop(op: ast.operator, a: Any, b: Any) -> Any:
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        table = _TENSOR_BINOPS.get(type(op))
        if table is None:
            raise GradcliError(
                f"operator {OPNAMES.get(type(op), '?')} is not supported for tensors"
            )
        return table(a, b)
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return _seq_binop(op, a, b)
    if isinstance(a, str) or isinstance(b, str):
        if isinstance(op, ast.Add) and isinstance(a, str) and isinstance(b, str):
            limits.STRING_CHARS.check(len(a) + len(b), "the length of the string")
            return a + b
        raise GradcliError("string operations other than `+` are not supported")
    if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        raise GradcliError(
            f"unsupported operand types for {OPNAMES.get(type(op), '?')}: "
            f"'{typename(a)}' and '{typename(b)}'"
        )
    if isinstance(op, ast.Pow):
        if isinstance(a, int) and isinstance(b, int) and abs(a) >= 2 and b > 0:
            # a**b has about b*log2|a| bits: refuse a huge one before computing it.
            bits = b * math.log2(abs(a))
            if bits > limits.INT_BITS.value + 1:
                limits.INT_BITS.check(math.ceil(bits), "the size of an integer in bits")
        try:
            r = a**b
        except OverflowError:
            raise GradcliError("number too large (overflow)") from None
        if isinstance(r, complex):
            raise GradcliError(
                "a negative number to a fractional power is complex",
                hint="gradcli computes with real numbers",
            )
        return int_check(r)
    if isinstance(op, ast.MatMult):
        raise GradcliError("`@` needs tensors")
    return int_check(_PY_BINOPS[type(op)](a, b))


def _seq_binop(op: ast.operator, a: Any, b: Any) -> Any:
    if isinstance(op, ast.Add) and isinstance(a, (list, tuple)) and type(a) is type(b):
        limits.LIST_ITEMS.check(len(a) + len(b), f"the length of the {typename(a)}")
        return a + b
    if isinstance(op, ast.Mult):
        seq, n = (a, b) if isinstance(a, (list, tuple)) else (b, a)
        if isinstance(n, int) and not isinstance(n, bool):
            limits.LIST_ITEMS.check(len(seq) * max(n, 0), f"the length of the {typename(seq)}")
            return seq * n
    raise GradcliError(
        f"unsupported operand types for {OPNAMES.get(type(op), '?')}: "
        f"'{typename(a)}' and '{typename(b)}'",
        hint="make tensors with torch.tensor(...) to compute with them",
    )


_PY_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
}


_TENSOR_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: A.add_t(a, b),
    ast.Sub: lambda a, b: A.sub_op(a, b),
    ast.Mult: lambda a, b: A.mul_t(a, b),
    ast.Div: lambda a, b: A.div_op(a, b),
    ast.Pow: lambda a, b: A.pow(a, b),
    ast.MatMult: lambda a, b: A.matmul(a, b),
}


OPNAMES = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.MatMult: "@",
}


def compare(op: ast.cmpop, a: Any, b: Any) -> Any:
    if isinstance(op, (ast.Is, ast.IsNot)):
        if b is not None and a is not None:
            raise GradcliError("`is` only compares with None")
        r = a is b
        return r if isinstance(op, ast.Is) else not r
    if isinstance(a, DType) and isinstance(b, DType) and isinstance(op, (ast.Eq, ast.NotEq)):
        return (a.np == b.np) == isinstance(op, ast.Eq)
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        f = {
            ast.Lt: F.lt,
            ast.LtE: F.le,
            ast.Gt: F.gt,
            ast.GtE: F.ge,
            ast.Eq: F.eq,
            ast.NotEq: F.ne,
        }[type(op)]
        return f(a, b)
    ok = (int, float, str, type(None), tuple, list)
    if not isinstance(a, ok) or not isinstance(b, ok):
        raise GradcliError(f"cannot compare '{typename(a)}' and '{typename(b)}'")
    check_structure(a, "the comparison")
    check_structure(b, "the comparison")
    try:
        return {
            ast.Lt: lambda: a < b,
            ast.LtE: lambda: a <= b,
            ast.Gt: lambda: a > b,
            ast.GtE: lambda: a >= b,
            ast.Eq: lambda: a == b,
            ast.NotEq: lambda: a != b,
        }[type(op)]()
    except TypeError:
        raise GradcliError(f"cannot compare '{typename(a)}' and '{typename(b)}'") from None
