"""The Python builtins a program may call (`range`, `len`, `zip`, `sorted`, `isinstance`,
`type`...), checked: their arguments' types, and the limits on what they make (counted
before it is made). What is not here is not defined in a program:
`vars`, `dir`, `globals`, `open`, `eval`, `exec`, `compile`, `input`, `format`, `object`... and
`type` may only be called (`type(x)`), never held as a value."""

from __future__ import annotations

import ast
import collections
from collections.abc import Callable
from types import FunctionType
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, LimitError, NotSupported
from ..core import dtypes, hooks
from ..core import tensor as tensor_module
from ..core.op import AccumulateGrad, CompiledFunctionBackward, Node, ShownNode, python_class
from ..core.sparse import SparseCOO
from ..core.tensor import SCALAR_WARNING, Tensor, _GradMode, repeated_change, typename
from ..ops import arithmetic as A
from ..surface import nn as surface_nn
from ..surface.constructors import LegacyTensorType, Variable
from ..surface.printing import MaxMin
from . import operators, pycounter
from . import pycollections as PC
from . import pyenum as EN
from . import pyobjects as PO
from .exceptions import BUILTIN_CLASSES, CLASSES, ExcClass, ExcValue, ProgramError
from .operators import binop, compare
from .pyobjects import _hashable, call_value, d_update, sort_items
from .text import checked_str, to_repr
from .values import (
    EXIT,
    FUNCTION_BASE,
    HOP_TRACING,
    MODULE_TYPES,
    PARAMETER_TYPE,
    PROGRAM_INSTANCES,
    TENSOR_TYPE,
    AbstractBaseType,
    BoundMethod,
    Builtin,
    Ctx,
    DefaultDict,
    DType,
    Generator,
    GenericAlias,
    LossBaseType,
    ModuleType,
    PyType,
    TypeUnion,
    UserFunction,
    as_index,
    check_structure,
    current,
    int_check,
    int_index,
    is_iterator,
    is_numpy_number,
    iterate,
    length,
    numpy_number,
    seq,
    short,
    truth,
)

BUILTINS: dict[str, Any] = {}


# Whether a function value is one PyTorch implements in C (`torch.exp`: its type() is
# builtin_function_or_method): set by `lang.compiler` from `torch_reprs`, whose table is built
# from the namespaces, which build on this module.
C_FUNCTION: list[Callable[[Any], bool]] = [lambda v: False]


# What `namespaces` (which imports this module) sets when it loads: the type a program names
# for a NumPy number (`type(n) is np.int64`), None for another value.
def numpy_scalar_type(v: Any) -> Any:
    return None


def _numpy_scalar(c: Any) -> bool:
    """Whether `c` is NumPy's scalar type as a program names it (`namespaces.NumpyScalarType`,
    marked: known without importing that module)."""
    return bool(getattr(type(c), "NUMPY_SCALAR", False))


def _builtin_range(*args: Any) -> range:
    if not 1 <= len(args) <= 3:
        raise GradcliError(f"range expected 1 to 3 arguments, got {len(args)}").mirror("TypeError")
    clean = []
    for a in args:
        a = as_index(a)  # (its __index__, as Python takes it)
        if isinstance(a, bool):
            a = int(a)
        if not isinstance(a, int):
            raise GradcliError(
                f"'{typename(a)}' object cannot be interpreted as an integer",
                hint="use int(...) to convert",
            ).mirror("TypeError")
        clean.append(a)
    if len(clean) == 3 and clean[2] == 0:
        raise GradcliError("range() arg 3 must not be zero").mirror("ValueError")
    return range(*clean)


def _builtin_len(v: Any) -> int:
    if isinstance(v, Tensor):
        return len(v)
    own = getattr(type(v), "program_len", None)  # a program's class with __len__
    if own is not None:
        return own(v)
    n = length(v)
    if n is None:
        raise GradcliError(f"object of type '{typename(v)}' has no len()").mirror("TypeError")
    return n


# The methods of a program's class int(), float() and complex() call, in Python's order.
_NUMBER_METHODS = {
    "int": ("__int__", "__index__"),
    "float": ("__float__", "__index__"),
    "complex": ("__float__", "__index__"),
}


def _num(v: Any, conv: Callable[[Any], Any]) -> Any:
    name = conv.__name__
    from_tensor = False
    if PROGRAM_INSTANCES and isinstance(v, PROGRAM_INSTANCES[0]):
        from .classes import program_number

        got = program_number(v, _NUMBER_METHODS[name])
        if got is not None:
            v = got
    if is_numpy_number(v):
        v = v.item()
    elif isinstance(v, np.ndarray):
        # (ndarray's own __float__/__int__/__complex__: a 0-d array's item)
        if v.ndim != 0:
            raise GradcliError(
                "only 0-dimensional arrays can be converted to Python scalars"
            ).mirror("TypeError")
        if v.dtype.kind in "biufc":
            v = v.item()
    if isinstance(v, Tensor):
        if v.data.size != 1:
            raise GradcliError(
                "only one element tensors can be converted to Python scalars"
            ).mirror("ValueError")
        if conv is not int and v.requires_grad:  # (float and complex: PyTorch's __float__)
            hooks.warn(SCALAR_WARNING, None, once="scalar conversion")  # once a process
        v = v.item()
        if tensor_module.PYTHON_VALUE_HOOK is not None:  # (a torch.jit.trace's constant)
            kind = {"int": "integer", "float": "float"}.get(name, "number")
            v = tensor_module.python_value(kind, v)
        from_tensor = True
    elif isinstance(v, str):
        if len(v) > 4300:
            raise GradcliError(f"could not convert string to {name}: {short(repr(v))}").mirror(
                "ValueError"
            )
        try:
            return int_check(conv(v))
        except ValueError as e:
            raise GradcliError(short(str(e))).mirror("ValueError") from None
    if isinstance(v, complex) and conv is not complex:
        if from_tensor:  # PyTorch's words for a complex tensor's number
            what = "double" if conv is float else "int64_t"
            raise GradcliError(f"value cannot be converted to type {what} without overflow")
        raise GradcliError(
            f"{name}() argument must be a string or a real number, not 'complex'"
        ).mirror("TypeError")
    if isinstance(v, (int, float, bool, complex)):
        try:
            return int_check(conv(v))
        except OverflowError as e:
            raise GradcliError(str(e)).mirror("OverflowError") from None
        except ValueError as e:
            raise GradcliError(str(e)).mirror("ValueError") from None
    what = (
        "a string, a bytes-like object or a real number"
        if name == "int"
        else ("a string or a real number" if name == "float" else "a string or a number")
    )
    which = "first argument" if name == "complex" else "argument"
    raise GradcliError(f"{name}() {which} must be {what}, not '{typename(v)}'").mirror("TypeError")


def _minmax(which: Callable[..., Any], name: str) -> Callable[..., Any]:
    _none = object()

    def f(*args: Any, key: Any = None, default: Any = _none) -> Any:
        if not args:
            raise GradcliError(f"{name} expected at least 1 argument, got 0").mirror("TypeError")
        # One argument is iterated, a tensor too (its items are `unbind(0)`'s, as Python's
        # max() of a tensor walks it: the item it returns is UnbindBackward0's and takes the
        # whole gradient, the first of equal ones winning).
        items = seq(args[0], f"{name}()") if len(args) == 1 else list(args)
        if not items:
            if default is not _none:
                return default
            raise GradcliError(f"{name}() arg is an empty sequence").mirror("ValueError")
        if any(isinstance(i, Tensor) for i in items) or (
            key is not None and not all(isinstance(i, (int, float, str)) for i in items)
        ):
            # Python's own walk: the first item, replaced by each later one whose key compares
            # greater (max) or less (min); a tensor of several elements has no truth value.
            op = ast.Gt() if name == "max" else ast.Lt()
            best = items[0]
            best_key = best if key is None else call_value(key, best)
            for i in items[1:]:
                k = i if key is None else call_value(key, i)
                if truth(compare(op, k, best_key)):
                    best, best_key = i, k
            return best
        for i in items:
            check_structure(i, f"{name}()")
        try:
            if key is not None:
                return which(items, key=lambda v: call_value(key, v))
            return which(items)
        except TypeError as e:
            # Python's own words ("'>' not supported between instances of ..."): a
            # program's `except TypeError` catches them
            raise GradcliError(str(e)).mirror("TypeError").pytorch() from None

    return f


def _builtin_sum(items: Any, start: Any = 0) -> Any:
    total = start
    tick = limits.BUDGET.tick
    for v in seq(items, "sum()"):
        # A step can cost as much as `total` is long (lists and strings are copied): the
        # clock is checked on the way (`sum([[0]] * 10**6, [])` is quadratic).
        tick()
        total = binop(ast.Add(), total, v)
    return total


