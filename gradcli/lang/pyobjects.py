"""The methods of Python's own values a program may call (`l.append`, `d.items`, `s.join`...):
a fixed table per type, each one checked against the limits BEFORE it makes anything (a list
or dict may not grow past LIST_ITEMS, a string past STRING_CHARS), and NumPy arrays from
`.numpy()` with the few attributes printing them needs."""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..core.tensor import Tensor, _GradMode, repeated_change, typename
from ..surface.nn import InstanceEntries, ModuleEntries, StateEntries
from ..surface.printing import GradientEdge, MaxMin, Size
from . import pycounter
from .values import (
    BoundMethod,
    Builtin,
    DefaultDict,
    as_index,
    check_structure,
    current,
    hashable,
    is_iterator,
    seq,
)


def as_list(v: Any, what: str) -> list:
    return seq(v, what)


def _grow(n: int, what: str) -> None:
    if n > limits.LIST_ITEMS.value:
        limits.LIST_ITEMS.check(n, what)


def _chars(n: int) -> None:
    if n > limits.STRING_CHARS.value:
        limits.STRING_CHARS.check(n, "the length of the string")


def _call_key(key: Any) -> Callable[[Any], Any] | None:
    """A `key=` function (a user function, lambda or builtin), or None."""
    if key is None:
        return None
    if not callable(key):
        raise GradcliError(f"'{typename(key)}' object is not callable").mirror("TypeError")
    return key


# --- list -----------------------------------------------------------------------------------


def l_append(lst: list, v: Any) -> None:
    _grow(len(lst) + 1, "the length of the list")
    lst.append(v)


def l_extend(lst: list, items: Any) -> None:
    new = seq(items, "list.extend()")
    _grow(len(lst) + len(new), "the length of the list")
    lst.extend(new)


def l_insert(lst: list, i: Any, v: Any) -> None:
    i = _index_arg(i)
    _grow(len(lst) + 1, "the length of the list")
    lst.insert(i, v)


def l_pop(lst: list, i: Any = -1) -> Any:
    i = _index_arg(i)
    if not lst:
        raise GradcliError("pop from empty list").mirror("IndexError")
    try:
        return lst.pop(i)
    except IndexError:
        raise GradcliError("pop index out of range").mirror("IndexError") from None


def l_remove(lst: list, v: Any) -> None:
    check_structure(lst, "list.remove()")
    i = _find(lst, v)
    if i is None:
        raise GradcliError("list.remove(x): x not in list").mirror("ValueError")
    del lst[i]


def _find(items: Any, v: Any) -> int | None:
    from .operators import equal

    for i, item in enumerate(items):
        if item is v or equal(item, v):
            return i
    return None


def s_index(items: Any, v: Any, *bounds: Any) -> int:
    check_structure(items, "index()")
    if bounds:
        start = bounds[0]
        stop = bounds[1] if len(bounds) > 1 else len(items)
        start, stop = _index_arg(start), _index_arg(stop)
        part = items[start:stop]
        offset = range(len(items))[start:stop].start if len(items) else 0
    else:
        part, offset = items, 0
    i = _find(part, v)
    if i is None:
        what = "list" if isinstance(items, list) else "tuple"
        raise GradcliError(
            f"{v!r} is not in list" if what == "list" else "tuple.index(x): x not in tuple"
        ).mirror("ValueError")
    return i + offset


def s_count(items: Any, v: Any) -> int:
    from .operators import equal

    check_structure(items, "count()")
    return sum(1 for item in items if item is v or equal(item, v))


def call_value(f: Any, *args: Any) -> Any:
    """Call a value the program passed (`key=`, `map`'s function) as the program would."""
    return current().call(f, list(args), {}, None)


def sort_items(items: list, key: Any, reverse: bool) -> list:
    for i in items:
        check_structure(i, "sorted()")
    try:
        if key is not None:
            keys = [call_value(key, v) for v in items]
            order = sorted(range(len(items)), key=lambda i: _Key(keys[i]), reverse=reverse)
            return [items[i] for i in order]
        return sorted(items, key=_Key, reverse=reverse)
    except TypeError as e:
        raise GradcliError(str(e)).mirror("TypeError") from None


class _Key:
    """A sort key comparing as Python does, tensors of one element by their value (as
    Python's `<` on torch tensors gives a one-element bool tensor)."""

    __slots__ = ("v",)

    def __init__(self, v: Any):
        self.v = v

    def __lt__(self, other: _Key) -> bool:
        a, b = self.v, other.v
        if isinstance(a, Tensor) or isinstance(b, Tensor):
            from ..surface.functional import lt

            return bool(lt(a, b))
        if (hasattr(type(a), "program_typename") and not isinstance(a, int)) or (
            hasattr(type(b), "program_typename") and not isinstance(b, int)
        ):  # (an IntEnum member is an int)
            # The interpreter's values (a program's class instances): named as the program
            # names them, not by gradcli's Python class.
            raise (
                GradcliError(
                    f"'<' not supported between instances of '{typename(a)}' and '{typename(b)}'"
                )
                .mirror("TypeError")
                .pytorch()
            )
        return a < b


def l_sort(lst: list, *, key: Any = None, reverse: Any = False) -> None:
    lst[:] = sort_items(lst, _call_key(key), bool(reverse))


def l_reverse(lst: list) -> None:
    lst.reverse()


def l_copy(lst: list) -> list:
    return list(lst)


def l_clear(c: Any) -> None:
    c.clear()


LIST: dict[str, Callable[..., Any]] = {
    "append": l_append,
    "extend": l_extend,
    "insert": l_insert,
    "pop": l_pop,
    "remove": l_remove,
    "index": s_index,
    "count": s_count,
    "sort": l_sort,
    "reverse": l_reverse,
    "copy": l_copy,
    "clear": l_clear,
}

TUPLE: dict[str, Callable[..., Any]] = {"index": s_index, "count": s_count}


# --- dict -----------------------------------------------------------------------------------


def d_get(d: dict, key: Any, default: Any = None) -> Any:
    return d.get(_hashable(key), default)


def d_setdefault(d: dict, key: Any, default: Any = None) -> Any:
    key = _hashable(key)
    if key not in d:
        _grow(len(d) + 1, "the number of items in the dict")
    return d.setdefault(key, default)


def d_update(*args: Any, **kw: Any) -> None:
    # (the dict and `other` by position only: `dict(d=1)`, `x.update(other=2)` are keys)
    if len(args) > 2:
        raise GradcliError(f"update expected at most 1 argument, got {len(args) - 1}").mirror(
            "TypeError"
        )
    d: dict = args[0]
    other = args[1] if len(args) > 1 else ()
    if isinstance(other, dict):
        new = list(other.items())
    else:
        new = []
        for pair in seq(other, "dict.update()"):
            items = seq(pair, "dict.update()")
            if len(items) != 2:
                raise GradcliError(
                    f"dictionary update sequence element has length {len(items)}; 2 is required"
                ).mirror("ValueError")
            new.append((_hashable(items[0]), items[1]))
    new.extend(kw.items())
    _grow(len(d) + len(new), "the number of items in the dict")
    for k, v in new:
        d[k] = v


