"""The `warnings` module as programs use it: `filterwarnings` / `simplefilter` /
`resetwarnings` (a notebook's `warnings.filterwarnings("ignore")`, a test's "error"),
`catch_warnings()` scoping them, and `warn`.

The filters are the run's (`Runtime.warning_filters`, newest first, as Python's list) and
apply to the warnings PyTorch gives (mirrored by the kernels: category UserWarning, module
"torch") and to the program's own `warnings.warn` (module "__main__"); gradcli's own notes
(NaN in a result, an unseeded program) are not Python warnings and are always written.
Actions: "ignore" drops the warning, "error" raises it as an exception of its category (a
program's `except UserWarning` catches it), the others show it (once for each place, as
Python's default).

A filter's message and module are regular expressions in Python, matched at the start of the
text, case-insensitively for the message. Programs write literal text and `.*` there; so
gradcli takes literal text with `.`, `.*` and `\\.`, matched without the `re` engine (a pattern
cannot hang a run), and refuses other regular-expression syntax in plain words.
"""

from __future__ import annotations

import fnmatch
from typing import Any

from ..base.errors import GradcliError, NotSupported
from .exceptions import ExcClass

ACTIONS = ("default", "error", "ignore", "always", "all", "module", "once")
_REGEX_SYNTAX = set("[](){}+?|^$\\")


def _glob(pattern: str, what: str) -> str:
    """A filter's regular expression as an fnmatch pattern matching at the start."""
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith(".*", i):
            out.append("*")
            i += 2
            continue
        if pattern.startswith("\\.", i):
            out.append("[.]")
            i += 2
            continue
        if c == ".":
            out.append("?")
        elif c in _REGEX_SYNTAX:
            raise NotSupported(
                f"warnings filter {what}={pattern!r}: regular-expression syntax other than "
                "`.`, `.*` and `\\.` is not supported",
                hint="write the start of the text literally (it matches at the start), with .* "
                "for any text",
            )
        elif c in "*?":
            out.append(f"[{c}]")
        else:
            out.append(c)
        i += 1
    return "".join(out) + "*"


def warning_category(category: Any, fn: str) -> str:
    if isinstance(category, ExcClass) and category.is_subclass_of(ExcClass("Warning")):
        return category.name
    raise GradcliError(
        f"{fn}(): category must be a Warning subclass, not {_shown(category)}",
        hint="UserWarning, DeprecationWarning, FutureWarning, RuntimeWarning or Warning",
    ).mirror("TypeError")


def _shown(v: Any) -> str:
    from ..core.tensor import typename

    return repr(v) if isinstance(v, ExcClass) else typename(v)


def _action(action: Any) -> str:
    if action not in ACTIONS:
        raise GradcliError(f"invalid action: {action!r}").mirror("ValueError")
    return "always" if action == "all" else action


def _filters() -> list:
    from .values import current

    rt = current()
    rt.filters_changed()  # (asked for to change them: Python then forgets what it showed)
    return rt.warning_filters


def _text(v: Any, name: str, fn: str) -> str:
    if not isinstance(v, str):
        raise GradcliError(f"{fn}(): {name} must be a str, not {_shown(v)}").mirror("TypeError")
    return v


def _add(entry: tuple, append: Any) -> None:
    filters = _filters()
    if entry in filters:
        filters.remove(entry)
    if append:
        filters.append(entry)
    else:
        filters.insert(0, entry)
    del filters[256:]  # (a loop adding filters: the oldest are dropped, none could match first)


def filterwarnings(
    action: Any,
    message: Any = "",
    category: Any = None,
    module: Any = "",
    lineno: Any = 0,
    append: Any = False,
) -> None:
    act = _action(action)
    msg = _glob(_text(message, "message", "filterwarnings").lower(), "message")
    mod = _glob(_text(module, "module", "filterwarnings"), "module")
    cat = "Warning" if category is None else warning_category(category, "filterwarnings")
    _add((act, msg, cat, mod), append)


def simplefilter(action: Any, category: Any = None, lineno: Any = 0, append: Any = False) -> None:
    act = _action(action)
    cat = "Warning" if category is None else warning_category(category, "simplefilter")
    _add((act, "*", cat, "*"), append)


def resetwarnings() -> None:
    _filters().clear()


def action_for(message: str, category: str, module: str, filters: list) -> str:
    """The first matching filter's action, else Python's default for the category."""
    low = message.lower()
    for act, msg, cat, mod in filters:
        if ExcClass(category).is_subclass_of(ExcClass(cat)) and fnmatch.fnmatchcase(low, msg):
            if fnmatch.fnmatchcase(module, mod):
                return act
    if category in ("DeprecationWarning", "PendingDeprecationWarning") and module != "__main__":
        return "ignore"
    return "default"


def _class(name: str) -> ExcClass:
    from .exceptions import CLASSES

    return CLASSES.get(name) or ExcClass(name)


class WarningMessage:
    """One warning a `catch_warnings(record=True)` collected: `.message` (the warning, an
    instance of its category: `str(w.message)` is its text), `.category`, `.filename`,
    `.lineno` (the program's line that warned), `.line`, `.file`, `.source` (None)."""

    __slots__ = ("text", "category", "filename", "lineno")

    def __init__(self, text: str, category: str, filename: str, lineno: int):
        self.text, self.category, self.filename, self.lineno = text, category, filename, lineno

    def program_attribute(self, name: str) -> Any:
        if name == "message":
            return _class(self.category)(self.text)
        if name == "category":
            return _class(self.category)
        if name in ("filename", "lineno"):
            return getattr(self, name)
        if name in ("line", "file", "source"):
            return None
        raise GradcliError(f"'WarningMessage' object has no attribute '{name}'").mirror(
            "AttributeError"
        )

    def program_typename(self) -> str:
        return "WarningMessage"

    def program_str(self) -> str:  # `print(w[0])`, `str(w[0])`: Python's __str__
        return (
            f"{{message : {self.category}({self.text!r}), category : {self.category!r}, "
            f"filename : {self.filename!r}, lineno : {self.lineno}, line : None}}"
        )

    def __repr__(self) -> str:  # (in a list: Python's object repr, its address differs)
        return f"<warnings.WarningMessage object at {id(self):#x}>"


class CatchWarnings:
    """`with warnings.catch_warnings():` the filters set inside are undone at its end; with
    `record=True` the warnings shown inside are collected in the list it gives (`as w`)
    instead of written to stderr."""

    def __init__(self, record: Any = False, action: Any = None, category: Any = None) -> None:
        self.record = bool(record)
        self.action = None if action is None else _action(action)
        self.category = category
        self.saved: list | None = None
        self.saved_record: list | None = None
        self.as_value: list | None = None

    def enter(self) -> None:
        from .values import current

        filters = _filters()
        self.saved = list(filters)
        if self.record:
            rt = current()
            self.saved_record = rt.warning_record
            self.as_value = rt.warning_record = []
        if self.action is not None:
            simplefilter(self.action, self.category)

    def exit(self) -> None:
        from .values import current

        filters = _filters()
        filters[:] = self.saved or []
        if self.record:
            current().warning_record = self.saved_record


def catch_warnings(record: Any = False, *, action: Any = None, category: Any = None) -> Any:
    return CatchWarnings(record, action, category)