def _builtin_round(v: Any, nd: Any = None) -> Any:
    # A Tensor has no __round__ in PyTorch (torch.round / x.round() round one): TypeError.
    x = v
    if is_numpy_number(x):
        # NumPy's __round__: an int without digits, else a NumPy number of the same type.
        if nd is None:
            return _builtin_round(x.item())
        with np.errstate(all="ignore"):
            return numpy_number(np.round(x, max(-400, min(400, _index(nd)))))
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        shown = "numpy.ndarray" if isinstance(x, np.ndarray) else typename(x)
        raise GradcliError(f"type {shown} doesn't define __round__ method").mirror("TypeError")
    if nd is None:
        try:
            return int_check(round(x))
        except OverflowError as e:
            raise GradcliError(str(e)).mirror("OverflowError") from None
        except ValueError as e:
            raise GradcliError(str(e)).mirror("ValueError") from None
    nd = _index(nd)
    # Beyond +-400 digits every finite float and every int gradcli allows rounds the same, and
    # round(int, -10**12) would compute 10**10**12.
    return round(x, max(-400, min(400, nd)))


def _builtin_abs(v: Any) -> Any:
    if isinstance(v, Tensor):
        return A.abs(v)
    from .classes import Instance

    if type(v) is Instance and v.special("__abs__") is not None:
        return v.call_special(v.special("__abs__"))
    if isinstance(v, (int, float, complex)):
        return abs(v)
    if is_numpy_number(v):
        with np.errstate(all="ignore"):
            return numpy_number(abs(v))
    if isinstance(v, np.ndarray):  # (ndarray's __abs__: np.absolute, a new array)
        from .arrays import _unary

        return _unary("abs", A.abs)(v)
    if type(v) is operators._TIMEDELTA[0]:
        return abs(v)  # a duration's length (`abs(end - start)`)
    raise GradcliError(f"bad operand type for abs(): '{typename(v)}'").mirror("TypeError")


def builtin_str(v: Any = "", encoding: Any = None, errors: Any = None) -> str:
    if encoding is not None or errors is not None:  # str(b, "utf-8"): the bytes decoded
        if not isinstance(v, bytes):
            what = (
                "str is"
                if isinstance(v, str)
                else f"to str: need a bytes-like object, {typename(v)}"
            )
            raise (
                GradcliError(
                    "decoding str is not supported"
                    if isinstance(v, str)
                    else f"decoding {what} found"
                )
                .mirror("TypeError")
                .pytorch()
            )  # (Python's words: catchable)
        from . import pybytes

        return pybytes.decode(v, "utf-8" if encoding is None else encoding, errors or "strict")
    return checked_str(v)


def _make_bytes(*args: Any, **kwargs: Any) -> bytes:
    from . import pybytes

    return pybytes.make(*args, **kwargs)


class _BytesMembers(dict):
    """`bytes.fromhex(...)` and the unbound methods (`bytes.decode(b)`), made when a program
    first reaches one (`lang.pybytes` is imported then)."""

    def _table(self) -> dict:
        if not dict.__len__(self):
            from . import pybytes

            dict.update(
                self,
                {
                    **_unbound("bytes", (bytes,), pybytes.BYTES),
                    "fromhex": Builtin("bytes.fromhex", pybytes.fromhex),
                },
            )
        return self

    def __bool__(self) -> bool:  # (a table, even before it is made)
        return True

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self._table(), key)

    def __getitem__(self, key: Any) -> Any:
        return dict.__getitem__(self._table(), key)

    def get(self, key: Any, default: Any = None) -> Any:
        return dict.get(self._table(), key, default)


_index = int_index  # (Python's operator.index: a tensor by PyTorch's Tensor.__index__)


def _zipped(iterables: tuple, what: str, strict: bool = False) -> Any:
    """The tuples `zip(*iterables)` makes, one at a time, counted as they are made: only what
    the zip returns is ever made (not each argument's items first: sixty ranges of a million
    would be sixty million). Each argument is made iterable at once, as Python's zip() does
    (`zip(5)` fails where it is called, not where it is consumed)."""
    k = len(iterables)
    its = [iterate(v, what) for v in iterables]
    lengths = [length(v) for v in iterables]
    if None not in lengths:
        # Every length is known: the whole zip is counted before any tuple is made.
        limits.LIST_ITEMS.check(min(lengths) * k, f"the number of items {what} would make")
    most = limits.LIST_ITEMS.value // k
    return _zip_items(its, k, most, what, strict)


def _zip_items(its: list, k: int, most: int, what: str, strict: bool) -> Any:
    made = 0
    zipped = zip(*its, strict=True) if strict else zip(*its)
    while True:
        try:
            t = next(zipped)
        except StopIteration:
            return
        except ValueError as e:
            # zip(strict=True)'s own message ("zip() argument 2 is shorter than argument 1").
            if strict and str(e).startswith("zip()"):
                raise GradcliError(str(e)).mirror("ValueError") from None
            raise
        if made >= most:
            limits.LIST_ITEMS.check((made + 1) * k, f"the number of items {what} would make")
        made += 1
        yield t


class BuiltinIter(Generator):
    """What zip, enumerate, map, filter and reversed return: an iterator as Python's, made
    lazily and consumed once (`list(z)` a second time is empty), not subscriptable and without
    a length, printed and named as Python names it (`<zip object at 0x...>`, `type(...)` is
    `zip`). Its items are read from the arguments as a loop asks for them, so a list changed
    while it is iterated is seen changed, as in Python."""

    __slots__ = ("kind",)

    def __init__(self, kind: str, it: Any):
        super().__init__(it)
        self.kind = kind

    def __repr__(self) -> str:
        return f"<{self.kind} object at {id(self):#x}>"

    def program_typename(self) -> str:
        return self.kind


def _zip(*iterables: Any, strict: Any = False) -> BuiltinIter:
    if not iterables:
        return BuiltinIter("zip", iter(()))
    return BuiltinIter("zip", _zipped(iterables, "zip()", bool(strict)))


def _enumerate(v: Any, start: Any = 0) -> BuiltinIter:
    return BuiltinIter("enumerate", enumerate(iterate(v, "enumerate()"), _index(start)))


# The type Python's reversed() returns for each kind of sequence.
_REVERSED_KIND = {
    list: "list_reverseiterator",
    range: "range_iterator",
    dict: "dict_reversekeyiterator",
}


def _reversed(v: Any) -> Any:
    if isinstance(v, Tensor):
        # Tensor.__reversed__: the tensor flipped on its first dimension (a 0-d one itself).
        if v.ndim == 0:
            return v
        from ..surface.rearrange import flip  # (imported when first needed: start-up)

        return flip(v, (0,))
    if is_iterator(v) or isinstance(v, (set, dict)) and not isinstance(v, dict):
        raise GradcliError(f"'{typename(v)}' object is not reversible").mirror("TypeError")
    if isinstance(v, (list, range, str, tuple, dict)):
        return BuiltinIter(_REVERSED_KIND.get(type(v), "reversed"), reversed(v))
    items = seq(v, "reversed()")
    items.reverse()
    return BuiltinIter("reversed", iter(items))


def _sorted(items: Any, *, key: Any = None, reverse: Any = False) -> list:
    return sort_items(seq(items, "sorted()"), key, bool(reverse))


def _any(items: Any) -> bool:
    for v in items if is_iterator(items) else seq(items, "any()"):
        if truth(v):
            return True
    return False


def _all(items: Any) -> bool:
    for v in items if is_iterator(items) else seq(items, "all()"):
        if not truth(v):
            return False
    return True


def _map(f: Any, *iterables: Any) -> Any:
    if not iterables:
        raise GradcliError("map() must have at least two arguments.").mirror("TypeError")
    return BuiltinIter("map", (call_value(f, *args) for args in _zipped(iterables, "map()")))


def _filter(f: Any, items: Any) -> BuiltinIter:
    return BuiltinIter(
        "filter",
        (
            v
            for v in iterate(items, "filter()")
            if (truth(v) if f is None else truth(call_value(f, v)))
        ),
    )


def _dict(*args: Any, **kwargs: Any) -> dict:
    if len(args) > 1:
        raise GradcliError(f"dict expected at most 1 argument, got {len(args)}").mirror("TypeError")
    out: dict = {}
    d_update(out, args[0] if args else (), **kwargs)
    return out


def _set(items: Any = ()) -> set:
    return {_hashable(v) for v in seq(items, "set()")}