_MISSING = object()


def d_pop(d: dict, key: Any, default: Any = _MISSING) -> Any:
    key = _hashable(key)
    if key in d:
        return d.pop(key)
    if default is _MISSING:
        from .exceptions import CLASSES, ProgramError

        raise ProgramError(CLASSES["KeyError"](key))
    return default


def d_popitem(d: dict) -> tuple:
    if not d:
        from .exceptions import CLASSES, ProgramError

        raise ProgramError(CLASSES["KeyError"]("popitem(): dictionary is empty"))
    return d.popitem()


_hashable = hashable


DICT: dict[str, Callable[..., Any]] = {
    "items": lambda d: d.items(),
    "keys": lambda d: d.keys(),
    "values": lambda d: d.values(),
    "get": d_get,
    "setdefault": d_setdefault,
    "update": d_update,
    "pop": d_pop,
    "popitem": d_popitem,
    "copy": lambda d: _copied_dict(d),
    "clear": l_clear,
}


def refuse_module_entries(*args: Any, **__: Any) -> None:
    """Writing into `module._modules` / `_parameters` / `_buffers` (the program reads them;
    registering goes elsewhere), or into a module's `__dict__` read as a snapshot."""
    from ..surface.nn import InstanceEntries

    if args and type(args[0]) is InstanceEntries:
        raise NotSupported(
            "changing a module's __dict__ is not supported by gradcli (it reads a snapshot of it)",
            hint="set the attribute itself: module.name = value, or setattr(module, name, value)",
        )
    raise NotSupported(
        "changing a module's _modules, _parameters or _buffers directly is not supported",
        hint="register with self.name = module (or nn.Parameter), self.add_module(name, "
        "module), self.register_parameter(name, p) or self.register_buffer(name, t)",
    )


def set_module_entry(entries: dict, key: Any, value: Any) -> None:
    """`self._modules[str(i)] = block` (d2l's MySequential): PyTorch's plain dict write,
    for a submodule (or None) under a name `add_module` would take; anything else stays
    refused."""
    from ..surface.nn import Module

    if type(entries) is not ModuleEntries or not (
        isinstance(key, str)
        and key
        and "." not in key
        and (value is None or isinstance(value, Module))
    ):
        refuse_module_entries(entries)
    if key not in entries:
        limits.LIST_ITEMS.check(len(entries) + 1, "the number of submodules")
    entries[key] = value


def delete_module_entry(entries: dict, key: Any) -> None:
    """`del self._modules[name]`: the submodule leaves its parent, as PyTorch's dict delete."""
    if type(entries) is not ModuleEntries or not isinstance(key, str):
        refuse_module_entries(entries)
    if key not in entries:
        from .exceptions import CLASSES, ProgramError

        raise ProgramError(CLASSES["KeyError"](key))
    del entries[key]


def od_move_to_end(d: collections.OrderedDict, key: Any, last: bool = True) -> None:
    key = _hashable(key)
    if key not in d:
        from .exceptions import CLASSES, ProgramError

        raise ProgramError(CLASSES["KeyError"](key))
    d.move_to_end(key, last=bool(last))


def od_popitem(d: collections.OrderedDict, last: bool = True) -> tuple:
    if not d:
        from .exceptions import CLASSES, ProgramError

        raise ProgramError(CLASSES["KeyError"]("dictionary is empty"))
    return d.popitem(last=bool(last))


# collections.OrderedDict: a dict that also moves keys to either end and pops from either.
ORDERED_DICT: dict[str, Callable[..., Any]] = {
    **DICT,
    "move_to_end": od_move_to_end,
    "popitem": od_popitem,
}


# module._modules: read like a dict; the dict's mutating methods are refused.
MODULE_ENTRIES: dict[str, Callable[..., Any]] = {
    **{name: refuse_module_entries for name in DICT},
    "items": DICT["items"],
    "keys": DICT["keys"],
    "values": DICT["values"],
    "get": d_get,
    "copy": DICT["copy"],
}


# --- set ------------------------------------------------------------------------------------


def set_add(s: set, v: Any) -> None:
    v = _hashable(v)
    if v not in s:
        _grow(len(s) + 1, "the number of items in the set")
    s.add(v)


def set_update(s: set, *others: Any) -> None:
    for o in others:
        new = [_hashable(v) for v in seq(o, "set.update()")]
        _grow(len(s) + len(new), "the number of items in the set")
        s.update(new)


def set_remove(s: set, v: Any) -> None:
    v = _hashable(v)
    if v not in s:
        from .exceptions import CLASSES, ProgramError

        raise ProgramError(CLASSES["KeyError"](v))
    s.remove(v)


def _set_op(name: str) -> Callable[..., set]:
    def op(s: set, *others: Any) -> set:
        sets = [set(_hashable(v) for v in seq(o, f"set.{name}()")) for o in others]
        if name == "union":
            _grow(len(s) + sum(len(o) for o in sets), "the number of items in the set")
        return getattr(s, name)(*sets)

    return op


SET: dict[str, Callable[..., Any]] = {
    "add": set_add,
    "update": set_update,
    "discard": lambda s, v: s.discard(_hashable(v)),
    "remove": set_remove,
    "pop": lambda s: s.pop() if s else _empty_set_pop(),
    "clear": l_clear,
    "copy": lambda s: set(s),
    "union": _set_op("union"),
    "intersection": _set_op("intersection"),
    "difference": _set_op("difference"),
    "symmetric_difference": _set_op("symmetric_difference"),
    "issubset": lambda s, o: s.issubset(set(seq(o, "set.issubset()"))),
    "issuperset": lambda s, o: s.issuperset(set(seq(o, "set.issuperset()"))),
    "isdisjoint": lambda s, o: s.isdisjoint(set(seq(o, "set.isdisjoint()"))),
}


# frozenset: set's methods that change nothing (their results frozensets, as Python's).
FROZENSET: dict[str, Callable[..., Any]] = {
    name: SET[name]
    for name in (
        "union",
        "intersection",
        "difference",
        "symmetric_difference",
        "issubset",
        "issuperset",
        "isdisjoint",
    )
}
FROZENSET["copy"] = lambda s: s


def _empty_set_pop() -> Any:
    from .exceptions import CLASSES, ProgramError

    raise ProgramError(CLASSES["KeyError"]("pop from an empty set"))


# --- str ------------------------------------------------------------------------------------


def _str_arg(v: Any, what: str) -> str:
    if not isinstance(v, str):
        raise GradcliError(f"{what} must be str, not {typename(v)}").mirror("TypeError")
    return v


def str_join(sep: str, items: Any) -> str:
    parts = seq(items, "str.join()")
    total = len(sep) * max(0, len(parts) - 1)
    for i, p in enumerate(parts):
        if not isinstance(p, str):
            raise GradcliError(
                f"sequence item {i}: expected str instance, {typename(p)} found"
            ).mirror("TypeError")
        total += len(p)
    _chars(total)
    return sep.join(parts)


