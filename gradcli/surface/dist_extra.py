"""More of `torch.distributions`, each PyTorch's TransformedDistribution of a simpler one (so
that draws take PyTorch's random streams and log_prob inverts the same transforms):
HalfCauchy (|Cauchy|), Pareto (scale * exp(Exponential(alpha))), Weibull (scale *
Exponential(1) ** (1 / concentration)) and Kumaraswamy ((1 - U ** (1 / b)) ** (1 / a)), with
PyTorch's own moments, entropy, cdf / icdf where it has them, repr and argument checks; and
AbsTransform. Imported at the end of `distributions`, whose tables it extends."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.tensor import Tensor, no_grad, typename
from . import distributions as DS
from . import names as N
from .distributions import (
    _F,
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

    bijective = False
    codomain = (_POSITIVE, lambda v: v > 0)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AbsTransform)

    __hash__ = object.__hash__

    def _call(self, x: Tensor) -> Tensor:
        return _M["abs"](x)

    def _inverse(self, y: Tensor) -> Tensor:
        return y


class SoftplusTransform(Transform):
    """y = softplus(x) (linear above 20, as F.softplus); its inverse y + log(-expm1(-y))."""

    codomain = (_POSITIVE, lambda v: v > 0)
    sign = 1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SoftplusTransform)

    __hash__ = object.__hash__

    def _call(self, x: Tensor) -> Tensor:
        return _F["softplus"](x)

    def _inverse(self, y: Tensor) -> Tensor:
        return _M["log"](_M["neg"](_M["expm1"](_M["neg"](y)))) + y

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return -_F["softplus"](-x)


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


def _clamp_probs(p: Tensor) -> Tensor:
    eps = float(np.finfo(p.dtype).eps)
    return _M["clamp"](p, min=eps, max=1 - eps)


class ContinuousBernoulli(DS._Lazy):
    """PyTorch's ContinuousBernoulli: a density on [0, 1] proportional to p^x (1 - p)^(1 - x),
    probs clamped away from 0 and 1; near p = 1/2 (within `lims`) its Taylor expansions."""

    NAME = "ContinuousBernoulli"
    PARAMS = ("probs", "logits")
    PROGRAM_DATA = (*Distribution.PROGRAM_DATA, "param_shape")
    PROGRAM_METHODS = Distribution.PROGRAM_METHODS + ("icdf",)
    has_rsample = True

    def __init__(
        self,
        probs: Any = None,
        logits: Any = None,
        lims: Any = (0.499, 0.501),
        validate_args: Any = None,
    ) -> None:
        if (probs is None) == (logits is None):
            raise GradcliError(
                "Either `probs` or `logits` must be specified, but not both."
            ).mirror("ValueError")
        self.shown = {"probs" if probs is not None else "logits"}
        if probs is not None:
            (raw,) = _broadcast_all(probs)
            if validate_args is not None:
                v = raw.data
                if not bool(np.all((v >= 0) & (v <= 1))):
                    raise GradcliError("The parameter probs has invalid values").mirror(
                        "ValueError"
                    )
            self._probs = _clamp_probs(raw)
            p = _clamp_probs(self._probs)
            self._logits = _T["log"](p) - _T["log1p"](-p)
        else:
            (self._logits,) = _broadcast_all(logits)
            self._probs = _clamp_probs(_T["sigmoid"](self._logits))
        self._lims = (float(lims[0]), float(lims[1]))
        self.batch = tuple(self._probs.shape)
        if validate_args is not False:
            if probs is not None:
                v = self._probs.data
                self._check(
                    "probs",
                    self._probs,
                    (v >= 0) & (v <= 1),
                    "Interval(lower_bound=0.0, upper_bound=1.0)",
                )
            else:
                v = self._logits.data
                self._check("logits", self._logits, v == v, "Real()")

    def program_attribute(self, attr: str) -> Any:
        if attr == "_cont_bern_log_norm":
            return self._cont_bern_log_norm
        return super().program_attribute(attr)

    def _outside(self) -> Tensor:
        p = self.probs
        return _M["logical_or"](_M["le"](p, self._lims[0]), _M["gt"](p, self._lims[1]))

    def _cut_probs(self) -> Tensor:
        p = self.probs
        return _T["where"](self._outside(), p, self._lims[0] * _T["ones_like"](p))

    def _cont_bern_log_norm(self) -> Tensor:
        cut = self._cut_probs()
        below = _T["where"](_M["le"](cut, 0.5), cut, _T["zeros_like"](cut))
        above = _T["where"](_M["ge"](cut, 0.5), cut, _T["ones_like"](cut))
        log_norm = _T["log"](_T["abs"](_T["log1p"](-cut) - _T["log"](cut))) - _T["where"](
            _M["le"](cut, 0.5), _T["log1p"](-2.0 * below), _T["log"](2.0 * above - 1.0)
        )
        x = _T["pow"](self.probs - 0.5, 2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return _T["where"](self._outside(), log_norm, taylor)

    @property
    def mean(self) -> Tensor:
        cut = self._cut_probs()
        mus = cut / (2.0 * cut - 1.0) + 1.0 / (_T["log1p"](-cut) - _T["log"](cut))
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * _T["pow"](x, 2)) * x
        return _T["where"](self._outside(), mus, taylor)

    @property
    def variance(self) -> Tensor:
        cut = self._cut_probs()
        vs = cut * (cut - 1.0) / _T["pow"](1.0 - 2.0 * cut, 2) + 1.0 / _T["pow"](
            _T["log1p"](-cut) - _T["log"](cut), 2
        )
        x = _T["pow"](self.probs - 0.5, 2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return _T["where"](self._outside(), vs, taylor)

    @property
    def stddev(self) -> Tensor:
        return _T["sqrt"](self.variance)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        u = _T["rand"](shape, dtype=self.probs.dtype)
        return self.icdf(u)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        u = _T["rand"](shape, dtype=self.probs.dtype)
        with no_grad():
            return self.icdf(u)

    def log_prob(self, value: Any) -> Tensor:
        if self.validating:
            value = _validate_sample(
                self,
                value,
                "Interval(lower_bound=0.0, upper_bound=1.0)",
                lambda v: (v >= 0) & (v <= 1),
            )
        logits, value = _broadcast_all(self.logits, value)
        bce = _F["binary_cross_entropy_with_logits"](logits, value, reduction="none")
        return -bce + self._cont_bern_log_norm()

    def cdf(self, value: Any) -> Tensor:
        if self.validating:
            value = _validate_sample(
                self,
                value,
                "Interval(lower_bound=0.0, upper_bound=1.0)",
                lambda v: (v >= 0) & (v <= 1),
            )
        cut = self._cut_probs()
        cdfs = (_T["pow"](cut, value) * _T["pow"](1.0 - cut, 1.0 - value) + cut - 1.0) / (
            2.0 * cut - 1.0
        )
        unbounded = _T["where"](self._outside(), cdfs, value)
        return _T["where"](
            _M["le"](value, 0.0),
            _T["zeros_like"](value),
            _T["where"](_M["ge"](value, 1.0), _T["ones_like"](value), unbounded),
        )

    def icdf(self, value: Any) -> Tensor:
        value = _value(value, self, check=False)
        cut = self._cut_probs()
        inside = (_T["log1p"](-cut + value * (2.0 * cut - 1.0)) - _T["log1p"](-cut)) / (
            _T["log"](cut) - _T["log1p"](-cut)
        )
        return _T["where"](self._outside(), inside, value)

    def entropy(self) -> Tensor:
        log_probs0 = _T["log1p"](-self.probs)
        log_probs1 = _T["log"](self.probs)
        return self.mean * (log_probs0 - log_probs1) - self._cont_bern_log_norm() - log_probs0


class FisherSnedecor(Distribution):
    """PyTorch's FisherSnedecor: the ratio of two Gamma draws (Gamma(df1 / 2, df1) over
    Gamma(df2 / 2, df2)), both clamped to the dtype's tiny in place."""

    NAME = "FisherSnedecor"
    PARAMS = ("df1", "df2")
    has_rsample = True

    def __init__(self, df1: Any, df2: Any, validate_args: Any = None) -> None:
        self.df1, self.df2 = _broadcast_all(df1, df2)
        self._gamma1 = DS.Gamma(self.df1 * 0.5, self.df1)
        self._gamma2 = DS.Gamma(self.df2 * 0.5, self.df2)
        self.batch = tuple(self.df1.shape)
        if validate_args is not False:
            for p in self.PARAMS:
                t = getattr(self, p)
                self._check(p, t, t.data > 0, _POSITIVE)

    def _nan_where(self, t: Tensor, mask: Tensor) -> Tensor:
        from .indexing import setitem

        setitem(t, mask, math.nan)
        return t

    @property
    def mean(self) -> Tensor:
        df2 = _M["clone"](self.df2)
        df2 = self._nan_where(df2, _M["le"](df2, 2))
        return df2 / (df2 - 2)

    @property
    def mode(self) -> Tensor:
        mode = (self.df1 - 2) / self.df1 * self.df2 / (self.df2 + 2)
        return self._nan_where(mode, _M["le"](self.df1, 2))

    @property
    def variance(self) -> Tensor:
        df2 = _M["clone"](self.df2)
        df2 = self._nan_where(df2, _M["le"](df2, 4))
        return (
            2
            * _M["pow"](df2, 2)
            * (self.df1 + df2 - 2)
            / (self.df1 * _M["pow"](df2 - 2, 2) * (df2 - 4))
        )

    @property
    def stddev(self) -> Tensor:
        return _M["sqrt"](self.variance)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        x1 = _M["view"](self._gamma1.rsample(sample_shape), *shape)
        x2 = _M["view"](self._gamma2.rsample(sample_shape), *shape)
        tiny = float(np.finfo(x2.dtype).tiny)
        _M["clamp_"](x2, min=tiny)
        y = x1 / x2
        _M["clamp_"](y, min=tiny)
        return y

    def log_prob(self, value: Any) -> Tensor:
        if self.validating:
            value = _validate_sample(self, value, _POSITIVE, lambda v: v > 0)
        else:
            value = _value(value, self, check=False)
        ct1 = self.df1 * 0.5
        ct2 = self.df2 * 0.5
        ct3 = self.df1 / self.df2
        t1 = _M["lgamma"](ct1 + ct2) - _M["lgamma"](ct1) - _M["lgamma"](ct2)
        t2 = ct1 * _M["log"](ct3) + (ct1 - 1) * _T["log"](value)
        t3 = (ct1 + ct2) * _T["log1p"](ct3 * value)
        return t1 + t2 - t3


