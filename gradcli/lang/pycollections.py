"""`collections.deque` and `collections.namedtuple` / `typing.NamedTuple` as a program uses them.

A deque is Python's own (`Deque`, a subclass that only marks it), its methods a fixed table
checked against the limits before anything grows. A named tuple class is a table
(`NamedTupleClass`: its name, fields and defaults), never a Python class made from program
text; its instances are tuples (`Record`) that know their class, so that indexing, unpacking,
`len`, comparison and hashing are a tuple's, and `p.x`, `_replace`, `_asdict`, `_fields` and
the repr `P(x=1, y=2)` are answered here.
"""

from __future__ import annotations

import collections
import keyword
from collections.abc import Callable
from typing import Any

from ..base import limits
from ..base.errors import GradcliError
from ..core.tensor import typename
from .values import BoundMethod, as_index, seq

# --- deque ------------------------------------------------------------------------------------


class Deque(collections.deque):
    """A program's `collections.deque` (Python's, marked as the program's value)."""

    __slots__ = ()

    def program_typename(self) -> str:
        return "collections.deque"

    def program_getitem(self, key: Any) -> Any:
        return self[deque_index(self, key)]

    def program_setitem(self, key: Any, value: Any) -> None:
        self[deque_index(self, key)] = value

    def program_delitem(self, key: Any) -> None:
        del self[deque_index(self, key)]

    def program_repr(self, item: Callable[[Any], str]) -> str:
        return deque_repr(self, item)


def make_deque(iterable: Any = (), maxlen: Any = None) -> Deque:
    """`deque(iterable=(), maxlen=None)`."""
    if maxlen is not None:
        if isinstance(maxlen, bool) or not isinstance(maxlen, int):
            raise GradcliError(
                f"'{typename(maxlen)}' object cannot be interpreted as an integer"
            ).mirror("TypeError")
        if maxlen < 0:
            raise GradcliError("maxlen must be non-negative").mirror("ValueError")
    items = seq(iterable, "deque()")
    if maxlen is not None and len(items) > maxlen:
        items = items[len(items) - maxlen :] if maxlen else []
    return Deque(items, maxlen)


def _grow(q: Deque, n: int) -> None:
    total = len(q) + n
    if q.maxlen is not None:
        total = min(total, q.maxlen)
    if total > limits.LIST_ITEMS.value:
        limits.LIST_ITEMS.check(total, "the length of the deque")


def _append(q: Deque, v: Any) -> None:
    _grow(q, 1)
    q.append(v)


def _appendleft(q: Deque, v: Any) -> None:
    _grow(q, 1)
    q.appendleft(v)


def _extend(q: Deque, items: Any) -> None:
    new = seq(items, "deque.extend()")
    _grow(q, len(new))
    q.extend(new)


def _extendleft(q: Deque, items: Any) -> None:
    new = seq(items, "deque.extendleft()")
    _grow(q, len(new))
    q.extendleft(new)


def _pop(q: Deque) -> Any:
    if not q:
        raise GradcliError("pop from an empty deque").mirror("IndexError")
    return q.pop()


def _popleft(q: Deque) -> Any:
    if not q:
        raise GradcliError("pop from an empty deque").mirror("IndexError")
    return q.popleft()


def _int_arg(v: Any) -> int:
    v = as_index(v)  # (its __index__, as Python takes it)
    if isinstance(v, bool) or not isinstance(v, int):
        raise GradcliError(f"'{typename(v)}' object cannot be interpreted as an integer").mirror(
            "TypeError"
        )
    return v


def _rotate(q: Deque, n: Any = 1) -> None:
    n = _int_arg(n)
    if q:
        q.rotate(n % len(q) if abs(n) > len(q) else n)


def _insert(q: Deque, i: Any, v: Any) -> None:
    i = _int_arg(i)
    if q.maxlen is not None and len(q) >= q.maxlen:
        raise GradcliError("deque already at its maximum size").mirror("IndexError")
    _grow(q, 1)
    q.insert(i, v)


def _remove(q: Deque, v: Any) -> None:
    from .operators import equal

    for i, item in enumerate(q):
        if item is v or equal(item, v):
            del q[i]
            return
    raise GradcliError(f"{_repr(v)} is not in deque").mirror("ValueError")


def _count(q: Deque, v: Any) -> int:
    from .operators import equal

    return sum(1 for item in q if item is v or equal(item, v))