def str_replace(s: str, old: Any, new: Any, count: Any = -1) -> str:
    old = _str_arg(old, "replace() argument 1")
    new = _str_arg(new, "replace() argument 2")
    count = _index_arg(count)
    n = s.count(old) if old else len(s) + 1
    if count >= 0:
        n = min(n, count)
    _chars(len(s) + n * (len(new) - len(old)))
    return s.replace(old, new, count)


def _width(w: Any) -> int:
    w = _index_arg(w)
    _chars(w)
    return w


def _fill(fill: Any) -> str:
    if not isinstance(fill, str) or len(fill) != 1:
        raise GradcliError("The fill character must be exactly one character long").mirror(
            "TypeError"
        )
    return fill


def str_split(s: str, sep: Any = None, maxsplit: Any = -1) -> list:
    if sep is not None:
        _str_arg(sep, "separator")
        if not sep:
            raise GradcliError("empty separator").mirror("ValueError")
    maxsplit = _index_arg(maxsplit)
    return s.split(sep, maxsplit)


def str_rsplit(s: str, sep: Any = None, maxsplit: Any = -1) -> list:
    if sep is not None:
        _str_arg(sep, "separator")
        if not sep:
            raise GradcliError("empty separator").mirror("ValueError")
    maxsplit = _index_arg(maxsplit)
    return s.rsplit(sep, maxsplit)


def _strip(kind: str) -> Callable[..., str]:
    def strip(s: str, chars: Any = None) -> str:
        if chars is not None:
            _str_arg(chars, f"{kind} arg")
        return getattr(s, kind)(chars)

    return strip


def _affix(kind: str) -> Callable[..., bool]:
    def test(s: str, prefix: Any, *bounds: Any) -> bool:
        bounds = tuple(b if b is None else _index_arg(b) for b in bounds)
        items = prefix if isinstance(prefix, tuple) else (prefix,)
        for p in items:
            _str_arg(p, f"{kind} first arg")
        return getattr(s, kind)(prefix, *bounds)

    return test


def _finder(kind: str) -> Callable[..., int]:
    def find(s: str, sub: Any, *bounds: Any) -> int:
        _str_arg(sub, "must be str")
        bounds = tuple(b if b is None else _index_arg(b) for b in bounds)
        try:
            return getattr(s, kind)(sub, *bounds)
        except ValueError:
            raise GradcliError("substring not found").mirror("ValueError") from None

    return find


def _index_arg(v: Any) -> int:
    v = as_index(v)  # (its __index__, as Python takes it)
    if isinstance(v, bool) or not isinstance(v, int):
        raise GradcliError(f"'{typename(v)}' object cannot be interpreted as an integer").mirror(
            "TypeError"
        )
    return v


def str_format(s: str, *args: Any, **kwargs: Any) -> str:
    from .formatting import str_format as fmt

    return fmt(s, args, kwargs)


STR: dict[str, Callable[..., Any]] = {
    "join": str_join,
    "split": str_split,
    "rsplit": str_rsplit,
    "splitlines": lambda s, keepends=False: s.splitlines(bool(keepends)),
    "strip": _strip("strip"),
    "lstrip": _strip("lstrip"),
    "rstrip": _strip("rstrip"),
    "upper": lambda s: s.upper(),
    "lower": lambda s: s.lower(),
    "title": lambda s: s.title(),
    "capitalize": lambda s: s.capitalize(),
    "swapcase": lambda s: s.swapcase(),
    "casefold": lambda s: s.casefold(),
    "startswith": _affix("startswith"),
    "endswith": _affix("endswith"),
    "replace": str_replace,
    "format": str_format,
    "count": lambda s, sub, *b: s.count(_str_arg(sub, "must be str"), *map(_index_arg, b)),
    "find": _finder("find"),
    "rfind": _finder("rfind"),
    "index": _finder("index"),
    "rindex": _finder("rindex"),
    "center": lambda s, w, fill=" ": s.center(_width(w), _fill(fill)),
    "ljust": lambda s, w, fill=" ": s.ljust(_width(w), _fill(fill)),
    "rjust": lambda s, w, fill=" ": s.rjust(_width(w), _fill(fill)),
    "zfill": lambda s, w: s.zfill(_width(w)),
    "partition": lambda s, sep: s.partition(_str_arg(sep, "must be str")),
    "rpartition": lambda s, sep: s.rpartition(_str_arg(sep, "must be str")),
    "isdigit": lambda s: s.isdigit(),
    "isalpha": lambda s: s.isalpha(),
    "isalnum": lambda s: s.isalnum(),
    "isspace": lambda s: s.isspace(),
    "isupper": lambda s: s.isupper(),
    "islower": lambda s: s.islower(),
    "isnumeric": lambda s: s.isnumeric(),
    "isdecimal": lambda s: s.isdecimal(),
    "isidentifier": lambda s: s.isidentifier(),
    "istitle": lambda s: s.istitle(),
    "isprintable": lambda s: s.isprintable(),
    "isascii": lambda s: s.isascii(),
    "removeprefix": lambda s, p: s.removeprefix(_str_arg(p, "must be str")),
    "removesuffix": lambda s, p: s.removesuffix(_str_arg(p, "must be str")),
    "expandtabs": lambda s, tabsize=8: _expandtabs(s, tabsize),
    "encode": lambda s, encoding="utf-8", errors="strict": _bytes().encode(s, encoding, errors),
}


def _bytes() -> Any:
    from . import pybytes

    return pybytes


def _expandtabs(s: str, tabsize: Any) -> str:
    """`s.expandtabs(n)`: each tab widens to at most n spaces (bounded before it is made)."""
    n = _index_arg(tabsize)
    _chars(len(s) + s.count("\t") * max(n, 0))
    return s.expandtabs(n)


# --- numbers ---------------------------------------------------------------------------------

FLOAT: dict[str, Callable[..., Any]] = {
    "is_integer": lambda v: v.is_integer(),
    "hex": lambda v: v.hex(),  # (the exact bits, as tests of rounding print them)
    "as_integer_ratio": lambda v: v.as_integer_ratio(),
    "conjugate": lambda v: v.conjugate(),
}
COMPLEX: dict[str, Callable[..., Any]] = {
    "conjugate": lambda v: v.conjugate(),
}
# A number's attributes that are values, not methods (`(2.5).real`, `(3).denominator`).
NUMBER_ATTRIBUTES: dict[type, tuple[str, ...]] = {
    complex: ("real", "imag"),
    float: ("real", "imag"),
    int: ("real", "imag", "numerator", "denominator"),
    bool: ("real", "imag", "numerator", "denominator"),
}
INT: dict[str, Callable[..., Any]] = {
    "bit_length": lambda v: v.bit_length(),
    "bit_count": lambda v: v.bit_count(),
    "as_integer_ratio": lambda v: v.as_integer_ratio(),
    "conjugate": lambda v: v.conjugate(),
    "to_bytes": lambda v, *a, **k: _bytes().int_to_bytes(v, *a, **k),
}


# --- NumPy arrays from .numpy() ---------------------------------------------------------------


