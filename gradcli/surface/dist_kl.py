"""`torch.distributions.kl_divergence`: the pairs PyTorch registers, found as PyTorch finds
them: each distribution's classes from the most to the least specific (Chi2 is a Gamma, an
ExponentialFamily, a Distribution; LogNormal a TransformedDistribution), the registered pair
most specific in p first (a warning when q-first order picks another), and PyTorch's
NotImplementedError for a pair it does not register.

Each formula is the sequence of recorded operations PyTorch's (so values in float32 and the
grad_fn names are PyTorch's): `result[mask] = inf` is an assignment in place (CopySlices), an
infinite KL a `full_like(..., inf)`. Loaded by `distributions.kl_divergence`."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.tensor import Tensor, typename
from . import distributions as DS
from . import names as N

_T = N.FUNCTIONS
_M = N.METHODS
_F = N.NN_FUNCTIONAL
_EF = "ExponentialFamily"
_TD = "TransformedDistribution"
_EULER = 0.57721566490153286060

# PyTorch's base classes of each distribution (between its own and Distribution)
_BASES: dict[str, tuple[str, ...]] = {
    **{
        n: (_EF,)
        for n in (
            "Normal Bernoulli Beta ContinuousBernoulli Dirichlet Exponential Gamma Poisson"
        ).split()
    },
    "Chi2": ("Gamma", _EF),
    **{
        n: (_TD,)
        for n in (
            "LogNormal HalfNormal HalfCauchy Gumbel Pareto Weibull Kumaraswamy LogisticNormal "
            "RelaxedBernoulli RelaxedOneHotCategorical InverseGamma"
        ).split()
    },
    "OneHotCategoricalStraightThrough": ("OneHotCategorical",),
}


def _classes(d: Any) -> tuple[Any, ...]:
    mro = getattr(getattr(d, "cls", None), "mro", None)
    if isinstance(mro, tuple):
        # a program's own class (`class Spike(Distribution)`): itself and its program bases,
        # by identity (a program's class may share a name with one of PyTorch's)
        return tuple(c for c in mro if not isinstance(c, type)) + ("Distribution",)
    name = d.NAME
    return (name,) + _BASES.get(name, ()) + ("Distribution",)


_REGISTRY: dict[tuple[Any, Any], Callable[[Any, Any], Any]] = {}
# The pairs a program registers (`@register_kl(Laplace, Normal)`), for this run only: they
# join PyTorch's (a program's pair replaces PyTorch's own for the same two classes).
PROGRAM_PAIRS: dict[tuple[Any, Any], Any] = {}


def reset() -> None:
    """A new run: no pair of the program's."""
    PROGRAM_PAIRS.clear()


def register(key_p: Any, key_q: Any, fun: Any) -> None:
    """`register_kl(type_p, type_q)(fun)`: KL(p || q) of those classes (and their subclasses)
    is fun(p, q) from now on."""
    PROGRAM_PAIRS[key_p, key_q] = fun


def _lookup(pair: tuple[Any, Any]) -> Any:
    found = PROGRAM_PAIRS.get(pair)
    return _REGISTRY.get(pair) if found is None else found


def _register(*pairs: tuple[str, str]) -> Callable[[Callable], Callable]:
    def add(fn: Callable) -> Callable:
        for pair in pairs:
            _REGISTRY[pair] = fn
        return fn

    return add


def kl_divergence(p: Any, q: Any) -> Tensor:
    """KL(p || q) by PyTorch's dispatch over the registered pairs."""

    def name(d: Any) -> str:
        return d.NAME if isinstance(d, DS.Distribution) else typename(d)

    cp = _classes(p) if isinstance(p, DS.Distribution) else ()
    cq = _classes(q) if isinstance(q, DS.Distribution) else ()
    matches = [(a, b) for a in cp for b in cq if _lookup((a, b)) is not None]
    if not matches:
        raise (
            GradcliError(
                f"No KL(p || q) is implemented for p type {name(p)} and q type {name(q)}",
                hint="PyTorch registers a closed form for some pairs only; a Monte Carlo "
                "estimate: x = p.rsample((n,)); (p.log_prob(x) - q.log_prob(x)).mean(0)",
            )
            .mirror("NotImplementedError")
            .pytorch()
        )
    left = min(matches, key=lambda m: (cp.index(m[0]), cq.index(m[1])))
    right = min(matches, key=lambda m: (cq.index(m[1]), cp.index(m[0])))
    if _lookup(left) is not _lookup(right):
        from ..core import hooks

        def shown(c: Any) -> str:  # (a class's __name__)
            return c if isinstance(c, str) else c.name

        hooks.warn(
            f"Ambiguous kl_divergence({p.NAME}, {q.NAME}). Please register_kl("
            f"{shown(left[0])}, {shown(right[1])})"
        )
    fun = _lookup(left)
    if not callable(fun):  # (`register_kl(P, Q)(0.5)` registers it; the call then fails)
        raise GradcliError(f"'{typename(fun)}' object is not callable").mirror("TypeError")
    return fun(p, q)


