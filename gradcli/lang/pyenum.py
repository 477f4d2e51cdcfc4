"""Python's `enum`, the part scripts use for their settings: `class NoiseType(Enum)` whose
members are class attributes (`DIAGONAL = auto()`, `FIXED = 4`), read as `NoiseType.FIXED`,
compared with `is` / `==`, used as dict keys, iterated (`list(NoiseType)`), looked up by value
(`NoiseType(4)`) and printed as Python prints them (`NoiseType.FIXED`, `<NoiseType.FIXED: 4>`);
a member has its `name` and `value`.

An Enum class's body may also define methods, static and class methods and properties (a
member's `describe()`, `Color.from_name(...)`), run as the program's functions with the member
as `self`. `IntEnum` members are ints as Python's are (`Level.HIGH + 1`, `lst[Level.LOW]`,
`Level.HIGH == 2`), printed as Python 3.11 prints them (`str()` the number, `repr()`
`<Level.HIGH: 2>`). Dunder methods and the other kinds of enum (Flag, StrEnum...) are refused
where they are written. `auto()` numbers as
Python's Enum does (one more than the last value, 1 first). A member whose value repeats an
earlier one is an alias of it, as in Python.
"""

from __future__ import annotations

from typing import Any

from ..base.errors import GradcliError, NotSupported
from .text import to_repr
from .values import Builtin, UserFunction


class Auto:
    """What `auto()` gives in a class body: a value to number when the class is made."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<enum.auto object>"

    def program_typename(self) -> str:
        return "auto"


AUTO = Builtin("enum.auto", lambda: Auto())


class EnumBase:
    """`enum.Enum`: the base of `class Color(Enum)`."""

    __slots__ = ()

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        raise NotSupported(
            "Enum(...) called (the functional form) is not supported",
            hint="write a class: class Color(Enum):\n    RED = 1",
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__gradcli_call__(None, list(args), kwargs)

    def __repr__(self) -> str:
        return "<enum 'Enum'>"


ENUM_BASE = EnumBase()


class IntEnumBase(EnumBase):
    """`enum.IntEnum`: the base of `class Level(IntEnum)`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<enum 'IntEnum'>"


INT_ENUM_BASE = IntEnumBase()