# What Python 3.11's dir() lists for an instance of `class A: pass` (object's names and those
# every class body makes): a program's instance adds its attributes and its classes' entries.
_OBJECT_DIR = frozenset(
    "__class__ __delattr__ __dict__ __dir__ __doc__ __eq__ __format__ __ge__ __getattribute__ "
    "__getstate__ __gt__ __hash__ __init__ __init_subclass__ __le__ __lt__ __module__ __ne__ "
    "__new__ __reduce__ __reduce_ex__ __repr__ __setattr__ __sizeof__ __str__ __subclasshook__ "
    "__weakref__".split()
)
_REFLECTED = "gradcli programs look into the instances of their own plain classes only"


def instance_dict(o: Any) -> Any:
    """`obj.__dict__` read: the attribute table of an instance of a program's plain class (or a
    SimpleNamespace), itself, as `vars(obj)` (`'{name} {avg:.3f}'.format(**self.__dict__)`,
    `self.__dict__.update(kwargs)`); of anything else, refused as vars() refuses it."""
    from .classes import Instance
    from .pynamespace import SimpleNamespace

    if type(o) is Instance or isinstance(o, SimpleNamespace):
        return o.attrs
    if o is None or isinstance(o, (bool, int, float, str, list, tuple, dict, set, frozenset)):
        raise GradcliError(
            f"'{typename(o)}' object has no attribute '__dict__'", found="`.__dict__`"
        ).mirror("AttributeError")
    from ..surface.nn import Module

    if isinstance(o, Module):
        from .classes import ModuleInstance

        if (
            type(o) is ModuleInstance
            and o.cls.library is None
            and o.initialized
            and not o.__dict__.get("_parametrized")
        ):
            # a program's nn.Module subclass: a read-only snapshot in PyTorch's order
            from ..surface.nn import instance_entries

            return instance_entries(o)
        # (PyTorch's is the module's live attribute table: its parameters', buffers' and
        # submodules' dicts, hook tables, flags; kept out, as every dunder table of an object
        # the program did not make as a plain instance)
        raise NotSupported(
            f"`.__dict__` is not accessible in gradcli programs: a module's instance dictionary "
            f"(here of a {typename(o)}) is not supported by gradcli",
            found="`.__dict__`",
            hint="of a module, print dict(model.named_parameters()), dict(model.named_buffers())"
            ", dict(model.named_children()) or model.state_dict()",
        )
    raise GradcliError(
        f"`.__dict__` is not accessible in gradcli programs (here of a {typename(o)}): "
        f"{_REFLECTED}",
        found="`.__dict__`",
        hint="of a module, print dict(model.named_parameters()) or model.state_dict()",
    ).mirror(None)


def _vars(*args: Any) -> Any:
    """`vars(obj)` of an instance of a program's plain class: its attribute table itself (as
    Python's `__dict__`: a change to it is a change of the attributes)."""
    from .classes import Instance

    if len(args) != 1:
        if args:
            raise GradcliError(f"vars expected at most 1 argument, got {len(args)}").mirror(
                "TypeError"
            )
        raise NotSupported(
            "vars() without an argument is not supported",
            hint="name the variables you want to see: print(x, y)",
        )
    o = args[0]
    if type(o) is Instance:
        return o.attrs
    from .pynamespace import SimpleNamespace

    if isinstance(o, SimpleNamespace):  # `print(vars(args))` of a script's settings
        return o.attrs
    if o is None or isinstance(o, (bool, int, float, str, list, tuple, dict, set, frozenset)):
        raise GradcliError("vars() argument must have __dict__ attribute").mirror("TypeError")
    if isinstance(o, surface_nn.Module):
        from .classes import ModuleInstance

        if type(o) is ModuleInstance:
            return instance_dict(o)  # (a program's module: its snapshot; others refused)
        raise NotSupported(
            "vars() of a module is not supported: PyTorch's shows the module's internal tables "
            "(_parameters, _buffers, its hooks...)",
            hint="print(dict(model.named_parameters())) or print(model.state_dict())",
        )
    raise NotSupported(
        f"vars() of a {typename(o)} is not supported: {_REFLECTED}",
        hint="print the value or its type()",
    )


def _dir(*args: Any) -> list[str]:
    """`dir(obj)` of an instance of a program's plain class (not a dataclass): Python's sorted
    names, its attributes, its classes' entries and object's."""
    from .classes import Instance, PlainClass, _dataclass_of

    if len(args) != 1:
        if args:
            raise GradcliError(f"dir expected at most 1 argument, got {len(args)}").mirror(
                "TypeError"
            )
        raise NotSupported(
            "dir() without an argument is not supported",
            hint="name the variables you want to see: print(x, y)",
        )
    o = args[0]
    if type(o) is not Instance or _dataclass_of(o) is not None:
        what = "a dataclass" if type(o) is Instance else f"a {typename(o)}"
        raise NotSupported(
            f"dir() of {what} is not supported: {_REFLECTED} (not dataclasses)",
            hint="print the value, or vars(obj) for a plain class's attributes",
        )
    names = set(_OBJECT_DIR)
    for c in o.cls.mro:
        if isinstance(c, PlainClass):
            names.update(k for k in c.attrs if isinstance(k, str))
            if c.annotations:
                names.add("__annotations__")
    keys = list(o.attrs)
    if not all(isinstance(k, str) for k in keys):
        raise GradcliError(
            "'<' not supported between instances of 'int' and 'str'"
            if any(isinstance(k, int) for k in keys)
            else "dir(): the attribute table holds a name that is not a string"
        ).mirror("TypeError")
    names.update(keys)
    return sorted(names)


def _frozenset(items: Any = ()) -> frozenset:
    return frozenset(_hashable(v) for v in seq(items, "frozenset()"))


def _next(it: Any, *default: Any) -> Any:
    if _GradMode.repeats:  # inside vmap: PyTorch's one run advances the iterator once
        repeated_change(it, f"an iterator ({typename(it)}, next())")
    own = getattr(type(it), "program_next", None)  # a program's class with __next__
    if own is not None:
        if not default:
            return own(it)
        try:
            return own(it)
        except ProgramError as e:
            if e.value.cls is CLASSES["StopIteration"]:
                return default[0]
            raise
    if not is_iterator(it):
        raise GradcliError(f"'{typename(it)}' object is not an iterator").mirror("TypeError")
    try:
        return next(it)
    except StopIteration:
        if default:
            return default[0]
        raise ProgramError(CLASSES["StopIteration"]()) from None


def _iter(v: Any) -> Any:
    if is_iterator(v):
        return v
    own = getattr(type(v), "program_iter", None)  # a program's class
    if own is not None:
        return own(v)
    return iter(iterate(v, "iter()"))


def _format(value: Any, format_spec: Any = "") -> str:
    """`format(v, spec)`: what an f-string field `{v:spec}` shows."""
    from .formatting import format_value

    if not isinstance(format_spec, str):
        raise GradcliError(f"format() argument 2 must be str, not {typename(format_spec)}").mirror(
            "TypeError"
        )
    return format_value(value, format_spec)


def _hash(v: Any) -> int:
    """Python's hash (a tensor's and an object's from its identity, as in PyTorch); of an
    unhashable value Python's TypeError."""
    try:
        return hash(v)
    except TypeError as e:
        raise GradcliError(str(e)).mirror("TypeError") from None


def _divmod(a: Any, b: Any) -> tuple:
    if isinstance(a, Tensor) or isinstance(b, Tensor):  # no __divmod__ on torch tensors
        raise GradcliError(
            f"unsupported operand type(s) for divmod(): '{typename(a)}' and '{typename(b)}'",
            hint="write a // b and a % b",
        ).mirror("TypeError")
    return (binop(ast.FloorDiv(), a, b), binop(ast.Mod(), a, b))


def _pow(a: Any, b: Any, mod: Any = None) -> Any:
    if mod is None:
        return binop(ast.Pow(), a, b)
    if any(isinstance(v, Tensor) for v in (a, b, mod)):  # (a tensor has no 3-argument pow)
        names = ", ".join(f"'{typename(v)}'" for v in (a, b, mod))
        raise GradcliError(f"unsupported operand type(s) for ** or pow(): {names}").mirror(
            "TypeError"
        )
    for v in (a, b, mod):
        _index(v)
    try:
        return pow(a, b, mod)
    except ValueError as e:
        raise GradcliError(str(e)).mirror("ValueError") from None


