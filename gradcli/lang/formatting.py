"""Formatting text as Python does, interpreted by gradcli: f-strings (format specs,
conversions, `=`), `str.format` and `%`.

A format spec is parsed and checked here (its width and precision within the string limit)
before Python formats a number or a string with it. A format string can never reach an
attribute or an item of a value: `'{0.__class__}'.format(x)` and `'{0[0]}'.format(l)` are
refused, as are `format_map` and the `!a` conversion (`%(name)s` looks up a plain dict's item).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..base.record import LazyPattern
from ..core import hooks
from ..core.tensor import SCALAR_WARNING, Tensor, typename
from .text import to_repr, to_str

_SPEC = LazyPattern(
    r"(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?(?P<z>z)?(?P<alt>\#)?(?P<zero>0)?"
    r"(?P<width>\d+)?(?P<grouping>[,_])?(?:\.(?P<precision>\d+))?(?P<type>[bcdeEfFgGnosxX%])?",
    re.DOTALL,
)

_INT_TYPES = set("bcdoxXn")
_FLOAT_TYPES = set("eEfFgG%")


def _bounded(number: str | None, what: str) -> int:
    if number is None:
        return 0
    # Digits beyond the limit's own length are over it: no int() of a huge digit string.
    cap = limits.STRING_CHARS.value
    if len(number) > len(str(cap)) or int(number) > cap:
        limits.STRING_CHARS.check(cap + 1, f"the {what} in a format spec")
    return int(number)


def check_spec(spec: str) -> re.Match[str]:
    m = _SPEC.fullmatch(spec)
    if m is None:
        raise GradcliError(f"Invalid format specifier '{spec}'").mirror("ValueError")
    _bounded(m.group("width"), "width")
    _bounded(m.group("precision"), "precision")
    return m


# strftime's codes with a width (`%10Y`, `%-010d`: glibc's extensions), which can ask the C
# library for text of any length: refused (Python's own codes and flags without a width run).
_WIDTH = LazyPattern(r"%[-_0^#]*[1-9]")


def strftime(v: Any, fmt: Any) -> str:
    """`d.strftime(fmt)` of one of Python's dates (`pydatetime`), and its f-string format."""
    if not isinstance(fmt, str):
        raise GradcliError(f"strftime() argument 1 must be str, not {typename(fmt)}").mirror(
            "TypeError"
        )
    if _WIDTH.search(fmt.replace("%%", "")):
        raise NotSupported(
            "strftime() codes with a width (such as %10Y) are not supported by gradcli",
            hint="pad the text yourself: f'{d.year:>10}' or str.rjust",
        )
    limits.STRING_CHARS.check(len(fmt) * 32, "the length of the string (at most)")
    try:
        return v.strftime(fmt)
    except (ValueError, UnicodeEncodeError) as e:
        raise GradcliError(str(e)).mirror("ValueError") from None