class ExpRelaxedCategorical(Distribution):
    """PyTorch's ExpRelaxedCategorical (the base of RelaxedOneHotCategorical): the log of a
    Gumbel-softmax draw, (logits + gumbel) / temperature normalized by its logsumexp."""

    NAME = "ExpRelaxedCategorical"
    PARAMS = ()
    PROGRAM_DATA = (*Distribution.PROGRAM_DATA, "param_shape")

    @property
    def param_shape(self) -> Any:
        return self._categorical.param_shape

    has_rsample = True

    def __init__(
        self, temperature: Any, probs: Any = None, logits: Any = None, validate_args: Any = None
    ) -> None:
        self._categorical = DS.Categorical(probs, logits)
        self.temperature = temperature
        self.batch = self._categorical.batch
        self.event = tuple(self._categorical._probs.shape[-1:])

    def program_attribute(self, attr: str) -> Any:
        if attr in ("temperature", "probs", "logits"):
            return getattr(self, attr)
        return super().program_attribute(attr)

    @property
    def probs(self) -> Tensor:
        return self._categorical.probs

    @property
    def logits(self) -> Tensor:
        return self._categorical.logits

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        uniforms = _clamp_probs(_T["rand"](shape, dtype=self.logits.dtype))
        gumbels = -_M["log"](-_M["log"](uniforms))
        scores = (self.logits + gumbels) / self.temperature
        return scores - _M["logsumexp"](scores, -1, True)

    def log_prob(self, value: Any) -> Tensor:
        k = self._categorical.events
        if self.validating:
            value = _validate_sample(self, value, "IndependentConstraint(Real(), 1)")
        logits, value = _broadcast_all(self.logits, value)
        temperature = self.temperature
        if not isinstance(temperature, Tensor):
            temperature = _T["tensor"](float(temperature))
        log_scale = _M["lgamma"](_T["full_like"](temperature, float(k))) - _M["mul"](
            _M["log"](temperature), -(k - 1)
        )
        score = logits - _M["mul"](value, temperature)
        score = _M["sum"](score - _M["logsumexp"](score, -1, True), -1)
        return score + log_scale


class RelaxedOneHotCategorical(_Named):
    """PyTorch's RelaxedOneHotCategorical: an ExpRelaxedCategorical through exp (a point on
    the simplex, differentiable in the logits: the Gumbel-softmax trick)."""

    NAME = "RelaxedOneHotCategorical"
    PARAMS = ()
    OWN = ("temperature", "probs", "logits", "base_dist")
    SUPPORT = ("Simplex()", None)

    def __init__(
        self, temperature: Any, probs: Any = None, logits: Any = None, validate_args: Any = None
    ) -> None:
        base = ExpRelaxedCategorical(temperature, probs, logits, validate_args=validate_args)
        super().__init__(base, ExpTransform(), validate_args=validate_args)

    def _support(self) -> tuple[str, Any]:
        def ok(v: Any) -> Any:
            return np.all(v >= 0, axis=-1) & (np.abs(v.sum(-1) - 1) < 1e-6)

        return ("Simplex()", ok)

    @property
    def temperature(self) -> Any:
        return self.base_dist.temperature

    @property
    def probs(self) -> Tensor:
        return self.base_dist.probs

    @property
    def logits(self) -> Tensor:
        return self.base_dist.logits


class StickBreakingTransform(Transform):
    """Unconstrained vectors of n to the simplex of n + 1 by stick breaking: z =
    sigmoid(x - log(n + 1 - i)) clipped, y = (z, 1) * (1, cumprod(1 - z))."""

    domain_event_dim = 1
    codomain_event_dim = 1
    codomain = ("Simplex()", None)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StickBreakingTransform)

    __hash__ = object.__hash__

    def _call(self, x: Tensor) -> Tensor:
        offset = (x.shape[-1] + 1) - _M["cumsum"](_M["new_ones"](x, (x.shape[-1],)), -1)
        info = np.finfo(x.dtype)
        z = _M["clamp"](
            _T["sigmoid"](x - _M["log"](offset)), min=float(info.tiny), max=1.0 - float(info.eps)
        )
        z_cumprod = _M["cumprod"](1 - z, -1)
        return _F["pad"](z, [0, 1], value=1) * _F["pad"](z_cumprod, [1, 0], value=1)

    def _inverse(self, y: Tensor) -> Tensor:
        from .indexing import getitem

        y_crop = getitem(y, (Ellipsis, slice(None, -1)))
        offset = y.shape[-1] - _M["cumsum"](_M["new_ones"](y, (y_crop.shape[-1],)), -1)
        sf = 1 - _M["cumsum"](y_crop, -1)
        sf = _T["clamp"](sf, min=float(np.finfo(y.dtype).tiny))
        return _M["log"](y_crop) - _M["log"](sf) + _M["log"](offset)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        from .indexing import getitem

        offset = (x.shape[-1] + 1) - _M["cumsum"](_M["new_ones"](x, (x.shape[-1],)), -1)
        x = x - _M["log"](offset)
        y_crop = getitem(y, (Ellipsis, slice(None, -1)))
        return _M["sum"](-x + _F["logsigmoid"](x) + _M["log"](y_crop), -1)

    def forward_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        if len(shape) < 1:
            raise GradcliError("Too few dimensions on input").mirror("ValueError")
        return tuple(shape[:-1]) + (shape[-1] + 1,)

    def inverse_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        if len(shape) < 1:
            raise GradcliError("Too few dimensions on input").mirror("ValueError")
        return tuple(shape[:-1]) + (shape[-1] - 1,)


