"""`@dataclass` / `@dataclasses.dataclass(...)` on a program's plain class, and the functions of
`dataclasses` programs call (`field`, `asdict`, `astuple`, `replace`, `fields`,
`is_dataclass`).

No class is made from program text: the decorator gives the program's `PlainClass` a
`DataclassSpec` (its fields in order, with their defaults or factories, and the options), from
which `classes.Instance` answers what Python's generated methods would: `__init__` (the
arguments bound to the fields, then `__post_init__`), `__repr__` (`C(lr=0.1, layers=[])`),
`__eq__` (the fields compared as a tuple, for instances of the same class) and, for
`frozen=True`, FrozenInstanceError on an assignment or a `del`.
"""

from __future__ import annotations

from typing import Any

from ..base.errors import GradcliError, NotSupported
from ..core.tensor import typename
from .classes import MISSING, Instance, PlainClass


class Field:
    """What `dataclasses.field(...)` returns, in a class body."""

    __slots__ = ("default", "default_factory", "init", "repr", "compare", "name")

    def __init__(
        self,
        default: Any = MISSING,
        default_factory: Any = MISSING,
        init: Any = True,
        repr: Any = True,  # noqa: A002 - Python's keyword
        compare: Any = True,
    ):
        self.default = default
        self.default_factory = default_factory
        self.init = bool(init)
        self.repr = bool(repr)
        self.compare = bool(compare)
        self.name: str | None = None

    def __repr__(self) -> str:
        return f"Field(name={self.name!r})"


def field(
    *,
    default: Any = MISSING,
    default_factory: Any = MISSING,
    init: Any = True,
    repr: Any = True,  # noqa: A002
    hash: Any = None,  # noqa: A002
    compare: Any = True,
    metadata: Any = None,
    kw_only: Any = MISSING,
) -> Field:
    """`dataclasses.field(*, default=..., default_factory=..., init=True, repr=True, ...)`."""
    if default is not MISSING and default_factory is not MISSING:
        raise GradcliError("cannot specify both default and default_factory").mirror("ValueError")
    if kw_only is not MISSING and kw_only:
        raise NotSupported(
            "field(kw_only=True) is not supported by gradcli",
            hint="give the field a default instead",
        )
    return Field(default, default_factory, init, repr, compare)


class DataclassSpec:
    """A dataclass's fields (in order, those of its dataclass bases first) and options."""

    __slots__ = ("fields", "init", "repr", "eq", "frozen")

    def __init__(self, fields: list[Field], init: bool, repr: bool, eq: bool, frozen: bool):  # noqa: A002
        self.fields = fields
        self.init = init
        self.repr = repr
        self.eq = eq
        self.frozen = frozen


class Dataclass:
    """`dataclass` or `dataclass(frozen=True, ...)`: applied to a class when the class
    statement it decorates runs."""

    __slots__ = ("options",)

    def __init__(self, options: dict[str, bool] | None = None):
        self.options = options or {}

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        return self(*args, **kwargs)

    def __call__(self, cls: Any = None, /, **kwargs: Any) -> Any:
        if cls is None:
            known = ("init", "repr", "eq", "order", "unsafe_hash", "frozen", "match_args")
            for k, v in kwargs.items():
                if k not in known:
                    if k in ("kw_only", "slots", "weakref_slot"):
                        raise NotSupported(
                            f"dataclass({k}=...) is not supported by gradcli",
                            hint="leave it out: @dataclass or @dataclass(frozen=True)",
                        )
                    raise GradcliError(
                        f"dataclass() got an unexpected keyword argument '{k}'"
                    ).mirror("TypeError")
                if k == "order" and v:
                    raise NotSupported(
                        "dataclass(order=True) is not supported by gradcli",
                        hint="compare the fields themselves: (a.x, a.y) < (b.x, b.y)",
                    )
            return Dataclass({k: bool(v) for k, v in kwargs.items()})
        if not isinstance(cls, PlainClass):
            raise NotSupported(
                f"@dataclass on a {typename(cls)} is not supported",
                hint="use it on a plain class (class Config: ...)",
            )
        apply(cls, self.options)
        return cls

    def __repr__(self) -> str:
        return f"<function dataclass at {id(self):#x}>"


DATACLASS = Dataclass()