# --- helpers ------------------------------------------------------------------------------------


def _inf_like(t: Tensor) -> Tensor:
    return _T["full_like"](t, math.inf)


def _set_inf(result: Tensor, mask: Tensor) -> Tensor:
    from .indexing import setitem

    setitem(result, mask, math.inf)
    return result


def _lgamma(t: Tensor) -> Tensor:
    return _M["lgamma"](t)


def _digamma(t: Tensor) -> Tensor:
    return _M["digamma"](t)


def _x_log_x(t: Tensor) -> Tensor:
    return _T["xlogy"](t, t)


def _not_implemented(message: str = "") -> GradcliError:
    return GradcliError(message).mirror("NotImplementedError").pytorch()


# --- one family -------------------------------------------------------------------------------


@_register(("Normal", "Normal"))
def _normal_normal(p: Any, q: Any) -> Tensor:
    var_ratio = _M["pow"](p.scale / q.scale, 2)
    t1 = _M["pow"]((p.loc - q.loc) / q.scale, 2)
    return 0.5 * (var_ratio + t1 - 1 - _M["log"](var_ratio))


@_register(("Categorical", "Categorical"))
def _categorical_categorical(p: Any, q: Any) -> Tensor:
    t = p.probs * (p.logits - q.logits)
    if bool(np.any(q.probs.data == 0)) or bool(np.any(p.probs.data == 0)):
        inf = _M["expand_as"](_M["eq"](q.probs, 0), t)
        t = _T["where"](inf, math.inf, t)
        t = _T["where"](_M["expand_as"](_M["eq"](p.probs, 0), t), 0.0, t)
    return _M["sum"](t, -1)


@_register(("OneHotCategorical", "OneHotCategorical"))
def _onehot_onehot(p: Any, q: Any) -> Tensor:
    return _categorical_categorical(p._categorical, q._categorical)


@_register(("Bernoulli", "Bernoulli"))
def _bernoulli_bernoulli(p: Any, q: Any) -> Tensor:
    t1 = p.probs * (_F["softplus"](-q.logits) - _F["softplus"](-p.logits))
    t2 = (1 - p.probs) * (_F["softplus"](q.logits) - _F["softplus"](p.logits))
    return t1 + t2


@_register(("MultivariateNormal", "MultivariateNormal"))
def _mvn_mvn(p: Any, q: Any) -> Tensor:
    return DS._kl_mvn(p, q)


@_register(("Independent", "Independent"))
def _independent_independent(p: Any, q: Any) -> Tensor:
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise _not_implemented()
    return DS._sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.reinterpreted_batch_ndims)


@_register(("Exponential", "Exponential"))
def _exponential_exponential(p: Any, q: Any) -> Tensor:
    rate_ratio = q.rate / p.rate
    return -_M["log"](rate_ratio) + rate_ratio - 1


@_register(("Laplace", "Laplace"))
def _laplace_laplace(p: Any, q: Any) -> Tensor:
    scale_ratio = p.scale / q.scale
    loc_abs_diff = _M["abs"](p.loc - q.loc)
    t1 = -_M["log"](scale_ratio)
    t2 = loc_abs_diff / q.scale
    t3 = scale_ratio * _T["exp"](-loc_abs_diff / p.scale)
    return t1 + t2 + t3 - 1


@_register(("Poisson", "Poisson"))
def _poisson_poisson(p: Any, q: Any) -> Tensor:
    return p.rate * (_M["log"](p.rate) - _M["log"](q.rate)) - (p.rate - q.rate)


def _transformed_parts(d: Any) -> tuple[list[Any], Any]:
    """(transforms, base) of a TransformedDistribution, as PyTorch's subclasses hold them."""
    if isinstance(d, DS.TransformedDistribution):
        return list(d.transforms), d.base_dist
    if d.NAME == "LogNormal":
        return [DS.ExpTransform()], d.base_dist
    return [d.NAME], d.base_dist  # (HalfNormal: abs; equal only to another HalfNormal's)


