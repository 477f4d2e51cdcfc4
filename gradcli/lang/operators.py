"""Python's operators and comparisons on a program's values: numbers (with limits on integer
growth), strings (`+`, `*` and `%` formatting, sized before they are made) and lists, and
tensors (through `ops.arithmetic` / `surface`)."""

from __future__ import annotations

import ast
import collections
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..core import dtypes
from ..core.inplace import inplace
from ..core.layout import iterated
from ..core.sparse import SparseCOO, SparseCSR
from ..core.sparse import refused as sparse_refused
from ..core.tensor import (
    META,
    WIDE_UINT,
    Tensor,
    _GradMode,
    check_batched_write,
    pytype_name,
    repeated_change,
    typename,
)
from ..ops import arithmetic as A
from ..ops.binary import into_dividend
from ..surface import elementwise as EW
from ..surface import functional as F
from ..surface import nn as surface_nn
from ..surface.functional import aten_inplace_name
from ..surface.printing import Size
from . import pycounter as PC
from .values import (
    FX_HOOKS,
    FX_PROXY,
    PROGRAM_INSTANCE,
    DType,
    PyType,
    check_structure,
    hashable,
    int_check,
    is_iterator,
    is_numpy_number,
    iterate,
    numpy_number,
    tensor_index,
    type_union,
)

OPNAMES = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.MatMult: "@",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
}


# `classes.program_number` (classes imports this module: it sets this when imported), the
# number an object of the program's own class stands for through its __index__.
PROGRAM_NUMBER: list[Any] = [None]
# `builtins.type_of` (builtins imports this module: it sets this when imported), the class a
# value's `type(v)` gives, for PyTorch's messages that print it (`Sequential * 1.5`).
TYPE_OF: list[Any] = [None]


def _unsupported(op: ast.operator, a: Any, b: Any, hint: str | None = None) -> GradcliError:
    symbol = "** or pow()" if isinstance(op, ast.Pow) else OPNAMES.get(type(op), "?")
    if type(a) in (SparseCOO, SparseCSR) or type(b) in (SparseCOO, SparseCSR):
        return sparse_refused(f"the operator {symbol}", SparseCSR in (type(a), type(b)))
    return GradcliError(
        f"unsupported operand type(s) for {symbol}: '{pytype_name(a)}' and '{pytype_name(b)}'",
        hint=hint,
    ).mirror("TypeError")


# What Python makes of a tensor with these: PyTorch's operators give way (NotImplemented), and
# Python tries the other side's, which has none for a tensor.
_NOT_OPERANDS = (str, list, tuple, dict, set, type(None))
_REPEATED = (str, list, tuple)
# What a tensor's operators take besides tensors: numbers and NumPy's values. Anything else (a
# function or method not called, a module, a class, a dtype) makes them give way too.
_OPERANDS = (Tensor, int, float, complex, np.generic, np.ndarray)


def _operand(v: Any) -> bool:
    return isinstance(v, _OPERANDS) or type(v) in _UNINITIALIZED


def _refused_operand(op: ast.operator, a: Any, b: Any) -> GradcliError:
    if isinstance(op, ast.Add) and isinstance(a, (list, tuple)):
        kind = "list" if isinstance(a, list) else "tuple"
        return GradcliError(f'can only concatenate {kind} (not "Tensor") to {kind}').mirror(
            "TypeError"
        )
    return _unsupported(op, a, b)


_LAZY = surface_nn.LAZY
_UNINITIALIZED = surface_nn.UNINITIALIZED
# The method of torch.Tensor an operator calls, as PyTorch names it in errors.
_OP_METHODS = {
    ast.Add: "add",
    ast.Sub: "sub",
    ast.Mult: "mul",
    ast.Div: "div",
    ast.MatMult: "matmul",
    ast.FloorDiv: "floor_divide",
    ast.Mod: "remainder",
    ast.Pow: "pow",
    ast.USub: "neg",
    ast.Eq: "__eq__",
    ast.NotEq: "__ne__",
    ast.Lt: "__lt__",
    ast.LtE: "__le__",
    ast.Gt: "__gt__",
    ast.GtE: "__ge__",
}


def _uninitialized(method: str, *values: Any) -> GradcliError:
    shown = f"<function TensorBase.pow at {id(method):#x}>" if method == "pow" else None
    return surface_nn.uninitialized_use(shown or surface_nn.tensor_method_shown(method), *values)


# The methods of a program's class Python calls for an operator: (a's, then b's reflected).
_DUNDERS = {
    ast.Add: ("__add__", "__radd__"),
    ast.Sub: ("__sub__", "__rsub__"),
    ast.Mult: ("__mul__", "__rmul__"),
    ast.Div: ("__truediv__", "__rtruediv__"),
    ast.FloorDiv: ("__floordiv__", "__rfloordiv__"),
    ast.Mod: ("__mod__", "__rmod__"),
    ast.Pow: ("__pow__", "__rpow__"),
    ast.MatMult: ("__matmul__", "__rmatmul__"),
}


def _subclass_of(cls: Any, base: Any) -> bool:
    return cls is not base and any(c is base for c in getattr(cls, "mro", ()))


def instance_binop(op: ast.operator, a: Any, b: Any) -> Any:
    """`a op b` with an instance of a program's class on either side, as Python dispatches it:
    a's method (`__add__`), then b's reflected one (`__radd__`) if b is of another class (first,
    if b's class is a subclass of a's that defines it); NotImplemented passes to the next,
    and with none left it is Python's TypeError. A tensor, a number, a list or a string on the
    left has no method for a program's class: b's reflected method is called."""
    names = _DUNDERS.get(type(op))
    instance = PROGRAM_INSTANCE[0]
    ia, ib = type(a) is instance, type(b) is instance
    if names is None:
        raise _unsupported(op, a, b)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        raise NotSupported(
            f"operator {OPNAMES.get(type(op), '?')} between a NumPy array and an instance of "
            "a program's class is not supported",
            hint="convert the array first (torch.from_numpy(a), a.tolist())",
        )
    fwd, rev = names
    calls: list = []
    if ia:
        calls.append((a, fwd, b))
    if ib and not (ia and a.cls is b.cls):
        reflected = (b, rev, a)
        if ia and _subclass_of(b.cls, a.cls) and b.special(rev) is not None:
            calls.insert(0, reflected)
        else:
            calls.append(reflected)
    for obj, name, other in calls:
        fn = obj.operator_method(name)
        if fn is not None:
            out = obj.call_special(fn, other)
            if out is not NotImplemented:
                return out
    if isinstance(op, ast.Mult) and (
        (isinstance(a, (str, list, tuple)) and ib) or (isinstance(b, (str, list, tuple)) and ia)
    ):
        # a sequence repeated by an object with __index__ (`'-' * Width(10)`), as Python's
        seq, obj = (a, b) if ib else (b, a)
        n = PROGRAM_NUMBER[0](obj, ("__index__",)) if PROGRAM_NUMBER[0] is not None else None
        if n is not None:
            return binop(op, seq, n) if seq is a else binop(op, n, seq)
    raise _unsupported(op, a, b)


_UNARY_DUNDERS = {ast.USub: "__neg__", ast.UAdd: "__pos__", ast.Invert: "__invert__"}


