"""The in-place ELU kernels (F.elu(..., inplace=True), selu_, celu_, nn.ELU(inplace=True))
differentiate from the result they save, as PyTorch's elu_backward(..., is_result=True):
g * input_scale * (result + alpha * scale) where result <= 0; leaky_relu_ saves its result
too (its sign is the input's for the positive slopes it takes; a negative one is PyTorch's
error at backward). A change of a saved result before backward is PyTorch's error (corpora
686 and 687 hold PyTorch's printed values)."""

from __future__ import annotations

import ast

import numpy as np

from tests.helpers.programs import error, out


def _grads(call: str) -> list[list[float]]:
    text = (
        "import torch\nimport torch.nn.functional as F\n"
        "x = torch.tensor([0.6, -0.4, -1.9], dtype=torch.float64, requires_grad=True)\n"
        f"y = {call}\n"
        "g, = torch.autograd.grad(y.sum(), x, create_graph=True)\n"
        "h, = torch.autograd.grad(g.sum(), x)\n"
        "print(g.tolist())\nprint(h.tolist())\n"
    )
    return [ast.literal_eval(line) for line in out(text).splitlines()]


def test_celu_in_place_gradient_is_from_its_result() -> None:
    g, h = _grads("F.celu(x * 1.0, 0.7, inplace=True)")
    x = np.array([0.6, -0.4, -1.9])
    s = 1.0 / float(np.float32(0.7))
    r = np.where(x > 0, x, 0.7 * np.expm1(x / 0.7))  # the forward's exact 1 / alpha
    np.testing.assert_allclose(g, np.where(x > 0, 1.0, s * (r + 0.7)), rtol=1e-15)
    # the second pass: s times the upstream, back through the in-place node's own rule
    # (r'(x) as s * (r + 0.7), PyTorch's chain), not s * exp(x / 0.7)
    np.testing.assert_allclose(h, np.where(x > 0, 0.0, s * s * (r + 0.7)), rtol=1e-15)


def test_elu_in_place_matches_the_derivative() -> None:
    g, h = _grads("F.elu(x * 1.0, alpha=0.5, inplace=True)")
    x = np.array([0.6, -0.4, -1.9])
    np.testing.assert_allclose(g, np.where(x > 0, 1.0, 0.5 * np.exp(x)), rtol=1e-15)
    np.testing.assert_allclose(h, np.where(x > 0, 0.0, 0.5 * np.exp(x)), rtol=1e-15)


def test_changing_the_saved_result_is_pytorchs_error() -> None:
    e = error(
        "import torch\nimport torch.nn.functional as F\n"
        "x = torch.tensor([0.5, -0.3], requires_grad=True)\n"
        "y = F.elu(x * 1.0, inplace=True)\n"
        "y.mul_(2)\n"
        "y.sum().backward()\n"
    )
    assert "which is output 0 of Elu1, is at version 2; expected version 1" in str(e)


def test_leaky_relu_in_place_saves_its_result() -> None:
    base = (
        "import torch\nimport torch.nn.functional as F\n"
        "x = torch.tensor([0.5, -0.3, 1.2], requires_grad=True)\n"
    )
    e = error(
        base + "y = F.leaky_relu(x * 1.0, 0.1, inplace=True)\ny.mul_(2)\ny.sum().backward()\n"
    )
    assert "which is output 0 of LeakyRelu1, is at version 2; expected version 1" in str(e)
    e = error(base + "h = x * 1.0\nF.leaky_relu(h, -0.1, inplace=True)\nh.sum().backward()\n")
    assert "In-place leakyReLu backward calculation is triggered with a negative slope" in str(e)
    assert e.python_class == "RuntimeError"
    text = base + "y = F.leaky_relu(x * 2.0, 0.2, inplace=True)\n(y * y).sum().backward()\n"
    got = ast.literal_eval(out(text + "print(x.grad.tolist())\n").strip())
    x = np.array([0.5, -0.3, 1.2], dtype=np.float32)
    y = np.where(x > 0, 2 * x, 0.2 * 2 * x)
    np.testing.assert_allclose(got, 2 * y * np.where(x > 0, 2.0, 0.4), rtol=1e-6)