class LogisticNormal(_Named):
    """PyTorch's LogisticNormal: a Normal (made one-dimensional if it is a scalar) through the
    stick-breaking transform, a point of the simplex of one more coordinate."""

    NAME = "LogisticNormal"
    PARAMS = ()
    OWN = ("loc", "scale", "base_dist")

    def __init__(self, loc: Any, scale: Any, validate_args: Any = None) -> None:
        base = DS.Normal(loc, scale, validate_args=validate_args)
        if not base.batch:
            base = base.expand((1,))
        super().__init__(base, StickBreakingTransform(), validate_args=validate_args)

    def _support(self) -> tuple[str, Any]:
        def ok(v: Any) -> Any:
            return np.all(v >= 0, axis=-1) & (np.abs(v.sum(-1) - 1) < 1e-6)

        return ("Simplex()", ok)

    @property
    def loc(self) -> Tensor:
        return self.base_dist.base_dist.loc

    @property
    def scale(self) -> Tensor:
        return self.base_dist.base_dist.scale


_I0_SMALL = (1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.360768e-1, 0.45813e-2)
_I0_LARGE = (
    0.39894228,
    0.1328592e-1,
    0.225319e-2,
    -0.157565e-2,
    0.916281e-2,
    -0.2057706e-1,
    0.2635537e-1,
    -0.1647633e-1,
    0.392377e-2,
)
_I1_SMALL = (0.5, 0.87890594, 0.51498869, 0.15084934, 0.2658733e-1, 0.301532e-2, 0.32411e-3)
_I1_LARGE = (
    0.39894228,
    -0.3988024e-1,
    -0.362018e-2,
    0.163801e-2,
    -0.1031555e-1,
    0.2282967e-1,
    -0.2895312e-1,
    0.1787654e-1,
    -0.420059e-2,
)


def _eval_poly(y: Tensor, coef: tuple[float, ...]) -> Tensor:
    result: Any = coef[-1]
    for c in reversed(coef[:-1]):
        result = c + y * result
    return result


def _log_bessel(x: Tensor, order: int) -> Tensor:
    """log I_order(x) for x > 0 (order 0 or 1) by the polynomial approximations PyTorch's
    von_mises uses (Abramowitz and Stegun), small and large x."""
    y = x / 3.75
    y = y * y
    small = _eval_poly(y, _I1_SMALL if order else _I0_SMALL)
    if order == 1:
        small = _M["abs"](x) * small
    small = _M["log"](small)
    y = 3.75 / x
    large = x - 0.5 * _M["log"](x) + _M["log"](_eval_poly(y, _I1_LARGE if order else _I0_LARGE))
    return _T["where"](_M["lt"](x, 3.75), small, large)


_VON_MISES_ROUNDS = 1_000  # rejection rounds (each accepts at least 65% of what is left)


class VonMises(Distribution):
    """PyTorch's VonMises: log_prob by its Bessel approximations; sample by Best and Fisher's
    rejection sampler in float64 (three uniforms a round over the whole shape), no rsample."""

    NAME = "VonMises"
    PARAMS = ("loc", "concentration")

    def __init__(self, loc: Any, concentration: Any, validate_args: Any = None) -> None:
        self.loc, self.concentration = _broadcast_all(loc, concentration)
        self.batch = tuple(self.loc.shape)
        if validate_args is not False:
            self._check("loc", self.loc, self.loc.data == self.loc.data, "Real()")
            c = self.concentration
            self._check("concentration", c, c.data > 0, _POSITIVE)

    def log_prob(self, value: Any) -> Tensor:
        if self.validating:
            value = _validate_sample(self, value, "Real()")
        else:
            value = _value(value, self, check=False)
        log_prob = self.concentration * _T["cos"](value - self.loc)
        return log_prob - math.log(2 * math.pi) - _log_bessel(self.concentration, 0)

    def _proposal_r(self, kappa: Tensor) -> Tensor:
        tau = 1 + _M["sqrt"](1 + 4 * kappa**2)
        rho = (tau - _M["sqrt"](2 * tau)) / (2 * kappa)
        proposal = (1 + rho**2) / (2 * rho)
        taylor = 1 / kappa + kappa
        return _T["where"](_M["lt"](kappa, 1e-5), taylor, proposal)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        with no_grad():
            loc = _M["double"](self.loc)
            kappa = _M["to"](self.concentration, loc.dtype)
            r = self._proposal_r(kappa)
            x = _T["zeros"](shape, dtype=loc.dtype)
            done = _T["zeros"](shape, dtype=np.bool_)
            rounds = 0
            while not bool(np.all(done.data)):
                rounds += 1
                if rounds > _VON_MISES_ROUNDS:
                    raise GradcliError(
                        f"VonMises.sample: no acceptance after {_VON_MISES_ROUNDS:,} rounds of "
                        "the rejection sampler",
                        hint="check the concentration (a positive, finite number)",
                    )
                u = _T["rand"]((3,) + shape, dtype=loc.dtype)
                u1, u2, u3 = _M["unbind"](u)
                z = _T["cos"](math.pi * u1)
                f = (1 + r * z) / (r + z)
                c = kappa * (r - f)
                accept = _M["bitwise_or"](
                    _M["gt"](c * (2 - c) - u2, 0), _M["ge"](_M["log"](c / u2) + 1 - c, 0)
                )
                if bool(np.any(accept.data)):
                    x = _T["where"](accept, _M["sign"](u3 - 0.5) * _M["acos"](f), x)
                    done = _M["bitwise_or"](done, accept)
            out = (x + math.pi + loc) % (2 * math.pi) - math.pi
            return _M["to"](out, self.loc.dtype)

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        c = self.concentration
        return 1 - _M["exp"](_log_bessel(c, 1) - _log_bessel(c, 0))

    @property
    def stddev(self) -> Tensor:
        return _M["sqrt"](self.variance)


