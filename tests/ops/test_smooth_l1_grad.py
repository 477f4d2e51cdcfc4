"""smooth_l1_loss's gradients are ATen's smooth_l1_loss_backward kernel (the vector loop's
(norm * clamp(d / beta, -1, 1)) * g, the scalar loop's (norm * d) * g / beta in double), the
target's the kernel with input and target swapped, so their float32 bits are PyTorch's with
any upstream gradient: recorded with torch 2.13 (tests/ops/data/record_smooth_l1.py) on sizes
whose loops split alike on AVX2 and AVX512 builds. Values against finite differences, second
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

DATA = json.loads((Path(__file__).parent / "data" / "smooth_l1_bits.json").read_text())
CASES = [((4, 33), "mean", 1.0), ((64, 10), "sum", 0.3), ((37,), "none", 2.0)]


def _draw(shape: tuple, seed: int) -> np.ndarray:
    rng = np.random.default_rng([*shape, seed])
    return (rng.standard_normal(shape) * 2).astype(np.float32)


def _bits(a: np.ndarray) -> list[int]:
    return [int(b) for b in np.asarray(a, dtype=np.float32).reshape(-1).view(np.uint32)]


def _grads(shape: tuple, reduction: str, beta: float) -> tuple:
    x = Tensor(_draw(shape, 1), requires_grad=True)
    t = Tensor(_draw(shape, 2), requires_grad=True)
    loss = NL.smooth_l1_loss(x, t, reduction=reduction, beta=beta)
    assert loss.grad_fn.name() == "SmoothL1LossBackward0"
    g = _draw(tuple(loss.shape), 3)
    loss.backward(Tensor(g))
    # the composition this replaced: g / n through where, (d * d * 0.5) / beta, sub
    d = x.data - t.data
    gl = g / np.float32(d.size) if reduction == "mean" else g
    inner = (((gl / np.float32(beta)) * np.float32(0.5)) * d) * 2
    composed = np.where(np.abs(d) < beta, inner, gl * np.sign(d)).astype(np.float32)
    return x.grad.data, t.grad.data, composed


@pytest.mark.parametrize("family", ["avx2", "avx512"])
@pytest.mark.parametrize("shape, reduction, beta", CASES)
def test_pytorchs_bits(shape, reduction, beta, family, monkeypatch) -> None:
    monkeypatch.setenv(cpu.ENV, family)
    gx, gt, _ = _grads(shape, reduction, beta)
    assert [_bits(gx), _bits(gt)] == DATA[f"{shape}/{reduction}"]


def test_the_composed_order_misses() -> None:
    off = 0
    for shape, reduction, beta in CASES:
        gx, _, composed = _grads(shape, reduction, beta)
        np.testing.assert_allclose(composed, gx, rtol=1e-5, atol=1e-7)
        off += _bits(composed) != DATA[f"{shape}/{reduction}"][0]
    assert off >= 2
