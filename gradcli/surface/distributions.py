"""`torch.distributions` as VAE, policy-gradient, Bayesian-regression and mixture-model code
uses it: Normal, MultivariateNormal, Independent, Uniform, Bernoulli, Categorical,
OneHotCategorical, Exponential, Laplace, Cauchy, HalfNormal, LogNormal, Poisson, Geometric,
Gamma, Chi2, Beta, Dirichlet, StudentT (more in `dist_extra`; KL in `dist_kl`; support and
arg_constraints in `dist_constraints`), with `sample`, `rsample` (the reparameterisation trick,
differentiable), `log_prob`, `entropy`, `cdf`/`icdf`, their moments, and
PyTorch's argument checks.

Each method is the composition of recorded operations PyTorch's own Python code performs, in
its order, so that values (float32 included), `grad_fn` names and gradients are PyTorch's, and
the draws take PyTorch's random streams (`sample` is `torch.normal` / `torch.bernoulli` /
`torch.multinomial` / `torch.poisson` under no_grad, `rsample` fills a new tensor with
`normal_` / `uniform_` / `exponential_` / `cauchy_`, Gamma/Beta/Dirichlet draw with ATen's gamma
sampler, `random.standard_gamma`). Gamma, Beta and Dirichlet take lgamma / digamma from this build's
`torch.lgamma` / `torch.digamma` where it has them, else as constants (`_special`). Loaded
when a program first names torch.distributions."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError
from ..core.tensor import Settings, Tensor, no_grad, typename
from . import names as N
from .printing import Size, format_value

_T = N.FUNCTIONS
_M = N.METHODS
_F = N.NN_FUNCTIONAL


def _tensor(v: Any, dtype: np.dtype) -> Tensor:
    return _T["tensor"](v, dtype=dtype)


def _broadcast_all(*values: Any) -> list[Tensor]:
    """PyTorch's broadcast_all: numbers become tensors (of the first tensor's dtype, else the
    default dtype), then all are broadcast (a tensor already of the shape is itself)."""
    dtype = next((v.dtype for v in values if isinstance(v, Tensor)), Settings.default_dtype)
    for v in values:
        if not isinstance(v, (Tensor, int, float)) or isinstance(v, bool):
            raise GradcliError(
                "Input arguments must all be instances of numbers.Number, torch.Tensor or "
                "objects implementing __torch_function__."
            ).mirror("ValueError")
    ts = [v if isinstance(v, Tensor) else _tensor(float(v), dtype) for v in values]
    try:
        shape = np.broadcast_shapes(*(t.shape for t in ts))
    except ValueError:
        raise GradcliError(
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
            "between "
            + " and ".join(f"arg {i} with shape {list(t.shape)}" for i, t in enumerate(ts))
        ).mirror("RuntimeError") from None
    return [t if t.shape == shape else _M["expand"](t, *shape) for t in ts]


def _shown(t: Tensor) -> str:
    """A tensor in an f-string field, as PyTorch formats it: a 0-d one is its Python number."""
    if t.ndim:
        return format_value(t)
    v = t.data.item()
    return repr(v if t.dtype.kind in "biu" else float(v))


def _sample_shape(
    shape: Any,
    what: str = "sample_shape",
    hint: str = "d.sample() for one draw, d.sample((n,)) for n of them",
) -> tuple[int, ...]:
    if isinstance(shape, (tuple, list)) and all(
        isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape
    ):
        return tuple(shape)
    raise GradcliError(
        f"{what} must be a torch.Size or a tuple of sizes, not {typename(shape)}", hint=hint
    ).mirror("TypeError")


class Distribution:
    NAME = "Distribution"
    PROGRAM_BASE = (
        "distribution"  # a program's class may derive from it (`lang.prog_distributions`)
    )
    PARAMS: tuple[str, ...] = ()
    PROGRAM_METHODS = (
        "sample",
        "rsample",
        "log_prob",
        "entropy",
        "cdf",
        "icdf",
        "sample_n",
        "enumerate_support",
        "perplexity",
    )
    PROGRAM_DATA = (
        "mean",
        "stddev",
        "variance",
        "mode",
        "batch_shape",
        "event_shape",
        "has_enumerate_support",
        "has_rsample",
    )
    has_rsample = False
    has_enumerate_support = False
    batch: tuple[int, ...] = ()
    event: tuple[int, ...] = ()
    # PyTorch's `validate_args` (default on): checks the value of log_prob/cdf/... is a Tensor
    validating = True

    def __init_subclass__(cls, **kw: Any) -> None:
        """Each subclass's `__init__` records its `validate_args` (keyword or positional)."""
        super().__init_subclass__(**kw)
        init = cls.__dict__.get("__init__")
        if init is None:
            return
        import inspect

        sig = inspect.signature(init)
        if "validate_args" not in sig.parameters:
            return

        def recording(self: Any, *args: Any, **kwargs: Any) -> None:
            bound = sig.bind_partial(self, *args, **kwargs)
            if bound.arguments.get("validate_args") is None and not Settings.validate_distributions:
                # set_default_validate_args(False): made as with validate_args=False
                bound.arguments["validate_args"] = False
                args, kwargs = bound.args[1:], bound.kwargs
            self.validating = bound.arguments.get("validate_args") is not False
            init(self, *args, **kwargs)

        recording.__doc__ = init.__doc__
        cls.__init__ = recording  # type: ignore[misc]

    # -- what a program reaches --------------------------------------------------------------
    @classmethod
    def program_class_attribute(cls, attr: str) -> Any:
        """`D.Normal.arg_constraints`, `.support`, `.has_rsample` read from the class; None
        for any other name. A class whose constraints depend on its instance's values
        (Uniform's, Independent's) says so."""
        if attr in ("has_rsample", "has_enumerate_support"):
            return getattr(cls, attr)
        if attr == "set_default_validate_args":
            return SET_DEFAULT_VALIDATE_ARGS[0]
        if attr not in ("support", "arg_constraints"):
            return None
        from types import SimpleNamespace

        from ..base.errors import NotSupported
        from . import dist_constraints

        try:
            return getattr(dist_constraints, attr)(SimpleNamespace(NAME=cls.NAME))
        except (AttributeError, GradcliError):
            raise NotSupported(
                f"`torch.distributions.{cls.NAME}.{attr}` read from the class is not supported "
                "by gradcli (it depends on the distribution's values)",
                hint=f"read `.{attr}` from a distribution made with its values",
            ) from None

    def program_attribute(self, attr: str) -> Any:
        if attr in self.PROGRAM_METHODS:
            return getattr(self, attr)
        if attr in self.PROGRAM_DATA or attr in self.PARAMS:
            return getattr(self, attr)
        if attr in ("support", "arg_constraints"):
            from . import dist_constraints

            return getattr(dist_constraints, attr)(self)
        if attr == "expand":
            return self.expand
        raise GradcliError(
            f"'{self.NAME}' object has no attribute '{attr}'", found=f"`.{attr}`"
        ).mirror("AttributeError")

    @staticmethod
    def program_class(d: Distribution) -> str:
        """What `type(d)` prints: the class in its torch.distributions module."""
        module = MODULES.get(d.NAME) or _SUBMODULES.get(d.NAME) or d.NAME.lower()
        return f"torch.distributions.{module}.{d.NAME}"

    # PyTorch's Distribution's own: mean and variance NotImplementedError without a message,
    # stddev the root of the variance, mode naming the class that lacks one
    @property
    def mean(self) -> Tensor:
        raise GradcliError("", found=f"{self.NAME}.mean").mirror("NotImplementedError").pytorch()

    @property
    def variance(self) -> Tensor:
        raise (
            GradcliError("", found=f"{self.NAME}.variance").mirror("NotImplementedError").pytorch()
        )

    @property
    def stddev(self) -> Tensor:
        return _M["sqrt"](self.variance)

    @property
    def mode(self) -> Tensor:
        raise (
            GradcliError(f"<class '{self.program_class(self)}'> does not implement mode")
            .mirror("NotImplementedError")
            .pytorch()
        )

    @property
    def batch_shape(self) -> Size:
        return Size(self.batch)

    @property
    def event_shape(self) -> Size:
        return Size(self.event)

    def _extended(self, sample_shape: Any) -> tuple[int, ...]:
        return _sample_shape(sample_shape) + self.batch + self.event

    def sample(self, sample_shape: Any = ()) -> Tensor:
        with no_grad():
            return self.rsample(sample_shape)

    def sample_n(self, n: int) -> Tensor:
        return self.sample((n,))

    def _inner_batch(self, name: str, shape: tuple[int, ...]) -> tuple[int, ...]:
        """The batch shape an inner distribution (`name`) takes when this one is expanded to
        `shape` (its own batch: a Beta per row of LKJCholesky's, adds that row)."""
        return shape

    def expand(self, batch_shape: Any, _instance: Any = None) -> Distribution:
        """PyTorch's expand: a new distribution of this batch shape whose parameters are the
        old ones expanded (views: no copy); `validate_args` as the old one's."""
        shape = _sample_shape(
            tuple(batch_shape) if isinstance(batch_shape, list) else batch_shape,
            "batch_shape",
            "d.expand((3, 2)) or d.expand(torch.Size([3, 2]))",
        )
        return self._expand(shape)

    def _expand(self, shape: tuple[int, ...]) -> Distribution:
        return _expanded(self, shape)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        # PyTorch's Distribution.rsample: NotImplementedError without a message (catchable)
        raise (
            GradcliError(
                "",
                found=f"{self.NAME}.rsample",
                hint=f"PyTorch's {self.NAME} has no rsample (its samples are not "
                "differentiable): use sample() and the score function, "
                "-(log_prob(a) * reward)",
            )
            .mirror("NotImplementedError")
            .pytorch()
        )

    def cdf(self, value: Any) -> Tensor:
        if self.NAME in _NO_CDF_IN_PYTORCH:
            # PyTorch's Distribution.cdf: NotImplementedError without a message (catchable)
            raise (
                GradcliError(
                    "",
                    found=f"{self.NAME}.cdf",
                    hint=f"PyTorch's {self.NAME} has no cdf (NotImplementedError)",
                )
                .mirror("NotImplementedError")
                .pytorch()
            )
        raise GradcliError(f"cdf of {self.NAME} is not supported by gradcli").mirror(
            "NotImplementedError"
        )

    def icdf(self, value: Any) -> Tensor:
        if self.NAME in _NO_ICDF_IN_PYTORCH:
            # PyTorch's Distribution.icdf: NotImplementedError without a message (catchable)
            raise (
                GradcliError(
                    "",
                    found=f"{self.NAME}.icdf",
                    hint=f"PyTorch's {self.NAME} has no icdf (NotImplementedError)",
                )
                .mirror("NotImplementedError")
                .pytorch()
            )
        raise GradcliError(f"icdf of {self.NAME} is not supported by gradcli").mirror(
            "NotImplementedError"
        )

    def entropy(self) -> Tensor:
        # PyTorch's Distribution.entropy (Poisson, MixtureSameFamily have no other): a
        # NotImplementedError without a message
        raise (
            GradcliError(
                "",
                found=f"{self.NAME}.entropy",
                hint=f"PyTorch's {self.NAME} has no entropy (NotImplementedError)",
            )
            .mirror("NotImplementedError")
            .pytorch()
        )

    def perplexity(self) -> Tensor:
        return _T["exp"](self.entropy())

    def enumerate_support(self, expand: Any = True) -> Tensor:
        # PyTorch's Distribution.enumerate_support: NotImplementedError without a message
        raise (
            GradcliError(
                "",
                found=f"{self.NAME}.enumerate_support",
                hint=f"PyTorch's {self.NAME} has a support it cannot list (NotImplementedError)",
            )
            .mirror("NotImplementedError")
            .pytorch()
        )

    def _enumerated(self, values: Tensor, expand: Any, event: tuple[int, ...] = ()) -> Tensor:
        """PyTorch's enumerate_support's last steps: the n values viewed as
        (n, 1, ..., 1, *event) over the batch dims, then (with expand) expanded over the batch."""
        n = values.shape[0]
        values = _M["view"](values, *((n,) + (1,) * len(self.batch) + event))
        if expand:
            values = _M["expand"](values, *((n,) + self.batch + event))
        return values

    # -- checks --------------------------------------------------------------------------------
    def _check(self, name: str, t: Tensor, ok: Any, constraint: str) -> None:
        if not bool(np.all(ok)):
            raise GradcliError(
                f"Expected parameter {name} (Tensor of shape {tuple(t.shape)}) of distribution "
                f"{self!r} to satisfy the constraint {constraint}, but found invalid values:\n"
                f"{_shown(t)}"
            ).mirror("ValueError")

    # The parameters PyTorch has computed so far: a Categorical or Bernoulli made from logits
    # computes its probs when first asked (a lazy property), and only then shows them.
    shown: set[str] | None = None

    def __repr__(self) -> str:
        parts = []
        for p in self.PARAMS:
            t = getattr(self, "_" + p, None) if self.shown is not None else self.__dict__.get(p)
            if t is not None and (self.shown is None or p in self.shown):
                parts.append(f"{p}: {_shown(t) if t.data.size == 1 else repr(Size(t.shape))}")
        return f"{self.NAME}({', '.join(parts)})"


class Normal(Distribution):
    NAME = "Normal"
    PARAMS = ("loc", "scale")
    PROGRAM_METHODS = Distribution.PROGRAM_METHODS + ("icdf",)
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, validate_args: Any = None) -> None:
        self.loc, self.scale = _broadcast_all(loc, scale)
        self.batch = tuple(self.loc.shape)
        if validate_args is not False:
            self._check("loc", self.loc, self.loc.data == self.loc.data, "Real()")
            self._check("scale", self.scale, self.scale.data > 0, "GreaterThan(lower_bound=0.0)")

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def stddev(self) -> Tensor:
        return self.scale

    @property
    def variance(self) -> Tensor:
        return _M["pow"](self.stddev, 2)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        with no_grad():
            return _T["normal"](_M["expand"](self.loc, *shape), _M["expand"](self.scale, *shape))

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        eps = _M["normal_"](_T["empty"](shape, dtype=self.loc.dtype))
        return self.loc + eps * self.scale

    def log_prob(self, value: Any) -> Tensor:
        value = _value(value, self)
        var = self.scale**2
        log_scale = _M["log"](self.scale)
        return -((value - self.loc) ** 2) / (2 * var) - log_scale - math.log(math.sqrt(2 * math.pi))

    def cdf(self, value: Any) -> Tensor:
        value = _value(value, self)
        return 0.5 * (
            1 + _T["erf"]((value - self.loc) * _M["reciprocal"](self.scale) / math.sqrt(2))
        )

    def icdf(self, value: Any) -> Tensor:
        if "erfinv" not in _T:
            raise GradcliError(
                "Normal.icdf needs torch.erfinv, which this gradcli build lacks",
                hint="for the standard normal's quantiles, tabulate them or bisect on cdf",
            ).mirror("NotImplementedError")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            # PyTorch's Normal.icdf hands a Python number to torch.erfinv, which refuses it
            raise GradcliError(
                f"erfinv(): argument 'input' (position 1) must be Tensor, not {typename(value)}",
                hint="pass the probabilities as a tensor: torch.tensor(0.5)",
            ).mirror("TypeError")
        value = _value(value, self, check=False)
        return self.loc + self.scale * _T["erfinv"](2 * value - 1) * math.sqrt(2)

    def entropy(self) -> Tensor:
        return 0.5 + 0.5 * math.log(2 * math.pi) + _T["log"](self.scale)


class Uniform(Distribution):
    NAME = "Uniform"
    PARAMS = ("low", "high")
    has_rsample = True

    def __init__(self, low: Any, high: Any, validate_args: Any = None) -> None:
        self.low, self.high = _broadcast_all(low, high)
        self.batch = tuple(self.low.shape)
        if validate_args is not False:
            self._check(
                "low",
                self.low,
                self.low.data < self.high.data,
                f"LessThan(upper_bound={_shown(self.high)})",
            )

    @property
    def mean(self) -> Tensor:
        return (self.high + self.low) / 2

    @property
    def mode(self) -> Tensor:
        return self.high * math.nan

    @property
    def stddev(self) -> Tensor:
        return (self.high - self.low) / 12**0.5

    @property
    def variance(self) -> Tensor:
        return (self.high - self.low) ** 2 / 12

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        rand = _T["rand"](*shape, dtype=self.low.dtype)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value: Any) -> Tensor:
        value = _value(value, self, check=False)
        v, lo, hi = value.data, self.low.data, self.high.data
        _support(
            self,
            value,
            (lo <= v) & (v <= hi),
            f"Interval(lower_bound={_shown(self.low)}, upper_bound={_shown(self.high)})",
        )
        lb = _M["type_as"](_M["le"](self.low, value), self.low)
        ub = _M["type_as"](_M["gt"](self.high, value), self.low)
        return _T["log"](_M["mul"](lb, ub)) - _T["log"](self.high - self.low)

    def cdf(self, value: Any) -> Tensor:
        value = _value(value, self, check=False)
        return _M["clamp"]((value - self.low) / (self.high - self.low), min=0, max=1)

    def icdf(self, value: Any) -> Tensor:
        value = _value(value, self, check=False)
        return value * (self.high - self.low) + self.low

    def entropy(self) -> Tensor:
        return _T["log"](self.high - self.low)


