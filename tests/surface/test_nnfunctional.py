"""The compositions of `surface.nnfunctional` / `nnlosses` (softsign, softmin, normalize, the
similarities, layer/group norm, pad, embedding, flip, the losses...): their gradients come from
the records they are written with, so each is checked as a whole here: the engine's VJP against
float64 central differences of the composition itself, the second order (the gradient of the
gradient) against differences of the first, and, where PyTorch is installed, values and
gradients against PyTorch's in float64.

The records themselves (elu, hardtanh, conv, max_pool, ...) are tested by tests/ops."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.autograd import grad
from gradcli.core.tensor import Tensor
from gradcli.ops import arithmetic as A
from gradcli.surface import composite as C
from gradcli.surface import functional as F
from gradcli.surface import losses as L
from gradcli.surface import nn as N
from gradcli.surface import nnfunctional as NF
from gradcli.surface import nnlosses as NL
from tests.helpers import gradcheck as gc

T0 = np.array([1.0, -1.0, 1.0, -1.0, 1.0, 1.0])  # +-1 targets
COUNTS = np.array([0.0, 1.0, 2.0, 5.0, 0.0, 3.5])  # Poisson targets
B0 = np.array([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])  # binary targets
W0 = np.array([1.0, 0.5, 2.0, 1.5])  # class weights
IDX = np.array([[0, 2], [3, 2]])
RM, RV = np.array([0.5, -1.0, 2.0]), np.array([1.5, 0.25, 4.0])  # running statistics


def _t(a: np.ndarray) -> Tensor:
    return Tensor(np.asarray(a))


# name -> (gradcli fn, input shapes, torch fn (torch, F, *tensors) or None, low, high)
CASES: dict[str, tuple[Callable[..., Tensor], tuple, Callable[..., Any] | None, float, float]] = {
    "softsign": (NF.softsign, ((2, 3),), lambda t, tf, x: tf.softsign(x), -3, 3),
    "softmin": (lambda x: NF.softmin(x, 1), ((2, 4),), lambda t, tf, x: tf.softmin(x, 1), -2, 2),
    "tanhshrink": (NF.tanhshrink, ((5,),), lambda t, tf, x: tf.tanhshrink(x), -2, 2),
    "glu": (lambda x: NF.glu(x, 0), ((4, 3),), lambda t, tf, x: tf.glu(x, 0), -2, 2),
    "selu": (NF.selu, ((2, 3),), lambda t, tf, x: tf.selu(x), -2, 2),
    "celu": (lambda x: NF.celu(x, 0.7), ((2, 3),), lambda t, tf, x: tf.celu(x, 0.7), -2, 2),
    "relu6": (NF.relu6, ((7,),), lambda t, tf, x: tf.relu6(x), -3, 8),
    "normalize": (
        lambda x: NF.normalize(x, dim=1),
        ((3, 4),),
        lambda t, tf, x: tf.normalize(x, dim=1),
        -2,
        2,
    ),
    "normalize_p1": (
        lambda x: NF.normalize(x, p=1, dim=0),
        ((3, 2),),
        lambda t, tf, x: tf.normalize(x, p=1, dim=0),
        0.1,
        2,
    ),
    "cosine_similarity": (
        NF.cosine_similarity,
        ((3, 4), (3, 4)),
        lambda t, tf, a, b: tf.cosine_similarity(a, b),
        -2,
        2,
    ),
    "cosine_similarity_bcast": (
        lambda a, b: NF.cosine_similarity(a, b, dim=-1),
        ((2, 1, 3), (4, 3)),
        lambda t, tf, a, b: tf.cosine_similarity(a, b, dim=-1),
        -2,
        2,
    ),
    "pairwise_distance": (
        NF.pairwise_distance,
        ((3, 4), (3, 4)),
        lambda t, tf, a, b: tf.pairwise_distance(a, b),
        -2,
        2,
    ),
    "pairwise_distance_p1": (
        lambda a, b: NF.pairwise_distance(a, b, p=1.0, keepdim=True),
        ((3, 4), (4,)),
        lambda t, tf, a, b: tf.pairwise_distance(a, b, p=1.0, keepdim=True),
        -2,
        2,
    ),
    "batch_norm_training": (
        lambda x, w, b: NF.batch_norm(x, None, None, w, b, training=True, eps=1e-3),
        ((4, 3, 2), (3,), (3,)),
        lambda t, tf, x, w, b: tf.batch_norm(x, None, None, w, b, training=True, eps=1e-3),
        -2,
        2,
    ),
    "batch_norm_training_2d": (
        lambda x, w, b: NF.batch_norm(x, None, None, w, b, training=True),
        ((5, 3), (3,), (3,)),
        lambda t, tf, x, w, b: tf.batch_norm(x, None, None, w, b, training=True),
        -2,
        2,
    ),
    "batch_norm_eval": (
        lambda x, w, b: NF.batch_norm(x, _t(RM), _t(RV), w, b, eps=1e-2),
        ((2, 3, 2, 2), (3,), (3,)),
        lambda t, tf, x, w, b: tf.batch_norm(x, t.tensor(RM), t.tensor(RV), w, b, eps=1e-2),
        -2,
        2,
    ),
    "layer_norm": (
        lambda x, w, b: NF.layer_norm(x, (3, 4), w, b),
        ((2, 3, 4), (3, 4), (3, 4)),
        lambda t, tf, x, w, b: tf.layer_norm(x, (3, 4), w, b),
        -2,
        2,
    ),
    "bilinear": (
        N.bilinear,
        ((2, 3), (2, 2), (4, 3, 2), (4,)),
        lambda t, tf, a, b, w, c: tf.bilinear(a, b, w, c),
        -2,
        2,
    ),
    "rms_norm": (
        lambda x, w: NF.rms_norm(x, (3, 4), w),
        ((2, 3, 4), (3, 4)),
        lambda t, tf, x, w: tf.rms_norm(x, (3, 4), w),
        -2,
        2,
    ),
    "rms_norm_no_weight_eps": (
        lambda x: NF.rms_norm(x, [4], eps=1e-3),
        ((3, 4),),
        lambda t, tf, x: tf.rms_norm(x, [4], eps=1e-3),
        -2,
        2,
    ),
    "group_norm": (
        lambda x, w, b: NF.group_norm(x, 2, w, b, eps=1e-3),
        ((2, 4, 3), (4,), (4,)),
        lambda t, tf, x, w, b: tf.group_norm(x, 2, w, b, eps=1e-3),
        -2,
        2,
    ),
    "pad_constant": (
        lambda x: NF.pad(x, (1, 2, -1, 1), value=0.5),
        ((2, 3, 4),),
        lambda t, tf, x: tf.pad(x, (1, 2, -1, 1), value=0.5),
        -2,
        2,
    ),
    "pad_reflect": (
        lambda x: NF.pad(x, (2, 1, 1, 2), mode="reflect"),
        ((1, 3, 4),),
        lambda t, tf, x: tf.pad(x, (2, 1, 1, 2), mode="reflect"),
        -2,
        2,
    ),
    "pad_replicate": (
        lambda x: NF.pad(x, (2, 3), mode="replicate"),
        ((2, 3),),
        lambda t, tf, x: tf.pad(x, (2, 3), mode="replicate"),
        -2,
        2,
    ),
    "pad_circular": (
        lambda x: NF.pad(x, (1, 2, 2, 0), mode="circular"),
        ((1, 2, 3, 3),),
        lambda t, tf, x: tf.pad(x, (1, 2, 2, 0), mode="circular"),
        -2,
        2,
    ),
    "embedding": (
        lambda w: NF.embedding(_t(IDX), w),
        ((4, 3),),
        lambda t, tf, w: tf.embedding(t.tensor(IDX), w),
        -2,
        2,
    ),
    "embedding_padding_idx": (
        lambda w: NF.embedding(_t(IDX), w, padding_idx=2),
        ((4, 3),),
        lambda t, tf, w: tf.embedding(t.tensor(IDX), w, padding_idx=2),
        -2,
        2,
    ),
    "flip": (lambda x: x.flip([0, 2]), ((2, 3, 2),), lambda t, tf, x: t.flip(x, [0, 2]), -2, 2),
    "conv2d_same": (
        lambda x, w, b: NF.conv2d(x, w, b, padding="same", dilation=(1, 2)),
        ((1, 2, 4, 5), (3, 2, 2, 3), (3,)),
        lambda t, tf, x, w, b: tf.conv2d(x, w, b, padding="same", dilation=(1, 2)),
        -2,
        2,
    ),
    "conv1d_unbatched": (
        lambda x, w: NF.conv1d(x, w, stride=2, padding=1, groups=2),
        ((4, 7), (2, 2, 3)),
        lambda t, tf, x, w: tf.conv1d(x, w, stride=2, padding=1, groups=2),
        -2,
        2,
    ),
    "max_pool1d_ceil": (
        lambda x: NF.max_pool1d(x, 2, ceil_mode=True),
        ((2, 5),),
        lambda t, tf, x: tf.max_pool1d(x, 2, ceil_mode=True),
        -2,
        2,
    ),
    "avg_pool1d_pad": (
        lambda x: NF.avg_pool1d(x, 3, 2, 1, count_include_pad=False),
        ((1, 2, 6),),
        lambda t, tf, x: tf.avg_pool1d(x, 3, 2, 1, count_include_pad=False),
        -2,
        2,
    ),
    "avg_pool2d_ceil": (
        lambda x: NF.avg_pool2d(x, 2, ceil_mode=True, padding=1),
        ((1, 5, 4),),
        lambda t, tf, x: tf.avg_pool2d(x, 2, ceil_mode=True, padding=1),
        -2,
        2,
    ),
    "smooth_l1_loss": (
        lambda x, y: NL.smooth_l1_loss(x, y, beta=0.5),
        ((6,), (6,)),
        lambda t, tf, x, y: tf.smooth_l1_loss(x, y, beta=0.5),
        -2,
        2,
    ),
    "smooth_l1_loss_none": (
        lambda x, y: NL.smooth_l1_loss(x, y, reduction="none"),
        ((2, 3), (2, 3)),
        lambda t, tf, x, y: tf.smooth_l1_loss(x, y, reduction="none"),
        -2,
        2,
    ),
    "huber_loss": (
        lambda x, y: NL.huber_loss(x, y, delta=0.7, reduction="sum"),
        ((6,), (6,)),
        lambda t, tf, x, y: tf.huber_loss(x, y, delta=0.7, reduction="sum"),
        -2,
        2,
    ),
    "kl_div_batchmean": (
        lambda x, y: NL.kl_div(x, y, reduction="batchmean"),
        ((2, 3), (2, 3)),
        lambda t, tf, x, y: tf.kl_div(x, y, reduction="batchmean"),
        0.1,
        1,
    ),
    "kl_div_log_target": (
        lambda x, y: NL.kl_div(x, y, reduction="sum", log_target=True),
        ((2, 3), (2, 3)),
        lambda t, tf, x, y: tf.kl_div(x, y, reduction="sum", log_target=True),
        -2,
        0,
    ),
    "soft_margin_loss": (
        lambda x: NL.soft_margin_loss(x, _t(T0)),
        ((6,),),
        lambda t, tf, x: tf.soft_margin_loss(x, t.tensor(T0)),
        -2,
        2,
    ),
    # Poisson targets: counts 0, 1 and above (Stirling's term only where the count is over 1).
    "poisson_nll_loss": (
        lambda x: NL.poisson_nll_loss(x, _t(COUNTS)),
        ((6,),),
        lambda t, tf, x: tf.poisson_nll_loss(x, t.tensor(COUNTS)),
        -2,
        2,
    ),
    "poisson_nll_loss_rates_full": (
        lambda x: NL.poisson_nll_loss(x, _t(COUNTS), log_input=False, full=True, reduction="sum"),
        ((6,),),
        lambda t, tf, x: tf.poisson_nll_loss(
            x, t.tensor(COUNTS), log_input=False, full=True, reduction="sum"
        ),
        0.3,
        3,
    ),
    "margin_ranking_loss": (
        lambda a, b: NL.margin_ranking_loss(a, b, _t(T0), margin=0.3),
        ((6,), (6,)),
        lambda t, tf, a, b: tf.margin_ranking_loss(a, b, t.tensor(T0), margin=0.3),
        -2,
        2,
    ),
    "triplet_margin_loss": (
        lambda a, p, n: NL.triplet_margin_loss(a, p, n, margin=2.0, swap=True),
        ((3, 4), (3, 4), (3, 4)),
        lambda t, tf, a, p, n: tf.triplet_margin_loss(a, p, n, margin=2.0, swap=True),
        -2,
        2,
    ),
    "hinge_embedding_loss": (
        lambda x: NL.hinge_embedding_loss(x, _t(T0), margin=1.5),
        ((6,),),
        lambda t, tf, x: tf.hinge_embedding_loss(x, t.tensor(T0), margin=1.5),
        -2,
        2,
    ),
    "cosine_embedding_loss": (
        lambda a, b: NL.cosine_embedding_loss(a, b, _t(T0[:3]), margin=-0.5),
        ((3, 4), (3, 4)),
        lambda t, tf, a, b: tf.cosine_embedding_loss(a, b, t.tensor(T0[:3]), margin=-0.5),
        -2,
        2,
    ),
    "bce_with_logits_pos_weight": (
        lambda x: C.binary_cross_entropy_with_logits(x, _t(B0), pos_weight=_t(W0[:3])),
        ((2, 3),),
        lambda t, tf, x: tf.binary_cross_entropy_with_logits(
            x, t.tensor(B0), pos_weight=t.tensor(W0[:3])
        ),
        -2,
        2,
    ),
    "cross_entropy_label_smoothing": (
        lambda x: L.cross_entropy(x, _t(np.array([1, 0, 3])), weight=_t(W0), label_smoothing=0.2),
        ((3, 4),),
        lambda t, tf, x: tf.cross_entropy(
            x, t.tensor([1, 0, 3]), weight=t.tensor(W0), label_smoothing=0.2
        ),
        0.1,
        2,
    ),
    # K-dim input whose last size is the class count: the weight is viewed along the class
    # dimension (it broadcast along the last one: a silent wrong loss, explore78)
    "cross_entropy_label_smoothing_kdim_weight": (
        lambda x: L.cross_entropy(
            x, _t(np.array([[1, 0, 3, 2], [2, 2, 0, 1]])), weight=_t(W0), label_smoothing=0.2
        ),
        ((2, 4, 4),),
        lambda t, tf, x: tf.cross_entropy(
            x, t.tensor([[1, 0, 3, 2], [2, 2, 0, 1]]), weight=t.tensor(W0), label_smoothing=0.2
        ),
        0.1,
        2,
    ),
    "cross_entropy_label_smoothing_probs": (
        lambda x, p: L.cross_entropy(x, p, label_smoothing=0.3, reduction="sum"),
        ((3, 4), (3, 4)),
        lambda t, tf, x, p: tf.cross_entropy(x, p, label_smoothing=0.3, reduction="sum"),
        0.1,
        2,
    ),
}


# Not the derivative of the value: PyTorch's embedding leaves the padding row without gradient.
NOT_DERIVATIVES = {"embedding_padding_idx"}
# PyTorch's CeluBackward takes 1/alpha through float32 (alpha.toFloat()); gradcli the exact
# 1/alpha: their gradients are 1e-8 apart.
TORCH_RTOL = {"celu": 1e-7}


def _inputs(name: str) -> list[np.ndarray]:
    _, shapes, _, low, high = CASES[name]
    rng = np.random.default_rng(sum(map(ord, name)))
    return [rng.uniform(low, high, size=s) for s in shapes]


def _value(name: str, arrays: list[np.ndarray]) -> np.ndarray:
    fn = CASES[name][0]
    return np.asarray(fn(*[Tensor(a) for a in arrays]).data, dtype=np.float64)


@pytest.mark.parametrize("name", [n for n in CASES if n not in NOT_DERIVATIVES])
def test_vjp_matches_finite_differences(name: str) -> None:
    fn = CASES[name][0]
    arrays = _inputs(name)
    ts = [Tensor(a.copy(), requires_grad=True) for a in arrays]
    out = fn(*ts)
    w = gc.random_like(out.shape, 7)
    gs = grad(out, ts, grad_outputs=Tensor(w), materialize_grads=True)
    want = gc.numeric_grad(lambda xs: float(np.sum(_value(name, xs) * w)), arrays, range(len(ts)))
    gc.compare(name, [g.data for g in gs], want, list(range(len(ts))), gc.RTOL)


@pytest.mark.parametrize("name", [n for n in CASES if n not in NOT_DERIVATIVES])
def test_second_order(name: str) -> None:
    """d/dx <vjp(x; w), v> against central differences of the first-order VJP along x."""
    fn = CASES[name][0]
    arrays = _inputs(name)
    w = gc.random_like(fn(*[Tensor(a) for a in arrays]).shape, 8)
    vs = [gc.random_like(a.shape, 9 + i) for i, a in enumerate(arrays)]

    def first(xs: list[np.ndarray]) -> list[np.ndarray]:
        ts = [Tensor(a.copy(), requires_grad=True) for a in xs]
        return [g.data for g in grad(fn(*ts), ts, Tensor(w), materialize_grads=True)]

    ts = [Tensor(a.copy(), requires_grad=True) for a in arrays]
    gs = grad(fn(*ts), ts, Tensor(w), create_graph=True, materialize_grads=True)
    total = None
    for g, v in zip(gs, vs, strict=True):
        term = F.sum(A.mul_t(g, Tensor(v)))
        total = term if total is None else A.add_t(total, term)
    if not total.requires_grad:
        hv = [np.zeros(a.shape) for a in arrays]
    else:
        hv = [h.data for h in grad(total, ts, materialize_grads=True)]
    want = gc.numeric_grad(
        lambda xs: float(sum(np.sum(g * v) for g, v in zip(first(xs), vs, strict=True))),
        arrays,
        range(len(arrays)),
        step=gc.STEP2,
    )
    gc.compare(name + " (second order)", hv, want, list(range(len(arrays))), 1e-5)


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c[2] is not None])
def test_matches_torch(name: str) -> None:
    torch = pytest.importorskip("torch")
    fn, _, tfn, _, _ = CASES[name]
    arrays = _inputs(name)
    tt = [torch.tensor(a, requires_grad=True) for a in arrays]
    tout = tfn(torch, torch.nn.functional, *tt)
    ts = [Tensor(a.copy(), requires_grad=True) for a in arrays]
    out = fn(*ts)
    assert out.shape == tuple(tout.shape)
    assert gc.rel_error(out.data, tout.detach().numpy()) <= 1e-10
    w = gc.random_like(out.shape, 7)
    tg = torch.autograd.grad(tout, tt, torch.tensor(w), allow_unused=True)
    gs = grad(out, ts, grad_outputs=Tensor(w), materialize_grads=True)
    for a, b in zip(gs, tg, strict=True):
        b = np.zeros(a.shape) if b is None else b.numpy()
        assert gc.rel_error(a.data, b) <= TORCH_RTOL.get(name, 1e-10), (name, a.data, b)


def test_a_wrong_rule_fails_the_composition_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness can fail: normalize with a gradient 0.1% off (through div's rule)."""
    from gradcli import ops

    rule = ops.REGISTRY["div"].vjp
    monkeypatch.setattr(
        ops.REGISTRY["div"], "vjp", lambda *a, **k: tuple(r * 1.001 for r in rule(*a, **k))
    )
    with pytest.raises(gc.GradcheckError):
        test_vjp_matches_finite_differences("normalize")


