"""A program's own distribution: `class DiagonalGaussian(torch.distributions.Distribution)` with
its `rsample`, `log_prob`... (the reparameterisation-trick class VAE courses write), made and
used as PyTorch's base class allows.

The class is an `OptimClass` on the surface's Distribution (its `PROGRAM_BASE` is
"distribution"); its instance is the surface's Distribution base (`sample` as `rsample` under
no_grad, `sample_n`, `batch_shape`/`event_shape` once `super().__init__(...)` has set them,
`stddev` from the program's `variance`, PyTorch's NotImplementedError for what the class does
not define, its repr from the class's `arg_constraints`) with the program's attributes and
methods before the base's. Loaded when a program's class first derives from Distribution."""

from __future__ import annotations

from typing import Any

from ..base.errors import GradcliError, NotSupported
from ..core import hooks
from ..core.tensor import Tensor, typename
from ..surface import distributions as DS
from ..surface.printing import Size
from .classes import (
    ABSENT,
    CLASS_ATTRIBUTES,
    INSTANCE_KINDS,
    OptimClass,
    ProgramObject,
    _bound,
    _method,
    class_value,
)
from .values import BoundMethod, Builtin

# What PyTorch's Distribution leaves to its subclasses: the base's raises NotImplementedError
# (without a message).
_ABSTRACT_METHODS = ("rsample", "log_prob", "entropy", "cdf", "icdf", "enumerate_support")
_ABSTRACT_MOMENTS = ("mean", "mode", "variance")


def _not_implemented(message: str = "") -> GradcliError:
    return GradcliError(message).mirror("NotImplementedError").pytorch()


