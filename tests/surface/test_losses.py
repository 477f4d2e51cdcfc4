"""The loss functions' argument conventions, as PyTorch's."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.tensor import Tensor
from gradcli.surface.losses import cross_entropy


@pytest.mark.parametrize(
    "target",
    [
        Tensor(np.array([0, 2])),  # class indices
        Tensor(np.array([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]])),  # class probabilities
    ],
    ids=["indices", "probabilities"],
)
def test_cross_entropy_refuses_a_bogus_reduction_for_every_kind_of_target(target: Tensor) -> None:
    x = Tensor(np.zeros((2, 3)), requires_grad=True)
    with pytest.raises(GradcliError, match="^bogus is not a valid value for reduction"):
        cross_entropy(x, target, reduction="bogus")
    cross_entropy(x, target, reduction="sum")  # and a valid one is accepted


def test_spatial_nll_is_the_rowwise_loss_of_each_position() -> None:
    # (N, C, L) scores against (N, L) targets: each position a row, ignored ones left out of
    # the mean, the per-position losses shaped as the targets; the gradient lands in place.
    from gradcli.surface.losses import nll_loss

    rng = np.random.default_rng(3)
    x = Tensor(rng.standard_normal((2, 3, 4)), requires_grad=True)
    t = np.array([[0, 2, 1, 7], [1, 1, 0, 2]])
    rows = x.data.transpose(0, 2, 1).reshape(-1, 3)
    flat = t.reshape(-1)
    keep = flat != 7
    expected = -rows[np.arange(8), np.where(keep, flat, 0)] * keep
    none = nll_loss(x, Tensor(t), ignore_index=7, reduction="none")
    assert none.shape == (2, 4)
    np.testing.assert_allclose(none.data.reshape(-1), expected)
    mean = nll_loss(x, Tensor(t), ignore_index=7)
    np.testing.assert_allclose(mean.data, expected.sum() / keep.sum())
    mean.backward()
    g = np.zeros((8, 3))
    g[np.arange(8)[keep], flat[keep]] = -1 / keep.sum()
    np.testing.assert_allclose(x.grad.data, g.reshape(2, 4, 3).transpose(0, 2, 1))
    with pytest.raises(GradcliError, match=r"Expected target size \[2, 4\], got \[2, 3\]"):
        nll_loss(x, Tensor(np.zeros((2, 3), dtype=np.int64)))


# PyTorch's deprecated size_average / reduce, by keyword or in their positions: reduce=False
# is 'none' whatever size_average says, size_average=False is 'sum', True 'mean'; they win over
# reduction= (PyTorch builds the reduction from them and ignores the one given).
@pytest.mark.parametrize(
    ("legacy", "reduction"),
    [
        ({"reduce": False}, "none"),
        ({"size_average": True, "reduce": False}, "none"),
        ({"size_average": False}, "sum"),
        ({"size_average": True}, "mean"),
        ({"size_average": False, "reduce": True, "reduction": "none"}, "sum"),
    ],
)
@pytest.mark.parametrize("name", ["mse_loss", "l1_loss", "nll_loss", "cross_entropy", "kl_div"])
def test_legacy_size_average_and_reduce_choose_the_reduction(
    name: str, legacy: dict, reduction: str
) -> None:
    from gradcli.surface import composite, losses, nnlosses

    fn = {
        "mse_loss": losses.mse_loss,
        "l1_loss": composite.l1_loss,
        "nll_loss": losses.nll_loss,
        "cross_entropy": losses.cross_entropy,
        "kl_div": nnlosses.kl_div,
    }[name]
    rng = np.random.default_rng(7)
    x = Tensor(rng.standard_normal((3, 4)))
    t = (
        Tensor(np.array([0, 3, 1]))
        if name in ("nll_loss", "cross_entropy")
        else Tensor(rng.random((3, 4)))
    )
    got = fn(x, t, **legacy).data
    want = fn(x, t, reduction=reduction).data
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_legacy_arguments_in_their_positions() -> None:
    # nll_loss(input, target, weight, size_average, ignore_index, reduce)
    from gradcli.surface.losses import nll_loss

    x = Tensor(np.log(np.array([[0.7, 0.2, 0.1], [0.4, 0.4, 0.2]])))
    t = Tensor(np.array([0, 1]))
    assert nll_loss(x, t, None, True, -100, False).shape == (2,)
    assert nll_loss(x, t, None, False).shape == ()
    np.testing.assert_allclose(nll_loss(x, t, None, False).data, -np.log(0.7) - np.log(0.4))


def _soft_case(seed: int, shape: tuple[int, ...], dtype: type) -> tuple[Tensor, Tensor]:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape).astype(dtype)
    t = rng.standard_normal(shape).astype(dtype)  # not normalised: every sum matters
    return Tensor(x, requires_grad=True), Tensor(t)


def test_probability_targets_sum_every_element_at_once() -> None:
    # ATen's cross_entropy_loss_prob_target reduces -(logp * target) over all elements in one
    # sum for "sum" and "mean"; adding the per-sample losses is another float32 order (seed 5
    # is one where the two orders differ in the last bit, so the old order fails here).
    from gradcli.surface.functional import log_softmax, sum

    x, t = _soft_case(5, (3, 5), np.float32)
    whole = -sum(log_softmax(x, dim=1) * t).data
    rows = cross_entropy(x, t, reduction="none").data
    assert whole != np.float32(rows[0] + rows[1] + rows[2])
    assert cross_entropy(x, t, reduction="sum").data == whole
    assert cross_entropy(x, t).data == np.float32(whole / np.float32(3))


def test_probability_targets_with_a_class_weight_on_spatial_scores() -> None:
    # (N, C, L) scores: the weight is viewed along the class dim (was broadcast along the last
    # dim, refused for L != C); values and gradient against float64 central differences.
    rng = np.random.default_rng(11)
    w = rng.uniform(0.5, 2.0, 4)
    x, t = _soft_case(9, (2, 4, 3), np.float64)

    def loss(a: np.ndarray) -> float:
        logp = a - np.log(np.exp(a).sum(axis=1, keepdims=True))
        return float(-(logp * t.data * w[None, :, None]).sum() / 6)

    out = cross_entropy(x, t, weight=Tensor(w))
    np.testing.assert_allclose(out.data, loss(x.data), rtol=1e-12)
    none = cross_entropy(x, t, weight=Tensor(w), reduction="none")
    assert none.shape == (2, 3)
    out.backward()
    num = np.zeros_like(x.data)
    h = 1e-6
    for i in np.ndindex(x.shape):
        up, down = x.data.copy(), x.data.copy()
        up[i] += h
        down[i] -= h
        num[i] = (loss(up) - loss(down)) / (2 * h)
    np.testing.assert_allclose(x.grad.data, num, rtol=1e-6, atol=1e-9)


def test_probability_targets_of_an_empty_batch_give_nan_for_the_mean() -> None:
    x, t = _soft_case(1, (0, 3), np.float32)
    assert np.isnan(cross_entropy(x, t).data)
    assert cross_entropy(x, t, reduction="sum").data == 0


def test_functional_legacy_reduction_arguments_warn_as_pytorch() -> None:
    """`F.l1_loss(a, b, size_average=False)`: the reduction they stand for, with PyTorch's
    deprecation warning, shown once for each loss function and reduction (Python's default
    filter keeps one place in torch.nn.functional for each function)."""
    from gradcli.lang.program import parse

    r = parse(
        "import torch\nimport torch.nn.functional as F\na = torch.tensor([-1.0, 0.0, 2.0])\n"
        "b = torch.zeros(3)\nfor i in range(3):\n    s = F.l1_loss(a, b, size_average=False)\n"
        "n = F.mse_loss(a, b, reduce=False)\nm = F.mse_loss(a, b, size_average=False)\n",
        "t.py",
    ).run()
    assert r.env["s"].data.tolist() == 3.0 and r.env["m"].data.tolist() == 5.0
    assert r.env["n"].data.tolist() == [1.0, 0.0, 4.0]
    said = [w.splitlines()[0].split(": warning: ")[1] for w in r.warnings]
    words = "size_average and reduce args will be deprecated, please use reduction='{}' instead."
    assert said == [words.format("sum"), words.format("none"), words.format("sum")]


@pytest.mark.parametrize("pos_weight", [None, np.array([2.0, 0.5], np.float32)])
def test_bce_with_logits_of_a_float64_input_and_a_float32_target_is_float32(pos_weight) -> None:
    # ATen works in place on (1 - target): the loss is the target's dtype, each step rounded
    # to it; the input's gradient, (sigmoid(x) - t) / n in place on the float64 sigmoid (with
    # a float32 pos_weight, in place on the float32 p t + 1), comes back as float64.
    from gradcli.surface.composite import binary_cross_entropy_with_logits as bcel

    x = Tensor(np.array([[0.3, -1.2], [2.0, 0.1], [-0.7, 0.4]]), requires_grad=True)
    t = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], np.float32)
    p = None if pos_weight is None else Tensor(pos_weight)
    loss = bcel(x, Tensor(t), pos_weight=p)
    assert loss.dtype == np.float32
    lw = 1.0 if pos_weight is None else (pos_weight - np.float32(1)) * t + np.float32(1)
    ls = -np.logaddexp(0.0, -x.data)
    step = (((np.float32(1) - t) * x.data).astype(np.float32) - ls * lw).astype(np.float32)
    np.testing.assert_allclose(loss.data, step.sum(dtype=np.float32) / np.float32(6), rtol=1e-6)
    loss.backward()
    sig = 1 / (1 + np.exp(-x.data))
    if pos_weight is None:
        gx = (sig - t) / 6
    else:
        q = pos_weight * t
        gx = ((((q + 1) - t) * sig).astype(np.float32) - q).astype(np.float32) / np.float32(6)
    assert x.grad.dtype == np.float64
    np.testing.assert_allclose(x.grad.data, gx, rtol=1e-6)


def test_huber_of_a_float32_input_and_a_float64_target_is_float32_and_refuses_backward() -> None:
    # ATen's loss is empty_like(input), computed in the common dtype; its backward takes the
    # target as it is and checks it has the input's dtype.
    from gradcli.surface.nnlosses import huber_loss

    x = Tensor(np.array([0.25, -1.5, 3.0], np.float32), requires_grad=True)
    t = Tensor(np.array([0.1, 0.2, -0.3]))
    loss = huber_loss(x, t, reduction="none", delta=0.5)
    d = np.abs(x.data.astype(np.float64) - t.data)
    expected = np.where(d < 0.5, 0.5 * d * d, 0.5 * (d - 0.25)).astype(np.float32)
    assert loss.dtype == np.float32
    np.testing.assert_array_equal(loss.data, expected)
    with pytest.raises(GradcliError, match="^Found dtype Double but expected Float"):
        loss.sum().backward()
    with pytest.raises(GradcliError, match="^Weights and input must have the same size"):
        huber_loss(x, t, weight=Tensor(np.ones(1, np.float32)))
