"""The deprecated `module.register_backward_hook` where the module's last node is one PyTorch
builds of several of gradcli's records: nn.Linear with a bias (PyTorch's one AddmmBackward0 of
bias, input and weight.t()), a vector or an N-d tensor times a matrix (a view of PyTorch's mm);
and PyTorch's FutureWarning. Expected values are PyTorch 2.13's (checked with /work/torchenv)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

HEAD = (
    "import torch\nimport torch.nn as nn\nseen = []\n"
    "def shapes(m, gi, go):\n"
    "    seen.append([None if g is None else tuple(g.shape) for g in gi])\n"
)


def run(text: str) -> tuple[str, list[str]]:
    result = parse(HEAD + text, "t.py").run(dtype="float32")
    return "".join(result.output), [str(w) for w in result.warnings]


@pytest.mark.parametrize(
    "module, x, expected",
    [
        ("nn.Linear(3, 2)", "torch.ones(4, 3, requires_grad=True)", "[(2,), (4, 3), (3, 2)]"),
        ("nn.Linear(3, 2)", "torch.ones(4, 3)", "[(2,), None, (3, 2)]"),
        ("nn.Linear(3, 2)", "torch.ones(3)", "[(1, 2)]"),
        ("nn.Linear(3, 2, bias=False)", "torch.ones(3)", "[(1, 2)]"),
        ("nn.Linear(3, 2, bias=False)", "torch.ones(5, 2, 3)", "[(10, 2)]"),
        ("nn.Linear(3, 2, bias=False)", "torch.ones(4, 3)", "[None, (3, 2)]"),
        ("nn.Conv2d(1, 2, 2, bias=False)", "torch.ones(1, 1, 3, 3)", "[None, (2, 1, 2, 2), None]"),
    ],
)
def test_grad_input_is_the_last_nodes_as_pytorch(module: str, x: str, expected: str) -> None:
    got, _ = run(
        f"m = {module}\nm.register_backward_hook(shapes)\nm({x}).sum().backward()\nprint(seen[0])\n"
    )
    assert got == expected + "\n"


def test_a_tuple_returned_replaces_the_gradients_of_bias_input_and_weight() -> None:
    got, warnings = run(
        "m = nn.Linear(2, 2)\nwith torch.no_grad():\n    m.weight.copy_(torch.eye(2))\n"
        "m.register_backward_hook(lambda mod, gi, go: (gi[0] * 10, None, gi[2] * 100))\n"
        "x = torch.tensor([[1.0, 2.0]], requires_grad=True)\nm(x).sum().backward()\n"
        "print(x.grad, m.weight.grad.tolist(), m.bias.grad.tolist())\n"
        "m(x).sum().backward()\nprint(x.grad, m.weight.grad.tolist())\n"
    )
    # grad of weight.t() is x.T @ g = [[1, 1], [2, 2]]; times 100, transposed into weight
    assert got == (
        "None [[100.0, 200.0], [100.0, 200.0]] [10.0, 10.0]\n"
        "None [[200.0, 400.0], [200.0, 400.0]]\n"
    )
    assert len(warnings) == 1 and "contains multiple autograd Nodes" in warnings[0]


def test_a_vector_times_a_matrix_hook_replaces_the_products_gradient() -> None:
    got, _ = run(
        "m = nn.Linear(2, 2, bias=False)\nwith torch.no_grad():\n    m.weight.copy_(torch.eye(2))\n"
        "m.register_backward_hook(lambda mod, gi, go: (gi[0] * 3,))\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\nm(x).sum().backward()\n"
        "print(x.grad, m.weight.grad.tolist())\n"
    )
    assert got == "tensor([3., 3.]) [[3.0, 6.0], [3.0, 6.0]]\n"


def test_no_warning_where_the_last_nodes_inputs_are_the_modules() -> None:
    _, warnings = run(
        "r = nn.ReLU()\nr.register_backward_hook(shapes)\n"
        "h = torch.ones(2, requires_grad=True)\nr(h * 2).sum().backward()\n"
    )
    assert warnings == []


@pytest.mark.parametrize(
    "ret, message",
    [
        ("(gi[0], gi[1])", "returned an incorrect number of values (got 2, but expected 3)"),
        ("(torch.ones(5), gi[1], gi[2])", "has changed the size of value"),
        ("(gi[0], gi[1], 'g')", "expected Variable, but hook returned 'str'"),
    ],
)
def test_a_wrong_replacement_is_refused(ret: str, message: str) -> None:
    with pytest.raises(GradcliError) as e:
        run(
            f"m = nn.Linear(3, 2)\nm.register_backward_hook(lambda mod, gi, go: {ret})\n"
            "m(torch.ones(2, 3, requires_grad=True)).sum().backward()\n"
        )
    assert message in e.value.message