@_register((_TD, _TD))
def _transformed_transformed(p: Any, q: Any) -> Tensor:
    tp, bp = _transformed_parts(p)
    tq, bq = _transformed_parts(q)
    if len(tp) != len(tq) or any(a != b for a, b in zip(tp, tq)) or p.event != q.event:
        raise _not_implemented()
    return kl_divergence(bp, bq)


@_register(("HalfNormal", "HalfNormal"))
def _halfnormal_halfnormal(p: Any, q: Any) -> Tensor:
    return _normal_normal(p.base_dist, q.base_dist)


@_register(("Gamma", "Gamma"))
def _gamma_gamma(p: Any, q: Any) -> Tensor:
    t1 = q.concentration * _M["log"](p.rate / q.rate)
    t2 = _lgamma(q.concentration) - _lgamma(p.concentration)
    t3 = (p.concentration - q.concentration) * _digamma(p.concentration)
    t4 = (q.rate - p.rate) * (p.concentration / p.rate)
    return t1 + t2 + t3 + t4


@_register(("Beta", "Beta"))
def _beta_beta(p: Any, q: Any) -> Tensor:
    p1, p0, q1, q0 = p.concentration1, p.concentration0, q.concentration1, q.concentration0
    sum_p = p1 + p0
    sum_q = q1 + q0
    t1 = _lgamma(q1) + _lgamma(q0) + _lgamma(sum_p)
    t2 = _lgamma(p1) + _lgamma(p0) + _lgamma(sum_q)
    t3 = (p1 - q1) * _digamma(p1)
    t4 = (p0 - q0) * _digamma(p0)
    t5 = (sum_q - sum_p) * _digamma(sum_p)
    return t1 - t2 + t3 + t4 + t5


@_register(("Dirichlet", "Dirichlet"))
def _dirichlet_dirichlet(p: Any, q: Any) -> Tensor:
    sum_p = _M["sum"](p.concentration, -1)
    sum_q = _M["sum"](q.concentration, -1)
    t1 = _lgamma(sum_p) - _lgamma(sum_q)
    t2 = _M["sum"](_lgamma(p.concentration) - _lgamma(q.concentration), -1)
    t3 = p.concentration - q.concentration
    t4 = _digamma(p.concentration) - _M["unsqueeze"](_digamma(sum_p), -1)
    return t1 - t2 + _M["sum"](t3 * t4, -1)


@_register(("Uniform", "Uniform"))
def _uniform_uniform(p: Any, q: Any) -> Tensor:
    result = _M["log"]((q.high - q.low) / (p.high - p.low))
    return _set_inf(result, _M["logical_or"](_M["gt"](q.low, p.low), _M["lt"](q.high, p.high)))


@_register(("Cauchy", "Cauchy"))
def _cauchy_cauchy(p: Any, q: Any) -> Tensor:
    t1 = _M["log"](_M["pow"](p.scale + q.scale, 2) + _M["pow"](p.loc - q.loc, 2))
    t2 = _M["log"](4 * p.scale * q.scale)
    return t1 - t2


@_register(("Geometric", "Geometric"))
def _geometric_geometric(p: Any, q: Any) -> Tensor:
    return -p.entropy() - _T["log1p"](-q.probs) / p.probs - q.logits


@_register(("Gumbel", "Gumbel"))
def _gumbel_gumbel(p: Any, q: Any) -> Tensor:
    ct1 = p.scale / q.scale
    ct2 = q.loc / q.scale
    ct3 = p.loc / q.scale
    t1 = -_M["log"](ct1) - ct2 + ct3
    t2 = ct1 * _EULER
    t3 = _T["exp"](ct2 + _lgamma(1 + ct1) - ct3)
    return t1 + t2 + t3 - (1 + _EULER)


@_register((_EF, _EF))
def _expfamily_expfamily(p: Any, q: Any) -> Tensor:
    if p.NAME != q.NAME:
        raise _not_implemented(
            "The cross KL-divergence between different exponential families cannot "
            "                            be computed using Bregman divergences"
        )
    raise GradcliError(
        f"KL({p.NAME} || {q.NAME}) by PyTorch's generic Bregman divergence of exponential "
        "families is not supported by gradcli"
    ).mirror("NotImplementedError")


