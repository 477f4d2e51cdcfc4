"""Python's operator and protocol methods called by name on a tensor or a Python number:
`a.__mul__(b)`, `x.__rsub__(2)`, `torch.Tensor.__add__(a, b)`, `int.__add__(2, 3)`,
`x.__getitem__(0)`, `s.__format__('.3f')`. Each is the interpreter's own operation (the
operator, the builtin, the item access), so the result is the same op record as the operator's
(`x.__rdiv__(2)` is `2 / x`: MulBackward0, as PyTorch's). Only the names of `VALUE_DUNDERS` are
read this way; the dunder audit keeps refusing the rest (`__class__` aside, what reaches
Python's object model: `__dict__`, `__reduce__`, `__getattribute__`...).

A method of a number takes what Python's takes and gives way (NotImplemented) for anything
else (`(2).__add__(3.0)`, `(2).__eq__(2.0)`), as Python's; a tensor's gives way for what is
not a tensor, a number or an array (`x.__add__('a')`), as PyTorch's."""

from __future__ import annotations

import ast
from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core.tensor import Tensor, typename
from . import builtins as B
from .operators import augmented, binop, compare, contains, unary
from .values import Builtin, PyType, is_numpy_number

_ARITH = {
    "add": ast.Add,
    "sub": ast.Sub,
    "mul": ast.Mult,
    "truediv": ast.Div,
    "div": ast.Div,  # (a tensor's own: `__div__`, `__rdiv__`, `__idiv__`)
    "floordiv": ast.FloorDiv,
    "mod": ast.Mod,
    "pow": ast.Pow,
    "matmul": ast.MatMult,
    "and": ast.BitAnd,
    "or": ast.BitOr,
    "xor": ast.BitXor,
    "lshift": ast.LShift,
    "rshift": ast.RShift,
}
_COMPARE = {
    "__eq__": ast.Eq,
    "__ne__": ast.NotEq,
    "__lt__": ast.Lt,
    "__le__": ast.LtE,
    "__gt__": ast.Gt,
    "__ge__": ast.GtE,
}
_UNARY = {"__neg__": ast.USub, "__pos__": ast.UAdd, "__invert__": ast.Invert}

# name -> (kind, operator): "op" a op b, "rop" b op a, "iop" a op= b
_BINARY: dict[str, tuple[str, type]] = {}
for _n, _op in _ARITH.items():
    _BINARY[f"__{_n}__"] = ("op", _op)
    _BINARY[f"__r{_n}__"] = ("rop", _op)
    _BINARY[f"__i{_n}__"] = ("iop", _op)

# The protocol methods: what the interpreter does for each (the value first).
_PROTOCOL = (
    "__len__",
    "__getitem__",
    "__setitem__",
    "__contains__",
    "__iter__",
    "__reversed__",
    "__repr__",
    "__str__",
    "__format__",
    "__bool__",
    "__float__",
    "__int__",
    "__index__",
    "__complex__",
    "__abs__",
    "__round__",
    "__divmod__",
    "__rdivmod__",
)

# What Python's own classes have (for a number, `dir(int)` and its kin; a tensor's from
# `dir(torch.Tensor)`): a name outside these is Python's AttributeError.
_INT_OPS = frozenset(
    f"__{r}{n}__"
    for n in ("add sub mul truediv floordiv mod pow and or xor lshift rshift".split())
    for r in ("", "r")
) | frozenset(
    "__neg__ __pos__ __invert__ __abs__ __bool__ __float__ __int__ __index__ __round__ "
    "__divmod__ __rdivmod__ __repr__ __str__ __format__".split()
)
_FLOAT_OPS = frozenset(
    f"__{r}{n}__" for n in ("add sub mul truediv floordiv mod pow".split()) for r in ("", "r")
) | frozenset(
    "__neg__ __pos__ __abs__ __bool__ __float__ __int__ __round__ __divmod__ __rdivmod__ "
    "__repr__ __str__ __format__".split()
)
_COMPLEX_OPS = frozenset(
    f"__{r}{n}__" for n in ("add sub mul truediv pow".split()) for r in ("", "r")
) | frozenset("__neg__ __pos__ __abs__ __bool__ __complex__ __repr__ __str__ __format__".split())
_TENSOR_OPS = (
    frozenset(
        f"__{r}{n}__"
        for n in ("add sub mul truediv floordiv mod pow matmul and or xor lshift rshift".split())
        for r in ("", "r")
    )
    | frozenset(
        f"__i{n}__"
        for n in "add sub mul truediv floordiv mod pow and or xor lshift rshift div".split()
    )
    | frozenset(("__div__", "__rdiv__"))
    | frozenset(_PROTOCOL)
    | frozenset(("__neg__", "__pos__", "__invert__"))
) - frozenset(("__round__", "__divmod__", "__rdivmod__"))

# Every name read through this module (the dunder audit lets them through, loaded).
VALUE_DUNDERS = frozenset(_BINARY) | frozenset(_COMPARE) | frozenset(_UNARY) | frozenset(_PROTOCOL)

