"""float64 sqrt, tanh, exp and atan in the `avx2` and `zen4` kernel families are an AMD machine's
PyTorch's to the bit: MKL runs its generic SSE vdSqrt / vdTanh / vdExp / vdAtan there, which
`gradcli.core.amd64` emulates. Recorded with torch 2.13 on an AMD EPYC (Zen 4;
tests/ops/data/record_amd64.py): the SHA-256 of the output bits for 2**16 inputs per op
(tests/ops/amd64_inputs.py, made by integer arithmetic), and a sample of the bits to show where
a difference lies. A live cross-check on fresh inputs runs where torch is installed on such a
machine."""

from __future__ import annotations

import base64
import hashlib
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import gradcli
from gradcli.core import amd64, cpu
from gradcli.surface import names  # noqa: F401 - installs the tensor methods

from .amd64_inputs import N, canonical_bits, inputs

DATA = json.loads((Path(__file__).parent / "data" / "amd64_bits.json").read_text())
OPS = ("sqrt", "tanh", "exp", "atan")


def _check(op: str, bits: np.ndarray) -> str | None:
    """None when `bits` (the outputs for inputs(op)) are the recorded ones, else what differs."""
    want = np.frombuffer(base64.b64decode(DATA[op]["sample"]), "<u8")
    differ = np.nonzero(np.concatenate([bits[:128], bits[::256]]) != want)[0]
    if differ.size:
        where = np.concatenate([np.arange(128), np.arange(0, N, 256)])[differ[:5]]
        return f"{op}: inputs {inputs(op)[where]} give other bits"
    if hashlib.sha256(bits.tobytes()).hexdigest() != DATA[op]["sha256"]:
        return f"{op}: other bits outside the sample"
    return None


@pytest.fixture(params=["avx2", "zen4"])
def amd(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    monkeypatch.setenv(cpu.ENV, request.param)


@pytest.mark.parametrize("op", OPS)
def test_recorded_bits(op: str, amd: None) -> None:
    with np.errstate(all="ignore"):
        got = canonical_bits(getattr(gradcli.Tensor(inputs(op)), op)().numpy())
    assert _check(op, got) is None, _check(op, got)


@pytest.mark.parametrize("op", OPS)
def test_the_record_tells_models_apart(op: str) -> None:
    x = inputs(op)
    with np.errstate(all="ignore"):
        bits = canonical_bits(getattr(amd64, op)(x))
        numpy_bits = canonical_bits(getattr(np, op)(x))
    assert _check(op, bits) is None
    for i in (7, N // 2 + 1234, N - 30):  # one result one ulp off, in the sample or not
        off = bits.copy()
        off[i] += 1
        assert _check(op, off) is not None
    assert _check(op, numpy_bits) is not None  # (NumPy's own values are not PyTorch's here)


@pytest.mark.parametrize("op", OPS)
def test_sizes_and_layouts(op: str, amd: None) -> None:
    """Element by element, whatever the size, strides or layout."""
    x = inputs(op)[N // 2 : N // 2 + 24 * 11].reshape(24, 11)
    want = getattr(amd64, op)(x)
    t = gradcli.Tensor(x)
    for view, ref in (
        (t, want),
        (t.t(), want.T),
        (t[::3, 1::2], want[::3, 1::2]),
        (t[5, 7], want[5, 7]),
    ):
        got = getattr(view, op)().numpy()
        assert got.shape == np.shape(ref)
        assert np.array_equal(canonical_bits(got), canonical_bits(ref))
    for n in range(1, 6):
        got = getattr(gradcli.Tensor(x.reshape(-1)[:n]), op)().numpy()
        assert np.array_equal(canonical_bits(got), canonical_bits(want.reshape(-1)[:n]))


def test_pow_half_backward_and_families(monkeypatch: pytest.MonkeyPatch) -> None:
    """`x ** 0.5` is the sqrt kernel; the gradients use the forward's results; the avx512
    family keeps its own models."""
    monkeypatch.setenv(cpu.ENV, "zen4")
    x = inputs("sqrt")[N // 2 : N // 2 + 300].copy()
    root = amd64.sqrt(x)
    leaf = gradcli.Tensor(x, requires_grad=True)
    assert np.array_equal((leaf**0.5).detach().numpy(), root)
    leaf.sqrt().sum().backward()
    with np.errstate(divide="ignore"):
        assert np.array_equal(leaf.grad.numpy(), 1.0 / (root * 2.0))
    z = inputs("tanh")[N // 2 : N // 2 + 300].copy()
    leaf = gradcli.Tensor(z, requires_grad=True)
    leaf.tanh().sum().backward()
    y = amd64.tanh(z)  # tanh_backward: 1 - y*y rounded once (a fused multiply-add)
    assert np.array_equal(leaf.grad.numpy(), [float(1 - Fraction(v) ** 2) for v in y])
    zen4 = gradcli.Tensor(z).tanh().numpy()
    monkeypatch.setenv(cpu.ENV, "avx512")
    assert np.array_equal(gradcli.Tensor(z).tanh().numpy(), np.tanh(z))
    assert not np.array_equal(zen4, np.tanh(z))  # (the families differ on these inputs)


def test_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    if cpu._detected() not in ("avx2", "zen4"):
        pytest.skip("PyTorch's bits here are not an AMD machine's")
    torch.set_num_threads(1)
    rng = np.random.default_rng()
    for op in OPS:
        x = rng.standard_normal(10**5) * 4
        spread = rng.integers(0, 2**64, 10**5, dtype=np.uint64).view(np.float64)
        for a in (np.abs(x) if op == "sqrt" else x, spread):
            with np.errstate(all="ignore"):
                want = canonical_bits(getattr(torch, op)(torch.from_numpy(a)).numpy())
                assert np.array_equal(canonical_bits(getattr(amd64, op)(a)), want), op