class DistributionInstance(ProgramObject, DS.Distribution):
    """An instance of a program's Distribution subclass."""

    def __init__(self, cls: OptimClass) -> None:
        self.cls = cls
        self.attrs: dict[str, Any] = {}
        self.initialized = False  # (super().__init__ sets the shapes, as PyTorch's)

    @property
    def NAME(self) -> str:  # type: ignore[override]  # noqa: N802  (the surface's name)
        return self.cls.name

    def program_typename(self) -> str:
        return self.cls.name

    def base_init(
        self, batch_shape: Any = (), event_shape: Any = (), validate_args: Any = None
    ) -> None:
        self.batch = _shape(batch_shape, "batch_shape")
        self.event = _shape(event_shape, "event_shape")
        self.initialized = True
        # (PyTorch's _validate_args: the argument given, else the default of the run)
        self.validating = (
            bool(validate_args) if validate_args is not None else DS.Settings.validate_distributions
        )
        if validate_args is not False and self.cls.lookup("arg_constraints") is None:
            hooks.warn(
                f"<class '__main__.{self.cls.name}'> does not define `arg_constraints`. Please "
                "set `arg_constraints = {}` or initialize the distribution with "
                "`validate_args=False` to turn off validation."
            )

    def get(self, rt: Any, attr: str) -> Any:
        found = self.own_attribute(attr)
        if found is not ABSENT:
            return found
        found = self.base_attribute(attr)
        if found is not None:
            return found
        raise GradcliError(f"'{self.cls.name}' object has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def set(self, rt: Any, attr: str, value: Any) -> None:
        if attr.startswith("__"):
            raise GradcliError(
                f"setting `{attr}` of a distribution is not supported",
                hint="keep your value under a name of your own (self.name = value)",
            ).mirror(None)
        self.attrs[attr] = value

    def base_attribute(self, attr: str) -> Any:
        """The base's (`self.sample()`, `super().__init__(...)`, `self.batch_shape`)."""
        if attr == "__init__":
            return Builtin("Distribution.__init__", self.base_init)
        if attr in ("batch_shape", "event_shape"):
            if not self.initialized:
                raise GradcliError(
                    f"'{self.cls.name}' object has no attribute '_{attr}'",
                    hint="call super().__init__(batch_shape, event_shape) in __init__",
                ).mirror("AttributeError")
            return Size(self.batch if attr == "batch_shape" else self.event)
        if attr in ("_batch_shape", "_event_shape", "_extended_shape") and self.initialized:
            if attr == "_extended_shape":
                return Builtin("Distribution._extended_shape", lambda s=(): Size(self._extended(s)))
            return Size(self.batch if attr == "_batch_shape" else self.event)
        if attr == "_validate_args":
            return self.validating
        if attr in ("sample", "sample_n", "rsample", *_ABSTRACT_METHODS):
            return BoundMethod(attr, getattr(type(self), attr), self, raw=True)
        if attr == "mode":  # (the base's words name the class)
            raise _not_implemented(f"<class '__main__.{self.cls.name}'> does not implement mode")
        if attr in _ABSTRACT_MOMENTS:
            raise _not_implemented()
        if attr == "stddev":
            return self._program("variance").sqrt()
        if attr in ("has_rsample", "has_enumerate_support"):
            return False
        return None

    def _program(self, attr: str) -> Any:
        from .values import current

        return self.get(current(), attr)

    def _call(self, name: str, *args: Any) -> Any:
        fn = _method(self.cls.lookup(name))
        if fn is None:
            raise _not_implemented()
        return _bound(fn, self)(*args)

    # The base's methods, as its own code calls them (`sample` calls `self.rsample(shape)`:
    # the program's, when the class defines it).
    def sample(self, sample_shape: Any = ()) -> Tensor:
        return super().sample(Size(tuple(sample_shape)))

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        return self._call("rsample", Size(tuple(sample_shape)))

    def log_prob(self, value: Any) -> Tensor:
        return self._call("log_prob", value)

    def entropy(self) -> Tensor:
        return self._call("entropy")

    def cdf(self, value: Any) -> Tensor:
        return self._call("cdf", value)

    def icdf(self, value: Any) -> Tensor:
        return self._call("icdf", value)

    def enumerate_support(self, expand: Any = True) -> Tensor:
        return self._call("enumerate_support", expand)

    def __repr__(self) -> str:
        constraints = self.cls.lookup("arg_constraints")
        if constraints is None:
            raise _not_implemented()
        if not isinstance(constraints, dict):
            raise GradcliError(f"'{typename(constraints)}' object has no attribute 'items'").mirror(
                "AttributeError"
            )
        parts = []
        for name in constraints:
            v = self.attrs.get(name)
            if isinstance(name, str) and isinstance(v, Tensor):
                shown = DS._shown(v) if v.data.size == 1 else repr(Size(v.shape))
                parts.append(f"{name}: {shown}")
        return f"{self.cls.name}({', '.join(parts)})"


class ConcreteInstance(ProgramObject):
    """An instance of a program's subclass of one of torch.distributions' classes
    (`class StraightThrough(OneHotCategorical)`): the surface's class itself (a Python class
    made of this one and it, `_concrete`), its state set by the base's `__init__` (through
    `super().__init__(logits=...)`), with the program's attributes and methods before the
    base's, also where the base's own code calls them (`sample` calling `rsample`)."""

    # (set on the made class: the surface's class it builds on)
    BASE: type = DS.Distribution

    def __init__(self, cls: OptimClass) -> None:
        self.cls = cls
        self.attrs: dict[str, Any] = {}

    def program_typename(self) -> str:
        return self.cls.name

    def base_init(self, *args: Any, **kwargs: Any) -> None:
        self.BASE.__init__(self, *args, **kwargs)
        inner = self.__dict__.get("_categorical", self)
        self.param_given = _given(inner)  # (before the program reads the other one)
        for name in self.__dict__:  # (what the program set before, the base's now, as Python)
            self.attrs.pop(name, None)

    def get(self, rt: Any, attr: str) -> Any:
        found = self.own_attribute(attr)
        if found is not ABSENT:
            return found
        found = self.base_attribute(attr)
        if found is not None:
            return found
        raise GradcliError(f"'{self.cls.name}' object has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def set(self, rt: Any, attr: str, value: Any) -> None:
        if (
            attr.startswith("__")
            or attr in _BASE_STATE
            or attr in self.__dict__
            or hasattr(self.BASE, attr)
        ):
            raise GradcliError(
                f"setting `{attr}` of a subclass of {self.BASE.NAME} is not supported",
                hint="keep your value under a name of your own (self.my_name = value)",
            ).mirror(None)
        self.attrs[attr] = value

    def _made(self) -> bool:
        return "batch" in self.__dict__

    def base_attribute(self, attr: str) -> Any:
        """The base's: its __init__, methods, properties and the private state PyTorch's
        programs read (`_categorical`, `_param`, `_batch_shape`, `_validate_args`)."""
        base = self.BASE
        if attr == "__init__":
            return Builtin(f"{base.NAME}.__init__", self.base_init)
        if attr in ("has_rsample", "has_enumerate_support"):
            return getattr(base, attr)
        if not self._made():
            if attr in _BASE_STATE or attr in base.PROGRAM_DATA or attr in base.PARAMS:
                raise GradcliError(
                    f"'{self.cls.name}' object has no attribute '{attr}'",
                    hint=f"call super().__init__(...) in __init__ ({base.NAME}'s arguments)",
                ).mirror("AttributeError")
        if attr == "expand":
            raise NotSupported(
                f"expand() of a program's subclass of {base.NAME} is not supported by gradcli",
                hint=f"make a new {self.cls.name} with the expanded parameters",
            )
        if attr in base.PROGRAM_METHODS:
            return BoundMethod(attr, getattr(type(self), attr), self, raw=True)
        if attr in ("_batch_shape", "_event_shape"):
            return Size(self.batch if attr == "_batch_shape" else self.event)
        if attr == "_extended_shape":
            return Builtin(f"{base.NAME}._extended_shape", lambda s=(): Size(self._extended(s)))
        if attr == "_validate_args":
            return bool(self.validating)
        if attr == "_categorical" and "_categorical" in self.__dict__:
            return self._categorical
        # (OneHotCategorical's come from its Categorical, as PyTorch's properties)
        inner = self.__dict__.get("_categorical", self)
        if attr == "_param" and "_probs" in inner.__dict__:
            return inner._logits if self.param_given == "logits" else inner._probs
        if attr == "_num_events" and "events" in self.__dict__ and inner is self:
            return self.events  # (Categorical's; OneHotCategorical has none)
        try:
            return base.program_attribute(self, attr)
        except GradcliError:
            return None

    def super_attribute(self, attr: str) -> Any:
        """`super().log_prob(value)` in the program's override: the base's own method (or
        moment), not the override the made class answers for the name."""
        base = self.BASE
        if attr in base.PROGRAM_METHODS and self._made():
            return Builtin(f"{base.NAME}.{attr}", getattr(base, attr).__get__(self))
        if attr in _MOMENTS and self._made():
            return getattr(base, attr).fget(self)
        return self.base_attribute(attr)

    def __repr__(self) -> str:
        text = self.BASE.__repr__(self)
        return self.cls.name + text[len(self.BASE.NAME) :]


def _given(d: Any) -> str:
    """Which of probs and logits a Categorical or Bernoulli was made from (PyTorch's
    `_param`): the one its repr shows first."""
    shown = d.__dict__.get("shown") or set()
    return "logits" if "logits" in shown and "probs" not in shown else "probs"


# What the base's __init__ sets that a program's class reads, not writes.
_BASE_STATE = (
    "_batch_shape",
    "_event_shape",
    "_validate_args",
    "_categorical",
    "_param",
    "_num_events",
    "batch",
    "event",
    "validating",
    "shown",
)
_MOMENTS = ("mean", "variance", "stddev", "mode")


def _overriding(name: str) -> Any:
    """The method `name` of the made class: the program's, when its class defines it (also
    where the base's own code calls it), else the base's."""

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        fn = _method(self.cls.lookup(name))
        if fn is not None:
            return _bound(fn, self)(*args, **kwargs)
        return getattr(self.BASE, name)(self, *args, **kwargs)

    method.__name__ = name
    return method


def _overriding_moment(name: str) -> property:
    def moment(self: Any) -> Any:
        entry = self.cls.lookup(name)
        if entry is not None:
            return class_value(entry, self, self.cls)
        return getattr(self.BASE, name).fget(self)

    return property(moment)


_MADE: dict[type, type] = {}


def _concrete(base: type) -> type:
    made = _MADE.get(base)
    if made is None:
        table: dict[str, Any] = {"BASE": base}
        for name in base.PROGRAM_METHODS:
            if callable(getattr(base, name, None)):
                table[name] = _overriding(name)
        for name in _MOMENTS:
            if isinstance(getattr(base, name, None), property):
                table[name] = _overriding_moment(name)
        made = type(f"Program{base.__name__}", (ConcreteInstance, base), table)
        _MADE[base] = made
    return made


def _instance(cls: OptimClass) -> Any:
    if cls.base is DS.Distribution:
        return DistributionInstance(cls)
    return _concrete(cls.base)(cls)


def _shape(v: Any, what: str) -> tuple[int, ...]:
    return DS._sample_shape(v, what, "super().__init__(batch_shape=mu.shape) or torch.Size()")


def _class_attribute(cls: OptimClass, attr: str) -> Any:
    """`StraightThrough.has_rsample`: what the class lacks, its torch base's (None: none)."""
    if attr in ("has_rsample", "has_enumerate_support") or (
        attr in ("support", "arg_constraints") and cls.base is not DS.Distribution
    ):
        return cls.base.program_class_attribute(attr)
    return None


INSTANCE_KINDS.update(distribution=_instance)
CLASS_ATTRIBUTES.update(distribution=_class_attribute)