def _eps(dtype: np.dtype) -> float:
    return float(np.finfo(dtype).eps)


class _Lazy(Distribution):
    """probs and logits, one given, the other computed when first asked (PyTorch's lazy
    property: the value is made at once here, only the repr waits)."""

    _probs: Tensor
    _logits: Tensor | None

    @property
    def param_shape(self) -> Size:
        """PyTorch's `_param.size()`: the shape of the parameter given (broadcast; probs and
        logits share it), read without computing the other (its repr unchanged). A program
        reaches it where the class lists it (PROGRAM_DATA), as PyTorch's classes that have it."""
        return Size(self._probs.shape)

    @property
    def probs(self) -> Tensor:
        self.shown.add("probs")  # type: ignore[union-attr]
        return self._probs

    @property
    def logits(self) -> Tensor:
        if self._logits is None:
            # integer probs: PyTorch's probs_to_logits asks torch.finfo for their dtype's eps
            raise GradcliError(
                "torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                "'torch.finfo'",
                hint="give the probabilities as floats: probs=p.float()",
            ).mirror("TypeError")
        self.shown.add("logits")  # type: ignore[union-attr]
        return self._logits


def _binary_params(
    dist: Any, probs: Any, logits: Any, validate_args: Any, positive: bool = False
) -> None:
    """Bernoulli's (LogitRelaxedBernoulli's, Geometric's) parameters: probs or logits, the
    other computed from it as PyTorch's (probs clamped by the dtype's eps before their logit);
    `positive`: Geometric's own check that probs are above 0, before the interval's."""
    if (probs is None) == (logits is None):
        raise GradcliError("Either `probs` or `logits` must be specified, but not both.").mirror(
            "ValueError"
        )
    dist.shown = {"probs" if probs is not None else "logits"}
    if probs is not None:
        (dist._probs,) = _broadcast_all(probs)
        if validate_args is not False:
            v = dist._probs.data
            if positive and not bool(np.all(v > 0)):
                bad = Tensor(np.asarray(v[~(v > 0)]))
                raise GradcliError(
                    f"Expected parameter probs (Tensor of shape {tuple(v.shape)}) of "
                    f"distribution {dist!r} to be positive but found invalid values:\n"
                    f"{format_value(bad)}"
                ).mirror("ValueError")
            dist._check(
                "probs",
                dist._probs,
                (v >= 0) & (v <= 1),
                "Interval(lower_bound=0.0, upper_bound=1.0)",
            )
        if dist._probs.dtype.kind != "f":
            dist._logits = None  # (PyTorch's torch.finfo of integer probs fails when asked)
        else:
            eps = _eps(dist._probs.dtype)
            p = _M["clamp"](dist._probs, min=eps, max=1 - eps)
            dist._logits = _T["log"](p) - _T["log1p"](-p)
    else:
        (dist._logits,) = _broadcast_all(logits)
        dist._probs = _T["sigmoid"](dist._logits)
    dist.batch = tuple(dist._probs.shape)


class Bernoulli(_Lazy):
    NAME = "Bernoulli"
    PARAMS = ("probs", "logits")

    PROGRAM_DATA = (*Distribution.PROGRAM_DATA, "param_shape")

    def __init__(self, probs: Any = None, logits: Any = None, validate_args: Any = None) -> None:
        _binary_params(self, probs, logits, validate_args)

    @property
    def mean(self) -> Tensor:
        return self.probs

    @property
    def variance(self) -> Tensor:
        return self.probs * (1 - self.probs)

    @property
    def stddev(self) -> Tensor:
        return _M["sqrt"](self.variance)

    @property
    def mode(self) -> Tensor:
        # PyTorch's: 1 where probs >= 0.5 in the probs' dtype, nan where they are exactly 0.5
        # (no mode there)
        m = _M["to"](_M["ge"](self.probs, 0.5), self.probs)
        return Tensor(np.where(self.probs.data == 0.5, np.nan, m.data).astype(m.data.dtype))

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        with no_grad():
            return _T["bernoulli"](_M["expand"](self.probs, *shape))

    def log_prob(self, value: Any) -> Tensor:
        value = _value(value, self, check=False)
        _support(self, value, (value.data == 0) | (value.data == 1), "Boolean()")
        logits, value = _broadcast_all(self.logits, value)
        return -_F["binary_cross_entropy_with_logits"](logits, value, reduction="none")

    def entropy(self) -> Tensor:
        return _F["binary_cross_entropy_with_logits"](self.logits, self.probs, reduction="none")

    has_enumerate_support = True

    def enumerate_support(self, expand: Any = True) -> Tensor:
        return self._enumerated(_T["arange"](2, dtype=self._probs.dtype), expand)


class Categorical(_Lazy):
    NAME = "Categorical"
    PARAMS = ("probs", "logits")

    PROGRAM_DATA = (*Distribution.PROGRAM_DATA, "param_shape")

    def __init__(self, probs: Any = None, logits: Any = None, validate_args: Any = None) -> None:
        if (probs is None) == (logits is None):
            raise GradcliError(
                "Either `probs` or `logits` must be specified, but not both."
            ).mirror("ValueError")
        given = probs if probs is not None else logits
        kind = "probs" if probs is not None else "logits"
        if not isinstance(given, Tensor) or given.ndim < 1:
            raise GradcliError(f"`{kind}` parameter must be at least one-dimensional.").mirror(
                "ValueError"
            )
        self.shown = {kind}
        if probs is not None:
            self._probs = probs / _M["sum"](probs, -1, keepdim=True)
            if validate_args is not False:
                self._check_simplex(self._probs)
            eps = _eps(self._probs.dtype)
            self._logits = _T["log"](_M["clamp"](self._probs, min=eps, max=1 - eps))
        else:
            self._logits = logits - _M["logsumexp"](logits, dim=-1, keepdim=True)
            self._probs = _F["softmax"](self._logits, dim=-1)
        self.events = given.shape[-1]
        self.batch = tuple(given.shape[:-1])

    def _check_simplex(self, probs: Tensor) -> None:
        # PyTorch validates the probs once normalized: each row >= 0 and summing to 1 within
        # 1e-6, so a row of zeros (0 / 0: NaN) or with an infinity fails, whatever its dtype
        p = probs.data
        with np.errstate(invalid="ignore"):
            ok = np.all(p >= 0, axis=-1) & (np.abs(p.sum(axis=-1) - 1) < 1e-6)
        self._check("probs", probs, ok, "Simplex()")

    @property
    def mean(self) -> Tensor:
        return _T["full"](self.batch, math.nan, dtype=self.probs.dtype)

    variance = mean

    @property
    def mode(self) -> Tensor:
        return _M["argmax"](self.probs, dim=-1)

    has_enumerate_support = True

    def enumerate_support(self, expand: Any = True) -> Tensor:
        return self._enumerated(_T["arange"](self.events, dtype=np.dtype(np.int64)), expand)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = _sample_shape(sample_shape)
        count = int(np.prod(shape, dtype=np.int64))
        with no_grad():
            probs_2d = _M["reshape"](self.probs, -1, self.events)
            drawn = _T["multinomial"](probs_2d, count, True)
            return _M["reshape"](_M["t"](drawn), *(shape + self.batch))

    def log_prob(self, value: Any) -> Tensor:
        value = _value(value, self, check=False)
        v = value.data
        _support(
            self,
            value,
            (v >= 0) & (v < self.events) & (v == np.floor(v)),
            f"IntegerInterval(lower_bound=0, upper_bound={self.events - 1})",
        )
        index = _M["unsqueeze"](_M["long"](value), -1)
        index, log_pmf = _T["broadcast_tensors"](index, self.logits)
        index = index[..., :1]
        return _M["squeeze"](_M["gather"](log_pmf, -1, index), -1)

    def entropy(self) -> Tensor:
        low = float(np.finfo(self.logits.dtype).min)
        logits = _M["clamp"](self.logits, min=low)
        return -_M["sum"](logits * self.probs, -1)


# The program's `Distribution.set_default_validate_args` (a builtin the language layer makes
# and puts here, `lang.namespaces`: this layer does not know the program's function values).
SET_DEFAULT_VALIDATE_ARGS: list[Any] = [None]


def set_default_validate_args(value: Any) -> None:
    """PyTorch's Distribution.set_default_validate_args: True or False, for the distributions
    made from then on without validate_args (for the rest of the run)."""
    if value is not True and value is not False:
        # (PyTorch's ValueError has no message: str(e) is '')
        raise GradcliError(
            "",
            found=f"a {typename(value)}",
            hint="set_default_validate_args takes True or False (a ValueError without words)",
        ).mirror("ValueError")
    Settings.validate_distributions = value


def _support(d: Distribution, value: Tensor, ok: Any, support: str) -> None:
    # PyTorch checks the support only in _validate_sample, which validate_args=False skips
    # (the formulas then run on the value as it is)
    if d.validating and not bool(np.all(ok)):
        raise GradcliError(
            f"Expected value argument (Tensor of shape {tuple(value.shape)}) to be within the "
            f"support ({support}) of the distribution {d!r}, but found invalid values:\n"
            f"{_shown(value)}"
        ).mirror("ValueError")


def _value(value: Any, d: Distribution, check: bool = True) -> Tensor:
    if not isinstance(value, Tensor):
        # PyTorch's _validate_sample refuses a number (for log_prob, cdf, ...: its one message);
        # with validate_args=False a Python number enters the arithmetic as a tensor would.
        if not d.validating and isinstance(value, (int, float)) and not isinstance(value, bool):
            return _tensor(float(value), Settings.default_dtype)
        raise GradcliError(
            "The value argument to log_prob must be a Tensor",
            found=f"a {typename(value)}",
            hint="pass a tensor: torch.tensor(1.0)",
        ).mirror("ValueError")
    if check:
        _support(d, value, value.data == value.data, "Real()")
    return value


# The distributions whose cdf PyTorch 2.13 does not define (Distribution.cdf raises).
# The distributions whose icdf is PyTorch's Distribution.icdf (read off PyTorch 2.13).
_NO_ICDF_IN_PYTORCH = frozenset(
    "Bernoulli Beta Binomial Categorical Chi2 Dirichlet FisherSnedecor Gamma Geometric "
    "Independent LKJCholesky LowRankMultivariateNormal MixtureSameFamily Multinomial "
    "MultivariateNormal NegativeBinomial OneHotCategorical OneHotCategoricalStraightThrough "
    "Poisson StudentT VonMises Wishart LogitRelaxedBernoulli ExpRelaxedCategorical".split()
)
_NO_CDF_IN_PYTORCH = frozenset(
    (
        "Bernoulli",
        "Categorical",
        "Poisson",
        "StudentT",
        "Dirichlet",
        "Beta",
        "Independent",
        "Geometric",
        "OneHotCategorical",
        "MultivariateNormal",
        "LowRankMultivariateNormal",
        "FisherSnedecor",
        "VonMises",
        "Binomial",
        "NegativeBinomial",
        "Multinomial",
        "Wishart",
        "LKJCholesky",
        "OneHotCategoricalStraightThrough",
        "LogitRelaxedBernoulli",
        "ExpRelaxedCategorical",
    )
)


# --- shared pieces of the distributions below -------------------------------------------------


def _number_or_tensor(v: Any, dtype: np.dtype) -> Tensor:
    return v if isinstance(v, Tensor) else _tensor(float(v), dtype)


def _sum_rightmost(value: Tensor, dim: int) -> Tensor:
    """PyTorch's _sum_rightmost: the last `dim` axes flattened into one and summed."""
    if dim == 0:
        return value
    return _M["sum"](_M["reshape"](value, *(tuple(value.shape[:-dim]) + (-1,))), -1)


def _xlogy(x: Tensor, y: Tensor) -> Tensor:
    """torch.xlogy where the build has it, else x * log(y) with 0 where x is 0 (its value)."""
    if "xlogy" in _T:
        return _T["xlogy"](x, y)
    return _T["where"](_M["eq"](x, 0), 0.0, x * _T["log"](y))


def _special(name: str, t: Tensor, what: str) -> Tensor:
    """torch.lgamma / torch.digamma where this build has them (recorded, differentiable); else
    their values as a constant, refused where a gradient would be needed (a private stand-in
    until the ops land: glibc's lgamma, Cephes' psi as ATen's calc_digamma computes it)."""
    if name in _T:
        return _T[name](t)
    from ..core.tensor import grad_enabled

    if t.requires_grad and grad_enabled():
        raise GradcliError(
            f"{what} needs torch.{name} with its gradient, which this gradcli build lacks",
            hint="detach the parameter (its value works), or differentiate another parameter",
        ).mirror("NotImplementedError")
    if t.data.size > _SPECIAL_MAX:
        raise GradcliError(
            f"{what}: torch.{name} of {t.data.size:,} values, more than gradcli's stand-in "
            f"(one value at a time) computes within the time limit ({_SPECIAL_MAX:,})",
            hint="use fewer values",
        )
    x = np.asarray(t.data, dtype=np.float64)
    out = _lgamma_values(x) if name == "lgamma" else _digamma_values(x)
    return Tensor(out.astype(t.dtype))


_SPECIAL_MAX = 10**5  # values the stand-in lgamma / digamma compute (1.3 s for digamma, loaded)


def _lgamma_values(x: np.ndarray) -> np.ndarray:
    from .random import _libm_lgamma

    fn = _libm_lgamma()
    return np.array([fn(float(v)) for v in x.ravel()], dtype=np.float64).reshape(x.shape)


def _digamma_values(x: np.ndarray) -> np.ndarray:
    """psi(x) as Cephes (and ATen's calc_digamma): reflection below 0, the recurrence up to 10,
    then the asymptotic series."""
    out = np.empty_like(x)
    for i, v in enumerate(x.ravel()):
        out.flat[i] = _psi(float(v))
    return out


def _psi(x: float) -> float:
    from ..ops.gamma_grad import PSI_ASYMPTOTIC

    if x == 0:
        return math.copysign(math.inf, -x)
    if x < 0:
        if x == math.trunc(x):
            return math.nan
        r = math.modf(x)[0]
        return _psi(1 - x) - math.pi / math.tan(math.pi * r)
    result = 0.0
    while x < 10:
        result -= 1 / x
        x += 1
    if x == 10:
        return result + 2.25175258906672110764
    y = 0.0
    if x < 1.0e17:
        z = 1.0 / (x * x)
        poly = 0.0
        for a in PSI_ASYMPTOTIC:
            poly = poly * z + a
        y = z * poly
    return result + math.log(x) - (0.5 / x) - y


def one_matrix(covariance: Any, precision: Any, scale_tril: Any, error: str) -> tuple[str, Any]:
    """The one matrix a MultivariateNormal or Wishart is given, with its parameter's name;
    PyTorch's words (as `error`: its classes differ) when there are none or several."""
    given = [
        (k, v)
        for k, v in (
            ("covariance_matrix", covariance),
            ("precision_matrix", precision),
            ("scale_tril", scale_tril),
        )
        if v is not None
    ]
    if len(given) != 1:
        raise GradcliError(
            "Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified."
        ).mirror(error)
    return given[0]


def _draw_gradient_sized(d: Distribution, param: Tensor, count: int) -> None:
    """The reparameterized gradient of a gamma draw (ATen's _standard_gamma_grad /
    _dirichlet_grad) is computed one value at a time: refused, before drawing, above
    `gamma_grad.MAX_VALUES` when it would be recorded."""
    from ..core.tensor import grad_enabled
    from ..ops import gamma_grad

    if param.requires_grad and grad_enabled() and count > gamma_grad.MAX_VALUES:
        raise GradcliError(
            f"{d.NAME}.rsample: the gradient of {count:,} gamma draws with respect to their "
            f"concentration is computed one value at a time; gradcli allows "
            f"{gamma_grad.MAX_VALUES:,}",
            hint="draw fewer values, or detach the concentration (sample())",
        )


def _gamma_draws(alpha: Tensor, shape: tuple[int, ...]) -> Tensor:
    """torch._standard_gamma(alpha.expand(shape)): PyTorch's draws, a new tensor; where the
    concentration requires grad, recorded as StandardGammaBackward0, whose gradient is
    g * torch._standard_gamma_grad(alpha, draws) (the implicit reparameterization)."""
    from ..ops import gamma_grad
    from ..ops.custom import custom_apply
    from . import sampling

    expanded = _M["expand"](alpha, *shape)
    draws = Tensor(sampling.standard_gamma(expanded))

    def vjp(g: Tensor) -> Tensor:
        return g * Tensor(gamma_grad.standard_gamma_grad(expanded.data, draws.data))

    return custom_apply(
        "StandardGamma",
        [expanded],
        lambda: draws,
        vjp,
        label="StandardGammaBackward0",
        program=False,
    )


