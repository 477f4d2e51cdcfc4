"""PyTorch's zero tensors in second derivatives, where they decide the sign of a zero.

Reverse mode: sgn's derivative of a real input is a ZeroTensor (`_efficientzerotensor`), which
the engine's buffer does not add: a gradient arriving after it replaces it (a -0. stays -0.),
one arriving before it is added to a materialized +0. It stays a ZeroTensor through the
formulas of mul, div, add, exp, sum, views (their kernels keep it), not through neg, slicing,
mean. Every second derivative through abs meets it (softsign, x * |x|, norms).

Forward mode: a backward kernel's forward formula (`tanh_backward(grad_output_t, output_p) +
...`) takes a missing tangent as zeros that the kernel materializes, so a Hessian by forward
over reverse (torch.func.hessian) adds a +0. term; threshold_backward's formula adds
`zeros_like(self_t)` always.

The signs expected are PyTorch 2.13's, recorded; the values are checked against central
differences in float64."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.lang.program import parse

HEAD = "import torch\nimport torch.nn.functional as F\n"


def _env(text: str, dtype: str = "float32") -> dict:
    return parse(HEAD + text, "t.py").run(dtype=dtype).env


def _signs(t) -> str:
    """'x' for a nonzero value, '0' for +0., '-' for -0., in row-major order."""
    a = np.asarray(t.data).ravel()
    return "".join("x" if v != 0 else ("-" if np.signbit(v) else "0") for v in a)


# (program text defining `h`, the signs PyTorch 2.13 printed)
REVERSE = [
    # softsign's second derivative at 0: the -0. of the quotient's path, sgn's zero not added
    (
        "x = torch.tensor([0.0], requires_grad=True)\n"
        "g, = torch.autograd.grad(F.softsign(x).sum(), x, create_graph=True)\n"
        "h, = torch.autograd.grad(g.sum(), x)\n",
        "-",
    ),
    (
        "x = torch.tensor([-0.0], requires_grad=True)\n"
        "g, = torch.autograd.grad(F.softsign(x).sum(), x, create_graph=True)\n"
        "h, = torch.autograd.grad(g.sum(), x)\n",
        "-",
    ),
    (
        "x = torch.tensor([0.5, -1.0, 2.0])\n"
        "h = torch.autograd.functional.hessian(lambda t: (t * t.abs()).sum(), x)\n",
        "x-00x00-x",
    ),
    (
        "x = torch.tensor([0.5, -1.0, 2.0])\n"
        "h = torch.autograd.functional.hessian(lambda t: (t.abs() + 1).log().sum(), x)\n",
        "x---x---x",
    ),
    # the ZeroTensor first, then a -0.: the -0. stays; the other order adds a +0.
    (
        "x = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)\n"
        "h, = torch.autograd.grad(((x * -1.0) * 0.0).sum() + x.sgn().sum(), x)\n",
        "---",
    ),
    (
        "x = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)\n"
        "h, = torch.autograd.grad(x.sgn().sum() + ((x * -1.0) * 0.0).sum(), x)\n",
        "000",
    ),
    # through abs's and mul's formulas it stays a ZeroTensor; through neg it does not
    (
        "x = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)\n"
        "h, = torch.autograd.grad(((x * -1.0) * 0.0).sum() + x.abs().sgn().sum(), x)\n",
        "---",
    ),
    (
        "x = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)\n"
        "c = torch.tensor([-1.0, 2.0, -3.0])\n"
        "h, = torch.autograd.grad(((x * -1.0) * 0.0).sum() + (x * c).sgn().sum(), x)\n",
        "---",
    ),
    (
        "x = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)\n"
        "h, = torch.autograd.grad(((x * -1.0) * 0.0).sum() + (x / 4.0).exp().sgn().sum(), x)\n",
        "---",
    ),
    # alone, it is zeros (+0.), whatever the formulas after it would give
    (
        "x = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)\n"
        "h, = torch.autograd.grad(x.abs().sgn().sum(), x)\n",
        "000",
    ),
    (
        "x = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)\n"
        "h, = torch.autograd.grad(x.sgn().sum() + ((x * -1.0) * 0.0).sum(), x)\n",
        "000",
    ),
    # torch.sign's derivative is zeros_like (added as any gradient)
    (
        "x = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)\n"
        "h, = torch.autograd.grad(((x * -1.0) * 0.0).sum() + x.sign().sum(), x)\n",
        "000",
    ),
]


@pytest.mark.parametrize(("text", "want"), REVERSE)
def test_reverse_mode_zero_tensor(text: str, want: str) -> None:
    assert _signs(_env(text)["h"]) == want


X7 = "x = torch.tensor([0.5, -1.0, 2.0, 0.0, -0.0, -4.0, 4.0])\n"
# torch.func.hessian (forward over reverse) of the sum of an activation, PyTorch's signs
FORWARD = [
    ("torch.tanh", "x0000000x0000000x00000000000000000000000x0000000x"),
    ("F.gelu", "x0000000x0000000x0000000x0000000x00-----x-000000x"),
    ("F.softplus", "x0000000x0000000x0000000x0000000x0000000x0000000x"),
    ("F.elu", "00000000x0000000000000000000000000000000x00000000"),
    ("F.logsigmoid", "x0000000x0000000x0000000x0000000x0000000x0000000x"),
    ("F.hardswish", "x0000000x0000000x0000000x0000000x0000000000000000"),
]


@pytest.mark.parametrize(("f", "want"), FORWARD)
def test_hessian_forward_over_reverse_materializes_missing_tangents(f: str, want: str) -> None:
    env = _env(X7 + f"h = torch.func.hessian(lambda t: {f}(t).sum())(x)\n")
    assert _signs(env["h"]) == want


def test_jacobians_of_tanh_keep_pytorchs_zero_signs() -> None:
    env = _env(
        "x = torch.tensor([0.5, -1.0, 2.0])\n"
        "a = torch.func.hessian(torch.tanh)(x)\n"
        "b = torch.func.jacfwd(torch.func.jacrev(F.gelu))(x)\n"
        "c = torch.autograd.functional.hessian(lambda t: torch.tanh(t).sum(), x,\n"
        "    vectorize=True, outer_jacobian_strategy='forward-mode')\n"
    )
    assert _signs(env["a"]) == "x" + "0" * 12 + "x" + "0" * 12 + "x"
    assert _signs(env["b"]) == "x" + "0" * 12 + "x" + "0" * 12 + "x"
    assert _signs(env["c"]) == "x000x000x"


def test_threshold_backward_tangent_adds_zeros_first() -> None:
    # relu(x)**2's gradient's tangent: a -0. tangent where relu is on becomes +0.
    env = _env(
        X7 + "v = torch.tensor([1.0, -1.0, 0.0, 1.0, -1.0, 0.0, -0.0])\n"
        "g = lambda t: (F.relu(t) ** 2).sum()\n"
        "_, t = torch.func.jvp(torch.func.grad(g), (x,), (v,))\n"
    )
    assert _signs(env["t"]) == "x000000"


@pytest.mark.parametrize(
    ("f", "fn"),
    [
        ("F.softsign(t)", lambda t: t / (1 + np.abs(t))),
        ("t * t.abs()", lambda t: t * np.abs(t)),
        ("F.gelu(t)", None),
        ("torch.tanh(t)", np.tanh),
    ],
)
def test_second_derivatives_match_central_differences(f: str, fn) -> None:
    env = _env(
        "x = torch.tensor([0.7, -1.3, 2.1, 0.3], dtype=torch.float64)\n"
        f"h = torch.func.hessian(lambda t: ({f}).sum())(x)\n"
        f"k = torch.autograd.functional.hessian(lambda t: ({f}).sum(), x)\n",
        dtype="float64",
    )
    if fn is None:
        from math import erf

        fn = np.vectorize(lambda v: 0.5 * v * (1 + erf(v / np.sqrt(2))))
    x = np.array([0.7, -1.3, 2.1, 0.3])
    eps = 1e-4
    d2 = (fn(x + eps) - 2 * fn(x) + fn(x - eps)) / eps**2
    for name in ("h", "k"):
        h = np.asarray(env[name].data)
        np.testing.assert_allclose(np.diag(h), d2, rtol=1e-5, atol=1e-6)
        assert not h[~np.eye(4, dtype=bool)].any()
