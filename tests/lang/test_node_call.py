"""Calling a grad_fn node (`y.grad_fn(g)`, `y.grad_fn.next_functions[0][0](g)`, as forum
answers walk a graph by hand): the node's rule on `g`, as PyTorch's node call gives it (one
input's gradient alone, several as a tuple, None for an input that does not require grad, a
broadcast operand's gradient in the output's shape, a graph recorded in grad mode). Checked
against the engine's own backward on random inputs and ops, and against central finite
differences in float64; nodes whose inputs are not PyTorch's edges are refused in words."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError, NotSupported
from gradcli.lang.program import parse

UNARY = ["sin", "exp", "tanh", "sigmoid", "log1p", "sqrt", "relu", "atan", "cos", "square"]
BINARY = ["x * w", "x / w", "x + w", "x - w", "x ** w", "torch.atan2(x, w)", "torch.maximum(x, w)"]


def _run(text: str) -> dict:
    return parse("import torch\n" + text, "t.py").run().tensors


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("op", UNARY)
def test_a_unary_node_gives_the_rule_on_its_gradient(op: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    xs = (rng.uniform(0.2, 2.0, 5)).tolist()
    gs = rng.normal(size=5).tolist()
    t = _run(
        f"x = torch.tensor({xs}, dtype=torch.float64, requires_grad=True)\n"
        f"g = torch.tensor({gs}, dtype=torch.float64)\n"
        f"y = torch.{op}(x)\n"
        "called = y.grad_fn(g)\n"
        "(want,) = torch.autograd.grad(y, x, g)\n"
    )
    assert t["called"].shape == (5,)
    np.testing.assert_array_equal(t["called"].data, t["want"].data)


def _finite_difference(f, x: np.ndarray, g: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        out[i] = np.sum(g * (f(x + d) - f(x - d))) / (2 * eps)
    return out


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("expr", BINARY)
def test_a_binary_node_gives_each_operands_gradient(expr: str, seed: int) -> None:
    """Both operands: the tuple (gx, gw), each against central differences in float64."""
    rng = np.random.default_rng(seed)
    xv = rng.uniform(0.5, 2.0, (2, 3))
    wv = rng.uniform(0.5, 2.0, (2, 3))
    gv = rng.normal(size=(2, 3))
    t = _run(
        f"x = torch.tensor({xv.tolist()}, dtype=torch.float64, requires_grad=True)\n"
        f"w = torch.tensor({wv.tolist()}, dtype=torch.float64, requires_grad=True)\n"
        f"g = torch.tensor({gv.tolist()}, dtype=torch.float64)\n"
        f"y = {expr}\n"
        "gx, gw = y.grad_fn(g)\n"
    )
    fn = {
        "x * w": lambda a, b: a * b,
        "x / w": lambda a, b: a / b,
        "x + w": lambda a, b: a + b,
        "x - w": lambda a, b: a - b,
        "x ** w": lambda a, b: a**b,
        "torch.atan2(x, w)": np.arctan2,
        "torch.maximum(x, w)": np.maximum,
    }[expr]
    np.testing.assert_allclose(
        t["gx"].data, _finite_difference(lambda a: fn(a, wv), xv, gv), rtol=1e-6, atol=1e-8
    )
    np.testing.assert_allclose(
        t["gw"].data, _finite_difference(lambda b: fn(xv, b), wv, gv), rtol=1e-6, atol=1e-8
    )


def test_a_broadcast_operand_gets_the_outputs_shape_and_a_constant_none() -> None:
    run = parse(
        "import torch\nx = torch.tensor([1., 2., 3.], requires_grad=True)\n"
        "w = torch.tensor([[0.5, -1., 2.], [1., 1., 1.]])\n"
        "r = (x * w).grad_fn(torch.ones(2, 3))\n"
        "gx = r[0]\nprint(type(r).__name__, len(r), r[1] is None)\n"
        "(want,) = torch.autograd.grad((x * w).sum(), x)\n",
        "t.py",
    ).run()
    t = run.tensors
    assert "".join(run.output) == "tuple 2 True\n"
    assert t["gx"].shape == (2, 3)
    np.testing.assert_array_equal(t["gx"].data.sum(0), t["want"].data)


def test_the_result_records_a_graph_in_grad_mode_only() -> None:
    t = _run(
        "x = torch.tensor([0.5, 1.0], requires_grad=True)\n"
        "y = torch.sin(x)\n"
        "a = y.grad_fn(torch.ones(2))\n"
        "with torch.no_grad():\n    b = y.grad_fn(torch.ones(2))\n"
        "(dd,) = torch.autograd.grad(a.sum(), x)\n"
    )
    assert t["a"].requires_grad and not t["b"].requires_grad
    np.testing.assert_allclose(t["dd"].data, -np.sin([0.5, 1.0]), rtol=1e-6)


@pytest.mark.parametrize(
    "call, words",
    [
        ("y.grad_fn(torch.ones(2), torch.ones(2))", "expected 1 arguments, got 2 instead"),
        ("y.grad_fn()", "expected 1 arguments, got 0 instead"),
        (
            "y.backward(torch.ones(2))\ny.grad_fn(torch.ones(2))",
            "Trying to backward through the graph a second time",
        ),
    ],
)
def test_pytorchs_errors(call: str, words: str) -> None:
    program = parse(
        "import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * 2).exp()\n" + call, "t.py"
    )
    with pytest.raises(GradcliError, match=words):
        program.run()


@pytest.mark.parametrize(
    "call",
    [
        # gradcli records unsqueeze-then-expand as one equation: PyTorch's ExpandBackward0
        # takes the unsqueezed tensor
        "x.unsqueeze(0).expand(2, 2).grad_fn(torch.ones(2, 2))",
        # where's condition is an input here, not one of PyTorch's edges
        "torch.where(x > 0, x, 2 * x).grad_fn(torch.ones(2))",
        # a gradient of another shape than the output's
        "y.grad_fn(torch.ones(3))",
        "y.grad_fn(torch.ones(2, dtype=torch.float16))",
        # nn.Linear's node: gradcli's product and sum
        "torch.nn.Linear(2, 3)(x.unsqueeze(0)).grad_fn(torch.ones(1, 3))",
        # eigh's node takes a gradient for each output (PyTorch's one node, gradcli's two):
        # refused in words, not with a count of arguments PyTorch would not give
        "torch.linalg.eigh(torch.diag(x))[1].grad_fn(None, torch.ones(2, 2))",
        "torch.linalg.eigh(torch.diag(x))[0].grad_fn(torch.ones(2), None)",
    ],
)
def test_nodes_that_are_not_pytorchs_are_refused_in_words(call: str) -> None:
    program = parse(
        "import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * 2).exp()\n" + call, "t.py"
    )
    with pytest.raises(NotSupported, match=r"is not supported by gradcli") as e:
        program.run()
    assert "torch.autograd.grad" in str(e.value.hint)


def test_a_custom_functions_node_runs_its_backward() -> None:
    t = _run(
        "class Cube(torch.autograd.Function):\n"
        "    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x)\n"
        "        return x ** 3\n"
        "    @staticmethod\n    def backward(ctx, g):\n        (x,) = ctx.saved_tensors\n"
        "        return 3 * x ** 2 * g\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "y = Cube.apply(x)\n"
        "called = y.grad_fn(torch.ones(2))\n"
    )
    np.testing.assert_array_equal(t["called"].data, [3.0, 12.0])


@pytest.mark.parametrize(
    "pieces",
    ["x.split([1, 3, 2])", "x.reshape(2, 3).unbind(1)", "x.chunk(3)", "x.reshape(3, 2).split(1)"],
)
def test_the_node_of_pieces_takes_one_gradient_each(pieces: str) -> None:
    rng = np.random.default_rng(len(pieces))
    xs = rng.normal(size=6).tolist()
    t = _run(
        f"x = torch.tensor({xs}, dtype=torch.float64, requires_grad=True)\n"
        f"ps = {pieces}\n"
        "gs = [torch.randn(p.shape, dtype=torch.float64) for p in ps]\n"
        "gs[1] = None\n"
        "by_node = ps[-1].grad_fn(*gs)\n"
        "(by_grad,) = torch.autograd.grad(\n"
        "    [p for p, g in zip(ps, gs) if g is not None], x,\n"
        "    [g for g in gs if g is not None])\n"
    )
    # (the node's input is the tensor split: x, or its reshape)
    np.testing.assert_array_equal(t["by_node"].data.reshape(-1), t["by_grad"].data)


def test_the_node_of_pieces_counts_its_gradients() -> None:
    with pytest.raises(GradcliError, match="expected 2 arguments, got 1 instead"):
        _run("x = torch.ones(4, requires_grad=True)\na, b = x.split(2)\na.grad_fn(torch.ones(2))")