# The operators' method names, as `surface.uintgate` knows them.
_GATE_NAMES = {
    ast.Add: "__add__",
    ast.Sub: "__sub__",
    ast.Mult: "__mul__",
    ast.Div: "__truediv__",
    ast.FloorDiv: "__floordiv__",
    ast.Mod: "__mod__",
    ast.Pow: "__pow__",
    ast.MatMult: "__matmul__",
    ast.BitAnd: "__and__",
    ast.BitOr: "__or__",
    ast.BitXor: "__xor__",
    ast.LShift: "__lshift__",
    ast.RShift: "__rshift__",
    ast.Lt: "__lt__",
    ast.LtE: "__le__",
    ast.Gt: "__gt__",
    ast.GtE: "__ge__",
    ast.Eq: "__eq__",
    ast.NotEq: "__ne__",
    ast.USub: "__neg__",
    ast.UAdd: "__pos__",
    ast.Invert: "__invert__",
}


def _uint_gate(key: str, *operands: Any) -> None:
    """A tensor of uint16/uint32/uint64 among the operands: only where PyTorch takes it."""
    from ..surface import uintgate

    uintgate.check(key, operands)


def _scalar_with_tensor(v: Any) -> Any:
    """A NumPy scalar as PyTorch takes it beside a tensor: its Python number; a complex64 one,
    no Python complex, is read as a float (NumPy's ComplexWarning: its imaginary part lost, as
    `t * np.complex64(1j)` gives zeros in PyTorch)."""
    if v.dtype.kind == "c" and not isinstance(v, complex):
        from .values import CURRENT

        if CURRENT:
            CURRENT[-1].python_warning(
                "Casting complex values to real discards the imaginary part", "ComplexWarning"
            )
        return float(v.real)
    return v.item()


# `data.dataset_add` (set when a program first names torch.utils.data): `a + b` of datasets,
# PyTorch's `Dataset.__add__` (NotImplemented where `a` is no dataset).
DATASET_ADD: list[Any] = [None]


def binop(op: ast.operator, a: Any, b: Any) -> Any:
    if DATASET_ADD[0] is not None and isinstance(op, ast.Add):
        out = DATASET_ADD[0](a, b)
        if out is not NotImplemented:
            return out
    if (
        FX_PROXY[0] is not None
        and (type(a) is FX_PROXY[0] or type(b) is FX_PROXY[0])
        and type(a) is not str  # (`"%s" % proxy` is the string's formatting)
    ):
        return _fx_operator(op, a, b)  # (torch.fx tracing: a node of `operator.add`...)
    if PROGRAM_INSTANCE and (type(a) is PROGRAM_INSTANCE[0] or type(b) is PROGRAM_INSTANCE[0]):
        return instance_binop(op, a, b)
    if type(a) is str:
        return _str_binop(op, a, b)
    if type(a) is bytes or type(b) is bytes:
        from . import pybytes

        return pybytes.binop(op, a, b)
    if is_numpy_number(a) or is_numpy_number(b):
        if isinstance(a, Tensor) or isinstance(b, Tensor):
            if isinstance(op, ast.MatMult):  # (matmul takes no number: Python's TypeError)
                raise _unsupported(op, a, b)
            # A NumPy scalar with a tensor is the Python number of its value, as in PyTorch.
            a = _scalar_with_tensor(a) if is_numpy_number(a) else a
            b = _scalar_with_tensor(b) if is_numpy_number(b) else b
        elif isinstance(a, str) or isinstance(b, str):
            return _str_binop(op, a, b)  # `"ab" * np.int64(3)`: NumPy's integer as an index
        elif isinstance(op, ast.Mult) and (
            isinstance(a, (list, tuple)) or isinstance(b, (list, tuple))
        ):
            return _seq_binop(op, a, b)  # (`[1] + np.float32(2)` is NumPy's: not taken here)
        elif not (isinstance(a, np.ndarray) or isinstance(b, np.ndarray)):
            return _numpy_numbers(op, a, b)
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        if WIDE_UINT[0]:
            _uint_gate(_GATE_NAMES.get(type(op), "?"), a, b)
        if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
            out = _tensor_with_array(op, a, b)
            if out is not None:
                return out
        if isinstance(a, _NOT_OPERANDS) or isinstance(b, _NOT_OPERANDS):
            if isinstance(op, ast.Mult) and isinstance(
                b if isinstance(a, Tensor) else a, _REPEATED
            ):
                # Python's sequence repetition asks the tensor for its index (`[0] * t`)
                a, b = (tensor_index(a), b) if isinstance(a, Tensor) else (a, tensor_index(b))
                return binop(op, a, b)
            raise _refused_operand(op, a, b)
        if type(a) is SparseCSR and isinstance(op, ast.MatMult):  # CSR @ dense
            from ..ops.sparsemm import sparse_mm

            return sparse_mm(a.coo, b, "MmBackward0", "matmul", fused=False)
        if type(a) is SparseCOO and isinstance(op, ast.MatMult):  # sparse @ dense
            return _matmul_op(a, b)
        if not (_operand(a) and _operand(b)):  # `x + model.forward`: Python's words
            raise _unsupported(op, a, b)
        if _LAZY[0] and (type(a) in _UNINITIALIZED or type(b) in _UNINITIALIZED):
            raise _uninitialized(_OP_METHODS.get(type(op), "add"), a, b)
        fn = _TENSOR_BINOPS.get(type(op))
        if fn is None:
            raise NotSupported(
                f"operator {OPNAMES.get(type(op), '?')} is not supported for tensors"
            )
        if type(a) is float or type(b) is float:
            with dtypes.program_float():  # (PyTorch's wrapped number: `core.forward`)
                return fn(a, b)
        return fn(a, b)
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        return _numbers(op, a, b)
    if isinstance(op, ast.Add) and hasattr(ta, "program_add"):
        return _sequential_only(a, b).program_add(b)  # nn.ModuleList / nn.Sequential
    if isinstance(op, ast.BitOr) and hasattr(ta, "program_or"):
        return a.program_or(b)  # nn.ParameterDict
    if isinstance(op, ast.Mult) and (hasattr(ta, "program_mul") or hasattr(tb, "program_mul")):
        seq, times = (a, b) if hasattr(ta, "program_mul") else (b, a)  # nn.Sequential
        return seq.program_mul(_repeats(seq, times))
    if isinstance(a, str) or isinstance(b, str):
        return _str_binop(op, a, b)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return _array_binop(op, a, b)
    if isinstance(a, _SETLIKE) or isinstance(b, _SETLIKE):
        return _set_binop(op, a, b)
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return _seq_binop(op, a, b)
    if type(a) in _DICTS and type(b) in _DICTS and isinstance(op, ast.BitOr):
        return _dict_union(a, b)
    if type(a) is PC.Counter and type(b) is PC.Counter and type(op) in _COUNTER_OPS:
        return PC.counter_binop(_COUNTER_OPS[type(op)], a, b)
    if (
        (ta is complex or tb is complex)
        and isinstance(a, _PY_NUMBERS)
        and isinstance(b, _PY_NUMBERS)
    ):
        return _complex_numbers(op, a, b)
    if ta.__module__ == "datetime" or tb.__module__ == "datetime":
        return _datetime_binop(op, a, b)
    if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        if isinstance(op, ast.BitOr):
            union = type_union(a, b)  # a type hint: `torch.Tensor | None`
            if union is not None:
                return union
        raise _unsupported(op, a, b)
    return _numbers(op, a, b)