def _dirichlet_draws(alpha: Tensor, shape: tuple[int, ...]) -> Tensor:
    """PyTorch's _Dirichlet.apply(alpha.expand(shape)): torch._sample_dirichlet's draws
    (float64 gammas divided by their sum over the last axis, each quotient in the dtype within
    [tiny, 1 - ulp]); a custom Function (_DirichletBackward, once differentiable) whose gradient
    is _Dirichlet_backward's: _dirichlet_grad(x, alpha, total) * (g - sum(x * g, -1))."""
    from ..ops import gamma_grad
    from ..ops.custom import custom_apply
    from . import sampling

    expanded = _M["expand"](alpha, *shape)
    with no_grad():
        gammas = Tensor(sampling.standard_gamma(expanded, double=True))
        total = _M["sum"](gammas, -1, True).data
    quotient = (gammas.data / total).astype(alpha.dtype)
    top = np.nextafter(np.array(1, alpha.dtype), np.array(0, alpha.dtype))
    x = Tensor(np.minimum(top, np.maximum(np.finfo(alpha.dtype).tiny, quotient)))

    def vjp(g: Tensor) -> Tensor:
        conc_total = _M["expand_as"](_M["sum"](expanded, -1, True), expanded)
        grad = Tensor(gamma_grad.dirichlet_grad(x.data, expanded.data, conc_total.data))
        return grad * (g - _M["sum"](x * g, -1, True))

    return custom_apply(
        "_Dirichlet", [expanded], lambda: x, vjp, once_differentiable=True, program=False
    )


def _expanded(d: Distribution, shape: tuple[int, ...]) -> Distribution:
    """`d.expand(shape)`: each parameter tensor whose leading sizes are the batch shape
    expanded to the new one (its trailing, event sizes kept), each inner distribution expanded
    to the batch shape it needs (a TransformedDistribution's base through the transforms'
    inverse shapes, an Independent's base over its reinterpreted dimensions too)."""
    old = d.batch
    new = object.__new__(type(d))
    new.__dict__.update(d.__dict__)
    if isinstance(d.__dict__.get("shown"), set):
        new.shown = set(d.shown)  # type: ignore[arg-type]
    for k, v in d.__dict__.items():
        if isinstance(v, Tensor) and k != "temperature":
            if v.ndim >= len(old) and tuple(v.shape[: len(old)]) == old:
                new.__dict__[k] = _M["expand"](v, *(shape + tuple(v.shape[len(old) :])))
        elif isinstance(v, Distribution):
            if k == "base_dist" and isinstance(d, TransformedDistribution):
                s = shape + d.event
                for t in reversed(d.transforms):
                    s = t.inverse_shape(s)
                base_batch = tuple(s[: len(s) - len(v.event)])
            elif k == "base_dist" and isinstance(d, Independent):
                base_batch = shape + d.event[: d.reinterpreted_batch_ndims]
            else:
                base_batch = d._inner_batch(k, shape)
            new.__dict__[k] = _expanded(v, base_batch)
    if not any(isinstance(v, (Tensor, Distribution)) for v in d.__dict__.values()):
        raise GradcliError(f"{d.NAME}.expand is not supported by gradcli").mirror(
            "NotImplementedError"
        )
    if np.broadcast_shapes(old, shape) != shape:
        # (a parameter's expand has refused it where the batch had a parameter of its own)
        raise GradcliError(
            f"The expanded size of the batch {Size(shape)!r} does not match the existing "
            f"batch shape {Size(old)!r}"
        ).mirror("RuntimeError")
    new.batch = shape
    return new


def _validate_sample(d: Distribution, value: Any, support: str, ok: Any = None) -> Tensor:
    """PyTorch's Distribution._validate_sample: the value's right-most sizes are the event
    shape, it broadcasts with batch_shape + event_shape, and it lies in the support; none of
    it with validate_args=False."""
    value = _value(value, d, check=False)
    if not d.validating:
        return value
    n = len(d.event)
    got = tuple(value.shape)
    if got[len(got) - n :] != d.event:
        raise GradcliError(
            "The right-most size of value must match event_shape: "
            f"{Size(got)!r} vs {Size(d.event)!r}."
        ).mirror("ValueError")
    want = d.batch + d.event
    for i, j in zip(reversed(got), reversed(want)):
        if i != 1 and j != 1 and i != j:
            raise GradcliError(
                "Value is not broadcastable with batch_shape+event_shape: "
                f"{Size(got)!r} vs {Size(want)!r}."
            ).mirror("ValueError")
    v = value.data
    _support(d, value, (v == v) if ok is None else ok(v), support)
    return value


_POSITIVE = "GreaterThan(lower_bound=0.0)"
_NONNEGATIVE = "GreaterThanEq(lower_bound=0.0)"


class _Plain(Distribution):
    """A distribution whose parameters are broadcast together (broadcast_all) and whose batch
    shape is theirs."""

    def _params(self, names: tuple[str, ...], values: tuple[Any, ...]) -> None:
        for n, t in zip(names, _broadcast_all(*values)):
            setattr(self, n, t)
        self.batch = tuple(getattr(self, names[0]).shape)

    @property
    def stddev(self) -> Tensor:
        return _M["sqrt"](self.variance)


class Exponential(_Plain):
    NAME = "Exponential"
    PARAMS = ("rate",)
    PROGRAM_METHODS = Distribution.PROGRAM_METHODS + ("icdf",)
    has_rsample = True

    def __init__(self, rate: Any, validate_args: Any = None) -> None:
        self._params(("rate",), (rate,))
        if validate_args is not False:
            self._check("rate", self.rate, self.rate.data > 0, _POSITIVE)

    @property
    def mean(self) -> Tensor:
        return _M["reciprocal"](self.rate)

    @property
    def mode(self) -> Tensor:
        return _T["zeros_like"](self.rate)

    @property
    def stddev(self) -> Tensor:
        return _M["reciprocal"](self.rate)

    @property
    def variance(self) -> Tensor:
        return _M["pow"](self.rate, -2)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        draws = _M["exponential_"](_T["empty"](shape, dtype=self.rate.dtype))
        return draws / self.rate

    def log_prob(self, value: Any) -> Tensor:
        value = _validate_sample(self, value, _NONNEGATIVE, lambda v: v >= 0)
        return _M["log"](self.rate) - self.rate * value

    def cdf(self, value: Any) -> Tensor:
        value = _validate_sample(self, value, _NONNEGATIVE, lambda v: v >= 0)
        return 1 - _T["exp"](-self.rate * value)

    def icdf(self, value: Any) -> Tensor:
        return -_T["log1p"](-_value(value, self, check=False)) / self.rate

    def entropy(self) -> Tensor:
        return 1.0 - _T["log"](self.rate)


class Laplace(_Plain):
    NAME = "Laplace"
    PARAMS = ("loc", "scale")
    PROGRAM_METHODS = Distribution.PROGRAM_METHODS + ("icdf",)
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, validate_args: Any = None) -> None:
        self._params(("loc", "scale"), (loc, scale))
        if validate_args is not False:
            self._check("loc", self.loc, self.loc.data == self.loc.data, "Real()")
            self._check("scale", self.scale, self.scale.data > 0, _POSITIVE)

    @property
    def mean(self) -> Tensor:
        return self.loc

    mode = mean

    @property
    def variance(self) -> Tensor:
        return 2 * _M["pow"](self.scale, 2)

    @property
    def stddev(self) -> Tensor:
        return (2**0.5) * self.scale

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        eps = _eps(self.loc.dtype)
        u = _M["uniform_"](_T["empty"](shape, dtype=self.loc.dtype), eps - 1, 1)
        return self.loc - self.scale * _M["sign"](u) * _T["log1p"](-_M["abs"](u))

    def log_prob(self, value: Any) -> Tensor:
        value = _validate_sample(self, value, "Real()")
        return -_T["log"](2 * self.scale) - _T["abs"](value - self.loc) / self.scale

    def cdf(self, value: Any) -> Tensor:
        value = _validate_sample(self, value, "Real()")
        d = value - self.loc
        return 0.5 - 0.5 * _M["sign"](d) * _T["expm1"](-_M["abs"](d) / self.scale)

    def icdf(self, value: Any) -> Tensor:
        term = _value(value, self, check=False) - 0.5
        return self.loc - self.scale * _M["sign"](term) * _T["log1p"](-2 * _M["abs"](term))

    def entropy(self) -> Tensor:
        return 1 + _T["log"](2 * self.scale)


class Poisson(_Plain):
    NAME = "Poisson"
    PARAMS = ("rate",)

    def __init__(self, rate: Any, validate_args: Any = None) -> None:
        self._params(("rate",), (rate,))
        if validate_args is not False:
            self._check("rate", self.rate, self.rate.data >= 0, _NONNEGATIVE)

    @property
    def mean(self) -> Tensor:
        return self.rate

    @property
    def mode(self) -> Tensor:
        return _M["floor"](self.rate)

    @property
    def variance(self) -> Tensor:
        return self.rate

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        with no_grad():
            return _T["poisson"](_M["expand"](self.rate, *shape))

    def log_prob(self, value: Any) -> Tensor:
        value = _validate_sample(
            self,
            value,
            "IntegerGreaterThan(lower_bound=0)",
            lambda v: (v >= 0) & (v == np.floor(v)),
        )
        rate, value = _broadcast_all(self.rate, value)
        return _xlogy(value, rate) - rate - _special("lgamma", value + 1, "Poisson.log_prob")


class LogNormal(_Plain):
    """PyTorch's TransformedDistribution of a Normal by exp: log_prob is the Normal's at
    log(value) minus log|d exp/dx| = x, in that order."""

    NAME = "LogNormal"
    PARAMS = ()
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, validate_args: Any = None) -> None:
        self.base_dist = Normal(loc, scale, validate_args=validate_args)
        self.batch = self.base_dist.batch

    @property
    def loc(self) -> Tensor:
        return self.base_dist.loc

    @property
    def scale(self) -> Tensor:
        return self.base_dist.scale

    def program_attribute(self, attr: str) -> Any:
        if attr in ("loc", "scale", "base_dist"):
            return getattr(self, attr)
        return super().program_attribute(attr)

    @property
    def mean(self) -> Tensor:
        return _M["exp"](self.loc + _M["pow"](self.scale, 2) / 2)

    @property
    def mode(self) -> Tensor:
        return _M["exp"](self.loc - _M["square"](self.scale))

    @property
    def variance(self) -> Tensor:
        scale_sq = _M["pow"](self.scale, 2)
        return _M["expm1"](scale_sq) * _M["exp"](2 * self.loc + scale_sq)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        return _M["exp"](self.base_dist.rsample(sample_shape))

    def sample(self, sample_shape: Any = ()) -> Tensor:
        with no_grad():
            return _M["exp"](self.base_dist.sample(sample_shape))

    def log_prob(self, value: Any) -> Tensor:
        value = _validate_sample(self, value, _POSITIVE, lambda v: v > 0)
        x = _M["log"](value)
        return (0.0 - x) + self.base_dist.log_prob(x)

    def cdf(self, value: Any) -> Tensor:
        value = _validate_sample(self, value, _POSITIVE, lambda v: v > 0)
        return self.base_dist.cdf(_M["log"](value))

    def icdf(self, value: Any) -> Tensor:
        # TransformedDistribution.icdf: exp of the Normal's (an increasing transform)
        return _M["exp"](self.base_dist.icdf(_value(value, self, check=False)))

    def entropy(self) -> Tensor:
        return self.base_dist.entropy() + self.loc


class Gamma(_Plain):
    NAME = "Gamma"
    PARAMS = ("concentration", "rate")
    has_rsample = True

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        _draw_gradient_sized(self, self.concentration, math.prod(shape))
        value = _gamma_draws(self.concentration, shape) / _M["expand"](self.rate, *shape)
        np.maximum(value.data, np.finfo(value.dtype).tiny, out=value.data)  # clamp_, unrecorded
        return value

    def __init__(self, concentration: Any, rate: Any, validate_args: Any = None) -> None:
        self._params(("concentration", "rate"), (concentration, rate))
        if validate_args is not False:
            for p in self.PARAMS:
                t = getattr(self, p)
                self._check(p, t, t.data > 0, _POSITIVE)

    @property
    def mean(self) -> Tensor:
        return self.concentration / self.rate

    @property
    def mode(self) -> Tensor:
        return _M["clamp"]((self.concentration - 1) / self.rate, min=0)

    @property
    def variance(self) -> Tensor:
        return self.concentration / _M["pow"](self.rate, 2)

    def log_prob(self, value: Any) -> Tensor:
        if not isinstance(value, Tensor):  # PyTorch's Gamma: torch.as_tensor(value, rate's dtype)
            value = _T["as_tensor"](value, dtype=self.rate.dtype)
        value = _validate_sample(self, value, _NONNEGATIVE, lambda v: v >= 0)
        c = self.concentration
        return (
            _xlogy(c, self.rate)
            + _xlogy(c - 1, value)
            - self.rate * value
            - _special("lgamma", c, "Gamma.log_prob")
        )

    def cdf(self, value: Any) -> Tensor:
        # PyTorch's: the regularized lower incomplete gamma of (concentration, rate * value)
        from . import special

        if self.validating:
            value = _validate_sample(self, value, _NONNEGATIVE, lambda v: v >= 0)
        return special.gammainc(self.concentration, self.rate * value)

    def entropy(self) -> Tensor:
        c = self.concentration
        return (
            c
            - _T["log"](self.rate)
            + _special("lgamma", c, "Gamma.entropy")
            + (1.0 - c) * _special("digamma", c, "Gamma.entropy")
        )


class Chi2(Gamma):
    """PyTorch's Chi2: Gamma(df / 2, 1 / 2), with df its one parameter."""

    NAME = "Chi2"
    PARAMS = ()

    def __init__(self, df: Any, validate_args: Any = None) -> None:
        half = df * 0.5 if isinstance(df, Tensor) else 0.5 * df
        self._params(("concentration", "rate"), (half, 0.5))
        if validate_args is not False:
            d = self.df
            self._check("df", d, d.data > 0, _POSITIVE)

    def program_attribute(self, attr: str) -> Any:
        if attr in ("df", "concentration", "rate"):
            return getattr(self, attr)
        return super().program_attribute(attr)

    @property
    def df(self) -> Tensor:
        return self.concentration * 2


class StudentT(_Plain):
    NAME = "StudentT"
    PARAMS = ("df", "loc", "scale")
    has_rsample = True

    def __init__(
        self, df: Any, loc: Any = 0.0, scale: Any = 1.0, validate_args: Any = None
    ) -> None:
        self._params(("df", "loc", "scale"), (df, loc, scale))
        self._chi2 = Chi2(self.df, validate_args=False)
        if validate_args is not False:
            self._check("df", self.df, self.df.data > 0, _POSITIVE)
            self._check("loc", self.loc, self.loc.data == self.loc.data, "Real()")
            self._check("scale", self.scale, self.scale.data > 0, _POSITIVE)

    @property
    def mean(self) -> Tensor:
        from .indexing import setitem

        m = _M["clone"](self.loc)
        setitem(m, _M["le"](self.df, 1), math.nan)
        return m

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        from .indexing import getitem, setitem

        df, scale = self.df, self.scale
        m = _M["clone"](df)
        big = _M["gt"](df, 2)
        setitem(
            m, big, _M["pow"](getitem(scale, big), 2) * getitem(df, big) / (getitem(df, big) - 2)
        )
        setitem(m, _M["logical_and"](_M["le"](df, 2), _M["gt"](df, 1)), math.inf)
        setitem(m, _M["le"](df, 1), math.nan)
        return m

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        x = _M["normal_"](_T["empty"](shape, dtype=self.df.dtype))
        z = self._chi2.rsample(sample_shape)
        y = x * _T["rsqrt"](z / self.df)
        return self.loc + self.scale * y

    def log_prob(self, value: Any) -> Tensor:
        value = _validate_sample(self, value, "Real()")
        df = self.df
        y = (value - self.loc) / self.scale
        what = "StudentT.log_prob"
        z = (
            _M["log"](self.scale)
            + 0.5 * _M["log"](df)
            + 0.5 * math.log(math.pi)
            + _special("lgamma", 0.5 * df, what)
            - _special("lgamma", 0.5 * (df + 1.0), what)
        )
        return -0.5 * (df + 1.0) * _T["log1p"](y**2.0 / df) - z

    def entropy(self) -> Tensor:
        df = self.df
        what = "StudentT.entropy"
        lbeta = (
            _special("lgamma", 0.5 * df, what)
            + math.lgamma(0.5)
            - _special("lgamma", 0.5 * (df + 1), what)
        )
        return (
            _M["log"](self.scale)
            + 0.5
            * (df + 1)
            * (_special("digamma", 0.5 * (df + 1), what) - _special("digamma", 0.5 * df, what))
            + 0.5 * _M["log"](df)
            + lbeta
        )


