"""LAPACK's Bunch-Kaufman LDL^T (`ops.ldl`): the factors rebuild the matrix (with the
pivots' interchanges and 2x2 blocks), the solve solves, and a zero column is reported."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.ops import ldl


def _rebuilt(ld: np.ndarray, ipiv: np.ndarray) -> np.ndarray:
    """A from sytrf's lower factors: A = P1 L1 ... D ... L1^T P1^T, step by step."""
    n = ld.shape[0]
    d = np.zeros((n, n))
    unit = np.eye(n)
    steps = []
    k = 0
    while k < n:
        s = 1 if ipiv[k] > 0 else 2
        kp = abs(int(ipiv[k])) - 1
        p = np.eye(n)
        p[[k + s - 1, kp]] = p[[kp, k + s - 1]]
        lk = unit.copy()
        lk[k + s :, k : k + s] = ld[k + s :, k : k + s]
        d[k : k + s, k : k + s] = ld[k : k + s, k : k + s]
        if s == 2:
            d[k, k + 1] = d[k + 1, k]
        steps.append(p @ lk)
        k += s
    m = np.eye(n)
    for t in steps:
        m = m @ t
    return m @ d @ m.T


@pytest.mark.parametrize("seed", range(6))
def test_factors_rebuild_and_solve(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 7
    a = rng.standard_normal((n, n))
    a = a + a.T
    a[0, 0] = a[1, 1] = 0.0  # (2x2 pivot blocks where a diagonal is too small)
    ld, ipiv, info = ldl.factor(a)
    assert info == 0
    np.testing.assert_allclose(_rebuilt(ld, ipiv), a, atol=1e-12)
    b = rng.standard_normal((n, 2))
    np.testing.assert_allclose(a @ ldl.solve(ld, ipiv, b), b, atol=1e-10)


def test_a_two_by_two_block() -> None:
    a = np.array([[0.0, 2.0, 1.0], [2.0, 0.0, 3.0], [1.0, 3.0, 1.0]])
    ld, ipiv, _ = ldl.factor(a)
    assert ipiv.tolist() == [-2, -2, 3]  # rows 1 and 2 form the block (LAPACK's -k)
    np.testing.assert_allclose(_rebuilt(ld, ipiv), a, atol=1e-14)


def test_zero_column_is_reported() -> None:
    a = np.diag([2.0, 0.0, 3.0])
    _, ipiv, info = ldl.factor(a)
    assert info == 2 and ipiv.tolist() == [1, 2, 3]