# --- different families (PyTorch's closed forms, in its order) ----------------------------------


@_register(("Bernoulli", "Poisson"))
def _bernoulli_poisson(p: Any, q: Any) -> Tensor:
    return -p.entropy() - (p.probs * _M["log"](q.rate) - q.rate)


@_register(("Beta", "Exponential"))
def _beta_exponential(p: Any, q: Any) -> Tensor:
    c1, c0 = p.concentration1, p.concentration0
    return -p.entropy() - _M["log"](q.rate) + q.rate * (c1 / (c1 + c0))


@_register(("Beta", "Gamma"))
def _beta_gamma(p: Any, q: Any) -> Tensor:
    c1, c0 = p.concentration1, p.concentration0
    t1 = -p.entropy()
    t2 = _lgamma(q.concentration) - q.concentration * _M["log"](q.rate)
    t3 = (q.concentration - 1) * (_digamma(c1) - _digamma(c1 + c0))
    t4 = q.rate * c1 / (c1 + c0)
    return t1 + t2 - t3 + t4


@_register(("Beta", "Normal"))
def _beta_normal(p: Any, q: Any) -> Tensor:
    c1, c0 = p.concentration1, p.concentration0
    e_beta = c1 / (c1 + c0)
    var_normal = _M["pow"](q.scale, 2)
    t1 = -p.entropy()
    t2 = 0.5 * _M["log"](var_normal * 2 * math.pi)
    t3 = (e_beta * (1 - e_beta) / (c1 + c0 + 1) + _M["pow"](e_beta, 2)) * 0.5
    t4 = q.loc * e_beta
    t5 = _M["pow"](q.loc, 2) * 0.5
    return t1 + t2 + (t3 - t4 + t5) / var_normal


@_register(("Beta", "Uniform"))
def _beta_uniform(p: Any, q: Any) -> Tensor:
    result = -p.entropy() + _M["log"](q.high - q.low)
    return _set_inf(result, _M["logical_or"](_M["gt"](q.low, 0.0), _M["lt"](q.high, 1.0)))


def _infinite(attr: str) -> Callable[[Any, Any], Tensor]:
    return lambda p, q: _inf_like(getattr(p, attr))


for _p, _attr, _qs in (
    ("Beta", "concentration1", ("Pareto",)),
    ("Exponential", "rate", ("Beta", "ContinuousBernoulli", "Pareto", "Uniform")),
    ("Gamma", "concentration", ("Beta", "ContinuousBernoulli", "Pareto", "Uniform")),
    ("Gumbel", "loc", ("Beta", "ContinuousBernoulli", "Exponential", "Gamma", "Pareto", "Uniform")),
    (
        "Laplace",
        "loc",
        ("Beta", "ContinuousBernoulli", "Exponential", "Gamma", "Pareto", "Uniform"),
    ),
    ("Normal", "loc", ("Beta", "ContinuousBernoulli", "Exponential", "Gamma", "Pareto", "Uniform")),
    ("Pareto", "scale", ("Beta", "ContinuousBernoulli", "Uniform")),
    ("Poisson", "rate", ("Bernoulli", "Binomial")),
    ("ContinuousBernoulli", "probs", ("Pareto",)),
):
    _register(*((_p, _q) for _q in _qs))(_infinite(_attr))


@_register(("Exponential", "Gamma"))
def _exponential_gamma(p: Any, q: Any) -> Tensor:
    ratio = q.rate / p.rate
    t1 = -q.concentration * _T["log"](ratio)
    return t1 + ratio + _lgamma(q.concentration) + q.concentration * _EULER - (1 + _EULER)


@_register(("Exponential", "Gumbel"))
def _exponential_gumbel(p: Any, q: Any) -> Tensor:
    scale_rate_prod = p.rate * q.scale
    loc_scale_ratio = q.loc / q.scale
    t1 = _M["log"](scale_rate_prod) - 1
    t2 = _T["exp"](loc_scale_ratio) * scale_rate_prod / (scale_rate_prod + 1)
    t3 = _M["reciprocal"](scale_rate_prod)
    return t1 - loc_scale_ratio + t2 + t3