# --- argument checks, in PyTorch's words --------------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: NF.conv2d(_t(np.ones((1, 2, 5, 5))), _t(np.ones((3, 3, 2, 2)))), "expected input"),
        (lambda: NF.conv2d(_t(np.ones((5, 5))), _t(np.ones((3, 2, 2, 2)))), "Expected 3D"),
        (
            lambda: NF.conv2d(_t(np.ones((1, 2, 5, 5))), _t(np.ones((3, 2, 6, 6)))),
            "Kernel size can't be greater",
        ),
        (
            lambda: NF.conv2d(
                _t(np.ones((1, 2, 5, 5))), _t(np.ones((3, 2, 2, 2))), stride=2, padding="same"
            ),
            "not supported for strided",
        ),
        (lambda: NF.max_pool2d(_t(np.ones((1, 2, 5, 5))), 2, padding=2), "at most half"),
        (lambda: NF.max_pool2d(_t(np.ones((1, 2, 5, 5))), 6), "Output size is too small"),
        (lambda: NF.pad(_t(np.ones((1, 1, 3))), (3, 3), mode="reflect"), "Padding size should"),
        (lambda: NF.pad(_t(np.ones((2, 2))), (1,)), "divisible by 2"),
        (lambda: NF.layer_norm(_t(np.ones((2, 3))), (4,)), "expected input with shape"),
        (lambda: NF.group_norm(_t(np.ones((2, 4, 2))), 3), "divisible by num_groups"),
        (lambda: NF.embedding(_t(np.array([0, 3])), _t(np.ones((3, 2)))), "index out of range"),
        (lambda: NL.smooth_l1_loss(_t(np.ones(2)), _t(np.ones(2)), beta=-1.0), "negative"),
        (lambda: NL.huber_loss(_t(np.ones(2)), _t(np.ones(2)), delta=0.0), "non-positive"),
        (lambda: NF.hardtanh(_t(np.ones(2)), 1.0, -1.0), "min_val cannot be greater"),
        (lambda: NF.celu(_t(np.ones(2)), 0.0), "alpha cannot be 0"),
        (lambda: NF.elu(_t(np.array([1, 2]))), "not implemented for 'Long'"),
    ],
)
def test_errors_are_pytorchs(call: Callable[[], Any], message: str) -> None:
    with pytest.raises(GradcliError, match=message):
        call()