def _hasattr(obj: Any, name: Any) -> bool:
    """`hasattr(obj, name)`: whether `obj.name` reads; of a dunder name, Python's answer for
    the value the program holds (`_has_dunder`), nothing of it being read."""
    if not isinstance(name, str):
        raise GradcliError("hasattr(): attribute name must be string").mirror("TypeError")
    if name.startswith("__") and name.endswith("__") and len(name) > 4:
        from .classes import own_dunder

        if own_dunder(name):  # `hasattr(obj, '__init_state__')`: the program's own name
            try:
                _own_dunder(obj, name)
            except NotSupported:  # (not a value of the program's classes: Python's answer)
                return _has_dunder(obj, name)
            except GradcliError:
                return False
            return True
        return _has_dunder(obj, name)
    if (obj is surface_nn.Module or isinstance(obj, ModuleType)) and (
        name in surface_nn.Module.METHODS
    ):
        return True  # (`hasattr(nn.Module, 'register_forward_hook')`: the class's function)
    try:
        current().attribute(obj, name)
    except LimitError:
        raise
    except NotSupported:
        # PyTorch has it where the recorded names say so (`hasattr(m, 'to_empty')`, True in
        # PyTorch): reading it is refused, the answer is PyTorch's
        return _pytorch_has(obj, name)
    except GradcliError:
        return False
    return True


def _pytorch_has(obj: Any, name: str) -> bool:
    from ..surface import public
    from .values import Namespace

    if isinstance(obj, Tensor):
        return bool(public.has("Tensor", name))
    if isinstance(obj, surface_nn.Module):
        return bool(public.has("Module", name))
    if isinstance(obj, Namespace):
        return bool(public.has(obj.name, name))
    return False


# What Python's object has: every value has them.
_OBJECT_DUNDERS = frozenset(
    "class delattr dir doc eq format ge getattribute getstate gt hash init init_subclass le lt "
    "ne new reduce reduce_ex repr setattr sizeof str subclasshook".split()
)
_TENSOR_DUNDERS = _OBJECT_DUNDERS | frozenset(
    "abs add and annotations array array_priority array_wrap bool complex contains deepcopy "
    "delitem dict div getitem "
    "dlpack dlpack_device float floordiv iadd iand idiv ifloordiv ilshift imod "
    "imul index int invert ior ipow irshift isub iter itruediv ixor len long lshift matmul mod "
    "module mul neg nonzero or pos pow radd rand rdiv reversed rfloordiv rlshift rmatmul rmod "
    "rmul ror rpow rrshift rshift rsub rtruediv rxor setitem setstate sub torch_dispatch "
    "torch_function truediv weakref xor".split()
)
_MODULE_DUNDERS = _OBJECT_DUNDERS | frozenset(
    "annotations call constants dict getattr module setstate weakref".split()
)
# The containers among nn's modules, and what they add.
_CONTAINER_DUNDERS = {
    "Sequential": frozenset("add delitem getitem iadd imul iter len mul rmul setitem".split()),
    "ModuleList": frozenset("add delitem getitem iadd iter len setitem".split()),
    "ModuleDict": frozenset("contains delitem getitem iter len setitem".split()),
    "ParameterList": frozenset("getitem iadd iter len setitem".split()),
    "ParameterDict": frozenset(
        "contains delitem getitem ior iter len reversed ror setitem".split()
    ),
}
_CLASS_DUNDERS = _OBJECT_DUNDERS | frozenset(
    "name qualname mro bases base basicsize call dict module weakref".split()
)
_FUNCTION_DUNDERS = _OBJECT_DUNDERS | frozenset(
    "annotations builtins call closure code defaults dict get globals kwdefaults module name "
    "qualname".split()
)
_BUILTIN_DUNDERS = _OBJECT_DUNDERS | frozenset(
    "call module name qualname self text_signature".split()
)
_NAMESPACE_DUNDERS = _OBJECT_DUNDERS | frozenset("dict loader name package spec".split())
_PYTHON_VALUES = (int, float, complex, str, bytes, list, tuple, dict, set, frozenset, range, slice)


def _has_dunder(obj: Any, name: str) -> bool:
    from .classes import (
        FunctionClass,
        Instance,
        ModuleClass,
        ModuleInstance,
        OptimClass,
        PlainClass,
    )
    from .values import Namespace

    short = name[2:-2]
    if name in ("__class__", "__doc__") or short in _OBJECT_DUNDERS:
        return True
    if short == "call":  # (whatever callable() calls has it: torch.relu, optim.SGD, F.mse_loss)
        return _callable(obj)
    if isinstance(obj, Tensor):
        return short in _TENSOR_DUNDERS
    if isinstance(obj, surface_nn.Module) and "_attr_" + name in obj.__dict__:
        return True  # set by the program (`m.__name__ = name`): a plain attribute of it
    if isinstance(obj, (Instance, ModuleInstance)):
        # the program's class may define it (a plain class's dunder methods)
        if obj.cls.lookup(name) is not None:
            return True
        if isinstance(obj, Instance):
            return short in ("dict", "module", "weakref")
    if isinstance(obj, surface_nn.Module):
        return short in _MODULE_DUNDERS or short in _CONTAINER_DUNDERS.get(obj.name, ())
    if isinstance(obj, (PlainClass, ModuleClass, OptimClass)):
        return short in _CLASS_DUNDERS or obj.lookup(name) is not None
    if isinstance(obj, (ExcClass, PyType, FunctionClass)) or obj is surface_nn.Module:
        return short in _CLASS_DUNDERS
    if isinstance(obj, UserFunction):
        return short in _FUNCTION_DUNDERS
    if isinstance(obj, (Builtin, BoundMethod)):
        return short in _BUILTIN_DUNDERS
    if isinstance(obj, Namespace):
        return short in _NAMESPACE_DUNDERS or name in obj.members  # (torch.__version__)
    if obj is None or isinstance(obj, (bool, *_PYTHON_VALUES)):
        return hasattr(obj, name)  # (a value of Python's builtin types: its own answer)
    if isinstance(obj, DType):
        return short == "module"
    return False


_NO_DEFAULT = object()
# `lang.dunders.getattr_dunder` (set there: it builds on this module): a tensor's or number's
# operator method by name, or None.
VALUE_DUNDER: list = []


def _getattr(obj: Any, name: Any, default: Any = _NO_DEFAULT) -> Any:
    """`getattr(obj, "name"[, default])`: `obj.name` through the same tables and the same
    audit as the written attribute (no dunder names: a string can name what source cannot)."""
    if not isinstance(name, str):
        raise GradcliError("attribute name must be string").mirror("TypeError")
    if name == "__class__":  # as `obj.__class__`: what type(obj) gives
        return TYPE_BUILTIN.fn(obj)
    from .classes import own_dunder

    if own_dunder(name):  # `getattr(obj, '__init_state__')`: a method of the program's class
        try:
            return _own_dunder(obj, name)
        except NotSupported:
            raise
        except GradcliError:
            if default is _NO_DEFAULT:
                raise
            return default
    if name.startswith("__") and name != "__name__":
        if VALUE_DUNDER:  # `getattr(x, '__add__')`: as `x.__add__` reads (`lang.dunders`)
            found = VALUE_DUNDER[0](obj, name)
            if found is not None:
                return found
        raise GradcliError(
            f"getattr(..., {name[:40]!r}) is not accessible in gradcli programs",
            hint="gradcli programs cannot reach Python's internals",
        ).mirror(None)
    try:
        return current().attribute(obj, name)
    except GradcliError:
        if default is _NO_DEFAULT:
            raise
        return default


def _own_dunder(obj: Any, name: str) -> Any:
    """`obj.__name__`-like name Python gives no meaning: the program's class's own entry."""
    from .classes import program_dunder

    return program_dunder(current(), obj, name, TYPE_BUILTIN.fn)


# a tensor's properties PyTorch lets a program set or delete (`del x.grad` is refused below)
_WRITABLE_TENSOR_PROPERTIES = frozenset(("grad", "data", "requires_grad", "real", "imag", "names"))


