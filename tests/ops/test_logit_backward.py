"""logit's gradient as PyTorch's logit_backward kernel computes it: dy / (x * (1 - x)), one
division (gradcli multiplied by the reciprocal, a last-bit difference in float32), and,
recorded with create_graph=True, infinitely_differentiable_logit_backward's where(...)
(WhereBackward0). Expected values recorded with torch 2.13 (CPU)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core.autograd import grad
from gradcli.core.op import apply
from gradcli.core.tensor import Tensor
from gradcli.ops.special import logit

X = [
    0.47356849908828735, 0.6135987639427185, 0.012073040008544922, 0.0395967960357666,
    0.5673856735229492, 0.25380611419677734, 0.533759593963623, 0.6093389391899109,
    0.7162282466888428, 0.604284405708313,
]  # fmt: skip
G = [
    0.3277392089366913, -0.03380390256643295, -0.07261484861373901, -0.1777830272912979,
    0.38851162791252136, 1.0779623985290527, -1.9219735860824585, 0.7002289891242981,
    0.45007848739624023, -1.4060864448547363,
]  # fmt: skip
RECORDED = {
    None: [
        1.3146306276321411, -0.14257515966892242, -6.088130474090576, -4.6749467849731445,
        1.5827953815460205, 5.691802501678467, -7.723103046417236, 2.941582441329956,
        2.21445894241333, -5.8801374435424805,
    ],
    0.15: [
        1.3146306276321411, -0.14257515966892242, 0.0, 0.0, 1.5827953815460205,
        5.691802501678467, -7.723103046417236, 2.941582441329956, 2.21445894241333,
        -5.8801374435424805,
    ],
}  # fmt: skip


@pytest.mark.parametrize("eps", [None, 0.15])
def test_float32_gradient_is_pytorchs_bits(eps: float | None) -> None:
    x = Tensor(np.asarray(X, np.float32), requires_grad=True)
    (gx,) = grad(apply(logit, x, eps=eps), [x], Tensor(np.asarray(G, np.float32)))
    assert gx.data.tolist() == RECORDED[eps]


def test_recorded_gradient_is_a_where_and_matches_central_differences() -> None:
    x0 = np.asarray(X)
    x = Tensor(x0.copy(), requires_grad=True)
    (gx,) = grad(apply(logit, x), [x], Tensor(np.ones_like(x0)), create_graph=True)
    assert gx.grad_fn is not None and gx.grad_fn.name() == "WhereBackward0"
    h = 1e-6
    f = lambda v: np.log(v / (1 - v))  # noqa: E731
    assert np.allclose(gx.data, (f(x0 + h) - f(x0 - h)) / (2 * h), rtol=1e-8)
    (gxx,) = grad(gx, [x], Tensor(np.ones_like(x0)))
    assert np.allclose(gxx.data, (2 * x0 - 1) / (x0 * (1 - x0)) ** 2, rtol=1e-12)
