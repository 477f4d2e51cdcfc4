"""A program's own pruning method: `class FooBar(prune.BasePruningMethod)` with a class attribute
`PRUNING_TYPE` and a method `compute_mask(self, t, default_mask)`, applied with
`FooBar.apply(module, name)` as the pruning tutorial writes it.

The class is an `OptimClass` on the surface's pruning method (its `PROGRAM_BASE` is
"pruning"); its instance is the surface's `BasePruningMethod` (the hook, `apply_mask`,
`remove`, the PruningContainer it may join) asking the program's `compute_mask` for the mask.
Loaded when a program's class first derives from a pruning method class."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.tensor import Tensor, typename
from ..surface import prune as PR
from .classes import (
    ABSENT,
    CLASS_ATTRIBUTES,
    INSTANCE_KINDS,
    OptimClass,
    ProgramObject,
    _bound,
    _method,
)
from .values import BoundMethod, Builtin


class PruningInstance(ProgramObject, PR.BasePruningMethod):
    """An instance of a program's pruning method class: the program's attributes in a table,
    its methods before the base's."""

    def __init__(self, cls: OptimClass) -> None:
        self.cls = cls
        self.attrs: dict[str, Any] = {}
        self._tensor_name = None

    @property
    def name(self) -> str:
        return self.cls.name

    def program_typename(self) -> str:
        return self.cls.name

    @property
    def PRUNING_TYPE(self) -> Any:  # noqa: N802  (PyTorch's name)
        if "PRUNING_TYPE" in self.attrs:
            return self.attrs["PRUNING_TYPE"]
        found = self.cls.lookup("PRUNING_TYPE")
        if found is None:  # (PyTorch's BasePruningMethod has none: the class must say)
            raise GradcliError(
                f"'{self.name}' object has no attribute 'PRUNING_TYPE'",
                hint="give the class PRUNING_TYPE = 'unstructured', 'structured' or 'global'",
            ).mirror("AttributeError")
        return found

    def base_init(self, *args: Any, **kwargs: Any) -> None:
        base = _builtin(self)
        if base is PR.BasePruningMethod:
            if args or kwargs:
                raise GradcliError(f"{self.name}() takes no arguments").mirror("TypeError")
            return
        base.__init__(self, *args, **kwargs)

    def get(self, rt: Any, attr: str) -> Any:
        found = self.own_attribute(attr)
        if found is not ABSENT:
            return found
        if attr == "PRUNING_TYPE":
            return self.PRUNING_TYPE
        if attr == "_tensor_name":
            return self._tensor_name
        found = self.base_attribute(attr)
        if found is not None:
            return found
        if attr in getattr(_builtin(self), "PROGRAM_ATTRIBUTES", ()) and attr in self.__dict__:
            return self.__dict__[attr]
        raise GradcliError(f"'{self.name}' object has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def set(self, rt: Any, attr: str, value: Any) -> None:
        if attr == "_tensor_name":
            self._tensor_name = value
            return
        if attr.startswith("__"):
            raise GradcliError(
                f"setting `{attr}` of a pruning method is not supported",
                hint="keep your value under a name of your own (self.name = value)",
            ).mirror(None)
        self.attrs[attr] = value
        if attr in ("amount", "dim", "n", "mask"):
            self.__dict__[attr] = value  # (what the base's own compute_mask reads)

    def base_attribute(self, attr: str) -> Any:
        """The base's method (`super().compute_mask(t, mask)`, `self.apply_mask(module)`)."""
        base = _builtin(self)
        if attr == "__init__":
            return Builtin(f"{base.__name__}.__init__", self.base_init)
        if attr == "compute_mask" and base is not PR.BasePruningMethod:
            return BoundMethod(
                attr,
                lambda obj, t, default_mask: Tensor(
                    base.mask_of(obj, _tensor(t, "t"), _tensor(default_mask, "default_mask"))
                ),
                self,
                raw=True,
            )
        if attr in ("apply_mask", "prune", "remove"):
            return BoundMethod(attr, getattr(PR.BasePruningMethod, attr), self, raw=True)
        return None

    def mask_of(self, t: np.ndarray, default_mask: np.ndarray) -> np.ndarray:
        fn = _method(self.cls.lookup("compute_mask"))
        if fn is None:
            return _builtin(self).mask_of(self, t, default_mask)
        mask = _bound(fn, self)(Tensor(t), Tensor(default_mask))
        if not isinstance(mask, Tensor):
            raise GradcliError(
                f"{self.name}.compute_mask() must return the mask as a tensor, not {typename(mask)}"
            ).mirror("TypeError")
        if mask.shape != default_mask.shape:
            raise GradcliError(
                f"{self.name}.compute_mask() returned a mask of shape {tuple(mask.shape)} "
                f"for a tensor of shape {tuple(default_mask.shape)}",
                hint="return a mask of the shape of default_mask (default_mask.clone(), then "
                "set entries to 0)",
            )
        return np.asarray(mask.data)

    def __repr__(self) -> str:
        return f"<__main__.{self.name} object at {id(self):#x}>"


def _tensor(v: Any, what: str) -> np.ndarray:
    if not isinstance(v, Tensor):
        raise GradcliError(f"{what} must be a Tensor, not {typename(v)}").mirror("TypeError")
    return np.asarray(v.data)


def _builtin(obj: PruningInstance) -> type:
    """The surface's pruning method class the program's class derives from."""
    return obj.cls.base


def class_attribute(cls: OptimClass, attr: str) -> Any:
    """What `FooBar.attr` finds past the program's own entries: `apply` (the classmethod that
    prunes a module's tensor with a new instance) and the base's PRUNING_TYPE; else None."""
    if attr == "apply":

        def apply(module: Any, name: Any, *args: Any, importance_scores: Any = None, **kw: Any):
            from .values import current

            rt = current()
            return PR._apply(
                lambda *a, **k: cls.instantiate(rt, list(a), k),
                module,
                name,
                *args,
                importance_scores=importance_scores,
                **kw,
            )

        return Builtin(f"{cls.name}.apply", apply)
    return None


def new_pruning(cls: OptimClass) -> PruningInstance:
    base = cls.base
    if base is PR.BasePruningMethod and _method(cls.lookup("compute_mask")) is None:
        raise GradcliError(
            f"Can't instantiate abstract class {cls.name} with abstract method compute_mask"
        ).mirror("TypeError")
    return PruningInstance(cls)


INSTANCE_KINDS.update(pruning=new_pruning)
CLASS_ATTRIBUTES.update(pruning=class_attribute)
