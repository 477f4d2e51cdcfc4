"""`Record`: the cheap data class of gradcli's start-up path."""

from __future__ import annotations

from typing import Any


class Record:
    """A small data class declared by `_fields` (and `_defaults`: a `list`/`dict` type there
    means a new empty one). Defining a @dataclass generates and execs its methods, about half
    a millisecond each at import; the start-up path of `gradcli backward` has a dozen such
    classes, so they are plain records instead."""

    _fields: tuple[str, ...] = ()
    _defaults: dict[str, Any] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        fields = self._fields
        if len(args) > len(fields):
            raise TypeError(f"{type(self).__name__}() takes {len(fields)} arguments")
        for name, value in zip(fields, args):
            setattr(self, name, value)
        for name in fields[len(args) :]:
            if name in kwargs:
                value = kwargs.pop(name)
            elif name in self._defaults:
                d = self._defaults[name]
                value = d() if d in (list, dict) else d
            else:
                raise TypeError(f"{type(self).__name__}() missing argument {name!r}")
            setattr(self, name, value)
        if kwargs:
            raise TypeError(f"{type(self).__name__}() got unexpected {sorted(kwargs)}")
        post = getattr(self, "__post_init__", None)
        if post is not None:
            post()

    def replace(self, **changes: Any) -> Any:
        """A copy with some fields changed (as `dataclasses.replace`)."""
        return type(self)(**{f: changes.pop(f, getattr(self, f)) for f in self._fields}, **changes)

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{type(self).__name__}({inner})"

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and all(
            getattr(self, f) is getattr(other, f) or getattr(self, f) == getattr(other, f)
            for f in self._fields
        )

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, f) for f in self._fields))