_DATETIME_OPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda x, y: x + y,
    ast.Sub: lambda x, y: x - y,
    ast.Mult: lambda x, y: x * y,
    ast.Div: lambda x, y: x / y,
    ast.FloorDiv: lambda x, y: x // y,
    ast.Mod: lambda x, y: x % y,
}


# datetime.timedelta, once a program imports datetime (`pydatetime` sets it): its unary - and +.
_TIMEDELTA: list[Any] = [None]
_DATETIME_COMPARE: dict[type, Callable[[Any, Any], bool]] = {
    ast.Lt: lambda x, y: x < y,
    ast.LtE: lambda x, y: x <= y,
    ast.Gt: lambda x, y: x > y,
    ast.GtE: lambda x, y: x >= y,
    ast.Eq: lambda x, y: x == y,
    ast.NotEq: lambda x, y: x != y,
}


def _datetime_binop(op: ast.operator, a: Any, b: Any) -> Any:
    """Python's operators of dates and durations (`end - start`, `now + timedelta(days=1)`,
    `delta * 2`, `delta / timedelta(seconds=1)`), with Python's numbers and each other only."""
    fn = _DATETIME_OPS.get(type(op))
    plain = (int, float, bool)
    if fn is None or not all(type(v).__module__ == "datetime" or type(v) in plain for v in (a, b)):
        raise _unsupported(op, a, b)
    try:
        return fn(a, b)
    except TypeError:
        raise _unsupported(op, a, b) from None
    except OverflowError as e:
        raise GradcliError(str(e)).mirror("OverflowError") from None
    except ZeroDivisionError as e:
        raise GradcliError(str(e)).mirror("ZeroDivisionError") from None


# Python's set algebra: `a - b`, `a | b`, `a & b`, `a ^ b` of sets, frozensets and a dict's
# keys (a view of them gives a set, a frozenset on the left a frozenset, as in Python). The
# members were hashed when they went in (Python keeps their hashes), so the work is the sizes'.
_KEYS_VIEW = type({}.keys())
_SETLIKE = (set, frozenset, _KEYS_VIEW)
_SET_OPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Sub: lambda x, y: x - y,
    ast.BitOr: lambda x, y: x | y,
    ast.BitAnd: lambda x, y: x & y,
    ast.BitXor: lambda x, y: x ^ y,
}


def _set_binop(op: ast.operator, a: Any, b: Any) -> Any:
    fn = _SET_OPS.get(type(op))
    if fn is None or not isinstance(a, _SETLIKE) or not isinstance(b, _SETLIKE):
        if (
            fn is not None
            and (isinstance(a, _KEYS_VIEW) or isinstance(b, _KEYS_VIEW))
            and isinstance(a, (list, tuple)) != isinstance(b, (list, tuple))
        ):
            # (Python takes any iterable beside a dict's keys; gradcli only sets and keys)
            raise NotSupported(
                f"operator {OPNAMES[type(op)]} of a dict's keys and a {pytype_name(b)} is not "
                "supported by gradcli",
                hint="make the other side a set: d.keys() - set(items)",
            )
        raise _unsupported(op, a, b)
    limits.LIST_ITEMS.check(len(a) + len(b), "the size of the set")
    return fn(a, b)


_COUNTER_OPS = {ast.Add: "+", ast.Sub: "-", ast.BitOr: "|", ast.BitAnd: "&"}

# `d | e` of two dicts: a new one, e's values winning (`d |= e` changes d itself).
_DICTS = (dict, collections.OrderedDict)


def _dict_union(a: Any, b: Any) -> Any:
    limits.LIST_ITEMS.check(len(a) + len(b), "the size of the dict")
    return a | b


def _tensor_with_array(op: ast.operator, a: Any, b: Any) -> Any:
    """A tensor with a NumPy array, as Python dispatches it between the two. The tensor's
    operators take no array (its TypeError becomes NotImplemented), and NumPy's give way to
    the tensor (its `__array_priority__` is higher):
    - `t op a`: NumPy's reflected operator computes, on `t.numpy()` (refused for a tensor that
      requires grad while grad mode is on), with NumPy's dtypes (a 0-d float64 array makes a
      float32 tensor's result float64), and `Tensor.__array_wrap__` makes the result a tensor
      (a bool result a uint8 one);
    - `a / t` is `Tensor.__rtruediv__`: `t.reciprocal() * a`, the case above;
    - `a op t` otherwise: Python's TypeError (`a + t`: NumPy's sequence concatenation's)."""
    from .ndinterop import tensor_array, wrapped

    if isinstance(a, np.ndarray):
        if isinstance(op, ast.Div):  # (inside torch: NumPy's warning is not the program's)
            return wrapped(_array_binop(ast.Mult(), tensor_array(b.reciprocal()), a), False)
        if isinstance(op, ast.Add):
            raise GradcliError(NO_ARRAY_CONCAT).mirror("TypeError")
        raise _unsupported(op, a, b)
    return wrapped(_array_binop(op, tensor_array(a), b))


# NumPy's words for `array + tensor` (Python's last resort, the array's sequence concatenation).
NO_ARRAY_CONCAT = (
    "Concatenation operation is not implemented for NumPy arrays, use np.concatenate() "
    "instead. Please do not rely on this error; it may not be given on all Python "
    "implementations."
)


def _numpy_numbers(op: ast.operator, a: Any, b: Any) -> Any:
    """Arithmetic with a NumPy scalar (`x = arr[0]` of a float32 array): NumPy's, whose
    float32 stays float32 with a Python number (NumPy 2's weak Python scalars)."""
    kind = type(op)
    for v in (a, b):
        if isinstance(v, complex) and kind in (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow):
            continue  # (`np.float64(2.0) * 1j`: NumPy's complex128 number)
        if not is_numpy_number(v) and not isinstance(v, (int, float)):
            raise _unsupported(op, a, b)
    if kind is ast.MatMult or (
        kind in _BITWISE and any(np.asarray(v).dtype.kind == "f" for v in (a, b))
    ):
        raise _unsupported(op, a, b)
    fn = _BITWISE.get(kind) or _PY_BINOPS.get(kind) or (lambda x, y: x**y)
    with np.errstate(all="ignore"):
        try:
            out = fn(a, b)
        except ZeroDivisionError:  # a Python int by a NumPy zero still divides as NumPy does
            out = fn(np.float64(a) if isinstance(a, int) else a, b)
    return numpy_number(out)


_PY_NUMBERS = (int, float, complex)


