"""More of `torch.distributions`, each PyTorch's TransformedDistribution of a simpler one (so
that draws take PyTorch's random streams and log_prob inverts the same transforms):
HalfCauchy (|Cauchy|), Pareto (scale * exp(Exponential(alpha))), Weibull (scale *
Exponential(1) ** (1 / concentration)) and Kumaraswamy ((1 - U ** (1 / b)) ** (1 / a)), with
PyTorch's own moments, entropy, cdf / icdf where it has them, repr and argument checks; and
AbsTransform. Imported at the end of `distributions`, whose tables it extends."""

from __future__ import annotations

import math
from typing import Any

from ..core.tensor import Tensor
from . import distributions as DS
from .distributions import (
    _M,
    _NONNEGATIVE,
    _POSITIVE,
    _T,
    AffineTransform,
    Cauchy,
    Distribution,
    Exponential,
    ExpTransform,
    PowerTransform,
    Transform,
    TransformedDistribution,
    Uniform,
    _broadcast_all,
    _validate_sample,
    _value,
)

_EULER = 0.57721566490153286060


class AbsTransform(Transform):
    """y = |x| (not bijective: its inverse is y itself)."""

    codomain = (_POSITIVE, lambda v: v > 0)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AbsTransform)

    __hash__ = object.__hash__

    def _call(self, x: Tensor) -> Tensor:
        return _M["abs"](x)

    def _inverse(self, y: Tensor) -> Tensor:
        return y


class _Named(TransformedDistribution):
    """A subclass of PyTorch's TransformedDistribution whose repr names its parameters (those
    PyTorch holds on the instance, `_<name>` here) and whose support is its own."""

    PROGRAM_METHODS = TransformedDistribution.PROGRAM_METHODS
    PROGRAM_DATA = Distribution.PROGRAM_DATA
    SUPPORT: tuple[str, Any] = ("Real()", None)
    OWN: tuple[str, ...] = ()  # attributes a program reads

    def program_attribute(self, attr: str) -> Any:
        if attr in self.OWN:
            return getattr(self, attr)
        return super().program_attribute(attr)

    def _support(self) -> tuple[str, Any]:
        return self.SUPPORT

    @property
    def stddev(self) -> Tensor:
        return _M["sqrt"](self.variance)

    def _checks(self, validate_args: Any) -> None:
        if validate_args is False:
            return
        for p in self.PARAMS:
            t = getattr(self, p)
            self._check(p, t, t.data > 0, _POSITIVE)


class HalfCauchy(_Named):
    NAME = "HalfCauchy"
    PARAMS = ()
    OWN = ("scale", "base_dist")
    SUPPORT = (_NONNEGATIVE, lambda v: v >= 0)

    def __init__(self, scale: Any, validate_args: Any = None) -> None:
        base = Cauchy(0, scale, validate_args=False)
        super().__init__(base, AbsTransform(), validate_args=validate_args)
        if validate_args is not False:
            self._check("scale", base.scale, base.scale.data > 0, _POSITIVE)

    @property
    def scale(self) -> Tensor:
        return self.base_dist.scale

    @property
    def mean(self) -> Tensor:
        return _T["full"](self.batch + self.event, math.inf, dtype=self.scale.dtype)

    @property
    def mode(self) -> Tensor:
        return _T["zeros_like"](self.scale)

    @property
    def variance(self) -> Tensor:
        return self.base_dist.variance

    def log_prob(self, value: Any) -> Tensor:
        if self._validate:
            value = _validate_sample(self, value, *self.SUPPORT)
        value = _T["as_tensor"](value, dtype=self.scale.dtype)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return _T["where"](_M["ge"](value, 0), log_prob, -math.inf)

    def cdf(self, value: Any) -> Tensor:
        if self._validate:
            value = _validate_sample(self, value, *self.SUPPORT)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, value: Any) -> Tensor:
        return self.base_dist.icdf((_value(value, self, check=False) + 1) / 2)

    def entropy(self) -> Tensor:
        return self.base_dist.entropy() - math.log(2)


class Pareto(_Named):
    NAME = "Pareto"
    PARAMS = ("alpha", "scale")
    OWN = ("alpha", "scale", "base_dist")

    def __init__(self, scale: Any, alpha: Any, validate_args: Any = None) -> None:
        self._scale, self._alpha = _broadcast_all(scale, alpha)
        self.shown = {"alpha", "scale"}
        base = Exponential(self._alpha, validate_args=validate_args)
        transforms = [ExpTransform(), AffineTransform(loc=0, scale=self._scale)]
        super().__init__(base, transforms, validate_args=validate_args)
        self._checks(validate_args)

    @property
    def alpha(self) -> Tensor:
        return self._alpha

    @property
    def scale(self) -> Tensor:
        return self._scale

    def _support(self) -> tuple[str, Any]:
        lower = self._scale.data
        return (
            f"GreaterThanEq(lower_bound={DS._shown(self._scale)})",
            lambda v: v >= lower,
        )

    @property
    def mean(self) -> Tensor:
        a = _M["clamp"](self._alpha, min=1)
        return a * self._scale / (a - 1)

    @property
    def mode(self) -> Tensor:
        return self._scale

    @property
    def variance(self) -> Tensor:
        a = _M["clamp"](self._alpha, min=2)
        return _M["pow"](self._scale, 2) * a / (_M["pow"](a - 1, 2) * (a - 2))

    def entropy(self) -> Tensor:
        return _M["log"](self._scale / self._alpha) + (1 + _M["reciprocal"](self._alpha))


