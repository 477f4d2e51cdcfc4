"""`torch.distributions` as VAE and policy-gradient tutorials use it: Normal, Categorical,
Bernoulli, Uniform, with `sample`, `rsample` (the reparameterisation trick, differentiable),
`log_prob`, `entropy`, `cdf`, their moments, `kl_divergence`, and PyTorch's argument checks.

Each method is the composition of recorded operations PyTorch's own Python code performs, in
its order, so that values (float32 included), `grad_fn` names and gradients are PyTorch's, and
the draws take PyTorch's random streams (`sample` is `torch.normal` / `torch.bernoulli` /
`torch.multinomial` under no_grad, `rsample` draws standard normals or uniforms into a new
tensor). Loaded when a program first names torch.distributions."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

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


def _sample_shape(shape: Any) -> tuple[int, ...]:
    if isinstance(shape, (tuple, list)) and all(
        isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape
    ):
        return tuple(shape)
    raise GradcliError(
        f"sample_shape must be a torch.Size or a tuple of sizes, not {typename(shape)}",
        hint="d.sample() for one draw, d.sample((n,)) for n of them",
    ).mirror("TypeError")


class Distribution:
    NAME = "Distribution"
    PARAMS: tuple[str, ...] = ()
    PROGRAM_METHODS = ("sample", "rsample", "log_prob", "entropy", "cdf", "sample_n")
    PROGRAM_DATA = ("mean", "stddev", "variance", "mode", "batch_shape", "event_shape")
    has_rsample = False
    batch: tuple[int, ...] = ()
    event: tuple[int, ...] = ()

    # -- what a program reaches --------------------------------------------------------------
    def program_attribute(self, attr: str) -> Any:
        if attr in self.PROGRAM_METHODS:
            return getattr(self, attr)
        if attr in self.PROGRAM_DATA or attr in self.PARAMS:
            return getattr(self, attr)
        raise GradcliError(
            f"'{self.NAME}' object has no attribute '{attr}'", found=f"`.{attr}`"
        ).mirror("AttributeError")

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

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        raise GradcliError(
            f"{self.NAME} has no rsample: its samples are not differentiable",
            hint="use sample() and the score function: -(log_prob(a) * reward)",
        ).mirror("NotImplementedError")

    def cdf(self, value: Any) -> Tensor:
        raise GradcliError(f"cdf of {self.NAME} is not supported by gradcli").mirror(
            "NotImplementedError"
        )

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

    def entropy(self) -> Tensor:
        return _T["log"](self.high - self.low)


def _eps(dtype: np.dtype) -> float:
    return float(np.finfo(dtype).eps)


class _Lazy(Distribution):
    """probs and logits, one given, the other computed when first asked (PyTorch's lazy
    property: the value is made at once here, only the repr waits)."""

    _probs: Tensor
    _logits: Tensor

    @property
    def probs(self) -> Tensor:
        self.shown.add("probs")  # type: ignore[union-attr]
        return self._probs

    @property
    def logits(self) -> Tensor:
        self.shown.add("logits")  # type: ignore[union-attr]
        return self._logits


class Bernoulli(_Lazy):
    NAME = "Bernoulli"
    PARAMS = ("probs", "logits")

    def __init__(self, probs: Any = None, logits: Any = None, validate_args: Any = None) -> None:
        if (probs is None) == (logits is None):
            raise GradcliError(
                "Either `probs` or `logits` must be specified, but not both."
            ).mirror("ValueError")
        self.shown = {"probs" if probs is not None else "logits"}
        if probs is not None:
            (self._probs,) = _broadcast_all(probs)
            if validate_args is not False:
                d = self._probs.data
                self._check(
                    "probs",
                    self._probs,
                    (d >= 0) & (d <= 1),
                    "Interval(lower_bound=0.0, upper_bound=1.0)",
                )
            eps = _eps(self._probs.dtype)
            p = _M["clamp"](self._probs, min=eps, max=1 - eps)
            self._logits = _T["log"](p) - _T["log1p"](-p)
        else:
            (self._logits,) = _broadcast_all(logits)
            self._probs = _T["sigmoid"](self._logits)
        self.batch = tuple(self._probs.shape)

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
        m = _M["float"](_M["ge"](self.probs, 0.5))
        return m

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


class Categorical(_Lazy):
    NAME = "Categorical"
    PARAMS = ("probs", "logits")

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
            if validate_args is not False:
                self._check_simplex_input(probs)
            self._probs = probs / _M["sum"](probs, -1, keepdim=True)
            eps = _eps(self._probs.dtype)
            self._logits = _T["log"](_M["clamp"](self._probs, min=eps, max=1 - eps))
        else:
            self._logits = logits - _M["logsumexp"](logits, dim=-1, keepdim=True)
            self._probs = _F["softmax"](self._logits, dim=-1)
        self.events = given.shape[-1]
        self.batch = tuple(given.shape[:-1])

    def _check_simplex_input(self, probs: Tensor) -> None:
        if not bool(np.all(probs.data >= 0)):
            self._probs = probs
            self._check("probs", probs, False, "Simplex()")

    @property
    def mean(self) -> Tensor:
        return _T["full"](self.batch, math.nan, dtype=self.probs.dtype)

    variance = mean

    @property
    def mode(self) -> Tensor:
        return _M["argmax"](self.probs, dim=-1)

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


def _support(d: Distribution, value: Tensor, ok: Any, support: str) -> None:
    if not bool(np.all(ok)):
        raise GradcliError(
            f"Expected value argument (Tensor of shape {tuple(value.shape)}) to be within the "
            f"support ({support}) of the distribution {d!r}, but found invalid values:\n"
            f"{_shown(value)}"
        ).mirror("ValueError")


def _value(value: Any, d: Distribution, check: bool = True) -> Tensor:
    if not isinstance(value, Tensor):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return _tensor(float(value), Settings.default_dtype)
        raise GradcliError(
            f"The value argument to log_prob must be a Tensor, not {typename(value)}"
        ).mirror("ValueError")
    if check:
        _support(d, value, value.data == value.data, "Real()")
    return value


def kl_divergence(p: Any, q: Any) -> Tensor:
    """KL(p || q) for the pairs PyTorch registers among these four."""
    if isinstance(p, Normal) and isinstance(q, Normal):
        var_ratio = _M["pow"](p.scale / q.scale, 2)
        t1 = _M["pow"]((p.loc - q.loc) / q.scale, 2)
        return 0.5 * (var_ratio + t1 - 1 - _M["log"](var_ratio))
    if isinstance(p, Categorical) and isinstance(q, Categorical):
        t = p.probs * (p.logits - q.logits)
        if bool(np.any(q.probs.data == 0)) or bool(np.any(p.probs.data == 0)):
            inf = _M["expand_as"](q.probs == 0, t)
            t = _T["where"](inf, math.inf, t)
            t = _T["where"](_M["expand_as"](p.probs == 0, t), 0.0, t)
        return _M["sum"](t, -1)
    if isinstance(p, Bernoulli) and isinstance(q, Bernoulli):
        t1 = p.probs * (_F["softplus"](-q.logits) - _F["softplus"](-p.logits))
        t2 = (1 - p.probs) * (_F["softplus"](q.logits) - _F["softplus"](p.logits))
        return t1 + t2
    raise GradcliError(
        f"No KL(p || q) is implemented for p of type {typename(p)} and q of type {typename(q)}"
        " in gradcli",
        hint="gradcli has KL for Normal/Normal, Categorical/Categorical, Bernoulli/Bernoulli",
    ).mirror("NotImplementedError")


CLASSES: dict[str, type] = {
    "Normal": Normal,
    "Uniform": Uniform,
    "Bernoulli": Bernoulli,
    "Categorical": Categorical,
}