class _Member:
    """What a member of a program's Enum class answers (EnumMember's and IntEnumMember's)."""

    __slots__ = ()
    cls: EnumClass
    name: str
    value: Any

    def get(self, attr: str) -> Any:
        if attr in ("name", "_name_"):
            return self.name
        if attr in ("value", "_value_"):
            return self.value
        member = self.cls.members.get(attr)
        if member is not None:  # (Python finds the other members through a member too)
            return member
        entry = self.cls.methods.get(attr)
        if entry is not None:  # a method or property of the class, with the member as self
            from .classes import class_value

            return class_value(entry, self, self.cls)
        raise GradcliError(f"'{self.cls.name}' object has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def knows(self, attr: str) -> bool:
        """Whether `attr` is the member's own (its name, value, class's members and methods)."""
        return (
            attr in ("name", "_name_", "value", "_value_")
            or attr in self.cls.members
            or attr in self.cls.methods
        )

    def program_str(self) -> str:
        if self.cls.int_kind:  # (Python 3.11: IntEnum's str() is int's)
            return str(int(self.value))
        return f"{self.cls.name}.{self.name}"

    def program_typename(self) -> str:
        return self.cls.name

    def __repr__(self) -> str:
        return f"<{self.cls.name}.{self.name}: {to_repr(self.value)}>"


class EnumMember(_Member):
    """One member of a program's Enum class."""

    __slots__ = ("cls", "name", "value")

    def __init__(self, cls: EnumClass, name: str, value: Any):
        self.cls, self.name, self.value = cls, name, value


class IntEnumMember(int, _Member):
    """One member of a program's IntEnum class: an int (arithmetic, indexing, comparisons and
    hashing as its value's) that knows its class and name."""

    cls: EnumClass
    name: str
    value: Any

    def __new__(cls, owner: EnumClass, name: str, value: int) -> IntEnumMember:
        m = int.__new__(cls, value)
        m.cls, m.name, m.value = owner, name, int(value)
        return m

    def __format__(self, spec: str) -> str:
        return format(int(self), spec)

    __repr__ = _Member.__repr__
    __str__ = _Member.program_str


MEMBER_TYPES = (EnumMember, IntEnumMember)


class EnumClass:
    """`class Color(Enum): RED = 1`: its members in order (aliases found by name only)."""

    __slots__ = ("name", "members", "order", "methods", "int_kind")

    def __init__(self, name: str, int_kind: bool = False):
        self.name = name
        self.members: dict[str, Any] = {}  # every name, aliases included
        self.order: list[Any] = []  # the members, each once, in definition order
        self.methods: dict[str, Any] = {}  # the body's methods, properties, class methods
        self.int_kind = int_kind  # an IntEnum

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> EnumMember:
        if len(args) != 1 or kwargs:
            raise NotSupported(
                f"{self.name}(...) is supported with one value: {self.name}(value)",
                hint=f"look a member up by its value: {self.name}(1)",
            )
        return self.by_value(args[0])

    def __call__(self, *args: Any, **kwargs: Any) -> EnumMember:
        return self.__gradcli_call__(None, list(args), kwargs)

    def by_value(self, value: Any) -> Any:
        if isinstance(value, MEMBER_TYPES) and value.cls is self:
            return value
        for m in self.order:
            if _same(m.value, value):
                return m
        raise GradcliError(f"{to_repr(value)} is not a valid {self.name}").mirror("ValueError")

    def get(self, rt: Any, attr: str) -> Any:
        member = self.members.get(attr)
        if member is not None:
            return member
        entry = self.methods.get(attr)
        if entry is not None:
            from .classes import class_value

            return class_value(entry, None, self)
        if attr == "__name__":
            return self.name
        raise GradcliError(attr).mirror("AttributeError")  # (Python's Enum says the name)

    def program_getitem(self, key: Any) -> EnumMember:
        """`Color['RED']`: the member of that name (a KeyError of the name otherwise)."""
        member = self.members.get(key) if isinstance(key, str) else None
        if member is None:
            from .exceptions import CLASSES, ProgramError

            raise ProgramError(CLASSES["KeyError"](key))
        return member

    def program_iter(self) -> Any:
        return iter(list(self.order))

    def program_items(self) -> list:
        return list(self.order)

    def program_typename(self) -> str:
        return "EnumType"

    def __repr__(self) -> str:
        return f"<enum '{self.name}'>"


def _plain(v: Any) -> bool:
    """A value Python's `==` compares as a value: a number, a string, None, a tuple of them."""
    if isinstance(v, (int, float, str)) or v is None:
        return True
    return type(v) is tuple and all(_plain(x) for x in v)


def _same(a: Any, b: Any) -> bool:
    """The equality Python's Enum looks members up by (and makes aliases by): `==` of plain
    values (1 and 1.0 are the same), identity of anything else (a tensor, a list)."""
    if _plain(a) and _plain(b):
        return bool(a == b)
    return a is b


def _next_value(values: list[Any]) -> int:
    """auto(): one more than the last value that is a number (Python's
    `_generate_next_value_`), 1 for the first."""
    for v in reversed(values):
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return v + 1
    return 1


def enum_class(name: str, made: dict[str, Any], span: Any, int_kind: bool = False) -> EnumClass:
    """The Enum class a class statement made (`made`: its body's names, in order); `int_kind`:
    an IntEnum."""
    cls = EnumClass(name, int_kind)
    values: list[Any] = []
    plain: dict[Any, Any] = {}
    others: dict[int, Any] = {}
    from .classes import ClassMethod, Property

    for key, v in made.items():
        if isinstance(v, (UserFunction, Property, ClassMethod)):
            cls.methods[key] = v  # (functions are descriptors: not members, as in Python)
            continue
        if callable(v) and not isinstance(v, Auto):
            raise NotSupported(
                "descriptors other than methods and properties in an Enum class are not supported",
                span=span,
                hint="keep the members (RED = 1) and methods defined with def",
            )
        if key.startswith("_"):
            raise NotSupported(
                f"the name `{key}` in an Enum class is not supported (Python keeps names that "
                "start with an underscore out of the members)",
                span=span,
            )
        if isinstance(v, Auto):
            v = _next_value(values)
        if int_kind:
            if isinstance(v, float) and v.is_integer():
                v = int(v)
            if not isinstance(v, int):
                raise GradcliError(
                    f"invalid literal for int() with base 10: {to_repr(v)}"
                    if isinstance(v, str)
                    else f"int() argument must be a string, a bytes-like object or a real "
                    f"number, not '{type(v).__name__}'"
                ).mirror("ValueError" if isinstance(v, str) else "TypeError")
            v = int(v)
        values.append(v)
        # (plain values found by hashing, as `==` finds them: 1 and 1.0 alike; others by
        # identity) - a class of many members is made in linear time
        existing = plain.get(v) if _plain(v) else others.get(id(v))
        if existing is not None:
            cls.members[key] = existing  # an alias, as Python's
            continue
        m = IntEnumMember(cls, key, v) if int_kind else EnumMember(cls, key, v)
        cls.members[key] = m
        cls.order.append(m)
        if _plain(v):
            plain[v] = m
        else:
            others[id(v)] = m
    return cls