def _array_key(key: Any) -> Any:
    """An array's index as a tensor's: NumPy arrays in it (integer positions, boolean masks,
    `x[idx]` with `idx = np.arange(n)`) read as tensors of their values."""
    if isinstance(key, np.ndarray):
        if key.dtype.kind not in "biu":
            raise GradcliError(
                "arrays used as indices must be of integer (or boolean) type"
            ).mirror("IndexError")
        return Tensor(key.astype(np.int64) if key.dtype.kind == "u" else key)
    if isinstance(key, tuple):
        return tuple(_array_key(k) for k in key)
    return key


def _check_masks(a: np.ndarray, key: Any) -> None:
    """NumPy's refusal of a boolean mask whose shape is not the indexed axes'."""
    axis = 0
    for k in key if isinstance(key, tuple) else (key,):
        if isinstance(k, np.ndarray) and k.dtype == bool:
            for j, n in enumerate(k.shape):
                size = a.shape[axis + j] if axis + j < a.ndim else None
                if size is not None and size != n:
                    raise GradcliError(
                        f"boolean index did not match indexed array along axis {axis + j}; "
                        f"size of axis is {size} but size of corresponding boolean axis is {n}"
                    ).mirror("IndexError")
            axis += k.ndim
        elif k is not None and k is not Ellipsis:
            axis += 1
        elif k is Ellipsis:
            return


def _reversing_basic_key(key: Any) -> bool:
    """Whether an array's index is NumPy's basic kind (integers, slices of integers, None,
    Ellipsis) with a slice of negative step, which tensors' indexing refuses and NumPy takes:
    `order[::-1]`, `a[:, ::-2]`."""
    items = key if isinstance(key, tuple) else (key,)
    reverses = False
    for k in items:
        if isinstance(k, slice):
            for part in (k.start, k.stop, k.step):
                if part is not None and (
                    isinstance(part, bool) or not isinstance(part, (int, np.integer))
                ):
                    return False
            reverses = reverses or (k.step is not None and int(k.step) < 0)
        elif not (
            k is None
            or k is Ellipsis
            or (isinstance(k, (int, np.integer)) and not isinstance(k, bool))
        ):
            return False
    return reverses


def array_item(a: np.ndarray, key: Any) -> Any:
    from ..surface import indexing as I

    _check_masks(a, key)
    from .values import numpy_number

    if _reversing_basic_key(key):  # a view, as NumPy's basic indexing makes: no copy
        try:
            return numpy_number(a[key])
        except IndexError as e:
            raise GradcliError(str(e)).mirror("IndexError") from None
    return numpy_number(I.getitem(Tensor(a), _array_key(key)).data)


def set_array_item(a: np.ndarray, key: Any, value: Any) -> None:
    """`a[key] = value` on a NumPy array (the key read as a tensor's index; the value cast as
    NumPy casts it); an array that shares a tensor's memory changes the tensor too."""
    from ..surface import indexing as I

    if not a.flags.writeable:
        raise GradcliError("assignment destination is read-only").mirror("ValueError")
    _check_masks(a, key)
    idx = I.normalize_index(Tensor(a), _array_key(key))
    if isinstance(value, Tensor):
        value = value.data
    elif isinstance(value, (list, tuple)):
        check_structure(value, "the assignment")
        value = np.asarray(value)
    elif not isinstance(value, (bool, int, float, complex, np.ndarray, np.generic)):
        raise GradcliError(
            f"cannot assign a {typename(value)} into a NumPy array",
            expected="a number, a list or an array",
        ).mirror("TypeError")
    try:
        with np.errstate(all="ignore"):
            a[idx] = value
    except (ValueError, TypeError, OverflowError) as e:
        raise GradcliError(str(e)).mirror(type(e).__name__) from None


class ArrayFlags:
    """`a.flags` of a NumPy array, for its layout: `a.flags['C_CONTIGUOUS']`,
    `a.flags.f_contiguous` (a tensor's array has the tensor's strides: `core.layout`). Its
    other flags (OWNDATA, WRITEABLE...) say how gradcli keeps memory, not what NumPy and
    PyTorch would: refused."""

    __slots__ = ("c_contiguous", "f_contiguous")
    PROGRAM_ATTRIBUTES = ("c_contiguous", "f_contiguous", "contiguous", "fortran")
    _KEYS = {
        "C_CONTIGUOUS": "c_contiguous",
        "C": "c_contiguous",
        "CONTIGUOUS": "c_contiguous",
        "F_CONTIGUOUS": "f_contiguous",
        "F": "f_contiguous",
        "FORTRAN": "f_contiguous",
    }

    def __init__(self, a: np.ndarray):
        self.c_contiguous = bool(a.flags.c_contiguous)
        self.f_contiguous = bool(a.flags.f_contiguous)

    @property
    def contiguous(self) -> bool:
        return self.c_contiguous

    @property
    def fortran(self) -> bool:
        return self.f_contiguous and not self.c_contiguous

    def program_getitem(self, key: Any) -> bool:
        name = self._KEYS.get(key) if isinstance(key, str) else None
        if name is None:
            if isinstance(key, str) and key.upper() in (
                "OWNDATA", "O", "WRITEABLE", "W", "ALIGNED", "A", "WRITEBACKIFCOPY", "X"
            ):  # fmt: skip
                raise NotSupported(
                    f"a.flags[{key!r}] is not supported in gradcli programs",
                    hint="read a.flags['C_CONTIGUOUS'] or a.flags['F_CONTIGUOUS']",
                )
            raise GradcliError("Unknown flag").mirror("KeyError")
        return bool(getattr(self, name))

    def __repr__(self) -> str:
        raise NotSupported(
            "printing a NumPy array's flags is not supported in gradcli programs",
            hint="print a.flags['C_CONTIGUOUS'] and a.flags['F_CONTIGUOUS']",
        )


ARRAY_ATTRIBUTES: dict[str, Callable[[np.ndarray], Any]] = {
    "shape": lambda a: tuple(a.shape),
    "ndim": lambda a: a.ndim,
    "size": lambda a: int(a.size),
    "dtype": lambda a: a.dtype,
    "T": lambda a: a.T,
    # (a tensor's array has the tensor's strides: `core.layout`)
    "strides": lambda a: tuple(int(s) for s in a.strides),
    "itemsize": lambda a: int(a.itemsize),
    "nbytes": lambda a: int(a.nbytes),
    "flags": ArrayFlags,
    # (views of the parts, as NumPy's; a real array's .real is itself, its .imag zeros)
    "real": lambda a: a.real,
    "imag": lambda a: a.imag if a.dtype.kind == "c" else np.zeros_like(a),
}


