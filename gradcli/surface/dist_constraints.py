"""`torch.distributions.constraints` as programs read them: a distribution's `support` and
`arg_constraints`, the public constraint objects (`constraints.positive`, `interval(0, 1)`...),
each with PyTorch's repr (`GreaterThan(lower_bound=0.0)`), `is_discrete`, `event_dim`, its
bounds, and `check(value)`: PyTorch's comparisons, a bool tensor of the value's shape less the
constraint's event dimensions. Loaded with torch.distributions."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.tensor import Tensor, typename
from . import names as N

_T = N.FUNCTIONS
_M = N.METHODS


def _field(v: Any) -> str:
    """A bound as PyTorch's f-string shows it: a tensor of one element as its number."""
    if isinstance(v, Tensor):
        if v.ndim:
            from .printing import format_value

            return format_value(v)
        n = v.data.item()
        return repr(n if v.dtype.kind in "biu" else float(n))
    return repr(v) if isinstance(v, float) else str(v)


class Constraint:
    """One constraint: `kind` is PyTorch's class name without its underscore."""

    PROGRAM_ATTRIBUTES = ("check", "is_discrete", "event_dim")

    def __init__(
        self,
        kind: str,
        bounds: tuple[tuple[str, Any], ...] = (),
        is_discrete: bool = False,
        event_dim: int = 0,
    ) -> None:
        self.kind = kind
        self.bounds = bounds
        self.is_discrete = is_discrete
        self.event_dim = event_dim

    def program_attribute(self, attr: str) -> Any:
        if attr in self.PROGRAM_ATTRIBUTES:
            return getattr(self, attr)
        for name, v in self.bounds:
            if name == attr:
                return v
        raise GradcliError(
            f"'_{self.kind}' object has no attribute '{attr}'", found=f"`.{attr}`"
        ).mirror("AttributeError")

    def program_typename(self) -> str:
        return "_" + self.kind

    def __repr__(self) -> str:
        if self.kind == "Multinomial":  # (PyTorch's _Multinomial shows no bound)
            return "Multinomial()"
        inner = ", ".join(f"{n}={_field(v)}" for n, v in self.bounds)
        return f"{self.kind}({inner})"

    def __eq__(self, other: object) -> bool:
        return self is other

    __hash__ = object.__hash__

    def _bound(self, name: str) -> Any:
        return dict(self.bounds)[name]

    def check(self, value: Any) -> Any:
        if not isinstance(value, Tensor):
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                value = _T["tensor"](value)
            else:
                raise GradcliError(
                    f"{self!r}.check takes a tensor, not {typename(value)}",
                    hint="pass a tensor: constraint.check(torch.tensor([0.5]))",
                ).mirror("TypeError")
        return _CHECKS[self.kind](self, value)


def _integral(v: Tensor) -> Tensor:
    return _M["eq"](_M["remainder"](v, 1), 0)


def _and(*ts: Tensor) -> Tensor:
    out = ts[0]
    for t in ts[1:]:
        out = _M["bitwise_and"](out, t)
    return out


def _all_last(t: Tensor) -> Tensor:
    return _M["all"](t, -1)


def _independent_check(c: Constraint, value: Tensor) -> Tensor:
    base, n = c.base_constraint, c.reinterpreted_batch_ndims  # type: ignore[attr-defined]
    result = base.check(value)
    if result.ndim < n:
        raise GradcliError(
            f"Expected value.dim() >= {base.event_dim + n} but got {value.ndim}"
        ).mirror("ValueError")
    result = _M["reshape"](result, *(tuple(result.shape[: result.ndim - n]) + (-1,)))
    return _all_last(result)


def _lower_cholesky_check(c: Constraint, value: Tensor) -> Tensor:
    tril = _M["tril"](value)
    lower = _M["amin"](_M["view"](_M["eq"](tril, value), *(tuple(value.shape[:-2]) + (-1,))), -1)
    diag = _M["amin"](_M["gt"](_M["diagonal"](value, 0, -2, -1), 0), -1)
    return _M["bitwise_and"](lower, diag)


def _positive_definite_check(c: Constraint, value: Tensor) -> Tensor:
    return _M["eq"](N.LINALG["cholesky_ex"](value)[1], 0)