def delete_attribute(o: Any, name: str) -> None:
    """`del o.name` / `delattr(o, name)` on a module (PyTorch's Module.__delattr__) or an
    instance of a program's plain class (its own attribute); refused on anything else."""
    from .classes import Instance

    if _GradMode.repeats:
        repeated_change(o, f"the attribute .{name} of a {typename(o)}")
    if isinstance(o, surface_nn.Module):
        o.program_delete(name)
        return
    if isinstance(o, Instance):
        o.delete(name)
        return
    from .classes import LibraryClass, ModuleClass, OptimClass, PlainClass

    if type(o) in (ModuleClass, OptimClass, PlainClass) and not isinstance(o, LibraryClass):
        # `del Net.scale`: an entry of the class's own table (not one it inherits)
        table = o.attrs if type(o) is PlainClass else o.methods
        if name not in table:
            raise GradcliError(f"type object '{o.name}' has no attribute '{name}'").mirror(
                "AttributeError"
            )
        del table[name]
        return
    from .pynamespace import SimpleNamespace

    if isinstance(o, (SimpleNamespace, Ctx)):
        o.delete(name)
        return
    if isinstance(o, UserFunction) and o.attrs is not None and name in o.attrs:
        del o.attrs[name]  # an attribute the program gave the function
        return
    if isinstance(o, Tensor) and not name.startswith("_"):
        own = getattr(o, "_attrs", None)
        if own is not None and name in own:  # an attribute the program gave the tensor
            del own[name]
            return
        if name not in TENSOR_PROPERTY_NAMES:  # a method's name (the class's) or none: Python's
            kind = "Parameter" if isinstance(o, surface_nn.Parameter) else "Tensor"
            raise GradcliError(f"'{kind}' object has no attribute '{name}'").mirror(
                "AttributeError"
            )
        if name not in _WRITABLE_TENSOR_PROPERTIES:  # a read-only property (PyTorch's words)
            raise GradcliError(
                f"attribute '{name}' of 'torch._C.TensorBase' objects is not writable"
            ).mirror("AttributeError")
    if isinstance(o, UserFunction):
        raise GradcliError(f"'function' object has no attribute '{name}'").mirror("AttributeError")
    raise NotSupported(
        f"`del` of an attribute of a {typename(o)} is not supported",
        hint="assign None instead (`x.grad = None`), or rebind the name",
    )


def _plain_attribute(name: Any, call: str) -> None:
    """setattr's and delattr's name: a string (Python's TypeError), never a dunder name."""
    if not isinstance(name, str):
        raise GradcliError(f"attribute name must be string, not '{typename(name)}'").mirror(
            "TypeError"
        )
    if name.startswith("__"):
        raise GradcliError(
            call.format(repr(name[:40])) + " is not accessible in gradcli programs",
            hint="gradcli programs cannot reach Python's internals",
        ).mirror(None)


# The names of the tensor's properties (`lang.namespaces.TENSOR_PROPERTIES`, which imports this
# module: it fills this set when it is imported).
TENSOR_PROPERTY_NAMES: set[str] = set()


def _delattr(obj: Any, name: Any) -> None:
    """`delattr(module, name)`: `del obj.name` through the same checks, no dunder names."""
    _plain_attribute(name, "delattr(..., {})")
    delete_attribute(obj, name)


def _setattr(obj: Any, name: Any, value: Any) -> None:
    """`setattr(self, f"fc{i}", nn.Linear(...))` (layers named in a loop): `obj.name = value`
    through the same checks as the written assignment, and no dunder names."""
    _plain_attribute(name, "setattr(..., {}, ...)")
    current().set_attribute(obj, name, value)


def _callable(v: Any) -> bool:
    from .classes import (
        FunctionClass,
        Instance,
        ModuleClass,
        ModuleInstance,
        OptimClass,
        PlainClass,
    )

    if isinstance(
        v,
        (
            UserFunction,
            Builtin,
            BoundMethod,
            PyType,
            ExcClass,
            ModuleClass,
            OptimClass,
            FunctionClass,
            PlainClass,
        ),
    ):
        return True
    if isinstance(v, Instance):
        return v.special("__call__") is not None
    if isinstance(v, ModuleInstance):
        return True
    return callable(v) and not isinstance(v, (str, Tensor, list, tuple, dict))


def _radix(name: str, conv: Callable[[int], str]) -> Builtin:
    """`bin(n)`, `oct(n)`, `hex(n)` of an integer (a NumPy integer, an integer tensor of one
    element: Python asks them for their index)."""

    def call(v: Any) -> str:
        if is_numpy_number(v) and v.dtype.kind == "b":
            v = bool(v)
        return conv(_index(v))

    return Builtin(name, call)


def _chr(i: Any) -> str:
    i = _index(i)
    if not 0 <= i < 0x110000:
        raise GradcliError("chr() arg not in range(0x110000)").mirror("ValueError")
    return chr(i)


def _ord(c: Any) -> int:
    if not isinstance(c, str) or len(c) != 1:
        raise GradcliError("ord() expected a character").mirror("TypeError")
    return ord(c)


def _slice(*args: Any) -> slice:
    if not 1 <= len(args) <= 3:
        raise GradcliError("slice expected 1 to 3 arguments").mirror("TypeError")
    return slice(*args)


# --- types: callable to convert, and what isinstance / type() use -----------------------------


def _bool(v: Any = False) -> bool:
    return truth(v)


def _list(v: Any = ()) -> list:
    return seq(v, "list()")


def _tuple(v: Any = ()) -> tuple:
    return tuple(seq(v, "tuple()"))


def _int(v: Any = 0, base: Any = None) -> Any:
    """`int(v)` and `int(text, base)` (`int('ff', 16)`, `int('0b101', 0)`), as Python's."""
    if base is None:
        return _num(v, int)
    base = _index(base)
    if not isinstance(v, str):
        raise GradcliError("int() can't convert non-string with explicit base").mirror("TypeError")
    try:  # (Python's own limit of 4300 digits bounds the bases that cost more than linear)
        return int_check(int(v, base))
    except ValueError as e:
        raise GradcliError(short(str(e))).mirror("ValueError") from None


def _unbound(kind: str, types: tuple[type, ...], table: dict[str, Any]) -> dict[str, Builtin]:
    """`str.join(',', items)`, `float.is_integer(2.0)`, `list.append(xs, v)`: a type's methods
    called on the type with the value first, checked as Python checks them."""

    def unbound(name: str, fn: Callable[..., Any]) -> Builtin:
        if name in PO.MUTATORS and types[0] in (list, dict, set):
            fn = PO.checked_mutator(types[0], name, fn)  # (`list.append(acc, v)` in a vmap)

        def call(*args: Any, **kwargs: Any) -> Any:
            if not args:
                raise GradcliError(f"unbound method {kind}.{name}() needs an argument").mirror(
                    "TypeError"
                )
            if not isinstance(args[0], types) or (kind != "int" and type(args[0]) is bool):
                raise GradcliError(
                    f"descriptor '{name}' for '{kind}' objects doesn't apply to a "
                    f"'{typename(args[0])}' object"
                ).mirror("TypeError")
            return fn(*args, **kwargs)

        return _MethodDescriptor(f"{kind}.{name}", call)

    return {n: unbound(n, f) for n, f in table.items()}


class _MethodDescriptor(Builtin):
    """`str.join` as a value: prints as Python's `<method 'join' of 'str' objects>`."""

    __slots__ = ()

    def __repr__(self) -> str:
        kind, _, name = self.name.partition(".")
        return f"<method '{name}' of '{kind}' objects>"


def _fromhex(text: Any) -> float:
    if not isinstance(text, str):
        raise GradcliError(f"must be str, not {typename(text)}").mirror("TypeError")
    if len(text) > 4300:
        raise GradcliError("invalid hexadecimal floating-point string").mirror("ValueError")
    try:
        return float.fromhex(text)
    except ValueError as e:
        raise GradcliError(str(e)).mirror("ValueError") from None
    except OverflowError as e:
        raise GradcliError(str(e)).mirror("OverflowError") from None


def _fromkeys(keys: Any, value: Any = None) -> dict:
    """`dict.fromkeys(keys, value)`: every key bound to the one value."""
    out: dict = {}
    for k in iterate(keys, "dict.fromkeys()"):
        limits.BUDGET.tick()
        out[_hashable(k)] = value
    limits.LIST_ITEMS.check(len(out), "the size of the dict")
    return out


def _int_from_bytes(*args: Any, **kwargs: Any) -> int:
    from . import pybytes

    return pybytes.int_from_bytes(*args, **kwargs)


INT = PyType(
    "int",
    (int,),
    _int,
    members={
        **_unbound("int", (int,), PO.INT),
        "from_bytes": Builtin("int.from_bytes", _int_from_bytes),
    },
)
FLOAT = PyType(
    "float",
    (float,),
    lambda v=0.0: _num(v, float),
    members={
        **_unbound("float", (float,), PO.FLOAT),
        "fromhex": Builtin("float.fromhex", _fromhex),
    },
)