def _array_reduction(name: str) -> Callable[..., Any]:
    """`a.sum(axis=0, keepdims=True)` and the other reductions of an array, NumPy's (a
    number when every axis is reduced); ddof for std / var."""

    def call(a: np.ndarray, axis: Any = None, *, keepdims: Any = False, ddof: Any = 0) -> Any:
        from ..surface.args import dims_arg

        ax = dims_arg(axis, a.ndim)
        kwargs: dict[str, Any] = {"axis": ax, "keepdims": bool(keepdims)}
        if name in ("std", "var"):
            kwargs["ddof"] = _index_arg(ddof)
        elif ddof != 0:
            raise GradcliError(f"{name}() got an unexpected keyword argument 'ddof'").mirror(
                "TypeError"
            )
        if name in ("argmax", "argmin") and isinstance(ax, tuple):
            raise GradcliError("an integer is required for the axis").mirror("TypeError")
        if a.size == 0 and name in ("max", "min", "argmax", "argmin"):
            raise GradcliError(
                f"zero-size array to reduction operation {name[-3:]}imum which has no identity"
                if name in ("max", "min")
                else f"attempt to get {name} of an empty sequence"
            ).mirror("ValueError")
        with np.errstate(all="ignore"):
            out = getattr(a, name)(**kwargs)
        if np.ndim(out) == 0 and ax is None and not keepdims:
            from .values import numpy_number

            return numpy_number(out)
        return out

    return call


def _array_cumsum(a: np.ndarray, axis: Any = None) -> np.ndarray:
    from ..surface.args import check_dim

    return np.cumsum(a) if axis is None else np.cumsum(a, axis=check_dim(axis, a.ndim))


def _array_squeeze(a: np.ndarray, axis: Any = None) -> np.ndarray:
    from ..surface.args import dims_arg

    ax = dims_arg(axis, a.ndim)
    for d in (ax,) if isinstance(ax, int) else ax or ():
        if a.shape[d] != 1:
            raise GradcliError(
                "cannot select an axis to squeeze out which has size not equal to one"
            ).mirror("ValueError")
    return a.squeeze(ax)


def _array_transpose(a: np.ndarray, *axes: Any) -> np.ndarray:
    if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
        axes = tuple(axes[0])
    if not axes:
        return a.T
    order = [_index_arg(d) for d in axes]
    if sorted(d % a.ndim if a.ndim else d for d in order) != list(range(a.ndim)):
        raise GradcliError("axes don't match array").mirror("ValueError")
    return a.transpose(order)


def _array_clip(a: np.ndarray, a_min: Any = None, a_max: Any = None) -> np.ndarray:
    """`a.clip(lo, hi)`, `np.clip(a, low, high)`: bounds are numbers or numeric arrays (an action
    clipped to an environment's `low`/`high`), broadcast with `a`, the result sized first."""
    bounds = []
    given = [a_min, a_max]
    for i, v in enumerate(given):
        if v is None:
            continue
        if isinstance(v, (np.ndarray, np.generic)) and v.dtype.kind in "biuf":
            pass
        elif isinstance(v, (list, tuple)):
            from ..core.tensor import data_array

            v = data_array(v, None, float_dtype=np.float64)  # numbers only, sized
        elif isinstance(v, bool) or not isinstance(v, (int, float)):
            raise GradcliError(f"clip() takes numbers or numeric arrays, not {typename(v)}").mirror(
                "TypeError"
            )
        given[i] = v
        bounds.append(v)
    if a_min is None and a_max is None:
        raise GradcliError("One of max or min must be given").mirror("ValueError")
    from ..ops.arithmetic import size_check

    try:
        size_check(
            np.broadcast_shapes(a.shape, *(np.shape(v) for v in bounds)), "the result of clip()"
        )
    except ValueError:
        pass  # NumPy refuses the shapes below, in its own words, before any work
    try:
        with np.errstate(all="ignore"):
            return np.clip(a, given[0], given[1])
    except ValueError as e:
        raise GradcliError(str(e)).mirror("ValueError") from None


_SORT_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")
_MAX_KTH = 1000


def _sort_axis(axis: Any) -> Any:
    return None if axis is None else _index_arg(axis)


def _sorting(fn: Callable[..., np.ndarray], *args: Any) -> np.ndarray:
    try:
        return fn(*args)
    except np.exceptions.AxisError as e:  # a ValueError (and IndexError) in NumPy
        raise GradcliError(str(e)).mirror("AxisError") from None
    except (ValueError, TypeError) as e:
        raise GradcliError(str(e)).mirror(type(e).__name__) from None


def _array_argsort(a: np.ndarray, axis: Any = -1, kind: Any = None) -> np.ndarray:
    """`a.argsort()` / `np.argsort(a)`: NumPy's order (`kind='stable'` keeps ties in order)."""
    if kind not in _SORT_KINDS:
        raise GradcliError(
            f"sort kind must be one of 'quick', 'heap', or 'stable' (got {kind!r})"
        ).mirror("ValueError")
    return _sorting(lambda: np.argsort(a, axis=_sort_axis(axis), kind=kind))


def _array_sorted(a: np.ndarray, axis: Any = -1, kind: Any = None) -> np.ndarray:
    """`np.sort(a)`: a sorted copy (the array itself is unchanged)."""
    if kind not in _SORT_KINDS:
        raise GradcliError(
            f"sort kind must be one of 'quick', 'heap', or 'stable' (got {kind!r})"
        ).mirror("ValueError")
    return _sorting(lambda: np.sort(a, axis=_sort_axis(axis), kind=kind))


def _array_argpartition(a: np.ndarray, kth: Any, axis: Any = -1) -> np.ndarray:
    """`np.argpartition(a, kth)`: NumPy's own arrangement (the k-th element in its sorted
    place, smaller ones before it, larger after, in NumPy's order)."""
    ks = list(kth) if isinstance(kth, (list, tuple)) else [kth]
    if len(ks) > _MAX_KTH:
        # each kth is one more selection pass over the array: many of them are a slow sort
        raise NotSupported(
            f"np.argpartition() with {len(ks):,} kth values is not supported: gradcli takes at "
            f"most {_MAX_KTH:,}",
            hint="use np.argsort(a) for the whole order",
        )
    if any(isinstance(v, bool) or not isinstance(v, int) for v in ks):
        raise GradcliError("Partition index must be integer").mirror("TypeError")
    k = ks if isinstance(kth, (list, tuple)) else kth
    return _sorting(lambda: np.argpartition(a, k, axis=_sort_axis(axis)))


def _array_repeat(a: np.ndarray, repeats: Any, axis: Any = None) -> Any:
    """`a.repeat(3, axis=1)` / `np.repeat(a, [2, 0, 1])`: NumPy's (the result sized first)."""
    from ..ops.arithmetic import size_check

    ax = None if axis is None else _index_arg(axis)
    if isinstance(repeats, np.ndarray):
        if repeats.dtype.kind not in "iu":
            raise GradcliError(
                f"Cannot cast array data from {repeats.dtype!r} to dtype('int64') according to "
                "the rule 'safe'"
            ).mirror("TypeError")
        counts = [int(v) for v in repeats.reshape(-1)]
    elif isinstance(repeats, (list, tuple)):
        counts = [_index_arg(v) for v in repeats]
    else:
        counts = [_index_arg(repeats)]
    if len(counts) == 1:
        per = int(a.size) if ax is None else int(a.size)
        total = max(counts[0], 0) * per
    else:
        rest = 1 if ax is None or a.ndim == 0 else int(a.size) // max(a.shape[ax % a.ndim], 1)
        total = sum(max(c, 0) for c in counts) * rest
    size_check((total,), "the result of numpy.repeat()")
    reps: Any = counts[0] if not isinstance(repeats, (list, tuple, np.ndarray)) else counts
    try:
        return np.repeat(a, reps, axis=ax)
    except np.exceptions.AxisError as e:
        raise GradcliError(str(e)).mirror("AxisError") from None
    except (ValueError, TypeError) as e:
        raise GradcliError(str(e)).mirror(type(e).__name__) from None