def _complex_numbers(op: ast.operator, a: Any, b: Any) -> Any:
    """Python's arithmetic with a complex number: + - * / ** (the others are Python's
    TypeError); a power's size is bounded by its exponent's (a large integer power is
    Python's exp/log of the number, not a product of that many factors)."""
    kind = type(op)
    fn = _PY_BINOPS.get(kind) if kind in (ast.Add, ast.Sub, ast.Mult, ast.Div) else None
    if kind is ast.Pow:
        fn = _PY_BINOPS.get(kind) or (lambda x, y: x**y)
    if fn is None:
        raise _unsupported(op, a, b)
    try:
        return fn(a, b)
    except ZeroDivisionError as e:
        raise GradcliError(str(e)).mirror("ZeroDivisionError") from None
    except OverflowError as e:
        raise GradcliError(str(e)).mirror("OverflowError") from None


def _numbers(op: ast.operator, a: Any, b: Any) -> Any:
    kind = type(op)
    if kind is ast.Pow:
        if isinstance(a, int) and isinstance(b, int) and abs(a) >= 2 and b > 0:
            # a**b has about b*log2|a| bits: refuse a huge one before computing it.
            bits = b * math.log2(abs(a))
            if bits > limits.INT_BITS.value + 1:
                limits.INT_BITS.check(math.ceil(bits), "the size of an integer in bits")
        try:
            r = a**b
        except OverflowError:
            raise GradcliError(
                "(34, 'Numerical result out of range')",
                hint="the number is too large for a float (over 1.8e308)",
            ).mirror("OverflowError") from None
        except ZeroDivisionError:
            raise GradcliError("0.0 cannot be raised to a negative power").mirror(
                "ZeroDivisionError"
            ) from None
        if isinstance(r, complex):
            return r  # a negative number to a fractional power: Python's complex number
        return int_check(r)
    if kind is ast.MatMult:
        raise _unsupported(op, a, b, "`@` needs tensors")
    if kind in _BITWISE:
        if isinstance(a, float) or isinstance(b, float):
            raise _unsupported(op, a, b)
        return _BITWISE[kind](a, b)
    try:
        return int_check(_PY_BINOPS[kind](a, b))
    except ZeroDivisionError:
        what = {
            ast.Div: "division by zero",
            ast.FloorDiv: "integer division or modulo by zero",
            ast.Mod: "integer modulo by zero"
            if isinstance(a, int) and isinstance(b, int)
            else "float modulo",
        }.get(kind, "division by zero")
        if kind is ast.FloorDiv and (isinstance(a, float) or isinstance(b, float)):
            what = "float floor division by zero"
        raise GradcliError(what).mirror("ZeroDivisionError") from None
    except OverflowError:
        raise GradcliError("integer division result too large for a float").mirror(
            "OverflowError"
        ) from None


def _array_binop(op: ast.operator, a: Any, b: Any) -> Any:
    """Arithmetic on NumPy arrays from `.numpy()` (NumPy's results, sized first)."""
    if type(op) in _ARRAY_BITWISE:
        return _array_bitwise(op, a, b)
    fn = _ARRAY_BINOPS.get(type(op))
    for v in (a, b):
        if isinstance(v, complex) or (isinstance(v, np.ndarray) and v.dtype.kind == "c"):
            if type(op) in _NO_COMPLEX_UFUNC:
                # NumPy has no floor division or remainder of complex numbers: its TypeError
                raise (
                    GradcliError(
                        f"ufunc '{_NO_COMPLEX_UFUNC[type(op)]}' not supported for the input "
                        "types, and the inputs could not be safely coerced to any supported "
                        "types according to the casting rule ''safe''"
                    )
                    .mirror("TypeError")
                    .pytorch()
                )
            continue
        ok = (isinstance(v, np.ndarray) and v.dtype.kind in "biuf") or is_numpy_number(v)
        if not ok and (isinstance(v, bool) or not isinstance(v, (int, float))):
            raise _unsupported(op, a, b)
    if isinstance(op, ast.MatMult):
        # NumPy's own matrix product (its shapes' rules and words), sized before it runs
        from .npmatmul import numpy_matmul

        return numpy_matmul(np.asarray(a), np.asarray(b), "matmul")
    if fn is None:
        raise _unsupported(op, a, b)
    from ..ops.arithmetic import size_check

    size_check(_broadcast(a, b), "the number of elements in the result")
    with np.errstate(all="ignore"):
        if fn is np.power and (isinstance(a, np.ndarray) or isinstance(b, np.ndarray)):
            # its float loops: the host's own kernels (`hostnumpy`); two NumPy scalars are
            # NumPy's scalar math (the C library's pow), the same in both processes
            from .hostnumpy import compute

            out = compute("power", a, b)
        else:
            out = fn(a, b)
    return numpy_number(out)


_ARRAY_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: np.add,
    ast.Sub: np.subtract,
    ast.Mult: np.multiply,
    ast.Div: np.true_divide,
    ast.Pow: np.power,
    ast.FloorDiv: np.floor_divide,
    ast.Mod: np.remainder,
}


# The operators NumPy has no complex loop for (its TypeError names the ufunc); the others
# compute complex arrays, and Python complex numbers with arrays, as NumPy does
_NO_COMPLEX_UFUNC = {ast.FloorDiv: "floor_divide", ast.Mod: "remainder"}


_ARRAY_BITWISE: dict[type, Any] = {
    ast.BitAnd: np.bitwise_and,
    ast.BitOr: np.bitwise_or,
    ast.BitXor: np.bitwise_xor,
    ast.LShift: np.left_shift,
    ast.RShift: np.right_shift,
}


def _broadcast(a: Any, b: Any) -> tuple[int, ...]:
    """The shape NumPy's operator on `a` and `b` gives, or its ufunc's ValueError."""
    try:
        return np.broadcast_shapes(np.shape(a), np.shape(b))
    except ValueError:
        raise GradcliError(
            f"operands could not be broadcast together with shapes {np.shape(a)} {np.shape(b)} "
        ).mirror("ValueError") from None


def _array_bitwise(op: ast.operator, a: Any, b: Any) -> Any:
    """`mask1 & mask2`, `|`, `^` on NumPy arrays of booleans or integers (with Python bools and
    ints): NumPy's results, sized first; a float array is NumPy's TypeError."""
    for v in (a, b):
        if isinstance(v, (np.ndarray, float)) or is_numpy_number(v):
            if np.asarray(v).dtype.kind not in "biu":
                ufunc = _ARRAY_BITWISE[type(op)].__name__
                raise (
                    GradcliError(
                        f"ufunc '{ufunc}' not supported for the input types, and the inputs could "
                        "not be safely coerced to any supported types according to the casting "
                        "rule ''safe''"
                    )
                    .mirror("TypeError")
                    .pytorch()
                )  # NumPy's own words (catchable)
        elif not isinstance(v, int):  # Python bools and ints; anything else is Python's error
            raise _unsupported(op, a, b)
    from ..ops.arithmetic import size_check

    size_check(_broadcast(a, b), "the number of elements in the result")
    try:
        out = _ARRAY_BITWISE[type(op)](a, b)
    except (TypeError, OverflowError) as e:  # an int beyond the array's dtype, as NumPy says
        raise GradcliError(str(e)).mirror(type(e).__name__) from None
    return numpy_number(out)