class Dirichlet(Distribution):
    NAME = "Dirichlet"
    PARAMS = ("concentration",)
    has_rsample = True

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        _draw_gradient_sized(self, self.concentration, math.prod(shape))
        return _dirichlet_draws(self.concentration, shape)

    def __init__(self, concentration: Any, validate_args: Any = None) -> None:
        if not isinstance(concentration, Tensor) or concentration.ndim < 1:
            raise GradcliError(
                "`concentration` parameter must be at least one-dimensional."
            ).mirror("ValueError")
        self.concentration = concentration
        self.batch = tuple(concentration.shape[:-1])
        self.event = tuple(concentration.shape[-1:])
        if validate_args is not False:
            self._check(
                "concentration",
                concentration,
                concentration.data > 0,
                f"IndependentConstraint({_POSITIVE}, 1)",
            )

    @property
    def mean(self) -> Tensor:
        return self.concentration / _M["sum"](self.concentration, -1, True)

    @property
    def mode(self) -> Tensor:
        """PyTorch's: (c - 1)+ normalised; where every concentration is below 1 (0/0 there), the
        one-hot of that row's argmax (the first NaN: a corner), assigned through the mask."""
        from .indexing import getitem, setitem

        cm1 = _M["clamp"](self.concentration - 1, min=0.0)
        mode = cm1 / _M["sum"](cm1, -1, True)
        mask = _M["all"](_M["lt"](self.concentration, 1), dim=-1)
        corner = _F["one_hot"](_M["argmax"](getitem(mode, mask), dim=-1), cm1.shape[-1])
        setitem(mode, mask, _M["to"](corner, mode))
        return mode

    @property
    def variance(self) -> Tensor:
        c = self.concentration
        con0 = _M["sum"](c, -1, True)
        return c * (con0 - c) / (_M["pow"](con0, 2) * (con0 + 1))

    @property
    def stddev(self) -> Tensor:
        return _M["sqrt"](self.variance)

    @staticmethod
    def _simplex(v: np.ndarray) -> Any:
        with np.errstate(invalid="ignore"):
            return np.all(v >= 0, axis=-1) & (np.abs(v.sum(-1) - 1) < 1e-6)

    def log_prob(self, value: Any) -> Tensor:
        value = _validate_sample(self, value, "Simplex()", self._simplex)
        c = self.concentration
        return (
            _M["sum"](_xlogy(c - 1.0, value), -1)
            + _special("lgamma", _M["sum"](c, -1), f"{self.NAME}.log_prob")
            - _M["sum"](_special("lgamma", c, f"{self.NAME}.log_prob"), -1)
        )

    def entropy(self) -> Tensor:
        c = self.concentration
        k = c.shape[-1]
        a0 = _M["sum"](c, -1)
        what = f"{self.NAME}.entropy"
        return (
            _M["sum"](_special("lgamma", c, what), -1)
            - _special("lgamma", a0, what)
            - (k - a0) * _special("digamma", a0, what)
            - _M["sum"]((c - 1.0) * _special("digamma", c, what), -1)
        )


class Beta(_Plain):
    """PyTorch's Beta: a Dirichlet over (x, 1 - x) with concentrations stacked last."""

    NAME = "Beta"
    PARAMS = ()
    has_rsample = True

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        return _M["select"](self._dirichlet.rsample(sample_shape), -1, 0)

    def __init__(self, concentration1: Any, concentration0: Any, validate_args: Any = None) -> None:
        if not isinstance(concentration1, Tensor) and not isinstance(concentration0, Tensor):
            both = _T["tensor"]([float(concentration1), float(concentration0)])
        else:
            c1, c0 = _broadcast_all(concentration1, concentration0)
            both = _T["stack"]([c1, c0], -1)
        self._dirichlet = Dirichlet(both, validate_args=validate_args)
        self.batch = self._dirichlet.batch

    def program_attribute(self, attr: str) -> Any:
        if attr in ("concentration1", "concentration0"):
            return getattr(self, attr)
        return super().program_attribute(attr)

    @property
    def concentration1(self) -> Tensor:
        return self._dirichlet.concentration[..., 0]

    @property
    def concentration0(self) -> Tensor:
        return self._dirichlet.concentration[..., 1]

    @property
    def mean(self) -> Tensor:
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self) -> Tensor:
        return self._dirichlet.mode[..., 0]

    @property
    def variance(self) -> Tensor:
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (_M["pow"](total, 2) * (total + 1))

    def log_prob(self, value: Any) -> Tensor:
        value = _validate_sample(
            self,
            value,
            "Interval(lower_bound=0.0, upper_bound=1.0)",
            lambda v: (v >= 0) & (v <= 1),
        )
        heads_tails = _T["stack"]([value, 1.0 - value], -1)
        return self._dirichlet.log_prob(heads_tails)

    def entropy(self) -> Tensor:
        return self._dirichlet.entropy()


class Independent(Distribution):
    NAME = "Independent"

    def __init__(
        self, base_distribution: Any, reinterpreted_batch_ndims: Any, validate_args: Any = None
    ) -> None:
        if not isinstance(base_distribution, Distribution):
            raise GradcliError(
                "Independent's base_distribution must be a torch.distributions distribution, "
                f"not {typename(base_distribution)}"
            ).mirror("TypeError")
        n = reinterpreted_batch_ndims
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise GradcliError(
                f"reinterpreted_batch_ndims must be a non-negative int, not {n!r}"
            ).mirror("TypeError")
        base = base_distribution
        if n > len(base.batch):
            raise GradcliError(
                "Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), "
                f"actual {n} vs {len(base.batch)}"
            ).mirror("ValueError")
        shape = base.batch + base.event
        event_dim = n + len(base.event)
        self.batch = shape[: len(shape) - event_dim]
        self.event = shape[len(shape) - event_dim :]
        self.base_dist = base
        self.reinterpreted_batch_ndims = n
        self.has_rsample = base.has_rsample
        self.has_enumerate_support = n == 0 and base.has_enumerate_support

    def enumerate_support(self, expand: Any = True) -> Tensor:
        if self.reinterpreted_batch_ndims > 0:
            raise (
                GradcliError("Enumeration over cartesian product is not implemented")
                .mirror("NotImplementedError")
                .pytorch()
            )
        return self.base_dist.enumerate_support(expand=expand)

    def program_attribute(self, attr: str) -> Any:
        if attr in ("base_dist", "reinterpreted_batch_ndims", "has_rsample"):
            return getattr(self, attr)
        return super().program_attribute(attr)

    @property
    def mean(self) -> Tensor:
        return self.base_dist.mean

    @property
    def mode(self) -> Tensor:
        return self.base_dist.mode

    @property
    def variance(self) -> Tensor:
        return self.base_dist.variance

    @property
    def stddev(self) -> Tensor:  # Distribution's: the square root of the variance
        return _M["sqrt"](self.variance)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        return self.base_dist.rsample(sample_shape)

    def log_prob(self, value: Any) -> Tensor:
        return _sum_rightmost(self.base_dist.log_prob(value), self.reinterpreted_batch_ndims)

    def entropy(self) -> Tensor:
        return _sum_rightmost(self.base_dist.entropy(), self.reinterpreted_batch_ndims)

    def __repr__(self) -> str:
        return f"Independent({self.base_dist!r}, {self.reinterpreted_batch_ndims})"


class MixtureSameFamily(Distribution):
    """`MixtureSameFamily(Categorical(...), Normal(...))`: a mixture of the components' last
    batch dimension, weighted by the Categorical; sampled as PyTorch samples it (the mixture's
    draw first, then every component's, then the chosen one gathered)."""

    NAME = "MixtureSameFamily"

    def __init__(
        self, mixture_distribution: Any, component_distribution: Any, validate_args: Any = None
    ) -> None:
        if not isinstance(mixture_distribution, Categorical):
            raise GradcliError(
                "The Mixture distribution needs to be an instance of "
                "torch.distributions.Categorical"
            ).mirror("ValueError")
        if not isinstance(component_distribution, Distribution):
            raise GradcliError(
                "The Component distribution need to be an instance of "
                "torch.distributions.Distribution"
            ).mirror("ValueError")
        mdbs = mixture_distribution.batch
        cdbs = component_distribution.batch[:-1]
        for size1, size2 in zip(reversed(mdbs), reversed(cdbs)):
            if size1 != 1 and size2 != 1 and size1 != size2:
                raise GradcliError(
                    f"`mixture_distribution.batch_shape` ({Size(mdbs)}) is not compatible with "
                    f"`component_distribution.batch_shape`({Size(cdbs)})"
                ).mirror("ValueError")
        km = mixture_distribution.logits.shape[-1]  # (as PyTorch: its lazy logits are made)
        kc = component_distribution.batch[-1] if component_distribution.batch else None
        if km != kc:
            raise GradcliError(
                f"`mixture_distribution component` ({km}) does not equal "
                f"`component_distribution.batch_shape[-1]` ({kc})"
            ).mirror("ValueError")
        self.mixture_distribution = mixture_distribution
        self.component_distribution = component_distribution
        self._num_component = km
        self.batch = cdbs
        self.event = component_distribution.event
        self._event_ndims = len(self.event)

    def program_attribute(self, attr: str) -> Any:
        if attr in ("mixture_distribution", "component_distribution", "has_rsample"):
            return getattr(self, attr)
        return super().program_attribute(attr)

    def _expand(self, shape: tuple[int, ...]) -> Distribution:
        """PyTorch's MixtureSameFamily.expand: the components expanded to the batch shape and
        their number, the Categorical to the batch shape."""
        new = object.__new__(MixtureSameFamily)
        new.__dict__.update(self.__dict__)
        new.component_distribution = self.component_distribution.expand(
            shape + (self._num_component,)
        )
        new.mixture_distribution = self.mixture_distribution.expand(shape)
        new.batch = shape
        new.event = new.component_distribution.event
        return new

    def _pad(self, x: Tensor) -> Tensor:
        return _M["unsqueeze"](x, -1 - self._event_ndims)

    def cdf(self, value: Any) -> Tensor:
        # PyTorch's: the components' cdfs weighted by the mixture's probs (no validation)
        cdf_x = self.component_distribution.cdf(self._pad(_value(value, self, check=False)))
        return _M["sum"](cdf_x * self.mixture_distribution.probs, -1)

    def _pad_mixture_dimensions(self, x: Tensor) -> Tensor:
        dist_batch_ndims = len(self.batch)
        cat_batch_ndims = len(self.mixture_distribution.batch)
        pad_ndims = 0 if cat_batch_ndims == 1 else dist_batch_ndims - cat_batch_ndims
        xs = tuple(x.shape)
        x = _M["reshape"](x, *(xs[:-1] + (1,) * pad_ndims + xs[-1:] + (1,) * self._event_ndims))
        return x

    @property
    def mean(self) -> Tensor:
        probs = self._pad_mixture_dimensions(self.mixture_distribution.probs)
        return _T["sum"](probs * self.component_distribution.mean, dim=-1 - self._event_ndims)

    @property
    def variance(self) -> Tensor:
        probs = self._pad_mixture_dimensions(self.mixture_distribution.probs)
        d = -1 - self._event_ndims
        mean_cond_var = _T["sum"](probs * self.component_distribution.variance, dim=d)
        var_cond_mean = _T["sum"](
            probs * _M["pow"](self.component_distribution.mean - self._pad(self.mean), 2.0),
            dim=d,
        )
        return mean_cond_var + var_cond_mean

    @property
    def stddev(self) -> Tensor:
        return _M["sqrt"](self.variance)

    def log_prob(self, value: Any) -> Tensor:
        x = self._pad(_value(value, self, check=False))
        log_prob_x = self.component_distribution.log_prob(x)  # [S, B, k]
        log_mix_prob = _T["log_softmax"](self.mixture_distribution.logits, dim=-1)  # [B, k]
        return _T["logsumexp"](log_prob_x + log_mix_prob, dim=-1)  # [S, B]

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = _sample_shape(sample_shape)
        with no_grad():
            gather_dim = len(shape) + len(self.batch)
            es = self.event
            mix_sample = self.mixture_distribution.sample(shape)  # [n, B]
            mix_shape = tuple(mix_sample.shape)
            comp_samples = self.component_distribution.sample(shape)  # [n, B, k, E]
            mix_sample_r = _M["reshape"](mix_sample, *(mix_shape + (1,) * (len(es) + 1)))
            mix_sample_r = _M["repeat"](mix_sample_r, *((1,) * len(mix_shape) + (1,) + es))
            samples = _T["gather"](comp_samples, gather_dim, mix_sample_r)
            return _M["squeeze"](samples, gather_dim)

    def __repr__(self) -> str:
        return (
            f"MixtureSameFamily(\n  {self.mixture_distribution!r},\n"
            f"  {self.component_distribution!r})"
        )


class Cauchy(_Plain):
    NAME = "Cauchy"
    PARAMS = ("loc", "scale")
    PROGRAM_METHODS = Distribution.PROGRAM_METHODS + ("icdf",)
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, validate_args: Any = None) -> None:
        self._params(("loc", "scale"), (loc, scale))
        if validate_args is not False:
            self._check("loc", self.loc, self.loc.data == self.loc.data, "Real()")
            self._check("scale", self.scale, self.scale.data > 0, _POSITIVE)

    @property
    def mean(self) -> Tensor:
        return _T["full"](self.batch, math.nan, dtype=self.loc.dtype)

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        return _T["full"](self.batch, math.inf, dtype=self.loc.dtype)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        eps = _M["cauchy_"](_T["empty"](shape, dtype=self.loc.dtype))
        return self.loc + eps * self.scale

    def log_prob(self, value: Any) -> Tensor:
        value = _validate_sample(self, value, "Real()")
        z = (value - self.loc) / self.scale
        return -math.log(math.pi) - _M["log"](self.scale) - _M["log1p"](z**2)

    def cdf(self, value: Any) -> Tensor:
        value = _validate_sample(self, value, "Real()")
        return _T["atan"]((value - self.loc) / self.scale) / math.pi + 0.5

    def icdf(self, value: Any) -> Tensor:
        value = _value(value, self, check=False)
        return _T["tan"](math.pi * (value - 0.5)) * self.scale + self.loc

    def entropy(self) -> Tensor:
        return math.log(4 * math.pi) + _M["log"](self.scale)


class HalfNormal(_Plain):
    """PyTorch's TransformedDistribution of Normal(0, scale) by abs, with its own log_prob."""

    NAME = "HalfNormal"
    PARAMS = ()
    has_rsample = True

    def __init__(self, scale: Any, validate_args: Any = None) -> None:
        self.base_dist = Normal(0, scale, validate_args=False)
        self.batch = self.base_dist.batch
        if validate_args is not False:
            s = self.base_dist.scale
            self._check("scale", s, s.data > 0, _POSITIVE)

    @property
    def scale(self) -> Tensor:
        return self.base_dist.scale

    def program_attribute(self, attr: str) -> Any:
        if attr in ("scale", "base_dist"):
            return getattr(self, attr)
        return super().program_attribute(attr)

    @property
    def mean(self) -> Tensor:
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def mode(self) -> Tensor:
        return _T["zeros_like"](self.scale)

    @property
    def variance(self) -> Tensor:
        return _M["pow"](self.scale, 2) * (1 - 2 / math.pi)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        return _M["abs"](self.base_dist.rsample(sample_shape))

    def sample(self, sample_shape: Any = ()) -> Tensor:
        with no_grad():
            return _M["abs"](self.base_dist.sample(sample_shape))

    def log_prob(self, value: Any) -> Tensor:
        value = _validate_sample(self, value, _NONNEGATIVE, lambda v: v >= 0)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return _T["where"](_M["ge"](value, 0), log_prob, -math.inf)

    def cdf(self, value: Any) -> Tensor:
        value = _validate_sample(self, value, _NONNEGATIVE, lambda v: v >= 0)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, value: Any) -> Tensor:
        # PyTorch's HalfNormal.icdf: the Normal's at (p + 1) / 2, the value not validated
        if isinstance(value, Tensor) or not isinstance(value, (int, float)):
            value = _value(value, self, check=False)
        return self.base_dist.icdf((value + 1) / 2)

    def entropy(self) -> Tensor:
        return self.base_dist.entropy() - math.log(2)


