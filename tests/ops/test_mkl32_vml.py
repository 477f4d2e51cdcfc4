"""float32 exp, log, tanh, asin and acos are PyTorch's to the bit: MKL's VML (vmsExp... in the
high-accuracy mode, which ATen calls for every float32 size and layout) computes them in
float32 with fused multiply-adds, by the algorithms `gradcli.core.mkl32` follows. Recorded with
torch 2.13 (tests/ops/data/record_mkl32_vml.py): inputs over the whole range, most of them
where PyTorch's result is not the float64 value rounded once; a live cross-check on 10**5
inputs runs where torch is installed."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import pytest

import gradcli
from gradcli.core import mkl32
from gradcli.surface import names  # noqa: F401 - installs the tensor methods

DATA = json.loads((Path(__file__).parent / "data" / "mkl32_vml.json").read_text())
ROUNDED = {"exp": np.exp, "tanh": np.tanh, "asin": np.arcsin, "acos": np.arccos, "log": np.log}
OPS = list(ROUNDED)


def _f32(text: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype="<u4").astype(np.uint32).view(np.float32)


def _bits(a: np.ndarray) -> np.ndarray:
    return np.asarray(a, dtype=np.float32).reshape(-1).view(np.uint32)


@pytest.mark.parametrize("op", OPS)
def test_recorded_bits(op: str) -> None:
    case = DATA[op]
    x, want = _f32(case["x"]), _bits(_f32(case["y"]))
    got = _bits(getattr(gradcli.Tensor(x), op)().numpy())
    assert np.array_equal(got, want), x[got != want][:5]
    # the data tells MKL's kernel from the float64 value rounded once
    with np.errstate(all="ignore"):
        rounded = _bits(ROUNDED[op](x.astype(np.float64)).astype(np.float32))
    nan = np.isnan(rounded.view(np.float32)) & np.isnan(want.view(np.float32))
    assert np.count_nonzero((rounded != want) & ~nan) == case["differ_from_rounded"] >= 700


@pytest.mark.parametrize("op", OPS)
def test_shaped_result_and_gradient(op: str) -> None:
    rng = np.random.default_rng([7, len(op)])
    x = (rng.standard_normal((3, 67)) * 2).astype(np.float32)
    if op in ("asin", "acos"):
        x = np.tanh(x)
    elif op == "log":
        x = np.abs(x)
    g = rng.standard_normal((3, 67)).astype(np.float32)
    leaf = gradcli.Tensor(x, requires_grad=True)
    y = getattr(leaf, op)()
    y.backward(gradcli.Tensor(g))
    assert np.array_equal(_bits(y.numpy()), _bits(_f32(DATA[op]["shaped"]["y"])))
    assert np.array_equal(_bits(leaf.grad.numpy()), _bits(_f32(DATA[op]["shaped"]["grad"])))


def test_signs_and_specials() -> None:
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 89.0, -104.0], np.float32)
    e, t = mkl32.expf(x), mkl32.tanhf(x)
    assert list(e[:4]) == [1, 1, np.inf, 0] and np.isnan(e[4]) and e[7] == np.inf
    assert e[8] == np.float32(np.exp(-104.0))  # a subnormal, from the float64 path
    assert t[0] == 0 and not np.signbit(t[0]) and t[1] == 0 and np.signbit(t[1])
    assert list(t[2:4]) == [1, -1] and np.isnan(t[4]) and t[5] == x[5] and t[6] == x[6]


def test_asin_acos_edges() -> None:
    x = np.array([0.0, -0.0, 1.0, -1.0, 1.5, np.inf, np.nan, 1e-45, -1e-45], np.float32)
    s, c = mkl32.asinf(x), mkl32.acosf(x)
    assert s[0] == 0 and not np.signbit(s[0]) and s[1] == 0 and np.signbit(s[1])
    assert s[2] == np.float32(np.pi / 2) and s[3] == -s[2] and s[7] == x[7] and s[8] == x[8]
    assert c[2] == 0 and c[3] == np.float32(np.pi) and c[0] == np.float32(np.pi / 2)
    assert np.isnan(s[4:7]).all() and np.isnan(c[4:7]).all()


def test_log_edges() -> None:
    x = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-45, 3e38], np.float32)
    y = mkl32.logf(x)
    assert list(y[:3]) == [-np.inf, -np.inf, 0] and y[4] == np.inf and np.isnan(y[[3, 5, 6]]).all()
    assert y[7] == np.float32(np.log(np.float64(x[7]))) and y[8] == np.float32(
        np.log(np.float64(x[8]))
    )


def test_float64_unchanged() -> None:
    for op in OPS:
        x = np.linspace(-1, 1, 1001) if op in ("asin", "acos") else np.linspace(-30, 30, 1001)
        if op == "log":
            x = np.abs(x) + 1e-3
        assert np.array_equal(getattr(gradcli.Tensor(x), op)().numpy(), ROUNDED[op](x)), op


def test_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    rng = np.random.default_rng(2027)
    n = 10**5
    x = np.concatenate(
        [
            (rng.standard_normal(n) * rng.choice([0.1, 1.0, 10.0], n)).astype(np.float32),
            rng.integers(0, 2**32, n // 10, dtype=np.uint64).astype(np.uint32).view(np.float32),
        ]
    )
    for op in OPS:
        if op == "asin":
            x = np.concatenate([x, np.tanh(x[:n])])
        if op == "log":
            x = np.concatenate([x, np.abs(x[:n]), np.exp(-np.abs(x[:n]) * 9)])
        want = _bits(getattr(torch, op)(torch.tensor(x)).numpy())
        got = _bits(getattr(gradcli.Tensor(x), op)().numpy())
        assert np.count_nonzero((got != want) & ~np.isnan(x)) == 0, op  # any NaN is one
