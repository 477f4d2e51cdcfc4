"""torch.func's forward transforms and a Python float operand (PyTorch's "wrapped number"):
PyTorch 2.13's functorch takes the number as a 0-d float64 tensor in add/sub/mul/div's tangent
formula, so a 0-d float32 tangent becomes float64 (`core.forward._promoted`). The dtypes below
were measured with PyTorch 2.13 (CPU); the values are checked against central differences."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.helpers.programs import out

HEAD = "import torch\nfrom torch.func import jacfwd, jvp, hessian, grad\n"
HEAD += "x = torch.tensor([1.0, 2.0, 3.0])\n"

# (the function, PyTorch's dtype of jacfwd's result)
JACFWD_DTYPES = [
    ("lambda t: t[1] * 3.0", "float64"),
    ("lambda t: 3.0 * t[1]", "float64"),
    ("lambda t: t[1] + 3.0", "float64"),
    ("lambda t: t[1] - 3.0", "float64"),
    ("lambda t: t[1] / 3.0", "float64"),
    ("lambda t: 3.0 / t[1]", "float64"),
    ("lambda t: torch.mul(t[1], 3.0)", "float64"),
    ("lambda t: t[1].div(3.0)", "float64"),
    ("lambda t: torch.true_divide(t[1], 3.0)", "float64"),
    ("lambda t: t.sum() * 2.0", "float64"),
    ("lambda t: 0.5 * (t ** 2).sum()", "float64"),
    ("lambda t: torch.sin(t[0] * 2.0) + t[1]", "float64"),
    ("lambda t: torch.stack([t[0] * 2.0, t[1] * t[2]])", "float64"),
    ("lambda t: (t.sum() * 2.0).unsqueeze(0) + t", "float64"),
    # unchanged: an int, rsub, pow, a tensor operand, a dimensioned tangent, gradcli's own
    # compositions' numbers (lerp's weight, add's alpha)
    ("lambda t: t[1] * 3", "float32"),
    ("lambda t: 3.0 - t[1]", "float32"),
    ("lambda t: t[1] ** 2.0", "float32"),
    ("lambda t: t[1] * torch.tensor(3.0)", "float32"),
    ("lambda t: t * 3.0", "float32"),
    ("lambda t: (t[0] * 2.0) * t", "float32"),
    ("lambda t: t / t.sum() * 1.0", "float32"),
    ("lambda t: torch.tensor([1.0, 2.0]) * (t[0] * 2.0)", "float32"),
    ("lambda t: torch.lerp(t[1], torch.tensor(5.0), 0.3)", "float32"),
    ("lambda t: torch.add(t[1], t[0], alpha=2.0)", "float32"),
    ("lambda t: t[1].clamp(0.0, 1.5)", "float32"),
]


@pytest.mark.parametrize(("fn", "dtype"), JACFWD_DTYPES)
def test_jacfwd_dtype_is_pytorchs(fn: str, dtype: str) -> None:
    assert out(HEAD + f"print(jacfwd({fn})(x).dtype)\n") == f"torch.{dtype}\n"


def test_jvp_promotes_the_tangent_not_the_primal() -> None:
    got = out(
        HEAD + "o, t = jvp(lambda t: t.sum() * 2.0, (x,), (torch.ones(3),))\n"
        "print(o.dtype, t.dtype)\n"
    )
    assert got == "torch.float32 torch.float64\n"


@pytest.mark.parametrize(
    ("program", "dtype"),
    [
        # PyTorch keeps the number wrapped outside functorch, and hessian's jacrev runs its
        # backward under vmap (a batch dimension, which a 0-d float64 does not promote)
        ("print(hessian(lambda t: t[0] * 2.0 * t[1])(x).dtype)", "float32"),
        ("print(jacfwd(grad(lambda t: t[0] * 2.0 * t[1]))(x).dtype)", "float64"),
        ("print(jacfwd(grad(lambda t: t[0] ** 2 * 3.0))(x).dtype)", "float32"),
        (
            "print(torch.autograd.functional.jacobian(lambda t: t[1] * 3.0, x, "
            "strategy='forward-mode', vectorize=True).dtype)",
            "float32",
        ),
        (
            "import torch.autograd.forward_ad as fwAD\nwith fwAD.dual_level():\n"
            "    d = fwAD.make_dual(torch.tensor(2.0), torch.tensor(1.0))\n"
            "    print(fwAD.unpack_dual(d * 3.0).tangent.dtype)",
            "float32",
        ),
    ],
)
def test_other_transforms_keep_the_dtype_as_pytorch(program: str, dtype: str) -> None:
    assert out(HEAD + program + "\n") == f"torch.{dtype}\n"


def test_the_number_is_taken_as_the_primal_took_it() -> None:
    # PyTorch 2.13: 0.1 as float32, then float64 (0.1 itself would give 0.1)
    got = out(HEAD + "print(jacfwd(lambda t: t[1] * 0.1)(x)[1].item())\n")
    assert float(got) == 0.10000000149011612


def _central(f, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    cols = []
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = h
        cols.append((np.asarray(f(x + e)) - np.asarray(f(x - e))) / (2 * h))
    return np.stack(cols, axis=-1)


@pytest.mark.parametrize(
    ("fn", "ref"),
    [
        ("lambda t: torch.sin(t[0] * 2.0) * t[1]", lambda t: np.sin(t[0] * 2.0) * t[1]),
        ("lambda t: torch.exp(t.sum() / 3.0)", lambda t: np.exp(t.sum() / 3.0)),
        (
            "lambda t: torch.stack([t[0] ** 2 * 3.0, t[0] * t[1] - 0.5])",
            lambda t: np.array([t[0] ** 2 * 3.0, t[0] * t[1] - 0.5]),
        ),
    ],
)
def test_promoted_values_match_central_differences(fn: str, ref) -> None:
    got = out(HEAD + f"j = jacfwd({fn})(x)\nprint(j.dtype)\nprint(j.tolist())\n")
    dtype, values = got.splitlines()
    assert dtype == "torch.float64"
    want = _central(ref, np.array([1.0, 2.0, 3.0]))
    # float32 primals inside: good to float32's precision, and a rule 0.1% off fails
    np.testing.assert_allclose(np.array(json.loads(values)), want, rtol=2e-6, atol=2e-6)
    assert not np.allclose(np.array(json.loads(values)) * 1.001, want, rtol=2e-6, atol=2e-6)
