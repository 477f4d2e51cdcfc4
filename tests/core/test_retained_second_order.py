"""A retained gradient across a create_graph pass and a later backward (PyTorch's
retain_grad hook: a clone first, CloneBackward0 with create_graph; `grad + new` after, in
the pass's grad mode), and a node whose output was changed in place and then dropped by the
program (a gradient penalty through nn.LeakyReLU(inplace=True) inside a function). The
numbers are checked against central differences in float64; the printed forms are PyTorch
2.13's (corpus 604)."""

from __future__ import annotations

import ast

import numpy as np

from tests.helpers.programs import out


def test_retained_gradient_of_a_create_graph_pass_is_a_clone() -> None:
    text = (
        "import torch\n"
        "x = torch.tensor([0.5, -1.0], requires_grad=True)\n"
        "h = x * 3\n"
        "h.retain_grad()\n"
        "g, = torch.autograd.grad(h.tanh().sum(), x, create_graph=True)\n"
        "print(h.grad.grad_fn.name(), h.grad.requires_grad)\n"
        "(g ** 2).sum().backward()\n"
        "print(h.grad.grad_fn, h.grad.requires_grad)\n"
    )
    lines = out(text).splitlines()
    assert lines == ["CloneBackward0 True", "None False"]


def _penalty(w1: np.ndarray, w2: np.ndarray, x: np.ndarray, slope: float) -> float:
    """sum over rows of |d out / d x|^2 for out = w2 . leaky(w1 x)."""
    h = x @ w1.T
    d = np.where(h > 0, 1.0, slope)
    g = (d * w2) @ w1  # each row's gradient w.r.t. x
    return float((g**2).sum())


def test_inplace_activation_in_a_function_then_double_backward() -> None:
    # once an internal error: the first Linear's node had lost its (in-place changed) output
    text = (
        "import torch\n"
        "from torch import nn\n"
        "torch.set_default_dtype(torch.float64)\n"
        "D = nn.Sequential(nn.Linear(2, 3, bias=False), nn.LeakyReLU(0.2, inplace=True),\n"
        "                  nn.Linear(3, 1, bias=False))\n"
        "with torch.no_grad():\n"
        "    D[0].weight.copy_(torch.tensor([[0.3, -0.7], [1.1, 0.4], [-0.5, 0.9]]))\n"
        "    D[2].weight.copy_(torch.tensor([[0.8, -1.3, 0.6]]))\n"
        "def pen(x):\n"
        "    out = D(x)\n"
        "    g = torch.autograd.grad(out, x, torch.ones(out.shape), create_graph=True)[0]\n"
        "    return (g ** 2).sum()\n"
        "x = torch.tensor([[0.2, 0.1], [-0.4, 0.3], [0.6, -0.8]], requires_grad=True)\n"
        "p = pen(x)\n"
        "p.backward()\n"
        "print(p.item())\n"
        "print(D[0].weight.grad.tolist())\n"
        "print(D[2].weight.grad.tolist())\n"
    )
    lines = out(text).splitlines()
    w1 = np.array([[0.3, -0.7], [1.1, 0.4], [-0.5, 0.9]])
    w2 = np.array([0.8, -1.3, 0.6])
    x = np.array([[0.2, 0.1], [-0.4, 0.3], [0.6, -0.8]])
    assert abs(float(lines[0]) - _penalty(w1, w2, x, 0.2)) < 1e-12
    eps = 1e-6
    for got_text, arr, shape in ((lines[1], w1, w1.shape), (lines[2], w2, (1, 3))):
        got = np.array(ast.literal_eval(got_text)).reshape(shape)
        want = np.zeros(arr.size)
        for i in range(arr.size):
            up, down = arr.copy().ravel(), arr.copy().ravel()
            up[i] += eps
            down[i] -= eps
            a = (up.reshape(arr.shape), w2) if arr is w1 else (w1, up.reshape(arr.shape))
            b = (down.reshape(arr.shape), w2) if arr is w1 else (w1, down.reshape(arr.shape))
            want[i] = (_penalty(*a, x, 0.2) - _penalty(*b, x, 0.2)) / (2 * eps)
        np.testing.assert_allclose(got.ravel(), want, rtol=1e-6, atol=1e-9)


def test_second_derivative_through_an_unnamed_tensor_changed_in_place() -> None:
    # `F.elu(x * 1.0, inplace=True)`: the product's output exists only as the in-place
    # change's; a first-order pass after a create_graph one used to stop with an internal
    # error (its chained rule read the gone output's shape). elu'' is exp(x) for x < 0.
    text = (
        "import torch\n"
        "import torch.nn.functional as F\n"
        "x = torch.tensor([0.5, -0.3, -1.2], dtype=torch.float64, requires_grad=True)\n"
        "g, = torch.autograd.grad(F.elu(x * 1.0, inplace=True).sum(), x, create_graph=True)\n"
        "g2, = torch.autograd.grad(g.sum(), x)\n"
        "print(g.tolist())\n"
        "print(g2.tolist())\n"
    )
    first, second = (ast.literal_eval(line) for line in out(text).splitlines())
    x = np.array([0.5, -0.3, -1.2])
    np.testing.assert_allclose(first, np.where(x > 0, 1.0, np.exp(x)), rtol=1e-15)
    np.testing.assert_allclose(second, np.where(x > 0, 0.0, np.exp(x)), rtol=1e-15)