class GeneralizedPareto(Distribution):
    """PyTorch's GeneralizedPareto (loc, scale, concentration): log_prob, the survival
    function, cdf and icdf with concentration near 0 (isclose) taken as the exponential
    limit; rsample is icdf of torch.rand as PyTorch draws; mean / variance NaN where they do
    not exist; the support an interval whose upper bound is finite for concentration < 0."""

    NAME = "GeneralizedPareto"
    PARAMS = ("loc", "scale", "concentration")
    PROGRAM_METHODS = Distribution.PROGRAM_METHODS + ("log_cdf", "log_survival_function")
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, concentration: Any, validate_args: Any = None) -> None:
        self.loc, self.scale, self.concentration = _broadcast_all(loc, scale, concentration)
        self.batch = tuple(self.loc.shape)
        if validate_args is not False:
            self._check("loc", self.loc, self.loc.data == self.loc.data, "Real()")
            self._check("scale", self.scale, self.scale.data > 0, _POSITIVE)
            c = self.concentration
            self._check("concentration", c, c.data == c.data, "Real()")

    def _upper(self) -> Tensor:
        c = self.concentration
        return _T["where"](_M["lt"](c, 0), self.loc - self.scale / c, math.inf)

    def _value_in_support(self, value: Any) -> Tensor:
        if not self.validating:
            return _value(value, self, check=False)
        lo, hi = self.loc.data, self._upper().data
        return _validate_sample(
            self,
            value,
            f"Interval(lower_bound={DS._shown(self.loc)}, upper_bound={DS._shown(self._upper())})",
            lambda v: (lo <= v) & (v <= hi),
        )

    def _safe(self, zero: Any = None) -> tuple[Tensor, Tensor]:
        # (log_prob and the survival function compare with a float32 zero, as PyTorch's do:
        # other dtypes' concentration raise isclose's "Double did not match Float")
        c = self.concentration
        eq_zero = _T["isclose"](c, _T["zeros_like"](c) if zero is None else _T["tensor"](0.0))
        return eq_zero, _T["where"](eq_zero, _T["ones_like"](c), c)

    def log_prob(self, value: Any) -> Tensor:
        value = self._value_in_support(value)
        z = (value - self.loc) / self.scale
        eq_zero, safe = self._safe(0.0)
        y = 1 / safe + _T["ones_like"](z)
        nonzero = _T["where"](_M["eq"](y, 0), y, y * _T["log1p"](safe * z))
        return -_M["log"](self.scale) - _T["where"](eq_zero, z, nonzero)

    def log_survival_function(self, value: Any) -> Tensor:
        value = self._value_in_support(value)
        z = (value - self.loc) / self.scale
        eq_zero, safe = self._safe(0.0)
        return _T["where"](eq_zero, -z, -_T["log1p"](safe * z) / safe)

    def log_cdf(self, value: Any) -> Tensor:
        return _T["log1p"](-_T["exp"](self.log_survival_function(value)))

    def cdf(self, value: Any) -> Tensor:
        return _T["exp"](self.log_cdf(value))

    def icdf(self, value: Any) -> Tensor:
        value = _value(value, self, check=False)
        eq_zero, safe = self._safe()
        logu = _T["log1p"](-value)
        nonzero = self.loc + self.scale / safe * _T["expm1"](-safe * logu)
        return _T["where"](eq_zero, self.loc - self.scale * logu, nonzero)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        return self.icdf(_T["rand"](shape, dtype=self.loc.dtype))

    @property
    def mean(self) -> Tensor:
        c = self.concentration
        valid = _M["lt"](c, 1)
        result = self.loc + self.scale / (1 - _T["where"](valid, c, 0.5))
        return _T["where"](valid, result, math.nan)

    @property
    def variance(self) -> Tensor:
        c = self.concentration
        valid = _M["lt"](c, 0.5)
        safe = _T["where"](valid, c, 0.25)
        result = _M["pow"](self.scale, 2) / (_M["pow"](1 - safe, 2) * (1 - 2 * safe))
        return _T["where"](valid, result, math.nan)

    @property
    def stddev(self) -> Tensor:
        return _M["sqrt"](self.variance)

    @property
    def mode(self) -> Tensor:
        return self.loc

    def entropy(self) -> Tensor:
        ans = _M["log"](self.scale) + self.concentration + 1
        return _T["broadcast_to"](ans, self.batch)


class InverseGamma(_Named):
    """PyTorch's InverseGamma: a Gamma through PowerTransform(-1)."""

    NAME = "InverseGamma"
    PARAMS = ()
    OWN = ("concentration", "rate", "base_dist")
    SUPPORT = (_POSITIVE, lambda v: v > 0)

    def __init__(self, concentration: Any, rate: Any, validate_args: Any = None) -> None:
        base = DS.Gamma(concentration, rate, validate_args=validate_args)
        neg_one = -_M["new_ones"](base.rate, ())
        super().__init__(base, PowerTransform(neg_one), validate_args=validate_args)

    @property
    def concentration(self) -> Tensor:
        return self.base_dist.concentration

    @property
    def rate(self) -> Tensor:
        return self.base_dist.rate

    @property
    def mean(self) -> Tensor:
        result = self.rate / (self.concentration - 1)
        return _T["where"](_M["gt"](self.concentration, 1), result, math.inf)

    @property
    def mode(self) -> Tensor:
        return self.rate / (self.concentration + 1)

    @property
    def variance(self) -> Tensor:
        c = self.concentration
        result = _M["square"](self.rate) / (_M["square"](c - 1) * (c - 2))
        return _T["where"](_M["gt"](c, 2), result, math.inf)

    def entropy(self) -> Tensor:
        c = self.concentration
        return c + _M["log"](self.rate) + _M["lgamma"](c) - (1 + c) * _M["digamma"](c)


class OneHotCategoricalStraightThrough(DS.OneHotCategorical):
    """PyTorch's straight-through one-hot draw: the sample plus probs - probs.detach() (its
    value the one-hot sample, its gradient the probabilities')."""

    NAME = "OneHotCategoricalStraightThrough"
    has_rsample = True

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        samples = self.sample(sample_shape)
        probs = self._categorical.probs
        return samples + (probs - _M["detach"](probs))


def _corr_cholesky_ok(v: Any) -> Any:
    """PyTorch's corr_cholesky check: lower triangular, positive diagonal, rows of unit norm
    (within 10 n eps)."""
    tol = float(np.finfo(v.dtype).eps) * v.shape[-1] * 10
    lower = np.all((np.tril(v) == v).reshape(v.shape[:-2] + (-1,)), -1)
    diag = np.all(np.diagonal(v, 0, -2, -1) > 0, -1)
    unit = np.all(np.abs(np.linalg.norm(v, axis=-1) - 1.0) <= tol, -1)
    return lower & diag & unit


def _simplex_ok(v: Any) -> Any:
    """PyTorch's simplex check: nonnegative, summing to 1 within 1e-6 over the last dim."""
    return np.all(v >= 0, -1) & (np.abs(v.sum(-1) - 1) < 1e-6)


class SoftmaxTransform(Transform):
    """Unconstrained vectors to the simplex by exp then normalizing (the max subtracted first);
    its inverse is log (not bijective: no log |det J|, as PyTorch's)."""

    bijective = False
    domain_event_dim = 1
    codomain_event_dim = 1
    codomain = ("Simplex()", _simplex_ok)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SoftmaxTransform)

    __hash__ = object.__hash__

    def _call(self, x: Tensor) -> Tensor:
        probs = _M["exp"](x - _M["amax"](x, -1, True))
        return probs / _M["sum"](probs, -1, True)

    def _inverse(self, y: Tensor) -> Tensor:
        return _M["log"](y)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        # PyTorch's Transform.log_abs_det_jacobian: NotImplementedError without a message
        raise (
            GradcliError(
                "",
                found="SoftmaxTransform.log_abs_det_jacobian",
                hint="PyTorch's SoftmaxTransform is not a bijection (no log |det J|): "
                "StickBreakingTransform has one",
            )
            .mirror("NotImplementedError")
            .pytorch()
        )

    def forward_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        if len(shape) < 1:
            raise GradcliError("Too few dimensions on input").mirror("ValueError")
        return tuple(shape)

    inverse_shape = forward_shape


def _tril_places(n: int, diag: int) -> np.ndarray:
    """The flat places (row-major) of an n x n matrix's entries on or below diagonal `diag`."""
    from ..base import limits

    limits.TENSOR_ELEMENTS.check(n * n, f"a {n} x {n} triangular matrix")
    rows, cols = np.indices((n, n), dtype=np.int32)
    return np.flatnonzero(cols < rows + (diag + 1))