_CHECKS: dict[str, Any] = {
    "Real": lambda c, v: _M["eq"](v, v),
    "GreaterThan": lambda c, v: _M["gt"](v, c._bound("lower_bound")),
    "GreaterThanEq": lambda c, v: _M["ge"](v, c._bound("lower_bound")),
    "LessThan": lambda c, v: _M["lt"](v, c._bound("upper_bound")),
    "Interval": lambda c, v: _and(
        _M["ge"](v, c._bound("lower_bound")), _M["le"](v, c._bound("upper_bound"))
    ),
    "HalfOpenInterval": lambda c, v: _and(
        _M["ge"](v, c._bound("lower_bound")), _M["lt"](v, c._bound("upper_bound"))
    ),
    "Boolean": lambda c, v: _M["bitwise_or"](_M["eq"](v, 0), _M["eq"](v, 1)),
    "IntegerInterval": lambda c, v: _and(
        _integral(v), _M["ge"](v, c._bound("lower_bound")), _M["le"](v, c._bound("upper_bound"))
    ),
    "IntegerGreaterThan": lambda c, v: _and(_integral(v), _M["ge"](v, c._bound("lower_bound"))),
    "IntegerLessThan": lambda c, v: _and(_integral(v), _M["le"](v, c._bound("upper_bound"))),
    "Simplex": lambda c, v: _and(
        _all_last(_M["ge"](v, 0)), _M["lt"](_M["abs"](_M["sum"](v, -1) - 1), 1e-6)
    ),
    "OneHot": lambda c, v: _and(
        _all_last(_M["bitwise_or"](_M["eq"](v, 0), _M["eq"](v, 1))), _M["eq"](_M["sum"](v, -1), 1)
    ),
    "Multinomial": lambda c, v: _and(
        _all_last(_M["ge"](v, 0)), _M["le"](_M["sum"](v, -1), c._bound("upper_bound"))
    ),
    "IndependentConstraint": _independent_check,
    "LowerCholesky": _lower_cholesky_check,
    "PositiveDefinite": _positive_definite_check,
    "CorrCholesky": lambda c, v: _M["bitwise_and"](
        _lower_cholesky_check(c, v),
        _all_last(
            _M["le"](
                _M["abs"](N.LINALG["norm"](_M["detach"](v), dim=-1) - 1.0),
                float(np.finfo(v.dtype).eps) * v.shape[-1] * 10,
            )
        ),
    ),
}


class IndependentConstraint(Constraint):
    PROGRAM_ATTRIBUTES = Constraint.PROGRAM_ATTRIBUTES + (
        "base_constraint",
        "reinterpreted_batch_ndims",
    )

    def __init__(self, base_constraint: Any, reinterpreted_batch_ndims: Any) -> None:
        if not isinstance(base_constraint, Constraint):
            raise GradcliError(
                f"independent() takes a constraint, not {typename(base_constraint)}"
            ).mirror("AssertionError")
        if isinstance(reinterpreted_batch_ndims, bool) or not isinstance(
            reinterpreted_batch_ndims, int
        ):
            raise GradcliError(
                "reinterpreted_batch_ndims must be an int, not "
                f"{typename(reinterpreted_batch_ndims)}"
            ).mirror("AssertionError")
        if reinterpreted_batch_ndims < 0:
            raise GradcliError("reinterpreted_batch_ndims must be >= 0").mirror("AssertionError")
        super().__init__(
            "IndependentConstraint",
            (),
            base_constraint.is_discrete,
            base_constraint.event_dim + reinterpreted_batch_ndims,
        )
        self.base_constraint = base_constraint
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    def __repr__(self) -> str:
        return f"IndependentConstraint({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


class MixtureSameFamilyConstraint(Constraint):
    """A mixture's support: its components' constraint checked with the components' dimension
    put back (unsqueezed before the event dims), every batch entry reduced with all()."""

    PROGRAM_ATTRIBUTES = Constraint.PROGRAM_ATTRIBUTES + ("base_constraint",)

    def __init__(self, base_constraint: Constraint) -> None:
        super().__init__(
            "MixtureSameFamilyConstraint",
            (),
            base_constraint.is_discrete,
            base_constraint.event_dim,
        )
        self.base_constraint = base_constraint

    def __repr__(self) -> str:
        return f"MixtureSameFamilyConstraint({self.base_constraint!r})"

    def check(self, value: Any) -> Any:
        if not isinstance(value, Tensor):
            return super().check(value)
        result = self.base_constraint.check(_M["unsqueeze"](value, -1 - self.event_dim))
        if value.ndim < self.event_dim:
            raise GradcliError(
                f"Expected value.dim() >= {self.event_dim} but got {value.ndim}"
            ).mirror("ValueError")
        keep = value.ndim - self.event_dim
        return _M["all"](_M["reshape"](result, tuple(result.shape[:keep]) + (-1,)), -1)