_INPLACE_ACTIVATIONS = {
    # name: (in-place call, the same out of place, PyTorch's grad_fn of the in-place kernel)
    "elu_": (lambda h: NF.elu_(h, 0.5), lambda h: NF.elu(h, 0.5), "EluBackward1"),
    "selu_": (NF.selu_, NF.selu, "EluBackward1"),
    "celu_": (lambda h: NF.celu_(h, 2.0), lambda h: NF.celu(h, 2.0), "CeluBackward1"),
    "hardtanh_": (
        lambda h: NF.hardtanh_(h, -0.5, 0.5),
        lambda h: NF.hardtanh(h, -0.5, 0.5),
        "HardtanhBackward0",
    ),
    "threshold_": (
        lambda h: NF.threshold_(h, 0.2, -1.0),
        lambda h: NF.threshold(h, 0.2, -1.0),
        "ThresholdBackward1",
    ),
    "leaky_relu_": (
        lambda h: NF.leaky_relu_(h, 0.1),
        lambda h: F.leaky_relu(h, 0.1),
        "LeakyReluBackward1",
    ),
    "relu_inplace": (lambda h: F.relu(h, inplace=True), F.relu, "ReluBackward0"),
}


@pytest.mark.parametrize("name", sorted(_INPLACE_ACTIVATIONS))
def test_inplace_activations_change_their_input_with_the_same_values_and_gradient(
    name: str,
) -> None:
    change, pure, label = _INPLACE_ACTIVATIONS[name]
    data = np.array([-1.5, -0.3, 0.1, 0.4, 2.0])
    w = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    results = []
    for fn in (change, pure):
        x = Tensor(data.copy(), requires_grad=True)
        h = A.mul_t(x, 2.0)
        out = fn(h)
        if fn is change:  # h itself changed, and it carries the in-place kernel's node
            assert out is h and h.node.name() == label
            np.testing.assert_array_equal(h.data, pure(Tensor(data * 2.0)).data)
        (g,) = grad(A.mul_t(out, Tensor(w)).sum(), [x])
        results.append((out.data.copy(), g.data))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    if label in ("EluBackward1", "CeluBackward1"):
        # PyTorch's in-place elu differentiates from its result, g * ipt * (r + alpha * scale)
        # (the pure one from its input: g * ipt * alpha * scale * exp(x * ipt)), and celu's
        # forward scale is 1 / alpha, its derivative's 1 / float32(alpha): close, not equal
        np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-7)
    else:
        np.testing.assert_array_equal(results[0][1], results[1][1])
    assert np.any(results[0][1] != 2.0 * w)  # (the activation's slope is in the gradient)