class Geometric(_Lazy):
    NAME = "Geometric"
    PARAMS = ("probs", "logits")

    def __init__(self, probs: Any = None, logits: Any = None, validate_args: Any = None) -> None:
        _binary_params(self, probs, logits, validate_args, positive=True)

    @property
    def mean(self) -> Tensor:
        return 1.0 / self.probs - 1.0

    @property
    def mode(self) -> Tensor:
        return _T["zeros_like"](self.probs)

    @property
    def variance(self) -> Tensor:
        return (1.0 / self.probs - 1.0) / self.probs

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        probs = self.probs
        tiny = float(np.finfo(probs.dtype).tiny)
        with no_grad():
            u = _M["uniform_"](_T["empty"](shape, dtype=probs.dtype), tiny, 1)
            return _M["floor"](_M["log"](u) / _M["log1p"](-probs))

    def log_prob(self, value: Any) -> Tensor:
        value = _validate_sample(
            self,
            value,
            "IntegerGreaterThan(lower_bound=0)",
            lambda v: (v >= 0) & (v == np.floor(v)),
        )
        value, probs = _broadcast_all(value, self.probs)
        probs = _T["where"](_M["logical_and"](_M["eq"](probs, 1), _M["eq"](value, 0)), 0.0, probs)
        return value * _M["log1p"](-probs) + _M["log"](self.probs)

    def entropy(self) -> Tensor:
        bce = _F["binary_cross_entropy_with_logits"](self.logits, self.probs, reduction="none")
        return bce / self.probs


class OneHotCategorical(Distribution):
    NAME = "OneHotCategorical"
    PARAMS = ()
    PROGRAM_DATA = (*Distribution.PROGRAM_DATA, "param_shape")

    @property
    def param_shape(self) -> Size:
        return self._categorical.param_shape

    def __init__(self, probs: Any = None, logits: Any = None, validate_args: Any = None) -> None:
        self._categorical = Categorical(probs, logits, validate_args=validate_args)
        self.batch = self._categorical.batch
        self.event = (self._categorical.events,)

    def program_attribute(self, attr: str) -> Any:
        if attr in ("probs", "logits"):
            return getattr(self._categorical, attr)
        return super().program_attribute(attr)

    has_enumerate_support = True

    def enumerate_support(self, expand: Any = True) -> Tensor:
        n = self._categorical.events
        eye = _T["eye"](n, dtype=self._categorical._probs.dtype)
        return self._enumerated(eye, expand, (n,))

    @property
    def mean(self) -> Tensor:
        return self._categorical.probs

    @property
    def mode(self) -> Tensor:
        probs = self._categorical.probs
        idx = _M["argmax"](probs, dim=-1)
        return _M["to"](_F["one_hot"](idx, num_classes=probs.shape[-1]), probs)

    @property
    def variance(self) -> Tensor:
        p = self._categorical.probs
        return p * (1 - p)

    @property
    def stddev(self) -> Tensor:
        return _M["sqrt"](self.variance)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        probs = self._categorical.probs
        indices = self._categorical.sample(sample_shape)
        return _M["to"](_F["one_hot"](indices, self._categorical.events), probs)

    def log_prob(self, value: Any) -> Tensor:
        def one_hot(v: np.ndarray) -> Any:
            return np.all((v == 0) | (v == 1), axis=-1) & (v.sum(-1) == 1)

        value = _validate_sample(self, value, "OneHot()", one_hot)
        indices = _M["max"](value, -1)[1]
        return self._categorical.log_prob(indices)

    def entropy(self) -> Tensor:
        return self._categorical.entropy()


# --- MultivariateNormal -------------------------------------------------------------------------


def _batch_mv(bmat: Tensor, bvec: Tensor) -> Tensor:
    return _M["squeeze"](_T["matmul"](bmat, _M["unsqueeze"](bvec, -1)), -1)


def _batch_mahalanobis(bL: Tensor, bx: Tensor) -> Tensor:  # noqa: N803
    """x^T (L L^T)^-1 x as PyTorch's _batch_mahalanobis computes it: x's batch axes folded so
    that L's batch lines up, one triangular solve of all right-hand sides, squares summed,
    then the axes put back."""
    n = bx.shape[-1]
    bx_batch_shape = tuple(bx.shape[:-1])
    bx_batch_dims = len(bx_batch_shape)
    bl_batch_dims = bL.ndim - 2
    outer = bx_batch_dims - bl_batch_dims
    old = outer + bl_batch_dims
    new = outer + 2 * bl_batch_dims
    new_shape = tuple(bx.shape[:outer])
    for sl, sx in zip(bL.shape[:-2], bx.shape[outer:-1]):
        new_shape += (sx // sl, sl)
    new_shape += (n,)
    bx = _M["reshape"](bx, *new_shape)
    perm = list(range(outer)) + list(range(outer, new, 2)) + list(range(outer + 1, new, 2)) + [new]
    bx = _M["permute"](bx, *perm)
    flat_l = _M["reshape"](bL, -1, n, n)
    flat_x = _M["reshape"](bx, -1, flat_l.shape[0], n)
    flat_x_swap = _M["permute"](flat_x, 1, 2, 0)
    solved = N.LINALG["solve_triangular"](flat_l, flat_x_swap, upper=False)
    m = _M["t"](_M["sum"](_M["pow"](solved, 2), -2))
    permuted = _M["reshape"](m, *bx.shape[:-1])
    inv = list(range(outer))
    for i in range(bl_batch_dims):
        inv += [outer + i, old + i]
    return _M["reshape"](_M["permute"](permuted, *inv), *bx_batch_shape)


def _batch_shapes(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise GradcliError(
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
            "between " + " and ".join(f"arg {i} with shape {list(s)}" for i, s in enumerate(shapes))
        ).mirror("RuntimeError") from None


class MultivariateNormal(Distribution):
    NAME = "MultivariateNormal"
    PARAMS = ("loc", "covariance_matrix", "precision_matrix", "scale_tril")
    PROGRAM_DATA = Distribution.PROGRAM_DATA
    has_rsample = True

    def __init__(
        self,
        loc: Any,
        covariance_matrix: Any = None,
        precision_matrix: Any = None,
        scale_tril: Any = None,
        validate_args: Any = None,
    ) -> None:
        if not isinstance(loc, Tensor):
            raise GradcliError(
                f"MultivariateNormal's loc must be a Tensor, not {typename(loc)}"
            ).mirror("TypeError")
        if loc.ndim < 1:
            raise GradcliError("loc must be at least one-dimensional.").mirror("ValueError")
        kind, mat = one_matrix(covariance_matrix, precision_matrix, scale_tril, "ValueError")
        if not isinstance(mat, Tensor):
            raise GradcliError(f"{kind} must be a Tensor, not {typename(mat)}").mirror("TypeError")
        if mat.ndim < 2:
            raise GradcliError(
                f"{kind} must be at least two-dimensional, with optional leading batch dimensions"
            ).mirror("ValueError")
        batch = _batch_shapes(tuple(mat.shape[:-2]), tuple(loc.shape[:-1]))
        self.shown = {"loc", kind}
        setattr(self, "_" + kind, _M["expand"](mat, *(batch + (-1, -1))))
        self._loc = _M["expand"](loc, *(batch + (-1,)))
        self.batch = batch
        self.event = tuple(self._loc.shape[-1:])
        if validate_args is not False:
            self._validate(kind)
        if kind == "scale_tril":
            self._unbroadcasted_scale_tril = mat
        elif kind == "covariance_matrix":
            self._unbroadcasted_scale_tril = N.LINALG["cholesky"](mat)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(mat)

    def _validate(self, kind: str) -> None:
        m = getattr(self, "_" + kind)
        n = m.shape[-1]
        # the checks factor each matrix as the Cholesky factorisation after them does: bounded
        # by the same limit, before any work
        limits.LINALG_WORK.check(
            math.prod(m.shape[:-2]) * n * n * n, f"the work of linalg.cholesky on {list(m.shape)}"
        )
        loc = self._loc
        self._check("loc", loc, np.all(loc.data == loc.data), "IndependentConstraint(Real(), 1)")
        a = m.data
        if kind == "scale_tril":
            ok = np.all(np.tril(a) == a) and np.all(np.diagonal(a, axis1=-2, axis2=-1) > 0)
            self._check(kind, m, ok, "LowerCholesky()")
            return
        ok = a.shape[-1] == a.shape[-2] and bool(
            np.all(np.isclose(a, np.swapaxes(a, -1, -2), rtol=1e-5, atol=1e-6, equal_nan=False))
        )
        if ok:
            try:
                np.linalg.cholesky(a.astype(np.float64) if a.dtype != np.float64 else a)
            except np.linalg.LinAlgError:
                ok = False
            if ok and a.dtype == np.float32:
                ok = _cholesky32_ok(a)
        self._check(kind, m, ok, "PositiveDefinite()")

    # the three matrices: the given one, the others computed when first asked
    def _lazy(self, kind: str) -> Tensor:
        self.shown.add(kind)  # type: ignore[union-attr]
        if getattr(self, "_" + kind, None) is None:
            low = self._unbroadcasted_scale_tril
            full = self.batch + self.event + self.event
            if kind == "scale_tril":
                made = low
            elif kind == "covariance_matrix":
                made = _T["matmul"](low, _M["transpose"](low, -2, -1))
            else:
                made = _cholesky_inverse(low)
            setattr(self, "_" + kind, _M["expand"](made, *full))
        return getattr(self, "_" + kind)

    _covariance_matrix: Tensor | None = None
    _precision_matrix: Tensor | None = None
    _scale_tril: Tensor | None = None

    @property
    def loc(self) -> Tensor:
        return self._loc

    @property
    def covariance_matrix(self) -> Tensor:
        return self._lazy("covariance_matrix")

    @property
    def precision_matrix(self) -> Tensor:
        return self._lazy("precision_matrix")

    @property
    def scale_tril(self) -> Tensor:
        return self._lazy("scale_tril")

    @property
    def mean(self) -> Tensor:
        return self._loc

    mode = mean

    @property
    def variance(self) -> Tensor:
        v = _M["sum"](_M["pow"](self._unbroadcasted_scale_tril, 2), -1)
        return _M["expand"](v, *(self.batch + self.event))

    @property
    def stddev(self) -> Tensor:
        return _M["sqrt"](self.variance)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        eps = _M["normal_"](_T["empty"](shape, dtype=self._loc.dtype))
        return self._loc + _batch_mv(self._unbroadcasted_scale_tril, eps)

    def _half_log_det(self) -> Tensor:
        diag = _M["diagonal"](self._unbroadcasted_scale_tril, dim1=-2, dim2=-1)
        return _M["sum"](_M["log"](diag), -1)

    def log_prob(self, value: Any) -> Tensor:
        value = _validate_sample(
            self, value, "IndependentConstraint(Real(), 1)", lambda v: np.all(v == v, axis=-1)
        )
        diff = value - self._loc
        m = _batch_mahalanobis(self._unbroadcasted_scale_tril, diff)
        return -0.5 * (self.event[0] * math.log(2 * math.pi) + m) - self._half_log_det()

    def entropy(self) -> Tensor:
        h = 0.5 * self.event[0] * (1.0 + math.log(2 * math.pi)) + self._half_log_det()
        return h if not self.batch else _M["expand"](h, *self.batch)


class LowRankMultivariateNormal(Distribution):
    """PyTorch's LowRankMultivariateNormal: covariance W W^T + diag(D) of a low-rank factor W
    (n x m) and a positive diagonal D, computed through the m x m capacitance matrix
    I + W^T D^-1 W (its Cholesky factor) as PyTorch's does, never the n x n covariance."""

    NAME = "LowRankMultivariateNormal"
    PARAMS = ("loc", "cov_factor", "cov_diag")
    has_rsample = True

    def __init__(self, loc: Any, cov_factor: Any, cov_diag: Any, validate_args: Any = None) -> None:
        for name, t in (("loc", loc), ("cov_factor", cov_factor), ("cov_diag", cov_diag)):
            if not isinstance(t, Tensor):
                raise GradcliError(
                    f"LowRankMultivariateNormal's {name} must be a Tensor, not {typename(t)}"
                ).mirror("TypeError")
        if loc.ndim < 1:
            raise GradcliError("loc must be at least one-dimensional.").mirror("ValueError")
        n = loc.shape[-1]
        if cov_factor.ndim < 2:
            raise GradcliError(
                "cov_factor must be at least two-dimensional, with optional leading batch "
                "dimensions"
            ).mirror("ValueError")
        if cov_factor.shape[-2] != n:
            raise GradcliError(f"cov_factor must be a batch of matrices with shape {n} x m").mirror(
                "ValueError"
            )
        if tuple(cov_diag.shape[-1:]) != (n,):
            raise GradcliError(
                f"cov_diag must be a batch of vectors with shape {Size((n,))!r}"
            ).mirror("ValueError")
        try:
            shape = np.broadcast_shapes(
                tuple(loc.shape) + (1,), tuple(cov_factor.shape), tuple(cov_diag.shape) + (1,)
            )
        except ValueError:
            raise GradcliError(
                f"Incompatible batch shapes: loc {Size(loc.shape)!r}, cov_factor "
                f"{Size(cov_factor.shape)!r}, cov_diag {Size(cov_diag.shape)!r}"
            ).mirror("ValueError") from None
        self.shown = {"loc", "cov_factor", "cov_diag"}

        # PyTorch's broadcast_tensors of loc[..., None], cov_factor, cov_diag[..., None], then
        # the vectors' last column (SelectBackward0)
        def broadcast(t: Tensor) -> Tensor:  # (broadcast_tensors leaves a tensor of the shape)
            return t if tuple(t.shape) == shape else _M["expand"](t, *shape)

        self._loc = _M["select"](broadcast(_M["unsqueeze"](loc, -1)), -1, 0)
        self._cov_factor = broadcast(cov_factor)
        self._cov_diag = _M["select"](broadcast(_M["unsqueeze"](cov_diag, -1)), -1, 0)
        self.batch = tuple(shape[:-2])
        self.event = (n,)
        self._w, self._d = cov_factor, cov_diag
        # (the capacitance's Cholesky factor comes before the parameters' checks, as PyTorch's)
        self._capacitance_tril = self._capacitance()
        if validate_args is not False:
            loc_ok = self._loc.data == self._loc.data
            self._check("loc", self._loc, loc_ok, "IndependentConstraint(Real(), 1)")
            f = self._cov_factor.data
            self._check("cov_factor", self._cov_factor, f == f, "IndependentConstraint(Real(), 2)")
            self._check(
                "cov_diag",
                self._cov_diag,
                self._cov_diag.data > 0,
                f"IndependentConstraint({_POSITIVE}, 1)",
            )

    def _wt_dinv(self) -> Tensor:
        return _M["transpose"](self._w, -2, -1) / _M["unsqueeze"](self._d, -2)

    def _capacitance(self) -> Tensor:
        # I + W^T D^-1 W, its diagonal raised by one (PyTorch adds 1 in place on a view)
        k = _T["matmul"](self._wt_dinv(), self._w)
        m = k.shape[-1]
        return N.LINALG["cholesky"](k + _T["eye"](m, dtype=k.dtype))

    def _log_det(self) -> Tensor:
        diag = _M["diagonal"](self._capacitance_tril, dim1=-2, dim2=-1)
        return 2 * _M["sum"](_M["log"](diag), -1) + _M["sum"](_M["log"](self._d), -1)

    @property
    def loc(self) -> Tensor:
        return self._loc

    @property
    def cov_factor(self) -> Tensor:
        return self._cov_factor

    @property
    def cov_diag(self) -> Tensor:
        return self._cov_diag

    @property
    def mean(self) -> Tensor:
        return self._loc

    mode = mean

    @property
    def variance(self) -> Tensor:
        v = _M["sum"](_M["pow"](self._w, 2), -1) + self._d
        return _M["expand"](v, *(self.batch + self.event))

    @property
    def stddev(self) -> Tensor:
        return _M["sqrt"](self.variance)

    @property
    def covariance_matrix(self) -> Tensor:
        c = _T["matmul"](self._w, _M["transpose"](self._w, -2, -1)) + _T["diag_embed"](self._d)
        return _M["expand"](c, *(self.batch + self.event + self.event))

    @property
    def precision_matrix(self) -> Tensor:
        a = N.LINALG["solve_triangular"](self._capacitance_tril, self._wt_dinv(), upper=False)
        p = _T["diag_embed"](_M["reciprocal"](self._d)) - _T["matmul"](
            _M["transpose"](a, -2, -1), a
        )
        return _M["expand"](p, *(self.batch + self.event + self.event))

    @property
    def scale_tril(self) -> Tensor:
        n = self.event[0]
        root = _M["unsqueeze"](_M["sqrt"](self._d), -1)
        dw = self._w / root
        k = _T["matmul"](dw, _M["transpose"](dw, -2, -1)) + _T["eye"](n, dtype=dw.dtype)
        low = root * N.LINALG["cholesky"](k)
        return _M["expand"](low, *(self.batch + self.event + self.event))

    def program_attribute(self, attr: str) -> Any:
        if attr in ("covariance_matrix", "precision_matrix", "scale_tril"):
            return getattr(self, attr)
        return super().program_attribute(attr)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        w_shape = shape[:-1] + tuple(self._w.shape[-1:])
        eps_w = _M["normal_"](_T["empty"](w_shape, dtype=self._loc.dtype))
        eps_d = _M["normal_"](_T["empty"](shape, dtype=self._loc.dtype))
        return self._loc + _batch_mv(self._w, eps_w) + _M["sqrt"](self._d) * eps_d

    def log_prob(self, value: Any) -> Tensor:
        value = _validate_sample(
            self, value, "IndependentConstraint(Real(), 1)", lambda v: np.all(v == v, axis=-1)
        )
        diff = value - self._loc
        x2 = _M["sum"](_M["pow"](diff, 2) / self._d, -1)
        m = x2 - _batch_mahalanobis(self._capacitance_tril, _batch_mv(self._wt_dinv(), diff))
        return -0.5 * (self.event[0] * math.log(2 * math.pi) + self._log_det() + m)

    def entropy(self) -> Tensor:
        h = 0.5 * (self.event[0] * (1.0 + math.log(2 * math.pi)) + self._log_det())
        return h if not self.batch else _M["expand"](h, *self.batch)


def _cholesky32_ok(a: np.ndarray) -> bool:
    """Whether a float32 Cholesky factorisation completes (its pivots stay positive in float32
    arithmetic: a matrix barely positive definite in float64 can fail there, as in PyTorch)."""
    flat = a.reshape((math.prod(a.shape[:-2]),) + a.shape[-2:])
    for m in flat:
        n = m.shape[0]
        low = np.zeros((n, n), dtype=np.float32)
        for j in range(n):
            d = np.float32(m[j, j]) - np.float32(np.dot(low[j, :j], low[j, :j]))
            if not d > 0:
                return False
            low[j, j] = np.sqrt(d)
            low[j + 1 :, j] = (m[j + 1 :, j] - low[j + 1 :, :j] @ low[j, :j]) / low[j, j]
    return True


def _precision_to_scale_tril(p: Tensor) -> Tensor:
    lf = N.LINALG["cholesky"](_T["flip"](p, (-2, -1)))
    l_inv = _M["transpose"](_T["flip"](lf, (-2, -1)), -2, -1)
    eye = _T["eye"](p.shape[-1], dtype=p.dtype)
    return N.LINALG["solve_triangular"](l_inv, eye, upper=False)


def _cholesky_inverse(low: Tensor) -> Tensor:
    """(L L^T)^-1 = L^-T L^-1 (torch.cholesky_inverse's value, by two triangular solves)."""
    eye = _T["eye"](low.shape[-1], dtype=low.dtype)
    l_inv = N.LINALG["solve_triangular"](low, eye, upper=False)
    return _T["matmul"](_M["transpose"](l_inv, -2, -1), l_inv)


def _kl_mvn(p: MultivariateNormal, q: MultivariateNormal) -> Tensor:
    if p.event != q.event:
        raise GradcliError(
            "KL-divergence between two Multivariate Normals with                          "
            "different event shapes cannot be computed"
        ).mirror("ValueError")
    pl, ql = p._unbroadcasted_scale_tril, q._unbroadcasted_scale_tril
    half_term1 = q._half_log_det() - p._half_log_det()
    combined = _batch_shapes(tuple(ql.shape[:-2]), tuple(pl.shape[:-2]))
    n = p.event[0]
    q_tril = _M["expand"](ql, *(combined + (n, n)))
    p_tril = _M["expand"](pl, *(combined + (n, n)))
    x = N.LINALG["solve_triangular"](q_tril, p_tril, upper=False)
    term2 = _M["reshape"](_M["sum"](_M["pow"](_M["reshape"](x, -1, n * n), 2), -1), *combined)
    term3 = _batch_mahalanobis(ql, q.loc - p.loc)
    return half_term1 + 0.5 * (term2 + term3 - n)


CLASSES: dict[str, type] = {
    "Normal": Normal,
    "Uniform": Uniform,
    "Bernoulli": Bernoulli,
    "Categorical": Categorical,
    "MultivariateNormal": MultivariateNormal,
    "LowRankMultivariateNormal": LowRankMultivariateNormal,
    "Independent": Independent,
    "MixtureSameFamily": MixtureSameFamily,
    "Exponential": Exponential,
    "Laplace": Laplace,
    "Poisson": Poisson,
    "LogNormal": LogNormal,
    "Gamma": Gamma,
    "Beta": Beta,
    "Dirichlet": Dirichlet,
    "Cauchy": Cauchy,
    "HalfNormal": HalfNormal,
    "Geometric": Geometric,
    "OneHotCategorical": OneHotCategorical,
    "StudentT": StudentT,
    "Chi2": Chi2,
}

# classes gradcli makes that live in another class's module
_SUBMODULES = {"LogitRelaxedBernoulli": "relaxed_bernoulli"}

# the module each class lives in under torch.distributions (torch.distributions.normal.Normal)
MODULES: dict[str, str] = {
    "MultivariateNormal": "multivariate_normal",
    "LowRankMultivariateNormal": "lowrank_multivariate_normal",
    "LogNormal": "log_normal",
    "HalfNormal": "half_normal",
    "OneHotCategorical": "one_hot_categorical",
    "StudentT": "studentT",
    "MixtureSameFamily": "mixture_same_family",
}


# --- transforms and TransformedDistribution ----------------------------------------------------
#
# torch.distributions.transforms as TransformedDistribution uses them: each transform's
# `_call`, `_inverse` and `log_abs_det_jacobian` are PyTorch's operations in its order, and a
# transform made with cache_size=1 keeps its last (x, y) pair: given that same y (the same
# tensor object) its inverse returns that x without computing it (so a sample's log_prob does
# not differentiate through the inverse, as in PyTorch).

_REAL = "Real()"


class Transform:
    NAME = "Transform"
    bijective = True
    domain_event_dim = 0
    codomain_event_dim = 0
    codomain = (_REAL, lambda v: v == v)  # the support constraint of values it makes

    def __init__(self, cache_size: int = 0) -> None:
        if not (isinstance(cache_size, (int, float)) and cache_size in (0, 1)):
            raise GradcliError("cache_size must be 0 or 1").mirror("ValueError")
        self._cache_size = cache_size
        self._cached_x_y: tuple[Any, Any] = (None, None)

    def program_attribute(self, attr: str) -> Any:
        if attr in (
            "inv",
            "sign",
            "event_dim",
            "log_abs_det_jacobian",
            "bijective",
            "forward_shape",
            "inverse_shape",
        ):
            return getattr(self, attr)
        if attr == "domain":
            return self.domain_constraint()
        if attr == "codomain":
            return self.codomain_constraint()
        raise GradcliError(
            f"'{type(self).__name__}' object has no attribute '{attr}'", found=f"`.{attr}`"
        ).mirror("AttributeError")

    # `t.domain` / `t.codomain` as programs read them: PyTorch's constraint objects, the
    # class's own widened to the transform's event dimensions by independent(), as PyTorch's
    # AffineTransform, ReshapeTransform and ComposeTransform do.
    def _domain_base(self) -> Any:
        from .dist_constraints import real

        return real

    def _codomain_base(self) -> Any:
        from .dist_constraints import _CODOMAINS, real

        return _CODOMAINS.get(self.codomain[0], real)

    def domain_constraint(self) -> Any:
        return _widened(self._domain_base(), self.domain_event_dim)

    def codomain_constraint(self) -> Any:
        return _widened(self._codomain_base(), self.codomain_event_dim)

    @property
    def sign(self) -> Any:
        # PyTorch's Transform.sign: only the elementwise bijections have one
        raise GradcliError("").mirror("NotImplementedError").pytorch()

    @property
    def event_dim(self) -> int:
        if self.domain_event_dim == self.codomain_event_dim:
            return self.domain_event_dim
        raise GradcliError("Please use either .domain.event_dim or .codomain.event_dim").mirror(
            "ValueError"
        )

    def with_cache(self, cache_size: int = 1) -> Transform:
        """The transform with a cache of its last (x, y) (cache_size 1), or without (0)."""
        if self._cache_size == cache_size:
            return self
        if type(self).__init__ is Transform.__init__:
            return type(self)(cache_size=cache_size)
        raise GradcliError(f"{type(self).__name__}.with_cache is not implemented").mirror(
            "NotImplementedError"
        )

    @property
    def inv(self) -> Transform:
        return _InverseTransform(self)

    def __call__(self, x: Tensor) -> Tensor:
        if self._cache_size == 0:
            return self._call(x)
        x_old, y_old = self._cached_x_y
        if x is x_old:
            return y_old
        y = self._call(x)
        self._cached_x_y = (x, y)
        return y

    def _inv_call(self, y: Tensor) -> Tensor:
        if self._cache_size == 0:
            return self._inverse(y)
        x_old, y_old = self._cached_x_y
        if y is y_old:
            return x_old
        x = self._inverse(y)
        self._cached_x_y = (x, y)
        return x

    def _call(self, x: Tensor) -> Tensor:
        raise NotImplementedError

    def _inverse(self, y: Tensor) -> Tensor:
        raise NotImplementedError

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        raise NotImplementedError

    def forward_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        return shape  # (PyTorch's: the shape given, itself)

    def inverse_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        return shape

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return type(self).__name__ + "()"


def _widened(c: Any, event_dim: int) -> Any:
    from .dist_constraints import IndependentConstraint

    return IndependentConstraint(c, event_dim - c.event_dim) if event_dim > c.event_dim else c


class _InverseTransform(Transform):
    def __init__(self, transform: Transform) -> None:
        super().__init__(transform._cache_size)
        self._inv = transform
        self.domain_event_dim = transform.codomain_event_dim
        self.codomain_event_dim = transform.domain_event_dim

    @property
    def inv(self) -> Transform:
        return self._inv

    @property
    def sign(self) -> Any:
        return self._inv.sign

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        return self._inv.bijective

    def domain_constraint(self) -> Any:
        return self._inv.codomain_constraint()

    def forward_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        return self._inv.inverse_shape(shape)

    def inverse_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        return self._inv.forward_shape(shape)

    def codomain_constraint(self) -> Any:
        return self._inv.domain_constraint()

    def __call__(self, x: Tensor) -> Tensor:
        return self._inv._inv_call(x)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return -self._inv.log_abs_det_jacobian(y, x)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _InverseTransform) and self._inv == other._inv

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"_InverseTransform({self._inv!r})"


class ExpTransform(Transform):
    codomain = (_POSITIVE, lambda v: v > 0)
    sign = 1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ExpTransform)

    __hash__ = object.__hash__

    def _call(self, x: Tensor) -> Tensor:
        return _M["exp"](x)

    def _inverse(self, y: Tensor) -> Tensor:
        return _M["log"](y)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return x


