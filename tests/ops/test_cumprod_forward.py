"""cumprod's forward mode is PyTorch's cumprod_jvp: `(t / x).cumsum(dim) * result`, and from a
slice's first zero on `cumprod(where(first zero, t, x))`. gradcli transposed its gradient, whose
values agree but whose signs of zero do not: hessian(prod) and jacfwd(jacrev(prod)) (the outer
forward pass runs through prod_safe_zeros_backward's cumprods) at an input with one zero printed
+0. where PyTorch prints -0. (a zero tangent over a negative value). jacfwd's Jacobian is laid out
as PyTorch's (the batch of tangents moved last: not contiguous), so its sum adds in PyTorch's
order. The signs below were recorded with PyTorch 2.13; values against float64 central
differences."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.lang.program import parse

SETUP = "import torch\nfrom torch.func import jacfwd, jacrev, hessian, jvp\n"


def run(text: str, dtype: str = "float32") -> list[str]:
    return "".join(parse(SETUP + text, "t.py").run(dtype=dtype).output).strip().splitlines()


@pytest.mark.parametrize("how", ["hessian(torch.prod)(x)", "jacfwd(jacrev(torch.prod))(x)"])
def test_prod_hessian_signs_of_zero_at_one_zero(how: str) -> None:
    # PyTorch 2.13: [[-0., -4., 3.], [-4., -0., 0.], [3., 0., 0.]]
    text = f"x = torch.tensor([0.0, 3.0, -4.0])\nH = {how}\nprint(H.flatten().tolist())\n"
    assert run(text) == ["[-0.0, -4.0, 3.0, -4.0, -0.0, 0.0, 3.0, 0.0, 0.0]"]


@pytest.mark.parametrize("dim", [0, 1])
def test_cumprod_tangent_matches_finite_differences(dim: int) -> None:
    text = (
        "torch.manual_seed(1)\n"
        "x = torch.randn(3, 4, dtype=torch.float64)\nx[1, 2] = 0.0\nx[2, 0] = 0.0\n"
        "v = torch.randn(3, 4, dtype=torch.float64)\n"
        f"t = jvp(lambda a: torch.cumprod(a, {dim}), (x,), (v,))[1]\n"
        "print(t.flatten().tolist())\nprint(x.flatten().tolist())\nprint(v.flatten().tolist())\n"
    )
    t, x, v = (np.array(eval(s)) for s in run(text, "float64"))  # noqa: S307
    x, v = x.reshape(3, 4), v.reshape(3, 4)
    h = 1e-6
    fd = (np.cumprod(x + h * v, axis=dim) - np.cumprod(x - h * v, axis=dim)) / (2 * h)
    assert np.allclose(t, fd.flatten(), rtol=1e-7, atol=1e-9)
    assert not np.allclose(t * 1.001, fd.flatten(), rtol=1e-7, atol=1e-9)


def test_jacfwd_layout_is_pytorchs() -> None:
    # the sum of a Jacobian adds in its memory order: PyTorch's is the tangents' batch last
    text = (
        "torch.manual_seed(0)\nx = torch.randn(3, 4)\n"
        "J = jacfwd(lambda a: torch.cumprod(a, 1))(x)\n"
        "print(J.is_contiguous(), J.stride())\n"
    )
    assert run(text) == ["False (4, 1, 48, 12)"]


def test_forward_over_forward_at_a_zero_is_pytorchs() -> None:
    # PyTorch 2.13's cumprod_jvp differentiated by forward mode again (jacfwd of jvp) is not
    # the second derivative at the zero (its masks are constants of x): its column 3, as it
    # prints it (central differences give -11.946, 27.498, -23.43, ., -8.4945, -7.98)
    text = (
        "x = torch.tensor([1.5, -0.5, 0.7, 0.0, 2.0, 1.2], dtype=torch.float64)\n"
        "f = lambda t: torch.cumprod(t, 0).sum() * t.sum()\n"
        "rows = []\n"
        "for i in range(6):\n"
        "    v = torch.zeros_like(x)\n    v[i] = 1.0\n"
        "    rows.append(jacfwd(lambda t: jvp(f, (t,), (v,))[1])(x))\n"
        "print([round(r[3].item(), 10) for r in rows])\n"
    )
    assert run(text, "float64") == ["[-2.685, -0.285, -3.585, -5.67, -2.835, -2.835]"]
