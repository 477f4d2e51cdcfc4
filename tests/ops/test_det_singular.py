"""det, logdet and slogdet differentiated twice at singular matrices, as ATen does it: det's
grad-mode backward goes through the SVD, whose U and Vh gradients are defined even when
exactly zero (NaN where singular values repeat: the zero matrix); slogdet's solves with A
(a singular matrix raises linalg.solve's LinAlgError). Away from those, finite and equal to
central differences."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.autograd import grad
from gradcli.core.op import apply
from gradcli.core.tensor import Tensor
from gradcli.ops.matrices import det, slogdet
from gradcli.surface import names  # noqa: F401 - installs the tensor methods


def second(a: np.ndarray, e: np.ndarray) -> np.ndarray:
    x = Tensor(a.copy(), requires_grad=True)
    (g,) = grad(apply(det, x), [x], create_graph=True)
    (h,) = grad((g * Tensor(e)).sum(), [x])
    return h.data


@pytest.mark.parametrize("n", [2, 3])
def test_det_second_derivative_nan_at_zero(n: int) -> None:
    h = second(np.zeros((n, n)), np.ones((n, n)))
    assert np.isnan(h).all()


def test_det_second_derivative_finite_differences_rank_one() -> None:
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    e = np.array([[0.3, -1.0], [0.7, 2.0]])
    got = second(a, e)

    def f(m: np.ndarray) -> float:  # <adj(m)^T, e>: the first derivative along e
        return float(np.sum(np.array([[m[1, 1], -m[1, 0]], [-m[0, 1], m[0, 0]]]) * e))

    h = 1e-6
    fd = np.zeros((2, 2))
    for i in range(2):
        for j in range(2):
            d = np.zeros((2, 2))
            d[i, j] = h
            fd[i, j] = (f(a + d) - f(a - d)) / (2 * h)
    np.testing.assert_allclose(got, fd, atol=1e-9)


@pytest.mark.parametrize("a", [np.array([[1.0, 2.0], [2.0, 4.0]]), np.zeros((3, 3))])
def test_slogdet_grad_mode_refuses_singular(a: np.ndarray) -> None:
    x = Tensor(a.copy(), requires_grad=True)
    out = apply(slogdet, x)
    with pytest.raises(GradcliError, match="The solver failed because the input matrix is"):
        grad(out[..., 1].sum(), [x], create_graph=True)


def test_slogdet_grad_mode_invertible() -> None:
    a = np.array([[2.0, 0.5], [0.5, 1.0]])
    x = Tensor(a.copy(), requires_grad=True)
    (g,) = grad(apply(slogdet, x)[..., 1].sum(), [x], create_graph=True)
    np.testing.assert_allclose(g.data, np.linalg.inv(a).T, rtol=1e-12)