class AffineTransform(Transform):
    def __init__(self, loc: Any, scale: Any, event_dim: int = 0, cache_size: int = 0) -> None:
        super().__init__(cache_size)
        for name, v in (("loc", loc), ("scale", scale)):
            if not isinstance(v, (Tensor, int, float)) or isinstance(v, bool):
                raise GradcliError(
                    f"AffineTransform's {name} must be a number or a tensor, not {typename(v)}"
                ).mirror("TypeError")
        self.loc, self.scale = loc, scale
        self.domain_event_dim = self.codomain_event_dim = int(event_dim)

    def program_attribute(self, attr: str) -> Any:
        if attr in ("loc", "scale"):
            return getattr(self, attr)
        return super().program_attribute(attr)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AffineTransform):
            return False
        for a, b in ((self.loc, other.loc), (self.scale, other.scale)):
            if isinstance(a, Tensor) or isinstance(b, Tensor):
                if not bool(np.all(np.asarray(_data(a)) == np.asarray(_data(b)))):
                    return False
            elif a != b:
                return False
        return True

    __hash__ = object.__hash__

    @property
    def sign(self) -> Any:
        if isinstance(self.scale, Tensor):
            return _M["sign"](self.scale)
        return 1 if self.scale > 0 else -1 if self.scale < 0 else 0

    def _call(self, x: Tensor) -> Tensor:
        return self.loc + self.scale * x

    def _inverse(self, y: Tensor) -> Tensor:
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        shape = tuple(x.shape)
        if isinstance(self.scale, Tensor):
            result = _M["log"](_M["abs"](self.scale))
        else:
            result = _T["full_like"](x, math.log(abs(self.scale)))
        if self.domain_event_dim:
            e = self.domain_event_dim
            result = _M["sum"](_M["view"](result, *(tuple(result.shape[:-e]) + (-1,))), -1)
            shape = shape[:-e]
        return _M["expand"](result, *shape)

    def forward_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        # torch.broadcast_shapes of the shape with the parameters' (a torch.Size, or its error)
        from .basics import broadcast_shapes

        return broadcast_shapes(shape, _param_shape(self.loc), _param_shape(self.scale))

    inverse_shape = forward_shape


def _param_shape(v: Any) -> Any:
    return Size(v.shape) if isinstance(v, Tensor) else ()


def _data(v: Any) -> Any:
    return v.data if isinstance(v, Tensor) else v


class PowerTransform(Transform):
    codomain = (_POSITIVE, lambda v: v > 0)

    @property
    def sign(self) -> Any:  # (PyTorch's: the exponent's sign, a tensor)
        return _M["sign"](self.exponent)

    def __init__(self, exponent: Any, cache_size: int = 0) -> None:
        super().__init__(cache_size)
        (self.exponent,) = _broadcast_all(exponent)

    def program_attribute(self, attr: str) -> Any:
        if attr == "exponent":
            return self.exponent
        return super().program_attribute(attr)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PowerTransform):
            return False
        return bool(np.all(self.exponent.data == other.exponent.data))

    __hash__ = object.__hash__

    def _call(self, x: Tensor) -> Tensor:
        return _M["pow"](x, self.exponent)

    def _inverse(self, y: Tensor) -> Tensor:
        return _M["pow"](y, 1 / self.exponent)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return _M["log"](_M["abs"](self.exponent * y / x))

    def forward_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        from .basics import broadcast_shapes

        return broadcast_shapes(shape, _param_shape(self.exponent))

    inverse_shape = forward_shape

    def _domain_base(self) -> Any:
        from .dist_constraints import positive

        return positive


class SigmoidTransform(Transform):
    codomain = ("Interval(lower_bound=0.0, upper_bound=1.0)", lambda v: (v >= 0) & (v <= 1))
    sign = 1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SigmoidTransform)

    __hash__ = object.__hash__

    def _call(self, x: Tensor) -> Tensor:
        info = np.finfo(x.dtype)
        return _M["clamp"](_T["sigmoid"](x), min=float(info.tiny), max=1.0 - float(info.eps))

    def _inverse(self, y: Tensor) -> Tensor:
        info = np.finfo(y.dtype)
        y = _M["clamp"](y, min=float(info.tiny), max=1.0 - float(info.eps))
        return _M["log"](y) - _M["log1p"](-y)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return -_F["softplus"](-x) - _F["softplus"](x)


class TanhTransform(Transform):
    codomain = ("Interval(lower_bound=-1.0, upper_bound=1.0)", lambda v: (v >= -1) & (v <= 1))
    sign = 1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TanhTransform)

    __hash__ = object.__hash__

    def _call(self, x: Tensor) -> Tensor:
        return _M["tanh"](x)

    def _inverse(self, y: Tensor) -> Tensor:
        return 0.5 * (_M["log1p"](y) - _M["log1p"](-y))

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return 2.0 * (math.log(2.0) - x - _F["softplus"](-2.0 * x))