@_register(("Exponential", "Normal"))
def _exponential_normal(p: Any, q: Any) -> Tensor:
    var_normal = _M["pow"](q.scale, 2)
    rate_sqr = _M["pow"](p.rate, 2)
    t1 = 0.5 * _T["log"](rate_sqr * var_normal * 2 * math.pi)
    t2 = _M["reciprocal"](rate_sqr)
    t3 = q.loc / p.rate
    t4 = _M["pow"](q.loc, 2) * 0.5
    return t1 - 1 + (t2 - t3 + t4) / var_normal


@_register(("Gamma", "Exponential"))
def _gamma_exponential(p: Any, q: Any) -> Tensor:
    return -p.entropy() - _M["log"](q.rate) + q.rate * p.concentration / p.rate


@_register(("Gamma", "Gumbel"))
def _gamma_gumbel(p: Any, q: Any) -> Tensor:
    c = p.concentration
    beta_scale_prod = p.rate * q.scale
    loc_scale_ratio = q.loc / q.scale
    t1 = (c - 1) * _digamma(c) - _lgamma(c) - c
    t2 = _M["log"](beta_scale_prod) + c / beta_scale_prod
    t3 = (
        _T["exp"](loc_scale_ratio) * _M["pow"](1 + _M["reciprocal"](beta_scale_prod), -c)
        - loc_scale_ratio
    )
    return t1 + t2 + t3


@_register(("Gamma", "Normal"))
def _gamma_normal(p: Any, q: Any) -> Tensor:
    c = p.concentration
    var_normal = _M["pow"](q.scale, 2)
    beta_sqr = _M["pow"](p.rate, 2)
    t1 = 0.5 * _T["log"](beta_sqr * var_normal * 2 * math.pi) - c - _lgamma(c)
    t2 = 0.5 * (_M["pow"](c, 2) + c) / beta_sqr
    t3 = q.loc * c / p.rate
    t4 = 0.5 * _M["pow"](q.loc, 2)
    return t1 + (c - 1) * _digamma(c) + (t2 - t3 + t4) / var_normal


@_register(("Gumbel", "Normal"))
def _gumbel_normal(p: Any, q: Any) -> Tensor:
    param_ratio = p.scale / q.scale
    t1 = _M["log"](param_ratio / math.sqrt(2 * math.pi))
    t2 = _M["pow"](math.pi * param_ratio * 0.5, 2) / 3
    t3 = _M["pow"]((p.loc + p.scale * _EULER - q.loc) / q.scale, 2) * 0.5
    return -t1 + t2 + t3 - (_EULER + 1)


@_register(("Laplace", "Normal"))
def _laplace_normal(p: Any, q: Any) -> Tensor:
    var_normal = _M["pow"](q.scale, 2)
    scale_sqr_var_ratio = _M["pow"](p.scale, 2) / var_normal
    t1 = 0.5 * _T["log"](2 * scale_sqr_var_ratio / math.pi)
    t2 = 0.5 * _M["pow"](p.loc, 2)
    t3 = p.loc * q.loc
    t4 = 0.5 * _M["pow"](q.loc, 2)
    return -t1 + scale_sqr_var_ratio + (t2 - t3 + t4) / var_normal - 1


@_register(("Normal", "Gumbel"))
def _normal_gumbel(p: Any, q: Any) -> Tensor:
    mean_scale_ratio = p.loc / q.scale
    var_scale_sqr_ratio = _M["pow"](p.scale / q.scale, 2)
    loc_scale_ratio = q.loc / q.scale
    t1 = _M["log"](var_scale_sqr_ratio) * 0.5
    t2 = mean_scale_ratio - loc_scale_ratio
    t3 = _T["exp"](-mean_scale_ratio + 0.5 * var_scale_sqr_ratio + loc_scale_ratio)
    return -t1 + t2 + t3 - (0.5 * (1 + math.log(2 * math.pi)))


@_register(("Normal", "Laplace"))
def _normal_laplace(p: Any, q: Any) -> Tensor:
    loc_diff = p.loc - q.loc
    scale_ratio = p.scale / q.scale
    loc_diff_scale_ratio = loc_diff / p.scale
    t1 = _T["log"](scale_ratio)
    t2 = math.sqrt(2 / math.pi) * p.scale * _T["exp"](-0.5 * _M["pow"](loc_diff_scale_ratio, 2))
    t3 = loc_diff * _T["erf"](math.sqrt(0.5) * loc_diff_scale_ratio)
    return -t1 + (t2 + t3) / q.scale - (0.5 * (1 + math.log(0.5 * math.pi)))


