"""F.linear / nn.Linear record the graph ATen's linear makes (what `print(model(x))` shows):
a 2-D input is one addmm; a contiguous input of any other rank with a bias is folded into rows,
one addmm, and a view back; without a bias, a matmul."""

from __future__ import annotations

import pytest

from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse("import torch\n" + text, "t.py").run(dtype="float32").output)


@pytest.mark.parametrize(
    "shape, bias, want",
    [
        ("(3,)", True, "ViewBackward0 AddmmBackward0"),
        ("(4, 3)", True, "AddmmBackward0 AccumulateGrad"),
        ("(2, 4, 3)", True, "ViewBackward0 AddmmBackward0"),
        ("(4, 3)", False, "MmBackward0 None"),
    ],
)
def test_the_graph_of_linear(shape: str, bias: bool, want: str) -> None:
    got = out(
        f"lin = torch.nn.Linear(3, 2, bias={bias})\ny = lin(torch.ones{shape})\n"
        "n = y.grad_fn.next_functions[0][0]\n"
        "print(y.grad_fn.name(), n.name().split(':')[-1] if n else None)\n"
    )
    assert got == want + "\n"


def test_folding_changes_no_value_and_no_gradient() -> None:
    got = out(
        "torch.manual_seed(0)\nlin = torch.nn.Linear(3, 2)\nx = torch.randn(2, 4, 3)\n"
        "a = lin(x)\nb = lin(x.reshape(8, 3)).reshape(2, 4, 2)\n"
        "print(torch.equal(a, b), torch.equal(lin(x[0, 0]), lin(x[0, :1])[0]))\n"
        "a.sum().backward()\ng = lin.weight.grad.clone()\nlin.weight.grad = None\n"
        "b.sum().backward()\nprint(torch.equal(g, lin.weight.grad))\n"
    )
    assert got == "True True\nTrue\n"


def test_the_gradient_of_a_transpose_is_named_as_pytorchs() -> None:
    """PyTorch's TBackward0 / TransposeBackward0 compute g.t() / g.transpose(): the gradient
    made with create_graph (or by torch.func.grad) carries that name; x.T is a permute."""
    got = out(
        "w = torch.ones(3, 2, requires_grad=True)\nx = torch.ones(4, 2)\n"
        "for f in (lambda w: w.t(), lambda w: w.transpose(0, 1), lambda w: w.T):\n"
        "    y = (x @ f(w)).pow(2).sum()\n"
        "    g, = torch.autograd.grad(y, w, create_graph=True)\n"
        "    print(g.grad_fn.name())\n"
    )
    assert got == "TBackward0\nTransposeBackward0\nPermuteBackward0\n"
