"""Two float64 details of PyTorch's special functions (explore79).

ndtr (a composition, x * M_SQRT1_2 first), gelu's float64 kernels and log_ndtr multiply by
M_SQRT1_2, 0.7071067811865476, the correctly rounded 1/sqrt(2); gradcli used 1 / math.sqrt(2),
an ulp below, so float64 ndtr and gelu printed other last digits (value and gradient).

i1 / i1e's backward keeps x where `abs(x) > eps` and gives 1/2 elsewhere: NaN fails that test,
so its gradient is 1/2 (gradcli's `abs(x) <= eps` passed NaN through to NaN)."""

from __future__ import annotations

import math

import pytest

from gradcli.lang.program import parse

M_SQRT1_2 = 0.70710678118654752440  # C's constant, as PyTorch's kernels spell it
XS = [0.0, 1.0, -1.0, 0.3, -2.5, 4.0, 0.7]


def values(text: str) -> list[float]:
    got = "".join(parse("import torch\n" + text, "t.py").run(dtype="float32").output)
    return [float(v) for v in got.strip().strip("[]").split(",")]


def test_the_constant_is_the_correctly_rounded_one() -> None:
    assert M_SQRT1_2 == math.sqrt(0.5) != 1 / math.sqrt(2)


def ndtr(x: float) -> float:
    return (1 + math.erf(x * M_SQRT1_2)) * 0.5


def gelu(x: float) -> float:
    return x * 0.5 * (1 + math.erf(x * M_SQRT1_2))


@pytest.mark.parametrize("name,ref", [("torch.special.ndtr", ndtr), ("F.gelu", gelu)])
def test_float64_values_are_pytorchs_formula_with_m_sqrt1_2(name: str, ref) -> None:
    got = values(
        "import torch.nn.functional as F\n"
        f"print({name}(torch.tensor({XS}, dtype=torch.float64)).tolist())\n"
    )
    for x, v in zip(XS, got):
        # the same operations in the same order: equal to the bit
        assert v == ref(x), (x, v, ref(x))


@pytest.mark.parametrize("name,ref", [("torch.special.ndtr", ndtr), ("F.gelu", gelu)])
def test_float64_gradients_match_central_differences(name: str, ref) -> None:
    got = values(
        "import torch.nn.functional as F\n"
        f"x = torch.tensor({XS}, dtype=torch.float64, requires_grad=True)\n"
        f"{name}(x).sum().backward()\n"
        "print(x.grad.tolist())\n"
    )
    h = 1e-6
    for x, v in zip(XS, got):
        fd = (ref(x + h) - ref(x - h)) / (2 * h)
        assert v == pytest.approx(fd, rel=1e-8, abs=1e-12), (x, v, fd)


def test_ndtr_gradient_at_zero_is_1_over_sqrt_2pi_as_pytorch_rounds_it() -> None:
    # erf's rule 2/sqrt(pi) * exp(-t^2) (1 at t = 0), times the 1/2 and the M_SQRT1_2 of the
    # composition's multiplications, in the order backward meets them
    got = values(
        "x = torch.zeros(1, dtype=torch.float64, requires_grad=True)\n"
        "torch.special.ndtr(x).sum().backward()\nprint(x.grad.tolist())\n"
    )
    assert got == [(2 / math.sqrt(math.pi)) * 0.5 * M_SQRT1_2]


@pytest.mark.parametrize("fn", ["i1", "i1e"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_i1_gradient_at_nan_is_one_half_like_at_zero(fn: str, dtype: str) -> None:
    got = values(
        f"x = torch.tensor([float('nan'), 0.0, 2.0], dtype=torch.{dtype}, requires_grad=True)\n"
        f"torch.special.{fn}(x).backward(torch.tensor([1.0, -2.0, 1.0], dtype=torch.{dtype}))\n"
        "print(x.grad.tolist())\n"
    )
    assert got[0] == 0.5 and got[1] == -1.0
    # off the edge: the derivative, against central differences of the value
    h = 1e-4
    vals = values(
        f"print(torch.special.{fn}(torch.tensor([2.0 + {h}, 2.0 - {h}], "
        "dtype=torch.float64)).tolist())\n"
    )
    assert got[2] == pytest.approx((vals[0] - vals[1]) / (2 * h), rel=1e-5)
