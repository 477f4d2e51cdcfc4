"""cumsum's gradient as PyTorch's cumsum_backward makes it: the gradient itself when the dim
has one element (a -0.0 stays -0.0, the node is the gradient's own), else, recorded
(create_graph=True), grad.flip(dim).cumsum(dim).flip(dim): three nodes, FlipBackward0 last
(gradcli recorded one CumsumBackward0, explore73). Second-order values checked against central
finite differences in float64."""

from __future__ import annotations

import json

import numpy as np

from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse("import torch\n" + text, "t.py").run(dtype="float32").output)


def test_the_recorded_gradient_is_flip_cumsum_flip() -> None:
    got = out(
        "x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)\n"
        "for d in (0, 1, -1):\n"
        "    g, = torch.autograd.grad((x.cumsum(d) ** 2).sum(), x, create_graph=True)\n"
        "    f = g.grad_fn\n"
        "    print(f.name(), f.next_functions[0][0].name(),"
        " f.next_functions[0][0].next_functions[0][0].name())\n"
    )
    assert got == "FlipBackward0 CumsumBackward0 FlipBackward0\n" * 3


def test_one_element_along_the_dim_gives_the_gradient_back() -> None:
    got = out(
        "x = torch.tensor([[1.0], [2.0]], requires_grad=True)\n"
        "x.cumsum(1).backward(torch.tensor([[-0.0], [1.0]]))\n"
        "print(x.grad.view(-1).tolist())\n"
        "w = torch.tensor([0.5], requires_grad=True)\n"
        "z = torch.tensor([5.0], requires_grad=True)\n"
        "g, = torch.autograd.grad((z.cumsum(0) * w).sum(), z, create_graph=True)\n"
        "print(g.grad_fn.name())\n"
    )
    assert got == "[-0.0, 1.0]\nMulBackward0\n"


def test_second_order_through_the_recorded_gradient_matches_finite_differences() -> None:
    x0 = np.array([[0.3, -1.2, 0.7], [1.1, 0.4, -0.5]])
    v = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]])
    got = out(
        f"x = torch.tensor({x0.tolist()}, dtype=torch.float64, requires_grad=True)\n"
        f"v = torch.tensor({v.tolist()}, dtype=torch.float64)\n"
        "g, = torch.autograd.grad((x.cumsum(1).sin() * x).sum(), x, create_graph=True)\n"
        "(g * v).sum().backward()\n"
        "print(x.grad.reshape(-1).tolist())\n"
    )
    hv = np.array(json.loads(got))  # (the program prints a list of floats)

    def grad(x: np.ndarray) -> np.ndarray:
        # d/dx of sum(sin(cumsum(x, 1)) * x): sin(c) + reversed cumsum of cos(c) * x
        c = np.cumsum(x, axis=1)
        return np.sin(c) + np.flip(np.cumsum(np.flip(np.cos(c) * x, 1), 1), 1)

    def phi(x: np.ndarray) -> float:
        return float(np.sum(grad(x) * v))

    h = 1e-6
    fd = np.zeros(x0.size)
    for i in range(x0.size):
        e = np.zeros(x0.size)
        e[i] = h
        fd[i] = (phi(x0 + e.reshape(x0.shape)) - phi(x0 - e.reshape(x0.shape))) / (2 * h)
    np.testing.assert_allclose(hv, fd, rtol=1e-7, atol=1e-8)
