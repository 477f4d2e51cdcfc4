"""`norm64.fma`: the float64 fused multiply-add the float64 layer_norm kernel needs, against
the exactly rounded value of a * b + c (Python's fractions, one rounding)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from gradcli.ops import norm64


def _exact(a: float, b: float, c: float) -> float:
    return float(Fraction(a) * Fraction(b) + Fraction(c))


def test_fma_is_rounded_once() -> None:
    rng = np.random.default_rng(5)
    a = rng.standard_normal(400) * 10.0 ** rng.integers(-8, 8, 400)
    b = rng.standard_normal(400) * 10.0 ** rng.integers(-8, 8, 400)
    # c close to -a*b: the cancellations where a plain a * b + c loses the product's low bits
    c = -(a * b) * (1 + rng.standard_normal(400) * 1e-9)
    got = norm64.fma(a, b, c)
    want = np.array([_exact(x, y, z) for x, y, z in zip(a, b, c)])
    assert np.array_equal(got, want)
    plain = a * b + c
    assert not np.array_equal(plain, want)  # the test data does tell fused from unfused


def test_fma_non_finite_operands() -> None:
    got = norm64.fma(
        np.array([np.inf, 1e300, np.nan, 2.0]),
        np.array([1.0, 1e300, 1.0, 3.0]),
        np.array([1.0, 0.0, 0.0, np.inf]),
    )
    assert got[0] == np.inf and got[1] == np.inf and np.isnan(got[2]) and got[3] == np.inf