def _array_int(v: Any) -> int:
    from .values import as_index

    v = as_index(v)
    if isinstance(v, bool) or not isinstance(v, int):
        raise GradcliError(f"'{typename(v)}' object cannot be interpreted as an integer").mirror(
            "TypeError"
        )
    return v


def _array_item(a: np.ndarray, index: tuple) -> Any:
    """`a.item()`, `a.item(3)`, `a.item(1, 2)`: one element as a Python number."""
    from .values import numpy_call

    ints = [_array_int(v) for v in index]
    return numpy_call(lambda: a.item(*ints))


def _array_order(order: Any) -> str:
    if not isinstance(order, str) or order not in ("C", "F", "A", "K"):
        raise GradcliError(
            f"order must be one of 'C', 'F', 'A', or 'K' (got {str(order)[:40]!r})"
        ).mirror("ValueError")
    return order


def _array_take(a: np.ndarray, indices: Any, axis: Any = None) -> Any:
    from ..ops.arithmetic import size_check
    from .values import numpy_call

    if isinstance(indices, Tensor) or not isinstance(indices, (int, list, tuple, np.ndarray)):
        raise NotSupported(
            f"ndarray.take() of '{typename(indices)}' indices is not supported in gradcli programs",
            hint="pass a list of ints or an integer array (`t.tolist()` of a tensor)",
        )
    check_structure(indices, "take()")
    if isinstance(indices, (list, tuple)) and any(
        not isinstance(v, (int, float, list, tuple, np.generic)) for v in indices
    ):
        raise NotSupported(
            "take() of indices that are not numbers is not supported in gradcli programs",
            hint="pass a list of ints or an integer array",
        )
    idx = np.asarray(indices)
    if idx.dtype.kind not in "iubf":
        raise NotSupported(
            f"ndarray.take() of {idx.dtype} indices is not supported in gradcli programs",
            hint="pass a list of ints or an integer array",
        )
    ax = None if axis is None else _array_int(axis)
    rest = a.size // max(a.shape[ax], 1) if ax is not None and -a.ndim <= ax < a.ndim else 1
    size_check((int(idx.size) * int(rest),), "the result of take()")
    # (the indices as the program gave them: NumPy reads a list of floats by its own rule)
    return numpy_call(lambda: a.take(indices, axis=ax))


def _array_view_method(name: str) -> Callable[..., Any]:
    """`a.swapaxes(0, 1)`, `a.diagonal()`, `a.trace()`, `a.nonzero()`: NumPy's, on integer
    arguments only (views, a number, or index arrays no larger than the array's)."""

    def call(a: np.ndarray, *args: Any, **kwargs: Any) -> Any:
        from .values import numpy_call

        ints = [_array_int(v) for v in args]
        kw = {k: _array_int(v) for k, v in kwargs.items()}
        return numpy_call(lambda: getattr(a, name)(*ints, **kw))

    call.__name__ = name
    return call


ARRAY_METHODS: dict[str, Callable[..., Any]] = {
    "argsort": _array_argsort,
    "repeat": _array_repeat,
    "argpartition": _array_argpartition,
    "tolist": lambda a: _array_tolist(a),
    **{
        name: _array_reduction(name)
        for name in ("sum", "mean", "std", "var", "max", "min", "argmax", "argmin", "prod")
    },
    "any": lambda a: np.bool_(a.any()),  # (NumPy's bool: `[a.any()]` shows `np.True_`)
    "all": lambda a: np.bool_(a.all()),
    "cumsum": lambda a, axis=None: _array_cumsum(a, axis),
    "ravel": lambda a, order="C": a.ravel(_array_order(order)),
    "squeeze": _array_squeeze,
    "transpose": _array_transpose,
    "clip": _array_clip,
    "item": lambda a, *index: _array_item(a, index),
    "copy": lambda a: a.copy(),
    "round": lambda a, decimals=0: np.round(a, _index_arg(decimals)),
    "reshape": lambda a, *shape: _array_reshape(a, shape),
    "flatten": lambda a, order="C": a.flatten(_array_order(order)),
    "astype": lambda a, dtype: _array_astype(a, dtype),
    "dot": lambda a, b: _array_dot(a, b),
    "fill": lambda a, value: set_array_item(a, Ellipsis, _fill_value(value)),
    "conj": lambda a: a.conj(),
    "conjugate": lambda a: a.conj(),
    # NumPy's methods of views, index arrays and sums along a diagonal (probe40)
    "take": _array_take,
    **{name: _array_view_method(name) for name in ("swapaxes", "nonzero", "trace", "diagonal")},
}


def _fill_value(value: Any) -> Any:
    """`a.fill(value)`: one number (NumPy's `fill` takes a scalar)."""
    if isinstance(value, np.generic) or (
        isinstance(value, (int, float)) and not isinstance(value, bool)
    ):
        return value
    if isinstance(value, bool):
        return value
    raise GradcliError(f"fill() takes a number, not {typename(value)}").mirror("TypeError")


def _array_dot(a: np.ndarray, b: Any) -> Any:
    """`a.dot(b)`: np.dot(a, b)."""
    from ..core.tensor import Tensor as T
    from .values import numpy_number

    if isinstance(b, T):
        raise GradcliError(
            "ndarray.dot() of a tensor is not supported by gradcli", hint="use torch.matmul"
        )
    if not isinstance(b, np.ndarray):
        if isinstance(b, bool) or not isinstance(b, (int, float, list, tuple)):
            raise GradcliError(f"unsupported operand type for dot(): '{typename(b)}'").mirror(
                "TypeError"
            )
        b = np.asarray(b)
    dt = np.promote_types(a.dtype, b.dtype)
    if a.ndim == 0 or b.ndim == 0:
        from ..ops.arithmetic import size_check

        size_check(np.broadcast_shapes(a.shape, b.shape), "the result of dot()")
        return numpy_number(np.multiply(a, b, dtype=dt))
    from .npmatmul import numpy_matmul  # NumPy's own product (not torch's float32 sums)

    return numpy_matmul(a, b, "dot")


def _array_reshape(a: np.ndarray, shape: tuple) -> np.ndarray:
    from ..surface.args import infer_shape, shape_arg

    return a.reshape(infer_shape(shape_arg(shape, infer=True), a.size))