def _dim_in_range(dim: int, value: Tensor) -> None:
    if not -value.ndim <= dim < value.ndim:
        raise GradcliError(f"dim {dim} out of range for value with {value.ndim} dimensions").mirror(
            "AssertionError"
        )


class _Parts(Constraint):
    """PyTorch's `_Cat` / `_Stack`: one constraint per block (of `lengths` along `dim`) or per
    slice along `dim`, checked each on its own and put back together as torch.cat / stack."""

    PROGRAM_ATTRIBUTES = Constraint.PROGRAM_ATTRIBUTES + ("cseq", "dim")

    def __init__(self, kind: str, cseq: Any, dim: Any) -> None:
        if not isinstance(cseq, (list, tuple)) or not all(isinstance(c, Constraint) for c in cseq):
            raise GradcliError("All elements of cseq must be Constraint instances").mirror(
                "AssertionError"
            )
        if isinstance(dim, bool) or not isinstance(dim, int):
            raise GradcliError(f"{kind}'s dim must be an int, not {typename(dim)}").mirror(
                "TypeError"
            )
        self.cseq = list(cseq)
        self.dim = dim
        super().__init__(kind, (), any(c.is_discrete for c in self.cseq), self._event_dim())

    def _event_dim(self) -> int:
        return max((c.event_dim for c in self.cseq), default=0)


class CatConstraint(_Parts):
    PROGRAM_ATTRIBUTES = _Parts.PROGRAM_ATTRIBUTES + ("lengths",)

    def __init__(self, cseq: Any, dim: Any = 0, lengths: Any = None) -> None:
        super().__init__("Cat", cseq, dim)
        self.lengths = _lengths(lengths, len(self.cseq), "cseq")

    def check(self, value: Any) -> Any:
        if not isinstance(value, Tensor):
            return super().check(value)
        _dim_in_range(self.dim, value)
        checks, start = [], 0
        for c, n in zip(self.cseq, self.lengths):
            checks.append(c.check(_M["narrow"](value, self.dim, start, n)))
            start += n
        return _T["cat"](checks, self.dim)


class StackConstraint(_Parts):
    def __init__(self, cseq: Any, dim: Any = 0) -> None:
        super().__init__("Stack", cseq, dim)

    def _event_dim(self) -> int:
        d = super()._event_dim()
        return d + 1 if self.dim + d < 0 else d

    def check(self, value: Any) -> Any:
        if not isinstance(value, Tensor):
            return super().check(value)
        _dim_in_range(self.dim, value)
        parts = [_M["select"](value, self.dim, i) for i in range(value.shape[self.dim])]
        return _T["stack"]([c.check(v) for v, c in zip(parts, self.cseq)], self.dim)


def _lengths(lengths: Any, n: int, what: str) -> list[int]:
    """PyTorch's `lengths` of a cat (one block of 1 per part when None), checked."""
    if lengths is None:
        return [1] * n
    if not isinstance(lengths, (list, tuple)) or not all(
        isinstance(k, int) and not isinstance(k, bool) and k >= 0 for k in lengths
    ):
        raise GradcliError(f"lengths must be a list of sizes, not {typename(lengths)}").mirror(
            "TypeError"
        )
    if len(lengths) != n:
        raise GradcliError(f"lengths ({len(lengths)}) must match {what} ({n})").mirror(
            "AssertionError"
        )
    return [int(k) for k in lengths]


def interval(lower_bound: Any, upper_bound: Any) -> Constraint:
    return Constraint("Interval", (("lower_bound", lower_bound), ("upper_bound", upper_bound)))


def half_open_interval(lower_bound: Any, upper_bound: Any) -> Constraint:
    return Constraint(
        "HalfOpenInterval", (("lower_bound", lower_bound), ("upper_bound", upper_bound))
    )


