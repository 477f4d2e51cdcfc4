"""float32 erf, erfc, atan, tan, log2, log10, asin, acos and exact gelu in the `avx2` kernel
family are this machine's PyTorch's to the bit: on an AMD processor MKL runs its generic SSE kernels
(`gradcli.core.mklsse32`) and oneDNN's JIT its AVX2 form of gelu (`core.onednn32`). Recorded
with torch 2.13 on an AMD EPYC (tests/ops/data/record_mklsse32.py): the SHA-256 of the output
bits for 2**15 inputs per op (tests/ops/mklsse32_inputs.py, made by integer arithmetic) and a
sample of the bits, to show where a difference lies. A live cross-check on fresh inputs runs
where torch is installed on such a machine."""

from __future__ import annotations

import base64
import hashlib
import json
import math
from pathlib import Path

import numpy as np
import pytest

import gradcli
from gradcli.core import cpu, mkl32, mklsse32, onednn32
from gradcli.surface import functional as F
from gradcli.surface import names  # noqa: F401 - installs the tensor methods

from .mklsse32_inputs import OPS, SAMPLE, N, canonical_bits, inputs

DATA = json.loads((Path(__file__).parent / "data" / "mklsse32_bits.json").read_text())
MODELS = {
    "erf": mklsse32.erff,
    "erfc": mklsse32.erfcf,
    "atan": mklsse32.atanf,
    "tan": mklsse32.tanf,
    "log2": mklsse32.log2f,
    "log10": mklsse32.log10f,
    "asin": mklsse32.asinf,
    "acos": mklsse32.acosf,
    "gelu": onednn32.gelu_fwd_avx2,
}
_ERF = np.vectorize(math.erf, otypes=[np.float64])
_ERFC = np.vectorize(math.erfc, otypes=[np.float64])
ROUNDED = {  # gradcli's AVX512 family: the float64 function rounded once (asin, acos: MKL's)
    "erf": _ERF,
    "erfc": _ERFC,
    "atan": np.arctan,
    "tan": np.tan,
    "log2": np.log2,
    "log10": np.log10,
    "asin": mkl32.asinf,
    "acos": mkl32.acosf,
}


def _check(op: str, bits: np.ndarray) -> str | None:
    """None when `bits` (the outputs for inputs(op)) are the recorded ones, else what differs."""
    want = np.frombuffer(base64.b64decode(DATA[op]["sample"]), "<u4")
    differ = np.nonzero(bits[SAMPLE] != want)[0]
    if differ.size:
        return f"{op}: inputs {inputs(op)[SAMPLE[differ[:5]]]} give other bits"
    if hashlib.sha256(bits.tobytes()).hexdigest() != DATA[op]["sha256"]:
        return f"{op}: other bits outside the sample"
    return None


def _run(op: str, t: gradcli.Tensor) -> gradcli.Tensor:
    return F.gelu(t) if op == "gelu" else getattr(t, op)()


@pytest.fixture
def avx2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")


@pytest.mark.parametrize("op", OPS)
def test_recorded_bits(op: str, avx2: None) -> None:
    got = canonical_bits(_run(op, gradcli.Tensor(inputs(op))).numpy())
    assert _check(op, got) is None, _check(op, got)


@pytest.mark.parametrize("op", OPS)
def test_the_record_tells_models_apart(op: str) -> None:
    x = inputs(op)
    bits = canonical_bits(MODELS[op](x))
    assert _check(op, bits) is None
    for i in (3, N // 2 + 4321, N - 30):  # one result one ulp off, in the sample or not
        off = bits.copy()
        off[i] += 1
        assert _check(op, off) is not None
    with np.errstate(all="ignore"):
        if op == "gelu":
            other = onednn32.gelu_fwd(x)
        elif op in ("asin", "acos"):
            other = ROUNDED[op](x)
        else:
            other = ROUNDED[op](x.astype(np.float64))
    assert _check(op, canonical_bits(other)) is not None  # the AVX512 family's model fails


@pytest.mark.parametrize("op", OPS)
def test_sizes_and_layouts(op: str, avx2: None) -> None:
    """Element by element whatever the size, strides or layout (ATen copies a strided input
    into a buffer for MKL); gelu's oneDNN path takes contiguous tensors of 2 or more."""
    x = inputs(op)[N // 2 : N // 2 + 40 * 29].reshape(40, 29)
    want = MODELS[op](x).reshape(x.shape)
    t = gradcli.Tensor(x)
    views = (
        [(t, want)]
        if op == "gelu"
        else [(t, want), (t.t(), want.T), (t[::3, 1::2], want[::3, 1::2])]
    )
    for view, ref in views:
        got = _run(op, view).numpy()
        assert np.array_equal(canonical_bits(got), canonical_bits(ref))
    flat = x.reshape(-1)
    for n in range(1 if op != "gelu" else 2, 41):
        got = _run(op, gradcli.Tensor(flat[:n])).numpy()
        assert np.array_equal(canonical_bits(got), canonical_bits(want.reshape(-1)[:n]))


def test_erf_backward_order(avx2: None) -> None:
    """derivatives.yaml: (2/sqrt(pi) * exp(-x**2)) * grad, in that order (float32 products)."""
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(300) * 2).astype(np.float32)
    g = (rng.standard_normal(300) * 3).astype(np.float32)
    for op, c in (("erf", 2 / math.sqrt(math.pi)), ("erfc", -2 / math.sqrt(math.pi))):
        leaf = gradcli.Tensor(x, requires_grad=True)
        getattr(leaf, op)().backward(gradcli.Tensor(g))
        e = gradcli.Tensor(-(x * x)).exp().numpy()
        assert np.array_equal(leaf.grad.numpy(), (e * np.float32(c)) * g), op


def test_rcpps_estimate() -> None:
    """AMD's estimate: 12 fraction bits, 1 - 2**-12 at 1, scaled by powers of two."""
    x = np.array([1.0, 1.5, 2.0, 0.25, 3.0, 1e-30, 1e30], np.float32)
    r = mklsse32.rcpps_estimate(x)
    assert r[0] == np.float32(1 - 2**-12) and r[2] == r[0] / 2 and r[3] == r[0] * 4
    assert np.all(np.abs(r * x.astype(np.float64) - 1) < 2**-11)
    assert np.all((r.view(np.uint32) & 0x7FF) == 0)


def test_avx512_family_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    x = inputs("tan")[N // 2 : N // 2 + 2000]
    monkeypatch.setenv(cpu.ENV, "avx512")
    assert np.array_equal(
        gradcli.Tensor(x).tan().numpy(), np.tan(x.astype(np.float64)).astype(np.float32)
    )
    monkeypatch.setenv(cpu.ENV, "avx2")
    assert np.array_equal(gradcli.Tensor(x).tan().numpy(), mklsse32.tanf(x))


def test_live_against_torch(avx2: None) -> None:
    torch = pytest.importorskip("torch")
    if cpu._detected() != "avx2":
        pytest.skip("PyTorch's bits here are not the avx2 family's")
    torch.set_num_threads(1)
    rng = np.random.default_rng()
    funcs = {op: getattr(torch, op, None) for op in OPS}
    funcs["gelu"] = torch.nn.functional.gelu
    for op in OPS:
        x = (rng.standard_normal(10**5) * 4).astype(np.float32)
        if op in ("log2", "log10"):
            x = np.abs(x)
        want = canonical_bits(funcs[op](torch.from_numpy(x)).numpy())
        assert np.array_equal(canonical_bits(MODELS[op](x)), want), op
