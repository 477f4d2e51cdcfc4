"""A program's subclass of one of torch.distributions' concrete classes (`class
StraightThrough(OneHotCategorical)`, `class Tempered(Normal)`): the base's state and methods
with the program's overrides first, also where the base's own code calls them. PyTorch's text
for these programs is corpus 2246; here the gradients through an override are checked against
central finite differences in float64."""

from __future__ import annotations

import numpy as np

from tests.helpers.programs import error, out

TEMPERED = """
import torch
from torch.distributions import Normal

class Tempered(Normal):
    def __init__(self, loc, scale, temperature):
        super().__init__(loc, scale)
        self.temperature = temperature

    def log_prob(self, value):
        return super().log_prob(value) / self.temperature + torch.sin(self.loc).sum()

x = torch.tensor([0.3, -0.7, 1.1], dtype=torch.float64)

def f(mu, sigma):
    return Tempered(mu, sigma, 3.0).log_prob(x).sum()

mu = torch.tensor([0.2, -1.3, 0.8], dtype=torch.float64, requires_grad=True)
sigma = torch.tensor([0.7, 1.4, 0.9], dtype=torch.float64, requires_grad=True)
f(mu, sigma).backward()
print(mu.grad.tolist())
print(sigma.grad.tolist())
h = 1e-6
for which in range(2):
    fd = []
    for i in range(3):
        e = torch.zeros(3, dtype=torch.float64)
        e[i] = h
        with torch.no_grad():
            if which == 0:
                fd.append(((f(mu + e, sigma) - f(mu - e, sigma)) / (2 * h)).item())
            else:
                fd.append(((f(mu, sigma + e) - f(mu, sigma - e)) / (2 * h)).item())
    print(fd)
"""


def _rows(text: str) -> list[np.ndarray]:
    return [np.array(eval(line)) for line in text.strip().splitlines()]  # noqa: S307


def test_gradients_through_an_override_calling_super_match_finite_differences() -> None:
    grad_mu, grad_sigma, fd_mu, fd_sigma = _rows(out(TEMPERED))
    np.testing.assert_allclose(grad_mu, fd_mu, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(grad_sigma, fd_sigma, rtol=1e-7, atol=1e-9)
    # the override's own term took part: without it the loc gradient is (x - mu) / sigma^2 / 3
    x = np.array([0.3, -0.7, 1.1])
    mu, sigma = np.array([0.2, -1.3, 0.8]), np.array([0.7, 1.4, 0.9])
    np.testing.assert_allclose(grad_mu, (x - mu) / sigma**2 / 3 + 3 * np.cos(mu), rtol=1e-12)


def test_the_bases_own_code_calls_the_programs_override() -> None:
    # Distribution.perplexity is exp(self.entropy()): the program's entropy, as PyTorch's
    got = out(
        "import torch\nfrom torch.distributions import Categorical\n"
        "class Flat(Categorical):\n    def entropy(self):\n        return torch.tensor(2.0)\n"
        "c = Flat(probs=torch.tensor([0.9, 0.1]))\n"
        "print(c.perplexity(), Categorical(probs=torch.tensor([0.9, 0.1])).perplexity())\n"
    )
    p = np.array([0.9, 0.1])
    assert got == f"tensor({np.exp(2.0):.4f}) tensor({np.exp(-(p * np.log(p)).sum()):.4f})\n"


def test_the_bases_state_is_read_not_overwritten() -> None:
    prog = (
        "import torch\nfrom torch.distributions import OneHotCategorical\n"
        "class S(OneHotCategorical):\n    pass\n"
        "s = S(logits=torch.tensor([0.0, 1.0]))\n"
    )
    # made from logits: _param stays the (normalized) logits after probs are read
    got = out(prog + "print(s._categorical.probs, s._param, s._event_shape)\n")
    q = np.exp(1.0) / (1 + np.exp(1.0))
    z = np.log(1 + np.exp(1.0))
    assert got == (
        f"tensor([{1 - q:.4f}, {q:.4f}]) tensor([{-z:.4f}, {1 - z:.4f}]) torch.Size([2])\n"
    )
    assert "not supported" in str(error(prog + "s._categorical = None\n"))
    # PyTorch's OneHotCategorical has no _num_events (its Categorical has)
    assert "no attribute '_num_events'" in str(error(prog + "s._num_events\n"))
    assert "not supported" in str(error(prog + "s.expand((3,))\n"))


def test_a_mixin_beside_a_distribution_is_refused_naming_the_torch_class() -> None:
    got = str(
        error(
            "import torch\nfrom torch.distributions import Normal\nclass Mix:\n    pass\n"
            "class X(Mix, Normal):\n    pass\n"
        )
    )
    assert "not supported with Normal among them" in got
