"""CELU's derivative as PyTorch's derivatives.yaml writes it: elu_backward with the input
scale 1.0 / alpha.toFloat() (alpha rounded to float32 first), while the forward divides by
alpha in double. In float64 that is visible from the 8th digit (corpus 685: PyTorch 2.13's
printed digits)."""

from __future__ import annotations

import ast

import numpy as np

from tests.helpers.programs import out

X = [0.8, -0.35, -1.7, -0.02]


def _run(expr: str) -> list[float]:
    text = (
        "import torch\nimport torch.nn.functional as F\n"
        f"x = torch.tensor({X}, dtype=torch.float64, requires_grad=True)\n"
        f"print({expr})\n"
    )
    return ast.literal_eval(out(text).strip())


def test_first_derivative_takes_alpha_in_float32() -> None:
    got = np.array(_run("torch.autograd.grad(F.celu(x, 0.7).sum(), x)[0].tolist()"))
    x = np.array(X)
    s = 1.0 / float(np.float32(0.7))
    want = np.where(x > 0, 1.0, s * 0.7 * np.exp(x * s))
    np.testing.assert_allclose(got, want, rtol=2e-16)
    exact = np.where(x > 0, 1.0, np.exp(x / 0.7))
    assert np.abs(got - exact).max() > 1e-9  # not the exact derivative: PyTorch's


def test_second_derivative_keeps_that_scale() -> None:
    got = np.array(
        _run(
            "torch.autograd.grad(torch.autograd.grad(F.celu(x, 0.7).sum(), x, "
            "create_graph=True)[0].sum(), x)[0].tolist()"
        )
    )
    x = np.array(X)
    s = 1.0 / float(np.float32(0.7))
    want = np.where(x < 0, s * s * 0.7 * np.exp(x * s), 0.0)
    np.testing.assert_allclose(got, want, rtol=1e-15)