# NumPy also takes a dtype's name: `np.array(rows, dtype='float32')` (tutorials write it so).
# Only these names (the dtypes gradcli's tensors have): a string is never handed to NumPy.
NAMED_DTYPES = {
    name: np.dtype(code)
    for code, names in (
        ("f8", ("float64", "float", "double", "f8", "d", "float_")),
        ("f4", ("float32", "single", "f4", "f")),
        ("f2", ("float16", "half", "f2", "e")),
        ("i8", ("int64", "int", "long", "i8", "int_", "intp")),
        ("i4", ("int32", "i4", "intc")),
        ("i2", ("int16", "short", "i2")),
        ("i1", ("int8", "byte", "i1")),
        ("u1", ("uint8", "ubyte", "u1", "B")),
        ("?", ("bool", "bool_", "?")),
        ("u2", ("uint16", "ushort", "u2", "H")),
        ("u4", ("uint32", "uintc", "u4", "I")),
        ("u8", ("uint64", "ulong", "u8", "uintp")),
        ("c8", ("complex64", "csingle", "c8", "F")),
        ("c16", ("complex128", "complex", "cdouble", "c16", "D")),
    )
    for name in names
}


def named_dtype(dtype: Any, fn: str) -> np.dtype:
    """A dtype given by its name (`'float32'`), as NumPy reads it; other text refused in
    NumPy's words."""
    got = NAMED_DTYPES.get(dtype)
    if got is not None:
        return got
    hint = f"numpy.{fn}(..., dtype='float32'), 'float64', 'int64', 'int32' or 'bool'"
    try:
        if len(dtype) > 64:  # no dtype's name is that long
            raise TypeError
        np.dtype(dtype)  # only read (never used): is it a name NumPy knows?
    except (TypeError, ValueError):
        shown = repr(dtype) if len(dtype) <= 40 else repr(dtype[:40]) + "..."
        raise GradcliError(f"data type {shown} not understood", hint=hint).mirror(
            "TypeError"
        ) from None
    raise NotSupported(
        f"the NumPy dtype {dtype!r} is not supported by gradcli: its arrays hold numbers of "
        "the dtypes tensors have",
        hint=hint,
    )


# NumPy's dtypes of Python's types (`a.astype(float)`)
_PYTHON_TYPES = {bool: np.dtype(bool), int: np.dtype(np.int64), float: np.dtype(np.float64)}
_PYTHON_TYPES[complex] = np.dtype(np.complex128)


def _array_astype(a: np.ndarray, dtype: Any) -> np.ndarray:
    from ..core.dtypes import check_dtype
    from .values import PyType

    if isinstance(dtype, str):  # a.astype('float32')
        return a.astype(named_dtype(dtype, "ndarray.astype"))
    if isinstance(dtype, PyType) and len(dtype.types) == 1 and dtype.types[0] in _PYTHON_TYPES:
        return a.astype(_PYTHON_TYPES[dtype.types[0]])  # a.astype(float), a.astype(complex)
    with np.errstate(all="ignore"):
        return a.astype(check_dtype(getattr(dtype, "np", dtype), fn="astype"))


def _array_tolist(a: np.ndarray) -> Any:
    limits.LIST_ITEMS.check(a.size, "the number of items tolist() would make")
    return a.tolist()


# --- lookup -----------------------------------------------------------------------------------


def _size_numel(s: tuple) -> int:
    n = 1
    for d in s:
        n *= int(d)
    return n


# torch.Size: a tuple with numel().
SIZE: dict[str, Callable[..., Any]] = {**TUPLE, "numel": _size_numel}


class _LazyBytes(dict):
    """bytes' methods (`lang.pybytes`), imported when a program first uses one."""

    def get(self, key: Any, default: Any = None) -> Any:
        return _bytes().BYTES.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in _bytes().BYTES

    def __iter__(self) -> Any:
        return iter(_bytes().BYTES)

    def __getitem__(self, key: Any) -> Any:
        return _bytes().BYTES[key]


TABLES: dict[type, dict[str, Callable[..., Any]]] = {
    bytes: _LazyBytes(),
    list: LIST,
    tuple: TUPLE,
    Size: SIZE,
    MaxMin: TUPLE,  # torch.return_types.max and its kin are tuples: count(), index()
    GradientEdge: TUPLE,
    dict: DICT,
    collections.OrderedDict: ORDERED_DICT,
    DefaultDict: DICT,
    pycounter.Counter: pycounter.counter_methods(DICT),
    ModuleEntries: MODULE_ENTRIES,
    StateEntries: MODULE_ENTRIES,
    InstanceEntries: MODULE_ENTRIES,
    set: SET,
    frozenset: FROZENSET,
    str: STR,
    float: FLOAT,
    complex: COMPLEX,
    int: INT,
}


# Python's methods that make or take bytes (or str's translation tables): refused, saying so.
_NO_BYTES: dict[type, tuple[str, ...]] = {
    str: ("translate", "maketrans"),
}


def _copied_dict(d: dict) -> dict:
    """`d.copy()`: a dict of the same kind (a defaultdict keeps its factory, an OrderedDict its
    order-aware type)."""
    if type(d) is DefaultDict:
        out = DefaultDict(d.default_factory)
        out.update(d)
        return out
    if type(d) is collections.OrderedDict:
        return collections.OrderedDict(d)
    return dict(d)


# The methods that change a list, dict or set in place.
MUTATORS = frozenset(
    (
        "append",
        "extend",
        "insert",
        "pop",
        "remove",
        "sort",
        "reverse",
        "clear",
        "update",
        "setdefault",
        "popitem",
        "move_to_end",
        "add",
        "discard",
        "difference_update",
        "intersection_update",
        "symmetric_difference_update",
    )
)


def vmap_outer_change(owner: Any, what: str) -> None:
    """Refuse changing, inside a function vmap maps over, a list, dict or set the program
    made before (one of its module-level names): PyTorch runs the function once, gradcli once
    per batch element, so the container would change once per element (a silent difference).
    Any container is refused when the run for an earlier element changed it too (an attribute
    list, one a closure holds: `core.tensor.repeated_change`), in a vmap or a hook of
    jacrev's passes."""
    from .values import current

    if _GradMode.repeats:
        repeated_change(owner, f"a {typename(owner)} ({what})")
    levels = _GradMode.vmapped
    if not levels:
        return
    level = levels[0]
    outer = getattr(level, "outer", None)
    if outer is None:
        rt = current()
        values = rt.globals.values() if rt is not None else ()
        outer = level.outer = frozenset(
            id(v) for v in values if isinstance(v, (list, dict, set, collections.deque))
        )
    if id(owner) in outer:
        raise NotSupported(
            f"changing a {typename(owner)} made outside the function vmap maps over ({what}) "
            "is not supported: PyTorch runs the function once, gradcli runs it once per batch "
            "element, so the change would be made once per element",
            hint="return the values from the function (vmap stacks them) and collect them "
            "after the vmap call",
        )


_MISSING = object()


def _same(old: Any, new: Any) -> bool:
    """Whether assigning `new` where `old` is leaves the value as it was: the same object, or
    an equal number, string, bool, None or tuple of them (`self.flag = True` again)."""
    if old is new:
        return True
    if type(old) is not type(new):
        return False
    if isinstance(old, (int, float, str, bool)):
        return bool(old == new)
    if isinstance(old, tuple):
        return len(old) == len(new) and all(_same(a, b) for a, b in zip(old, new))
    return False