def format_value(v: Any, spec: str) -> str:
    """`format(v, spec)`: what an f-string field or a str.format field shows."""
    if isinstance(v, Tensor):
        # PyTorch formats a 0-d tensor as its number (`f"{loss}"` shows 0.25), any other
        # tensor as str() with an empty spec; a Parameter (not a plain Tensor) always as an
        # object: its text, or the TypeError with a spec.
        shown = getattr(type(v), "FORMATS_AS_OBJECT", None)
        if shown is not None:
            if spec:
                raise GradcliError(
                    f"unsupported format string passed to {shown}.__format__"
                ).mirror("TypeError")
            return to_str(v, limits.STRING_CHARS.value)
        if v.ndim == 0:
            v = v.item()
        elif not spec:
            return to_str(v, limits.STRING_CHARS.value)
        else:
            raise GradcliError("unsupported format string passed to Tensor.__format__").mirror(
                "TypeError"
            )
    if isinstance(v, np.ndarray) and (spec or not v.ndim):
        # NumPy formats a 0-d array as its element, whatever the spec (`f"{np.array(3.1):.2f}"`;
        # `f"{t.numpy()}"` of a 0-d float32 tensor shows the float's repr, 0.10000000149011612)
        if v.ndim:
            raise GradcliError(
                "unsupported format string passed to numpy.ndarray.__format__"
            ).mirror("TypeError")
        v = v[()]
    if isinstance(v, np.generic):
        v = v.item()
    if not spec:
        return to_str(v, limits.STRING_CHARS.value)
    if type(v).__module__ == "datetime":  # `f"{now:%Y-%m-%d}"`: a date's format is strftime
        if not hasattr(v, "strftime"):
            raise GradcliError(
                f"unsupported format string passed to {typename(v)}.__format__"
            ).mirror("TypeError")
        return strftime(v, spec)
    m = check_spec(spec)
    kind = m.group("type")
    if isinstance(v, bool) or isinstance(v, (int, float)):
        if isinstance(v, float) and kind in _INT_TYPES:
            raise GradcliError(f"Unknown format code '{kind}' for object of type 'float'").mirror(
                "ValueError"
            )
        if kind == "s":
            raise GradcliError(
                f"Unknown format code 's' for object of type '{typename(v)}'"
            ).mirror("ValueError")
        text = format(v, spec)
    elif isinstance(v, complex):
        # Python's complex format (e, f, g and none; its own errors for %, 0-padding, '=')
        try:
            text = format(v, spec)
        except ValueError as e:
            raise GradcliError(str(e)).mirror("ValueError") from None
    elif isinstance(v, str):
        if kind not in (None, "s"):
            raise GradcliError(f"Unknown format code '{kind}' for object of type 'str'").mirror(
                "ValueError"
            )
        text = format(v, spec)
    else:
        raise GradcliError(f"unsupported format string passed to {typename(v)}.__format__").mirror(
            "TypeError"
        )
    limits.STRING_CHARS.check(len(text), "the length of the string")
    return text


def convert(v: Any, conversion: int | str) -> Any:
    """The `!s` / `!r` conversion of a field (`!a` is refused)."""
    c = chr(conversion) if isinstance(conversion, int) else conversion
    if c in ("", "\x00") or conversion == -1:
        return v
    if c == "s":
        return to_str(v, limits.STRING_CHARS.value)
    if c == "r":
        return to_repr(v, limits.STRING_CHARS.value)
    raise NotSupported(
        f"the `!{c}` conversion is not supported in gradcli programs", hint="use !r or !s"
    )


def field(v: Any, conversion: int, spec: str) -> str:
    if conversion != -1:
        v = convert(v, conversion)
    return format_value(v, spec)


def join(parts: list[str]) -> str:
    total = 0
    for p in parts:
        total += len(p)
    limits.STRING_CHARS.check(total, "the length of the string")
    return "".join(parts)


