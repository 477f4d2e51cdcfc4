"""float64 and float32 lgamma, float64 expm1, log1p, sinh, cosh, atanh, exp2: SLEEF's, to the bit
(`gradcli.core.sleef64`, `core.sleef32.lgammaf`), on every kernel family: the outputs PyTorch
2.13 gave for 16,398 inputs each (tests/ops/data/record_sleef64.py: bit patterns over all
2**64, values over a range, poles, zeros, infinities, NaN; for float32 the same rounded), as
their SHA-256 and every 64th output's bits."""

from __future__ import annotations

import base64
import hashlib
import json
import math
from pathlib import Path

import numpy as np
import pytest

import gradcli
from gradcli.core import sleef64, specfun
from gradcli.surface import names  # noqa: F401 - installs the tensor methods

from .amd64_inputs import N, canonical_bits, inputs

DATA = json.loads((Path(__file__).parent / "data" / "sleef64_bits.json").read_text())


def _inputs() -> np.ndarray:
    x = inputs("lgamma")
    return np.concatenate([x[: 1 << 13], x[N // 2 : N // 2 + (1 << 13)], x[-14:]])


def _check(bits: np.ndarray) -> str | None:
    want = np.frombuffer(base64.b64decode(DATA["sample"]), "<u8")
    differ = np.nonzero(bits[::64] != want)[0]
    if differ.size:
        return f"inputs {_inputs()[differ[:5] * 64]} give other bits"
    if hashlib.sha256(bits.tobytes()).hexdigest() != DATA["sha256"]:
        return "other bits outside the sample"
    return None


@pytest.mark.parametrize("family", ["avx512", "zen4"])
def test_recorded_bits(family: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_KERNELS", family)
    got = canonical_bits(gradcli.Tensor(_inputs()).lgamma().numpy())
    assert _check(got) is None, _check(got)


def test_the_record_tells_models_apart() -> None:
    bits = canonical_bits(sleef64.lgamma(_inputs()))
    assert _check(bits) is None
    for i in (64 * 5, 64 * 200 + 3):  # one ulp off, in the sample or not
        off = bits.copy()
        off[i] += 1
        assert _check(off) is not None
    assert _check(canonical_bits(specfun.lgamma(_inputs()))) is not None  # (the C library's)


def test_values_shapes_and_gradient() -> None:
    """Close to log |Gamma| (math.lgamma), any shape; 0-d; the large-array path; the gradient
    is digamma's (finite differences of the emulation itself agree)."""
    x = inputs("lgamma")[N // 2 : N // 2 + 600].reshape(20, 30)
    got = sleef64.lgamma(x)
    want = np.array(
        [[math.lgamma(v) if v != round(v) or v > 0 else math.inf for v in r] for r in x]
    )
    assert np.allclose(got, want, rtol=1e-13, atol=1e-13)
    assert np.array_equal(gradcli.Tensor(x).t().lgamma().numpy(), got.T)
    assert sleef64.lgamma(np.array(4.0))[()] == math.log(6.0)
    big = np.linspace(0.5, 9.5, sleef64.EMULATED + 1)
    assert np.allclose(sleef64.lgamma(big), specfun.lgamma(big), rtol=1e-14)
    leaf = gradcli.Tensor(np.array([0.3, 2.5, 7.25, -1.5]), requires_grad=True)
    leaf.lgamma().sum().backward()
    h = 1e-6
    v = leaf.detach().numpy()
    fd = (sleef64.lgamma(v + h) - sleef64.lgamma(v - h)) / (2 * h)
    assert np.allclose(leaf.grad.numpy(), fd, rtol=1e-7)


def test_float32_recorded_bits() -> None:
    with np.errstate(all="ignore"):
        x = _inputs().astype(np.float32)
    with np.errstate(all="ignore"):
        got = gradcli.Tensor(x).lgamma().numpy()
    bits = got.view(np.uint32).copy()
    bits[np.isnan(got)] = 0x7FC00000
    want = np.frombuffer(base64.b64decode(DATA["float32"]["sample"]), "<u4")
    differ = np.nonzero(bits[::64] != want)[0]
    assert not differ.size, f"inputs {x[differ[:5] * 64]} give other bits"
    assert hashlib.sha256(bits.tobytes()).hexdigest() == DATA["float32"]["sha256"]
    with np.errstate(all="ignore"):
        rounded = np.float32(specfun.lgamma(x.astype(np.float64)))  # (the model before: not these)
    assert (
        hashlib.sha256(rounded.view(np.uint32).tobytes()).hexdigest() != DATA["float32"]["sha256"]
    )


@pytest.mark.parametrize("op", ["expm1", "log1p", "sinh", "cosh", "atanh", "exp2", "sigmoid"])
def test_expm1_log1p_recorded_bits(op: str) -> None:
    """float64 expm1 and log1p are SLEEF's too (ATen's vml::vexpm1 / vlog1p), sinh, cosh,
    atanh and exp2 on the whole vectors of 16 (the 14 last elements: the C library's), and
    sigmoid's exp (1 / (1 + exp(-x)))."""
    x = inputs(op)
    x = np.concatenate([x[: 1 << 13], x[N // 2 : N // 2 + (1 << 13)], x[-14:]])
    with np.errstate(all="ignore"):
        got = canonical_bits(getattr(gradcli.Tensor(x), op)().numpy())
        numpy_bits = canonical_bits(1 / (1 + np.exp(-x)) if op == "sigmoid" else getattr(np, op)(x))
    want = np.frombuffer(base64.b64decode(DATA[op]["sample"]), "<u8")
    differ = np.nonzero(got[::64] != want)[0]
    assert not differ.size, f"inputs {x[differ[:5] * 64]} give other bits"
    assert hashlib.sha256(got.tobytes()).hexdigest() == DATA[op]["sha256"]
    assert hashlib.sha256(numpy_bits.tobytes()).hexdigest() != DATA[op]["sha256"]