def test_inplace_activation_of_a_leaf_that_requires_grad_is_refused() -> None:
    with pytest.raises(GradcliError, match="a leaf Variable that requires grad"):
        NF.elu_(Tensor(np.ones(2), requires_grad=True))


@pytest.mark.parametrize(
    ("shapes", "message"),
    [
        (((5, 3), (4, 2), (4, 3, 2), (4,)), "input batch dimensions do not match at dim 0: got 5"),
        (((5, 4), (5, 2), (4, 3, 2), (4,)), "input1 size does not match weight size: got 4 but"),
        (((5, 3), (5, 2), (4, 3, 2), (3,)), "bias size does not match weight size: got 3 but"),
    ],
)
def test_bilinear_errors_are_pytorchs(shapes: tuple, message: str) -> None:
    with pytest.raises(GradcliError, match=message):
        N.bilinear(*[Tensor(np.ones(s)) for s in shapes])


@pytest.mark.parametrize(
    "shape, pad, words",
    [
        # the last dimension is checked first, as argument #4; the one before as #6, then #8
        (
            (1, 3, 2, 2),
            (5, 5, 5, 5),
            "Argument #4: .* \\(5, 5\\) at dimension 3 of input \\[1, 3, 2, 2\\]",
        ),
        ((1, 3, 2, 2), (1, 1, 5, 5), "Argument #6: .* \\(5, 5\\) at dimension 2 of input"),
        (
            (3, 2, 2),
            (1, 1, 3, 3),
            "Argument #6: .* \\(3, 3\\) at dimension 1 of input \\[3, 2, 2\\]",
        ),
        ((1, 1, 4), (4, 0), "Argument #4: .* \\(4, 0\\) at dimension 2 of input"),
        ((1, 1, 2, 2, 2), (1, 1, 1, 1, 2, 2), "Argument #8: .* \\(2, 2\\) at dimension 2 of input"),
        ((1, 1, 2, 2, 2), (2, 2, 1, 1, 1, 1), "Argument #4: .* \\(2, 2\\) at dimension 4 of input"),
    ],
)
def test_reflect_pad_too_large_names_pytorchs_argument_and_dimension(
    shape: tuple, pad: tuple, words: str
) -> None:
    with pytest.raises(GradcliError, match=words):
        NF.pad(_t(np.ones(shape)), pad, mode="reflect")


