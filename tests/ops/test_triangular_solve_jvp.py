"""Forward mode through the deprecated torch.triangular_solve (explore102): PyTorch's
triangular_solve_jvp is its generic solve rule, dX = op(A)^-1 (dB - dA X), with the tangent dA
as given: not restricted to the triangle the solve reads (nor off the diagonal with
unitriangular), and not transposed with transpose=True. gradcli transposed its reverse rule,
which gives the derivative, before. Where the tangent lies in the part read (and transpose is
off) both are the derivative: checked against central differences in float64."""

from __future__ import annotations

import json

import numpy as np
import pytest

from gradcli.lang.program import parse

A = [[3.0, 0.5, -0.7], [0.9, 2.5, 0.3], [-0.4, 1.1, 4.0]]
B = [[0.2, -1.0], [1.5, 0.4], [-0.6, 0.8]]
DA = [[0.3, -1.2, 0.7], [0.4, 0.1, 2.0], [-0.9, 0.25, -0.6]]
DB = [[1.0, 0.0], [-0.5, 2.0], [0.3, -0.2]]


def tangent(upper: bool, transpose: bool, unit: bool, da: list, db: list) -> np.ndarray:
    text = (
        "import torch, warnings\nwarnings.filterwarnings('ignore')\n"
        f"a = torch.tensor({A}, dtype=torch.float64)\nb = torch.tensor({B}, dtype=torch.float64)\n"
        f"da = torch.tensor({da}, dtype=torch.float64)\n"
        f"db = torch.tensor({db}, dtype=torch.float64)\n"
        f"f = lambda a, b: torch.triangular_solve(b, a, upper={upper}, transpose={transpose}, "
        f"unitriangular={unit})[0]\n"
        "print(torch.func.jvp(f, (a, b), (da, db))[1].tolist())\n"
    )
    got = "".join(parse(text, "t.py").run(dtype="float64").output)
    return np.array(json.loads(got.strip()))


def read_matrix(a: np.ndarray, upper: bool, unit: bool) -> np.ndarray:
    t = np.triu(a) if upper else np.tril(a)
    return t - np.diag(np.diag(t)) + np.eye(3) if unit else t


def pytorch_rule(upper: bool, transpose: bool, unit: bool) -> np.ndarray:
    t = read_matrix(np.array(A), upper, unit)
    op = t.T if transpose else t
    x = np.linalg.solve(op, np.array(B))
    return np.linalg.solve(op, np.array(DB) - np.array(DA) @ x)


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("transpose", [False, True])
@pytest.mark.parametrize("unit", [False, True])
def test_the_tangent_of_a_is_read_as_given(upper: bool, transpose: bool, unit: bool) -> None:
    got = tangent(upper, transpose, unit, DA, DB)
    np.testing.assert_allclose(got, pytorch_rule(upper, transpose, unit), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("unit", [False, True])
def test_a_tangent_in_the_part_read_gives_the_derivative(upper: bool, unit: bool) -> None:
    # dA inside the triangle the solve reads (off the diagonal when it is unit): the
    # forward formula is then the derivative of X(A + h dA, B + h dB) at h = 0
    da = read_matrix(np.array(DA), upper, False)
    if unit:
        da = da - np.diag(np.diag(da))
    got = tangent(upper, False, unit, da.tolist(), DB)

    def x(h: float) -> np.ndarray:
        t = read_matrix(np.array(A) + h * da, upper, unit)
        return np.linalg.solve(t, np.array(B) + h * np.array(DB))

    h = 1e-6
    np.testing.assert_allclose(got, (x(h) - x(-h)) / (2 * h), rtol=1e-7, atol=1e-9)