def _complex(real: Any = 0, imag: Any = None) -> complex:
    """Python's `complex(real, imag)`: of numbers (a one-element tensor is its number), or of
    one string (`complex("1+2j")`)."""
    if isinstance(real, str):
        if imag is not None:
            raise GradcliError("complex() can't take second arg if first is a string").mirror(
                "TypeError"
            )
        return _num(real, complex)
    re = _num(real, complex) if not isinstance(real, complex) else real
    if imag is None:
        return re
    if isinstance(imag, str):
        raise GradcliError("complex() second arg can't be a string").mirror("TypeError")
    im = _num(imag, complex) if not isinstance(imag, complex) else imag
    return re + im * 1j if isinstance(im, complex) else complex(re.real, re.imag + im)


COMPLEX = PyType(
    "complex",
    (complex,),
    _complex,
    members=_unbound("complex", (complex,), PO.COMPLEX),
)
BOOL = PyType("bool", (bool,), _bool)
# `dtype=float` / `int` / `bool` in a torch call: PyTorch's float64, int64, bool
dtypes.PYTHON_TYPES[:] = [(BOOL, dtypes.BOOL), (INT, dtypes.INT64), (FLOAT, dtypes.FLOAT64)]
STR = PyType("str", (str,), builtin_str, members=_unbound("str", (str,), PO.STR))
BYTES = PyType("bytes", (bytes,), _make_bytes, members=_BytesMembers())
LIST = PyType("list", (list,), _list, members=_unbound("list", (list,), PO.LIST))
TUPLE = PyType("tuple", (tuple,), _tuple, members=_unbound("tuple", (tuple,), PO.TUPLE))
DICT = PyType(
    "dict",
    (dict,),
    _dict,
    members={
        **_unbound("dict", (dict,), PO.DICT),
        "fromkeys": Builtin("dict.fromkeys", _fromkeys),
    },
)


def _ordered_dict(*args: Any, **kwargs: Any) -> collections.OrderedDict:
    """`collections.OrderedDict(...)`: a dict that prints as one (nn.Sequential takes it)."""
    return collections.OrderedDict(_dict(*args, **kwargs))


ORDERED_DICT = PyType(
    "OrderedDict", (collections.OrderedDict,), _ordered_dict, shown="collections.OrderedDict"
)


def _defaultdict(factory: Any = None, *args: Any, **kwargs: Any) -> DefaultDict:
    """`collections.defaultdict(factory, items...)`: the factory is called for a missing key
    (None: a missing key is a KeyError, as a dict's)."""
    if factory is not None and not callable(factory) and not hasattr(factory, "__gradcli_call__"):
        raise GradcliError("first argument must be callable or None").mirror("TypeError")
    out = DefaultDict(factory)
    out.update(_dict(*args, **kwargs))
    return out


def _uninitialized(kind: type, default: bool) -> Any:
    def make(requires_grad: Any = default, device: Any = None, dtype: Any = None) -> Any:
        # `nn.UninitializedParameter()`: a value every use of which is refused until a lazy
        # module materializes it (only modules do: its own `materialize` is not supported)
        if dtype is not None:
            from ..core.dtypes import check_dtype

            return kind(np.zeros(0, check_dtype(dtype)), requires_grad=bool(requires_grad))
        return kind(requires_grad=bool(requires_grad))

    return make


UNINITIALIZED_TYPE = PyType(
    "UninitializedParameter",
    (surface_nn.UninitializedParameter,),
    _uninitialized(surface_nn.UninitializedParameter, True),
    shown="torch.nn.parameter.UninitializedParameter",
)
UNINITIALIZED_BUFFER_TYPE = PyType(
    "UninitializedBuffer",
    (surface_nn.UninitializedBuffer,),
    _uninitialized(surface_nn.UninitializedBuffer, False),
    shown="torch.nn.parameter.UninitializedBuffer",
)
DEQUE_TYPE = PyType("deque", (PC.Deque,), PC.make_deque, shown="collections.deque")
DEFAULT_DICT = PyType("defaultdict", (DefaultDict,), _defaultdict, shown="collections.defaultdict")
COUNTER_TYPE = PyType(
    "Counter", (pycounter.Counter,), pycounter.make_counter, shown="collections.Counter"
)
SET = PyType("set", (set,), _set, members=_unbound("set", (set,), PO.SET))
FROZENSET = PyType(
    "frozenset", (frozenset,), _frozenset, members=_unbound("frozenset", (frozenset,), PO.FROZENSET)
)
NONE_TYPE = PyType("NoneType", (type(None),), None)
RANGE = PyType("range", (range,), _builtin_range)
SLICE = PyType("slice", (slice,), _slice)
FUNCTION = PyType("function", (UserFunction,), None)

PY_TYPES: dict[type, PyType] = {
    int: INT,
    float: FLOAT,
    complex: COMPLEX,
    bool: BOOL,
    str: STR,
    bytes: BYTES,
    list: LIST,
    tuple: TUPLE,
    dict: DICT,
    collections.OrderedDict: ORDERED_DICT,
    DefaultDict: DEFAULT_DICT,
    PC.Deque: DEQUE_TYPE,
    pycounter.Counter: COUNTER_TYPE,
    set: SET,
    frozenset: FROZENSET,
    type(None): NONE_TYPE,
    range: RANGE,
    slice: SLICE,
    UserFunction: FUNCTION,
}


# Built-in modules defined outside torch.nn.modules (functorch's make_functional results).
_QUALIFIED = {
    n: f"torch._functorch.make_functional.{n}"
    for n in ("FunctionalModule", "FunctionalModuleWithBuffers")
}
_QUALIFIED["ParametrizationList"] = "torch.nn.utils.parametrize.ParametrizationList"


def type_of(v: Any) -> Any:
    """`type(v)`: a class value that prints as Python's and compares with the program's names
    (`type(y) == torch.Tensor`)."""
    from .classes import (
        FunctionClass,
        FunctionInstance,
        Instance,
        ModuleClass,
        ModuleInstance,
        OptimClass,
        PlainClass,
        ProgramObject,
    )

    if isinstance(v, Tensor):
        if type(v) is surface_nn.UninitializedParameter:
            return UNINITIALIZED_TYPE
        if type(v) is surface_nn.UninitializedBuffer:
            return UNINITIALIZED_BUFFER_TYPE
        if isinstance(v, PARAMETER_TYPE.types):
            return PARAMETER_TYPE.inert()
        return TENSOR_TYPE.inert()
    if type(v) is SparseCOO:
        return TENSOR_TYPE.inert()
    t = PY_TYPES.get(type(v))
    if t is not None:
        return t.inert()
    if isinstance(v, np.generic):
        scalar = numpy_scalar_type(v)
        if scalar is not None:  # `type(n) is np.int64`: the very object np.int64 names
            return scalar
    if isinstance(v, ExcValue):
        return v.cls
    if isinstance(v, (ModuleInstance, FunctionInstance, Instance, PC.Record, ProgramObject)):
        return v.cls
    if isinstance(v, EN.MEMBER_TYPES):
        return v.cls
    if isinstance(v, EN.EnumClass):  # its metaclass, as Python names it
        return PyType("EnumType", (EN.EnumClass,), None, shown="enum.EnumType")
    if isinstance(v, (ModuleClass, PlainClass, OptimClass)) or (
        callable(v) and isinstance(getattr(v, "made_class", None), type)
    ):  # a class of the program's, torch.optim.Adam
        return PyType("type", (type,), None, shown="type")
    if isinstance(v, FunctionClass):  # a program's autograd.Function: its metaclass
        return PyType(
            "FunctionMeta", (FunctionClass,), None, shown="torch.autograd.function.FunctionMeta"
        )
    if isinstance(v, surface_nn.Module):
        jit = getattr(type(v), "program_class", None)
        if jit is not None:  # torch.jit.trace's TopLevelTracedModule (`lang.jit`)
            return PyType(typename(v), (type(v),), None, shown=jit(v))
        if v.__dict__.get("_parametrized"):  # PyTorch's class made for the module
            name = "Parametrized" + v.name
            shown = f"torch.nn.utils.parametrize.{name}"
            return PyType(name, (type(v),), None, shown=shown)
        t = MODULE_TYPES.get(v.name)
        if t is not None:
            return t
        if type(v).__module__.startswith("gradcli.surface."):
            # a built-in module no program constructs by name (MultiheadAttention's out_proj)
            from .values import _module_file

            shown = _QUALIFIED.get(v.name) or f"torch.nn.modules.{_module_file(v.name)}.{v.name}"
            return PyType(v.name, (type(v),), None, shown=shown)
    if isinstance(v, CompiledFunctionBackward):
        return PyType(
            "CompiledFunctionBackward",
            (type(v),),
            None,
            shown="torch.autograd.function.CompiledFunctionBackward",
        )
    if isinstance(v, (Node, AccumulateGrad, ShownNode)):
        # A grad_fn's class is named after it: <class 'MulBackward0'>, <class
        # 'AccumulateGrad'>, a custom Function's <class 'torch.autograd.function.FBackward'>.
        name = python_class(v.name()).rpartition("::")[2]
        custom = isinstance(v, Node) and v.op.kind == "custom"
        return PyType(
            name, (type(v),), None, shown=f"torch.autograd.function.{name}" * custom or name
        )
    if isinstance(v, Ctx):  # a Function's ctx is its node: <class '...function.FBackward'>
        module = "torch.autograd.function" if v.shown != "FunctionCtx" else "torch.autograd"
        return PyType(v.shown, (Ctx,), None, shown=f"{module}.{v.shown}")
    if isinstance(v, MaxMin):  # torch.return_types.max, .sort, ...
        return PyType(v.kind, (type(v),), None, shown=f"torch.return_types.{v.kind}")
    if type(v).__module__ == "gradcli.surface.optim":
        from ..surface.optim import CONSTRUCTORS

        made = CONSTRUCTORS.get(type(v))
        if made is not None:  # the very value torch.optim.SGD names: `type(opt) is optim.SGD`
            return made
    qualified = getattr(type(v), "program_class", None)
    if qualified is not None:  # an object of torch's that names its class (torch.amp's)
        return PyType(typename(v), (type(v),), None, shown=qualified(v))
    if isinstance(v, FunctionType) and C_FUNCTION[0](v):  # torch.exp: a C function in PyTorch
        name = "builtin_function_or_method"
        return PyType(name, (type(v),), None, shown=name)
    name = typename(v)
    shown = {
        "DType": "torch.dtype",
        "WarningMessage": "warnings.WarningMessage",
        "Size": "torch.Size",
        "FunctionMeta": "torch.autograd.function.FunctionMeta",
        "Builtin": "builtin_function_or_method",
        "BoundMethod": "builtin_function_or_method",
        "ndarray": "numpy.ndarray",
        "finfo": "numpy.finfo",
        "Device": "torch.device",
        "Layout": "torch.layout",
        # three classes of the name: a program's generator, torch's and NumPy's
        "Generator": {
            "gradcli.lang.values": "generator",
            "gradcli.lang.pyrandom": "numpy.random._generator.Generator",
        }.get(type(v).__module__, "torch._C.Generator"),
        "HookHandle": "torch.utils.hooks.RemovableHandle",
        "RemovableHandle": "torch.utils.hooks.RemovableHandle",
        "PackedSequence": "torch.nn.utils.rnn.PackedSequence",
        "_MultiHandle": "torch.autograd.graph._MultiHandle",
        "PyType": "type",
        "ModuleType": "type",  # nn.Linear, a class
        "Super": "super",
        "LegacyTensorType": "torch.tensortype",
    }.get(name, name)

    return PyType(name, (type(v),), None, shown=shown)