@pytest.mark.parametrize(
    "shape, pad, mode, words",
    [
        # an empty dimension other than a batch one (ATen's check_valid_input)
        ((2, 0, 4), (1, 1), "reflect", "Expected 2D or 3D .* but got: \\[2, 0, 4\\]$"),
        ((0, 4), (1, 1), "replicate", "Expected 2D or 3D .* but got: \\[0, 4\\]$"),
        ((1, 2, 0, 3), (1, 1, 1, 1), "reflect", "Expected 3D or 4D .* got: \\[1, 2, 0, 3\\]$"),
        # an output with no element left
        ((1, 3, 4), (-2, -2), "reflect", "^input \\(W: 4\\) is too small. Calculated output W: 0$"),
        (
            (1, 2, 3, 4),
            (-3, -2, -2, -2),
            "replicate",
            "^input \\(H: 3, W: 4 \\) is too small. Calculated output H: -1 W: -1$",
        ),
        (
            (1, 1, 2, 3, 4),
            (-2, -2, -2, -2, -1, -1),
            "reflect",
            "^input \\(D: 2 H: 3, W: 4\\) is too small. Calculated output D: 0 H: -1 W: 0$",
        ),
        ((1, 3, 4), (-3, -2), "circular", "^Negative padding value is resulting in an empty"),
    ],
)
def test_non_constant_pad_of_empty_inputs_and_outputs_in_atens_words(
    shape: tuple, pad: tuple, mode: str, words: str
) -> None:
    with pytest.raises(GradcliError, match=words):
        NF.pad(_t(np.ones(shape)), pad, mode=mode)


