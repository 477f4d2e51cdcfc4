"""`Record`: the cheap data class of gradcli's start-up path."""

from __future__ import annotations

from typing import Any


class LazyPattern:
    """A regular expression compiled when it is first used, not when its module is imported
    (a compile costs start-up time; most of gradcli's patterns serve an error path or one
    feature). Used as the compiled pattern: `P.sub(...)`, `P.fullmatch(...)`."""

    __slots__ = ("_pattern", "_flags", "_compiled")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._pattern, self._flags, self._compiled = pattern, flags, None

    def __getattr__(self, name: str) -> Any:
        compiled = self._compiled
        if compiled is None:
            import re

            compiled = self._compiled = re.compile(self._pattern, self._flags)
        return getattr(compiled, name)


class Record:
    """A small data class declared by `_fields` (and `_defaults`: a `list`/`dict` type there
    means a new empty one). Defining a @dataclass generates and execs its methods, about half
    a millisecond each at import; the start-up path of `gradcli backward` has a dozen such
    classes, so they are plain records instead."""

    _fields: tuple[str, ...] = ()
    _defaults: dict[str, Any] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Written into the instance's dict directly (no field is a property or a slot: a
        # test checks), a thousand records are made at import: op records, their samples,
        # the declared names.
        fields = self._fields
        n = len(args)
        if n > len(fields):
            raise TypeError(f"{type(self).__name__}() takes {len(fields)} arguments")
        d = self.__dict__
        d.update(zip(fields, args))
        if n < len(fields):
            defaults = self._defaults
            for name in fields[n:]:
                if name in kwargs:
                    d[name] = kwargs.pop(name)
                elif name in defaults:
                    v = defaults[name]
                    d[name] = v() if v is list or v is dict else v
                else:
                    raise TypeError(f"{type(self).__name__}() missing argument {name!r}")
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


class FrozenRecord(Record):
    """A `Record` whose fields cannot be assigned after it is made (as a frozen dataclass)."""

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")
