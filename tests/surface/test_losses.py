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
    with pytest.raises(GradcliError, match="'bogus' is not a valid value for reduction"):
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
