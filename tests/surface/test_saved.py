"""`grad_fn._saved_<name>`: the saved variables each record declares (`Op.saved`).

The getters are checked on the records' own samples (a tensor variable is the input or the
output it names, a size is the input's shape); the names and values are checked against
PyTorch's nodes where torch is installed (a wrong name, a missing one or a value off fails).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core import saved as V
from gradcli.core.op import apply
from gradcli.core.tensor import Settings, Tensor
from gradcli.lang.program import parse
from gradcli.ops import REGISTRY
from tests.helpers.gradcheck import make_inputs

DECLARING = sorted(n for n, op in REGISTRY.items() if op.saved is not None)


@pytest.fixture(autouse=True)
def _settings_restored() -> Any:
    saved = (Settings.default_dtype, Settings.draw_dtype, Settings.seed)
    yield
    Settings.default_dtype, Settings.draw_dtype, Settings.seed = saved


def test_the_usual_records_declare_their_saved_values() -> None:
    for name in ("mul", "div", "pow", "pow_scalar", "exp", "log", "sin", "cos", "tanh"):
        assert name in DECLARING
    for name in ("sigmoid", "relu", "threshold", "matmul", "sum", "mean", "add", "sub"):
        assert name in DECLARING


@pytest.mark.parametrize("name", DECLARING)
def test_getters_name_the_nodes_values(name: str) -> None:
    op = REGISTRY[name]
    for k, s in enumerate(op.samples):
        arrays = make_inputs(s, k)
        inputs = [Tensor(a, requires_grad=True) for a in arrays]
        out = apply(op, *inputs, **s.params)
        node = out.node
        table = V.lookup(node)
        if table is None:  # a variant PyTorch shows under a name gradcli exposes nothing of
            continue
        for var, getter in table.items():
            if getter.refuse is not None:
                continue
            value = getter.get(node)
            if getter.tensor:
                want = out if getter.slot == -1 else inputs[getter.slot]
                assert value is want, (name, var)
            elif var.endswith("_sym_sizes"):
                i = 0 if var.startswith("self") else 1
                assert value == inputs[i].shape, (name, var)
            elif var.endswith("_sym_numel"):
                assert value == inputs[0].data.size, (name, var)


def _run(text: str) -> list[str]:
    return "".join(parse(text, "prog.py").run(dtype="float32").output).splitlines()


def test_identity_and_copies() -> None:
    out = _run(
        "import torch\nx = torch.randn(3, requires_grad=True)\ny = x.exp()\n"
        "r = y.grad_fn._saved_result\n"
        "print(x.sin().grad_fn._saved_self is x, r is y, r.equal(y), r.grad_fn is y.grad_fn)\n"
        "print(x.exp().grad_fn._saved_result.shape)\n"
    )
    assert out == ["True False True True", "torch.Size([3])"]


def test_wrapped_numbers_keep_their_python_type() -> None:
    out = _run(
        "import torch\nx = torch.randn(3, requires_grad=True)\nc = torch.ones(3)\n"
        "print((x * 2).grad_fn._saved_other, (x * 2.0).grad_fn._saved_other)\n"
        "print((2 * x).grad_fn._saved_self, (2 * x).grad_fn._saved_other)\n"
        "print((x * True).grad_fn._saved_other, (x * c).grad_fn._saved_other is c)\n"
    )
    assert out == [
        "tensor(2) tensor(2., dtype=torch.float64)",
        "None tensor(2)",
        "tensor(True) True",
    ]


def test_freed_and_modified_saved_tensors_are_refused() -> None:
    with pytest.raises(GradcliError, match="backward through the graph a second time"):
        _run(
            "import torch\nx = torch.randn(3, requires_grad=True)\ny = x.sin()\n"
            "y.sum().backward()\ny.grad_fn._saved_self\n"
        )
    with pytest.raises(GradcliError, match="modified by an inplace operation"):
        _run(
            "import torch\nx = torch.randn(3, requires_grad=True)\nh = x * 2\n"
            "y = h.cos()\nh.add_(1)\ny.grad_fn._saved_self\n"
        )
    # a value that is not a tensor survives the pass
    assert _run(
        "import torch\nx = torch.randn(3, requires_grad=True)\ny = x.pow(3)\n"
        "y.sum().backward()\nprint(y.grad_fn._saved_exponent)\n"
    ) == ["3"]


def test_alpha_is_never_guessed() -> None:
    with pytest.raises(GradcliError, match="does not expose _saved_alpha"):
        _run(
            "import torch\nx = torch.randn(3, requires_grad=True)\n"
            "torch.add(x, x, alpha=2).grad_fn._saved_alpha\n"
        )
    assert _run(
        "import torch\nx = torch.randn(3, requires_grad=True)\nprint((x + x).grad_fn._saved_alpha)"
    ) == ["1"]


# Expressions over a (3,) x and a (2, 3) m that require grad, c and k that do not.
_EXPRESSIONS = (
    "x * m",
    "x * c",
    "c * x",
    "x * 2",
    "3 * x",
    "x * 2.5",
    "x / m",
    "c / x",
    "x / 4",
    "x.pow(2)",
    "x ** 2.5",
    "x.square()",
    "x.abs() ** m",
    "x.exp()",
    "x.log()",
    "x.sin()",
    "x.cos()",
    "x.tanh()",
    "x.sigmoid()",
    "x.relu()",
    "torch.relu(m)",
    "x.sqrt()",
    "x.abs()",
    "torch.nn.functional.threshold(x, 0.1, 20.0)",
    "m.mm(m.t())",
    "m @ k",
    "k.t() @ m.t()",
    "m @ x",
    "m @ c",
    "x @ c",
    "m[0] @ x",
    "m.sum()",
    "m.sum(0, keepdim=True)",
    "m.mean()",
    "m.mean(1)",
    "x + m",
    "x - m",
    "x + 2",
    "torch.nn.functional.linear(m, m)",
    "torch.nn.functional.linear(m, k.t(), torch.ones(4))",
    "torch.nn.functional.linear(k.t(), m, c[:2])",
    "torch.nn.functional.linear(m, m, x[:2])",
)

_PRELUDE = (
    "import torch\ntorch.manual_seed(0)\nx = torch.randn(3, requires_grad=True)\n"
    "m = torch.randn(2, 3, requires_grad=True)\nc = torch.randn(3)\nk = torch.randn(3, 4)\n"
)


def _describe_torch(expr: str) -> list[str]:
    torch = pytest.importorskip("torch")
    env: dict[str, Any] = {}
    exec(_PRELUDE, env)  # noqa: S102 - the test's own program, under PyTorch
    node = eval(expr, env).grad_fn  # noqa: S307
    lines = [node.name()]
    for a in sorted(a for a in dir(node) if a.startswith("_saved_")):
        if a == "_saved_dim":
            continue  # refused by gradcli (it keeps the dims non-negative)
        v = getattr(node, a)
        lines.append(f"{a} {str(v) if isinstance(v, torch.Tensor) else repr(v)}")
    return "\n".join(lines).splitlines()


def _describe_gradcli(expr: str, names: list[str]) -> list[str]:
    lines = [f"n = ({expr}).grad_fn", "print(n.name())"]
    for a in names:
        lines.append(f"v = n.{a}")
        lines.append(f"print('{a}', v if isinstance(v, torch.Tensor) else repr(v))")
    return _run(_PRELUDE + "\n".join(lines) + "\n")


@pytest.mark.parametrize("expr", _EXPRESSIONS)
def test_saved_values_are_pytorchs(expr: str) -> None:
    want = _describe_torch(expr)
    names = [line.split(" ", 1)[0] for line in want[1:] if line.startswith("_saved_")]
    assert _describe_gradcli(expr, names) == want
    # gradcli declares no name PyTorch's node lacks
    run = parse(_PRELUDE + f"y = {expr}\n", "prog.py").run(dtype="float32")
    table = V.lookup(run.env["y"].node.shown())
    assert table is not None
    shown = set(names)
    assert {f"_saved_{k}" for k in table} - {"_saved_dim"} == shown


def test_no_numpy_array_leaks() -> None:
    # the sizes are tuples of Python ints, as PyTorch's
    run = parse(_PRELUDE + "y = m.mm(m.t())\n", "prog.py").run(dtype="float32")
    table = V.lookup(run.env["y"].node)
    for k in ("self_sym_sizes", "mat2_sym_strides"):
        v = table[k].get(run.env["y"].node)
        assert isinstance(v, tuple) and all(type(i) is int for i in v)
    assert not isinstance(table["self"].get(run.env["y"].node).data, np.generic)
