"""PyTorch's forward formulas take an input without a tangent as a ZeroTensor, and its term is
still recorded where a value it multiplies requires grad (`core.forward.zero_terms`): inside
`torch.autograd.forward_ad`, `make_dual(x, v) * 2` with x requiring grad has the tangent
`0 * x + v * 2` (AddBackward0) and a backward through it gives x.grad zeros; `W @ dual` with W
requiring grad is `mm(W_t, x) + mm(W, x_t)`. gradcli gave such tangents no grad history (a
backward through them failed) or another node name. The node names below are PyTorch 2.13's
(recorded with it); the values are checked to be the same bits as with nothing requiring grad
(the zero terms add nothing, not even a sign of zero), and the gradients against float64
central differences."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.lang.program import parse

SETUP = (
    "import torch\nimport torch.nn.functional as F\n"
    "import torch.autograd.forward_ad as fwAD\n"
    "torch.manual_seed(0)\n"
)

# expression of x (the dual tensor, 3x3) and w (3x3) -> PyTorch's tangent node when x's
# primal requires grad, when w requires grad
CASES = {
    "x * w[0]": ("AddBackward0", "AddBackward0"),
    "w[0] * x": ("AddBackward0", "AddBackward0"),
    "x * 2": ("AddBackward0", None),
    "x / 2": ("DivBackward0", None),
    "x / w[0]": ("DivBackward0", "DivBackward0"),
    "w[0] / x": ("DivBackward0", "DivBackward0"),
    "x @ w": ("AddBackward0", "AddBackward0"),
    "torch.mm(x, w)": ("AddBackward0", "AddBackward0"),
    "torch.mv(w, x[0])": ("AddBackward0", "AddBackward0"),
    "torch.dot(x[0], w[0])": ("AddBackward0", "AddBackward0"),
    "x[0] @ w": ("SqueezeBackward4", "SqueezeBackward4"),
    "x.expand(2, 3, 3) @ w": ("UnsafeViewBackward0", "UnsafeViewBackward0"),
    "w @ x.expand(2, 3, 3)": ("UnsafeViewBackward0", "CloneBackward0"),
    "torch.bmm(x.expand(2, 3, 3), w.expand(2, 3, 3))": ("AddBackward0", "AddBackward0"),
    "F.linear(x, w, w[0])": ("AddBackward0", "AddBackward0"),
    "F.linear(x[0], w, w[0])": ("ViewBackward0", "ViewBackward0"),
    "torch.addmm(w[0], x, w)": ("AddBackward0", "AddBackward0"),
    "torch.addmm(w[0], x, w, beta=0.5, alpha=2)": ("AddBackward0", "AddBackward0"),
    "x + w": (None, None),
    "torch.add(x, w, alpha=3)": (None, None),
}


def run(text: str, dtype: str = "float32") -> list[str]:
    out = "".join(parse(SETUP + text, "t.py").run(dtype=dtype).output)
    return out.strip().splitlines()


def program(expr: str, x_grad: bool, tail: str) -> str:
    return (
        f"x0 = torch.randn(3, 3, requires_grad={x_grad})\n"
        f"w = torch.randn(3, 3, requires_grad={not x_grad})\n"
        "v = torch.randn(3, 3)\n"
        "with fwAD.dual_level():\n"
        "    x = fwAD.make_dual(x0, v)\n"
        f"    t = fwAD.unpack_dual({expr}).tangent\n"
        "    n = t.grad_fn.name() if t.grad_fn is not None else None\n"
        "    print(n, t.requires_grad)\n" + tail
    )


@pytest.mark.parametrize("x_grad", [True, False])
@pytest.mark.parametrize("expr", list(CASES))
def test_tangent_node_and_history(expr: str, x_grad: bool) -> None:
    want = CASES[expr][0 if x_grad else 1]
    tail = (
        "    if t.requires_grad:\n"
        "        t.sum().backward()\n"
        "        print(x0.grad is None or bool((x0.grad == 0).all()))\n"
        "        print(x0.grad is None or not bool(torch.signbit(x0.grad).any()))\n"
    )
    got = run(program(expr, x_grad, tail))
    assert got[0] == f"{want} {want is not None}", got
    if want is not None and expr != "w[0] / x":  # (there the tangent reads x's value)
        # the dual's primal gets PyTorch's ZeroTensor gradient: +0. everywhere
        assert got[1:] == ["True", "True"], got


@pytest.mark.parametrize("expr", list(CASES))
def test_values_are_those_without_grad(expr: str) -> None:
    # the same tangent, bit for bit, whatever requires grad: -0. entries included (v has some)
    text = (
        "x0 = torch.randn(3, 3)\nw0 = torch.randn(3, 3)\n"
        "v = torch.randn(3, 3) * torch.tensor([1.0, 0.0, -0.0])\n"
        "outs = []\n"
        "for gx, gw in ((False, False), (True, False), (False, True), (True, True)):\n"
        "    w = w0.clone().requires_grad_(gw)\n"
        "    with fwAD.dual_level():\n"
        "        x = fwAD.make_dual(x0.clone().requires_grad_(gx), v)\n"
        f"        outs.append(fwAD.unpack_dual({expr}).tangent.detach())\n"
        "for o in outs[1:]:\n"
        "    same = torch.equal(o, outs[0])\n"
        "    signs = torch.equal(torch.signbit(o), torch.signbit(outs[0]))\n"
        "    print(same and signs)\n"
    )
    assert run(text) == ["True"] * 3


def test_gradients_through_the_tangent_match_finite_differences() -> None:
    # t = v / y + x-independent zero terms: d sum(t * c) / dy = -c v / y^2, d / dx = 0
    text = (
        "x0 = torch.randn(4, dtype=torch.float64, requires_grad=True)\n"
        "y = (torch.rand(4, dtype=torch.float64) + 0.5).requires_grad_()\n"
        "v = torch.randn(4, dtype=torch.float64)\n"
        "c = torch.randn(4, dtype=torch.float64)\n"
        "with fwAD.dual_level():\n"
        "    t = fwAD.unpack_dual(fwAD.make_dual(x0, v) / y).tangent\n"
        "    (t * c).sum().backward()\n"
        "print(x0.grad.tolist())\nprint(y.grad.tolist())\n"
        "print(y.tolist())\nprint(v.tolist())\nprint(c.tolist())\n"
    )
    lines = run(text, "float64")
    gx, gy, y, v, c = (np.array(eval(s)) for s in lines)  # noqa: S307 - lists of floats

    def f(yy: np.ndarray) -> float:
        return float(np.sum(c * v / yy))

    h = 1e-6
    fd = np.array([(f(y + h * e) - f(y - h * e)) / (2 * h) for e in np.eye(4)])
    assert np.allclose(gy, fd, rtol=1e-7, atol=1e-9)
    assert not np.allclose(gy * 1.001, fd, rtol=1e-7, atol=1e-9)  # (a rule 0.1% off fails)
    assert gx.tolist() == [0.0] * 4


def test_backward_inside_a_level_gives_gradients_no_tangent() -> None:
    # PyTorch's saved values carry no tangent: the gradients a backward computes inside a dual
    # level have none (gradcli's rules read the dual tensors themselves)
    text = (
        "w = torch.randn(3, 3, requires_grad=True)\n"
        "with fwAD.dual_level():\n"
        "    x = fwAD.make_dual(torch.randn(2, 3), torch.randn(2, 3))\n"
        "    y = ((x * 2) @ w / 3).sum()\n"
        "    t = fwAD.unpack_dual(y).tangent\n"
        "    t.backward(retain_graph=True)\n"
        "    print(fwAD.unpack_dual(w.grad).tangent)\n"
        "    y.backward()\n"
        "    print(fwAD.unpack_dual(w.grad).tangent)\n"
    )
    assert run(text) == ["None", "None"]


# a linear op of a tangent that requires grad (y = dual * w, w requiring grad) -> PyTorch's
# node: its auto_linear formula applies the op itself (sub of a missing tangent included)
LINEAR = {
    "y.sum(1)": "SumBackward1",
    "y.mean()": "MeanBackward0",
    "y.mean(-1)": "MeanBackward1",
    "y[1]": "SelectBackward0",
    "y[:, 1:3]": "SliceBackward0",
    "y[:, :3].trace()": "TraceBackward0",
    "y.diagonal()": "DiagonalBackward0",
    "y.flip(0)": "FlipBackward0",
    "y.roll(1, 0)": "RollBackward0",
    "y.clone()": "CloneBackward0",
    "y - x0": "SubBackward0",
    "x0 - y": "SubBackward0",
    "torch.sub(y, x0, alpha=2)": "SubBackward0",
    "y + x0": "AddBackward0",
    "torch.einsum('ij,jk->ki', y, w.t())": "ViewBackward0",
    "torch.einsum('ij,jk,k->i', y, w.t(), w[:, 0])": "ViewBackward0",
}


@pytest.mark.parametrize("expr", list(LINEAR))
def test_linear_op_tangent_node(expr: str) -> None:
    text = (
        "x0 = torch.randn(3, 4)\nw = torch.randn(3, 4, requires_grad=True)\n"
        "v = torch.randn(3, 4) * torch.tensor([1.0, 0.0, -0.0, 2.0])\n"
        "with fwAD.dual_level():\n"
        "    y = fwAD.make_dual(x0, v) * w\n"
        f"    t = fwAD.unpack_dual({expr}).tangent\n"
        "    print(t.grad_fn.name())\n"
        "w0 = w.detach()\n"
        "with fwAD.dual_level():\n"
        "    w = w0\n"
        "    y = fwAD.make_dual(x0, v) * w\n"
        f"    t2 = fwAD.unpack_dual({expr}).tangent\n"
        "print(torch.equal(t.detach(), t2), torch.equal(torch.signbit(t.detach()), t2.signbit()))\n"
    )
    assert run(text) == [LINEAR[expr], "True True"]