# The Python functions of torch.Tensor that turn a TypeError into NotImplemented (the others
# are its C methods, whose unbound call on a non-tensor is the descriptor's TypeError).
_TENSOR_WRAPPED = frozenset(
    "__rsub__ __rdiv__ __rtruediv__ __pow__ __rpow__ __floordiv__ __rfloordiv__ __rmatmul__ "
    "__rlshift__ __rrshift__ __rmod__".split()
)
# What a tensor's binary method takes (anything else: NotImplemented, as PyTorch's).
# The methods torch.Tensor defines in Python (a bound one prints as `<bound method ...>`).
_TENSOR_PYTHON = _TENSOR_WRAPPED | frozenset(
    "__contains__ __format__ __ipow__ __iter__ __len__ __repr__ __reversed__".split()
)
_TENSOR_OPERANDS = (Tensor, int, float, complex, np.generic, np.ndarray)


class DunderMethod(Builtin):
    """A value's operator method (`x.__add__`, `int.__add__`) as Python shows it. Called
    directly (`__gradcli_call__`): no signature of it is cached, so nothing keeps the value
    it is bound to alive after the call."""

    __slots__ = ("owner",)

    def __init__(self, name: str, fn: Any, owner: Any):
        super().__init__(name, fn)
        self.owner = owner

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        if kwargs:
            raise GradcliError(f"{self.name}() takes no keyword arguments").mirror("TypeError")
        return self.fn(*args)

    def __repr__(self) -> str:
        kind, _, name = self.name.partition(".")
        if self.owner is None:  # unbound, from the class
            if kind == "Tensor":
                return f"<method '{name}' of 'torch._C.TensorBase' objects>"
            return f"<slot wrapper '{name}' of '{kind}' objects>"
        if kind == "Tensor" and name in _TENSOR_PYTHON:
            text = B.BUILTINS["repr"].fn(self.owner)
            return f"<bound method Tensor.{name} of {text}>"
        if kind == "Tensor":
            return f"<built-in method {name} of Tensor object at {id(self.owner):#x}>"
        return f"<method-wrapper '{name}' of {kind} object at {id(self.owner):#x}>"


def _kind_of(v: Any) -> str | None:
    """'Tensor', 'int', 'float', 'complex', 'bool', or None for any other value."""
    if isinstance(v, Tensor):
        return "Tensor"
    t = type(v)
    if t is bool:
        return "bool"
    if t in (int, float, complex):
        return t.__name__
    return None


def _names_of(kind: str) -> frozenset[str]:
    if kind == "Tensor":
        return _TENSOR_OPS | _COMPARE.keys()
    if kind in ("int", "bool"):
        return _INT_OPS | _COMPARE.keys()
    return (_FLOAT_OPS if kind == "float" else _COMPLEX_OPS) | _COMPARE.keys()


# What a number's method accepts as the other operand (Python's: an int takes ints, a float
# ints and floats, a complex all three; bool is an int).
_ACCEPTS = {"int": (int,), "bool": (int,), "float": (int, float), "complex": (int, float, complex)}


def _number_other(kind: str, other: Any) -> bool:
    return type(other) in (bool, int, float, complex) and isinstance(other, _ACCEPTS[kind])


def _call(kind: str, name: str, self: Any, args: tuple) -> Any:
    """`self.name(*args)` for a value of `kind`, as Python (or PyTorch) runs it."""
    rt = B.current()
    if name in _BINARY or name in _COMPARE:
        if len(args) != 1 and not (name in ("__pow__", "__rpow__") and len(args) == 2):
            if kind == "Tensor":
                return NotImplemented  # (PyTorch's: its TypeError turned into NotImplemented)
            raise GradcliError(f"expected 1 argument, got {len(args)}").mirror("TypeError")
        other = args[0]
        if kind == "Tensor":
            if not isinstance(other, _TENSOR_OPERANDS):
                return NotImplemented
        elif not _number_other(kind, other):
            return NotImplemented
        if name in _COMPARE:
            if kind == "complex" and name not in ("__eq__", "__ne__"):
                return NotImplemented
            return compare(_COMPARE[name](), self, other)
        how, op = _BINARY[name]
        if len(args) == 2:  # pow(a, b, mod): Python's three-argument power
            a, b = (self, other) if how == "op" else (other, self)
            return B._pow(a, b, args[1])
        if how == "op":
            return binop(op(), self, other)
        if how == "rop":
            return binop(op(), other, self)
        return augmented(op(), self, other)
    if name == "__setitem__":
        if len(args) != 2:
            raise GradcliError(f"expected 2 arguments, got {len(args)}").mirror("TypeError")
        rt.setitem(self, args[0], args[1], None, None)
        return None
    if name in ("__getitem__", "__contains__", "__format__", "__divmod__", "__rdivmod__"):
        if len(args) != 1:
            raise GradcliError(f"expected 1 argument, got {len(args)}").mirror("TypeError")
        (arg,) = args
        if name == "__getitem__":
            return rt.getitem(self, arg)
        if name == "__contains__":
            return contains(self, arg)
        if name == "__format__":
            if not isinstance(arg, str):
                raise GradcliError(
                    f"__format__() argument must be str, not {typename(arg)}"
                ).mirror("TypeError")
            if kind == "Tensor" and self.ndim != 0 and arg:
                raise GradcliError("unsupported format string passed to Tensor.__format__").mirror(
                    "TypeError"
                )
            return B._format(self, arg)
        if not _number_other(kind, arg) or kind == "complex":
            return NotImplemented
        return B._divmod(self, arg) if name == "__divmod__" else B._divmod(arg, self)
    if name == "__round__":
        if len(args) > 1:
            raise GradcliError(f"expected at most 1 argument, got {len(args)}").mirror("TypeError")
        return B._builtin_round(self, *args)
    if args:
        raise GradcliError(f"expected 0 arguments, got {len(args)}").mirror("TypeError")
    if name in _UNARY:
        return unary(_UNARY[name](), self)
    return _NULLARY[name](self)