@_register(("Uniform", "Beta"))
def _uniform_beta(p: Any, q: Any) -> Tensor:
    common_term = p.high - p.low
    t1 = _T["log"](common_term)
    t2 = (q.concentration1 - 1) * (_x_log_x(p.high) - _x_log_x(p.low) - common_term) / common_term
    t3 = (
        (q.concentration0 - 1)
        * (_x_log_x(1 - p.high) - _x_log_x(1 - p.low) + common_term)
        / common_term
    )
    t4 = (
        _lgamma(q.concentration1)
        + _lgamma(q.concentration0)
        - _lgamma(q.concentration1 + q.concentration0)
    )
    result = t3 + t4 - t1 - t2
    return _set_inf(result, _M["logical_or"](_M["gt"](p.high, 1.0), _M["lt"](p.low, 0.0)))


@_register(("Uniform", "Exponential"))
def _uniform_exponential(p: Any, q: Any) -> Tensor:
    result = q.rate * (p.high + p.low) / 2 - _M["log"]((p.high - p.low) * q.rate)
    return _set_inf(result, _M["lt"](p.low, 0.0))


@_register(("Uniform", "Gamma"))
def _uniform_gamma(p: Any, q: Any) -> Tensor:
    common_term = p.high - p.low
    t1 = _M["log"](common_term)
    t2 = _lgamma(q.concentration) - q.concentration * _M["log"](q.rate)
    t3 = (1 - q.concentration) * (_x_log_x(p.high) - _x_log_x(p.low) - common_term) / common_term
    t4 = q.rate * (p.high + p.low) / 2
    result = -t1 + t2 + t3 + t4
    return _set_inf(result, _M["lt"](p.low, 0.0))


@_register(("Uniform", "Gumbel"))
def _uniform_gumbel(p: Any, q: Any) -> Tensor:
    common_term = q.scale / (p.high - p.low)
    high_loc_diff = (p.high - q.loc) / q.scale
    low_loc_diff = (p.low - q.loc) / q.scale
    t1 = _M["log"](common_term) + 0.5 * (high_loc_diff + low_loc_diff)
    t2 = common_term * (_T["exp"](-high_loc_diff) - _T["exp"](-low_loc_diff))
    return t1 - t2


@_register(("Uniform", "Normal"))
def _uniform_normal(p: Any, q: Any) -> Tensor:
    common_term = p.high - p.low
    t1 = _M["log"](math.sqrt(math.pi * 2) * q.scale / common_term)
    t2 = _M["pow"](common_term, 2) / 12
    t3 = _M["pow"]((p.high + p.low - 2 * q.loc) / 2, 2)
    return t1 + 0.5 * (t2 + t3) / _M["pow"](q.scale, 2)


@_register(("Pareto", "Pareto"))
def _pareto_pareto(p: Any, q: Any) -> Tensor:
    scale_ratio = p.scale / q.scale
    alpha_ratio = q.alpha / p.alpha
    t1 = q.alpha * _M["log"](scale_ratio)
    t2 = -_M["log"](alpha_ratio)
    result = t1 + t2 + alpha_ratio - 1
    return _set_inf(result, _M["lt"](p.scale, q.scale))


@_register(("Pareto", "Exponential"))
def _pareto_exponential(p: Any, q: Any) -> Tensor:
    scale_rate_prod = p.scale * q.rate
    t1 = _M["log"](p.alpha / scale_rate_prod)
    t2 = _M["reciprocal"](p.alpha)
    t3 = p.alpha * scale_rate_prod / (p.alpha - 1)
    result = t1 - t2 + t3 - 1
    return _set_inf(result, _M["le"](p.alpha, 1))


@_register(("Pareto", "Gamma"))
def _pareto_gamma(p: Any, q: Any) -> Tensor:
    common_term = _M["log"](p.scale) + _M["reciprocal"](p.alpha)
    t1 = _M["log"](p.alpha) - common_term
    t2 = _lgamma(q.concentration) - q.concentration * _M["log"](q.rate)
    t3 = (1 - q.concentration) * common_term
    t4 = q.rate * p.alpha * p.scale / (p.alpha - 1)
    result = t1 + t2 + t3 + t4 - 1
    return _set_inf(result, _M["le"](p.alpha, 1))