def _seq_binop(op: ast.operator, a: Any, b: Any) -> Any:
    if isinstance(op, ast.Add) and isinstance(a, (list, tuple)) and type(a) is type(b):
        limits.LIST_ITEMS.check(len(a) + len(b), f"the length of the {typename(a)}")
        return Size(a + b) if type(a) is Size else a + b
    if isinstance(op, ast.Add) and {type(a), type(b)} == {tuple, Size}:
        # `(1, 1) + x.shape` and `x.shape + (1,)`: a torch.Size, as PyTorch's.
        limits.LIST_ITEMS.check(len(a) + len(b), "the length of the torch.Size")
        return _size_of(a + b)
    if (
        isinstance(op, ast.Add)
        and isinstance(a, tuple)
        and isinstance(b, tuple)
        and not isinstance(a, Size)
        and not isinstance(b, Size)
    ):
        # a named tuple and a tuple (or two named tuples): a plain tuple, as Python's
        limits.LIST_ITEMS.check(len(a) + len(b), "the length of the tuple")
        return tuple(a) + tuple(b)
    if isinstance(op, ast.Mult):
        seq, n = (a, b) if isinstance(a, (list, tuple)) else (b, a)
        if isinstance(n, np.integer):
            n = int(n)
        if isinstance(n, int):
            limits.LIST_ITEMS.check(len(seq) * max(n, 0), f"the length of the {typename(seq)}")
            return Size(seq * n) if type(seq) is Size else seq * n
        if isinstance(seq, (list, tuple)):
            raise _sequence_words(op, seq, n)
    if isinstance(op, ast.Add) and type(a) is Size and not isinstance(b, tuple):
        # torch.Size's own __add__, in PyTorch's words (the type's name unquoted)
        raise GradcliError(
            f"can only concatenate tuple (not {pytype_name(b)}) to torch.Size"
        ).mirror("TypeError")
    if isinstance(op, ast.Add) and type(a) in (list, tuple) and type(b) is not type(a):
        raise _sequence_words(op, a, b)
    raise _unsupported(op, a, b, "make tensors with torch.tensor(...) to compute with them")


def _size_of(items: tuple) -> Size:
    """A torch.Size of `items`, refused as PyTorch refuses one that is not all integers
    (a one-element integer tensor counts as its value)."""
    out = []
    for i, v in enumerate(items):
        if isinstance(v, Tensor) and v.numel() == 1 and v.dtype.kind in "iub":
            v = int(v.item())
        if not isinstance(v, int):
            raise GradcliError(
                f"torch.Size() takes an iterable of 'int' (item {i} is '{typename(v)}')"
            ).mirror("TypeError")
        out.append(int(v))
    return Size(out)


def _str_binop(op: ast.operator, a: Any, b: Any) -> Any:
    if isinstance(op, ast.Add) and isinstance(a, str) and isinstance(b, str):
        limits.STRING_CHARS.check(len(a) + len(b), "the length of the string")
        return a + b
    if isinstance(op, ast.Mult):
        s, n = (a, b) if isinstance(a, str) else (b, a)
        if isinstance(n, Tensor):  # Python asks the tensor for an index (__index__)
            n = tensor_index(n)
        if isinstance(n, np.integer):  # NumPy's integers are indices too (__index__)
            n = int(n)
        if isinstance(n, int) and isinstance(s, str):
            limits.STRING_CHARS.check(len(s) * max(n, 0), "the length of the string")
            return s * n
        if isinstance(s, str):
            raise _sequence_words(op, s, n)
    if isinstance(op, ast.Mod) and isinstance(a, str):
        from .formatting import percent_format

        return percent_format(a, b)
    if isinstance(op, ast.Add) and isinstance(a, (str, list, tuple)):
        raise _sequence_words(op, a, b)
    raise _unsupported(op, a, b)


def _sequence_words(op: ast.operator, seq: Any, other: Any) -> GradcliError:
    """Python's own words for `"loss: " + 0.5`, `[1] + "a"` and `"ab" * 2.5`."""
    if isinstance(op, ast.Mult):
        words = f"can't multiply sequence by non-int of type '{pytype_name(other)}'"
    else:
        kind = "str" if isinstance(seq, str) else "list" if isinstance(seq, list) else "tuple"
        named = "torch.Size" if type(other) is Size else pytype_name(other)
        words = f'can only concatenate {kind} (not "{named}") to {kind}'
    return GradcliError(words).mirror("TypeError")


_PY_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
}


def _lshift(a: int, b: int) -> int:
    """`a << b` on Python ints, refused before a huge result is made."""
    if b < 0:
        raise GradcliError("negative shift count").mirror("ValueError")
    if a and a.bit_length() + b > limits.INT_BITS.value:
        limits.INT_BITS.check(a.bit_length() + b, "the size of an integer in bits")
    return a << b


def _rshift(a: int, b: int) -> int:
    if b < 0:
        raise GradcliError("negative shift count").mirror("ValueError")
    return a >> b


_BITWISE: dict[type, Callable[[Any, Any], Any]] = {
    ast.BitAnd: lambda a, b: a & b,
    ast.BitOr: lambda a, b: a | b,
    ast.BitXor: lambda a, b: a ^ b,
    ast.LShift: _lshift,
    ast.RShift: _rshift,
}


# (The arithmetic operators' functions themselves: a lambda around each cost a Python call
# on every `x * 2.0` of a program.)
_TENSOR_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: A.add_op,
    ast.Sub: A.sub_op,
    ast.Mult: A.mul_op,
    ast.Div: A.div_op,
    ast.Pow: A.pow,
    ast.MatMult: lambda a, b: _matmul_op(a, b),
    ast.FloorDiv: lambda a, b: EW.floor_divide(a, b),
    ast.Mod: lambda a, b: _str_binop(ast.Mod(), a, b) if type(a) is str else EW.remainder(a, b),
    ast.BitAnd: lambda a, b: _basics().bitwise_and(a, b),
    ast.BitOr: lambda a, b: _basics().bitwise_or(a, b),
    ast.BitXor: lambda a, b: _basics().bitwise_xor(a, b),
    ast.LShift: lambda a, b: _basics().bitwise_left_shift(a, b),
    ast.RShift: lambda a, b: _basics().bitwise_right_shift(a, b),
}


def _matmul_op(a: Any, b: Any) -> Any:
    """`a @ b` of tensors; with a number (`x @ 2.0`) matmul's TypeError becomes NotImplemented
    on both sides, and Python's words remain."""
    if type(a) is SparseCOO and isinstance(b, Tensor):  # sparse @ dense: `ops.sparsemm`
        from ..ops.sparsemm import sparse_mm

        return sparse_mm(a, b, "MmBackward0", "matmul")
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)):
        raise _unsupported(ast.MatMult(), a, b)
    return A.matmul(a, b)


def _basics() -> Any:
    """The family of the bitwise operators, imported at a program's first one."""
    from ..surface import basics

    return basics


# The ATen operation PyTorch names for `x op= v` on a tensor (`x += 1`: aten::add_.Tensor).
_AUGMENTED = {
    ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.Pow: "pow",
    ast.MatMult: "matmul", ast.FloorDiv: "floor_divide", ast.Mod: "remainder",
    ast.BitAnd: "__iand__", ast.BitOr: "__ior__", ast.BitXor: "__ixor__",
    ast.LShift: "__ilshift__", ast.RShift: "__irshift__",
}  # fmt: skip