def apply(cls: Any, options: dict[str, bool]) -> None:
    """Make `cls` (a PlainClass whose body declared `annotations`) a dataclass."""
    fields: dict[str, Field] = {}
    for base in reversed(cls.mro[1:]):
        spec = getattr(base, "dataclass", None) if isinstance(base, PlainClass) else None
        if spec is not None:
            for f in spec.fields:
                fields[f.name] = f
    for name, annotation in cls.annotations:
        if "ClassVar" in annotation:
            continue
        value = cls.attrs.get(name, MISSING)
        f = value if isinstance(value, Field) else Field(default=value)
        f.name = name
        if isinstance(value, Field):
            if f.default is MISSING:
                cls.attrs.pop(name, None)
            else:
                cls.attrs[name] = f.default
        if type(f.default) in (list, dict, set):
            raise GradcliError(
                f"mutable default <class '{type(f.default).__name__}'> for field {name} is not "
                "allowed: use default_factory"
            ).mirror("ValueError")
        fields[name] = f
    ordered = list(fields.values())
    if options.get("frozen", False):
        for own in ("__setattr__", "__delattr__"):  # (frozen's own: Python's TypeError)
            if own in cls.attrs:
                raise GradcliError(f"Cannot overwrite attribute {own} in class {cls.name}").mirror(
                    "TypeError"
                )
    init = options.get("init", True)
    if init:
        seen_default = False
        for f in ordered:
            if not f.init:
                continue
            has = f.default is not MISSING or f.default_factory is not MISSING
            if seen_default and not has:
                raise GradcliError(
                    f"non-default argument '{f.name}' follows default argument"
                ).mirror("TypeError")
            seen_default = seen_default or has
    cls.dataclass = DataclassSpec(
        ordered,
        init and "__init__" not in cls.attrs,
        options.get("repr", True) and "__repr__" not in cls.attrs,
        options.get("eq", True),
        options.get("frozen", False),
    )


def _spec(obj: Any, fn: str) -> DataclassSpec:
    cls = obj.cls if isinstance(obj, Instance) else obj
    spec = getattr(cls, "dataclass", None) if isinstance(cls, PlainClass) else None
    if spec is None:
        what = "dataclass type or instance" if fn == "fields()" else "dataclass instances"
        raise GradcliError(f"{fn} should be called on {what}").mirror("TypeError")
    return spec


def asdict(obj: Any) -> dict:
    """`dataclasses.asdict(obj)`: the fields as a dict, nested dataclasses as dicts, values
    deep-copied as Python's."""
    from .copying import deepcopy

    _spec(obj, "asdict()")
    if not isinstance(obj, Instance):
        raise GradcliError("asdict() should be called on dataclass instances").mirror("TypeError")

    def walk(v: Any) -> Any:
        if isinstance(v, Instance) and getattr(v.cls, "dataclass", None) is not None:
            return {f.name: walk(v.attrs[f.name]) for f in v.cls.dataclass.fields}
        if type(v) is list:
            return [walk(x) for x in v]
        if type(v) is tuple:
            return tuple(walk(x) for x in v)
        if type(v) is dict:
            return {walk(k): walk(x) for k, x in v.items()}
        return deepcopy(v, what="dataclasses.asdict()")

    return walk(obj)


def astuple(obj: Any) -> tuple:
    d = asdict(obj)
    return tuple(d.values())


def replace(obj: Any, /, **changes: Any) -> Any:
    """`dataclasses.replace(obj, **changes)`: a new instance through the generated __init__."""
    from .values import current

    spec = _spec(obj, "replace()")
    if not isinstance(obj, Instance):
        raise GradcliError("replace() should be called on dataclass instances").mirror("TypeError")
    kwargs = {f.name: obj.attrs[f.name] for f in spec.fields if f.init and f.name in obj.attrs}
    for k in changes:
        f = next((f for f in spec.fields if f.name == k), None)
        if f is not None and not f.init:
            raise GradcliError(
                f"field {k} is declared with init=False, it cannot be specified with replace()"
            ).mirror("ValueError")
    kwargs.update(changes)
    return obj.cls.instantiate(current(), [], kwargs)


def fields(obj: Any) -> tuple:
    return tuple(_spec(obj, "fields()").fields)


def is_dataclass(obj: Any) -> bool:
    cls = obj.cls if isinstance(obj, Instance) else obj
    return isinstance(cls, PlainClass) and getattr(cls, "dataclass", None) is not None


def field_attribute(f: Field, attr: str) -> Any:
    if attr in ("name", "default", "default_factory", "init", "repr", "compare"):
        v = getattr(f, attr)
        if v is MISSING:
            raise NotSupported(
                f"the field's `{attr}` is dataclasses.MISSING, which gradcli does not show",
                hint="check is_dataclass / the field's name instead",
            )
        return v
    raise GradcliError(f"'Field' object has no attribute '{attr}'").mirror("AttributeError")