@_register(("Pareto", "Normal"))
def _pareto_normal(p: Any, q: Any) -> Tensor:
    var_normal = 2 * _M["pow"](q.scale, 2)
    common_term = p.scale / (p.alpha - 1)
    t1 = _M["log"](math.sqrt(2 * math.pi) * q.scale * p.alpha / p.scale)
    t2 = _M["reciprocal"](p.alpha)
    t3 = p.alpha * _M["pow"](common_term, 2) / (p.alpha - 2)
    t4 = _M["pow"](p.alpha * common_term - q.loc, 2)
    result = t1 - t2 + (t3 + t4) / var_normal - 1
    return _set_inf(result, _M["le"](p.alpha, 2))


@_register(("Uniform", "Pareto"))
def _uniform_pareto(p: Any, q: Any) -> Tensor:
    support_uniform = p.high - p.low
    t1 = _M["log"](q.alpha * _M["pow"](q.scale, q.alpha) * support_uniform)
    t2 = (_x_log_x(p.high) - _x_log_x(p.low) - support_uniform) / support_uniform
    result = t2 * (q.alpha + 1) - t1
    return _set_inf(result, _M["lt"](p.low, q.scale))


@_register(("ContinuousBernoulli", "ContinuousBernoulli"))
def _cb_cb(p: Any, q: Any) -> Tensor:
    t1 = p.mean * (p.logits - q.logits)
    t2 = p._cont_bern_log_norm() + _T["log1p"](-p.probs)
    t3 = -q._cont_bern_log_norm() - _T["log1p"](-q.probs)
    return t1 + t2 + t3


def _minus_entropy_to_cb(p: Any, q: Any) -> Tensor:
    return -p.entropy() - p.mean * q.logits - _T["log1p"](-q.probs) - q._cont_bern_log_norm()


@_register(("Beta", "ContinuousBernoulli"))
def _beta_cb(p: Any, q: Any) -> Tensor:
    return _minus_entropy_to_cb(p, q)


@_register(("ContinuousBernoulli", "Exponential"))
def _cb_exponential(p: Any, q: Any) -> Tensor:
    return -p.entropy() - _T["log"](q.rate) + q.rate * p.mean


@_register(("ContinuousBernoulli", "Normal"))
def _cb_normal(p: Any, q: Any) -> Tensor:
    t1 = -p.entropy()
    t2 = 0.5 * (math.log(2.0 * math.pi) + _T["square"](q.loc / q.scale)) + _T["log"](q.scale)
    t3 = (p.variance + _T["square"](p.mean) - 2.0 * q.loc * p.mean) / (2.0 * _T["square"](q.scale))
    return t1 + t2 + t3


def _inf_where_any(result: Tensor, a: Tensor, b: Tensor) -> Tensor:
    return _T["where"](_T["max"](a, b), _T["ones_like"](result) * math.inf, result)


@_register(("ContinuousBernoulli", "Uniform"))
def _cb_uniform(p: Any, q: Any) -> Tensor:
    result = -p.entropy() + _M["log"](q.high - q.low)
    return _inf_where_any(result, _T["ge"](q.low, 0.0), _T["le"](q.high, 1.0))


@_register(("Uniform", "ContinuousBernoulli"))
def _uniform_cb(p: Any, q: Any) -> Tensor:
    result = _minus_entropy_to_cb(p, q)
    return _inf_where_any(result, _T["ge"](p.high, 1.0), _T["le"](p.low, 0.0))


@_register(("Binomial", "Binomial"))
def _binomial_binomial(p: Any, q: Any) -> Tensor:
    from .indexing import getitem, setitem

    if bool(np.any(p.total_count.data < q.total_count.data)):
        raise _not_implemented(
            "KL between Binomials where q.total_count > p.total_count is not implemented"
        )
    kl = p.total_count * (
        p.probs * (p.logits - q.logits) + _M["log1p"](-p.probs) - _M["log1p"](-q.probs)
    )
    inf_idxs = _M["gt"](p.total_count, q.total_count)
    setitem(kl, inf_idxs, _inf_like(getitem(kl, inf_idxs)))
    return kl


# --- low-rank multivariate normals -------------------------------------------------------------


def _lowrank_logdet(w: Tensor, d: Tensor, cap: Tensor) -> Tensor:
    diag = _M["diagonal"](cap, 0, -2, -1)
    return 2 * _M["sum"](_M["log"](diag), -1) + _M["sum"](_M["log"](d), -1)