def augmented(op: ast.operator, current: Any, value: Any) -> Any:
    """`target op= value`: the value to bind to the target.

    On a tensor, PyTorch's `+=` is in place (`core.inplace`): the tensor itself changes, so
    that every name bound to it sees the change, and is the result; a leaf that requires grad
    is refused in PyTorch's words; on a tensor of the graph the change is recorded on it."""
    if isinstance(current, Tensor) and isinstance(value, np.ndarray):
        return binop(op, current, value)  # the tensor's in-place operator gives way: `x = x + a`
    if isinstance(current, np.ndarray) and isinstance(value, Tensor):
        if isinstance(op, ast.Div):
            return binop(op, current, value)  # (NumPy's gives way to Tensor.__rtruediv__)
        if isinstance(op, ast.Add):
            raise GradcliError(NO_ARRAY_CONCAT).mirror("TypeError")
        raise GradcliError(
            f"unsupported operand type(s) for {OPNAMES.get(type(op), '?')}=: 'numpy.ndarray' "
            "and 'Tensor'"
        ).mirror("TypeError")
    if isinstance(current, Tensor):
        if _GradMode.vmapped and isinstance(op, ast.Add) and isinstance(value, Tensor):
            check_batched_write(current, value, shape=True)  # (add_'s words, as `x.add_(v)`)
        return inplace(
            current,
            (lambda old: into_dividend(lambda: binop(op, old, value)))
            if isinstance(op, ast.Div)
            else lambda old: binop(op, old, value),
            op=lambda: aten_inplace_name(_AUGMENTED[type(op)], (value,)),
        )
    if isinstance(current, np.ndarray) and type(op) in _ARRAY_BINOPS:
        return _array_inplace(op, current, value)
    if type(current) in (list, set, *_DICTS) and _GradMode.repeats:
        repeated_change(current, f"a {typename(current)} (`{OPNAMES[type(op)]}=`)")
    if type(current) is set and type(op) in _SET_OPS:
        # `s |= other` changes the set itself (every name bound to it sees it), as Python's
        if not isinstance(value, (set, frozenset)):
            sym = OPNAMES[type(op)]
            raise GradcliError(
                f"unsupported operand type(s) for {sym}=: 'set' and '{pytype_name(value)}'"
            ).mirror("TypeError")
        limits.LIST_ITEMS.check(len(current) + len(value), "the size of the set")
        {
            ast.Sub: current.difference_update,
            ast.BitOr: current.update,
            ast.BitAnd: current.intersection_update,
            ast.BitXor: current.symmetric_difference_update,
        }[type(op)](value)
        return current
    if type(current) is list and isinstance(op, ast.Add):
        # `xs += ys` extends the list itself (every name bound to it sees the items).
        if not isinstance(value, (list, tuple, range)):
            raise GradcliError(f"'{pytype_name(value)}' object is not iterable").mirror("TypeError")
        limits.LIST_ITEMS.check(len(current) + len(value), "the length of the list")
        current.extend(value)
        return current
    if type(current) in _DICTS and type(value) in _DICTS and isinstance(op, ast.BitOr):
        # `d |= e`: the dict itself changes (every name bound to it sees it)
        limits.LIST_ITEMS.check(len(current) + len(value), "the size of the dict")
        current.update(value)
        return current
    if isinstance(op, ast.Add) and hasattr(type(current), "program_iadd"):
        # `mods += more`: the ModuleList / Sequential itself extended, as PyTorch's __iadd__
        return _sequential_only(current, value).program_iadd(value)
    if isinstance(op, ast.BitOr) and hasattr(type(current), "program_ior"):
        return current.program_ior(value)  # `pdict |= other`: the ParameterDict itself
    if isinstance(op, ast.Mult) and hasattr(type(current), "program_imul"):
        return current.program_imul(_repeats(current, value))  # `seq *= n`: seq itself
    return binop(op, current, value)


def _repeats(seq: Any, times: Any) -> int:
    """`times` once it is PyTorch's factor of `seq * times`: a positive int (a bool too, as
    Python's), refused in Sequential.__mul__'s words otherwise."""
    if not isinstance(times, int):
        raise GradcliError(
            f"unsupported operand type(s) for *: {_type_text(seq)} and {_type_text(times)}"
        ).mirror("TypeError")
    if times <= 0:
        raise GradcliError(
            f"Non-positive multiplication factor {times} for {_type_text(seq)}"
        ).mirror("ValueError")
    return int(times)


def _type_text(v: Any) -> str:
    """What `str(type(v))` prints (`<class 'torch.nn.modules.container.Sequential'>`)."""
    from .text import to_str

    if TYPE_OF[0] is None:  # (builtins not loaded: Python's short name)
        return f"<class '{pytype_name(v)}'>"
    return to_str(TYPE_OF[0](v))


def _sequential_only(a: Any, b: Any) -> Any:
    """`a` again, once `seq + b` / `seq += b` is known to be PyTorch's: a Sequential adds only
    a Sequential (ValueError in its words otherwise; a ModuleList adds any iterable)."""
    if isinstance(a, surface_nn.Sequential) and not isinstance(b, surface_nn.Sequential):
        raise GradcliError(
            f"add operator supports only objects of Sequential class, but {_type_text(b)} is given."
        ).mirror("ValueError")
    return a


def _array_inplace(op: ast.operator, a: np.ndarray, value: Any) -> np.ndarray:
    """`a += v` on a NumPy array: NumPy's in-place operation (`same_kind` casting, the result
    written into `a`), so a tensor made from the array with torch.from_numpy / as_tensor, and
    every name bound to it, sees the change."""
    ok = isinstance(value, np.ndarray) and value.dtype.kind in "biuf"
    if not ok and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise _unsupported(op, a, value)
    if not a.flags.writeable:
        raise GradcliError("output array is read-only").mirror("ValueError")
    try:
        shape = np.broadcast_shapes(a.shape, np.shape(value))
    except ValueError as e:
        raise GradcliError(str(e)).mirror("ValueError") from None
    if shape != a.shape:
        raise GradcliError(
            f"non-broadcastable output operand with shape {a.shape} doesn't match the "
            f"broadcast shape {shape}"
        ).mirror("ValueError")
    if isinstance(op, ast.Pow) and a.dtype.kind == "f" and np.result_type(a, value) == a.dtype:
        # `a **= 3`: the host's own power kernels (`hostnumpy`), written into `a`
        from .hostnumpy import compute

        with np.errstate(all="ignore"):
            a[...] = compute("power", a, value)
        return a
    try:
        with np.errstate(all="ignore"):
            _ARRAY_BINOPS[type(op)](a, value, out=a, casting="same_kind")
    except TypeError as e:  # NumPy's UFuncTypeError: an int array += a float
        raise GradcliError(str(e)).mirror("UFuncTypeError") from None
    return a


def _fx_operator(op: Any, *operands: Any) -> Any:
    return FX_HOOKS["proxy_operator"](op, *operands)


