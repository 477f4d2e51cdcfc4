"""float32 sqrt, exp, log and tanh in the `avx2` kernel family are this machine's PyTorch's to
the bit: on an AMD processor MKL runs its generic SSE kernels, which `gradcli.core.amd32`
emulates. Recorded with torch 2.13 on an AMD EPYC (tests/ops/data/record_amd32.py): the
SHA-256 of the output bits for 2**17 inputs per op (tests/ops/amd32_inputs.py, made by
integer arithmetic), and a sample of the bits to show where a difference lies. A live
cross-check on fresh inputs runs where torch is installed on such a machine."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

import gradcli
from gradcli.core import amd32, cpu, mkl32, vmlsqrt
from gradcli.surface import names  # noqa: F401 - installs the tensor methods

from .amd32_inputs import N, canonical_bits, inputs

DATA = json.loads((Path(__file__).parent / "data" / "amd32_bits.json").read_text())
OPS = ("sqrt", "exp", "log", "tanh")
AVX512 = {"sqrt": vmlsqrt.sqrt, "exp": mkl32.expf, "log": mkl32.logf, "tanh": mkl32.tanhf}


def _sample(bits: np.ndarray) -> np.ndarray:
    return np.concatenate([bits[:256], bits[::512]])


def _check(op: str, bits: np.ndarray) -> str | None:
    """None when `bits` (the outputs for inputs(op)) are the recorded ones, else what differs."""
    want = np.frombuffer(base64.b64decode(DATA[op]["sample"]), "<u4")
    differ = np.nonzero(_sample(bits) != want)[0]
    if differ.size:
        where = np.concatenate([np.arange(256), np.arange(0, N, 512)])[differ[:5]]
        return f"{op}: inputs {inputs(op)[where]} give other bits"
    if hashlib.sha256(bits.tobytes()).hexdigest() != DATA[op]["sha256"]:
        return f"{op}: other bits outside the sample"
    return None


@pytest.fixture
def avx2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")


@pytest.mark.parametrize("op", OPS)
def test_recorded_bits(op: str, avx2: None) -> None:
    x = inputs(op)
    got = canonical_bits(getattr(gradcli.Tensor(x), op)().numpy())
    assert _check(op, got) is None, _check(op, got)


@pytest.mark.parametrize("op", OPS)
def test_the_record_tells_models_apart(op: str) -> None:
    x = inputs(op)
    bits = canonical_bits(getattr(amd32, op + "f")(x))
    assert _check(op, bits) is None
    # one result one ulp off, in the sample or outside it, fails
    for i in (7, N // 2 + 12345, N - 20):
        off = bits.copy()
        off[i] += 1
        assert _check(op, off) is not None
    # neither the float64 value rounded once nor the AVX-512 kernel's bits pass
    with np.errstate(all="ignore"):
        rounded = canonical_bits(getattr(np, op)(x.astype(np.float64)))
        avx512 = canonical_bits(AVX512[op](x))
    assert _check(op, rounded) is not None
    assert _check(op, avx512) is not None


@pytest.mark.parametrize("op", OPS)
def test_sizes_and_layouts(op: str, avx2: None) -> None:
    """Element by element, whatever the size, strides or layout (ATen copies a strided input
    into a buffer for MKL; the kernel's tail is the same arithmetic)."""
    x = inputs(op)[N // 2 : N // 2 + 40 * 29].reshape(40, 29)
    want = getattr(amd32, op + "f")(x)
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
    flat = x.reshape(-1)
    for n in range(1, 41):
        got = getattr(gradcli.Tensor(flat[:n]), op)().numpy()
        assert np.array_equal(canonical_bits(got), canonical_bits(want.reshape(-1)[:n]))


def test_pow_half_and_backward(avx2: None) -> None:
    """`x ** 0.5` and `x.pow(0.5)` are ATen's sqrt kernel; sqrt's and tanh's backward use the
    forward's result (g / (2 sqrt x), g (1 - tanh**2)) in float32."""
    x = inputs("sqrt")[N // 2 : N // 2 + 500].copy()
    root = amd32.sqrtf(x)
    leaf = gradcli.Tensor(x, requires_grad=True)
    assert np.array_equal((leaf**0.5).detach().numpy(), root)
    assert np.array_equal(leaf.pow(0.5).detach().numpy(), root)
    leaf.sqrt().sum().backward()
    with np.errstate(divide="ignore"):  # (the root of 0)
        assert np.array_equal(leaf.grad.numpy(), np.float32(1) / (root * np.float32(2)))
    z = inputs("tanh")[N // 2 : N // 2 + 500].copy()
    leaf = gradcli.Tensor(z, requires_grad=True)
    leaf.tanh().sum().backward()
    y = amd32.tanhf(z).astype(np.float64)
    assert np.array_equal(leaf.grad.numpy(), (1 - y * y).astype(np.float32))  # one fused step


def test_avx512_family_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    x = inputs("exp")[N // 2 : N // 2 + 2000]
    monkeypatch.setenv(cpu.ENV, "avx512")
    avx512 = gradcli.Tensor(x).exp().numpy()
    monkeypatch.setenv(cpu.ENV, "avx2")
    assert np.array_equal(gradcli.Tensor(x).exp().numpy(), amd32.expf(x))
    assert not np.array_equal(avx512, amd32.expf(x))  # (the families differ on these inputs)


def test_live_against_torch(avx2: None) -> None:
    torch = pytest.importorskip("torch")
    if cpu._detected() != "avx2":
        pytest.skip("PyTorch's bits here are not the avx2 family's")
    torch.set_num_threads(1)
    rng = np.random.default_rng()
    for op in OPS:
        x = (rng.standard_normal(10**5) * 4).astype(np.float32)
        if op in ("sqrt", "log"):
            x = np.abs(x)
        spread = rng.integers(0, 2**32, 10**5, dtype=np.uint64).astype(np.uint32).view(np.float32)
        for a in (x, spread):
            want = canonical_bits(getattr(torch, op)(torch.from_numpy(a)).numpy())
            assert np.array_equal(canonical_bits(getattr(amd32, op + "f")(a)), want), op