class ComposeTransform(Transform):
    """PyTorch's ComposeTransform: its parts one after the other; its event dims from theirs
    (each part's log |det J| summed over the dims the composition's domain has beyond the
    part's own), an empty one the identity."""

    def __init__(self, parts: Any, cache_size: int = 0) -> None:
        if not isinstance(parts, (list, tuple)) or not all(isinstance(p, Transform) for p in parts):
            raise GradcliError(
                "ComposeTransform's parts must be a list of transforms",
                hint="ComposeTransform([AffineTransform(0.0, 2.0), ExpTransform()])",
            ).mirror("TypeError")
        if cache_size:
            parts = [p.with_cache(cache_size) for p in parts]
        super().__init__(cache_size)
        self.parts = list(parts)
        self._inverse_of: Transform | None = None

    def program_attribute(self, attr: str) -> Any:
        if attr == "parts":
            return list(self.parts)
        if attr in ("domain_event_dim", "codomain_event_dim", "with_cache"):
            return getattr(self, attr)
        return super().program_attribute(attr)

    @property
    def domain_event_dim(self) -> int:  # type: ignore[override]
        if not self.parts:
            return 0
        event_dim = self.parts[-1].codomain_event_dim
        for part in reversed(self.parts):
            event_dim += part.domain_event_dim - part.codomain_event_dim
            event_dim = max(event_dim, part.domain_event_dim)
        return event_dim

    @property
    def codomain_event_dim(self) -> int:  # type: ignore[override]
        if not self.parts:
            return 0
        event_dim = self.parts[0].domain_event_dim
        for part in self.parts:
            event_dim += part.codomain_event_dim - part.domain_event_dim
            event_dim = max(event_dim, part.codomain_event_dim)
        return event_dim

    @property
    def codomain(self) -> Any:  # type: ignore[override]
        return self.parts[-1].codomain if self.parts else (_REAL, lambda v: v == v)

    def _domain_base(self) -> Any:
        return self.parts[0].domain_constraint() if self.parts else super()._domain_base()

    def _codomain_base(self) -> Any:
        return self.parts[-1].codomain_constraint() if self.parts else super()._domain_base()

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        return all(p.bijective for p in self.parts)

    @property
    def sign(self) -> Any:
        sign: Any = 1
        for p in self.parts:
            sign = sign * p.sign
        return sign

    @property
    def inv(self) -> Transform:
        if self._inverse_of is None:
            inverse = ComposeTransform([p.inv for p in reversed(self.parts)])
            inverse._inverse_of = self
            self._inverse_of = inverse
        return self._inverse_of

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return ComposeTransform(self.parts, cache_size=cache_size)

    def __call__(self, x: Tensor) -> Tensor:
        for part in self.parts:
            x = part(x)
        return x

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        if not self.parts:
            return _T["zeros_like"](x)
        xs = [x]
        for part in self.parts[:-1]:
            xs.append(part(xs[-1]))
        xs.append(y)
        total: Any = None
        event_dim = self.domain_event_dim
        for part, a, b in zip(self.parts, xs[:-1], xs[1:]):
            term = _sum_rightmost(
                part.log_abs_det_jacobian(a, b), event_dim - part.domain_event_dim
            )
            total = term if total is None else total + term
            event_dim += part.codomain_event_dim - part.domain_event_dim
        return total

    def forward_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        for part in self.parts:
            shape = part.forward_shape(shape)
        return shape

    def inverse_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        for part in reversed(self.parts):
            shape = part.inverse_shape(shape)
        return shape

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ComposeTransform) and self.parts == other.parts

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return "ComposeTransform(\n    " + ",\n    ".join(repr(p) for p in self.parts) + "\n)"


class IndependentTransform(Transform):
    """PyTorch's IndependentTransform: the base transform with `reinterpreted_batch_ndims`
    more event dims (its log |det J| summed over them)."""

    def __init__(
        self, base_transform: Any, reinterpreted_batch_ndims: Any, cache_size: int = 0
    ) -> None:
        if not isinstance(base_transform, Transform):
            raise GradcliError(
                f"IndependentTransform's base_transform must be a transform, not "
                f"{typename(base_transform)}"
            ).mirror("TypeError")
        super().__init__(cache_size)
        self.base_transform = base_transform.with_cache(cache_size)
        self.reinterpreted_batch_ndims = _int_count(
            reinterpreted_batch_ndims, "reinterpreted_batch_ndims"
        )

    def program_attribute(self, attr: str) -> Any:
        if attr in ("base_transform", "reinterpreted_batch_ndims", "with_cache"):
            return getattr(self, attr)
        return super().program_attribute(attr)

    @property
    def domain_event_dim(self) -> int:  # type: ignore[override]
        return self.base_transform.domain_event_dim + self.reinterpreted_batch_ndims

    @property
    def codomain_event_dim(self) -> int:  # type: ignore[override]
        return self.base_transform.codomain_event_dim + self.reinterpreted_batch_ndims

    @property
    def codomain(self) -> Any:  # type: ignore[override]
        return self.base_transform.codomain

    def domain_constraint(self) -> Any:
        from .dist_constraints import IndependentConstraint

        n = self.reinterpreted_batch_ndims
        return IndependentConstraint(self.base_transform.domain_constraint(), n)

    def codomain_constraint(self) -> Any:
        from .dist_constraints import IndependentConstraint

        n = self.reinterpreted_batch_ndims
        return IndependentConstraint(self.base_transform.codomain_constraint(), n)

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        return self.base_transform.bijective

    @property
    def sign(self) -> Any:
        return self.base_transform.sign

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return IndependentTransform(
            self.base_transform, self.reinterpreted_batch_ndims, cache_size=cache_size
        )

    def _call(self, x: Tensor) -> Tensor:
        if x.ndim < self.domain_event_dim:
            raise GradcliError("Too few dimensions on input").mirror("ValueError")
        return self.base_transform(x)

    def _inverse(self, y: Tensor) -> Tensor:
        if y.ndim < self.codomain_event_dim:
            raise GradcliError("Too few dimensions on input").mirror("ValueError")
        return self.base_transform.inv(y)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        result = self.base_transform.log_abs_det_jacobian(x, y)
        return _sum_rightmost(result, self.reinterpreted_batch_ndims)

    def forward_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        return self.base_transform.forward_shape(shape)

    def inverse_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        return self.base_transform.inverse_shape(shape)

    def __repr__(self) -> str:
        return f"IndependentTransform({self.base_transform!r}, {self.reinterpreted_batch_ndims})"


class ReshapeTransform(Transform):
    """PyTorch's ReshapeTransform: the rightmost `in_shape` of a tensor reshaped to
    `out_shape` (log |det J| zero, of the batch shape)."""

    def __init__(self, in_shape: Any, out_shape: Any, cache_size: int = 0) -> None:
        self.in_shape = _shape_arg(in_shape, "in_shape")
        self.out_shape = _shape_arg(out_shape, "out_shape")
        if math.prod(self.in_shape) != math.prod(self.out_shape):
            raise GradcliError("in_shape, out_shape have different numbers of elements").mirror(
                "ValueError"
            )
        super().__init__(cache_size)
        self.domain_event_dim = len(self.in_shape)
        self.codomain_event_dim = len(self.out_shape)

    def program_attribute(self, attr: str) -> Any:
        if attr in ("in_shape", "out_shape"):
            return Size(getattr(self, attr))
        if attr == "with_cache":
            return self.with_cache
        return super().program_attribute(attr)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return ReshapeTransform(self.in_shape, self.out_shape, cache_size=cache_size)

    def _call(self, x: Tensor) -> Tensor:
        batch = tuple(x.shape[: x.ndim - len(self.in_shape)])
        return _M["reshape"](x, *(batch + self.out_shape))

    def _inverse(self, y: Tensor) -> Tensor:
        batch = tuple(y.shape[: y.ndim - len(self.out_shape)])
        return _M["reshape"](y, *(batch + self.in_shape))

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        batch = tuple(x.shape[: x.ndim - len(self.in_shape)])
        return _M["new_zeros"](x, batch)

    def forward_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        return _reshaped(tuple(shape), self.in_shape, self.out_shape)

    def inverse_shape(self, shape: tuple[int, ...]) -> tuple[int, ...]:
        return _reshaped(tuple(shape), self.out_shape, self.in_shape)


def _reshaped(shape: tuple[int, ...], old: tuple[int, ...], new: tuple[int, ...]) -> tuple:
    if len(shape) < len(old):
        raise GradcliError("Too few dimensions on input").mirror("ValueError")
    cut = len(shape) - len(old)
    if shape[cut:] != old:
        raise GradcliError(
            f"Shape mismatch: expected "
            f"{Size(shape[cut:]) if isinstance(shape, Size) else shape[cut:]!r} "
            f"but got {Size(old)!r}"
        ).mirror("ValueError")
    return Size(tuple(shape[:cut]) + tuple(new))  # (PyTorch's: ... + a torch.Size)


def _shape_arg(v: Any, what: str) -> tuple[int, ...]:
    if isinstance(v, int) and not isinstance(v, bool):
        v = (v,)
    if not isinstance(v, (tuple, list)) or not all(
        isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in v
    ):
        raise GradcliError(
            f"ReshapeTransform's {what} must be a shape (a tuple of sizes), not {typename(v)}"
        ).mirror("TypeError")
    return tuple(int(d) for d in v)


def _int_count(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise GradcliError(f"{what} must be a non-negative int, not {v!r}").mirror("TypeError")
    return int(v)


class StackTransform(Transform):
    """PyTorch's StackTransform: the i-th transform on the i-th slice along `dim`, restacked
    (log |det J| stacked the same way)."""

    def __init__(self, tseq: Any, dim: Any = 0, cache_size: int = 0) -> None:
        if not isinstance(tseq, (list, tuple)) or not all(isinstance(t, Transform) for t in tseq):
            raise GradcliError("All elements of tseq must be Transform instances").mirror(
                "AssertionError"
            )
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size)
        self.transforms = list(tseq)
        if isinstance(dim, bool) or not isinstance(dim, int):
            raise GradcliError(f"StackTransform's dim must be an int, not {typename(dim)}").mirror(
                "TypeError"
            )
        self.dim = dim

    def program_attribute(self, attr: str) -> Any:
        if attr in ("transforms", "dim", "with_cache"):
            return getattr(self, attr)
        return super().program_attribute(attr)

    def domain_constraint(self) -> Any:
        from .dist_constraints import StackConstraint

        return StackConstraint([t.domain_constraint() for t in self.transforms], self.dim)

    def codomain_constraint(self) -> Any:
        from .dist_constraints import StackConstraint

        return StackConstraint([t.codomain_constraint() for t in self.transforms], self.dim)

    def _event_dim(self, which: str) -> int:
        d = max((getattr(t, which) for t in self.transforms), default=0)
        return d + 1 if self.dim + d < 0 else d

    @property
    def domain_event_dim(self) -> int:  # type: ignore[override]
        return self._event_dim("domain_event_dim")

    @property
    def codomain_event_dim(self) -> int:  # type: ignore[override]
        return self._event_dim("codomain_event_dim")

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        return all(t.bijective for t in self.transforms)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return StackTransform(self.transforms, self.dim, cache_size)

    def _checked(self, z: Tensor, what: str) -> list[Tensor]:
        if not -z.ndim <= self.dim < z.ndim:
            raise GradcliError(
                f"dim {self.dim} out of range for {what}tensor with {z.ndim} dimensions"
            ).mirror("AssertionError")
        return [_M["select"](z, self.dim, i) for i in range(z.shape[self.dim])]

    def _sizes(self, z: Tensor, name: str) -> None:
        if z.shape[self.dim] != len(self.transforms):
            raise GradcliError(
                f"{name}.size({self.dim}) = {z.shape[self.dim]} must equal len(transforms) "
                f"{len(self.transforms)}"
            ).mirror("AssertionError")

    def _call(self, x: Tensor) -> Tensor:
        parts = self._checked(x, "")
        self._sizes(x, "x")
        return _T["stack"]([t(p) for p, t in zip(parts, self.transforms)], dim=self.dim)

    def _inverse(self, y: Tensor) -> Tensor:
        parts = self._checked(y, "")
        self._sizes(y, "y")
        return _T["stack"]([t.inv(p) for p, t in zip(parts, self.transforms)], dim=self.dim)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        xs = self._checked(x, "x with ")
        self._sizes(x, "x")
        ys = self._checked(y, "y with ")
        self._sizes(y, "y")
        terms = [t.log_abs_det_jacobian(a, b) for a, b, t in zip(xs, ys, self.transforms)]
        return _T["stack"](terms, dim=self.dim)

    def __eq__(self, other: object) -> bool:
        return self is other

    __hash__ = object.__hash__


class TransformedDistribution(Distribution):
    """PyTorch's TransformedDistribution: draws of the base distribution passed through the
    transforms in order; log_prob inverts them last to first, subtracting each one's log |det
    J| (summed over the event dimensions), then adds the base log_prob."""

    NAME = "TransformedDistribution"
    # entropy, perplexity, enumerate_support: Distribution's NotImplementedError, as PyTorch's
    PROGRAM_METHODS = (
        "sample",
        "rsample",
        "log_prob",
        "sample_n",
        "entropy",
        "perplexity",
        "enumerate_support",
        "cdf",
        "icdf",
    )
    # (mean, mode, variance: PyTorch's Distribution's NotImplementedError where a subclass has
    # none of its own)
    PROGRAM_DATA = Distribution.PROGRAM_DATA

    def __init__(self, base_distribution: Any, transforms: Any, validate_args: Any = None) -> None:
        if isinstance(transforms, Transform):
            transforms = [transforms]
        elif isinstance(transforms, list) and all(isinstance(t, Transform) for t in transforms):
            transforms = list(transforms)
        else:
            raise GradcliError("transforms must be a Transform or a list of Transforms").mirror(
                "ValueError"
            )
        if not isinstance(base_distribution, Distribution):
            raise GradcliError(
                "TransformedDistribution's base_distribution must be a torch.distributions "
                f"distribution, not {typename(base_distribution)}"
            ).mirror("TypeError")
        self.transforms = transforms
        self._validate = validate_args is not False
        base_shape = tuple(base_distribution.batch) + tuple(base_distribution.event)
        base_event_dim = len(base_distribution.event)
        transform = ComposeTransform(transforms)
        domain_event_dim = transform.domain_event_dim
        codomain_event_dim = transform.codomain_event_dim
        if len(base_shape) < domain_event_dim:
            raise GradcliError(
                f"base_distribution needs to have shape with size at least {domain_event_dim}, "
                f"but got {Size(base_shape)!r}."
            ).mirror("ValueError")
        shape = transform.forward_shape(base_shape)
        if transform.inverse_shape(shape) != base_shape:
            raise GradcliError(
                "gradcli does not support a TransformedDistribution whose transforms broadcast "
                "the base distribution to a larger shape",
                hint="give the base distribution the full shape: Normal(loc.expand(shape), ...)",
            ).mirror("NotImplementedError")
        reinterpreted = domain_event_dim - base_event_dim
        if reinterpreted > 0:
            base_distribution = Independent(base_distribution, reinterpreted)
        self.base_dist = base_distribution
        event_dim = max(codomain_event_dim, base_event_dim + codomain_event_dim - domain_event_dim)
        cut = len(shape) - event_dim
        self.batch, self.event = tuple(shape[:cut]), tuple(shape[cut:])
        self.has_rsample = base_distribution.has_rsample

    def program_attribute(self, attr: str) -> Any:
        if attr in ("base_dist", "transforms", "has_rsample"):
            return getattr(self, attr)
        return super().program_attribute(attr)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        with no_grad():
            x = self.base_dist.sample(sample_shape)
            for t in self.transforms:
                x = t(x)
            return x

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        x = self.base_dist.rsample(sample_shape)
        for t in self.transforms:
            x = t(x)
        return x

    def log_prob(self, value: Any) -> Tensor:
        if self._validate:
            support, ok = self._support()
            value = _validate_sample(self, value, support, ok)
        else:
            value = _value(value, self, check=False)
        event_dim = len(self.event)
        log_prob: Any = 0.0
        y = value
        for t in reversed(self.transforms):
            x = t.inv(y)
            event_dim += t.domain_event_dim - t.codomain_event_dim
            log_prob = log_prob - _sum_rightmost(
                t.log_abs_det_jacobian(x, y), event_dim - t.domain_event_dim
            )
            y = x
        return log_prob + _sum_rightmost(
            self.base_dist.log_prob(y), event_dim - len(self.base_dist.event)
        )

    def _support(self) -> tuple[str, Any]:
        """(the support's repr, its check on values) for _validate_sample: the last
        transform's codomain (a subclass of PyTorch's with a support of its own: that)."""
        return self.transforms[-1].codomain if self.transforms else (_REAL, None)

    def _monotonize_cdf(self, value: Tensor) -> Tensor:
        # a decreasing chain of transforms turns the base's cdf over: 1 - F
        sign: Any = 1
        for t in self.transforms:
            sign = sign * t.sign
        if isinstance(sign, int) and sign == 1:
            return value
        return sign * (value - 0.5) + 0.5

    def cdf(self, value: Any) -> Tensor:
        value = _value(value, self, check=False)
        for t in reversed(self.transforms):
            value = t.inv(value)
        return self._monotonize_cdf(self.base_dist.cdf(value))

    def icdf(self, value: Any) -> Tensor:
        value = self.base_dist.icdf(self._monotonize_cdf(_value(value, self, check=False)))
        for t in self.transforms:
            value = t(value)
        return value


TRANSFORMS: dict[str, type] = {
    "Transform": Transform,
    "ExpTransform": ExpTransform,
    "AffineTransform": AffineTransform,
    "PowerTransform": PowerTransform,
    "SigmoidTransform": SigmoidTransform,
    "TanhTransform": TanhTransform,
    "ComposeTransform": ComposeTransform,
    "IndependentTransform": IndependentTransform,
    "ReshapeTransform": ReshapeTransform,
    "StackTransform": StackTransform,
}
CLASSES["TransformedDistribution"] = TransformedDistribution
MODULES["TransformedDistribution"] = "transformed_distribution"
# PyTorch's subclasses of TransformedDistribution that gradcli makes on their own (isinstance
# with D.TransformedDistribution answers True for them: `lang.builtins`)
TRANSFORMED_IN_PYTORCH = ("LogNormal", "HalfNormal")


