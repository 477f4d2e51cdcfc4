"""`str(v)` and `repr(v)` of a program's values, as Python and PyTorch show them: Python's
containers walked here (after `check_structure` has bounded the walk), tensors and the other
PyTorch values as `surface.printing` shows them, NumPy arrays (from `.numpy()`) as NumPy."""

from __future__ import annotations

import collections
from typing import Any

import numpy as np

from ..base import limits
from ..surface.printing import TEXT_CAPS, format_value
from . import numpy_printing
from .values import DefaultDict, Device, check_structure

_VIEWS = {
    type({}.keys()): "dict_keys",
    type({}.values()): "dict_values",
    type({}.items()): "dict_items",
}


def to_str(v: Any, limit: int | None = None) -> str:
    """What `str(v)` / `print(v)` shows; with `limit`, refused before it is made when it would
    be longer (each item of a container shows as one character and a separator at least; a
    tensor's text is measured before it is made)."""
    if isinstance(v, str):
        return v
    if limit is not None:
        _least(v, limit, "str()")
        TEXT_CAPS.append(limit)
        try:
            return to_str(v)
        finally:
            TEXT_CAPS.pop()
    if isinstance(v, (list, tuple, dict, set, frozenset, collections.deque)):
        check_structure(v, "str()", tensor_cost=100)
        return _repr(v)
    if isinstance(v, np.ndarray):
        return str(_sized(v))
    if isinstance(v, (np.dtype, Device, np.generic)):
        return str(v)
    shown = getattr(v, "program_str", None)  # an exception value: its message
    if shown is not None:
        return shown()
    if type(v).__module__ == "datetime":  # a date, a time or a duration: Python's text
        return str(v)
    return to_repr(v)


def to_repr(v: Any, limit: int | None = None) -> str:
    """What `repr(v)` shows (strings quoted); `limit` as `to_str`'s."""
    if limit is not None:
        _least(v, limit, "repr()")
        TEXT_CAPS.append(limit)
        try:
            return to_repr(v)
        finally:
            TEXT_CAPS.pop()
    if isinstance(v, (list, tuple, dict, set, frozenset, collections.deque)):
        check_structure(v, "repr()", tensor_cost=100)
    return _repr(v)


def _sized(v: np.ndarray) -> np.ndarray:
    """An array whose text NumPy may make under the print options in force (the least length
    of that text within the string limit)."""
    floor = numpy_printing.text_floor(v)
    if floor:
        limits.STRING_CHARS.check(floor, "the length of the string (at least)")
    return v


def _least(v: Any, limit: int, what: str) -> None:
    """A container's text is at least a character and a separator per item it shows."""
    if isinstance(v, (list, tuple, dict, set, frozenset, collections.deque)):
        least = 3 * check_structure(v, what, tensor_cost=100)
        if least > limit:
            limits.STRING_CHARS.check(least, "the length of the string (at least)")


def _charged(text: str) -> str:
    """An item's text, its length charged to the text being made (with a cap): the next
    tensor's text is measured against what is left."""
    if TEXT_CAPS:
        TEXT_CAPS[-1] -= len(text) + 2
        if TEXT_CAPS[-1] < 0:
            cap = limits.STRING_CHARS.value
            limits.STRING_CHARS.check(cap - TEXT_CAPS[-1], "the length of the string (at least)")
    return text


def _repr(v: Any) -> str:
    t = type(v)
    if t is str:
        limits.STRING_CHARS.check(len(v) + 2, "the length of the string")
        return repr(v)
    if t in (int, float, bool) or v is None:
        return repr(v)
    if t is bytes:  # (each byte at most 4 characters: b'\xff')
        limits.STRING_CHARS.check(len(v) + 3, "the length of the string")
        if 4 * len(v) + 3 > limits.STRING_CHARS.value:
            text = repr(v)
            limits.STRING_CHARS.check(len(text), "the length of the string")
            return text
        return repr(v)
    if t is list:
        return "[" + ", ".join(_charged(_repr(x)) for x in v) + "]"
    if t is tuple:
        if len(v) == 1:
            return "(" + _charged(_repr(v[0])) + ",)"
        return "(" + ", ".join(_charged(_repr(x)) for x in v) + ")"
    if t is dict or t is DefaultDict:
        items = "{" + ", ".join(_charged(f"{_repr(k)}: {_repr(x)}") for k, x in v.items()) + "}"
        if t is DefaultDict:
            return f"defaultdict({_repr(v.default_factory)}, {items})"
        return items
    if t is set:
        return "{" + ", ".join(_charged(_repr(x)) for x in v) + "}" if v else "set()"
    if t is frozenset:
        return (
            "frozenset({" + ", ".join(_charged(_repr(x)) for x in v) + "})" if v else "frozenset()"
        )
    if t in _VIEWS:
        return f"{_VIEWS[t]}([" + ", ".join(_charged(_repr(x)) for x in v) + "])"
    shown = getattr(t, "program_repr", None)  # a deque, a named tuple: their items' reprs
    if shown is not None:
        return shown(v, lambda x: _charged(_repr(x)))
    if isinstance(v, np.ndarray):
        return repr(_sized(v))
    if isinstance(v, np.generic):
        return repr(v)  # NumPy's: np.float32(0.2)
    if FUNCTION_SHOWN and callable(v):  # torch's functions as PyTorch prints them
        text = FUNCTION_SHOWN[0](v)
        if text is not None:
            return text
    if t.__module__ == "datetime":  # a date, a time or a duration: Python's text
        return repr(v)
    return format_value(v)


# Registered by the runtime (`torch_reprs.function_shown`): what print() shows for one of
# torch's functions, classes or Tensor methods, or None.
FUNCTION_SHOWN: list = []


def checked_str(v: Any) -> str:
    text = to_str(v, limits.STRING_CHARS.value)
    limits.STRING_CHARS.check(len(text), "the length of the string")
    return text
