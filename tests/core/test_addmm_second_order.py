"""A create_graph pass through an addmm (F.linear with a bias, torch.addmm, addmv, baddbmm)
records the bias's reduction (sum_to) after the product's rule, as PyTorch's AddmmBackward0
(its two products, then validate_outputs' sum_to). The order decides, in a later pass, the
order of float32 sums where the gradients of the bias, the input and the weight meet: a
meta-learning step summed over tasks printed other last digits. The values are checked
against central differences in float64; the printed float32 digits are PyTorch 2.13's
(corpus 1020)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core.graph import ancestors
from gradcli.lang.program import parse

FORWARDS = {
    "linear": "F.linear(x, W, b)",
    "addmm": "torch.addmm(b, x, W.t())",
}


def _program(forward: str, dtype: str) -> str:
    return f"""import torch
import torch.nn.functional as F
x = torch.tensor([[0.3, -1.2, 0.5], [1.1, 0.4, -0.7], [-0.2, 0.9, 0.6], [0.8, -0.5, 0.1]],
                 dtype=torch.{dtype})
W = torch.tensor([[0.2, -0.4, 0.7], [0.5, 0.1, -0.3]], dtype=torch.{dtype},
                 requires_grad=True)
b = torch.tensor([0.05, -0.15], dtype=torch.{dtype}, requires_grad=True)
h = {forward}
loss = (h.sin() ** 2).mean()
gW, gb = torch.autograd.grad(loss, (W, b), create_graph=True)
probe = (gW * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=torch.{dtype})).sum()
probe = probe + (gb * torch.tensor([7.0, 8.0], dtype=torch.{dtype})).sum()
"""


@pytest.mark.parametrize("name", sorted(FORWARDS))
def test_bias_reduction_recorded_after_the_products(name: str) -> None:
    run = parse(_program(FORWARDS[name], "float32"), "t.py").run(dtype="float32")
    gW, gb = run.env["gW"], run.env["gb"]
    # the products the pass recorded (the rule of x @ W^T: gW's) come before gb's reduction
    since = run.env["loss"].node.seq
    products = [n.seq for n in ancestors([gW]) if n.seq > since and n.op.name == "matmul"]
    assert products
    assert gb.node is not None and gb.node.seq > max(products)


def _probe(w: np.ndarray, b: np.ndarray, forward: str) -> float:
    """The probe of `_program` in float64: its gradient of (sin(xW^T + b)^2).mean()."""
    x = np.array([[0.3, -1.2, 0.5], [1.1, 0.4, -0.7], [-0.2, 0.9, 0.6], [0.8, -0.5, 0.1]])
    h = x @ w.T + b
    d = 2 * np.sin(h) * np.cos(h) / h.size  # d loss / d h
    gw, gb = d.T @ x, d.sum(0)
    cw = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return float((gw * cw).sum() + (gb * np.array([7.0, 8.0])).sum())


@pytest.mark.parametrize("name", sorted(FORWARDS))
def test_second_order_gradients_match_central_differences(name: str) -> None:
    text = _program(FORWARDS[name], "float64") + "gW2, gb2 = torch.autograd.grad(probe, (W, b))\n"
    run = parse(text, "t.py").run(dtype="float64")
    w0 = np.array([[0.2, -0.4, 0.7], [0.5, 0.1, -0.3]])
    b0 = np.array([0.05, -0.15])
    eps = 1e-6
    fd_w = np.zeros_like(w0)
    for i in np.ndindex(w0.shape):
        e = np.zeros_like(w0)
        e[i] = eps
        fd_w[i] = (_probe(w0 + e, b0, name) - _probe(w0 - e, b0, name)) / (2 * eps)
    fd_b = np.array(
        [
            (_probe(w0, b0 + eps * np.eye(2)[j], name) - _probe(w0, b0 - eps * np.eye(2)[j], name))
            / (2 * eps)
            for j in range(2)
        ]
    )
    np.testing.assert_allclose(run.env["gW2"].data, fd_w, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(run.env["gb2"].data, fd_b, rtol=1e-6, atol=1e-8)
