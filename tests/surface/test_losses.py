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