def _isinstance(v: Any, cls: Any) -> bool:
    from .classes import (
        FunctionClass,
        FunctionInstance,
        Instance,
        ModuleClass,
        ModuleInstance,
        OptimClass,
        PlainClass,
        ProgramObject,
    )

    if isinstance(cls, GenericAlias):
        raise GradcliError("isinstance() argument 2 cannot be a parameterized generic").mirror(
            "TypeError"
        )
    from .classes import exception_of

    classes = cls if isinstance(cls, tuple) else (cls,)
    if isinstance(cls, TypeUnion):  # `int | None`: None stands for its class
        classes = tuple(NONE_TYPE if m is None else m for m in cls.members)
    for c in classes:
        if isinstance(c, PyType):
            if c.instance(v):
                return True
        elif isinstance(c, ExcClass):
            if isinstance(v, ExcValue) and v.cls.is_subclass_of(c):
                return True
            if isinstance(v, Instance) and exception_of(v, c):  # a program's exception's
                return True
        elif isinstance(c, (ModuleClass, PlainClass, OptimClass)):
            # (a plain class may be a mixin of a module class)
            if isinstance(v, (ModuleInstance, Instance, ProgramObject)) and v.cls.is_subclass_of(c):
                return True
        elif isinstance(c, PC.NamedTupleClass):
            if isinstance(v, PC.Record) and v.cls is c:
                return True
        elif isinstance(c, EN.EnumClass):
            if isinstance(v, EN.MEMBER_TYPES) and v.cls is c:
                return True
        elif isinstance(c, EN.EnumBase):
            if isinstance(v, EN.MEMBER_TYPES) and (
                not isinstance(c, EN.IntEnumBase) or v.cls.int_kind
            ):
                return True
        elif c is FUNCTION_BASE or isinstance(c, FunctionClass):
            # an instance of a program's Function (PyTorch's legacy form makes one)
            if isinstance(v, FunctionInstance) and v.cls.is_subclass_of(c):
                return True
        elif isinstance(c, LegacyTensorType):  # torch.FloatTensor and its kin
            if c.instance(v):
                return True
        elif getattr(c, "fn", c) is Variable:
            # torch.autograd.Variable: PyTorch's metaclass makes every tensor one
            if isinstance(v, Tensor):
                return True
        elif _numpy_scalar(c):  # np.int64, np.float32...
            if c.instance(v):
                return True
        elif isinstance(c, type) and c.__module__.startswith("gradcli.surface"):
            if isinstance(v, c):
                return True
        elif callable(c) and isinstance(getattr(c, "made_class", None), type):
            # torch.optim's optimizers and schedulers: a program holds their constructors
            if isinstance(v, c.made_class):
                return True
        elif isinstance(c, Builtin) and _distribution_class(c.fn) is not None:
            # torch.distributions' classes (a program holds them as constructors); their
            # subclass relations are PyTorch's (Chi2 is a Gamma)
            if isinstance(v, _distribution_class(c.fn)):
                return True
        elif callable(c) and _module_class(c) is not None:
            # `nn.Linear` and its kin: a program holds their constructors.
            if isinstance(v, _module_class(c)):
                return True
        elif hasattr(type(c), "program_instance"):  # typing's `Iterable`, `List`...
            if c.program_instance(v):
                return True
        else:
            raise GradcliError(
                "isinstance() arg 2 must be a type, a tuple of types, or a union"
            ).mirror("TypeError")
    return False


def _issubclass(cls: Any, classinfo: Any) -> bool:
    """`issubclass(C, B)` of the classes a program holds: exception and warning classes
    (`issubclass(w.category, DeprecationWarning)`), the program's own classes (their bases and
    mixins, nn.Module), Python's types and torch's by identity."""
    from .classes import FunctionClass, ModuleClass, OptimClass, PlainClass, exception_bases

    program = (PlainClass, ModuleClass, OptimClass)
    made = getattr(cls, "made_class", None)  # torch.optim.Adam: a constructor of a class
    if callable(cls) and isinstance(made, type):
        cls = made
    # torch.optim.Optimizer (the class: not an optimizer, whose class has the attribute too)
    optim_base = isinstance(cls, type) and getattr(cls, "PROGRAM_BASE", None) is not None
    # torch.distributions.Normal (a program holds the class as its constructor)
    dist = None
    if isinstance(cls, Builtin) and _distribution_class(cls.fn) is not None:
        dist = getattr(cls.fn, "distribution_class", cls.fn)

    if dist is None and not (
        isinstance(cls, (ExcClass, PyType, FunctionClass, *program))
        or _numpy_scalar(cls)
        or cls is surface_nn.Module
        or cls is FUNCTION_BASE
        or optim_base
    ):
        raise GradcliError("issubclass() arg 1 must be a class").mirror("TypeError")
    classes = classinfo if isinstance(classinfo, tuple) else (classinfo,)
    for c in classes:
        limits.BUDGET.tick()
        if isinstance(c, Builtin) and _distribution_class(c.fn) is not None:
            if dist is not None and issubclass(dist, _distribution_class(c.fn)):
                return True  # (their relations are PyTorch's: Chi2 is a Gamma)
            if isinstance(cls, OptimClass) and _derives(cls, _distribution_class(c.fn)):
                return True  # issubclass(StraightThrough, OneHotCategorical)
        elif dist is not None and not isinstance(c, PyType):
            continue
        elif c is FUNCTION_BASE or isinstance(c, FunctionClass):
            # torch.autograd.Function and the program's subclasses of it
            if cls is c or (isinstance(cls, FunctionClass) and cls.is_subclass_of(c)):
                return True
        elif isinstance(c, ExcClass):
            if isinstance(cls, ExcClass) and cls.is_subclass_of(c):
                return True
            if any(b.is_subclass_of(c) for b in exception_bases(cls)):  # a program's
                return True
        elif isinstance(c, program) or c is surface_nn.Module:
            if isinstance(cls, program) and cls.is_subclass_of(c):
                return True
            if c is surface_nn.Module and (cls is c or isinstance(cls, (ModuleType, ModuleClass))):
                return True
        elif getattr(c, "PROGRAM_BASE", None) is not None:  # Optimizer, LRScheduler
            if cls is c or (isinstance(cls, OptimClass) and _derives(cls, c)):
                return True
            if isinstance(c, type) and _python_classes(cls, c):
                return True  # torch.optim.Adam, a subclass of torch's Optimizer
        elif callable(c) and isinstance(getattr(c, "made_class", None), type):
            if _python_classes(cls, c.made_class):
                return True  # issubclass(torch.optim.Adam, torch.optim.Adam)
            if isinstance(cls, OptimClass) and _derives(cls, c.made_class):
                return True  # issubclass(MyAdam, torch.optim.Adam)
        elif _numpy_scalar(c):
            if cls is c:
                return True
        elif isinstance(c, PyType):
            if cls is c:
                return True
            if isinstance(c, ModuleType) and isinstance(cls, ModuleClass):
                library = cls.library  # issubclass(MyConv, nn.Conv2d)
                base = c.library()
                if library is not None and (
                    library is base or (isinstance(c, LossBaseType) and issubclass(library, base))  # type: ignore[arg-type]
                ):
                    return True
            if isinstance(c, (LossBaseType, AbstractBaseType)) and isinstance(cls, ModuleType):
                if c.subclass(cls):  # issubclass(nn.MSELoss, _Loss)
                    return True
            if (
                isinstance(cls, PyType)
                and not isinstance(cls, ModuleType)  # (all of nn's share one Python class)
                and not isinstance(c, ModuleType)
                and all(issubclass(t, c.types) for t in cls.types)
            ):
                return True
            if isinstance(cls, OptimClass) and any(_derives(cls, t) for t in c.types):
                return True  # issubclass(MyPruning, prune.BasePruningMethod)
        else:
            raise GradcliError(
                "issubclass() arg 2 must be a class, a tuple of classes, or a union"
            ).mirror("TypeError")
    return False