def _vec_to_tril(vec: Tensor, diag: int) -> Tensor:
    """torch.distributions.utils.vec_to_tril_matrix: the vector's entries, in row order, on or
    below diagonal `diag` of a square matrix, zeros elsewhere."""
    m = vec.shape[-1]
    b = 1 + 2 * diag
    n = (-b + (b * b + 8 * m + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if round(n) - n > float(np.finfo(vec.dtype).eps):
        raise GradcliError(
            f"The size of last dimension is {m} which cannot be expressed as the lower "
            "triangular part of a square D x D matrix."
        ).mirror("ValueError")
    n = round(n)
    places = _tril_places(n, diag)
    if places.size != m:  # (PyTorch's assignment into the masked places refuses it)
        raise GradcliError(
            f"shape mismatch: value tensor of shape [{m}] cannot be broadcast to indexing "
            f"result of shape [{places.size}]"
        ).pytorch()
    where = np.full(n * n, m, dtype=np.int64)  # (m: the zero padded on at the end)
    where[places] = np.arange(m)
    padded = _F["pad"](vec, [0, 1], value=0.0)
    flat = _T["index_select"](padded, -1, _T["tensor"](where))
    return _M["reshape"](flat, tuple(vec.shape[:-1]) + (n, n))


def _tril_to_vec(mat: Tensor, diag: int) -> Tensor:
    """torch.distributions.utils.tril_matrix_to_vec: the entries on or below `diag`, row order."""
    n = mat.shape[-1]
    flat = _M["reshape"](mat, tuple(mat.shape[:-2]) + (n * n,))
    return _T["index_select"](flat, -1, _T["tensor"](_tril_places(n, diag)))


class CorrCholeskyTransform(Transform):
    """Unconstrained vectors of D (D - 1) / 2 to Cholesky factors of D x D correlation
    matrices: tanh into (-1, 1), laid out below the diagonal in row order, then a signed stick
    breaking along each row (rows of unit norm, positive diagonal)."""

    domain_event_dim = 1
    codomain_event_dim = 2
    codomain = ("CorrCholesky()", _corr_cholesky_ok)
    # (no __eq__ of its own, as PyTorch's: two of them are equal only if they are one)

    def _call(self, x: Tensor) -> Tensor:
        from .indexing import getitem

        x = _M["tanh"](x)
        eps = float(np.finfo(x.dtype).eps)
        x = _M["clamp"](x, min=-1 + eps, max=1 - eps)
        r = _vec_to_tril(x, -1)
        z = r**2
        z1m_cumprod_sqrt = _M["cumprod"](_M["sqrt"](1 - z), -1)
        r = r + _T["eye"](r.shape[-1], dtype=r.dtype)
        return r * _F["pad"](
            getitem(z1m_cumprod_sqrt, (Ellipsis, slice(None, -1))), [1, 0], value=1
        )

    def _inverse(self, y: Tensor) -> Tensor:
        from .indexing import getitem

        y_cumsum = 1 - _T["cumsum"](y * y, -1)
        shifted = _F["pad"](getitem(y_cumsum, (Ellipsis, slice(None, -1))), [1, 0], value=1)
        t = _tril_to_vec(y, -1) / _M["sqrt"](_tril_to_vec(shifted, -1))
        return (_M["log1p"](t) - _M["log1p"](_M["neg"](t))) / 2

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        y1m_cumsum = 1 - _M["cumsum"](y * y, -1)
        stick_breaking = 0.5 * _M["sum"](_M["log"](_tril_to_vec(y1m_cumsum, -2)), -1)
        tanh = -2 * _M["sum"](x + _F["softplus"](-2 * x) - math.log(2.0), -1)
        return stick_breaking + tanh

    def forward_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        if len(shape) < 1:
            raise GradcliError("Too few dimensions on input").mirror("ValueError")
        n = shape[-1]
        d = round((0.25 + 2 * n) ** 0.5 + 0.5)
        if d * (d - 1) // 2 != n:
            raise GradcliError("Input is not a flattened lower-diagonal number").mirror(
                "ValueError"
            )
        return tuple(shape[:-1]) + (d, d)

    def inverse_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        if len(shape) < 2:
            raise GradcliError("Too few dimensions on input").mirror("ValueError")
        if shape[-2] != shape[-1]:
            raise GradcliError("Input is not square").mirror("ValueError")
        d = shape[-1]
        return tuple(shape[:-2]) + (d * (d - 1) // 2,)


def _lower_cholesky_ok(v: Any) -> Any:
    from .dist_constraints import lower_cholesky

    return lower_cholesky.check(v)


def _positive_definite_ok(v: Any) -> Any:
    from .dist_constraints import positive_definite

    return positive_definite.check(v)


class LowerCholeskyTransform(Transform):
    """Unconstrained square matrices to lower-triangular ones with a positive diagonal: the
    part below the diagonal kept, the diagonal exponentiated (no log |det J|, as PyTorch's)."""

    bijective = False  # (PyTorch's Transform default: this one does not say otherwise)
    domain_event_dim = 2
    codomain_event_dim = 2
    codomain = ("LowerCholesky()", _lower_cholesky_ok)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LowerCholeskyTransform)

    __hash__ = object.__hash__

    def _call(self, x: Tensor) -> Tensor:
        diag = _M["exp"](_M["diagonal"](x, 0, -2, -1))
        return _M["tril"](x, -1) + _T["diag_embed"](diag)

    def _inverse(self, y: Tensor) -> Tensor:
        diag = _M["log"](_M["diagonal"](y, 0, -2, -1))
        return _M["tril"](y, -1) + _T["diag_embed"](diag)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        raise GradcliError("").mirror("NotImplementedError").pytorch()


class PositiveDefiniteTransform(Transform):
    """Unconstrained square matrices to positive-definite ones: L L^T of the matrix's
    LowerCholeskyTransform; its inverse the Cholesky factor taken back."""

    bijective = False
    domain_event_dim = 2
    codomain_event_dim = 2
    codomain = ("PositiveDefinite()", _positive_definite_ok)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PositiveDefiniteTransform)

    __hash__ = object.__hash__

    def _call(self, x: Tensor) -> Tensor:
        factor = LowerCholeskyTransform()(x)
        return _T["matmul"](factor, _M["transpose"](factor, -2, -1))

    def _inverse(self, y: Tensor) -> Tensor:
        return LowerCholeskyTransform().inv(N.LINALG["cholesky"](y))

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        raise GradcliError("").mirror("NotImplementedError").pytorch()


class CatTransform(Transform):
    """PyTorch's CatTransform: the i-th transform on the i-th block of `lengths[i]` entries
    along `dim` (blocks of one when lengths is None), concatenated back; log |det J| the
    blocks' concatenated along dim when dim is a batch dimension, else summed."""

    def __init__(self, tseq: Any, dim: Any = 0, lengths: Any = None, cache_size: int = 0) -> None:
        from .dist_constraints import _lengths

        if not isinstance(tseq, (list, tuple)) or not all(isinstance(t, Transform) for t in tseq):
            raise GradcliError("All elements of tseq must be Transform instances").mirror(
                "AssertionError"
            )
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size)
        self.transforms = list(tseq)
        self.lengths = _lengths(lengths, len(self.transforms), "transforms")
        if isinstance(dim, bool) or not isinstance(dim, int):
            raise GradcliError(f"CatTransform's dim must be an int, not {typename(dim)}").mirror(
                "TypeError"
            )
        self.dim = dim

    def program_attribute(self, attr: str) -> Any:
        if attr in ("transforms", "dim", "lengths", "length", "with_cache"):
            return getattr(self, attr)
        return super().program_attribute(attr)

    @property
    def length(self) -> int:
        return sum(self.lengths)

    @property
    def event_dim(self) -> int:  # type: ignore[override]
        return max((t.event_dim for t in self.transforms), default=0)

    @property
    def domain_event_dim(self) -> int:  # type: ignore[override]
        return self.event_dim

    @property
    def codomain_event_dim(self) -> int:  # type: ignore[override]
        return self.event_dim

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        return all(t.bijective for t in self.transforms)

    def domain_constraint(self) -> Any:
        from .dist_constraints import CatConstraint

        parts = [t.domain_constraint() for t in self.transforms]
        return CatConstraint(parts, self.dim, self.lengths)

    def codomain_constraint(self) -> Any:
        from .dist_constraints import CatConstraint

        parts = [t.codomain_constraint() for t in self.transforms]
        return CatConstraint(parts, self.dim, self.lengths)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return CatTransform(self.transforms, self.dim, self.lengths, cache_size)

    def _blocks(self, z: Tensor, what: str, name: str) -> list[Tensor]:
        if not -z.ndim <= self.dim < z.ndim:
            raise GradcliError(
                f"dim {self.dim} out of range for {what}tensor with {z.ndim} dimensions"
                if not what
                else f"dim {self.dim} out of range for {what} with {z.ndim} dimensions"
            ).mirror("AssertionError")
        if z.shape[self.dim] != self.length:
            raise GradcliError(
                f"{name}.size({self.dim}) = {z.shape[self.dim]} must equal length {self.length}"
            ).mirror("AssertionError")
        out, start = [], 0
        for n in self.lengths:
            out.append(_M["narrow"](z, self.dim, start, n))
            start += n
        return out

    def _call(self, x: Tensor) -> Tensor:
        parts = self._blocks(x, "", "x")
        return _T["cat"]([t(p) for p, t in zip(parts, self.transforms)], dim=self.dim)

    def _inverse(self, y: Tensor) -> Tensor:
        parts = self._blocks(y, "", "y")
        return _T["cat"]([t.inv(p) for p, t in zip(parts, self.transforms)], dim=self.dim)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        xs = self._blocks(x, "x", "x")
        ys = self._blocks(y, "y", "y")
        event_dim = self.event_dim
        terms = []
        for t, a, b in zip(self.transforms, xs, ys):
            term = t.log_abs_det_jacobian(a, b)
            if t.event_dim < event_dim:
                term = DS._sum_rightmost(term, event_dim - t.event_dim)
            terms.append(term)
        dim = (self.dim - x.ndim if self.dim >= 0 else self.dim) + event_dim
        if dim < 0:
            return _T["cat"](terms, dim=dim)
        total: Any = 0  # (Python's sum, as PyTorch's)
        for term in terms:
            total = total + term
        return total

    def __eq__(self, other: object) -> bool:
        return self is other

    __hash__ = object.__hash__


