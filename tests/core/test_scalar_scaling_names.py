"""A gradient times a number inside PyTorch's rules is mul.Scalar: a MulBackward1 node with one
edge (add / sub's alpha: maybe_multiply(grad, alpha); addmm's beta; pow's `p * x.pow(p - 1)`),
where a program's `x * 2.0` records mul.Tensor (MulBackward0 with an edge for the number too).
The names and edges below are PyTorch 2.13's (create_graph=True); the values are unchanged."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.lang.program import parse

PRELUDE = """import torch
torch.manual_seed(1)
x = torch.randn(5, requires_grad=True)
y = torch.randn(5, requires_grad=True)
M = torch.randn(3, 4, requires_grad=True)
A = torch.randn(3, 2, requires_grad=True)
B = torch.randn(2, 4, requires_grad=True)
"""


def _names(call: str, wrt: str) -> tuple[list, list]:
    text = (
        PRELUDE
        + f"""out = {call}
gs = torch.autograd.grad((out ** 2).sum(), {wrt}, create_graph=True)
names = [g.grad_fn.name() for g in gs]
edges = [[None if n is None else n.name() for n, _ in g.grad_fn.next_functions] for g in gs]
"""
    )
    env = parse(text, "t.py").run(dtype="float32").env
    return env["names"], env["edges"]


@pytest.mark.parametrize(
    "call, names, edges",
    [
        (
            "torch.add(x, y, alpha=0.3)",
            ["MulBackward0", "MulBackward1"],
            [[None, "MulBackward1"], ["MulBackward0"]],
        ),
        (
            "x.sub(y, alpha=0.5)",
            ["MulBackward0", "MulBackward1"],
            [[None, "MulBackward1"], ["NegBackward0"]],
        ),
        (
            "x.clone().sub_(y, alpha=0.3)",
            ["MulBackward0", "MulBackward1"],
            [[None, "MulBackward1"], ["NegBackward0"]],
        ),
        (
            "torch.sub(x, y)",
            ["MulBackward0", "NegBackward0"],
            [[None, "MulBackward1"], ["MulBackward0"]],
        ),
    ],
)
def test_add_and_sub_with_alpha(call: str, names: list, edges: list) -> None:
    assert _names(call, "(x, y)") == (names, edges)


def test_addmm_beta_is_one_edge() -> None:
    names, edges = _names("torch.addmm(M, A, B, beta=0.7)", "(M,)")
    assert names == ["MulBackward1"] and edges == [["MulBackward0"]]


def test_a_programs_own_product_keeps_mul_backward0() -> None:
    text = PRELUDE + "z = y * 0.3\nedges = len(z.grad_fn.next_functions)\n"
    env = parse(text, "t.py").run(dtype="float32").env
    assert env["z"].node.name() == "MulBackward0" and env["edges"] == 2


def test_values_unchanged() -> None:
    text = (
        PRELUDE
        + """g1 = torch.autograd.grad((torch.add(x, y, alpha=0.3) ** 2).sum(), y)[0]
g2 = torch.autograd.grad((torch.sub(x, y, alpha=1.7) ** 3).sum(), y)[0]
"""
    )
    env = parse(text, "t.py").run(dtype="float32").env
    f = np.float32
    x, y = env["x"].data, env["y"].data
    out = x + f(0.3) * y
    np.testing.assert_array_equal(env["g1"].data, (f(2) * out) * f(0.3))
    assert env["g2"].data.dtype == np.float32
