"""binary_cross_entropy_with_logits with a pos_weight is one record (`ops.loss`) whose forward
and backward are ATen's, in ATen's order: the input's gradient ((q + 1) - t) sigmoid(x) - q,
q = p t, then times the upstream gradient, the weight, / n; the target's log_sigmoid(-x) -
log_sigmoid(x) p, the same way. The float32 bits below were printed by torch 2.13 on an AVX2
processor (gradcli's `avx2` kernel family: its float32 sigmoid is that machine's)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core import cpu
from gradcli.core.tensor import Tensor
from gradcli.surface.composite import binary_cross_entropy_with_logits as bcel

# torch 2.13 (AVX2): F.binary_cross_entropy_with_logits(x, t, w, pos_weight=p, reduction=...)
# of `_inputs()`, then backward(): the loss's bits, x.grad's and t.grad's (as uint32)
TORCH = {
    "mean": (
        0x3F1ACEB2,
        [3135996016, 1012445008, 968371266, 3148561344, 3172147680, 954390402, 1018106678]
        + [3132552325, 3095553346, 3164595101, 1014895170, 993548681, 1011846141, 3146619034]
        + [3155383293, 979016459, 1009921863, 991506430, 3150965115, 1018637031],
        [3166483930, 3180190366, 3142232477, 1019687856, 1045640834, 982383221, 3178661694]
        + [984048830, 3144687674, 1062836765, 3188568478, 989289138, 3171000737, 1001490507]
        + [1026266669, 3137272046, 3184912739, 1019235533, 1007045593, 3179532854],
    ),
    "sum": (
        0x4141825E,
        [3172151366, 1049062802, 1004943186, 3184921264, 3208112728, 990758577, 1054529540]
        + [3169104294, 3131244179, 3200769156, 1050594153, 1030123499, 1048688510, 3182493377]
        + [3191351548, 1015587047, 1046395673, 1027570686, 3187798509, 1055192481],
        [3203130193, 3216068933, 3179107332, 1056506012, 1082393105, 1018263826, 3214546055]
        + [1020345837, 3180729380, 1099432018, 3224444422, 1025153199, 3206679049, 1037953630]
        + [1062632376, 3172948885, 3221598686, 1055940608, 1042800335, 3215247044],
    ),
}


def _inputs(dtype=np.float32):
    rng = np.random.default_rng(11)
    x = (rng.standard_normal((4, 5)) * 3).astype(np.float32)
    t = rng.random((4, 5)).astype(np.float32)
    p = (rng.random(5) * 4).astype(np.float32)
    w = rng.random((4, 5)).astype(np.float32)
    return tuple(a.astype(dtype) for a in (x, t, p, w))


def _run(reduction: str, dtype=np.float32, pos_dtype=None):
    x, t, p, w = _inputs(dtype)
    xt, tt = Tensor(x, requires_grad=True), Tensor(t, requires_grad=True)
    p = p if pos_dtype is None else p.astype(pos_dtype)
    out = bcel(xt, tt, Tensor(w), pos_weight=Tensor(p), reduction=reduction)
    out.backward()
    return out, xt.grad.numpy(), tt.grad.numpy()


def _bits(a: np.ndarray) -> list[int]:
    return [int(v) for v in np.ascontiguousarray(a, np.float32).view(np.uint32).ravel()]


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_pytorchs_float32_bits(reduction: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    out, gx, gt = _run(reduction)
    loss, want_x, want_t = TORCH[reduction]
    assert out.dtype == np.float32 and _bits(out.numpy()) == [loss]
    assert _bits(gx) == want_x
    assert _bits(gt) == want_t
    assert out.node is not None and out.node.op.name == "binary_cross_entropy_with_logits"


def test_another_order_misses_the_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same gradient in the textbook order, (1 + (p - 1) t) sigmoid(x) - p t, (gradcli's
    composition before) misses several of PyTorch's bits: the recording tells the orders apart."""
    monkeypatch.setenv(cpu.ENV, "avx2")
    x, t, p, w = _inputs()
    s = Tensor(x).sigmoid().numpy()
    other = ((np.float32(1) + (p - np.float32(1)) * t) * s - p * t) * w / np.float32(x.size)
    misses = sum(a != b for a, b in zip(_bits(other), TORCH["mean"][1], strict=True))
    assert misses >= 3
    # and a gradient 0.1% off misses every one
    _, gx, _ = _run("mean")
    assert all(a != b for a, b in zip(_bits(gx * np.float32(1.001)), TORCH["mean"][1]))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_float64_gradients_against_finite_differences(reduction: str) -> None:
    x, t, p, w = _inputs(np.float64)
    g = np.random.default_rng(3).standard_normal(x.shape) if reduction == "none" else 1.0

    def loss(xa, ta):
        return float(
            np.sum(
                bcel(
                    Tensor(xa), Tensor(ta), Tensor(w), reduction=reduction, pos_weight=Tensor(p)
                ).numpy()
                * g
            )
        )

    xt, tt = Tensor(x, requires_grad=True), Tensor(t, requires_grad=True)
    out = bcel(xt, tt, Tensor(w), pos_weight=Tensor(p), reduction=reduction)
    (out * Tensor(np.asarray(g, np.float64))).sum().backward()
    h = 1e-6
    for a, got in ((0, xt.grad.numpy()), (1, tt.grad.numpy())):
        num = np.zeros(x.shape)
        for i in np.ndindex(x.shape):
            args = [x.copy(), t.copy()]
            args[a][i] += h
            up = loss(*args)
            args[a][i] -= 2 * h
            num[i] = (up - loss(*args)) / (2 * h)
        np.testing.assert_allclose(got, num, rtol=1e-6, atol=1e-8)


def test_a_float64_pos_weight_keeps_the_float32_loss(monkeypatch: pytest.MonkeyPatch) -> None:
    """ATen scales log_sigmoid(x) in place: a float64 pos_weight leaves the loss and the
    gradients float32 (PyTorch's dtype), computed wide and rounded once."""
    monkeypatch.setenv(cpu.ENV, "avx2")
    out, gx, gt = _run("sum", pos_dtype=np.float64)
    assert out.dtype == np.float32 and gx.dtype == np.float32 and gt.dtype == np.float32
    _, gx32, _ = _run("sum")
    assert np.allclose(gx, gx32, rtol=1e-6)
