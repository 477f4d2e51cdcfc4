"""`pprint`: Python's pretty printer over the program's values (`pprint(d)`, `pprint.pformat`,
`pprint.pp`, `pprint.PrettyPrinter(indent=4).pprint(x)`).

Python's own `pprint.PrettyPrinter` lays the text out (its width, its breaks, its sorted dict
keys), with every value that is not one of Python's containers, numbers or strings shown by
the program's `repr` (a tensor's text is PyTorch's, a program class's its own `__repr__`). What
it walks is bounded first, as `print` bounds it (nesting, items, the length of the text)."""

from __future__ import annotations

from typing import Any

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from .values import Builtin, check_structure, current

# Python's own types, which Python's printer lays out and shows itself.
_PLAIN = (dict, list, tuple, set, frozenset, str, int, float, bool, type(None))
_MAX_INDENT = 1000


def _printer(indent: Any, width: Any, depth: Any, compact: Any, sort_dicts: Any) -> Any:
    import pprint

    from .text import to_repr

    for name, v, least in (("indent", indent, 0), ("width", width, 1)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise GradcliError(
                f"'{type(v).__name__}' object cannot be interpreted as an integer"
            ).mirror("TypeError")
        if v < least:
            words = "indent must be >= 0" if name == "indent" else "width must be != 0"
            raise GradcliError(words).mirror("ValueError")
    if indent > _MAX_INDENT:
        raise NotSupported(
            f"pprint with indent={indent} is not supported",
            expected=f"an indent of at most {_MAX_INDENT}",
        )
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int)):
        raise GradcliError("depth must be an integer or None").mirror("TypeError")
    if depth is not None and depth <= 0:
        raise GradcliError("depth must be > 0").mirror("ValueError")

    class Printer(pprint.PrettyPrinter):
        def format(self, obj: Any, context: dict, maxlevels: int, level: int) -> Any:
            limits.BUDGET.tick()
            if type(obj) in _PLAIN:
                return super().format(obj, context, maxlevels, level)
            return to_repr(obj), True, False

    return Printer(
        indent=indent, width=width, depth=depth, compact=bool(compact), sort_dicts=bool(sort_dicts)
    )


def _text(obj: Any, printer: Any) -> str:
    check_structure(obj, "pprint()", tensor_cost=100)
    try:
        text = printer.pformat(obj)
    except RecursionError:
        raise NotSupported("pprint of values nested this deep is not supported") from None
    limits.STRING_CHARS.check(len(text), "the length of the string")
    return text


def pformat(
    obj: Any,
    indent: Any = 1,
    width: Any = 80,
    depth: Any = None,
    *,
    compact: Any = False,
    sort_dicts: Any = True,
    underscore_numbers: Any = False,
) -> str:
    """`pprint.pformat(obj, ...)`: the text `pprint` prints."""
    if underscore_numbers:
        raise NotSupported("pprint's underscore_numbers=True is not supported")
    return _text(obj, _printer(indent, width, depth, compact, sort_dicts))


def _stream(stream: Any) -> None:
    if stream is not None:
        raise NotSupported(
            "pprint(stream=...) is not supported: a gradcli program prints only to standard output",
            hint="drop the stream= argument",
        )


def pprint_(
    obj: Any,
    stream: Any = None,
    indent: Any = 1,
    width: Any = 80,
    depth: Any = None,
    *,
    compact: Any = False,
    sort_dicts: Any = True,
    underscore_numbers: Any = False,
) -> None:
    """`pprint.pprint(obj, ...)`: the pretty text and a newline, on standard output."""
    _stream(stream)
    current().do_print(
        pformat(
            obj,
            indent,
            width,
            depth,
            compact=compact,
            sort_dicts=sort_dicts,
            underscore_numbers=underscore_numbers,
        )
    )


def pp(obj: Any, *args: Any, sort_dicts: Any = False, **kwargs: Any) -> None:
    """`pprint.pp(obj, ...)`: pprint with the dicts in their order."""
    pprint_(obj, *args, sort_dicts=sort_dicts, **kwargs)


class PrettyPrinter:
    """`pprint.PrettyPrinter(indent=4, width=80, ...)`: its `pprint(obj)` and `pformat(obj)`."""

    __slots__ = ("printer",)

    def __init__(
        self,
        indent: Any = 1,
        width: Any = 80,
        depth: Any = None,
        stream: Any = None,
        *,
        compact: Any = False,
        sort_dicts: Any = True,
        underscore_numbers: Any = False,
    ) -> None:
        _stream(stream)
        if underscore_numbers:
            raise NotSupported("pprint's underscore_numbers=True is not supported")
        self.printer = _printer(indent, width, depth, compact, sort_dicts)

    def program_attribute(self, name: str) -> Any:
        if name == "pprint":
            return Builtin(
                "PrettyPrinter.pprint", lambda obj: current().do_print(_text(obj, self.printer))
            )
        if name == "pformat":
            return Builtin("PrettyPrinter.pformat", lambda obj: _text(obj, self.printer))
        raise GradcliError(f"'PrettyPrinter' object has no attribute '{name}'").mirror(
            "AttributeError"
        )

    def program_typename(self) -> str:
        return "PrettyPrinter"

    def __repr__(self) -> str:
        return f"<pprint.PrettyPrinter object at {id(self):#x}>"


def members() -> dict[str, Any]:
    """The `pprint` module's names a program uses."""
    return {
        "pprint": Builtin("pprint.pprint", pprint_),
        "pformat": Builtin("pprint.pformat", pformat),
        "pp": Builtin("pprint.pp", pp),
        "PrettyPrinter": Builtin("pprint.PrettyPrinter", PrettyPrinter),
    }