def unary(op: ast.unaryop, v: Any) -> Any:
    kind = type(op)
    if FX_PROXY[0] is not None and type(v) is FX_PROXY[0] and kind is not ast.Not:
        return _fx_operator(op, v)
    if PROGRAM_INSTANCE and type(v) is PROGRAM_INSTANCE[0]:
        fn = v.operator_method(_UNARY_DUNDERS.get(kind, ""))
        if fn is None:
            sym = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}.get(kind, "?")
            raise GradcliError(f"bad operand type for unary {sym}: '{typename(v)}'").mirror(
                "TypeError"
            )
        return v.call_special(fn)
    if _LAZY[0] and type(v) in _UNINITIALIZED and kind is not ast.Not:
        raise _uninitialized("neg" if kind is ast.USub else "positive", v)
    if WIDE_UINT[0] and kind is not ast.Not and isinstance(v, Tensor):
        _uint_gate(_GATE_NAMES.get(kind, "?"), v)
    if kind is ast.Invert:
        if isinstance(v, Tensor):
            if v.dtype.kind in "fc":  # (the operator checks first; x.bitwise_not() is ATen's)
                raise GradcliError(
                    "~ (operator.invert) is only implemented on integer and Boolean-type tensors",
                    hint="for a mask, ~(x > 0) or x.logical_not()",
                ).mirror("TypeError")
            flipped = np.logical_not(v.data) if v.dtype == bool else np.invert(v.data)
            return Tensor(iterated(flipped, (v.data,)))
        if isinstance(v, int):
            return ~v
        if isinstance(v, np.ndarray) and v.dtype.kind in "biu":
            return np.invert(v)  # a mask's negation (`~mask`), NumPy's bitwise not on integers
        if isinstance(v, np.ndarray):
            raise (
                GradcliError(
                    "ufunc 'invert' not supported for the input types, and the inputs could not be "
                    "safely coerced to any supported types according to the casting rule ''safe''"
                )
                .mirror("TypeError")
                .pytorch()
            )  # NumPy's own words (catchable)
        raise GradcliError(f"bad operand type for unary ~: '{typename(v)}'").mirror("TypeError")
    if isinstance(v, np.ndarray) and v.dtype.kind in "iuf":
        return np.negative(v) if kind is ast.USub else np.positive(v)  # a new array, as NumPy
    if isinstance(v, np.ndarray) and kind is ast.USub:
        raise (
            GradcliError(
                "The numpy boolean negative, the `-` operator, is not supported, use the `~` "
                "operator or the logical_not function instead."
            )
            .mirror("TypeError")
            .pytorch()  # NumPy's own words (catchable)
        )
    if isinstance(v, np.ndarray):
        raise GradcliError(
            "ufunc 'positive' did not contain a loop with signature matching types <class "
            "'numpy.dtypes.BoolDType'> -> None"
        ).mirror("TypeError")
    if isinstance(v, bool):
        v = int(v)
    if is_numpy_number(v):
        with np.errstate(all="ignore"):
            return numpy_number(-v if kind is ast.USub else +v)
    if type(v) is _TIMEDELTA[0]:  # a duration's sign (Python's; bounded as it is)
        return -v if kind is ast.USub else +v
    if not isinstance(v, (int, float, complex, Tensor)):
        sym = "-" if kind is ast.USub else "+"
        if type(v) is SparseCOO:
            raise sparse_refused(f"the operator unary {sym}")
        raise GradcliError(f"bad operand type for unary {sym}: '{typename(v)}'").mirror("TypeError")
    if kind is ast.USub:
        return -v
    return +v if isinstance(v, Tensor) else v  # (PyTorch refuses `+` on a bool tensor)


def equal(a: Any, b: Any) -> bool:
    """`a == b` as a condition (Python's, a one-element tensor by its value)."""
    if a is b:
        return True
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        return bool(F.eq(a, b))
    return bool(compare(ast.Eq(), a, b))


def _ticked(found: bool) -> bool:
    limits.BUDGET.tick()
    return found


def contains(container: Any, item: Any) -> bool:
    """`item in container`."""
    if isinstance(container, str):
        if not isinstance(item, str):
            raise GradcliError(
                f"'in <string>' requires string as left operand, not {typename(item)}"
            ).mirror("TypeError")
        return item in container
    if type(container) is bytes:
        from . import pybytes

        return pybytes.contains(container, item)
    if isinstance(container, (set, frozenset)) and type(item) is set:
        return frozenset(item) in container  # (Python's set looks a set up as a frozenset)
    if isinstance(container, (dict, set, frozenset)):
        return hashable(item) in container
    if isinstance(container, range):
        return item in container if isinstance(item, (int, float)) else False
    if isinstance(container, Tensor):
        return bool(F.eq(container, item).data.any())
    if isinstance(container, (list, tuple, collections.deque)) or type(
        container
    ).__name__.startswith("dict_"):
        check_structure(list(container), "`in`")
        return any(x is item or equal(x, item) for x in container)
    items = getattr(type(container), "program_items", None)  # ModuleDict: its keys
    if items is not None:
        return any(x is item or equal(x, item) for x in items(container))
    if is_iterator(container) or hasattr(type(container), "program_iter"):
        # An iterator (a generator) is consumed up to the item, as in Python; a program's
        # class by its __contains__, else by iterating it.
        has = getattr(type(container), "program_contains", None)
        if has is not None:
            return has(container, item)
        # A sampler's or a loader's iterator does not tick by itself: each item does here.
        return any(_ticked(x is item or equal(x, item)) for x in iterate(container, "`in`"))
    raise GradcliError(f"argument of type '{pytype_name(container)}' is not iterable").mirror(
        "TypeError"
    )


def _same_class(a: Any, b: Any) -> bool:
    """Python's one class object: `type(x) is torch.Tensor`, `x.__class__ is type(x)` (the
    class type() gives is a copy that cannot be called, the same class to `is`)."""
    return isinstance(a, PyType) and isinstance(b, PyType) and a == b