class Weibull(_Named):
    NAME = "Weibull"
    PARAMS = ("scale", "concentration")
    OWN = ("scale", "concentration", "concentration_reciprocal", "base_dist")
    SUPPORT = (_POSITIVE, lambda v: v > 0)

    def __init__(self, scale: Any, concentration: Any, validate_args: Any = None) -> None:
        self._scale, self._concentration = _broadcast_all(scale, concentration)
        self.shown = {"scale", "concentration"}
        self.concentration_reciprocal = _M["reciprocal"](self._concentration)
        base = Exponential(_T["ones_like"](self._scale), validate_args=validate_args)
        transforms = [
            PowerTransform(exponent=self.concentration_reciprocal),
            AffineTransform(loc=0, scale=self._scale),
        ]
        super().__init__(base, transforms, validate_args=validate_args)
        self._checks(validate_args)

    @property
    def scale(self) -> Tensor:
        return self._scale

    @property
    def concentration(self) -> Tensor:
        return self._concentration

    @property
    def mean(self) -> Tensor:
        return self._scale * _T["exp"](_T["lgamma"](1 + self.concentration_reciprocal))

    @property
    def mode(self) -> Tensor:
        c = self._concentration
        return self._scale * _M["pow"]((c - 1) / c, _M["reciprocal"](c))

    @property
    def variance(self) -> Tensor:
        r = self.concentration_reciprocal
        return _M["pow"](self._scale, 2) * (
            _T["exp"](_T["lgamma"](1 + 2 * r)) - _T["exp"](2 * _T["lgamma"](1 + r))
        )

    def entropy(self) -> Tensor:
        r = self.concentration_reciprocal
        return _EULER * (1 - r) + _T["log"](self._scale * r) + 1


def _kumaraswamy_moment(a: Tensor, b: Tensor, n: int) -> Tensor:
    arg1 = 1 + n / a
    log_value = _T["lgamma"](arg1) + _T["lgamma"](b) - _T["lgamma"](arg1 + b)
    return b * _T["exp"](log_value)


class Kumaraswamy(_Named):
    NAME = "Kumaraswamy"
    PARAMS = ("concentration1", "concentration0")
    OWN = ("concentration1", "concentration0", "base_dist")
    SUPPORT = ("Interval(lower_bound=0.0, upper_bound=1.0)", lambda v: (v >= 0) & (v <= 1))

    def __init__(self, concentration1: Any, concentration0: Any, validate_args: Any = None) -> None:
        self._concentration1, self._concentration0 = _broadcast_all(concentration1, concentration0)
        self.shown = {"concentration1", "concentration0"}
        c0 = self._concentration0
        base = Uniform(_T["full_like"](c0, 0), _T["full_like"](c0, 1), validate_args=validate_args)
        transforms = [
            PowerTransform(exponent=_M["reciprocal"](c0)),
            AffineTransform(loc=1.0, scale=-1.0),
            PowerTransform(exponent=_M["reciprocal"](self._concentration1)),
        ]
        super().__init__(base, transforms, validate_args=validate_args)
        self._checks(validate_args)

    @property
    def concentration1(self) -> Tensor:
        return self._concentration1

    @property
    def concentration0(self) -> Tensor:
        return self._concentration0

    @property
    def mean(self) -> Tensor:
        return _kumaraswamy_moment(self._concentration1, self._concentration0, 1)

    @property
    def mode(self) -> Tensor:
        from .indexing import setitem

        c1, c0 = self._concentration1, self._concentration0
        log_mode = _M["reciprocal"](c0) * _M["log1p"](-c0) - _M["log1p"](-c0 * c1)
        setitem(log_mode, _M["bitwise_or"](_M["lt"](c0, 1), _M["lt"](c1, 1)), math.nan)
        return _M["exp"](log_mode)

    @property
    def variance(self) -> Tensor:
        c1, c0 = self._concentration1, self._concentration0
        return _kumaraswamy_moment(c1, c0, 2) - _T["pow"](self.mean, 2)

    def entropy(self) -> Tensor:
        c1, c0 = self._concentration1, self._concentration0
        t1 = 1 - _M["reciprocal"](c1)
        t0 = 1 - _M["reciprocal"](c0)
        h0 = _T["digamma"](c0 + 1) + _EULER
        return t0 + t1 * h0 - _T["log"](c1) - _T["log"](c0)


for _cls, _module in (
    (HalfCauchy, "half_cauchy"),
    (Pareto, "pareto"),
    (Weibull, "weibull"),
    (Kumaraswamy, "kumaraswamy"),
):
    DS.CLASSES[_cls.NAME] = _cls
    DS.MODULES[_cls.NAME] = _module
DS.TRANSFORMS["AbsTransform"] = AbsTransform
