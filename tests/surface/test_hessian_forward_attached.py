"""torch.autograd.functional.hessian with outer_jacobian_strategy="forward-mode" (and
vectorize=True) returns what PyTorch 2.13's does (measured; corpus 1103): PyTorch makes the
dual inputs of its outer forward-mode Jacobian require grad, so with grad mode on each block
whose tangent exists is attached to a graph (grad_fn ReshapeAliasBackward0, ViewBackward0
for a one-element input) that reaches none of the caller's tensors, and with grad mode off it
is a leaf that requires grad. Blocks without a tangent (a gradient that does not depend on
the inputs) are plain zeros. The values are the reverse-mode Hessian's."""

from __future__ import annotations

import numpy as np

from gradcli.core.tensor import Tensor, no_grad
from gradcli.surface import functional_ad as FA
from gradcli.surface import names  # noqa: F401 - installs the tensor methods

FWD = {"outer_jacobian_strategy": "forward-mode", "vectorize": True}


def _cubic(v: Tensor) -> Tensor:
    return (v * v * v).sum() + v.prod()


def test_blocks_with_tangents_are_attached_and_equal_the_reverse_hessian() -> None:
    x = Tensor(np.array([0.5, -1.0, 2.0]))
    h = FA.hessian(_cubic, x, **FWD)
    assert h.grad_fn is not None and h.grad_fn.name() == "ReshapeAliasBackward0"
    np.testing.assert_array_equal(h.data, FA.hessian(_cubic, x).data)
    # central differences of the gradient, float64
    eps = 1e-6
    rows = []
    for i in range(3):
        e = np.zeros(3)
        e[i] = eps
        gp = FA.jacobian(_cubic, Tensor(x.data + e)).data
        gm = FA.jacobian(_cubic, Tensor(x.data - e)).data
        rows.append((gp - gm) / (2 * eps))
    np.testing.assert_allclose(h.data, np.array(rows).T, rtol=1e-6, atol=1e-8)
    h.sum().backward()  # reaches none of the caller's tensors
    assert x.grad is None


def test_one_element_input_is_a_view_and_a_constant_gradient_is_not_attached() -> None:
    s = FA.hessian(lambda v: v.exp(), Tensor(np.array(0.25)), **FWD)
    assert s.grad_fn.name() == "ViewBackward0"
    lin = FA.hessian(lambda v: 3 * v.sum(), Tensor(np.array([1.0, 2.0])), **FWD)
    assert lin.grad_fn is None and not lin.requires_grad
    assert not lin.data.any()


def test_grad_mode_off_gives_leaves_that_require_grad() -> None:
    x = Tensor(np.array([0.5, -1.0, 2.0]))
    with no_grad():
        h = FA.hessian(_cubic, x, **FWD)
        lin = FA.hessian(lambda v: 3 * v.sum(), x, **FWD)
    assert h.requires_grad and h.grad_fn is None
    assert not lin.requires_grad