def str_format(template: str, args: tuple, kwargs: dict) -> str:
    """`template.format(*args, **kwargs)`: fields are positions (`{}`, `{0}`) or keyword names,
    with a conversion and a format spec, never an attribute or item lookup."""
    from _string import formatter_parser  # the parser str.format itself uses: parsing only

    parts: list[str] = []
    total = 0
    auto = 0
    mode = None
    try:
        parsed = list(formatter_parser(template))
    except ValueError as e:
        raise GradcliError(str(e)).mirror("ValueError") from None

    def lookup(name: str) -> Any:
        """The argument a field names: `{}` the next position, `{0}` a position, `{x}` a
        keyword; never an attribute or an item of it."""
        nonlocal auto, mode
        if "." in name or "[" in name:
            raise NotSupported(
                f"`{{{name}}}`: attribute and item lookups in format strings are not supported",
                hint="pass the value itself: '{}'.format(x.attr) or an f-string",
            )
        if name == "":
            if mode == "manual":
                raise GradcliError(
                    "cannot switch from manual field specification to automatic field numbering"
                ).mirror("ValueError")
            mode = "auto"
            index: Any = auto
            auto += 1
        elif name.isdigit():
            if mode == "auto":
                raise GradcliError(
                    "cannot switch from automatic field numbering to manual field specification"
                ).mirror("ValueError")
            mode = "manual"
            index = _bounded(name, "field number")
        else:
            index = name
        if isinstance(index, int):
            if index >= len(args):
                raise GradcliError(
                    f"Replacement index {index} out of range for positional args tuple"
                ).mirror("IndexError")
            return args[index]
        if index not in kwargs:
            from .exceptions import CLASSES, ProgramError

            raise ProgramError(CLASSES["KeyError"](index))
        return kwargs[index]

    for literal, name, spec, conversion in parsed:
        parts.append(literal)
        total += len(literal)
        if name is None:
            continue
        value = lookup(name)
        if spec and "{" in spec:
            # `'{:>{width}.{prec}f}'.format(x, width=8, prec=3)`: each nested field is an
            # argument's text (as CPython, numbered after the field it sits in).
            pieces = []
            for lit, inner, inner_spec, inner_conv in formatter_parser(spec):
                pieces.append(lit)
                if inner is None:
                    continue
                if inner_spec or inner_conv:
                    raise NotSupported(
                        "a conversion or spec inside a nested format field is not supported",
                        hint="use an f-string: f'{x:{width}}'",
                    )
                pieces.append(format_value(lookup(inner), ""))
            spec = "".join(pieces)
            limits.STRING_CHARS.check(len(spec), "the length of the format spec")
        if conversion:
            value = convert(value, conversion)
        text = format_value(value, spec or "")
        total += len(text)
        limits.STRING_CHARS.check(total, "the length of the string")
        parts.append(text)
    return "".join(parts)


_PERCENT = LazyPattern(
    r"%(?P<key>\([^)]*\))?(?P<flags>[-+ #0]*)(?P<width>\*|\d+)?(?:\.(?P<precision>\*|\d+))?"
    r"(?P<length>[hlL])?(?P<type>.?)",
    re.DOTALL,
)


def percent_format(template: str, values: Any) -> str:
    """`template % values` (printf-style): `%s %r %d %i %f %e %g %x %o %c %%` with flags, width
    and precision (`*` ones from the arguments), `%(name)s` items of a dict; not `%a`."""
    # A dict is one value (`'%r' % {'lr': 0.1}`), as Python's when no field names a key.
    items = list(values) if isinstance(values, tuple) else [values]
    parts: list[str] = []
    total = 0
    used = 0
    pos = 0
    for m in _PERCENT.finditer(template):
        literal = template[pos : m.start()]
        parts.append(literal)
        total += len(literal)
        pos = m.end()
        kind = m.group("type")
        if kind == "%" and not (m.group("key") or m.group("flags") or m.group("width")):
            parts.append("%")
            total += 1
            continue
        key = m.group("key")
        if key is not None and type(values) is not dict:
            if isinstance(values, dict):  # a defaultdict: its factory would run here
                raise NotSupported(
                    "`%(name)s` fields with a defaultdict are not supported",
                    hint="pass a plain dict or use an f-string",
                )
            raise GradcliError("format requires a mapping").mirror("TypeError")
        flags = m.group("flags")
        width = m.group("width")
        precision = m.group("precision")
        if width == "*" or precision == "*":
            # `'%*.*f' % (10, 3, x)`: the width and precision are the next arguments (ints
            # only, as CPython: a negative width left-justifies, a negative precision is 0).
            if key is not None:  # CPython's `*` takes the looked-up item, the value none
                raise GradcliError("not enough arguments for format string").mirror("TypeError")
            if width == "*":
                w = _star_argument(items, used)
                used += 1
                if w < 0:
                    flags += "-"
                width = str(abs(w))
            if precision == "*":
                p = _star_argument(items, used)
                used += 1
                precision = str(max(p, 0))
        if kind == "a":
            # `%r` is the value's repr(), the one `f'{x!r}'` shows; `%a` is refused as `!a` is.
            raise NotSupported("`%a` formatting is not supported", hint="use %r or %s")
        if kind == "":
            raise GradcliError("incomplete format").mirror("ValueError")
        if kind not in "sdiufFeEgGxXocr":
            raise GradcliError(
                f"unsupported format character '{kind}' (0x{ord(kind):x}) at index {m.start()}"
            ).mirror("ValueError")
        _bounded(width, "width")
        _bounded(precision, "precision")
        if key is not None:  # `'%(loss).4f' % {'loss': 0.5}`: the dict's item, no more
            name = key[1:-1]
            if name not in values:
                from .exceptions import CLASSES, ProgramError

                raise ProgramError(CLASSES["KeyError"](name))
            v = values[name]
            used = len(items)  # as CPython's: a later `%s` finds no argument left
        else:
            if used >= len(items):
                raise GradcliError("not enough arguments for format string").mirror("TypeError")
            v = items[used]
            used += 1
        spec = "%" + flags + (width or "")
        if precision is not None:
            spec += "." + precision
        text = _percent_one(spec, kind, v)
        total += len(text)
        limits.STRING_CHARS.check(total, "the length of the string")
        parts.append(text)
    parts.append(template[pos:])
    if used < len(items) and not isinstance(values, dict):
        raise GradcliError("not all arguments converted during string formatting").mirror(
            "TypeError"
        )
    return join(parts)