def greater_than(lower_bound: Any) -> Constraint:
    return Constraint("GreaterThan", (("lower_bound", lower_bound),))


def greater_than_eq(lower_bound: Any) -> Constraint:
    return Constraint("GreaterThanEq", (("lower_bound", lower_bound),))


def less_than(upper_bound: Any) -> Constraint:
    return Constraint("LessThan", (("upper_bound", upper_bound),))


def integer_interval(lower_bound: Any, upper_bound: Any) -> Constraint:
    return Constraint(
        "IntegerInterval", (("lower_bound", lower_bound), ("upper_bound", upper_bound)), True
    )


def multinomial(upper_bound: Any) -> Constraint:
    return Constraint("Multinomial", (("upper_bound", upper_bound),), True, 1)


real = Constraint("Real")
positive = greater_than(0.0)
nonnegative = greater_than_eq(0.0)
unit_interval = interval(0.0, 1.0)
boolean = Constraint("Boolean", (), True)
one_hot = Constraint("OneHot", (), True, 1)
nonnegative_integer = Constraint("IntegerGreaterThan", (("lower_bound", 0),), True)
positive_integer = Constraint("IntegerGreaterThan", (("lower_bound", 1),), True)
simplex = Constraint("Simplex", (), False, 1)
real_vector = IndependentConstraint(real, 1)
lower_cholesky = Constraint("LowerCholesky", (), False, 2)
positive_definite = Constraint("PositiveDefinite", (), False, 2)
corr_cholesky = Constraint("CorrCholesky", (), False, 2)

# what a program reaches as torch.distributions.constraints.X
PUBLIC: dict[str, Any] = {
    "real": real,
    "positive": positive,
    "nonnegative": nonnegative,
    "unit_interval": unit_interval,
    "boolean": boolean,
    "one_hot": one_hot,
    "nonnegative_integer": nonnegative_integer,
    "positive_integer": positive_integer,
    "simplex": simplex,
    "real_vector": real_vector,
    "lower_cholesky": lower_cholesky,
    "positive_definite": positive_definite,
    "corr_cholesky": corr_cholesky,
    "interval": interval,
    "half_open_interval": half_open_interval,
    "greater_than": greater_than,
    "greater_than_eq": greater_than_eq,
    "less_than": less_than,
    "integer_interval": integer_interval,
    "multinomial": multinomial,
    "independent": IndependentConstraint,
    "cat": CatConstraint,
    "stack": StackConstraint,
}


# --- each distribution's support and arg_constraints (PyTorch 2.13's) ---------------------------


def _probs_logits(probs: Constraint, logits: Constraint) -> dict[str, Constraint]:
    return {"probs": probs, "logits": logits}


_LOC_SCALE = {"loc": real, "scale": positive}


def support(d: Any) -> Constraint:
    name = d.NAME
    if name in (
        "Normal",
        "Laplace",
        "Cauchy",
        "StudentT",
        "Gumbel",
        "LogitRelaxedBernoulli",
        "VonMises",
    ):
        return real
    if name in ("Exponential", "Gamma", "Chi2", "HalfNormal", "HalfCauchy"):
        return nonnegative
    if name in ("LogNormal", "FisherSnedecor", "Weibull", "InverseGamma"):
        return positive
    if name in ("Beta", "RelaxedBernoulli", "Kumaraswamy", "ContinuousBernoulli"):
        return unit_interval
    if name in ("Poisson", "Geometric", "NegativeBinomial"):
        return nonnegative_integer
    if name in ("Dirichlet", "LogisticNormal", "RelaxedOneHotCategorical"):
        return simplex
    if name in ("MultivariateNormal", "LowRankMultivariateNormal", "ExpRelaxedCategorical"):
        return real_vector
    if name == "Bernoulli":
        return boolean
    if name in ("OneHotCategorical", "OneHotCategoricalStraightThrough"):
        return one_hot
    if name == "Uniform":
        return interval(d.low, d.high)
    if name == "Categorical":
        return integer_interval(0, d.events - 1)
    if name == "Binomial":
        return integer_interval(0, d.total_count)
    if name == "Multinomial":
        return multinomial(d.total_count)
    if name == "Pareto":
        return greater_than_eq(d.scale)
    if name == "GeneralizedPareto":
        return interval(d.loc, d._upper())
    if name == "LKJCholesky":
        return corr_cholesky
    if name == "Wishart":
        return positive_definite
    if name == "Independent":
        base = support(d.base_dist)
        n = d.reinterpreted_batch_ndims
        return IndependentConstraint(base, n) if n else base
    if name == "MixtureSameFamily":
        return MixtureSameFamilyConstraint(support(d.component_distribution))
    transforms = getattr(d, "transforms", None)
    if transforms is not None:  # TransformedDistribution: the last transform's codomain
        if not transforms:
            return support(d.base_dist)
        c = _CODOMAINS.get(transforms[-1].codomain[0], real)
        if len(d.event) > c.event_dim:
            c = IndependentConstraint(c, len(d.event) - c.event_dim)
        return c
    raise GradcliError(f"the support of {name} is not supported by gradcli").mirror(
        "NotImplementedError"
    )


