"""hardsigmoid's gradient under create_graph=True is PyTorch's NotImplemented node: it
requires grad, keeps the first-order values, and a derivative through it fails in PyTorch's
words (reverse and forward mode; corpus 2071)."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli
from gradcli.base.errors import GradcliError
from gradcli.surface import names  # noqa: F401 - installs the tensor methods
from gradcli.surface import nnfunctional as N


def test_recorded_without_derivative() -> None:
    x = np.array([-3.5, -3.0, -0.2, 0.6, 3.0, 3.3], dtype=np.float32)
    leaf = gradcli.Tensor(x, requires_grad=True)
    (g,) = gradcli.grad(N.hardsigmoid(leaf).sum(), leaf, create_graph=True)
    (plain,) = gradcli.grad(N.hardsigmoid(leaf).sum(), leaf)
    assert g.requires_grad and g.grad_fn.name() == "torch::autograd::NotImplemented"
    assert plain.grad_fn is None
    assert g.numpy().tobytes() == plain.numpy().tobytes()
    np.testing.assert_array_equal(plain.numpy(), np.where(np.abs(x) < 3, np.float32(1) / 6, 0))
    with pytest.raises(GradcliError, match="derivative for aten::hardsigmoid_backward"):
        gradcli.grad(g.sum(), leaf)