def _index(q: Deque, v: Any) -> int:
    from .operators import equal

    for i, item in enumerate(q):
        if item is v or equal(item, v):
            return i
    raise GradcliError(f"{_repr(v)} is not in deque").mirror("ValueError")


def _copy(q: Deque) -> Deque:
    return Deque(q, q.maxlen)


def _repr(v: Any) -> str:
    # (the value in ValueError's words: Python's repr of a number or a string)
    return repr(v) if isinstance(v, (int, float, str)) or v is None else f"<{typename(v)}>"


DEQUE: dict[str, Callable[..., Any]] = {
    "append": _append,
    "appendleft": _appendleft,
    "extend": _extend,
    "extendleft": _extendleft,
    "pop": _pop,
    "popleft": _popleft,
    "rotate": _rotate,
    "insert": _insert,
    "remove": _remove,
    "count": _count,
    "index": _index,
    "clear": lambda q: q.clear(),
    "reverse": lambda q: q.reverse(),
    "copy": _copy,
}


_DEQUE_MUTATORS = frozenset(DEQUE) - {"count", "index", "copy"}


def deque_attribute(q: Deque, attr: str) -> Any:
    if attr == "maxlen":
        return q.maxlen
    fn = DEQUE.get(attr)
    if fn is None:
        raise GradcliError(f"'collections.deque' object has no attribute '{attr}'").mirror(
            "AttributeError"
        )
    if attr in _DEQUE_MUTATORS:  # (checked when called: a vmapped function's change)
        from .pyobjects import checked_mutator

        fn = checked_mutator(Deque, attr, fn)
    return BoundMethod(attr, fn, q, raw=True)


def deque_index(q: Deque, key: Any) -> int:
    """`q[i]`: an int (a deque takes no slices), in range."""
    key = as_index(key)  # (its __index__, as Python takes it)
    if not isinstance(key, int):
        raise GradcliError(f"sequence index must be integer, not '{typename(key)}'").mirror(
            "TypeError"
        )
    if not -len(q) <= key < len(q):
        raise GradcliError("deque index out of range").mirror("IndexError")
    return int(key)


def deque_repr(q: Deque, item: Callable[[Any], str]) -> str:
    inner = "[" + ", ".join(item(x) for x in q) + "]"
    if q.maxlen is None:
        return f"deque({inner})"
    return f"deque({inner}, maxlen={q.maxlen})"


def guarded(items: Any) -> Any:
    """Iterating a dict, set or deque that the loop's body changes: Python's RuntimeError
    (`dictionary changed size during iteration`), as the program's error."""
    try:
        yield from items
    except RuntimeError as e:
        raise GradcliError(str(e)).mirror("RuntimeError") from None


# --- named tuples -----------------------------------------------------------------------------