_CODOMAINS = {
    "Real()": real,
    "GreaterThan(lower_bound=0.0)": positive,
    "Interval(lower_bound=0.0, upper_bound=1.0)": unit_interval,
    "Interval(lower_bound=-1.0, upper_bound=1.0)": interval(-1.0, 1.0),
    "Simplex()": simplex,
    "CorrCholesky()": corr_cholesky,
    "LowerCholesky()": lower_cholesky,
    "PositiveDefinite()": positive_definite,
}


def arg_constraints(d: Any) -> dict[str, Constraint]:
    name = d.NAME
    if name in ("Normal", "Laplace", "Cauchy", "LogNormal", "Gumbel", "LogisticNormal"):
        return dict(_LOC_SCALE)
    if name == "StudentT":
        return {"df": positive, **_LOC_SCALE}
    if name == "GeneralizedPareto":
        return {**_LOC_SCALE, "concentration": real}
    if name in ("Exponential",):
        return {"rate": positive}
    if name == "Poisson":
        return {"rate": nonnegative}
    if name in ("Gamma", "InverseGamma"):
        return {"concentration": positive, "rate": positive}
    if name == "Chi2":
        return {"df": positive}
    if name == "Beta":
        return {"concentration1": positive, "concentration0": positive}
    if name == "Dirichlet":
        return {"concentration": IndependentConstraint(positive, 1)}
    if name in ("HalfNormal", "HalfCauchy"):
        return {"scale": positive}
    if name == "FisherSnedecor":
        return {"df1": positive, "df2": positive}
    if name in (
        "Bernoulli",
        "Geometric",
        "RelaxedBernoulli",
        "LogitRelaxedBernoulli",
        "ContinuousBernoulli",
    ):
        return _probs_logits(unit_interval, real)
    if name in (
        "Categorical",
        "OneHotCategorical",
        "Multinomial",
        "RelaxedOneHotCategorical",
        "ExpRelaxedCategorical",
        "OneHotCategoricalStraightThrough",
    ):
        return _probs_logits(simplex, IndependentConstraint(real, 1))
    if name == "Binomial":
        return {"total_count": nonnegative_integer, **_probs_logits(unit_interval, real)}
    if name == "NegativeBinomial":
        return {
            "total_count": greater_than_eq(0),
            **_probs_logits(half_open_interval(0.0, 1.0), real),
        }
    if name == "Uniform":
        return {"low": less_than(d.high), "high": greater_than(d.low)}
    if name == "MultivariateNormal":
        return {
            "loc": real_vector,
            "covariance_matrix": positive_definite,
            "precision_matrix": positive_definite,
            "scale_tril": lower_cholesky,
        }
    if name == "LowRankMultivariateNormal":
        return {
            "loc": real_vector,
            "cov_factor": IndependentConstraint(real, 2),
            "cov_diag": IndependentConstraint(positive, 1),
        }
    if name == "Pareto":
        return {"alpha": positive, "scale": positive}
    if name in ("VonMises",):
        return {"loc": real, "concentration": positive}
    if name == "LKJCholesky":
        return {"concentration": positive}
    if name == "Wishart":
        return {
            "covariance_matrix": positive_definite,
            "precision_matrix": positive_definite,
            "scale_tril": lower_cholesky,
            "df": greater_than(d.event[-1] - 1),
        }
    if name == "Weibull":
        return {"scale": positive, "concentration": positive}
    if name == "Kumaraswamy":
        return {"concentration1": positive, "concentration0": positive}
    return {}