def _lowrank_mahalanobis(w: Tensor, d: Tensor, x: Tensor, cap: Tensor) -> Tensor:
    wt_dinv = _M["transpose"](w, -2, -1) / _M["unsqueeze"](d, -2)
    wt_dinv_x = DS._batch_mv(wt_dinv, x)
    term1 = _M["sum"](_M["pow"](x, 2) / d, -1)
    return term1 - DS._batch_mahalanobis(cap, wt_dinv_x)


def _trace_xxt(bmat: Tensor) -> Tensor:
    n, m = bmat.shape[-1], bmat.shape[-2]
    flat = _M["sum"](_M["pow"](_M["reshape"](bmat, -1, m * n), 2), -1)
    return _M["reshape"](flat, *tuple(bmat.shape[:-2]))


def _event_check(p: Any, q: Any, what: str) -> None:
    if p.event != q.event:
        raise GradcliError(
            f"KL-divergence between two {what} with                          different event "
            "shapes cannot be computed"
        ).mirror("ValueError")


def _solve_lower(a: Tensor, b: Tensor) -> Tensor:
    return N.LINALG["solve_triangular"](a, b, upper=False)


@_register(("LowRankMultivariateNormal", "LowRankMultivariateNormal"))
def _lowrank_lowrank(p: Any, q: Any) -> Tensor:
    _event_check(p, q, "Low Rank Multivariate Normals")
    term1 = _lowrank_logdet(q._w, q._d, q._capacitance_tril) - _lowrank_logdet(
        p._w, p._d, p._capacitance_tril
    )
    term3 = _lowrank_mahalanobis(q._w, q._d, q.loc - p.loc, q._capacitance_tril)
    qwt_qdinv = _M["transpose"](q._w, -2, -1) / _M["unsqueeze"](q._d, -2)
    a = _solve_lower(q._capacitance_tril, qwt_qdinv)
    term21 = _M["sum"](p._d / q._d, -1)
    term22 = _trace_xxt(p._w * _M["unsqueeze"](_M["rsqrt"](q._d), -1))
    term23 = _trace_xxt(a * _M["unsqueeze"](_M["sqrt"](p._d), -2))
    term24 = _trace_xxt(_T["matmul"](a, p._w))
    term2 = term21 + term22 - term23 - term24
    return 0.5 * (term1 + term2 + term3 - p.event[0])


@_register(("MultivariateNormal", "LowRankMultivariateNormal"))
def _mvn_lowrank(p: Any, q: Any) -> Tensor:
    _event_check(p, q, "(Low Rank) Multivariate Normals")
    pl = p._unbroadcasted_scale_tril
    term1 = _lowrank_logdet(q._w, q._d, q._capacitance_tril) - 2 * _M["sum"](
        _M["log"](_M["diagonal"](pl, 0, -2, -1)), -1
    )
    term3 = _lowrank_mahalanobis(q._w, q._d, q.loc - p.loc, q._capacitance_tril)
    qwt_qdinv = _M["transpose"](q._w, -2, -1) / _M["unsqueeze"](q._d, -2)
    a = _solve_lower(q._capacitance_tril, qwt_qdinv)
    term21 = _trace_xxt(pl * _M["unsqueeze"](_M["rsqrt"](q._d), -1))
    term22 = _trace_xxt(_T["matmul"](a, pl))
    return 0.5 * (term1 + (term21 - term22) + term3 - p.event[0])


@_register(("LowRankMultivariateNormal", "MultivariateNormal"))
def _lowrank_mvn(p: Any, q: Any) -> Tensor:
    _event_check(p, q, "(Low Rank) Multivariate Normals")
    ql = q._unbroadcasted_scale_tril
    term1 = 2 * _M["sum"](_M["log"](_M["diagonal"](ql, 0, -2, -1)), -1) - _lowrank_logdet(
        p._w, p._d, p._capacitance_tril
    )
    term3 = DS._batch_mahalanobis(ql, q.loc - p.loc)
    combined = tuple(np.broadcast_shapes(tuple(ql.shape[:-2]), tuple(p._w.shape[:-2])))
    n = p.event[0]
    q_tril = _M["expand"](ql, *(combined + (n, n)))
    p_factor = _M["expand"](p._w, *(combined + (n, p._w.shape[-1])))
    p_diag = _M["expand"](_T["diag_embed"](_M["sqrt"](p._d)), *(combined + (n, n)))
    term21 = _trace_xxt(_solve_lower(q_tril, p_factor))
    term22 = _trace_xxt(_solve_lower(q_tril, p_diag))
    return 0.5 * (term1 + (term21 + term22) + term3 - p.event[0])
