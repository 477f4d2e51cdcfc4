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

from ..base.errors import GradcliError
from ..core import hooks
from ..core.tensor import Tensor, typename
from ..surface import distributions as DS
from ..surface.printing import Size
from .classes import ABSENT, INSTANCE_KINDS, OptimClass, ProgramObject, _bound, _method
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


def _shape(v: Any, what: str) -> tuple[int, ...]:
    return DS._sample_shape(v, what, "super().__init__(batch_shape=mu.shape) or torch.Size()")


INSTANCE_KINDS.update(distribution=DistributionInstance)