def _derives(cls: Any, base: Any) -> bool:
    """Whether a program's optimizer or scheduler class derives from `base` (one of torch's
    classes: the class it builds on, or one that class derives from)."""
    return any(
        c is base or (isinstance(c, type) and isinstance(base, type) and issubclass(c, base))
        for c in cls.mro
    )


def _python_classes(cls: Any, base: type) -> bool:
    """Whether `cls` (a surface class, or `type(v)` of one's instance) derives from `base`."""
    if isinstance(cls, type):
        return issubclass(cls, base)
    if isinstance(cls, PyType) and not isinstance(cls, ModuleType) and cls.types:
        return all(isinstance(t, type) and issubclass(t, base) for t in cls.types)
    return False


def _checked(text: str) -> str:
    limits.STRING_CHARS.check(len(text), "the length of the string")
    return text


def _distribution_class(fn: Any) -> type | tuple[type, ...] | None:
    """The class of torch.distributions a constructor the program holds makes (None: not
    one of them); for TransformedDistribution, with the classes PyTorch derives from it that
    gradcli makes on their own (LogNormal, HalfNormal: isinstance answers as PyTorch's)."""
    cls = getattr(fn, "distribution_class", fn)
    ok = isinstance(cls, type) and cls.__module__ in (
        "gradcli.surface.distributions",
        "gradcli.surface.dist_extra",
    )
    if not ok:
        return None
    from ..surface import distributions as DS

    if cls is DS.TransformedDistribution:
        return (cls, *(DS.CLASSES[n] for n in DS.TRANSFORMED_IN_PYTORCH))
    return cls


def _module_class(c: Any) -> type | None:
    from ..surface import nn as surface_nn

    cls = getattr(surface_nn, getattr(c, "__name__", ""), None)
    if isinstance(cls, type) and issubclass(cls, surface_nn.Module):
        return cls
    return None


def _print(*args: Any, **kwargs: Any) -> None:
    for k in kwargs:
        if k not in ("sep", "end", "file", "flush"):
            raise GradcliError(f"'{k}' is an invalid keyword argument for print()").mirror(
                "TypeError"
            )
    if HOP_TRACING:  # PyTorch's tracer of torch.cond's branches (and kin) cannot trace print
        raise GradcliError(
            "This higher order operator doesn't work unless it is captured completely with "
            "torch.compile. Got graph break/error:\n\nFailed to trace builtin operator\n  "
            f"Higher Order Operator: {HOP_TRACING[-1]}",
            hint="print after the operator returns, outside its functions",
        ).mirror("UncapturedHigherOrderOpError")
    if hooks.saved_pending:  # saved_tensors_hooks: pack_hook runs before what follows
        hooks.saved_flush()
    current().do_print(*args, **kwargs)


BUILTINS.update(
    {
        "exit": EXIT,
        "quit": Builtin("quit", EXIT.fn),
        "range": RANGE,
        "len": Builtin("len", _builtin_len),
        "float": FLOAT,
        "complex": COMPLEX,
        "int": INT,
        "bool": BOOL,
        "str": STR,
        "bytes": BYTES,
        "list": LIST,
        "tuple": TUPLE,
        "dict": DICT,
        "set": SET,
        "frozenset": FROZENSET,
        "vars": Builtin("vars", _vars),
        "dir": Builtin("dir", _dir),
        "slice": SLICE,
        "abs": Builtin("abs", _builtin_abs),
        "NotImplemented": NotImplemented,  # what an operator method returns to give way
        "min": Builtin("min", _minmax(min, "min")),
        "max": Builtin("max", _minmax(max, "max")),
        "sum": Builtin("sum", _builtin_sum),
        "round": Builtin("round", _builtin_round),
        "repr": Builtin("repr", lambda v: _checked(to_repr(v, limits.STRING_CHARS.value))),
        "format": Builtin("format", _format),
        "enumerate": Builtin("enumerate", _enumerate),
        "zip": Builtin("zip", _zip),
        "reversed": Builtin("reversed", _reversed),
        "sorted": Builtin("sorted", _sorted),
        "any": Builtin("any", _any),
        "all": Builtin("all", _all),
        "map": Builtin("map", _map),
        "filter": Builtin("filter", _filter),
        "isinstance": Builtin("isinstance", _isinstance),
        "issubclass": Builtin("issubclass", _issubclass),
        "hasattr": Builtin("hasattr", _hasattr),
        "setattr": Builtin("setattr", _setattr),
        "delattr": Builtin("delattr", _delattr),
        "getattr": Builtin("getattr", _getattr),
        "callable": Builtin("callable", _callable),
        "id": Builtin("id", id),
        "hash": Builtin("hash", _hash),
        "divmod": Builtin("divmod", _divmod),
        "pow": Builtin("pow", _pow),
        "next": Builtin("next", _next),
        "iter": Builtin("iter", _iter),
        "chr": Builtin("chr", _chr),
        "bin": _radix("bin", bin),
        "oct": _radix("oct", oct),
        "hex": _radix("hex", hex),
        "ord": Builtin("ord", _ord),
        "print": Builtin("print", _print),
        # `if __name__ == "__main__":` in pasted scripts.
        "__name__": "__main__",
        **BUILTIN_CLASSES,
    }
)

# `type` is only called (`type(x)`), never a value (`type.__subclasses__` and its kin).
TYPE_BUILTIN = Builtin("type", type_of)


operators.TYPE_OF[0] = type_of  # (operators cannot import this module: it imports operators)


def _class_shown(cls: Any) -> str | None:
    """The qualified name in a class's `<class '...'>`, None for anything else."""
    from .text import to_str

    text = to_str(cls)
    if text.startswith("<class '") and text.endswith("'>") and text.count("'") == 2:
        return text[8:-2]
    return None


def qualified_name(v: Any) -> str | None:
    """`torch.typename(v)` of a value of the language that is not a tensor: a class's own
    qualified name, a program's function `__main__.` and its name, anything else its class's
    (without `builtins.`); None where gradcli does not know it."""
    from .values import UserFunction

    kind = _class_shown(type_of(v))
    if kind == "type":
        return _class_shown(v)
    if isinstance(v, UserFunction):
        return f"__main__.{v.qualname}"
    if kind is None or kind in ("function", "builtin_function_or_method", "method"):
        return None
    return kind.removeprefix("builtins.")


tensor_module.QUALNAME[0] = qualified_name
