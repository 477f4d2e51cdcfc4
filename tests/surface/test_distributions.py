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
            lambda p: DS.kl_divergence(DS.Normal(T(LOC), T(SCALE)), DS.Normal(T(LOC * 2), p)),
            SCALE[::-1].copy(),
        ),
        (
            "kl normal / p loc",
            lambda p: DS.kl_divergence(DS.Normal(p, T(SCALE)), DS.Normal(T(LOC * 2), T(SCALE))),
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
            lambda p: DS.kl_divergence(
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
            lambda p: DS.kl_divergence(
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
        DS.kl_divergence(n, q),
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