_EULER = 0.57721566490153286060  # the Euler-Mascheroni constant, as torch.distributions'


class Gumbel(TransformedDistribution):
    """PyTorch's Gumbel: a Uniform on [tiny, 1 - eps] through -log(-log(u)) (four transforms:
    log, negation, log, then loc - scale * y), with its own log_prob, mean and entropy."""

    NAME = "Gumbel"
    PARAMS = ("loc", "scale")
    PROGRAM_METHODS = TransformedDistribution.PROGRAM_METHODS
    PROGRAM_DATA = Distribution.PROGRAM_DATA

    def __init__(self, loc: Any, scale: Any, validate_args: Any = None) -> None:
        numbers = not isinstance(loc, Tensor) and not isinstance(scale, Tensor)
        self._loc, self._scale = _broadcast_all(loc, scale)
        info = np.finfo(self._loc.dtype)
        tiny, top = float(info.tiny), 1 - float(info.eps)
        if numbers:
            base = Uniform(tiny, top, validate_args=validate_args)
        else:
            base = Uniform(
                _T["full_like"](self._loc, tiny),
                _T["full_like"](self._loc, top),
                validate_args=validate_args,
            )
        transforms = [
            ExpTransform().inv,
            AffineTransform(loc=0, scale=-_T["ones_like"](self._scale)),
            ExpTransform().inv,
            AffineTransform(loc=loc, scale=-self._scale),
        ]
        self.shown = {"loc", "scale"}
        super().__init__(base, transforms, validate_args=validate_args)
        if validate_args is not False:
            loc_ok = self._loc.data == self._loc.data
            self._check("loc", self._loc, loc_ok, _REAL)
            self._check("scale", self._scale, self._scale.data > 0, _POSITIVE)

    @property
    def loc(self) -> Tensor:
        return self._loc

    @property
    def scale(self) -> Tensor:
        return self._scale

    def program_attribute(self, attr: str) -> Any:
        if attr in ("loc", "scale"):
            return getattr(self, attr)
        return super().program_attribute(attr)

    def log_prob(self, value: Any) -> Tensor:
        if self._validate:
            value = _validate_sample(self, value, _REAL)
        else:
            value = _value(value, self, check=False)
        y = (self._loc - value) / self._scale
        return (y - _M["exp"](y)) - _M["log"](self._scale)

    @property
    def mean(self) -> Tensor:
        return self._loc + self._scale * _EULER

    @property
    def mode(self) -> Tensor:
        return self._loc

    @property
    def stddev(self) -> Tensor:
        return (math.pi / math.sqrt(6)) * self._scale

    @property
    def variance(self) -> Tensor:
        return _M["pow"](self.stddev, 2)

    def entropy(self) -> Tensor:
        return _M["log"](self._scale) + (1 + _EULER)


CLASSES["Gumbel"] = Gumbel


class LogitRelaxedBernoulli(_Lazy):
    """PyTorch's LogitRelaxedBernoulli (the base of RelaxedBernoulli): the logit of a relaxed
    Bernoulli draw, (logit(u) + logit(p)) / temperature with u uniform, both clamped away
    from 0 and 1 by the dtype's eps."""

    NAME = "LogitRelaxedBernoulli"
    PARAMS = ("probs", "logits")
    PROGRAM_DATA = (*Distribution.PROGRAM_DATA, "param_shape")
    has_rsample = True

    def __init__(
        self, temperature: Any, probs: Any = None, logits: Any = None, validate_args: Any = None
    ) -> None:
        self.temperature = temperature
        _binary_params(self, probs, logits, validate_args)

    def program_attribute(self, attr: str) -> Any:
        if attr == "temperature":
            return self.temperature
        return super().program_attribute(attr)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        eps = _eps(self._probs.dtype)
        probs = _M["clamp"](_M["expand"](self.probs, *shape), min=eps, max=1 - eps)
        u = _T["rand"](*shape, dtype=probs.dtype) if shape else _T["rand"]((), dtype=probs.dtype)
        u = _M["clamp"](u, min=eps, max=1 - eps)
        return (
            _T["log"](u) - _T["log1p"](-u) + _T["log"](probs) - _T["log1p"](-probs)
        ) / self.temperature

    def log_prob(self, value: Any) -> Tensor:
        value = _value(value, self)
        logits, value = _broadcast_all(self.logits, value)
        diff = logits - value * self.temperature
        return _T["log"](self.temperature) + diff - 2 * _T["log1p"](_T["exp"](diff))


class RelaxedBernoulli(TransformedDistribution):
    """PyTorch's RelaxedBernoulli: a LogitRelaxedBernoulli through a SigmoidTransform (its
    sample clamped to [tiny, 1 - eps]); its repr names no parameter, as PyTorch's."""

    NAME = "RelaxedBernoulli"

    def __init__(
        self, temperature: Any, probs: Any = None, logits: Any = None, validate_args: Any = None
    ) -> None:
        base = LogitRelaxedBernoulli(temperature, probs, logits)
        super().__init__(base, SigmoidTransform(), validate_args=validate_args)
        if validate_args is not False:
            # PyTorch's argument check reads both (its probs and logits are the base's lazy
            # ones): the base shows both from then on
            base.shown.update(("probs", "logits"))  # type: ignore[union-attr]

    def program_attribute(self, attr: str) -> Any:
        if attr in ("temperature", "probs", "logits"):
            return self.base_dist.program_attribute(attr)
        return super().program_attribute(attr)


CLASSES["RelaxedBernoulli"] = RelaxedBernoulli
MODULES["RelaxedBernoulli"] = "relaxed_bernoulli"


class Multinomial(Distribution):
    """PyTorch's Multinomial: total_count draws of its Categorical, counted per category
    (scatter_add of ones over the draws moved last), in the probabilities' dtype; log_prob
    is the multinomial coefficient's lgammas plus the logits weighted by the counts."""

    NAME = "Multinomial"
    PARAMS = ()
    PROGRAM_DATA = (*Distribution.PROGRAM_DATA, "param_shape")

    @property
    def param_shape(self) -> Size:
        return self._categorical.param_shape

    def __init__(
        self,
        total_count: Any = 1,
        probs: Any = None,
        logits: Any = None,
        validate_args: Any = None,
    ) -> None:
        if not isinstance(total_count, int) or isinstance(total_count, bool):
            raise (
                GradcliError("inhomogeneous total_count is not supported")
                .mirror("NotImplementedError")
                .pytorch()
            )
        self.total_count = total_count
        self._categorical = Categorical(probs, logits, validate_args=validate_args)
        self.batch = self._categorical.batch
        self.event = (self._categorical.events,)

    def program_attribute(self, attr: str) -> Any:
        if attr in ("probs", "logits"):
            return getattr(self._categorical, attr)
        if attr == "total_count":
            return self.total_count
        return super().program_attribute(attr)

    @property
    def mean(self) -> Tensor:
        return self._categorical.probs * self.total_count

    @property
    def variance(self) -> Tensor:
        p = self._categorical.probs
        return self.total_count * p * (1 - p)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = _sample_shape(sample_shape)
        with no_grad():
            draws = self._categorical.sample((self.total_count,) + shape)
            order = list(range(draws.ndim))
            order.append(order.pop(0))
            draws = _M["permute"](draws, *order)
            counts = _T["zeros"](*self._extended(shape), dtype=draws.dtype)
            counts = _M["scatter_add"](counts, -1, draws, _T["ones_like"](draws))
            return _M["type_as"](counts, self._categorical._probs)

    def _in_support(self, v: np.ndarray) -> Any:
        return np.all(v >= 0, axis=-1) & (v.sum(-1) <= self.total_count)

    def log_prob(self, value: Any) -> Tensor:
        if self.validating:
            value = _validate_sample(self, value, "Multinomial()", self._in_support)
        else:
            value = _value(value, self, check=False)
        logits, value = _broadcast_all(self._categorical.logits, value)
        logits = _M["clone"](logits)
        log_factorial_n = _special("lgamma", _M["sum"](value, -1) + 1, "Multinomial.log_prob")
        log_factorial_xs = _M["sum"](_special("lgamma", value + 1, "Multinomial.log_prob"), -1)
        from .indexing import setitem

        mask = _M["logical_and"](_M["eq"](value, 0), _M["eq"](logits, -math.inf))
        if bool(np.any(mask.data)):
            setitem(logits, mask, 0.0)
        log_powers = _M["sum"](logits * value, -1)
        return log_factorial_n - log_factorial_xs + log_powers

    def entropy(self) -> Tensor:
        """PyTorch's: n H(categorical) - lgamma(n + 1) plus, over k = 1..n, each category's
        Binomial(n, p) probability of k times lgamma(k + 1), summed over k and categories."""
        n = _T["tensor"](self.total_count)
        term1 = n * self._categorical.entropy() - _special("lgamma", n + 1, "Multinomial.entropy")
        binomial = Binomial(self.total_count, probs=self._categorical.probs)
        support = binomial.enumerate_support(expand=False)
        support = _M["narrow"](support, 0, 1, support.shape[0] - 1)
        binomial_probs = _T["exp"](binomial.log_prob(support))
        weights = _special("lgamma", support + 1, "Multinomial.entropy")
        return term1 + _M["sum"](binomial_probs * weights, [0, -1])


CLASSES["Multinomial"] = Multinomial


def _clamp_by_zero(x: Tensor) -> Tensor:
    """PyTorch's _clamp_by_zero: max(x, 0) written as (clamp(min=0) + x - clamp(max=0)) / 2, so
    that its gradient at 0 is 1/2."""
    return (_M["clamp"](x, min=0) + x - _M["clamp"](x, max=0)) / 2


class _Counted(_Lazy):
    """A total_count broadcast with probs or logits and given their dtype (Binomial and
    NegativeBinomial: their constraints are the class's)."""

    PARAMS = ("total_count", "probs", "logits")
    PROGRAM_DATA = (*Distribution.PROGRAM_DATA, "param_shape")
    COUNT = "IntegerGreaterThan(lower_bound=0)"
    PROBS = "Interval(lower_bound=0.0, upper_bound=1.0)"

    @staticmethod
    def _count_ok(n: np.ndarray) -> Any:
        return (np.fmod(n, 1) == 0) & (n >= 0)

    @staticmethod
    def _probs_ok(p: np.ndarray) -> Any:
        return (p >= 0) & (p <= 1)

    def __init__(
        self,
        total_count: Any = 1,
        probs: Any = None,
        logits: Any = None,
        validate_args: Any = None,
    ) -> None:
        if (probs is None) == (logits is None):
            raise GradcliError(
                "Either `probs` or `logits` must be specified, but not both."
            ).mirror("ValueError")
        given = "probs" if probs is not None else "logits"
        self.shown = {"total_count", given}
        count, param = _broadcast_all(total_count, probs if probs is not None else logits)
        self._total_count = _M["type_as"](count, param)
        self.batch = tuple(param.shape)
        if probs is not None:
            self._probs = param
        else:
            self._logits = param
        if validate_args is not False:
            n = self._total_count.data
            with np.errstate(invalid="ignore"):
                self._check("total_count", self._total_count, self._count_ok(n), self.COUNT)
            d = param.data
            if probs is not None:
                self._check("probs", param, self._probs_ok(d), self.PROBS)
            else:
                self._check("logits", param, d == d, "Real()")
        if probs is not None:
            eps = _eps(param.dtype)
            p = _M["clamp"](param, min=eps, max=1 - eps)
            self._logits = _T["log"](p) - _T["log1p"](-p)
        else:
            self._probs = _T["sigmoid"](param)

    @property
    def total_count(self) -> Tensor:
        return self._total_count

    @property
    def stddev(self) -> Tensor:
        return _M["sqrt"](self.variance)


class Binomial(_Counted):
    """PyTorch's Binomial: total_count (a number or a tensor, broadcast with the probabilities and
    given their dtype) and probs or logits; sample is torch.binomial of both expanded, log_prob
    the lgamma formula with the logits' clamp, entropy and enumerate_support for one count."""

    NAME = "Binomial"
    has_enumerate_support = True

    @property
    def mean(self) -> Tensor:
        return self._total_count * self.probs

    @property
    def mode(self) -> Tensor:
        m = _M["floor"]((self._total_count + 1) * self.probs)
        return _M["clamp"](m, max=self._total_count)

    @property
    def variance(self) -> Tensor:
        return self._total_count * self.probs * (1 - self.probs)

    @property
    def stddev(self) -> Tensor:
        return _M["sqrt"](self.variance)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended(sample_shape)
        probs = self.probs
        with no_grad():
            return _T["binomial"](
                _M["expand"](self._total_count, *shape), _M["expand"](probs, *shape)
            )

    def log_prob(self, value: Any) -> Tensor:
        if self.validating:
            n = self._total_count
            support = f"IntegerInterval(lower_bound=0, upper_bound={_shown(n)})"

            def ok(v: np.ndarray) -> Any:
                with np.errstate(invalid="ignore"):
                    return (np.fmod(v, 1) == 0) & (v >= 0) & (v <= n.data)

            value = _validate_sample(self, value, support, ok)
        else:
            value = _value(value, self, check=False)
        n, logits = self._total_count, self.logits
        what = "Binomial.log_prob"
        log_factorial_n = _special("lgamma", n + 1, what)
        log_factorial_k = _special("lgamma", value + 1, what)
        log_factorial_nmk = _special("lgamma", n - value + 1, what)
        normalize_term = (
            n * _clamp_by_zero(logits)
            + n * _T["log1p"](_T["exp"](-_M["abs"](logits)))
            - log_factorial_n
        )
        return value * logits - log_factorial_k - log_factorial_nmk - normalize_term

    def _one_count(self, what: str) -> int:
        n = self._total_count.data
        if not np.all(np.isfinite(n)):
            raise GradcliError(
                f"{what} of a Binomial whose total_count is not finite: PyTorch's int() of it "
                "fails",
                found=format_value(self._total_count),
            )
        top = int(np.max(n))
        if not float(np.min(n)) == top:
            raise (
                GradcliError(f"Inhomogeneous total count not supported by `{what}`.")
                .mirror("NotImplementedError")
                .pytorch()
            )
        return top

    def entropy(self) -> Tensor:
        self._one_count("entropy")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -_M["sum"](_T["exp"](log_prob) * log_prob, 0)

    def enumerate_support(self, expand: Any = True) -> Tensor:
        top = self._one_count("enumerate_support")
        return self._enumerated(_T["arange"](1 + top, dtype=self._probs.dtype), expand)


CLASSES["Binomial"] = Binomial


class NegativeBinomial(_Counted):
    """PyTorch's NegativeBinomial: the number of successes before total_count failures (a real
    count), probs in [0, 1) or logits; sample is a Poisson draw at a Gamma(total_count,
    exp(-logits)) draw, log_prob PyTorch's logsigmoid and lgamma formula."""

    NAME = "NegativeBinomial"
    COUNT = "GreaterThanEq(lower_bound=0)"  # PyTorch's greater_than_eq(0): an int bound
    PROBS = "HalfOpenInterval(lower_bound=0.0, upper_bound=1.0)"

    @staticmethod
    def _count_ok(n: np.ndarray) -> Any:
        return n >= 0

    @staticmethod
    def _probs_ok(p: np.ndarray) -> Any:
        return (p >= 0) & (p < 1)

    @property
    def mean(self) -> Tensor:
        return self._total_count * _T["exp"](self.logits)

    @property
    def mode(self) -> Tensor:
        m = _M["floor"]((self._total_count - 1) * _M["exp"](self.logits))
        return _M["clamp"](m, min=0.0)

    @property
    def variance(self) -> Tensor:
        return self.mean / _T["sigmoid"](-self.logits)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        with no_grad():
            gamma = Gamma(self._total_count, _T["exp"](-self.logits), validate_args=False)
            return _T["poisson"](gamma.sample(sample_shape))

    def log_prob(self, value: Any) -> Tensor:
        if self.validating:
            value = _validate_sample(
                self,
                value,
                "IntegerGreaterThan(lower_bound=0)",
                lambda v: (v >= 0) & (v == np.floor(v)),
            )
        else:
            value = _value(value, self, check=False)
        n, logits = self._total_count, self.logits
        what = "NegativeBinomial.log_prob"
        log_unnormalized = n * _F["logsigmoid"](-logits) + value * _F["logsigmoid"](logits)
        log_normalization = (
            -_special("lgamma", n + value, what)
            + _special("lgamma", 1.0 + value, what)
            + _special("lgamma", n, what)
        )
        log_normalization = _M["masked_fill"](log_normalization, _M["eq"](n + value, 0.0), 0.0)
        return log_unnormalized - log_normalization


CLASSES["NegativeBinomial"] = NegativeBinomial
MODULES["NegativeBinomial"] = "negative_binomial"
