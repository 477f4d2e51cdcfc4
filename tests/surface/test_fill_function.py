"""torch.fill(input, value): a new tensor of input's shape and dtype holding value; the
gradient reaching a 0-d tensor value is the sum of the incoming gradient (FillBackward1),
input's is zero; with a number the node is FillBackward0. Checked against central finite
differences in float64 (also through a value computed from a leaf, and with create_graph)."""

from __future__ import annotations

import numpy as np

from gradcli.lang.program import parse


def run(text: str):
    return parse("import torch\n" + text, "t.py").run(dtype="float64")


def test_fill_gradients_equal_central_differences() -> None:
    r = run(
        "a = torch.tensor(0.7, dtype=torch.float64, requires_grad=True)\n"
        "w = torch.tensor([[1.5, -2.0, 0.25], [3.0, 0.5, -1.0]], dtype=torch.float64,"
        " requires_grad=True)\n"
        "y = (torch.fill(w, a.sin() * a) ** 3 * w.detach()).sum()\n"
        "(g,) = torch.autograd.grad(y, a, create_graph=True)\n"
        "(gg,) = torch.autograd.grad(g, a)\n"
        "y2 = torch.fill(w, a).sum()\ny2.backward()\n"
        "name = torch.fill(w, 2.0).grad_fn.name()\n"
    )
    w = np.array([[1.5, -2.0, 0.25], [3.0, 0.5, -1.0]])

    def f(a: float) -> float:
        return float(((np.sin(a) * a) ** 3 * w).sum())

    def df(a: float, h: float = 1e-5) -> float:
        return (f(a + h) - f(a - h)) / (2 * h)

    a, h = 0.7, 1e-4
    np.testing.assert_allclose(r.env["g"].data, df(a), rtol=1e-7)
    np.testing.assert_allclose(r.env["gg"].data, (df(a + h) - df(a - h)) / (2 * h), rtol=1e-5)
    assert r.env["a"].grad.data == 6.0  # (one per element of w: only y2 accumulates)
    assert (r.env["w"].grad.data == 0).all() and r.env["w"].grad.shape == (2, 3)
    assert r.env["name"] == "FillBackward0"
