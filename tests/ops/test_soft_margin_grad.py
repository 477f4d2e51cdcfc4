"""soft_margin_loss's gradient is ATen's soft_margin_loss_backward step by step (z = exp(-t x);
t * z, times -norm, divided by z + 1, times g), so its float32 bits are PyTorch's: recorded
with torch 2.13 on an AVX2 machine (tests/ops/data/record_soft_margin.py), compared on the
avx2 kernel family (whose exp that machine's is). Values against finite differences, second
order and forward mode are tests/ops/test_ops.py's and test_dual.py's."""

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

DATA = json.loads((Path(__file__).parent / "data" / "soft_margin_bits.json").read_text())
CASES = [((4, 33), "mean"), ((64, 10), "sum"), ((37,), "none")]


def _draw(shape: tuple, seed: int) -> np.ndarray:
    rng = np.random.default_rng([*shape, seed])
    if seed == 2:
        return np.sign(rng.standard_normal(shape)).astype(np.float32)
    return (rng.standard_normal(shape) * 2).astype(np.float32)


def _bits(a: np.ndarray) -> list[int]:
    return [int(b) for b in np.asarray(a, dtype=np.float32).reshape(-1).view(np.uint32)]


def _grad(shape: tuple, reduction: str) -> tuple[np.ndarray, np.ndarray]:
    x = Tensor(_draw(shape, 1), requires_grad=True)
    t = _draw(shape, 2)
    loss = NL.soft_margin_loss(x, Tensor(t), reduction=reduction)
    assert loss.grad_fn.name() == "SoftMarginLossBackward0"
    g = _draw(tuple(loss.shape), 3)
    loss.backward(Tensor(g))
    # the composition this replaced: the chain rule through mean / sum, log1p, exp and mul
    z = np.exp(-x.data * t).astype(np.float32)
    n = np.float32(x.data.size if reduction == "mean" else 1)
    gl = (g / n).astype(np.float32) if reduction != "none" else g
    composed = ((gl / (1 + z)) * z) * -t
    return x.grad.data, composed.astype(np.float32)


@pytest.mark.parametrize("shape, reduction", CASES)
def test_pytorchs_bits_on_avx2(shape: tuple, reduction: str, monkeypatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    got, _ = _grad(shape, reduction)
    assert _bits(got) == DATA[f"{shape}/{reduction}"]


def test_a_composed_order_misses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    for shape, reduction in CASES:
        got, composed = _grad(shape, reduction)
        np.testing.assert_allclose(composed, got, rtol=1e-5, atol=1e-7)
        assert _bits(composed) != DATA[f"{shape}/{reduction}"]