class LKJCholesky(Distribution):
    """PyTorch's LKJCholesky: Cholesky factors of correlation matrices, drawn by the onion
    method (a Beta draw per row, a direction from normals), log_prob in closed form."""

    NAME = "LKJCholesky"
    PARAMS = ("concentration",)

    def __init__(self, dim: Any, concentration: Any = 1.0, validate_args: Any = None) -> None:
        if isinstance(dim, bool) or not isinstance(dim, int):
            raise GradcliError(
                f"LKJCholesky's dim must be an int, not {type(dim).__name__}"
            ).mirror("TypeError")
        if dim < 2:
            raise GradcliError(
                f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}."
            ).mirror("ValueError")
        self.dim = dim
        (self.concentration,) = _broadcast_all(concentration)
        self.batch = tuple(self.concentration.shape)
        self.event = (dim, dim)
        marginal_conc = self.concentration + 0.5 * (dim - 2)
        offset = _T["arange"](dim - 1, dtype=self.concentration.dtype)
        offset = _T["cat"]([_M["new_zeros"](offset, (1,)), offset])
        beta_conc1 = offset + 0.5
        beta_conc0 = _M["unsqueeze"](marginal_conc, -1) - 0.5 * offset
        self._beta = DS.Beta(beta_conc1, beta_conc0)
        if validate_args is not False:
            c = self.concentration
            self._check("concentration", c, c.data > 0, _POSITIVE)

    def program_attribute(self, attr: str) -> Any:
        if attr == "dim":
            return self.dim
        return super().program_attribute(attr)

    def _inner_batch(self, name: str, shape: tuple[int, ...]) -> tuple[int, ...]:
        return shape + (self.dim,)  # (a Beta per row)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        from .indexing import setitem

        y = _M["unsqueeze"](self._beta.sample(sample_shape), -1)
        u_normal = _M["tril"](_T["randn"](self._extended(sample_shape), dtype=y.dtype), -1)
        u_hypersphere = u_normal / _M["norm"](u_normal, dim=-1, keepdim=True)
        setitem(u_hypersphere, (Ellipsis, 0, slice(None)), 0.0)
        w = _M["sqrt"](y) * u_hypersphere
        eps = float(np.finfo(w.dtype).tiny)
        diag_elems = _M["sqrt"](_T["clamp"](1 - _T["sum"](w**2, -1), min=eps))
        return w + _T["diag_embed"](diag_elems)

    def log_prob(self, value: Any) -> Tensor:
        if self.validating:
            value = _validate_sample(self, value, "CorrCholesky()", _corr_cholesky_ok)
        else:
            value = _value(value, self, check=False)
        from .indexing import getitem

        diag_elems = getitem(_M["diagonal"](value, 0, -1, -2), (Ellipsis, slice(1, None)))
        order = _T["arange"](2, self.dim + 1)
        order = 2 * _M["unsqueeze"](self.concentration - 1, -1) + self.dim - order
        unnormalized = _T["sum"](order * _M["log"](diag_elems), -1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        denominator = _T["lgamma"](alpha) * dm1
        numerator = _T["mvlgamma"](alpha - 0.5, dm1)
        pi_constant = 0.5 * dm1 * math.log(math.pi)
        return unnormalized - (pi_constant + numerator - denominator)


_LOG_2 = math.log(2)
_WISHART_TRIES = 10_000  # redraw rounds of Wishart.rsample's singular-sample correction


def _positive_definite(v: np.ndarray) -> np.ndarray:
    """PyTorch's positive_definite check (cholesky_ex's info == 0), per matrix."""
    flat = v.reshape((-1,) + v.shape[-2:])
    ok = np.empty(flat.shape[0], dtype=bool)
    for k, m in enumerate(flat):
        try:
            np.linalg.cholesky(m)
            ok[k] = bool(np.all(np.isfinite(m)))
        except np.linalg.LinAlgError:
            ok[k] = False
    return ok.reshape(v.shape[:-2])


class Wishart(Distribution):
    """PyTorch's Wishart: draws by the Bartlett decomposition (Chi2 square roots on the
    diagonal, normals below it, through the scale's Cholesky factor); PyTorch 2.13's rsample
    then redraws the samples its positive-definiteness check accepts (its `is_singular` is the
    check itself) once, warning "Singular sample detected." — done here the same way, so the
    draws are PyTorch's."""

    NAME = "Wishart"
    PARAMS = ("covariance_matrix", "precision_matrix", "scale_tril", "df")
    has_rsample = True

    def __init__(
        self,
        df: Any,
        covariance_matrix: Any = None,
        precision_matrix: Any = None,
        scale_tril: Any = None,
        validate_args: Any = None,
    ) -> None:
        name, param = DS.one_matrix(
            covariance_matrix, precision_matrix, scale_tril, "AssertionError"
        )
        if not isinstance(param, Tensor):
            raise GradcliError(
                f"Wishart's {name} must be a tensor, not {type(param).__name__}"
            ).mirror("TypeError")
        if param.ndim < 2:
            raise GradcliError(
                "scale_tril must be at least two-dimensional, with optional leading batch "
                "dimensions"
            ).mirror("ValueError")
        if isinstance(df, Tensor):
            batch = tuple(np.broadcast_shapes(tuple(param.shape[:-2]), tuple(df.shape)))
            self.df = _M["expand"](df, *batch) if df.shape != batch else df
        else:
            batch = tuple(param.shape[:-2])
            self.df = _T["tensor"](df, dtype=param.dtype)
        self._df = self.df  # (the name the repr reads)
        p = param.shape[-1]
        self.batch, self.event = batch, tuple(param.shape[-2:])
        if bool(np.any(self.df.data <= p - 1)):
            shown = DS._shown(df) if isinstance(df, Tensor) else repr(df)
            raise GradcliError(
                f"Value of df={shown} expected to be greater than ndim - 1 = {p - 1}."
            ).mirror("ValueError")
        setattr(self, "_" + name, _M["expand"](param, *(batch + (-1, -1))))
        self.shown = {name, "df"}
        if bool(np.any(self.df.data < p)):
            from ..core import hooks

            hooks.warn(
                "Low df values detected. Singular samples are highly likely to occur for "
                "ndim - 1 < df < ndim."
            )
        if validate_args is not False:
            v = getattr(self, "_" + name)
            if name == "scale_tril":
                d = v.data
                ok = np.all((np.tril(d) == d).reshape(d.shape[:-2] + (-1,)), -1) & np.all(
                    np.diagonal(d, 0, -2, -1) > 0, -1
                )
                self._check(name, v, ok, "LowerCholesky()")
            else:
                self._check(name, v, _positive_definite(v.data), "PositiveDefinite()")
            self._check("df", self.df, self.df.data > p - 1, f"GreaterThan(lower_bound={p - 1})")
        if name == "scale_tril":
            self._unbroadcasted_scale_tril = param
        elif name == "covariance_matrix":
            self._unbroadcasted_scale_tril = N.LINALG["cholesky"](param)
        else:
            self._unbroadcasted_scale_tril = DS._precision_to_scale_tril(param)
        self._dist_chi2 = DS.Chi2(
            _M["unsqueeze"](self.df, -1)
            - _M["expand"](
                _T["arange"](p, dtype=self._unbroadcasted_scale_tril.dtype), *(batch + (-1,))
            )
        )

    def program_attribute(self, attr: str) -> Any:
        if attr in ("df", "covariance_matrix", "precision_matrix", "scale_tril"):
            return getattr(self, attr)
        return super().program_attribute(attr)

    def _lazy(self, name: str) -> Tensor:
        if getattr(self, "_" + name, None) is None:
            low = self._unbroadcasted_scale_tril
            if name == "scale_tril":
                v = low
            elif name == "covariance_matrix":
                v = _T["matmul"](low, _M["transpose"](low, -2, -1))
            else:
                v = _T["cholesky_solve"](_T["eye"](self.event[-1], dtype=low.dtype), low)
            setattr(self, "_" + name, _M["expand"](v, *(self.batch + self.event)))
        self.shown.add(name)  # type: ignore[union-attr]
        return getattr(self, "_" + name)

    @property
    def scale_tril(self) -> Tensor:
        return self._lazy("scale_tril")

    @property
    def covariance_matrix(self) -> Tensor:
        return self._lazy("covariance_matrix")

    @property
    def precision_matrix(self) -> Tensor:
        return self._lazy("precision_matrix")

    def _df_view(self) -> Tensor:
        return _M["view"](self.df, *(self.batch + (1, 1)))

    @property
    def mean(self) -> Tensor:
        return self._df_view() * self.covariance_matrix

    @property
    def mode(self) -> Tensor:
        from .indexing import setitem

        factor = self.df - self.covariance_matrix.shape[-1] - 1
        setitem(factor, _M["le"](factor, 0), math.nan)
        return _M["view"](factor, *(self.batch + (1, 1))) * self.covariance_matrix

    @property
    def variance(self) -> Tensor:
        v = self.covariance_matrix
        diag = _M["diagonal"](v, 0, -2, -1)
        outer = _M["unsqueeze"](diag, -1) * _M["unsqueeze"](diag, -2)
        return self._df_view() * (_M["pow"](v, 2) + outer)

    @property
    def stddev(self) -> Tensor:
        return _M["sqrt"](self.variance)

    def _bartlett(self, sample_shape: tuple[int, ...]) -> Tensor:
        from .indexing import setitem

        p = self.event[-1]
        chi = _M["sqrt"](self._dist_chi2.rsample(sample_shape))
        chi = _M["clamp"](chi, min=float(np.finfo(chi.dtype).eps))
        noise = _T["diag_embed"](chi, 0, -2, -1)
        ij = _T["tril_indices"](p, p, -1)
        rows, cols = _M["unbind"](ij)
        draws = _T["randn"](
            tuple(sample_shape) + self.batch + (p * (p - 1) // 2,), dtype=noise.dtype
        )
        setitem(noise, (Ellipsis, rows, cols), draws)
        chol = _T["matmul"](self._unbroadcasted_scale_tril, noise)
        return _T["matmul"](chol, _M["transpose"](chol, -2, -1))

    def _inner_batch(self, name: str, shape: tuple[int, ...]) -> tuple[int, ...]:
        return shape + self.event[-1:]  # (the Chi2 of each diagonal entry)

    def _accepted(self, sample: Tensor) -> np.ndarray:
        ok = _positive_definite(sample.data)
        if self.batch:
            ok = np.max(ok, axis=tuple(-(x + 1) for x in range(len(self.batch))))
        return np.asarray(ok)

    def rsample(self, sample_shape: Any = (), max_try_correction: Any = None) -> Tensor:
        from .indexing import setitem

        tries = 10 if max_try_correction is None else max_try_correction
        if isinstance(tries, bool) or not isinstance(tries, int):
            raise GradcliError(
                f"max_try_correction must be an int, not {type(tries).__name__}"
            ).mirror("TypeError")
        if tries > _WISHART_TRIES:
            raise GradcliError(
                f"Wishart.rsample: max_try_correction={tries:,} redraws, more than gradcli "
                f"allows ({_WISHART_TRIES:,})",
                hint="the default (10) is PyTorch's",
            )
        shape = DS._sample_shape(sample_shape)
        sample = self._bartlett(shape)
        flagged = self._accepted(sample)  # (PyTorch's is_singular: the check, not its negation)
        if bool(np.any(flagged)):
            from ..core import hooks

            hooks.warn("Singular sample detected.")
            for _ in range(tries):
                k = int(np.count_nonzero(flagged))
                new = self._bartlett((k,))
                if flagged.ndim == 0:  # (PyTorch's 0-d mask: a view of all, CopySlices)
                    setitem(sample, None, new)
                else:
                    setitem(sample, Tensor(flagged.copy()), new)
                again = ~self._accepted(new)
                flagged = flagged.copy()
                flagged[flagged] = again
                if not bool(np.any(flagged)):
                    break
        return sample

    def log_prob(self, value: Any) -> Tensor:
        if self.validating:
            value = _validate_sample(self, value, "PositiveDefinite()", _positive_definite)
        else:
            value = _value(value, self, check=False)
        nu = self.df
        p = self.event[-1]
        low = self._unbroadcasted_scale_tril
        log_diag = _M["sum"](_M["log"](_M["diagonal"](low, 0, -2, -1)), -1)
        return (
            -nu * (p * _LOG_2 / 2 + log_diag)
            - _T["mvlgamma"](nu / 2, p)
            + (nu - p - 1) / 2 * N.LINALG["slogdet"](value)[1]
            - _M["sum"](_M["diagonal"](_T["cholesky_solve"](value, low), 0, -2, -1), -1) / 2
        )

    def entropy(self) -> Tensor:
        nu = self.df
        p = self.event[-1]
        low = self._unbroadcasted_scale_tril
        x = nu / 2
        if not bool(np.all(x.data > (p - 1) / 2)):
            raise GradcliError("Wrong domain for multivariate digamma function.").mirror(
                "AssertionError"
            )
        shifts = _M["expand"](
            _M["div"](_T["arange"](p, dtype=x.dtype), 2), *(tuple(x.shape) + (-1,))
        )
        mvdigamma = _M["sum"](_T["digamma"](_M["unsqueeze"](x, -1) - shifts), -1)
        log_diag = _M["sum"](_M["log"](_M["diagonal"](low, 0, -2, -1)), -1)
        return (
            (p + 1) * (p * _LOG_2 / 2 + log_diag)
            + _T["mvlgamma"](x, p)
            - (nu - p - 1) / 2 * mvdigamma
            + nu * p / 2
        )


def _constraint_transform(constraint: Any, bijective: bool) -> Transform:
    """torch.distributions.biject_to / transform_to: the transform from unconstrained reals
    onto a constraint's set, as PyTorch's registry picks it."""
    from . import dist_constraints as C

    if not isinstance(constraint, C.Constraint):
        raise GradcliError(
            f"Cannot transform {type(constraint).__name__} constraints",
            hint="pass a constraint: torch.distributions.constraints.positive",
        ).mirror("NotImplementedError")
    kind = constraint.kind
    bounds = dict(constraint.bounds)
    if kind == "Real":
        return DS.ComposeTransform([])
    if kind == "IndependentConstraint":
        base = _constraint_transform(constraint.base_constraint, bijective)  # type: ignore[attr-defined]
        return DS.IndependentTransform(base, constraint.reinterpreted_batch_ndims)  # type: ignore[attr-defined]
    # (positive and nonnegative too: PyTorch's registry is keyed by the constraint's class,
    # and greater_than's registration is the one it keeps)
    if kind in ("GreaterThan", "GreaterThanEq"):
        return DS.ComposeTransform([ExpTransform(), AffineTransform(bounds["lower_bound"], 1)])
    if kind == "LessThan":
        return DS.ComposeTransform([ExpTransform(), AffineTransform(bounds["upper_bound"], -1)])
    if kind in ("Interval", "HalfOpenInterval"):
        lo, hi = bounds["lower_bound"], bounds["upper_bound"]
        number = (int, float)
        if isinstance(lo, number) and lo == 0 and isinstance(hi, number) and hi == 1:
            return DS.SigmoidTransform()
        return DS.ComposeTransform([DS.SigmoidTransform(), AffineTransform(lo, hi - lo)])
    if kind == "Simplex":
        return StickBreakingTransform() if bijective else SoftmaxTransform()
    if kind == "CorrCholesky":
        return CorrCholeskyTransform()
    # (biject_to has no transform for lower_cholesky or positive_definite, as PyTorch's)
    if not bijective and kind == "LowerCholesky":
        return LowerCholeskyTransform()
    if not bijective and kind == "PositiveDefinite":
        return PositiveDefiniteTransform()
    if kind == "Cat":
        parts = [_constraint_transform(c, bijective) for c in constraint.cseq]  # type: ignore[attr-defined]
        return CatTransform(parts, constraint.dim, constraint.lengths)  # type: ignore[attr-defined]
    if kind == "Stack":
        parts = [_constraint_transform(c, bijective) for c in constraint.cseq]  # type: ignore[attr-defined]
        return DS.StackTransform(parts, constraint.dim)  # type: ignore[attr-defined]
    raise (
        GradcliError(f"Cannot transform _{kind} constraints")
        .mirror("NotImplementedError")
        .pytorch()
    )


def biject_to(constraint: Any) -> Transform:
    return _constraint_transform(constraint, True)


def transform_to(constraint: Any) -> Transform:
    return _constraint_transform(constraint, False)


for _cls, _module in (
    (HalfCauchy, "half_cauchy"),
    (Pareto, "pareto"),
    (Weibull, "weibull"),
    (Kumaraswamy, "kumaraswamy"),
    (ContinuousBernoulli, "continuous_bernoulli"),
    (FisherSnedecor, "fishersnedecor"),
    (RelaxedOneHotCategorical, "relaxed_categorical"),
    (LogisticNormal, "logistic_normal"),
    (VonMises, "von_mises"),
    (InverseGamma, "inverse_gamma"),
    (OneHotCategoricalStraightThrough, "one_hot_categorical"),
    (LKJCholesky, "lkj_cholesky"),
    (Wishart, "wishart"),
    (GeneralizedPareto, "generalized_pareto"),
):
    DS.CLASSES[_cls.NAME] = _cls
    DS.MODULES[_cls.NAME] = _module
DS.TRANSFORMS["AbsTransform"] = AbsTransform
DS.TRANSFORMS["StickBreakingTransform"] = StickBreakingTransform
DS.TRANSFORMS["SoftmaxTransform"] = SoftmaxTransform
DS.TRANSFORMS["SoftplusTransform"] = SoftplusTransform
DS.TRANSFORMS["CorrCholeskyTransform"] = CorrCholeskyTransform
DS.TRANSFORMS["LowerCholeskyTransform"] = LowerCholeskyTransform
DS.TRANSFORMS["PositiveDefiniteTransform"] = PositiveDefiniteTransform
DS.TRANSFORMS["CatTransform"] = CatTransform
DS._SUBMODULES["ExpRelaxedCategorical"] = "relaxed_categorical"


# --- torch.distributions.utils -------------------------------------------------------------------
#
# The helpers programs import to write their own distributions: PyTorch's compositions, op for op.


def logits_to_probs(logits: Any, is_binary: bool = False) -> Tensor:
    """sigmoid of log-odds (`is_binary`), else the softmax along the last dimension."""
    return _T["sigmoid"](logits) if is_binary else _F["softmax"](logits, dim=-1)


def clamp_probs(probs: Any) -> Tensor:
    """probs clamped to [eps, 1 - eps], eps the machine epsilon of their dtype."""
    if not isinstance(probs, Tensor):
        raise GradcliError(
            f"'{typename(probs)}' object has no attribute 'dtype'", hint="pass a tensor"
        ).mirror("AttributeError")
    if probs.dtype.kind != "f":
        raise GradcliError(
            "torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
            "'torch.finfo'"
        ).mirror("TypeError")
    return _clamp_probs(probs)


def probs_to_logits(probs: Any, is_binary: bool = False) -> Tensor:
    """log of the clamped probabilities; log-odds (`is_binary`): log(p) - log1p(-p)."""
    p = clamp_probs(probs)
    if is_binary:
        return _T["sub"](_T["log"](p), _T["log1p"](_T["neg"](p)))
    return _T["log"](p)


def broadcast_all(*values: Any) -> tuple:
    """The values broadcast together; a number becomes a tensor of the first tensor's dtype
    (the default dtype when none is a tensor)."""
    number = (bool, int, float, complex, np.number)
    if not all(isinstance(v, (Tensor, *number)) for v in values):
        raise GradcliError(
            "Input arguments must all be instances of Number, torch.Tensor or objects "
            "implementing __torch_function__."
        ).mirror("ValueError")
    if not all(isinstance(v, Tensor) for v in values):
        from ..core.tensor import Settings

        first = next((v for v in values if isinstance(v, Tensor)), None)
        dtype = Settings.default_dtype if first is None else first.dtype
        values = tuple(v if isinstance(v, Tensor) else _T["tensor"](v, dtype=dtype) for v in values)
    return _T["broadcast_tensors"](*values)


UTILS = {
    "logits_to_probs": logits_to_probs,
    "probs_to_logits": probs_to_logits,
    "clamp_probs": clamp_probs,
    "broadcast_all": broadcast_all,
}
