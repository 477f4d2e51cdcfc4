"""torch.func.jacrev over two rows or more runs PyTorch's backward once, vmapped over the rows:
each saved forward tensor reaches its op's backward expanded to the rows' batch (stride 0), not
contiguous, so gelu's backward takes ATen's loop, not oneDNN's kernel (which a contiguous float32
input of two elements or more gets in an ordinary backward pass). gradcli's passes, one a row,
saw the contiguous input and printed oneDNN's last bits (explore79)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gradcli.lang.program import parse
from gradcli.ops import act32

XS = [-4.2, -1.3, -0.05, 0.0, 0.4, 1.7, 3.1, 7.5]


def run(text: str) -> str:
    src = "import torch\nimport torch.nn.functional as F\n" + text
    return "".join(parse(src, "t.py").run(dtype="float32").output).strip()


def floats(text: str) -> list[float]:
    return [float(v) for v in run(text).strip("[]").split(",")]


def test_jacrev_rows_take_atens_gelu_backward_loop() -> None:
    got = floats(f"x = torch.tensor({XS})\nprint(torch.func.jacrev(F.gelu)(x).diagonal().tolist())")
    x = np.array(XS, dtype=np.float32)
    aten = act32.gelu_backward(np.ones_like(x), x, "none")
    assert got == aten.tolist()


def test_a_single_row_keeps_the_ordinary_pass() -> None:
    # one output element: PyTorch's batch of one is contiguous, as gradcli's ordinary backward
    one = run(
        f"x = torch.tensor({XS})\n"
        "a = torch.func.jacrev(lambda t: F.gelu(t).sum())(x)\n"
        "y = x.clone().requires_grad_()\nF.gelu(y).sum().backward()\n"
        "print(torch.equal(a, y.grad))"
    )
    assert one == "True"


def test_the_flag_is_cleared_after_jacrev() -> None:
    got = run(
        f"x = torch.tensor({XS})\n"
        "torch.func.jacrev(F.gelu)(x)\n"
        "y = x.clone().requires_grad_()\nF.gelu(y).sum().backward()\n"
        "print(y.grad.tolist())"
    )
    from gradcli.core.tensor import _GradMode

    assert _GradMode.rows_expanded is False
    assert got  # the ordinary pass ran after it


def test_float64_rows_match_central_differences() -> None:
    got = floats(
        f"x = torch.tensor({XS}, dtype=torch.float64)\n"
        "print(torch.func.jacrev(F.gelu)(x).diagonal().tolist())"
    )

    def gelu(z: float) -> float:
        return z * 0.5 * (1 + math.erf(z * math.sqrt(0.5)))

    h = 1e-6
    for z, v in zip(XS, got):
        assert v == pytest.approx((gelu(z + h) - gelu(z - h)) / (2 * h), rel=1e-8, abs=1e-10)
