"""On the avx2 kernel family (gradcli.core.cpu: PyTorch on an AVX2 processor without AVX-512,
measured on AMD EPYC), the float32 convolutions ATen runs as slow_conv2d or
slow_conv_dilated2d (im2col, then MKL's sgemm with the output set to the bias and beta = 1:
`conv_order.slow_conv`) take MKL's generic kernels (`gemm_avx2.mm`, the bias as C) and are
PyTorch's to the bit; so are grouped convs of 8k channels a group (jit:avx2's direct kernel,
`conv_order._avx2_direct`), forward and input gradient, and strided conv_transpose
(`conv_order.deconv_strided_avx2`), forward. Recorded there with torch 2.13
(tests/ops/data/record_avx2_slow_conv.py)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu
from gradcli.core.tensor import Tensor
from gradcli.ops import conv_order
from gradcli.surface import nnfunctional as NF

DATA = json.loads((Path(__file__).parent / "data" / "avx2_slow_conv.json").read_text())
CASES, GROUPED, DECONV = DATA["cases"], DATA["grouped"], DATA["deconv"]


def _draw(shape, seed):
    return np.random.default_rng([*shape, seed]).standard_normal(shape).astype(np.float32)


def _sha(a) -> str:
    return hashlib.sha256(np.ascontiguousarray(np.asarray(a)).tobytes()).hexdigest()


def _run(case: dict) -> np.ndarray:
    x, w = Tensor(_draw(case["x"], 1)), Tensor(_draw(case["w"], 2))
    b = Tensor(_draw(case["w"][:1], 3)) if case["bias"] else None
    conv = NF.conv1d if len(case["x"]) == 3 else NF.conv2d
    return conv(x, w, b, padding=case["pad"], dilation=case["dil"]).data


def _id(c: dict) -> str:
    return f"{c['x']}-{c['w']}-p{c['pad']}-d{c['dil']}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_pytorchs_bits_on_avx2(case: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    dims = len(case["x"]) - 2
    kind = conv_order.backend(
        tuple(case["x"]) if dims == 2 else (*case["x"][:2], 1, case["x"][2]),
        tuple(case["w"]) if dims == 2 else (*case["w"][:2], 1, case["w"][2]),
        (1, 1),
        (case["dil"],) * 2,
        1,
    )
    assert kind in ("slow", "dilated")
    y = _run(case)
    assert y.dtype == np.float32 and _sha(y) == case["y"]


def _grouped(case: dict) -> tuple[np.ndarray, np.ndarray]:
    x = Tensor(_draw(case["x"], 4), requires_grad=True)
    w = Tensor(_draw(case["w"], 5))
    b = Tensor(_draw(case["w"][:1], 6)) if case["bias"] else None
    conv = NF.conv1d if len(case["x"]) == 3 else NF.conv2d
    y = conv(x, w, b, padding=case["pad"], groups=case["groups"])
    y.backward(Tensor(_draw(list(y.shape), 7)))
    return y.data, x.grad.data


@pytest.mark.parametrize("case", GROUPED, ids=lambda c: f"{c['x']}-{c['w']}-g{c['groups']}")
def test_grouped_on_avx2(case: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    y, gx = _grouped(case)
    assert _sha(y) == case["y"] and _sha(gx) == case["gx"]


def test_grouped_differ_on_avx512(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx512")
    assert sum(_sha(_grouped(c)[0]) != c["y"] for c in GROUPED) >= 3


def _deconv(case: dict) -> tuple[np.ndarray, np.ndarray]:
    x, w = Tensor(_draw(case["x"], 8)), Tensor(_draw(case["w"], 9), requires_grad=True)
    b = Tensor(_draw(case["w"][1:2], 10)) if case["bias"] else None
    f = NF.conv_transpose1d if len(case["x"]) == 3 else NF.conv_transpose2d
    y = f(x, w, b, stride=case["stride"], padding=case["pad"])
    y.backward(Tensor(_draw(list(y.shape), 11)))
    return y.data, w.grad.data


@pytest.mark.parametrize("case", DECONV, ids=lambda c: f"{c['x']}-{c['w']}-s{c['stride']}")
def test_conv_transpose_on_avx2(case: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """Strided or of one sample: the forward; batched: the weight gradient too (one sample's
    is ATen's slow path, not mirrored)."""
    monkeypatch.setenv(cpu.ENV, "avx2")
    y, gw = _deconv(case)
    assert _sha(y) == case["y"]
    if case["x"][0] > 1:
        assert _sha(gw) == case["gw"]


def test_conv_transpose_differs_on_avx512(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx512")
    assert sum(_sha(_deconv(c)[0]) != c["y"] for c in DECONV) >= 3
    assert sum(_sha(_deconv(c)[1]) != c["gw"] for c in DECONV if c["x"][0] > 1) >= 3


def test_the_data_tells_the_families_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """MKL's AVX-512 orders (the avx512 family) miss several of the recordings."""
    monkeypatch.setenv(cpu.ENV, "avx512")
    assert sum(_sha(_run(c)) != c["y"] for c in CASES) >= 3


def test_one_ulp_off_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    y = _run(CASES[2])
    nudged = y.copy().reshape(-1)
    nudged[3] = np.nextafter(nudged[3], np.float32(10))
    assert _sha(y) == CASES[2]["y"] and _sha(nudged) != CASES[2]["y"]


@pytest.mark.skipif(cpu._detected() != "avx2", reason="torch's bits here are the avx2 family's")
def test_live_against_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    monkeypatch.setenv(cpu.ENV, "avx2")
    rng = np.random.default_rng()
    for _ in range(12):
        c, o = int(rng.integers(1, 9)), int(rng.integers(1, 21))
        k = int(rng.integers(1, 4))
        x = rng.standard_normal((1, c, int(rng.integers(3, 14)), int(rng.integers(3, 14))))
        w = rng.standard_normal((o, c, k, int(rng.integers(1, 4))))
        b = rng.standard_normal(o).astype(np.float32)
        x, w = x.astype(np.float32), w.astype(np.float32)
        want = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w),
                                          torch.from_numpy(b), padding=1)  # fmt: skip
        got = NF.conv2d(Tensor(x), Tensor(w), Tensor(b), padding=1)
        assert _sha(got.data) == _sha(want.numpy()), (x.shape, w.shape)
