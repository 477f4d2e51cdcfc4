"""glu's float32 gradients are PyTorch's to the bit: the reverse rule is ATen's glu_backward
kernel (the gradient of b rounded as ((1 - s) * s * a) * g, s = sigmoid(b)), the forward-mode
tangent its glu_jvp kernel (products fused into FMAs as its build does). Recorded with torch
2.13 (tests/ops/data/record_glu.py) on cases whose loops split alike on AVX2 and AVX512 builds;
values against finite differences are tests/ops/test_ops.py's and test_dual.py's (glu and
glu_backward are records with samples)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import gradcli
from gradcli.core import dual
from gradcli.core.tensor import Tensor, no_grad
from gradcli.ops import act32
from gradcli.ops.activation import _glu_backward_fwd
from gradcli.surface import nnfunctional as N

DATA = json.loads((Path(__file__).parent / "data" / "glu_bits.json").read_text())
CASES = [((3, 8), 1), ((2, 64), 1), ((6, 5), 0)]


def _draw(shape: tuple, seed: int) -> np.ndarray:
    rng = np.random.default_rng([*shape, seed])
    return (rng.standard_normal(shape) * 2).astype(np.float32)


def _inputs(shape: tuple, dim: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    half = list(shape)
    half[dim] //= 2
    return _draw(shape, 1), _draw(shape, 2), _draw(tuple(half), 3)


def _bits(a: np.ndarray) -> list[int]:
    return [int(b) for b in np.asarray(a, dtype=np.float32).reshape(-1).view(np.uint32)]


@pytest.mark.parametrize("shape, dim", CASES)
def test_glu_gradient_is_pytorchs_bits(shape: tuple, dim: int) -> None:
    x, _, g = _inputs(shape, dim)
    leaf = gradcli.Tensor(x, requires_grad=True)
    y = N.glu(leaf, dim)
    assert y.grad_fn.name() == "GluBackward0"
    y.backward(gradcli.Tensor(g))
    assert _bits(leaf.grad.numpy()) == DATA[f"{shape}/{dim}"]["grad"]


@pytest.mark.parametrize("shape, dim", CASES)
def test_glu_tangent_is_pytorchs_bits(shape: tuple, dim: int) -> None:
    x, t, _ = _inputs(shape, dim)
    lvl = dual.enter()
    try:
        d = Tensor(x.copy())
        dual.set_tangent(d, Tensor(t))
        with no_grad():
            y = N.glu(d, dim)
        tangent = dual.tangent(y)
    finally:
        dual.leave(lvl)
    assert _bits(tangent.data) == DATA[f"{shape}/{dim}"]["tangent"]


def test_the_composed_orders_would_fail() -> None:
    # The gradient of b as mul and sigmoid compose it, (g * a) * (1 - s) * s, and the tangent
    # without FMAs: both leave PyTorch's bits on these cases, so the tests above can fail.
    grad_off = tangent_off = 0
    for shape, dim in CASES:
        x, t, g = _inputs(shape, dim)
        a, b = np.split(x, 2, axis=dim)
        s = act32.sigmoid(np.ascontiguousarray(b))
        composed = np.concatenate([s * g, ((g * a) * (1 - s)) * s], axis=dim)
        assert _bits(_glu_backward_fwd(g, x, dim=dim - x.ndim)) == DATA[f"{shape}/{dim}"]["grad"]
        grad_off += _bits(composed) != DATA[f"{shape}/{dim}"]["grad"]
        da, db = np.split(t, 2, axis=dim)
        plain = da * s + (a * s) * (db - s * db)
        tangent_off += _bits(plain) != DATA[f"{shape}/{dim}"]["tangent"]
    assert grad_off and tangent_off


def test_glu_second_order_matches_finite_differences() -> None:
    # double backward through GluBackwardBackward0: d/dx of <glu_backward(g, x), w>, float64
    rng = np.random.default_rng(5)
    x, g, w = rng.standard_normal((3, 6)), rng.standard_normal((3, 3)), rng.standard_normal((3, 6))
    leaf = gradcli.Tensor(x, requires_grad=True)
    gt = gradcli.Tensor(g, requires_grad=True)
    (gx,) = gradcli.grad(N.glu(leaf, 1), leaf, gt, create_graph=True)
    assert gx.grad_fn.name() == "GluBackwardBackward0"
    hx, hg = gradcli.grad(gx, (leaf, gt), gradcli.Tensor(w))

    def f(xv: np.ndarray, gv: np.ndarray) -> float:
        return float(np.sum(_glu_backward_fwd(gv, xv, dim=-1) * w))

    h = 1e-6
    num_x = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = h
        num_x[i] = (f(x + e, g) - f(x - e, g)) / (2 * h)
    num_g = np.zeros_like(g)
    for i in np.ndindex(g.shape):
        e = np.zeros_like(g)
        e[i] = h
        num_g[i] = (f(x, g + e) - f(x, g - e)) / (2 * h)
    np.testing.assert_allclose(hx.numpy(), num_x, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(hg.numpy(), num_g, rtol=1e-6, atol=1e-8)