def repeated_store(home: dict, name: str, old: Any, new: Any, thing: str) -> None:
    """`global n; n += 1` (or a `nonlocal` name) inside code gradcli runs several times where
    PyTorch runs it once: as `repeated_change`, for the variable `name` of `home` (the
    module's variables, a function frame's): refused when an earlier run rebound it too,
    unless the value stays as it was."""
    key = (id(home), name)
    for runs in _GradMode.repeats:
        first = runs.seen.get(key)  # type: ignore[call-overload]
        if first is None:
            runs.seen[key] = (home, runs.index)  # type: ignore[index]
            runs.grown()
        elif first[1] < runs.index and not _same(old, new):
            raise NotSupported(
                f"changing {thing} inside {runs.where} is not supported when the run for an "
                f"earlier {runs.unit} changed it too: PyTorch runs the code once, gradcli once "
                f"per {runs.unit}, so the change would be made once per {runs.unit}",
                hint=runs.hint,
            )


def _current_attribute(owner: Any, attr: str) -> Any:
    """What `owner.attr` holds now, read without running program code (`_MISSING` where
    that cannot be known: the change then counts as one)."""
    from .classes import Instance

    if type(owner) is Instance:
        return owner.attrs.get(attr, _MISSING)
    d = getattr(owner, "__dict__", None)
    if isinstance(d, dict):
        if "_attr_" + attr in d:  # a module's plain attribute
            return d["_attr_" + attr]
        for table in ("_parameters", "_modules", "_buffers"):
            entries = d.get(table)
            if entries is not None and attr in entries:
                return entries[attr]
    return _MISSING


def repeated_attribute(owner: Any, attr: str, value: Any) -> None:
    """`owner.attr = value` inside code gradcli runs several times where PyTorch runs it once
    (a function vmap maps over, a hook of jacrev's passes): refused when the run for an
    earlier element changed the object too, unless the value stays as it was."""
    from .classes import Instance, Property

    if type(owner) is Instance and isinstance(owner.cls.lookup(attr), Property):
        return  # the property's setter: what it changes is checked as it changes it
    same = _same(_current_attribute(owner, attr), value)
    repeated_change(owner, f"the attribute .{attr} of a {typename(owner)}", same)


_CHECKED_MUTATORS: dict[tuple[type, str], Callable[..., Any]] = {}


def checked_mutator(kind: type, attr: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """`l.append` and the other methods that change a list, dict or set, checked by
    `vmap_outer_change` when called: Python evaluates `l.append(x.item())`'s argument before
    the call, so an error the argument raises (`.item()` in a vmapped function) comes first,
    and a method taken outside a vmap (`add = l.append`) is checked where it runs."""
    checked = _CHECKED_MUTATORS.get((kind, attr))
    if checked is None:
        what = f".{attr}()"

        def checked(obj: Any, *args: Any, **kwargs: Any) -> Any:
            vmap_outer_change(obj, what)
            return fn(obj, *args, **kwargs)

        checked = _CHECKED_MUTATORS[(kind, attr)] = checked
    return checked


def method(owner: Any, attr: str) -> Any:
    """`owner.attr` for one of Python's values, or None when the tables have no such name."""
    table = TABLES.get(type(owner))
    mutator = attr in MUTATORS and isinstance(owner, (list, dict, set))
    if attr in NUMBER_ATTRIBUTES.get(type(owner), ()):
        return getattr(owner, attr)
    if table is None and getattr(type(owner), "PROGRAM_DICT", False):
        table = DICT  # optimizer.state: a dict of the surface's (a defaultdict(dict))
    if table is not None:
        if attr == "default_factory" and type(owner) is DefaultDict:
            return owner.default_factory
        fn = table.get(attr)
        if fn is not None:
            if mutator:  # (checked when called, after its arguments, as Python runs it)
                fn = checked_mutator(type(owner), attr, fn)
            return BoundMethod(attr, fn, owner, raw=True)
        if attr == "format_map" and type(owner) is str:
            raise NotSupported(
                "str.format_map() is not supported",
                hint="pass the values to str.format() or use an f-string",
            )
        if type(owner).__module__ == "datetime" and hasattr(owner, attr):
            raise NotSupported(  # (Python's, not gradcli's: time zones, time tuples...)
                f"`{typename(owner)}.{attr}` is not supported by gradcli",
                hint=f"gradcli has {', '.join(sorted(table))}"
                + (
                    f", {', '.join(NUMBER_ATTRIBUTES[type(owner)])}"
                    if type(owner) in NUMBER_ATTRIBUTES
                    else ""
                ),
            )
        if attr in _NO_BYTES.get(type(owner), ()):
            raise NotSupported(
                f"{typename(owner)}.{attr}() is not supported: gradcli programs have no "
                "translation tables",
                hint="work with str values (str.replace, a dict of replacements)",
            )
        raise GradcliError(
            f"'{typename(owner)}' object has no attribute '{attr}'",
            hint=_suggest(attr, table),
        ).mirror("AttributeError")
    if isinstance(owner, np.dtype) and attr in ("name", "kind", "itemsize", "char"):
        return getattr(owner, attr)  # `a.dtype.name`: 'float32'
    scalar = False
    if isinstance(owner, np.generic) and owner.dtype.kind in "biufc":
        # A NumPy scalar has the methods of a 0-d array (`np.dot(u, v).mean()`).
        owner = np.asarray(owner)
        scalar = True
    if isinstance(owner, np.ndarray):
        if attr in ARRAY_ATTRIBUTES:
            value = ARRAY_ATTRIBUTES[attr](owner)
            if scalar and isinstance(value, np.ndarray) and value.ndim == 0:
                return value[()]  # (a scalar's `.real`, `.T`: NumPy's scalar)
            return value
        if attr in ARRAY_METHODS:
            return BoundMethod(attr, ARRAY_METHODS[attr], owner, raw=True)
        if attr == "resize":  # (in place: the array may be a tensor's memory too)
            raise NotSupported(
                "`.resize()` of a NumPy array (a change of its shape in place) is not "
                "supported in gradcli programs",
                hint="name the reshaped array: `a = a.reshape(new_shape)` (the same number of "
                "values), or make a new one with np.zeros(new_shape) and copy into it",
            )
        if attr in ("tofile", "dump", "dumps"):
            from ..base.errors import QUALIFIED_MEANING

            raise NotSupported(
                f"`.{attr}` of a NumPy array is not supported in gradcli programs",
                hint=QUALIFIED_MEANING["numpy.save"],
            )
        raise NotSupported(
            f"`.{attr}` of a NumPy array is not supported in gradcli programs",
            expected="printing it, .shape, .tolist(), indexing",
            hint="work with the tensor instead",
        )
    if isinstance(owner, (bool, type(None))) or is_iterator(owner) or isinstance(owner, Builtin):
        return None
    return None


def _suggest(attr: str, table: dict[str, Any]) -> str | None:
    from ..base.errors import suggest

    return suggest(attr, table)
