"""torch.func's forward mode of a function closing over a tensor that requires grad: PyTorch's
tangents are its forward formulas' results, recorded (`W @ x + b`: `mm(W_t, x) + mm(W, x_t)`
with W's ZeroTensor tangent: AddBackward0), so `.backward()` through them reaches the
parameters; jvp's primal output is an alias of the dual's primal (AliasBackward0, even a
parameter returned as it is), linearize's is not; jacfwd's Jacobian is the forward formulas'
too (x / b: the zeros off the diagonal carry b's row's sign, where reverse passes gave the
column's). gradcli took such tangents from double backward passes (other node names) and such
Jacobians from reverse passes. Node names recorded from PyTorch 2.13; values against the same
computation with nothing requiring grad and against float64 central differences."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.lang.program import parse

SETUP = (
    "import torch\nimport torch.nn.functional as F\n"
    "from torch.func import jvp, jacfwd, linearize\n"
    "torch.manual_seed(0)\n"
    "W = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)\n"
    "b = torch.randn(3, dtype=torch.float64, requires_grad=True)\n"
    "x = torch.randn(3, dtype=torch.float64)\nv = torch.randn(3, dtype=torch.float64)\n"
)


def run(text: str) -> list[str]:
    return "".join(parse(SETUP + text, "t.py").run(dtype="float64").output).strip().splitlines()


# function of x -> (PyTorch's tangent node, its primal output's node)
CASES = {
    "W @ x + b": "AddBackward0",
    "torch.tanh(W @ x) * b": "AddBackward0",
    "x / b": "DivBackward0",
    "(x * 2.5).sum() * b[0]": "AddBackward0",
    "(x - b).sum() * b[0]": "AddBackward0",
}


@pytest.mark.parametrize("expr", list(CASES))
def test_jvp_nodes_and_values(expr: str) -> None:
    text = (
        f"f = lambda x: {expr}\n"
        "o, t = jvp(f, (x,), (v,))\n"
        "print(type(o.grad_fn).__name__, type(t.grad_fn).__name__)\n"
        "W0, b0 = W, b\nW, b = W0.detach(), b0.detach()\n"
        "o2, t2 = jvp(f, (x,), (v,))\n"
        "print(torch.equal(t.detach(), t2), torch.equal(o.detach(), o2))\n"
    )
    assert run(text) == [f"AliasBackward0 {CASES[expr]}", "True True"]


def test_parameter_gradients_through_the_tangent() -> None:
    # d/dW sum((W v)^2) = 2 (W v) v^T: through jvp's tangent, against central differences
    text = (
        "o, t = jvp(lambda x: W @ x + b, (x,), (v,))\n"
        "(t ** 2).sum().backward()\n"
        "print(W.grad.flatten().tolist())\nprint(b.grad)\n"
        "print(W.detach().flatten().tolist())\nprint(v.tolist())\n"
    )
    got, bgrad, w, vv = run(text)
    got, w, vv = np.array(eval(got)), np.array(eval(w)), np.array(eval(vv))  # noqa: S307
    assert bgrad == "None"  # (b's term is a ZeroTensor's: no gradient reaches b)

    def f(flat: np.ndarray) -> float:
        return float(np.sum((flat.reshape(3, 3) @ vv) ** 2))

    h = 1e-6
    fd = np.array([(f(w + h * e) - f(w - h * e)) / (2 * h) for e in np.eye(9)])
    assert np.allclose(got, fd, rtol=1e-7, atol=1e-8)
    assert not np.allclose(got * 1.001, fd, rtol=1e-7, atol=1e-8)


def test_outputs_returned_as_they_are_are_aliases() -> None:
    text = (
        "xr = x.clone().requires_grad_()\n"
        "o, t = jvp(lambda y: y, (xr,), (v,))\n"
        "print(type(o.grad_fn).__name__, o is xr)\n"
        "(o1, o2), (t1, t2) = jvp(lambda y: (y * W[0], b), (x,), (v,))\n"
        "print(type(o2.grad_fn).__name__, o2 is b, t2.abs().sum().item())\n"
        "o, fn = linearize(lambda y: y * b, x)\n"
        "print(type(o.grad_fn).__name__)\n"
    )
    assert run(text) == ["AliasBackward0 False", "AliasBackward0 False 0.0", "MulBackward0"]


def test_jacfwd_zeros_carry_the_forward_formulas_signs() -> None:
    # J = diag(1 / b): (e_j - 0 * out) / b, so row i's zeros have b[i]'s sign (PyTorch's)
    text = (
        "J = jacfwd(lambda y: y / b)(x)\n"
        "print(J.grad_fn.name())\n"
        "rows = torch.signbit(b.detach()).unsqueeze(1).expand(3, 3)\n"
        "off = ~torch.eye(3, dtype=torch.bool)\n"
        "print(torch.equal(torch.signbit(J.detach())[off], rows[off]))\n"
    )
    assert run(text) == ["ViewBackward0", "True"]


def test_unpack_dual_primal_node_is_an_unbound_cpp_function() -> None:
    text = (
        "import torch.autograd.forward_ad as fwAD\n"
        "with fwAD.dual_level():\n"
        "    y = fwAD.make_dual(x, v) * b\n"
        "    g = fwAD.unpack_dual(y).primal.grad_fn\n"
        "    print(type(g).__name__, g.name(), str(g).split(' ')[0])\n"
    )
    assert run(text) == ["CppFunction torch::autograd::Identity <CppFunction"]
