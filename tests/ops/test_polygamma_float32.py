"""polygamma(n >= 2) and zeta in float32 as ATen's scalar float kernels compute them, and
their values at +-inf (explore125).

ATen's float `zeta` sums in double (the CPU accumulate type) but takes its first term q^-s
as std::pow of two floats (the C library's powf); float polygamma(n >= 2) is that zeta rounded
to float times n! computed as expf(lgammaf(n + 1)), in float. gradcli rounded the float64
result once, a last bit away for some inputs. At q = +inf gradcli counted -q terms for its
direct sums' limit and raised Python's OverflowError as a user error; PyTorch gives nan."""

from __future__ import annotations

import math

import pytest

from gradcli.lang.program import parse


def values(text: str, dtype: str = "float32") -> list[float]:
    out = "".join(parse("import torch\n" + text, "t.py").run(dtype=dtype).output)
    return [float(v) for v in out.strip().strip("[]").split(",")]


X = "torch.tensor([-2.5, -0.3, 0.7, 5.5, -7.25])"

# PyTorch 2.13's float32 results (recorded), bit for bit as float32 values
RECORDED = {
    2: [
        -0.10820404440164566,
        67.63907623291016,
        -6.434993267059326,
        -0.039608947932720184,
        124.00852966308594,
    ],
    3: [
        194.74789428710938,
        766.6198120117188,
        25.879150390625,
        0.015690593048930168,
        1558.541259765625,
    ],
    5: [15382.140625, 165634.359375, 1025.3284912109375, 0.0073189809918403625, 492231.3125],
}


@pytest.mark.parametrize("n", sorted(RECORDED))
def test_float32_polygamma_bits(n: int) -> None:
    assert values(f"print(torch.polygamma({n}, {X}).tolist())") == RECORDED[n]


def test_float32_zeta_bits() -> None:
    got = values(
        "print(torch.special.zeta(torch.full((3,), 3.0), torch.tensor([1.5, 9.0, -2.5])).tolist())"
    )
    assert got == [0.41439831256866455, 0.006896659731864929, 0.05410202220082283]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_infinities(dtype: str) -> None:
    t = "torch.tensor([float('inf'), -float('inf'), 2.0])"
    for n in (2, 3):
        got = values(f"print(torch.polygamma({n}, {t}).tolist())", dtype)
        assert math.isnan(got[0]) and got[1] == (-math.inf if n % 2 == 0 else math.inf)
    z = values(f"print(torch.special.zeta(torch.full((3,), 2.0), {t}).tolist())", dtype)
    assert math.isnan(z[0]) and z[1] == math.inf
    assert z[2] == pytest.approx(math.pi**2 / 6 - 1, rel=1e-6)


def test_third_derivative_against_differences() -> None:
    # d/dx polygamma(2, x) = polygamma(3, x): central differences in float64
    text = (
        "x = torch.tensor([0.8, 2.6], dtype=torch.float64, requires_grad=True)\n"
        "torch.polygamma(2, x).sum().backward()\n"
        "h = 1e-5\n"
        "fd = (torch.polygamma(2, x.detach() + h) - torch.polygamma(2, x.detach() - h)) / (2 * h)\n"
        "print((x.grad - fd).abs().max().item() < 1e-5 * fd.abs().max().item(), end='')\n"
    )
    out = "".join(parse("import torch\n" + text, "t.py").run(dtype="float64").output)
    assert out == "True"
