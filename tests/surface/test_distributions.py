"""torch.distributions: gradients of log_prob / entropy / cdf / rsample / kl_divergence against
central finite differences in float64 (the printed values and draws against PyTorch are in the
tutorial corpus: 576, 577)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import gradcli
from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse
from gradcli.surface import dist_extra, dist_kl  # noqa: F401  (dist_extra: its classes)
from gradcli.surface import distributions as DS

T = gradcli.Tensor


def _fd(f: Callable[[np.ndarray], float], x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = h
        g[i] = (f(x + e) - f(x - e)) / (2 * h)
    return g


def _check(f: Callable[[T], T], x: np.ndarray) -> None:
    leaf = T(x, requires_grad=True)
    f(leaf).sum().backward()
    want = _fd(lambda v: float(f(T(v)).sum().item()), x)
    np.testing.assert_allclose(leaf.grad.numpy(), want, rtol=1e-6, atol=1e-8)


V = T(np.array([0.3, -1.2, 2.5]))
LOC = np.array([0.1, -0.5, 1.0])
SCALE = np.array([0.7, 1.3, 2.0])


@pytest.mark.parametrize(
    "name, f, x",
    [
        ("normal log_prob / loc", lambda p: DS.Normal(p, T(SCALE)).log_prob(V), LOC),
        ("normal log_prob / scale", lambda p: DS.Normal(T(LOC), p).log_prob(V), SCALE),
        ("normal entropy", lambda p: DS.Normal(T(LOC), p).entropy(), SCALE),
        ("normal cdf / loc", lambda p: DS.Normal(p, T(SCALE)).cdf(V), LOC),
        ("normal cdf / scale", lambda p: DS.Normal(T(LOC), p).cdf(V), SCALE),
        (
            "kl normal / q scale",
            lambda p: dist_kl.kl_divergence(DS.Normal(T(LOC), T(SCALE)), DS.Normal(T(LOC * 2), p)),
            SCALE[::-1].copy(),
        ),
        (
            "kl normal / p loc",
            lambda p: dist_kl.kl_divergence(
                DS.Normal(p, T(SCALE)), DS.Normal(T(LOC * 2), T(SCALE))
            ),
            LOC,
        ),
        (
            "categorical log_prob",
            lambda p: DS.Categorical(logits=p).log_prob(T(np.array([0, 2]))),
            np.array([[0.2, -1.0, 0.5], [1.5, 0.0, -0.3]]),
        ),
        (
            "categorical probs log_prob",
            lambda p: DS.Categorical(probs=p).log_prob(T(np.array([1, 2]))),
            np.array([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]]),
        ),
        (
            "categorical entropy",
            lambda p: DS.Categorical(logits=p).entropy(),
            np.array([[0.2, -1.0, 0.5], [1.5, 0.0, -0.3]]),
        ),
        (
            "kl categorical",
            lambda p: dist_kl.kl_divergence(
                DS.Categorical(logits=p), DS.Categorical(logits=T(np.array([0.0, 1.0, -1.0])))
            ),
            np.array([0.2, -1.0, 0.5]),
        ),
        (
            "bernoulli log_prob / logits",
            lambda p: DS.Bernoulli(logits=p).log_prob(T(np.array([1.0, 0.0, 1.0]))),
            LOC,
        ),
        (
            "bernoulli log_prob / probs",
            lambda p: DS.Bernoulli(probs=p).log_prob(T(np.array([1.0, 0.0, 1.0]))),
            np.array([0.2, 0.5, 0.9]),
        ),
        ("bernoulli entropy", lambda p: DS.Bernoulli(logits=p).entropy(), LOC),
        (
            "kl bernoulli",
            lambda p: dist_kl.kl_divergence(
                DS.Bernoulli(logits=p), DS.Bernoulli(logits=T(np.array([0.5, 0.5, -2.0])))
            ),
            LOC,
        ),
        ("uniform log_prob / high", lambda p: DS.Uniform(T(LOC - 3), p).log_prob(V), LOC + 4),
        ("uniform entropy / low", lambda p: DS.Uniform(p, T(LOC + 4)).entropy(), LOC),
    ],
)
def test_gradients_against_finite_differences(name: str, f: Callable, x: np.ndarray) -> None:
    _check(f, x)


def test_rsample_is_differentiable_and_sample_is_not() -> None:
    def draw(loc: T, scale: T) -> T:
        gradcli.surface.sampling.manual_seed(5)
        return DS.Normal(loc, scale).rsample((4,))

    _check(lambda p: draw(p, T(SCALE)), LOC)
    _check(lambda p: draw(T(LOC), p), SCALE)
    _check(
        lambda p: (gradcli.surface.sampling.manual_seed(2), DS.Uniform(p, p + 3).rsample())[1], LOC
    )
    s = DS.Normal(T(LOC, requires_grad=True), T(SCALE)).sample()
    assert not s.requires_grad and s.node is None


def _run(text: str) -> str:
    return "".join(parse("import torch\n" + text, "t.py").run(dtype="float32").output)


@pytest.mark.parametrize(
    "text, match",
    [
        ("torch.distributions.Normal(0.0, -1.0)", "constraint GreaterThan"),
        ("torch.distributions.Categorical(torch.tensor(0.5))", "at least one-dimensional"),
        ("torch.distributions.Categorical()", "Either `probs` or `logits`"),
        ("torch.distributions.Bernoulli(1.5)", r"Interval\(lower_bound=0.0"),
        ("torch.distributions.Uniform(2.0, 1.0)", "LessThan"),
        ("torch.distributions.Normal(0.0, 1.0).log_prob(torch.tensor(float('nan')))", "Real()"),
        ("torch.distributions.Bernoulli(0.5).log_prob(torch.tensor(0.5))", "Boolean()"),
        ("torch.distributions.Normal(0.0, 1.0).sample((10**9,))", "over the limit"),
    ],
)
def test_pytorchs_checks(text: str, match: str) -> None:
    with pytest.raises(GradcliError, match=match):
        _run(text + "\n")


def test_the_repr_shows_a_lazy_parameter_once_computed() -> None:
    out = _run(
        "c = torch.distributions.Categorical(logits=torch.zeros(3))\nprint(c)\n"
        "p = c.probs\nprint(c)\n"
    )
    assert out == (
        "Categorical(logits: torch.Size([3]))\n"
        "Categorical(probs: torch.Size([3]), logits: torch.Size([3]))\n"
    )


def test_values_against_closed_forms() -> None:
    """The formulas themselves (finite differences only check gradients against values)."""
    import math

    v, mu, s = V.numpy(), LOC, SCALE
    close = lambda got, want: np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)  # noqa: E731
    n = DS.Normal(T(mu), T(s))
    close(n.log_prob(V), -((v - mu) ** 2) / (2 * s**2) - np.log(s * math.sqrt(2 * math.pi)))
    close(n.entropy(), 0.5 * np.log(2 * math.pi * math.e * s**2))
    close(
        n.cdf(V), [0.5 * (1 + math.erf((a - b) / (c * math.sqrt(2)))) for a, b, c in zip(v, mu, s)]
    )
    q = DS.Normal(T(mu * 2), T(s[::-1].copy()))
    s2 = s[::-1]
    close(
        dist_kl.kl_divergence(n, q),
        np.log(s2 / s) + (s**2 + (mu - 2 * mu) ** 2) / (2 * s2**2) - 0.5,
    )
    logits = np.array([0.2, -1.0, 0.5])
    logp = logits - np.log(np.exp(logits).sum())
    c = DS.Categorical(logits=T(logits))
    close(c.log_prob(T(np.array(2))), logp[2])
    close(c.entropy(), -(np.exp(logp) * logp).sum())
    p = np.array([0.2, 0.5, 0.9])
    b = DS.Bernoulli(probs=T(p))
    x = np.array([1.0, 0.0, 1.0])
    np.testing.assert_allclose(
        b.log_prob(T(x)).numpy(), x * np.log(p) + (1 - x) * np.log(1 - p), rtol=1e-9
    )
    u = DS.Uniform(T(mu), T(mu + s))
    close(u.log_prob(T(mu + s / 2)), -np.log(s))
    close(u.entropy(), np.log(s))


# --- the distributions added after the first four -------------------------------------------

COV = np.array([[1.0, 0.2, 0.1], [0.2, 2.0, 0.3], [0.1, 0.3, 1.5]])
TRIL = np.linalg.cholesky(COV)
X3 = T(np.array([[0.3, -1.2, 2.5], [1.0, 0.0, -0.5]]))
POS = T(np.array([0.3, 1.7, 2.2]))


def _sym(p: T) -> T:
    return (p + p.t()) * 0.5  # finite differences move both halves; PyTorch's rule is symmetric


@pytest.mark.parametrize(
    "name, f, x",
    [
        ("mvn log_prob / loc", lambda p: DS.MultivariateNormal(p, T(COV)).log_prob(X3), LOC),
        ("mvn log_prob / cov", lambda p: DS.MultivariateNormal(T(LOC), _sym(p)).log_prob(X3), COV),
        (
            "mvn log_prob / scale_tril",
            lambda p: DS.MultivariateNormal(T(LOC), scale_tril=p, validate_args=False).log_prob(X3),
            TRIL,
        ),
        (
            "mvn log_prob / precision",
            lambda p: DS.MultivariateNormal(T(LOC), precision_matrix=_sym(p)).log_prob(X3),
            np.linalg.inv(COV),
        ),
        ("mvn entropy / cov", lambda p: DS.MultivariateNormal(T(LOC), _sym(p)).entropy(), COV),
        (
            "mvn rsample / scale_tril",
            lambda p: (
                gradcli.surface.sampling.manual_seed(3),
                DS.MultivariateNormal(T(LOC), scale_tril=p, validate_args=False).rsample((2,)),
            )[1],
            TRIL,
        ),
        (
            "kl mvn / q cov",
            lambda p: dist_kl.kl_divergence(
                DS.MultivariateNormal(T(LOC), T(COV)), DS.MultivariateNormal(T(-LOC), _sym(p))
            ),
            COV + np.eye(3),
        ),
        (
            "independent normal log_prob",
            lambda p: DS.Independent(DS.Normal(p, T(SCALE)), 1).log_prob(X3),
            LOC,
        ),
        ("exponential log_prob", lambda p: DS.Exponential(p).log_prob(POS), SCALE),
        ("exponential entropy", lambda p: DS.Exponential(p).entropy(), SCALE),
        ("exponential cdf", lambda p: DS.Exponential(p).cdf(POS), SCALE),
        (
            "kl exponential",
            lambda p: dist_kl.kl_divergence(
                DS.Exponential(p), DS.Exponential(T(SCALE[::-1].copy()))
            ),
            SCALE,
        ),
        ("laplace log_prob / scale", lambda p: DS.Laplace(T(LOC), p).log_prob(V), SCALE),
        ("laplace log_prob / loc", lambda p: DS.Laplace(p, T(SCALE)).log_prob(V), LOC),
        ("laplace cdf", lambda p: DS.Laplace(T(LOC), p).cdf(V), SCALE),
        ("laplace icdf", lambda p: DS.Laplace(T(LOC), p).icdf(T(np.array([0.2, 0.5, 0.9]))), SCALE),
        (
            "kl laplace",
            lambda p: dist_kl.kl_divergence(DS.Laplace(T(LOC), p), DS.Laplace(T(-LOC), T(SCALE))),
            SCALE,
        ),
        (
            "kl normal || laplace / p loc",
            lambda p: dist_kl.kl_divergence(DS.Normal(p, T(SCALE)), DS.Laplace(T(-LOC), T(SCALE))),
            LOC,
        ),
        (
            "kl laplace || normal / p scale",
            lambda p: dist_kl.kl_divergence(DS.Laplace(T(LOC), p), DS.Normal(T(-LOC), T(SCALE))),
            SCALE,
        ),
        (
            "kl uniform || normal / p high",
            lambda p: dist_kl.kl_divergence(
                DS.Uniform(T(LOC), p + 2), DS.Normal(T(-LOC), T(SCALE))
            ),
            SCALE,
        ),
        (
            "kl exponential || gamma / q rate",
            lambda p: dist_kl.kl_divergence(DS.Exponential(T(SCALE)), DS.Gamma(T(SCALE + 1), p)),
            SCALE,
        ),
        (
            "kl gamma || normal / p concentration",
            lambda p: dist_kl.kl_divergence(DS.Gamma(p, T(SCALE)), DS.Normal(T(LOC), T(SCALE))),
            SCALE + 0.5,
        ),
        (
            "kl beta || uniform / p concentration0",
            lambda p: dist_kl.kl_divergence(DS.Beta(T(SCALE), p), DS.Uniform(0.0, 1.0)),
            SCALE,
        ),
        ("halfcauchy log_prob", lambda p: DS.CLASSES["HalfCauchy"](p).log_prob(POS), SCALE),
        (
            "pareto log_prob / alpha",
            lambda p: DS.CLASSES["Pareto"](T(SCALE / 2), p).log_prob(POS + 1),
            SCALE,
        ),
        (
            "weibull log_prob / concentration",
            lambda p: DS.CLASSES["Weibull"](T(SCALE), p).log_prob(POS),
            SCALE,
        ),
        (
            "weibull rsample / scale",
            lambda p: (
                gradcli.surface.sampling.manual_seed(4),
                DS.CLASSES["Weibull"](p, T(SCALE + 1)).rsample((2,)),
            )[1],
            SCALE,
        ),
        (
            "kumaraswamy log_prob / concentration0",
            lambda p: DS.CLASSES["Kumaraswamy"](T(SCALE + 1), p).log_prob(
                T(np.array([0.2, 0.5, 0.9]))
            ),
            SCALE,
        ),
        (
            "kl pareto || gamma / p alpha",
            lambda p: dist_kl.kl_divergence(
                DS.CLASSES["Pareto"](T(SCALE), p + 1.5), DS.Gamma(T(SCALE + 1), T(SCALE))
            ),
            SCALE,
        ),
        (
            "continuous bernoulli log_prob / logits",
            lambda p: DS.CLASSES["ContinuousBernoulli"](logits=p).log_prob(
                T(np.array([0.2, 0.5, 0.9]))
            ),
            np.array([-2.0, 0.001, 1.5]),
        ),
        (
            "continuous bernoulli rsample / probs",
            lambda p: (
                gradcli.surface.sampling.manual_seed(2),
                DS.CLASSES["ContinuousBernoulli"](p).rsample((2,)),
            )[1],
            np.array([0.1, 0.3, 0.8]),
        ),
        (
            "fisher-snedecor log_prob / df1",
            lambda p: DS.CLASSES["FisherSnedecor"](p, T(SCALE + 3)).log_prob(POS),
            SCALE + 1,
        ),
        (
            "relaxed one-hot rsample / logits",
            lambda p: (
                (
                    gradcli.surface.sampling.manual_seed(6),
                    DS.CLASSES["RelaxedOneHotCategorical"](T(np.array(0.7)), logits=p).rsample(
                        (2,)
                    ),
                )[1]
                * T(np.array([1.0, -2.0, 0.5]))
            ),
            LOC,
        ),
        (
            "logistic normal log_prob / loc",
            lambda p: DS.CLASSES["LogisticNormal"](p, T(SCALE)).log_prob(
                T(np.array([0.1, 0.2, 0.3, 0.4]))
            ),
            LOC,
        ),
        (
            "von mises log_prob / concentration (both Bessel branches)",
            lambda p: DS.CLASSES["VonMises"](T(LOC), p).log_prob(V),
            np.array([0.5, 3.0, 7.5]),
        ),
        (
            "inverse gamma log_prob / concentration",
            lambda p: DS.CLASSES["InverseGamma"](p, T(SCALE)).log_prob(POS),
            SCALE + 1,
        ),
        (
            "lkj cholesky log_prob / concentration",
            lambda p: DS.CLASSES["LKJCholesky"](3, p).log_prob(
                T(np.array([[1.0, 0.0, 0.0], [0.6, 0.8, 0.0], [0.0, 0.6, 0.8]]))
            ),
            SCALE,
        ),
        (
            "wishart log_prob / df",
            lambda p: DS.CLASSES["Wishart"](
                p, covariance_matrix=T(np.array([[1.0, 0.3], [0.3, 0.5]]))
            ).log_prob(T(np.array([[2.0, -0.5], [-0.5, 1.5]]))),
            SCALE + 2,
        ),
        (
            "wishart entropy / scale_tril",
            lambda p: DS.CLASSES["Wishart"](
                T(np.array(4.0)), scale_tril=p * T(np.array([[1.0, 0.0], [1.0, 1.0]]))
            ).entropy(),
            np.array([[1.2, 0.0], [0.4, 0.7]]),
        ),
        (
            "kl binomial || binomial / p probs",
            lambda p: dist_kl.kl_divergence(
                DS.Binomial(10, p), DS.Binomial(10, T(np.array([0.3, 0.5, 0.4])))
            ),
            np.array([0.2, 0.6, 0.9]),
        ),
        (
            "kl low-rank || mvn / p cov_factor",
            lambda p: (
                dist_kl.kl_divergence(
                    DS.LowRankMultivariateNormal(T(LOC), p, T(SCALE)),
                    DS.MultivariateNormal(T(-LOC), T(np.diag(SCALE + 1))),
                )
                + dist_kl.kl_divergence(
                    DS.MultivariateNormal(T(-LOC), T(np.diag(SCALE + 1))),
                    DS.LowRankMultivariateNormal(T(LOC), p, T(SCALE)),
                )
            ),
            np.array([[0.5, 0.1], [0.2, -0.3], [0.0, 0.4]]),
        ),
        ("poisson log_prob", lambda p: DS.Poisson(p).log_prob(T(np.array([0.0, 2.0, 5.0]))), SCALE),
        ("lognormal log_prob / loc", lambda p: DS.LogNormal(p, T(SCALE)).log_prob(POS), LOC),
        ("lognormal log_prob / scale", lambda p: DS.LogNormal(T(LOC), p).log_prob(POS), SCALE),
        ("lognormal mean", lambda p: DS.LogNormal(T(LOC), p).mean, SCALE),
        ("gamma log_prob / rate", lambda p: DS.Gamma(T(SCALE + 1), p).log_prob(POS), SCALE),
        ("cauchy log_prob / scale", lambda p: DS.Cauchy(T(LOC), p).log_prob(V), SCALE),
        (
            "studentT log_prob / scale",
            lambda p: DS.StudentT(T(SCALE + 2), T(LOC), p).log_prob(V),
            SCALE,
        ),
        ("studentT log_prob / loc", lambda p: DS.StudentT(T(SCALE), p).log_prob(V), LOC),
        ("studentT variance / scale", lambda p: DS.StudentT(T(SCALE + 2), 0.0, p).variance, SCALE),
        ("chi2 log_prob / value", lambda p: DS.Chi2(T(SCALE + 1)).log_prob(p), SCALE),
        ("cauchy cdf / loc", lambda p: DS.Cauchy(p, T(SCALE)).cdf(V), LOC),
        ("cauchy icdf", lambda p: DS.Cauchy(T(LOC), p).icdf(T(np.array([0.2, 0.5, 0.9]))), SCALE),
        ("halfnormal log_prob", lambda p: DS.HalfNormal(p).log_prob(POS), SCALE),
        ("halfnormal cdf", lambda p: DS.HalfNormal(p).cdf(POS), SCALE),
        ("halfnormal icdf", lambda p: DS.HalfNormal(T(SCALE)).icdf(p), np.array([0.2, 0.5, 0.9])),
        (
            "lognormal icdf",
            lambda p: DS.LogNormal(T(LOC), p).icdf(T(np.array([0.2, 0.6, 0.9]))),
            SCALE,
        ),
        (
            "geometric log_prob",
            lambda p: DS.Geometric(p).log_prob(T(np.array([0.0, 2.0, 5.0]))),
            np.array([0.2, 0.5, 0.9]),
        ),
        ("geometric entropy / logits", lambda p: DS.Geometric(logits=p).entropy(), LOC),
        (
            "onehot log_prob",
            lambda p: DS.OneHotCategorical(logits=p).log_prob(T(np.eye(3)[[2, 0]])),
            np.array([[0.2, -1.0, 0.5], [1.5, 0.0, -0.3]]),
        ),
    ],
)
def test_more_gradients_against_finite_differences(name: str, f: Callable, x: np.ndarray) -> None:
    _check(f, x)


def test_more_values_against_closed_forms() -> None:
    import math

    close = lambda got, want: np.testing.assert_allclose(got.numpy(), want, rtol=1e-11)  # noqa: E731
    x = X3.numpy()
    m = DS.MultivariateNormal(T(LOC), T(COV))
    d = x - LOC
    maha = np.einsum("bi,ij,bj->b", d, np.linalg.inv(COV), d)
    logdet = np.linalg.slogdet(COV)[1]
    close(m.log_prob(X3), -0.5 * (3 * math.log(2 * math.pi) + logdet + maha))
    close(m.entropy(), 0.5 * (3 * (1 + math.log(2 * math.pi)) + logdet))
    close(
        DS.MultivariateNormal(T(LOC), precision_matrix=T(np.linalg.inv(COV))).log_prob(X3),
        m.log_prob(X3).numpy(),
    )
    close(m.variance, np.diag(COV))
    q = DS.MultivariateNormal(T(-LOC), T(COV + np.eye(3)))
    s1, s2 = COV, COV + np.eye(3)
    i2 = np.linalg.inv(s2)
    dm = -2 * LOC
    want = 0.5 * (np.trace(i2 @ s1) + dm @ i2 @ dm - 3 + np.linalg.slogdet(s2)[1] - logdet)
    close(dist_kl.kl_divergence(m, q), want)
    v = POS.numpy()
    close(DS.Exponential(T(SCALE)).log_prob(POS), np.log(SCALE) - SCALE * v)
    close(DS.Laplace(T(LOC), T(SCALE)).log_prob(POS), -np.log(2 * SCALE) - np.abs(v - LOC) / SCALE)
    close(
        DS.LogNormal(T(LOC), T(SCALE)).log_prob(POS),
        -np.log(v * SCALE * math.sqrt(2 * math.pi)) - (np.log(v) - LOC) ** 2 / (2 * SCALE**2),
    )
    k = np.array([0.0, 2.0, 5.0])
    close(
        DS.Poisson(T(SCALE)).log_prob(T(k)),
        k * np.log(SCALE) - SCALE - np.array([math.lgamma(a + 1) for a in k]),
    )
    a, b = SCALE + 1, SCALE
    lg = np.vectorize(math.lgamma)
    close(DS.Gamma(T(a), T(b)).log_prob(POS), a * np.log(b) + (a - 1) * np.log(v) - b * v - lg(a))
    u = np.array([0.2, 0.5, 0.9])
    close(
        DS.Beta(T(a), T(b)).log_prob(T(u)),
        (a - 1) * np.log(u) + (b - 1) * np.log(1 - u) - (lg(a) + lg(b) - lg(a + b)),
    )
    # psi: psi(1) = -gamma, psi(1/2) = -gamma - 2 log 2, psi(n + 1) = H_n - gamma
    euler = 0.57721566490153286061
    psi = DS._digamma_values(np.array([1.0, 0.5, 11.0, 25.5, -0.5]))
    want_psi = [-euler, -euler - 2 * math.log(2), sum(1 / j for j in range(1, 11)) - euler]
    np.testing.assert_allclose(psi[:3], want_psi, rtol=1e-14)
    np.testing.assert_allclose(psi[4], psi[1] + 2.0, rtol=1e-13)  # psi(x + 1) = psi(x) + 1/x
    close(
        DS.Cauchy(T(LOC), T(SCALE)).log_prob(V),
        -np.log(np.pi * SCALE * (1 + ((V.numpy() - LOC) / SCALE) ** 2)),
    )
    close(
        DS.HalfNormal(T(SCALE)).log_prob(POS),
        np.log(2) - v**2 / (2 * SCALE**2) - np.log(SCALE * math.sqrt(2 * math.pi)),
    )
    gp = np.array([0.2, 0.5, 0.9])
    close(DS.Geometric(T(gp)).log_prob(T(k)), k * np.log1p(-gp) + np.log(gp))
    close(DS.Geometric(T(gp)).entropy(), -((1 - gp) * np.log1p(-gp) + gp * np.log(gp)) / gp)
    nu = SCALE + 2
    close(
        DS.StudentT(T(nu), T(LOC), T(SCALE)).log_prob(V),
        lg((nu + 1) / 2)
        - lg(nu / 2)
        - 0.5 * np.log(nu * math.pi * SCALE**2)
        - (nu + 1) / 2 * np.log1p(((V.numpy() - LOC) / SCALE) ** 2 / nu),
    )
    close(DS.StudentT(T(nu), T(LOC), T(SCALE)).variance, SCALE**2 * nu / (nu - 2))
    close(
        DS.Chi2(T(nu)).log_prob(POS), DS.Gamma(T(nu / 2), T(np.full(3, 0.5))).log_prob(POS).numpy()
    )
    # the entropy of Gamma(1, rate) is Exponential's
    close(DS.Gamma(T(np.ones(3)), T(SCALE)).entropy(), DS.Exponential(T(SCALE)).entropy().numpy())


@pytest.mark.parametrize(
    "text, match",
    [
        ("D.MultivariateNormal(torch.zeros(2), torch.zeros(2, 2))", "PositiveDefinite"),
        ("D.MultivariateNormal(torch.zeros(2), torch.tensor([[1., 2.], [0., 1.]]))", "Positive"),
        ("D.MultivariateNormal(torch.zeros(2), scale_tril=-torch.eye(2))", "LowerCholesky"),
        ("D.MultivariateNormal(torch.zeros(2))", "Exactly one of"),
        ("D.MultivariateNormal(torch.tensor(0.), torch.eye(1))", "at least one-dimensional"),
        ("D.MultivariateNormal(torch.zeros(2), torch.ones(2))", "at least two-dimensional"),
        (
            "D.MultivariateNormal(torch.zeros(2), torch.eye(2)).log_prob(torch.zeros(3))",
            "right-most",
        ),
        ("D.Independent(D.Normal(torch.zeros(3), 1.0), 2)", "reinterpreted_batch_ndims <="),
        ("D.Exponential(-1.0)", "GreaterThan"),
        ("D.Exponential(1.0).log_prob(torch.tensor(-1.0))", "GreaterThanEq"),
        ("D.Poisson(1.0).log_prob(torch.tensor(0.5))", "IntegerGreaterThan"),
        ("D.LogNormal(0.0, 1.0).log_prob(torch.tensor(-1.0))", "LogNormal()"),
        ("D.Beta(1.0, 0.0)", "IndependentConstraint"),
        ("D.Dirichlet(torch.ones(2)).log_prob(torch.tensor([0.5, 0.6]))", "Simplex"),
        ("D.Dirichlet(torch.ones(3, requires_grad=True)).rsample((10**5,))", "gradcli allows"),
        ("D.Gamma(1.0, 1.0).sample((10**7,))", "time limit"),
        ("D.Exponential(1.0).sample((10**9,))", "over the limit"),
        ("D.Geometric(torch.tensor([0.0, 0.5]))", "to be positive but found invalid values"),
        ("D.Geometric(torch.tensor([1.5, 0.5]))", "Interval"),
        ("D.HalfNormal(1.0).log_prob(torch.tensor(-1.0))", "GreaterThanEq"),
        ("D.OneHotCategorical(torch.ones(2)).log_prob(torch.ones(2))", "OneHot()"),
        ("D.Cauchy(0.0, 0.0)", "GreaterThan"),
        ("D.Chi2(torch.tensor([-1.0]))", "Expected parameter df"),
        ("D.StudentT(0.0)", "Expected parameter df"),
        ("D.StudentT(2.0).sample((10**7,))", "time limit"),
        ("D.MultivariateNormal(torch.zeros(2), torch.eye(2)).rsample((10**5, 10**5))", "limit"),
    ],
)
def test_more_checks(text: str, match: str) -> None:
    with pytest.raises(GradcliError, match=match):
        _run("import torch.distributions as D\n" + text + "\n")


def test_reprs_and_shapes() -> None:
    out = _run(
        "import torch.distributions as D\n"
        "m = D.MultivariateNormal(torch.zeros(4, 1, 2), scale_tril=torch.eye(2).expand(2, 2, 2))\n"
        "print(m, m.batch_shape, m.event_shape)\n"
        "c = m.covariance_matrix\nprint(m)\n"
        "i = D.Independent(D.Normal(torch.zeros(2, 3), 1.0), 1)\n"
        "print(i, i.batch_shape, i.event_shape, D.Beta(1.0, 2.0), D.LogNormal(0.0, 1.0))\n"
    )
    assert out == (
        "MultivariateNormal(loc: torch.Size([4, 2, 2]), scale_tril: torch.Size([4, 2, 2, 2])) "
        "torch.Size([4, 2]) torch.Size([2])\n"
        "MultivariateNormal(loc: torch.Size([4, 2, 2]), covariance_matrix: torch.Size([4, 2, 2, "
        "2]), scale_tril: torch.Size([4, 2, 2, 2]))\n"
        "Independent(Normal(loc: torch.Size([2, 3]), scale: torch.Size([2, 3])), 1) "
        "torch.Size([2]) torch.Size([3]) Beta() LogNormal()\n"
    )


def test_gamma_draws_follow_the_generator() -> None:
    """Gamma, Dirichlet and Beta draws are PyTorch's (corpus 666 checks the digits): the same
    seed gives the same draws, the draws move the generator on, Dirichlet's rows sum to 1,
    and a rate that requires grad gets d(x/rate)/d rate = -x/rate."""
    text = (
        "import torch.distributions as D\n"
        "torch.manual_seed(4)\n"
        "a = D.Gamma(torch.tensor([0.5, 3.0]), 2.0).sample((3,))\n"
        "b = D.Gamma(torch.tensor([0.5, 3.0]), 2.0).sample((3,))\n"
        "torch.manual_seed(4)\n"
        "c = D.Gamma(torch.tensor([0.5, 3.0]), 2.0).sample((3,))\n"
        "print(bool((a == c).all()), bool((a == b).all()), bool((a > 0).all()))\n"
        "s = D.Dirichlet(torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64)).sample((5,))\n"
        "print(bool(((s.sum(-1) - 1).abs() < 1e-12).all()), bool((s > 0).all()))\n"
        "r = torch.tensor(2.0, requires_grad=True)\n"
        "x = D.Gamma(3.0, r).rsample()\n"
        "x.backward()\n"
        "print(bool((r.grad - (-x / r)).abs() < 1e-6))\n"
    )
    assert _run(text) == "True False True\nTrue True\nTrue\n"


# -- MixtureSameFamily (explore27: a toy diffusion's Gaussian mixture) ---------------------


def _mixture(logits: T, loc: T) -> DS.MixtureSameFamily:
    return DS.MixtureSameFamily(
        DS.Categorical(logits=logits), DS.Normal(loc, T(np.array([0.5, 1.0, 0.7])))
    )


@pytest.mark.parametrize("which", ["logits", "loc", "value"])
def test_mixture_log_prob_gradients_against_finite_differences(which: str) -> None:
    logits = np.array([0.2, -0.4, 0.9])
    loc = np.array([-2.0, 0.0, 3.0])
    value = np.array([0.1, -1.0, 2.5, 4.0])
    fs = {
        "logits": (lambda t: _mixture(t, T(loc)).log_prob(T(value)), logits),
        "loc": (lambda t: _mixture(T(logits), t).log_prob(T(value)), loc),
        "value": (lambda t: _mixture(T(logits), T(loc)).log_prob(t), value),
    }
    f, x = fs[which]
    _check(f, x)


def test_mixture_log_prob_mean_and_variance_against_closed_forms() -> None:
    logits = np.array([0.2, -0.4, 0.9])
    w = np.exp(logits) / np.exp(logits).sum()
    loc = np.array([-2.0, 0.0, 3.0])
    sd = np.array([0.5, 1.0, 0.7])
    m = _mixture(T(logits), T(loc))
    x = np.array([0.1, -1.0, 2.5])
    dens = (w * np.exp(-((x[:, None] - loc) ** 2) / (2 * sd**2)) / (sd * np.sqrt(2 * np.pi))).sum(1)
    np.testing.assert_allclose(m.log_prob(T(x)).numpy(), np.log(dens), rtol=1e-12)
    mean = (w * loc).sum()
    np.testing.assert_allclose(float(m.mean.item()), mean, rtol=1e-12)
    var = (w * (sd**2 + loc**2)).sum() - mean**2
    np.testing.assert_allclose(float(m.variance.item()), var, rtol=1e-12)


def test_mixture_samples_come_from_the_drawn_component() -> None:
    # components far apart: each draw is within 5 sd of one component's mean
    m = DS.MixtureSameFamily(
        DS.Categorical(probs=T(np.array([0.5, 0.5]))),
        DS.Normal(T(np.array([-100.0, 100.0])), T(np.array([0.1, 0.1]))),
    )
    s = m.sample((200,)).numpy()
    assert s.shape == (200,)
    assert np.all(np.minimum(np.abs(s + 100), np.abs(s - 100)) < 0.5)
    assert 40 < int((s > 0).sum()) < 160


@pytest.mark.parametrize(
    ("text", "match"),
    [
        (
            "D.MixtureSameFamily(D.Normal(torch.zeros(2), torch.ones(2)), "
            "D.Normal(torch.zeros(2), torch.ones(2)))",
            "needs to be an instance of torch.distributions.Categorical",
        ),
        (
            "D.MixtureSameFamily(D.Categorical(torch.ones(2)), "
            "D.Normal(torch.zeros(3), torch.ones(3)))",
            r"does not equal `component_distribution.batch_shape\[-1\]` \(3\)",
        ),
    ],
)
def test_mixture_checks_as_pytorchs(text: str, match: str) -> None:
    with pytest.raises(GradcliError, match=match):
        parse("import torch\nimport torch.distributions as D\n" + text, "t.py").run()


def test_isinstance_with_the_classes_is_pytorchs() -> None:
    """isinstance(d, D.X) for every pair of torch.distributions' classes gradcli has, as
    PyTorch 2.13 answers it (recorded: Chi2 is a Gamma; LogNormal, HalfNormal,
    RelaxedBernoulli and Gumbel are TransformedDistributions; no other class is another's),
    and every one is a D.Distribution; the abstract base itself is not made."""
    import gradcli.lang.builtins as B
    from gradcli.surface import distributions as DS
    from tests.helpers.programs import error, out

    td = {"TransformedDistribution"}
    pytorch_subclasses = {"Chi2": {"Gamma"}, "LogNormal": td, "HalfNormal": td}
    pytorch_subclasses["RelaxedBernoulli"] = td
    pytorch_subclasses["Gumbel"] = td
    for name in (
        "HalfCauchy",
        "Pareto",
        "Weibull",
        "Kumaraswamy",
        "RelaxedOneHotCategorical",
        "LogisticNormal",
        "InverseGamma",
    ):
        pytorch_subclasses[name] = td
    pytorch_subclasses["OneHotCategoricalStraightThrough"] = {"OneHotCategorical"}
    for a in DS.CLASSES:
        for b in DS.CLASSES:
            want = a == b or b in pytorch_subclasses.get(a, set())
            assert issubclass(DS.CLASSES[a], B._distribution_class(DS.CLASSES[b])) == want, (a, b)
    head = "import torch\nimport torch.distributions as D\n"
    d = "d = D.Chi2(torch.tensor(3.0))\n"
    shown = "print(isinstance(d, D.Distribution), isinstance(d, D.Gamma), isinstance(d, D.Normal))"
    assert out(head + d + shown) == "True True False\n"
    ln = "d = D.LogNormal(0.0, 1.0)\nprint(isinstance(d, D.TransformedDistribution))\n"
    assert out(head + ln) == "True\n"
    assert "not supported" in error(head + "D.Distribution()").message


@pytest.mark.parametrize(
    "make",
    [
        lambda: DS.Normal(T(LOC), T(SCALE)),
        lambda: DS.Laplace(T(LOC), T(SCALE)),
        lambda: DS.Exponential(T(SCALE)),
        lambda: DS.Categorical(logits=T(LOC)),
    ],
)
def test_a_number_value_is_refused_while_validating(make: Callable) -> None:
    d = make()
    for value in (1.0, 2, True, [1.0]):
        with pytest.raises(GradcliError, match="value argument to log_prob must be a Tensor"):
            d.log_prob(value)


def test_validate_args_false_takes_a_number_as_a_tensor() -> None:
    for loose in (
        DS.Normal(T(LOC), T(SCALE), validate_args=False),
        DS.Normal(T(LOC), T(SCALE), False),
    ):
        assert not loose.validating
        want = DS.Normal(T(LOC), T(SCALE)).log_prob(T(np.array(0.5))).numpy()
        np.testing.assert_array_equal(loose.log_prob(0.5).numpy(), want)
    assert DS.Normal(T(LOC), T(SCALE), validate_args=True).validating
    assert DS.Normal(T(LOC), T(SCALE)).validating


def test_gamma_takes_a_number_or_a_list_as_pytorchs_as_tensor() -> None:
    g = DS.Gamma(T(np.array([1.0, 2.0])), T(np.array([2.0, 0.5])))
    want = g.log_prob(T(np.array(1.0))).numpy()
    for value in (1.0, 1, [1.0]):
        np.testing.assert_array_equal(g.log_prob(value).numpy(), want)


def test_cdf_where_pytorch_has_none_is_its_catchable_not_implemented() -> None:
    out = _run(
        "d = torch.distributions.Categorical(logits=torch.tensor([0.0, 1.0]))\n"
        "try:\n    d.cdf(torch.tensor(1))\nexcept NotImplementedError as e:\n"
        "    print('caught', repr(str(e)))\n"
    )
    assert out == "caught ''\n"
    # so is the icdf of Gamma (PyTorch's Distribution.icdf), and HalfNormal has one
    out = _run(
        "d = torch.distributions.Gamma(torch.tensor(2.0), torch.tensor(1.0))\n"
        "try:\n    d.icdf(torch.tensor(0.5))\nexcept NotImplementedError:\n    print(1)\n"
        "print(torch.distributions.HalfNormal(torch.tensor(2.0)).icdf(torch.tensor(0.5)))\n"
    )
    assert out == "1\ntensor(1.3490)\n"


def test_dirichlet_and_beta_modes_as_pytorchs() -> None:
    """The mode of a Dirichlet is (c - 1)+ normalised, except where every concentration is
    below 1: a corner of the simplex, PyTorch's one-hot of the argmax of the normalised vector,
    whose entries are all 0/0 there (NaN: argmax takes the first). Beta's is its Dirichlet's
    first entry.
    Checked against the closed forms; the gradient is the quotient's (the corner rows have
    none) against finite differences."""
    c = np.array([[0.5, 1.5, 3.0], [2.0, 2.0, 4.0], [0.2, 0.9, 0.4]])
    got = DS.Dirichlet(T(c)).mode.numpy()
    np.testing.assert_allclose(got[0], [0.0, 0.5 / 2.5, 2.0 / 2.5], rtol=1e-12)
    np.testing.assert_allclose(got[1], [0.2, 0.2, 0.6], rtol=1e-12)
    assert np.array_equal(got[2], [1.0, 0.0, 0.0])  # all below 1: the first corner
    _check(lambda v: DS.Dirichlet(v).mode[..., 1], c[:2])
    b = DS.Beta(T(np.array([3.0, 0.5, 0.3])), T(np.array([2.0, 4.0, 0.2])))
    np.testing.assert_allclose(b.mode.numpy(), [2.0 / 3.0, 0.0, 1.0], rtol=1e-12)


def test_enumerate_support_as_pytorchs() -> None:
    """Bernoulli lists 0 and 1 in its parameter's dtype, Categorical 0..n-1 as int64,
    OneHotCategorical the rows of the identity: each viewed as (n, 1.., *event) and, with
    expand (the default), expanded over the batch. Independent passes it on only with no
    reinterpreted dims; the others have none to list (PyTorch's catchable errors)."""
    b = DS.Bernoulli(T(np.array([[0.2, 0.7, 0.5], [0.1, 0.9, 0.4]])))
    v = b.enumerate_support()
    assert v.shape == (2, 2, 3) and v.data.dtype == np.float64
    assert np.array_equal(v.numpy()[:, 1, 2], [0.0, 1.0])
    assert b.enumerate_support(expand=False).shape == (2, 1, 1)
    c = DS.Categorical(T(np.full((2, 4), 0.25, np.float32)))
    v = c.enumerate_support()
    assert v.shape == (4, 2) and v.data.dtype == np.int64
    assert np.array_equal(v.numpy()[:, 1], [0, 1, 2, 3])
    # the probabilities of everything listed sum to one
    np.testing.assert_allclose(c.log_prob(v).exp().sum(0).numpy(), [1.0, 1.0], rtol=1e-6)
    oh = DS.OneHotCategorical(T(np.array([[0.2, 0.8], [0.5, 0.5], [0.1, 0.9]], np.float32)))
    v = oh.enumerate_support()
    assert v.shape == (2, 3, 2) and v.data.dtype == np.float32
    assert np.array_equal(v.numpy()[:, 2], np.eye(2))
    assert oh.enumerate_support(expand=False).shape == (2, 1, 2)
    base = DS.Bernoulli(T(np.array([0.3, 0.6])))
    assert DS.Independent(base, 0).has_enumerate_support
    assert DS.Independent(base, 0).enumerate_support().shape == (2, 2)
    assert not DS.Independent(base, 1).has_enumerate_support
    with pytest.raises(GradcliError, match="cartesian product"):
        DS.Independent(base, 1).enumerate_support()
    for d in (DS.Geometric(T(np.array([0.3]))), DS.Normal(T(np.zeros(1)), T(np.ones(1)))):
        assert not d.has_enumerate_support
        with pytest.raises(GradcliError) as e:
            d.enumerate_support()
        assert e.value.python_class == "NotImplementedError" and e.value.message == ""


def test_has_rsample_perplexity_and_the_missing_entropies_as_pytorchs() -> None:
    """has_rsample is each class's (PyTorch 2.13's values); perplexity is exp(entropy); where
    PyTorch has no entropy (Poisson, MixtureSameFamily, TransformedDistribution) both raise
    Distribution's message-less NotImplementedError."""
    z, o = T(np.zeros(2)), T(np.ones(2))
    want = {
        DS.Normal(z, o): True,
        DS.Bernoulli(T(np.array([0.3]))): False,
        DS.Categorical(T(np.array([0.2, 0.8]))): False,
        DS.Gamma(T(np.array([2.0])), T(np.array([1.0]))): True,
        DS.Poisson(T(np.array([2.0]))): False,
        DS.Geometric(T(np.array([0.3]))): False,
        DS.Dirichlet(T(np.array([1.0, 2.0]))): True,
        DS.Independent(DS.Normal(z, o), 1): True,
    }
    for d, has in want.items():
        assert d.program_attribute("has_rsample") is has, d.NAME
    n = DS.Normal(T(np.array([0.0, 1.0])), T(np.array([1.0, 0.5])))
    np.testing.assert_allclose(
        n.perplexity().numpy(), np.sqrt(2 * np.pi * np.e) * np.array([1.0, 0.5]), rtol=1e-12
    )
    mix = DS.MixtureSameFamily(DS.Categorical(T(np.ones(2))), DS.Normal(z, o))
    td = DS.TransformedDistribution(DS.Normal(z, o), [DS.ExpTransform()])
    for d in (DS.Poisson(T(np.array([2.0]))), mix, td):
        for method in ("entropy", "perplexity"):
            with pytest.raises(GradcliError) as e:
                d.program_attribute(method)()
            assert e.value.python_class == "NotImplementedError" and e.value.message == ""


def test_relaxed_bernoulli_is_a_sigmoid_of_its_logit_relaxed_base() -> None:
    """RelaxedBernoulli's rsample is sigmoid((logit(u) + logit(p)) / temperature) for its
    uniform draw u; log_prob is the base's at the logit minus the sigmoid's log-Jacobian
    (checked against the closed form of the relaxed density) and differentiable in the
    logits (against finite differences)."""
    seed, rand = DS._T["manual_seed"], DS._T["rand"]
    temp = T(np.array([0.7]))
    logits = np.array([0.3, -1.2, 2.0])
    m = DS.RelaxedBernoulli(temp, logits=T(logits))
    seed(4)
    draw = m.rsample().numpy()
    seed(4)
    u = np.clip(rand(3, dtype=np.dtype(np.float64)).numpy(), 2.0**-52, 1 - 2.0**-52)
    p = 1 / (1 + np.exp(-logits))
    z = (np.log(u) - np.log1p(-u) + np.log(p) - np.log1p(-p)) / 0.7
    np.testing.assert_allclose(draw, 1 / (1 + np.exp(-z)), rtol=1e-12)
    y = np.array([0.2, 0.5, 0.9])
    t = 0.7
    # the relaxed Bernoulli density (Maddison et al.):
    # t a y^(-t-1) (1-y)^(-t-1) / (a y^-t + (1-y)^-t)^2
    a = np.exp(logits)
    dens = t * a * y ** (-t - 1) * (1 - y) ** (-t - 1) / (a * y**-t + (1 - y) ** -t) ** 2
    np.testing.assert_allclose(m.log_prob(T(y)).numpy(), np.log(dens), rtol=1e-10)
    _check(lambda v: DS.RelaxedBernoulli(temp, logits=v).log_prob(T(y)), logits)
    assert repr(m) == "RelaxedBernoulli()"


def test_multinomial_counts_its_categorical_draws_and_log_prob_is_the_closed_form() -> None:
    """Multinomial(n, p).sample counts n Categorical draws per category (each row sums to
    n, in the probabilities' dtype); log_prob is log(n! / prod x_i!) + sum x_i log p_i, with
    its gradient in the logits against finite differences; a count over n is outside the
    support (PyTorch's ValueError)."""
    import math

    m = DS.Multinomial(6, T(np.array([0.2, 0.3, 0.5])))
    x = m.sample((4,))
    assert x.shape == (4, 3) and x.data.dtype == np.float64
    assert np.array_equal(x.numpy().sum(-1), np.full(4, 6.0))
    v = np.array([1.0, 2.0, 3.0])
    want = math.lgamma(7) - sum(math.lgamma(k + 1) for k in v) + float(v @ np.log([0.2, 0.3, 0.5]))
    np.testing.assert_allclose(m.log_prob(T(v)).numpy(), want, rtol=1e-12)
    _check(lambda lg: DS.Multinomial(6, logits=lg).log_prob(T(v)), np.array([0.1, -0.4, 0.7]))
    with pytest.raises(GradcliError, match="within the support \\(Multinomial\\(\\)\\)"):
        m.log_prob(T(np.array([4.0, 2.0, 3.0])))


# LowRankMultivariateNormal: its density through the capacitance matrix against the full
# covariance's (MultivariateNormal), and its gradients against finite differences
LR_LOC = np.array([0.5, -1.0, 2.0])
LR_W = np.array([[1.0, 0.2], [0.3, -0.5], [0.0, 0.7]])
LR_D = np.array([0.5, 1.5, 2.0])
LR_X = T(np.array([[0.0, 0.0, 0.0], [1.0, -2.0, 0.5]]))


def _lowrank(loc=LR_LOC, w=LR_W, d=LR_D) -> DS.LowRankMultivariateNormal:
    return DS.LowRankMultivariateNormal(*(v if isinstance(v, T) else T(v) for v in (loc, w, d)))


def test_lowrank_density_is_the_full_covariances() -> None:
    lr = _lowrank()
    cov = LR_W @ LR_W.T + np.diag(LR_D)
    full = DS.MultivariateNormal(T(LR_LOC), T(cov))
    np.testing.assert_allclose(lr.covariance_matrix.numpy(), cov, rtol=1e-14)
    np.testing.assert_allclose(lr.precision_matrix.numpy(), np.linalg.inv(cov), rtol=1e-12)
    low = lr.scale_tril.numpy()
    np.testing.assert_allclose(low @ low.T, cov, rtol=1e-12)
    np.testing.assert_allclose(lr.log_prob(LR_X).numpy(), full.log_prob(LR_X).numpy(), rtol=1e-13)
    np.testing.assert_allclose(lr.entropy().item(), full.entropy().item(), rtol=1e-13)
    half = DS.LowRankMultivariateNormal(T(LR_LOC), T(LR_W), T(LR_D * 1.001))
    assert abs(half.log_prob(LR_X).numpy() - full.log_prob(LR_X).numpy()).max() > 1e-4


@pytest.mark.parametrize(
    "name, f, x",
    [
        ("loc", lambda p: _lowrank(loc=p).log_prob(LR_X), LR_LOC),
        ("cov_factor", lambda p: _lowrank(w=p).log_prob(LR_X), LR_W),
        ("cov_diag", lambda p: _lowrank(d=p).log_prob(LR_X), LR_D),
        ("entropy / cov_factor", lambda p: _lowrank(w=p).entropy(), LR_W),
    ],
)
def test_lowrank_gradients_against_finite_differences(
    name: str, f: Callable, x: np.ndarray
) -> None:
    _check(f, x)


# --- Binomial (fixbinom): log_prob, entropy against the binomial coefficients; gradients --------

BIN_N = np.array([10.0, 10.0, 25.0, 4.0])
BIN_K = np.array([3.0, 10.0, 7.0, 0.0])


def _binomial_pmf_log(n: np.ndarray, k: np.ndarray, p: np.ndarray) -> np.ndarray:
    import math

    return np.array(
        [
            math.log(math.comb(int(a), int(b))) + b * math.log(c) + (a - b) * math.log1p(-c)
            for a, b, c in zip(n, k, p)
        ]
    )


def test_binomial_log_prob_is_the_binomial_pmf() -> None:
    p = np.array([0.3, 0.8, 0.05, 0.5])
    got = DS.Binomial(T(BIN_N), T(p)).log_prob(T(BIN_K)).numpy()
    np.testing.assert_allclose(got, _binomial_pmf_log(BIN_N, BIN_K, p), rtol=1e-12)
    logits = np.log(p) - np.log1p(-p)
    got = DS.Binomial(T(BIN_N), logits=T(logits)).log_prob(T(BIN_K)).numpy()
    np.testing.assert_allclose(got, _binomial_pmf_log(BIN_N, BIN_K, p), rtol=1e-12)
    # 0.1% off in p is seen
    assert not np.allclose(got, _binomial_pmf_log(BIN_N, BIN_K, p * 1.001), rtol=1e-6)


def test_binomial_entropy_sums_over_the_support() -> None:
    p = np.array([0.3, 0.8, 0.05])
    got = DS.Binomial(12, T(p)).entropy().numpy()
    ks = np.arange(13.0)
    want = []
    for c in p:
        lp = _binomial_pmf_log(np.full(13, 12.0), ks, np.full(13, c))
        want.append(-(np.exp(lp) * lp).sum())
    np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize(
    "name, f, x",
    [
        (
            "binomial log_prob / probs",
            lambda p: DS.Binomial(T(BIN_N), p).log_prob(T(BIN_K)),
            np.array([0.3, 0.8, 0.05, 0.5]),
        ),
        (
            "binomial log_prob / logits",
            lambda p: DS.Binomial(T(BIN_N), logits=p).log_prob(T(BIN_K)),
            np.array([-0.4, 1.3, -2.9, 0.2]),
        ),
        (
            "binomial entropy / probs",
            lambda p: DS.Binomial(6, p).entropy(),
            np.array([0.3, 0.8, 0.55]),
        ),
        (
            "binomial mean, variance / logits",
            lambda p: DS.Binomial(T(BIN_N), logits=p).variance + DS.Binomial(7, logits=p).mean,
            np.array([-0.4, 1.3, -2.9, 0.2]),
        ),
    ],
)
def test_binomial_gradients_against_finite_differences(
    name: str, f: Callable, x: np.ndarray
) -> None:
    _check(f, x)


def test_binomial_checks_and_refusals() -> None:
    with pytest.raises(GradcliError, match="IntegerGreaterThan"):
        DS.Binomial(T(np.array([1.5, 2.0])), T(np.array(0.3)))
    with pytest.raises(GradcliError, match=r"Interval\(lower_bound=0.0, upper_bound=1.0\)"):
        DS.Binomial(3, T(np.array([1.3])))
    with pytest.raises(GradcliError, match="Inhomogeneous total count not supported by `entropy`"):
        DS.Binomial(T(np.array([3.0, 4.0])), T(np.array(0.3))).entropy()
    d = DS.Binomial(3, T(np.array([0.3, 0.4])))
    with pytest.raises(GradcliError, match=r"IntegerInterval\(lower_bound=0, upper_bound="):
        d.log_prob(T(np.array([4.0, 1.0])))
    assert d.enumerate_support().shape == (4, 2)
    assert d.enumerate_support(False).shape == (4, 1)


def _negbin_log_pmf(r: np.ndarray, k: np.ndarray, p: np.ndarray) -> np.ndarray:
    import math

    return np.array(
        [
            math.lgamma(a + b)
            - math.lgamma(b + 1)
            - math.lgamma(a)
            + a * math.log1p(-c)
            + b * math.log(c)
            for a, b, c in zip(r, k, p)
        ]
    )


NB_R = np.array([2.5, 7.0, 0.4, 12.0])


def test_negative_binomial_log_prob_is_the_pmf() -> None:
    p = np.array([0.3, 0.8, 0.05, 0.5])
    got = DS.NegativeBinomial(T(NB_R), T(p)).log_prob(T(BIN_K)).numpy()
    np.testing.assert_allclose(got, _negbin_log_pmf(NB_R, BIN_K, p), rtol=1e-12)
    assert not np.allclose(got, _negbin_log_pmf(NB_R * 1.001, BIN_K, p), rtol=1e-6)
    d = DS.NegativeBinomial(T(NB_R), T(p))
    np.testing.assert_allclose(d.mean.numpy(), NB_R * p / (1 - p), rtol=1e-12)
    np.testing.assert_allclose(d.variance.numpy(), NB_R * p / (1 - p) ** 2, rtol=1e-12)


@pytest.mark.parametrize(
    "name, f, x",
    [
        (
            "negative binomial log_prob / total_count",
            lambda r: DS.NegativeBinomial(r, T(np.array([0.3, 0.8, 0.05, 0.5]))).log_prob(T(BIN_K)),
            NB_R,
        ),
        (
            "negative binomial log_prob / logits",
            lambda x: DS.NegativeBinomial(T(NB_R), logits=x).log_prob(T(BIN_K)),
            np.array([-0.4, 1.3, -2.9, 0.2]),
        ),
        (
            "negative binomial log_prob / probs",
            lambda x: DS.NegativeBinomial(T(NB_R), x).log_prob(T(BIN_K)),
            np.array([0.3, 0.8, 0.05, 0.5]),
        ),
    ],
)
def test_negative_binomial_gradients_against_finite_differences(
    name: str, f: Callable, x: np.ndarray
) -> None:
    _check(f, x)


def _multinomial_entropy_brute(n: int, p: np.ndarray) -> float:
    import itertools
    import math

    total = 0.0
    for xs in itertools.product(range(n + 1), repeat=len(p)):
        if sum(xs) != n:
            continue
        lp = math.lgamma(n + 1) + sum(x * math.log(q) - math.lgamma(x + 1) for x, q in zip(xs, p))
        total -= math.exp(lp) * lp
    return total


def test_multinomial_entropy_is_the_sum_over_all_outcomes() -> None:
    p = np.array([0.2, 0.3, 0.5])
    got = float(DS.Multinomial(6, T(p)).entropy().item())
    assert abs(got - _multinomial_entropy_brute(6, p)) < 1e-12
    assert abs(got - _multinomial_entropy_brute(6, np.array([0.2, 0.3, 0.5]) * 1.001)) > 1e-6


def test_multinomial_entropy_gradient_against_finite_differences() -> None:
    _check(lambda x: DS.Multinomial(5, logits=x).entropy(), np.array([0.3, -1.0, 2.0]))


def _implicit(cdf: Callable[[float, float], float], pdf: float, a: float, x: float) -> float:
    """The reparameterized gradient dx/da = -(dF/da)(x) / f(x), dF/da by central differences."""
    h = 1e-6
    return -(cdf(a + h, x) - cdf(a - h, x)) / (2 * h) / pdf


def test_gamma_and_beta_rsample_gradients_wrt_concentration() -> None:
    """Gamma's draws are differentiable in their concentration (ATen's _standard_gamma_grad:
    three approximations by region), Beta's in both (ATen's _dirichlet_grad): each against the
    implicit derivative of the exact cdf (mpmath's regularized incomplete gamma / beta)."""
    import mpmath

    alpha = np.array([0.3, 1.5, 4.0, 12.0, 40.0])
    gradcli.surface.sampling.manual_seed(7)
    a = T(alpha, requires_grad=True)
    x = DS.Gamma(a, T(np.ones(5))).rsample((3,))
    x.sum().backward()
    want = np.zeros(5)
    for k in range(3):
        for i, (av, xv) in enumerate(zip(alpha, x.detach().numpy()[k])):
            pdf = float(mpmath.exp((av - 1) * mpmath.log(xv) - xv - mpmath.loggamma(av)))
            cdf = lambda s, v: float(mpmath.gammainc(s, 0, v, regularized=True))  # noqa: E731
            want[i] += _implicit(cdf, pdf, av, xv)
    np.testing.assert_allclose(a.grad.numpy(), want, rtol=2e-3)

    c1v, c0v = np.array([0.6, 2.0, 9.0, 3.0]), np.array([1.7, 0.5, 11.0, 7.0])
    gradcli.surface.sampling.manual_seed(3)
    c1, c0 = T(c1v, requires_grad=True), T(c0v, requires_grad=True)
    z = DS.Beta(c1, c0).rsample()
    z.sum().backward()
    zs = z.detach().numpy()
    for i in range(4):
        p, q, v = c1v[i], c0v[i], zs[i]
        pdf = float(mpmath.betainc(p, q, 0, 1) ** -1 * v ** (p - 1) * (1 - v) ** (q - 1))
        by_p = _implicit(
            lambda s, u, q=q: float(mpmath.betainc(s, q, 0, u, regularized=True)), pdf, p, v
        )
        by_q = _implicit(
            lambda s, u, p=p: float(mpmath.betainc(p, s, 0, u, regularized=True)), pdf, q, v
        )
        np.testing.assert_allclose(c1.grad.numpy()[i], by_p, rtol=2e-3)
        np.testing.assert_allclose(c0.grad.numpy()[i], by_q, rtol=2e-3)


def test_expand_is_a_view_whose_gradient_sums_back() -> None:
    """d.expand(shape): the same parameters seen over a larger batch; a gradient through the
    expanded distribution's log_prob reaches the original parameter summed over the new dims."""
    value = T(np.array([[0.3, -1.2, 2.5], [1.0, 0.0, -0.5]]))
    _check(lambda p: DS.Normal(p, T(SCALE)).expand((2, 3)).log_prob(value), LOC)
    e = DS.Gamma(T(SCALE), T(SCALE)).expand([4, 3])
    assert e.batch_shape == (4, 3) and e.sample((2,)).shape == (2, 4, 3)
    with pytest.raises(GradcliError, match="expanded size"):
        DS.Normal(T(LOC), 1.0).expand((2,))


def test_constraint_checks() -> None:
    from gradcli.surface import dist_constraints as C

    x = np.array([-1.0, 0.0, 0.5, 1.0, 2.0, np.nan])
    cases = [
        (C.real, x == x),
        (C.positive, x > 0),
        (C.nonnegative, x >= 0),
        (C.unit_interval, (x >= 0) & (x <= 1)),
        (C.half_open_interval(0.0, 1.0), (x >= 0) & (x < 1)),
        (C.nonnegative_integer, (x % 1 == 0) & (x >= 0)),
        (C.boolean, (x == 0) | (x == 1)),
    ]
    for c, want in cases:
        np.testing.assert_array_equal(c.check(T(x)).numpy(), want, err_msg=repr(c))
    m = np.array([[0.2, 0.8], [0.5, 0.6], [1.0, 0.0]])
    np.testing.assert_array_equal(C.simplex.check(T(m)).numpy(), [True, False, True])
    np.testing.assert_array_equal(C.one_hot.check(T(m)).numpy(), [False, False, True])
    ind = C.IndependentConstraint(C.positive, 1)
    assert repr(ind) == "IndependentConstraint(GreaterThan(lower_bound=0.0), 1)"
    np.testing.assert_array_equal(ind.check(T(m)).numpy(), [True, True, False])


def test_straight_through_gradient_is_the_probabilities() -> None:
    """OneHotCategoricalStraightThrough.rsample: the value a one-hot draw, the gradient that of
    the probabilities (the surrogate sum(softmax(logits) * w) per draw, by finite differences)."""
    w = np.array([1.0, -2.0, 0.5])
    leaf = T(LOC, requires_grad=True)
    gradcli.surface.sampling.manual_seed(1)
    y = DS.CLASSES["OneHotCategoricalStraightThrough"](logits=leaf).rsample((2,))
    assert sorted(y.detach().numpy().sum(-1)) == [1.0, 1.0]
    (y * T(w)).sum().backward()

    def surrogate(v: np.ndarray) -> float:
        p = np.exp(v - v.max()) / np.exp(v - v.max()).sum()
        return float(2 * (p * w).sum())

    np.testing.assert_allclose(leaf.grad.numpy(), _fd(surrogate, LOC), rtol=1e-6, atol=1e-9)


def test_transform_to_maps_reals_into_the_constraint() -> None:
    """transform_to(c)(x) lies in c, inverts, and its log_abs_det_jacobian is log |dy/dx|
    (central differences)."""
    from gradcli.surface import dist_constraints as C

    x = np.array([-1.3, 0.0, 0.7, 2.2])
    for c in (C.positive, C.greater_than(2.0), C.less_than(1.0), C.interval(-1.0, 3.0)):
        t = dist_extra.transform_to(c)
        y = t(T(x))
        assert bool(c.check(y).numpy().all()), c
        np.testing.assert_allclose(t.inv(y).numpy(), x, rtol=1e-9, atol=1e-9)
        h = 1e-6
        dydx = (t(T(x + h)).numpy() - t(T(x - h)).numpy()) / (2 * h)
        np.testing.assert_allclose(
            t.log_abs_det_jacobian(T(x), y).numpy(), np.log(np.abs(dydx)), rtol=1e-6, atol=1e-8
        )


GP_U = T(np.array([0.2, 0.5, 0.9]))
GP_XI = np.array([0.3, -0.2, 0.45])


@pytest.mark.parametrize(
    "name, f, x",
    [
        (
            "icdf / xi",
            lambda p: dist_extra.GeneralizedPareto(T(LOC), T(SCALE), p).icdf(GP_U),
            GP_XI,
        ),
        (
            "icdf / scale",
            lambda p: dist_extra.GeneralizedPareto(T(LOC), p, T(GP_XI)).icdf(GP_U),
            SCALE,
        ),
        ("mean / xi", lambda p: dist_extra.GeneralizedPareto(T(LOC), T(SCALE), p).mean, GP_XI),
        ("variance / xi", lambda p: dist_extra.GeneralizedPareto(0.0, T(SCALE), p).variance, GP_XI),
    ],
)
def test_generalized_pareto_gradients_against_finite_differences(
    name: str, f: Callable, x: np.ndarray
) -> None:
    _check(f, x)


def test_generalized_pareto_density_is_the_closed_form_and_float32_only() -> None:
    # density (1 / s) (1 + xi z) ** (-1 / xi - 1); xi = 0: exp(-z) / s; the cdf integrates it
    from gradcli.surface.constructors import set_default_dtype

    set_default_dtype(np.float32)  # PyTorch's (conftest restores the run's)
    xi = np.array([0.3, 0.0, -0.25], dtype=np.float32)
    s = np.array([1.5, 0.5, 2.0], dtype=np.float32)
    x = np.array([0.7, 1.2, 3.0], dtype=np.float32)
    d = dist_extra.GeneralizedPareto(T(np.zeros(3, np.float32)), T(s), T(xi))
    z = x.astype(np.float64) / s
    safe = np.where(xi == 0, 1.0, xi)
    want = np.where(xi == 0, -z, -(1 / safe + 1) * np.log1p(safe * z)) - np.log(s)
    np.testing.assert_allclose(d.log_prob(T(x)).numpy(), want, rtol=1e-5)
    surv = np.where(xi == 0, np.exp(-z), (1 + safe * z) ** (-1 / safe))
    np.testing.assert_allclose(d.cdf(T(x)).numpy(), 1 - surv, rtol=1e-5)
    d64 = dist_extra.GeneralizedPareto(T(np.zeros(3)), T(s.astype(np.float64)), T(GP_XI))
    with pytest.raises(GradcliError, match="Double did not match Float"):
        d64.log_prob(T(x.astype(np.float64)))


CC_X = np.array([[0.4, -1.2, 0.7, 0.05, -0.3, 1.1], [2.0, 0.1, -0.3, -0.8, 0.6, 0.2]])


def test_corr_cholesky_log_det_is_the_jacobians_of_the_strict_lower_part() -> None:
    # the Jacobian of x -> y's entries below the diagonal, by central differences
    t = dist_extra.CorrCholeskyTransform()
    below = np.tril_indices(4, -1)
    for x in CC_X:
        jac = np.stack(
            [
                (
                    t(T(x + h)).numpy()[below] - t(T(x - h)).numpy()[below]  # noqa: B023
                )
                / 2e-6
                for h in np.eye(6) * 1e-6
            ],
            1,
        )
        got = t.log_abs_det_jacobian(T(x), t(T(x))).item()
        assert got == pytest.approx(np.log(abs(np.linalg.det(jac))), rel=1e-6)
    y = t(T(CC_X)).numpy()
    np.testing.assert_allclose(np.linalg.norm(y, axis=-1), 1.0, rtol=1e-12)
    np.testing.assert_allclose(t.inv(T(y)).numpy(), CC_X, rtol=1e-10)


@pytest.mark.parametrize(
    "name, f, x",
    [
        (
            "corr cholesky",
            lambda p: dist_extra.CorrCholeskyTransform()(p) * T(np.arange(16.0).reshape(4, 4)),
            CC_X,
        ),
        (
            "corr cholesky log det",
            lambda p: dist_extra.CorrCholeskyTransform().log_abs_det_jacobian(
                p, dist_extra.CorrCholeskyTransform()(p)
            ),
            CC_X,
        ),
        ("softmax", lambda p: dist_extra.SoftmaxTransform()(p) * T(np.arange(6.0)), CC_X),
        ("softplus inverse", lambda p: dist_extra.SoftplusTransform().inv(p), SCALE),
    ],
)
def test_transform_gradients_against_finite_differences(
    name: str, f: Callable, x: np.ndarray
) -> None:
    _check(f, x)


def test_mixture_cdf_gradients_and_expand_repeats_the_mixture() -> None:
    w = T(np.array([0.2, 0.5, 0.3]))
    v = T(np.array([-0.4, 0.9]))
    mix = lambda p: DS.MixtureSameFamily(DS.Categorical(w), DS.Normal(p, T(SCALE)))  # noqa: E731
    _check(lambda p: mix(p).cdf(v), LOC)
    m = mix(T(LOC))
    e = m.expand((2,))
    assert tuple(e.batch_shape) == (2,)
    np.testing.assert_allclose(e.log_prob(v).numpy(), m.log_prob(v).numpy(), rtol=1e-12)
    np.testing.assert_allclose(e.cdf(v).numpy(), m.cdf(v).numpy(), rtol=1e-12)


def test_softplus_transform_log_det_is_the_log_of_its_derivative() -> None:
    t = dist_extra.SoftplusTransform()
    x = np.array([-8.0, -1.0, 0.0, 2.0, 25.0])
    slope = (t(T(x + 1e-6)).numpy() - t(T(x - 1e-6)).numpy()) / 2e-6
    np.testing.assert_allclose(
        t.log_abs_det_jacobian(T(x), t(T(x))).numpy(), np.log(slope), rtol=1e-6, atol=1e-8
    )
    np.testing.assert_allclose(t.inv(t(T(x))).numpy(), x, rtol=1e-9)


def test_gamma_cdf_closed_forms_and_rate_gradient() -> None:
    x = np.array([0.3, 1.0, 4.0])
    got = DS.Gamma(T(np.array([1.0, 2.0, 2.0])), T(np.array([2.0, 1.0, 1.0]))).cdf(T(x)).numpy()
    # shape 1: 1 - exp(-r x); shape 2: 1 - exp(-x) (1 + x)
    want = np.array([1 - np.exp(-0.6), 1 - np.exp(-1.0) * 2.0, 1 - np.exp(-4.0) * 5.0])
    np.testing.assert_allclose(got, want, rtol=1e-12)
    _check(lambda r: DS.Gamma(T(np.array([1.5, 3.0, 0.7])), r).cdf(T(x)), SCALE)


def test_a_negative_power_flips_the_transformed_cdf() -> None:
    # P(1 / X <= y) = P(X >= 1 / y) = exp(-r / y) for X ~ Exponential(r)
    y = np.array([0.4, 3.0])
    d = DS.TransformedDistribution(DS.Exponential(T(np.array(1.5))), [DS.PowerTransform(-1.0)])
    np.testing.assert_allclose(d.cdf(T(y)).numpy(), np.exp(-1.5 / y), rtol=1e-12)


def test_validate_args_false_skips_the_support_check() -> None:
    # PyTorch's _validate_sample (shape and support checks) runs only when validating: with
    # validate_args=False the formula runs on values outside the support (explore125)
    out = DS.Uniform(T(np.array(0.0)), T(np.array(1.0)), validate_args=False).log_prob(
        T(np.array([5.0, 0.5]))
    )
    assert out.numpy().tolist() == [-np.inf, 0.0]
    with pytest.raises(GradcliError, match="to be within the support"):
        DS.Uniform(T(np.array(0.0)), T(np.array(1.0))).log_prob(T(np.array([5.0])))
    # the gradient in the rate of Exponential at a negative value: 1 / rate - x
    _check(
        lambda r: DS.Exponential(r, validate_args=False).log_prob(T(np.array([-1.5, 0.5]))),
        np.array([2.0, 0.7]),
    )


def test_a_registered_kl_pair_lasts_one_run() -> None:
    # register_kl (explore130): the program's pair replaces PyTorch's Normal-Normal and reaches
    # Chi2 through Gamma; the next run has PyTorch's pairs only
    out = _run(
        "import torch.distributions as D\n"
        "@D.register_kl(D.Normal, D.Normal)\ndef nn_(p, q):\n    return (p.loc - q.loc) * 10\n"
        "@D.register_kl(D.Gamma, D.Exponential)\ndef ge(p, q):\n    return p.rate * 3\n"
        "D.register_kl(D.Laplace, D.Cauchy)(ge)\n"
        "print(D.kl_divergence(D.Normal(1.0, 1.0), D.Normal(0.5, 2.0)).item())\n"
        "print(D.kl_divergence(D.Chi2(torch.tensor(2.0)), D.Exponential(2.0)).item())\n"
    )
    assert out == "5.0\n1.5\n"
    # PyTorch's own: log 2 + (1 + 0.25) / 8 - 0.5
    got = float(
        _run(
            "import torch.distributions as D\n"
            "print(D.kl_divergence(D.Normal(1.0, 1.0), D.Normal(0.5, 2.0)).item())\n"
        )
    )
    assert abs(got - (np.log(2.0) + 1.25 / 8 - 0.5)) < 1e-6
    out = _run(
        "import torch.distributions as D\ntry:\n"
        "    D.kl_divergence(D.Laplace(0.0, 1.0), D.Cauchy(0.0, 1.0))\n"
        "except NotImplementedError as e:\n    print(e)\n"
    )
    assert out == "No KL(p || q) is implemented for p type Laplace and q type Cauchy\n"
