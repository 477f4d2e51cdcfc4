"""logcumsumexp's gradient is PyTorch's rule (FunctionsManual's logcumsumexp_backward: the
positive and negative parts of g through reversed logcumsumexps of log|g| - out), so its
float32 bits are PyTorch's: recorded with torch 2.13 on an AVX2 machine
(tests/ops/data/record_logcumsumexp.py), compared on the avx2 kernel family (whose exp and
log that machine's are). Values against finite differences, second order and forward mode
are tests/ops/test_ops.py's and test_dual.py's."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core import cpu
from gradcli.core.op import apply
from gradcli.core.tensor import Tensor
from gradcli.ops import scan

DATA = json.loads((Path(__file__).parent / "data" / "logcumsumexp_bits.json").read_text())
CASES = [((3, 40), 1), ((20, 3), 0), ((37,), 0)]


def _draw(shape: tuple, seed: int) -> np.ndarray:
    rng = np.random.default_rng([*shape, seed])
    v = rng.standard_normal(shape) * 2
    return np.where(rng.random(shape) < 0.1, 0.0, v).astype(np.float32) if seed == 2 else v


def _bits(a: np.ndarray) -> list[int]:
    return [int(b) for b in np.asarray(a, dtype=np.float32).reshape(-1).view(np.uint32)]


def _grad(shape: tuple, dim: int) -> tuple[np.ndarray, np.ndarray]:
    x = Tensor(_draw(shape, 1).astype(np.float32), requires_grad=True)
    g = Tensor(_draw(shape, 2))
    out = apply(scan.logcumsumexp, x, dim=dim)
    out.backward(g)
    old = scan._lcse_vjp_sum(g, out, Tensor(x.data), dim)[0]
    return x.grad.data, old.data


@pytest.mark.parametrize("shape, dim", CASES)
def test_pytorchs_bits_on_avx2(shape: tuple, dim: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    got, _ = _grad(shape, dim)
    assert _bits(got) == DATA[f"{shape}/{dim}"]


def test_the_closed_form_misses(monkeypatch: pytest.MonkeyPatch) -> None:
    # the rule this replaced (exp(x - m) * reversed cumsum(g * exp(m - out))): the same values
    # to float32's precision, other bits, so the test above can fail
    monkeypatch.setenv(cpu.ENV, "avx2")
    off = 0
    for shape, dim in CASES:
        got, old = _grad(shape, dim)
        np.testing.assert_allclose(old, got, rtol=1e-4, atol=1e-6)
        off += _bits(old) != DATA[f"{shape}/{dim}"]
    assert off == len(CASES)
