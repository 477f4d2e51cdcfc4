"""erfcx at the ends of the real line (explore79): PyTorch's calc_erfcx gives 0 at +inf and
inf at -inf (exp(x^2) erfc(x) grows without bound), so the gradient 2 x erfcx(x) - 2/sqrt(pi)
is -inf there; gradcli's exp(x^2) * erfc(x) form made inf * 2 at -inf into NaN through its
split square. Finite values against central differences in float64."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gradcli.core import specfun as SF
from gradcli.lang.program import parse


def floats(text: str) -> list[float]:
    got = "".join(parse("import torch\n" + text, "t.py").run(dtype="float32").output)
    return [float(v) for v in got.strip().strip("[]").split(",")]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_erfcx_is_inf_at_minus_inf_with_gradient_minus_inf(dtype: str) -> None:
    got = floats(
        "x = torch.tensor([float('-inf'), float('inf')], "
        f"dtype=torch.{dtype}, requires_grad=True)\n"
        "y = torch.special.erfcx(x)\ny.sum().backward()\n"
        "print(y.tolist() + x.grad.tolist())\n"
    )
    assert got[:2] == [math.inf, 0.0]
    assert got[2] == -math.inf
    assert math.isnan(got[3])  # +inf * 0 in 2 x erfcx(x): PyTorch's NaN as well


def test_finite_values_keep_their_derivative() -> None:
    xs = np.array([-5.0, -1.0, 0.0, 0.7, 3.0, 20.0])
    h = 1e-6
    fd = (SF.erfcx(xs + h) - SF.erfcx(xs - h)) / (2 * h)
    got = floats(
        f"x = torch.tensor({xs.tolist()}, dtype=torch.float64, requires_grad=True)\n"
        "torch.special.erfcx(x).sum().backward()\nprint(x.grad.tolist())\n"
    )
    assert got == pytest.approx(fd.tolist(), rel=1e-7)
