"""`collections.abc`'s classes a program tests values against: `isinstance(names, Iterable)`
(forum code does so before it wraps a single name in a list), `Iterator`, `Sequence` and
`Mapping` (and `Callable`, as `callable()` answers). Each answers as Python's abstract class
would for the values a program holds: Iterable and Iterator by the methods the value's class
has (`__iter__`, and `__next__`), Sequence and Mapping by the built-in classes registered
with them. The module's other classes are names for type hints (`Sized`, `Hashable`...):
subscripted and printed as Python's, refused by isinstance() in plain words."""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core.tensor import Tensor
from .classes import Instance, ModuleInstance, ProgramObject
from .values import SIZED, Builtin, GenericAlias, PyType, is_iterator
from .values import _alias_argument as alias_argument


def _special(v: Any, name: str) -> bool:
    """Whether a program's object has the method `name` (its class's or its torch base's)."""
    if isinstance(v, ModuleInstance):
        library = v.cls.library
        return v.special(name) is not None or (library is not None and hasattr(library, name))
    if isinstance(v, (Instance, ProgramObject)):
        return v.cls.lookup(name) is not None
    return False


def iterable(v: Any) -> bool:
    """Python's `isinstance(v, Iterable)`: its class has `__iter__` (a tensor of any shape,
    a list, an nn.Sequential, a DataLoader; not an nn.Linear nor a TensorDataset, which
    PyTorch iterates by `__getitem__` alone)."""
    if isinstance(v, (range, list, tuple, str, bytes, Tensor, np.ndarray, *SIZED)):
        return True
    if is_iterator(v):
        return True
    if isinstance(v, (Instance, ProgramObject, ModuleInstance)):
        return _special(v, "__iter__")
    kind = type(v)
    if not getattr(kind, "program_has_iter", True):  # (a Dataset of torch.utils.data's)
        return False
    return hasattr(kind, "program_items") or hasattr(kind, "program_iter")


def iterator(v: Any) -> bool:
    """`isinstance(v, Iterator)`: `__iter__` and `__next__` both (a generator, zip(), iter()
    of a list; not a list nor a DataLoader)."""
    if is_iterator(v):
        return True
    if isinstance(v, (Instance, ProgramObject, ModuleInstance)):
        return _special(v, "__iter__") and _special(v, "__next__")
    return False


def sequence(v: Any) -> bool:
    """`isinstance(v, Sequence)`: the built-in sequences and the tuples' kin (torch.Size, a
    named tuple, torch.return_types); not a tensor, an array, a dict nor a set."""
    return isinstance(v, (list, tuple, str, bytes, range, collections.deque))


def mapping(v: Any) -> bool:
    """`isinstance(v, Mapping)`: a dict and its kin (OrderedDict, defaultdict, Counter, a
    state_dict); not an nn.ModuleDict, which PyTorch does not register as one."""
    return isinstance(v, dict)


def _callable(v: Any) -> bool:
    from .builtins import BUILTINS

    return bool(BUILTINS["callable"](v))


def _register(shown: str) -> Builtin:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise NotSupported(
            f"{shown}.register() is not supported by gradcli (its classes are fixed)",
            hint="test the class too: isinstance(v, (Iterable, MyClass))",
        )

    return Builtin(f"{shown}.register", refuse)


class AbcType(PyType):
    """One of collections.abc's classes (or of `numbers`'): printed, subscripted as a type
    hint (`Iterable[int]`, a types.GenericAlias) and tested against; never instantiated."""

    __slots__ = ("test",)

    def __init__(
        self, name: str, test: Callable[[Any], bool] | None, module: str = "collections.abc"
    ):
        shown = f"{module}.{name}"
        super().__init__(name, (), None, shown=shown, members={"register": _register(shown)})
        self.test = test

    def instance(self, v: Any) -> bool:
        if self.test is None:
            raise NotSupported(
                f"isinstance() with {self.shown} is not supported by gradcli",
                hint="collections.abc's Iterable, Iterator, Sequence, Mapping and Callable are",
            )
        return self.test(v)

    def program_attribute(self, attr: str) -> Any:
        """`Iterable.register` (refused in plain words); any other name is none of the
        class's, in Python's words."""
        if attr in self.members:
            return self.members[attr]
        raise GradcliError(f"type object '{self.name}' has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def program_getitem(self, key: Any) -> GenericAlias:
        alias = GenericAlias(self, key)
        if self.name == "Callable" and type(key) is tuple and len(key) == 2:
            params, result = key
            if isinstance(params, list):  # `Callable[[int, str], float]`: types, not reprs
                shown = ", ".join(map(alias_argument, params))
                alias.shown = f"{self.shown}[[{shown}], {alias_argument(result)}]"
        return alias

    def inert(self) -> PyType:
        return self


TESTS: dict[str, Callable[[Any], bool]] = {
    "Iterable": iterable,
    "Iterator": iterator,
    "Sequence": sequence,
    "Mapping": mapping,
    "Callable": _callable,
}
# Names for type hints only (isinstance() with them is refused in plain words).
HINTS = ("Collection", "Container", "Generator", "Hashable", "MutableMapping")
HINTS += ("MutableSequence", "MutableSet", "Reversible", "Set", "Sized")
CLASSES = {name: AbcType(name, TESTS.get(name)) for name in sorted((*TESTS, *HINTS))}


def members() -> dict[str, Any]:
    return dict(CLASSES)


# `numbers`' tower, as Python (and NumPy, which registers its scalars) answers it: a tensor is
# none of them, nor is NumPy's bool; Python's bool is an Integral.
_NUMPY_KINDS = {"Number": "iufc", "Complex": "iufc", "Real": "iuf", "Rational": "iu"}
_NUMPY_KINDS["Integral"] = "iu"
_PYTHON_TYPES: dict[str, tuple[type, ...]] = {
    "Number": (int, float, complex),
    "Complex": (int, float, complex),
    "Real": (int, float),
    "Rational": (int,),
    "Integral": (int,),
}


def _number_test(name: str) -> Callable[[Any], bool]:
    types, kinds = _PYTHON_TYPES[name], _NUMPY_KINDS[name]

    def test(v: Any) -> bool:
        if isinstance(v, np.generic):
            return v.dtype.kind in kinds
        return isinstance(v, types)

    return test


def numbers_members() -> dict[str, Any]:
    return {name: AbcType(name, _number_test(name), "numbers") for name in _PYTHON_TYPES}
