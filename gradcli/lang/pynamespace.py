"""`types.SimpleNamespace`: the attribute bag notebooks use for their settings (`args =
SimpleNamespace(lr=0.1, epochs=3)`, in place of argparse's namespace) and for the records a
training loop yields (`yield SimpleNamespace(loss=loss, step=step)`). Its attributes are a
table of the program's values: read, set and deleted by name (never a dunder name), printed
as Python prints it (`namespace(lr=0.1, epochs=3)`), equal when the tables are."""

from __future__ import annotations

from typing import Any

from ..base import limits
from ..base.errors import GradcliError
from .values import Builtin


class SimpleNamespace:
    """An instance of `types.SimpleNamespace` (the program's attribute names to its values)."""

    __slots__ = ("attrs",)

    def __init__(self, attrs: dict[str, Any]) -> None:
        self.attrs = attrs

    def program_typename(self) -> str:
        return "types.SimpleNamespace"

    def program_repr(self, item: Any) -> str:
        return "namespace(" + ", ".join(f"{k}={item(v)}" for k, v in self.attrs.items()) + ")"

    def program_eq(self, other: Any) -> Any:
        if not isinstance(other, SimpleNamespace):
            return NotImplemented
        from .operators import equal

        if list(self.attrs) != list(other.attrs) and set(self.attrs) != set(other.attrs):
            return False
        return equal(self.attrs, {k: other.attrs[k] for k in self.attrs})

    def get(self, attr: str) -> Any:
        if attr in self.attrs:
            return self.attrs[attr]
        raise GradcliError(f"'types.SimpleNamespace' object has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def program_set(self, attr: str, value: Any) -> None:
        if attr not in self.attrs:
            limits.LIST_ITEMS.check(
                len(self.attrs) + 1, "the number of attributes of a SimpleNamespace"
            )
        self.attrs[attr] = value

    def delete(self, attr: str) -> None:
        if attr not in self.attrs:
            raise GradcliError(attr).mirror("AttributeError")
        del self.attrs[attr]


class ArgNamespace(SimpleNamespace):
    """`argparse.Namespace`: the parsed settings, printed as `Namespace(lr=0.1, epochs=3)`."""

    __slots__ = ()

    def program_typename(self) -> str:
        return "argparse.Namespace"

    def program_repr(self, item: Any) -> str:
        shown = [f"{k}={item(v)}" for k, v in self.attrs.items() if k.isidentifier()]
        odd = {k: v for k, v in self.attrs.items() if not k.isidentifier()}
        if odd:
            shown.append("**{" + ", ".join(f"{item(k)}: {item(v)}" for k, v in odd.items()) + "}")
        return "Namespace(" + ", ".join(shown) + ")"

    def program_eq(self, other: Any) -> Any:
        if not isinstance(other, ArgNamespace):
            return NotImplemented
        from .operators import equal

        return set(self.attrs) == set(other.attrs) and equal(
            self.attrs, {k: other.attrs[k] for k in self.attrs}
        )


def _make(*args: Any, **kwargs: Any) -> SimpleNamespace:
    """`SimpleNamespace(lr=0.1)` (Python 3.11's: keywords only; no dunder names)."""
    if args:
        raise GradcliError("no positional arguments expected").mirror("TypeError")
    for name in kwargs:
        if name.startswith("__") and name.endswith("__"):
            raise GradcliError(
                f"SimpleNamespace attribute `{name}` is not supported in gradcli programs",
                hint="give it a plain name: SimpleNamespace(lr=0.1)",
            )
    limits.LIST_ITEMS.check(len(kwargs), "the number of attributes of a SimpleNamespace")
    return SimpleNamespace(dict(kwargs))


def members() -> dict[str, Any]:
    """The members of the `types` namespace gradcli gives."""
    return {"SimpleNamespace": Builtin("types.SimpleNamespace", _make)}
