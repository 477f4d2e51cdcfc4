"""Forward mode through torch.linalg.cholesky (explore79): PyTorch's cholesky_jvp reads the
tangent dA as given, X = L^-1 dA L^-H and dL = L (tril(X) - diag(X) / 2), where gradcli
transposed its reverse rule, which symmetrizes dA: the two differ for a tangent that is not
symmetric, as jacfwd's basis and a Hessian's outer pass (hessian = jacfwd(jacrev)) feed it.
upper=True is dL^H of the same with L = U^H. For a symmetric tangent both are the derivative:
checked against central differences in float64."""

from __future__ import annotations

import json

import numpy as np
import pytest

from gradcli.lang.program import parse

S = [[4.0, 1.0, 0.5], [1.0, 3.0, -0.4], [0.5, -0.4, 2.0]]
V = [[0.3, -1.2, 0.7], [0.4, 0.1, 2.0], [-0.9, 0.25, -0.6]]


def matrix(text: str) -> np.ndarray:
    got = "".join(parse("import torch\n" + text, "t.py").run(dtype="float32").output)
    return np.array(json.loads(got.strip()))  # a printed list of lists (finite floats)


def pytorch_rule(s: np.ndarray, v: np.ndarray, upper: bool) -> np.ndarray:
    low = np.linalg.cholesky(s)
    x = np.linalg.solve(low, v)
    x = np.linalg.solve(low, x.T).T  # X L^-T
    d = low @ (np.tril(x) - np.diag(np.diag(x)) / 2)
    return d.T if upper else d


@pytest.mark.parametrize("upper", [False, True])
def test_a_tangent_that_is_not_symmetric_is_read_as_given(upper: bool) -> None:
    got = matrix(
        f"s = torch.tensor({S}, dtype=torch.float64)\nv = torch.tensor({V}, dtype=torch.float64)\n"
        f"f = lambda m: torch.linalg.cholesky(m, upper={upper})\n"
        "print(torch.func.jvp(f, (s,), (v,))[1].tolist())\n"
    )
    want = pytorch_rule(np.array(S), np.array(V), upper)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
    sym = pytorch_rule(np.array(S), (np.array(V) + np.array(V).T) / 2, upper)
    assert not np.allclose(got, sym)  # the symmetrized tangent (gradcli's before) differs


@pytest.mark.parametrize("upper", [False, True])
def test_jacfwd_columns_are_the_rule_on_the_basis(upper: bool) -> None:
    got = matrix(
        f"s = torch.tensor({S}, dtype=torch.float64)\n"
        f"print(torch.func.jacfwd(lambda m: torch.linalg.cholesky(m, upper={upper}))(s).tolist())\n"
    )
    for i in range(3):
        for j in range(3):
            e = np.zeros((3, 3))
            e[i, j] = 1.0
            np.testing.assert_allclose(
                got[:, :, i, j], pytorch_rule(np.array(S), e, upper), rtol=1e-12, atol=1e-14
            )


@pytest.mark.parametrize("upper", [False, True])
def test_a_symmetric_tangent_gives_the_derivative(upper: bool) -> None:
    w = (np.array(V) + np.array(V).T) / 2
    got = matrix(
        f"s = torch.tensor({S}, dtype=torch.float64)\n"
        f"w = torch.tensor({w.tolist()}, dtype=torch.float64)\n"
        f"f = lambda m: torch.linalg.cholesky(m, upper={upper})\n"
        "print(torch.func.jvp(f, (s,), (w,))[1].tolist())\n"
    )
    h = 1e-6
    s = np.array(S)

    def chol(m: np.ndarray) -> np.ndarray:
        c = np.linalg.cholesky(m)
        return c.T if upper else c

    fd = (chol(s + h * w) - chol(s - h * w)) / (2 * h)
    np.testing.assert_allclose(got, fd, rtol=1e-7, atol=1e-9)
