"""silu's and mish's tangents in forward mode (torch.func.jvp, jacfwd, forward_ad) are PyTorch's
differentiable backward forms, `grad * s * (1 + x * (1 - s))` and `grad * (t + x * s * (1 -
t * t))` with s = sigmoid(x), t = tanh(log1p(exp(x))): their rule where grad mode is on, as it is
in those transforms (explore79). gradcli took the float32 first-order kernel there, whose
roundings differ in the last bits. Checked against the same composite written in the program,
and, in float64, against central differences."""

from __future__ import annotations

import math

import pytest

from gradcli.lang.program import parse

SETUP = (
    "import torch\nimport torch.nn.functional as F\n"
    "import torch.autograd.forward_ad as fwAD\n"
    "torch.manual_seed(0)\nx = torch.randn(37) * 3\nv = torch.randn(37)\n"
    "s = x.sigmoid()\nt = x.exp().log1p().tanh()\n"
)
RULE = {"silu": "v * s * (1 + x * (1 - s))", "mish": "v * (t + x * s * (1 - t * t))"}


def run(text: str) -> str:
    return "".join(parse(SETUP + text, "t.py").run(dtype="float32").output).strip()


@pytest.mark.parametrize("fn", ["silu", "mish"])
@pytest.mark.parametrize(
    "how",
    [
        "a = torch.func.jvp(F.{fn}, (x,), (v,))[1]",
        "v = torch.ones(37)\na = torch.func.jacfwd(F.{fn})(x).diagonal()",
        "with fwAD.dual_level():\n    a = fwAD.unpack_dual(F.{fn}(fwAD.make_dual(x, v))).tangent",
    ],
)
def test_tangent_is_the_differentiable_rule_to_the_bit(fn: str, how: str) -> None:
    got = run(f"{how.format(fn=fn)}\nb = {RULE[fn]}\nprint(torch.equal(a, b))")
    assert got == "True", got


@pytest.mark.parametrize("fn", ["silu", "mish"])
def test_float64_tangent_matches_central_differences(fn: str) -> None:
    xs = [-3.0, -0.5, 0.0, 0.7, 2.5]
    got = run(
        f"x = torch.tensor({xs}, dtype=torch.float64)\n"
        f"print(torch.func.jvp(F.{fn}, (x,), (torch.ones(5, dtype=torch.float64),))[1].tolist())"
    )
    vals = [float(v) for v in got.strip("[]").split(",")]

    def f(z: float) -> float:
        if fn == "silu":
            return z / (1 + math.exp(-z))
        return z * math.tanh(math.log1p(math.exp(z)))

    h = 1e-6
    for z, v in zip(xs, vals):
        assert v == pytest.approx((f(z + h) - f(z - h)) / (2 * h), rel=1e-8, abs=1e-10)
