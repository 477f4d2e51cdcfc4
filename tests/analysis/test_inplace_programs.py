"""The analyses on programs that change tensors of the graph in place (`h += x`, `h.mul_(3)`,
`h[0] = ...`): every walker resolves which version of a tensor a node read (`Node.prev`), so
the Jacobian by every method equals central differences of the replayed graph and PyTorch's;
the graph view and the exported script show the versions; a value changed after a node saved
it is refused, as PyTorch's backward refuses it."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli
from gradcli.analysis.export import to_torch
from gradcli.analysis.graph import build
from gradcli.analysis.jacobian import jacobian
from gradcli.base.errors import GradcliError

HEAD = "import torch\nx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
PROGRAMS = {
    "iadd_then_mul_": HEAD + "h = x * x\nz = h * 2\nh += x\nh.mul_(3)\ny = h * z\n",
    "copy_slices": HEAD + "h = x * x\nz = h * 2\nh += x\nh[0] = 5.0 * x[1]\ny = h * z\n",
    "old_version_down_a_chain": HEAD
    + "h = x * 2\nz = (h * 2).sin()\nh.add_(1)\nw = z * 3\ny = w * h\n",
    "slice_assign": HEAD + "h = x * 2\nh[1:] = x[:2] ** 2\ny = h.tanh() * h\n",
}


def torch_jacobian(text: str) -> np.ndarray:
    """PyTorch's Jacobian of the program's `y` with respect to `x` (the program run in torch,
    one backward pass per output element)."""
    torch = pytest.importorskip("torch")
    space: dict = {"torch": torch}
    exec(
        compile(
            text.replace("torch.tensor(", "torch.tensor(dtype=torch.float64, data="), "p", "exec"
        ),
        space,
    )  # noqa: S102
    x, y = space["x"], space["y"]
    rows = []
    for i in range(y.numel()):
        (g,) = torch.autograd.grad(y.reshape(-1)[i], x, retain_graph=True)
        rows.append(g.numpy())
    return np.array(rows)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("method", ["rows", "batched", "forward"])
def test_every_method_equals_central_differences(name: str, method: str) -> None:
    text = PROGRAMS[name]
    exact = jacobian(text, "y", ["x"], method).array
    numeric = jacobian(text, "y", ["x"], "numeric").array
    np.testing.assert_allclose(exact, numeric, rtol=1e-7, atol=1e-7)
    assert np.abs(exact).max() > 0


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_jacobian_equals_pytorchs(name: str) -> None:
    want = torch_jacobian(PROGRAMS[name])
    np.testing.assert_allclose(jacobian(PROGRAMS[name], "y", ["x"]).array, want, rtol=1e-12)


def test_the_comparison_notices_the_old_version() -> None:
    """Reading the latest version where a node read an old one changes the answer (what the
    walkers got wrong before): the test above can fail."""
    text = PROGRAMS["iadd_then_mul_"]
    wrong = jacobian(
        text.replace("z = h * 2\nh += x\nh.mul_(3)\n", "h += x\nh.mul_(3)\nz = h * 2\n"), "y", ["x"]
    ).array
    assert not np.allclose(wrong, jacobian(text, "y", ["x"]).array)


def test_graph_view_shows_each_version() -> None:
    run = gradcli.parse(PROGRAMS["iadd_then_mul_"]).run()
    nodes = build(run, run.tensor("y"))
    ops = [n.op for n in nodes if n.kind == "op"]
    # y = h3 * z; h3 = h2 * 3; h2 = h1 + x; z = h1 * 2; h1 = x * x (shown once)
    assert sorted(ops) == sorted(
        ["MulBackward0", "MulBackward0", "AddBackward0", "MulBackward0", "MulBackward0"]
    )
    z = next(n for n in nodes if n.label == "z")
    h1 = nodes[z.inputs[0]]
    assert h1.op == "MulBackward0" and h1.label == ""  # the old version of h, unnamed


def test_exported_script_replays_the_versions() -> None:
    torch = pytest.importorskip("torch")
    text = PROGRAMS["iadd_then_mul_"] + "s = y.sum()\n"
    run = gradcli.parse(text).run()
    script = to_torch(run, "s", run.tensor("s"), [("x", run.tensor("x"))], None, "p.py")
    space: dict = {}
    printed: list = []
    space["print"] = lambda *a: printed.append(a)
    exec(compile(script, "export", "exec"), {"torch": torch, **space})  # noqa: S102
    ((name, grad),) = printed
    want = torch_jacobian(PROGRAMS["iadd_then_mul_"]).sum(axis=0)
    np.testing.assert_allclose(grad.numpy(), want, rtol=1e-12)


def test_a_saved_value_changed_in_place_is_refused_by_every_method() -> None:
    text = HEAD + "h = x.exp()\nz = h * 2\nh.add_(1)\ny = z * h\n"
    for method in ("rows", "batched", "forward"):
        with pytest.raises(GradcliError, match="modified by an inplace operation"):
            jacobian(text, "y", ["x"], method)