class NamedTupleClass:
    """`P = namedtuple('P', ['x', 'y'])` or `class P(NamedTuple): x: int; y: int = 0`."""

    __slots__ = ("name", "fields", "defaults")

    def __init__(self, name: str, fields: tuple[str, ...], defaults: dict[str, Any]):
        self.name = name
        self.fields = fields
        self.defaults = defaults

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Record:
        return self.make(args, kwargs)

    def __call__(self, *args: Any, **kwargs: Any) -> Record:  # (map(P, ...) and its kin)
        return self.make(args, kwargs)

    def make(self, args: list | tuple, kwargs: dict) -> Record:
        fields = self.fields
        if len(args) > len(fields):
            raise GradcliError(
                f"{self.name}.__new__() takes {len(fields) + 1} positional arguments but "
                f"{len(args) + 1} were given"
            ).mirror("TypeError")
        values = dict(zip(fields, args, strict=False))
        for k, v in kwargs.items():
            if k not in fields:
                raise GradcliError(
                    f"{self.name}.__new__() got an unexpected keyword argument '{k}'"
                ).mirror("TypeError")
            if k in values:
                raise GradcliError(
                    f"{self.name}.__new__() got multiple values for argument '{k}'"
                ).mirror("TypeError")
            values[k] = v
        missing = [f for f in fields if f not in values and f not in self.defaults]
        if missing:
            names = [f"'{m}'" for m in missing]
            listed = (
                names[0]
                if len(names) == 1
                else ", ".join(names[:-1]) + (" and " if len(names) == 2 else ", and ") + names[-1]
            )
            s = "s" if len(missing) > 1 else ""
            raise GradcliError(
                f"{self.name}.__new__() missing {len(missing)} required positional "
                f"argument{s}: {listed}"
            ).mirror("TypeError")
        return Record(self, tuple(values.get(f, self.defaults.get(f)) for f in fields))

    def get(self, rt: Any, attr: str) -> Any:
        if attr == "_fields":
            return self.fields
        if attr == "_field_defaults":
            return dict(self.defaults)
        if attr == "__name__":
            return self.name
        if attr == "_make":
            return BoundMethod("_make", lambda c, it: c.make(seq(it, "_make()"), {}), self, True)
        if attr in self.fields:
            return _FieldGetter(self.name, attr, self.fields.index(attr))
        raise GradcliError(f"type object '{self.name}' has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def __repr__(self) -> str:
        return f"<class '__main__.{self.name}'>"


class _FieldGetter:
    __slots__ = ("owner", "name", "index")

    def __init__(self, owner: str, name: str, index: int):
        self.owner, self.name, self.index = owner, name, index

    def __repr__(self) -> str:
        return f"_tuplegetter({self.index}, 'Alias for field number {self.index}')"


class Record(tuple):
    """An instance of a named tuple class: a tuple that knows its class."""

    def __new__(cls, owner: NamedTupleClass, values: tuple) -> Record:
        r = super().__new__(cls, values)
        r.cls = owner
        return r

    def program_typename(self) -> str:
        return self.cls.name

    def attribute(self, attr: str) -> Any:
        fields = self.cls.fields
        if attr in fields:
            return self[fields.index(attr)]
        if attr == "_fields":
            return fields
        if attr == "_field_defaults":
            return dict(self.cls.defaults)
        if attr == "_replace":
            return BoundMethod("_replace", _replace, self, raw=True)
        if attr == "_asdict":
            return BoundMethod("_asdict", lambda r: dict(zip(r.cls.fields, r)), self, raw=True)
        if attr in ("count", "index"):
            from .pyobjects import TUPLE

            return BoundMethod(attr, TUPLE[attr], self, raw=True)
        raise GradcliError(f"'{self.cls.name}' object has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def program_repr(self, item: Callable[[Any], str]) -> str:
        inner = ", ".join(f"{f}={item(v)}" for f, v in zip(self.cls.fields, self, strict=True))
        return f"{self.cls.name}({inner})"


def _replace(r: Record, **kwargs: Any) -> Record:
    for k in kwargs:
        if k not in r.cls.fields:
            raise GradcliError(f"Got unexpected field names: {[k]!r}").mirror("ValueError")
    values = dict(zip(r.cls.fields, r, strict=True))
    values.update(kwargs)
    return Record(r.cls, tuple(values[f] for f in r.cls.fields))


def namedtuple(
    typename_: Any,
    field_names: Any,
    *,
    rename: Any = False,
    defaults: Any = None,
    module: Any = None,
) -> NamedTupleClass:
    """`collections.namedtuple(typename, field_names, *, rename=False, defaults=None)`."""
    if isinstance(field_names, str):
        names = field_names.replace(",", " ").split()
    else:
        names = [n for n in seq(field_names, "namedtuple()")]
    limits.LIST_ITEMS.check(len(names), "the number of fields of the named tuple")
    if not isinstance(typename_, str):
        raise GradcliError("Type names and field names must be strings").mirror("TypeError")
    seen: set[str] = set()
    for i, n in enumerate(names):
        if not isinstance(n, str):
            raise GradcliError("Type names and field names must be strings").mirror("TypeError")
        bad = not n.isidentifier() or keyword.iskeyword(n) or n.startswith("_") or n in seen
        if rename and bad:
            names[i] = n = f"_{i}"
        seen.add(n)
    for n in [typename_, *names]:
        if not n.isidentifier():
            raise GradcliError(
                f"Type names and field names must be valid identifiers: {n!r}"
            ).mirror("ValueError")
        if keyword.iskeyword(n):
            raise GradcliError(f"Type names and field names cannot be a keyword: {n!r}").mirror(
                "ValueError"
            )
    seen = set()
    for n in names:
        if n.startswith("_") and not rename:
            raise GradcliError(f"Field names cannot start with an underscore: {n!r}").mirror(
                "ValueError"
            )
        if n in seen:
            raise GradcliError(f"Encountered duplicate field name: {n!r}").mirror("ValueError")
        seen.add(n)
    given = [] if defaults is None else seq(defaults, "namedtuple()")
    if len(given) > len(names):
        raise GradcliError("Got more default values than field names").mirror("TypeError")
    default_map = dict(zip(names[len(names) - len(given) :], given, strict=True))
    return NamedTupleClass(typename_, tuple(names), default_map)