_NULLARY = {
    "__len__": B._builtin_len,
    "__iter__": B._iter,
    "__reversed__": B._reversed,
    "__repr__": lambda v: B.BUILTINS["repr"].fn(v),
    "__str__": B.builtin_str,
    "__bool__": B._bool,
    "__float__": lambda v: B._num(v, float),
    "__int__": lambda v: B._num(v, int),
    "__complex__": lambda v: B._num(v, complex),
    "__index__": B._index,
    "__abs__": B._builtin_abs,
}


def bound(owner: Any, name: str) -> DunderMethod | None:
    """`owner.name` for a tensor or a Python number (None: another kind of value)."""
    kind = _kind_of(owner)
    if kind is None:
        return None
    if name not in _names_of(kind):
        shown = "Tensor" if kind == "Tensor" else kind
        raise GradcliError(f"'{shown}' object has no attribute '{name}'").mirror("AttributeError")
    return DunderMethod(f"{kind}.{name}", lambda *args: _call(kind, name, owner, args), owner)


# The classes whose methods are read unbound (`int.__add__(2, 3)`, `torch.Tensor.__mul__`).
_CLASS_KINDS = {"Tensor": Tensor, "int": int, "float": float, "complex": complex, "bool": bool}


def unbound(owner: PyType, name: str) -> DunderMethod | None:
    """`torch.Tensor.__add__` / `int.__add__` (None: another class)."""
    kind = owner.name
    if _CLASS_KINDS.get(kind, ()) is not owner.types[0]:
        return None
    if name not in _names_of(kind):
        raise GradcliError(f"type object '{kind}' has no attribute '{name}'").mirror(
            "AttributeError"
        )

    def call(*args: Any) -> Any:
        if not args:
            if kind == "Tensor":
                raise GradcliError(
                    f"descriptor '{name}' of 'torch._C.TensorBase' object needs an argument"
                ).mirror("TypeError")
            raise GradcliError(f"unbound method {kind}.{name}() needs an argument").mirror(
                "TypeError"
            )
        self, rest = args[0], args[1:]
        own = _kind_of(self)
        if kind == "Tensor":
            if own != "Tensor":
                if name in _TENSOR_WRAPPED:
                    return NotImplemented
                raise GradcliError(
                    f"descriptor '{name}' for 'torch._C.TensorBase' objects doesn't apply to "
                    f"a '{typename(self)}' object"
                ).mirror("TypeError")
        elif not (own == kind or (kind == "int" and own == "bool")) or own is None:
            raise GradcliError(
                f"descriptor '{name}' requires a '{kind}' object but received a '{typename(self)}'"
            ).mirror("TypeError")
        return _call(own, name, self, rest)  # (a bool's int method: its own, as Python's)

    return DunderMethod(f"{kind}.{name}", call, None)


def value_dunder(rt: Any, owner: Any, name: str, other: Any) -> Any:
    """`owner.name` for a name of `VALUE_DUNDERS`: a tensor's or number's method, the class's
    unbound one, or `other(rt, owner)` (a program's class's own, or its refusal)."""
    method = bound(owner, name)
    if method is not None:
        return method
    if type(owner) is PyType:
        method = unbound(owner, name)
        if method is not None:
            return method
    if is_numpy_number(owner) or isinstance(owner, (np.ndarray, str, list, tuple, dict, set)):
        raise NotSupported(
            f"`.{name}` of a value of class '{typename(owner)}' is not supported in gradcli "
            "programs",
            found=f"`.{name}`",
            expected="an operator method of a tensor or a Python number (`x.__add__(y)`)",
            hint="write the operator or the builtin it stands for (`a + b`, `len(a)`, `a[i]`)",
        )
    return other(rt, owner)


def getattr_dunder(obj: Any, name: str) -> DunderMethod | None:
    """`getattr(obj, name)` of a name of `VALUE_DUNDERS` on a tensor, a number or one of their
    classes (None: another name or value)."""
    if name not in VALUE_DUNDERS:
        return None
    found = bound(obj, name)
    if found is None and type(obj) is PyType:
        found = unbound(obj, name)
    return found


B.VALUE_DUNDER.append(getattr_dunder)
