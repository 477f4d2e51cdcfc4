"""Second derivatives through prod and cumprod where the input has zeros (their first
derivative there is the product of the other factors, 0/0 in the usual out / x formula): the
Hessians of the reverse-over-reverse path and nested forward mode, against central finite
differences of the same polynomial in float64, on random inputs with zeros in random places
and on tensors without zeros beside them (a zero elsewhere must not change their rows)."""

from __future__ import annotations

import ast

import numpy as np
import pytest

from gradcli.lang.program import parse

FUNCS = {
    "prod": (
        "torch.prod(t) ** 2 + torch.prod(t * t[0])",
        lambda t: np.prod(t) ** 2 + np.prod(t * t[0]),
    ),
    "prod_dim": (
        "torch.prod(t.view(2, -1), {dim}).sin().sum()",
        lambda t, dim: np.sin(np.prod(t.reshape(2, -1), axis=dim)).sum(),
    ),
    "cumprod": (
        "(torch.cumprod(t.view(2, -1), {dim}) ** 2).sum()",
        lambda t, dim: (np.cumprod(t.reshape(2, -1), axis=dim) ** 2).sum(),
    ),
    "cumprod_1d": ("torch.cumprod(t, 0).sum() * t.sum()", lambda t: np.cumprod(t).sum() * t.sum()),
}


def _fd_hessian(f, x: np.ndarray, h: float = 1e-4) -> np.ndarray:
    n = x.size
    H = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            e_i, e_j = np.eye(n)[i] * h, np.eye(n)[j] * h
            H[i, j] = (
                f(x + e_i + e_j) - f(x + e_i - e_j) - f(x - e_i + e_j) + f(x - e_i - e_j)
            ) / (4 * h * h)
    return H


def _hessians(expr: str, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    program = (
        "import torch\n"
        f"x = torch.tensor({x.tolist()!r}, dtype=torch.float64)\n"
        f"f = lambda t: {expr}\n"
        "print(torch.autograd.functional.hessian(f, x).tolist())\n"
        "def d(t):\n    return torch.func.jvp(f, (t,), (v,))[1]\n"
        "rows = []\n"
        "for i in range(x.numel()):\n"
        "    v = torch.zeros_like(x)\n    v[i] = 1.0\n"
        "    rows.append(torch.func.jacfwd(d)(x).tolist())\n"
        "print(rows)\n"
    )
    out = "".join(parse(program, "t.py").run().output).splitlines()
    return np.array(ast.literal_eval(out[0])), np.array(ast.literal_eval(out[1]))


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("name", sorted(FUNCS))
def test_hessians_at_zeros_match_finite_differences(name: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = np.round(rng.uniform(-2, 2, 6), 3)
    x[rng.choice(6, size=1 + seed % 3, replace=False)] = 0.0  # one to three zeros
    expr, f = FUNCS[name]
    dim = seed % 2
    if "{dim}" in expr:
        expr = expr.format(dim=dim)
        g = lambda t: f(t, dim)  # noqa: E731
    else:
        g = f
    want = _fd_hessian(g, x)
    reverse, forward = _hessians(expr, x)
    np.testing.assert_allclose(reverse, want, rtol=1e-5, atol=1e-5)
    if name in FORWARD_NOT_THE_DERIVATIVE:
        return  # (PyTorch's own values: tests/ops/test_cumprod_forward.py)
    np.testing.assert_allclose(forward, want, rtol=1e-5, atol=1e-5)


# Forward over forward mode through PyTorch's cumprod_jvp, whose zero masks are read from the
# input's value, is not the second derivative at a zero (PyTorch 2.13 prints these values too:
# the column of the zero differs); gradcli uses PyTorch's rule and gives its numbers.
FORWARD_NOT_THE_DERIVATIVE = {"cumprod_1d"}