def test_non_constant_pad_keeps_an_empty_batch_and_an_empty_output_where_aten_does() -> None:
    """A batch of no samples pads; a 2-D pad may leave a width of 0 while the height remains;
    circular padding may remove a whole dimension (its check is for a negative size only)."""
    assert NF.pad(_t(np.ones((0, 3, 4))), (1, 1), mode="reflect").shape == (0, 3, 6)
    assert NF.pad(_t(np.ones((1, 2, 3, 4))), (-2, -2, 0, 0), mode="reflect").shape == (1, 2, 3, 0)
    assert NF.pad(_t(np.ones((1, 3, 4))), (-2, -2), mode="circular").shape == (1, 3, 0)


def test_batch_norm_of_an_empty_batch_is_atens_clone_times_weight0_plus_bias0() -> None:
    """ATen's empty-input path: input.clone(), * weight[0], + bias[0] (its grad_fn names; the
    parameters stay in the graph, with zero gradients), no statistics touched."""
    x = Tensor(np.zeros((0, 3), np.float32), requires_grad=True)
    w = Tensor(np.ones(3, np.float32), requires_grad=True)
    b = Tensor(np.zeros(3, np.float32), requires_grad=True)
    rm, rv = Tensor(np.zeros(3, np.float32)), Tensor(np.ones(3, np.float32))
    y = NF.batch_norm(x, rm, rv, w, b, training=True)
    assert y.shape == (0, 3) and y.node.name() == "AddBackward0"
    assert NF.batch_norm(x, rm, rv, w, None, training=True).node.name() == "MulBackward0"
    assert NF.batch_norm(x, rm, rv, None, None, training=True).node.name() == "CloneBackward0"
    gw, gb = grad([y.sum()], [w, b])
    assert np.array_equal(gw.data, np.zeros(3)) and np.array_equal(gb.data, np.zeros(3))
    assert np.array_equal(rm.data, np.zeros(3)) and np.array_equal(rv.data, np.ones(3))