def _star_argument(items: list, used: int) -> int:
    """The argument a `*` width or precision takes: an int (a bool is one), as CPython."""
    if used >= len(items):
        raise GradcliError("not enough arguments for format string").mirror("TypeError")
    v = items[used]
    if type(v) not in (int, bool):
        raise GradcliError("* wants int").mirror("TypeError")
    cap = limits.STRING_CHARS.value
    if abs(v) > cap:  # bounded before any text of it is made (10**10000 has no str())
        limits.STRING_CHARS.check(cap + 1, "the `*` width or precision in a format spec")
    return int(v)


def _percent_one(spec: str, kind: str, v: Any) -> str:
    if kind == "s":
        return (spec + "s") % (to_str(v, limits.STRING_CHARS.value),)
    if kind == "r":
        return (spec + "s") % (to_repr(v, limits.STRING_CHARS.value),)
    # (Python's %x names the object it was given: Tensor, numpy.ndarray)
    given = "numpy.ndarray" if isinstance(v, np.ndarray) else typename(v)
    if isinstance(v, Tensor):
        if v.data.size != 1:
            raise GradcliError(
                "only one element tensors can be converted to Python scalars"
            ).mirror("ValueError")
        if kind in "fFeEgG" and v.requires_grad:  # Python calls the tensor's __float__
            hooks.warn(SCALAR_WARNING, None, once="scalar conversion")
        v = v.item()
    if isinstance(v, np.ndarray) and v.ndim == 0 and v.dtype.kind in "biuf":
        v = v[()]  # `'%.4f' % loss.data.numpy()`: a 0-d array is its number
    if isinstance(v, np.generic):
        v = v.item()
    if kind == "c":
        if isinstance(v, str) and len(v) == 1:
            return (spec + "c") % (v,)
        if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 0x110000:
            return (spec + "c") % (v,)
        raise GradcliError("%c requires an int or a unicode character").mirror("TypeError")
    if not isinstance(v, (int, float)):  # (a bool is an int to %: "%d" % True is 1)
        what = "a real number" if kind in "fFeEgG" else "a number"
        raise GradcliError(f"%{kind} format: {what} is required, not {typename(v)}").mirror(
            "TypeError"
        )
    if kind in "xXo" and isinstance(v, float):
        raise GradcliError(f"%{kind} format: an integer is required, not {given}").mirror(
            "TypeError"
        )
    return (spec + kind) % (v,)