def compare(op: ast.cmpop, a: Any, b: Any) -> Any:
    kind = type(op)
    if FX_PROXY[0] is not None and (type(a) is FX_PROXY[0] or type(b) is FX_PROXY[0]):
        if kind in (ast.Eq, ast.NotEq, ast.Lt, ast.Gt, ast.LtE, ast.GtE):
            return _fx_operator(op, a, b)
    if kind is ast.Is:
        return a is b or _same_class(a, b)
    if kind is ast.IsNot:
        return not (a is b or _same_class(a, b))
    if kind is ast.In:
        return contains(b, a)
    if kind is ast.NotIn:
        return not contains(b, a)
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        if WIDE_UINT[0] and (_operand(a) and _operand(b)):
            _uint_gate(_GATE_NAMES.get(kind, "?"), a, b)
        if not (_operand(a) and _operand(b)):
            # PyTorch's comparison gives way and Python's default answers: == by identity
            if kind is ast.Eq or kind is ast.NotEq:
                return kind is ast.NotEq
            raise _not_comparable(kind, a, b)
        if _LAZY[0] and (type(a) in _UNINITIALIZED or type(b) in _UNINITIALIZED):
            raise _uninitialized(_OP_METHODS[kind], a, b)
        if (isinstance(a, np.ndarray) or isinstance(b, np.ndarray)) and kind is not ast.Eq:
            # Only the tensor's == takes an array (as a tensor); for the others both sides
            # give way: != is Python's identity, an ordering Python's TypeError
            if kind is ast.NotEq:
                return True
            raise _not_comparable(kind, a, b)
        out = _TENSOR_COMPARE[kind](a, b)
        if META:
            from ..core.tensor import carry_meta

            carry_meta((a, b), out)
        return out
    if isinstance(a, DType) and isinstance(b, DType) and kind in (ast.Eq, ast.NotEq):
        return (a.np == b.np) == (kind is ast.Eq)
    if (isinstance(a, np.dtype) or isinstance(b, np.dtype)) and kind in (ast.Eq, ast.NotEq):
        # NumPy's dtype equals what it converts to it: np.int64, 'int64', int, float, bool
        da, db = _as_numpy_dtype(a), _as_numpy_dtype(b)
        return (da is not None and db is not None and da == db) == (kind is ast.Eq)
    if (isinstance(a, np.ndarray) or isinstance(b, np.ndarray)) and kind in _ARRAY_COMPARE:
        return _array_compare(kind, a, b)
    if (is_numpy_number(a) or is_numpy_number(b)) and kind in _ARRAY_COMPARE:
        if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
            # NumPy's scalar compares a list of numbers item by item (`preds == labels[0]`:
            # an array)
            seq = a if isinstance(a, (list, tuple)) else b
            check_structure(seq, "the comparison")
            if _numbers_only(seq):
                arr = np.asarray(seq)
                if arr.dtype.kind in "biuf":
                    return _array_compare(kind, arr if seq is a else a, arr if seq is b else b)
        num = (int, float, np.generic)
        if isinstance(a, num) and isinstance(b, num):
            # NumPy's (float32 against a weak float), a NumPy bool as NumPy gives it
            return numpy_number(_ARRAY_COMPARE[kind](a, b))
        a = a.item() if is_numpy_number(a) else a
        b = b.item() if is_numpy_number(b) else b
    if (type(a).__module__ == "datetime" and type(b).__module__ == "datetime") and (
        kind in _DATETIME_COMPARE
    ):
        try:  # (Python's own: a date against a datetime, or a duration, is its TypeError)
            return _DATETIME_COMPARE[kind](a, b)
        except TypeError as e:
            raise GradcliError(str(e)).mirror("TypeError") from None
    ok = (int, float, complex, str, bytes, type(None), tuple, list, dict, set, frozenset)
    ok += (_KEYS_VIEW,)
    if not isinstance(a, ok) or not isinstance(b, ok):
        if kind is ast.Eq or kind is ast.NotEq:
            own = getattr(type(a), "program_eq", None)  # a dataclass's generated __eq__
            same = NotImplemented if own is None else own(a, b)
            if same is not NotImplemented:
                return bool(same) == (kind is ast.Eq)
        if kind is ast.Eq:
            return a is b or _same(a, b)
        if kind is ast.NotEq:
            return not (a is b or _same(a, b))
        raise _not_comparable(kind, a, b)
    check_structure(a, "the comparison")
    check_structure(b, "the comparison")
    if (kind is ast.Eq or kind is ast.NotEq) and isinstance(a, _SEQS) and isinstance(b, _SEQS):
        # item by item, a tensor by its value, as Python's == of lists and tuples asks each
        # item's == (the native comparison would ask gradcli's Tensor, which compares ids)
        return _items_equal(a, b) == (kind is ast.Eq)
    try:
        return _PY_COMPARE[kind](a, b)
    except TypeError:
        raise _not_comparable(kind, a, b) from None


def _as_numpy_dtype(v: Any) -> np.dtype | None:
    """The NumPy dtype `np.dtype(v)` makes of a value a program compares with one (None where
    NumPy makes none, or gradcli does not ask it: a torch dtype, an object)."""
    if isinstance(v, np.dtype):
        return v
    if getattr(type(v), "NUMPY_SCALAR", False):  # (`namespaces.NumpyScalarType`, marked)
        return np.dtype(v.np)
    if isinstance(v, str):
        if len(v) > 32:
            return None
        try:
            return np.dtype(v)
        except (TypeError, ValueError):
            return None
    if isinstance(v, PyType) and not isinstance(v, DType) and len(v.types) == 1:
        if v.types[0] in (int, float, bool, complex):
            return np.dtype(v.types[0])
    return None


_ARRAY_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Lt: np.less,
    ast.LtE: np.less_equal,
    ast.Gt: np.greater,
    ast.GtE: np.greater_equal,
    ast.Eq: np.equal,
    ast.NotEq: np.not_equal,
}


def _numbers_only(v: Any) -> bool:
    """Whether a list or tuple (nested, already bounded by `check_structure`) holds only
    numbers, Python's or NumPy's, in lists of equal lengths."""
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            if (
                x
                and isinstance(x[0], (list, tuple))
                and len({len(y) if isinstance(y, (list, tuple)) else -1 for y in x}) != 1
            ):
                return False
            stack.extend(x)
        elif not (isinstance(x, (int, float)) or is_numpy_number(x)):
            return False
    return True


def _array_compare(kind: type, a: Any, b: Any) -> Any:
    """`a > 0.5` on NumPy arrays and numbers: NumPy's boolean array, sized first."""
    for v in (a, b):
        ok = (isinstance(v, np.ndarray) and v.dtype.kind in "biuf") or is_numpy_number(v)
        if not ok and kind in (ast.Eq, ast.NotEq):
            # (complex values compare equal or not; their ordering is not gradcli's)
            ok = isinstance(v, (complex, np.complexfloating)) or (
                isinstance(v, np.ndarray) and v.dtype.kind == "c"
            )
        if not ok and (isinstance(v, bool) or not isinstance(v, (int, float))):
            raise _not_comparable(kind, a, b)
    from ..ops.arithmetic import size_check

    size_check(_broadcast(a, b), "the comparison's result")
    out = _ARRAY_COMPARE[kind](a, b)
    return out.item() if isinstance(out, np.generic) else out


def _not_comparable(kind: type, a: Any, b: Any) -> GradcliError:
    # Python's own words: a program's `except TypeError` catches them
    return (
        GradcliError(
            f"'{OPS[kind]}' not supported between instances of '{pytype_name(a)}' and "
            f"'{pytype_name(b)}'"
        )
        .mirror("TypeError")
        .pytorch()
    )


_SEQS = (list, tuple, dict)


def _items_equal(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if isinstance(a, dict) or isinstance(b, dict):
        if not (isinstance(a, dict) and isinstance(b, dict)) or len(a) != len(b):
            return False
        for k, x in a.items():
            if k not in b:
                return False
            y = b[k]
            if not (x is y or equal(x, y)):
                return False
        return True
    if isinstance(a, list) != isinstance(b, list) or len(a) != len(b):
        return False
    return all(x is y or equal(x, y) for x, y in zip(a, b, strict=True))


def _same(a: Any, b: Any) -> bool:
    """`==` of the language's other values (dtypes, devices, classes): by value where the
    value defines it, else identity."""
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - a value that cannot compare is not equal
        return False


OPS = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
}

_TENSOR_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Lt: F.lt,
    ast.LtE: F.le,
    ast.Gt: F.gt,
    ast.GtE: F.ge,
    ast.Eq: F.eq,
    ast.NotEq: F.ne,
}

_PY_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
}
