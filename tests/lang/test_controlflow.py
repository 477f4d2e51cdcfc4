"""torch.cond, while_loop, scan and map (`lang.controlflow`): gradients through them against
central finite differences of the same program in float64, the outputs new tensors hanging
from PyTorch's node names, and PyTorch's argument checks."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

HEAD = (
    "import torch\nfrom torch._higher_order_ops import scan, while_loop, map\n"
    "W = torch.tensor([[0.3, -0.2], [0.5, 0.1]], dtype=torch.float64, requires_grad=True)\n"
)

# Each: the body computing `y` (a scalar) from the leaf `x` (float64, 2x2) and W.
BODIES = {
    "cond": "y = torch.cond(x.sum() > 0, lambda a: (a @ W).sin(), lambda a: a.exp(), (x,)).sum()",
    "cond_false": "y = torch.cond(x.sum() < 0, lambda a: a * W, lambda a: (a @ W).cos(), (x,))"
    ".sum()",
    "while_loop": "i, z = while_loop(lambda i, z: i < 3, lambda i, z: (i + 1, torch.tanh(z @ W)),"
    " (torch.tensor(0), x))\ny = (z * z).sum()",
    "scan": "c, ys = scan(lambda c, r: (torch.tanh(c @ W + r), (c * r).sum()), torch.zeros(2,"
    " dtype=torch.float64), x, reverse=True)\ny = c.sum() + (ys * ys).sum()",
    "scan_dim1": "c, ys = scan(lambda c, r: ((c @ W) * r.sin(), c + r), torch.ones(2, "
    "dtype=torch.float64), x, dim=1)\ny = c.sum() + ys.pow(2).sum()",
    "map": "y = map(lambda r, w: (r @ w).exp(), x, W).sum()",
}


def _run(body: str, x: np.ndarray, grads: bool) -> list[str]:
    text = (
        HEAD
        + f"x = torch.tensor({x.tolist()!r}, dtype=torch.float64, requires_grad=True)\n"
        + body
        + "\nprint(repr(y.item()))\n"
        + ("y.backward()\nprint(x.grad.tolist())\nprint(W.grad.tolist())\n" if grads else "")
    )
    return "".join(parse(text, "t.py").run(dtype="float64").output).splitlines()


@pytest.mark.parametrize("name", sorted(BODIES))
def test_gradients_against_central_differences(name: str) -> None:
    x0 = np.array([[0.4, -0.3], [0.7, 0.2]])
    lines = _run(BODIES[name], x0, grads=True)
    got = np.array(eval(lines[1]))  # noqa: S307  (a list of floats printed by the program)
    h = 1e-6
    fd = np.zeros_like(x0)
    for idx in np.ndindex(x0.shape):
        up, down = x0.copy(), x0.copy()
        up[idx] += h
        down[idx] -= h
        fd[idx] = (
            float(_run(BODIES[name], up, False)[0]) - float(_run(BODIES[name], down, False)[0])
        ) / (2 * h)
    np.testing.assert_allclose(got, fd, rtol=1e-6, atol=1e-8)


def _out(text: str) -> str:
    return "".join(parse("import torch\n" + text, "t.py").run(dtype="float32").output)


def test_outputs_hang_from_pytorchs_nodes_and_are_new_tensors() -> None:
    got = _out(
        "from torch._higher_order_ops import scan, map\n"
        "x = torch.ones(3, requires_grad=True)\n"
        "y = torch.cond(torch.tensor(True), lambda a: a * 2, lambda a: a * 3, (x,))\n"
        "print(y.grad_fn.name())\n"
        "n = torch.tensor(1)\n"
        "i, = torch.while_loop(lambda i: i > 5, lambda i: (i + 1,), (n,))\n"
        "print(i is n, i)\n"
        "c, ys = scan(lambda c, r: (c + r, c * r), torch.zeros(3), torch.ones(3, 2), dim=1)\n"
        "print(c.grad_fn, ys.grad_fn)\n"
        "c, ys = scan(lambda c, r: (c + r, c * r), x, torch.ones(3, 2), dim=1)\n"
        "print(c.grad_fn.name(), ys.grad_fn.name())\n"
        "print(map(lambda r: r * 2, x.reshape(3, 1)).grad_fn.name())\n"
        "print(torch.cond(False, lambda a: a * 2, lambda a: a - 1, (x,)).grad_fn.name())\n"
    )
    assert got == (
        "CondAutogradOpBackward\nFalse tensor(1)\nNone None\n"
        "ScanAutogradOpBackward PermuteBackward0\nMapAutogradOpBackward\nSubBackward0\n"
    )


@pytest.mark.parametrize(
    "text, words",
    [
        ("torch.cond(torch.ones(2) > 0, torch.sin, torch.cos, (torch.ones(2),))", "single-element"),
        ("torch.cond(torch.tensor(True), torch.sin, 3, (torch.ones(2),))", "Expect both branches"),
        ("torch.cond(torch.tensor(True), lambda a: a, lambda a: a, (torch.ones(2),))", "aliasing"),
        ("torch.while_loop(lambda i: i < 2, lambda i: (i + 1,), (1.5,))", "can only be of"),
        (
            "torch.while_loop(lambda i: i * 1, lambda i: (i + 1,), (torch.tensor(0),))",
            "return type",
        ),
    ],
)
def test_pytorchs_checks(text: str, words: str) -> None:
    with pytest.raises(GradcliError, match=words):
        _out(text)
