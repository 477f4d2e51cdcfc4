"""The zen4 kernel family (gradcli.core.cpu: an AMD processor with AVX-512) takes, point by
point, the model of the library that computes it there: MKL's AVX2 code (exp: VML), ATen's
kernels whose avx2-family model was measured to hold on Zen 4 (prod, pdist, cdist, atan2,
addr, float16 rsqrt, huber_loss backward) and ATen's 16-lane softmax. PyTorch's bits
recorded on a Zen 4 EPYC with torch 2.13 (tests/ops/data/record_zen4_family.py, which draws
the inputs)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

import gradcli
from gradcli.core import cpu, mkl32
from gradcli.ops import binary, linalg, loss, matrices, reduction, softmax32

DATA = Path(__file__).parent / "data"
_spec = importlib.util.spec_from_file_location("record_zen4_family", DATA / "record_zen4_family.py")
REC = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(REC)
CASES = json.loads((DATA / "zen4_family.json").read_text())["cases"]


def gradcli_results(name: str) -> list[np.ndarray]:
    arrays = REC.inputs(name)
    if name == "prod":
        return [reduction._prod_fwd(x, -1) for x in arrays]
    if name == "pdist":
        return [matrices._pdist_fwd(x) for x in arrays]
    if name == "cdist":
        return [matrices._cdist_fwd(x[0], x[1]) for x in arrays]
    if name == "atan2":
        return [binary._atan2_fwd(x[0], x[1]) for x in arrays]
    if name == "addr":
        return [linalg._addr_fwd(x[:, 2:], x[:, 0], x[0, 2:], 0.7, 0.3) for x in arrays]
    if name == "rsqrt16":
        return [gradcli.Tensor(x).rsqrt().numpy() for x in arrays]
    if name == "huber_bwd":
        return [
            loss.huber_loss_backward.forward(x[2], x[0], x[1], "none", delta=0.7) for x in arrays
        ]
    if name == "exp":
        return [mkl32.expf(x) for x in arrays]
    return [softmax32.softmax32(x, 1, log=False) for x in arrays]


@pytest.mark.parametrize("name", REC.NAMES)
def test_zen4_gives_torchs_bits_there(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "zen4")
    assert REC.sha(gradcli_results(name)) == CASES[name]


@pytest.mark.parametrize(
    ("name", "other"),
    [("prod", "avx512"), ("pdist", "avx512"), ("cdist", "avx512"), ("atan2", "avx512")]
    + [
        ("addr", "avx512"),
        ("rsqrt16", "avx512"),
        ("huber_bwd", "avx512"),
        ("atan2", "avx2"),
        ("exp", "avx512"),
        ("softmax", "avx2"),
    ],
)
def test_the_other_familys_model_misses(
    name: str, other: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each point's choice matters: the other family's model gives other bits there."""
    monkeypatch.setenv(cpu.ENV, other)
    assert REC.sha(gradcli_results(name)) != CASES[name]


def test_one_ulp_off_in_one_place_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "zen4")
    got = gradcli_results("prod")
    got[40] = got[40].copy()
    got[40][1] = np.nextafter(got[40][1], np.float32(2))
    assert REC.sha(got) != CASES["prod"]


@pytest.mark.skipif(cpu._detected() != "zen4", reason="torch's bits here are another family's")
def test_live_against_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    monkeypatch.setenv(cpu.ENV, "zen4")
    for name in REC.NAMES:
        assert REC.sha(gradcli_results(name)) == REC.sha(REC.torch_results(name, torch)), name
