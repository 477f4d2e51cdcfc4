"""kl_div's target gradient is a sum of three terms (xlogy's two, the product's one). PyTorch
builds kl_div in C++, whose compiler records `target * input` before `xlogy(target, target)`,
so its engine runs xlogy's node first and adds the product's term last: the float32 bits
depend on that order. Recorded with torch 2.13 (tests/ops/data/record_kl_div_target.py) on an
AVX2 machine (the log-target form's exp is the CPU's kernel: run under the avx2 family); the
values themselves against central finite differences in float64."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu
from gradcli.core.tensor import Tensor
from gradcli.surface import (
    names,  # noqa: F401 - installs the tensor methods
)
from gradcli.surface import nnlosses as NL

BITS = json.loads((Path(__file__).parent / "data" / "kl_div_target_bits.json").read_text())
CASES = [(r, lt) for r in ("batchmean", "mean", "sum", "none") for lt in (False, True)]


def _draw() -> tuple:
    rng = np.random.default_rng(5)
    x = np.log(rng.dirichlet(np.ones(7), size=6)).astype(np.float32)
    t = rng.dirichlet(np.ones(7), size=6).astype(np.float32)
    return x, t


def _target_grad(x: np.ndarray, t: np.ndarray, red: str, lt: bool) -> np.ndarray:
    tt = Tensor(t, requires_grad=True)
    loss = NL.kl_div(Tensor(x), tt, reduction=red, log_target=lt)
    (loss.sum() if red == "none" else loss).backward()
    return tt.grad.data


@pytest.mark.filterwarnings("ignore:reduction")
@pytest.mark.parametrize(("red", "lt"), CASES)
def test_float32_target_gradient_is_pytorchs(red: str, lt: bool, monkeypatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    x, t = _draw()
    g = _target_grad(x, np.log(t) if lt else t, red, lt)
    assert g.dtype == np.float32
    assert g.reshape(-1).view(np.uint32).tolist() == BITS[f"{red}-{lt}"]


@pytest.mark.filterwarnings("ignore:reduction")
@pytest.mark.parametrize(("red", "lt"), CASES)
def test_target_gradient_matches_finite_differences(red: str, lt: bool) -> None:
    x, t = (a.astype(np.float64) for a in _draw())
    t = np.log(t) if lt else t
    g = _target_grad(x, t, red, lt)

    def f(tv: np.ndarray) -> float:
        loss = NL.kl_div(Tensor(x), Tensor(tv), reduction=red, log_target=lt)
        return float((loss.sum() if red == "none" else loss).data)

    h = 1e-6
    fd = np.zeros_like(t)
    for i in np.ndindex(t.shape):
        e = np.zeros_like(t)
        e[i] = h
        fd[i] = (f(t + e) - f(t - e)) / (2 * h)
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)
