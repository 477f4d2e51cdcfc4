"""float64 gelu under create_graph=True records PyTorch's node (GeluBackwardBackward0, then
gelu_double_backward's operations), with the first derivative's bits unchanged: the third
derivative and forward-over-reverse zeros then follow PyTorch's (corpus 2070)."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli
from gradcli.surface import functional as F
from gradcli.surface import names  # noqa: F401 - installs the tensor methods

X = np.array([-2.5, -2.0, -0.7, 0.0, 0.3, 1.0, 2.0, 4.0])


def _first(x: np.ndarray, approximate: str, create_graph: bool):
    leaf = gradcli.Tensor(x, requires_grad=True)
    y = F.gelu(leaf, approximate=approximate)
    (g,) = gradcli.grad(y.sum(), leaf, create_graph=create_graph)
    return leaf, g


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_recorded_node_and_unchanged_first_derivative(approximate: str) -> None:
    leaf, g = _first(X, approximate, True)
    assert g.grad_fn.name() == "GeluBackwardBackward0"
    _, plain = _first(X, approximate, False)
    assert plain.grad_fn is None
    assert g.numpy().tobytes() == plain.numpy().tobytes()
    (h,) = gradcli.grad(g.sum(), leaf, create_graph=True)
    assert h.grad_fn.name() == "MulBackward0"
    # the second derivative against central differences of the first (float64)
    eps = 1e-6
    up = _first(X + eps, approximate, False)[1].numpy()
    down = _first(X - eps, approximate, False)[1].numpy()
    np.testing.assert_allclose(h.numpy(), (up - down) / (2 * eps), rtol=1e-6, atol=1e-8)
