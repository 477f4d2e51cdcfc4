"""torch.fx (`lang.fx`): a traced module's GraphModule computes what the module does and its
gradients flow (checked against central finite differences in float64), also after the graph
is edited; what tracing cannot follow is PyTorch's catchable error. PyTorch's printed text
of graphs, code and modules is the corpus's (2010-2012)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse("import torch\nimport torch.fx\n" + text, "t.py").run().output)


W = [[0.3, -0.7, 0.2], [0.5, 0.1, -0.4]]
B = [0.05, -0.2]
X = [[1.0, 2.0, -1.0], [0.5, -0.3, 0.8], [-1.2, 0.4, 0.9]]
MODEL = f"""
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 2).double()
        self.s = torch.nn.Parameter(torch.tensor([1.5, -0.5], dtype=torch.float64))
        with torch.no_grad():
            self.lin.weight.copy_(torch.tensor({W}, dtype=torch.float64))
            self.lin.bias.copy_(torch.tensor({B}, dtype=torch.float64))
    def forward(self, x):
        return (torch.tanh(self.lin(x)) * self.s).pow(2).sum()
gm = torch.fx.symbolic_trace(M())
x = torch.tensor({X}, dtype=torch.float64, requires_grad=True)
"""


def _numeric(fn, a: np.ndarray, h: float = 1e-6) -> np.ndarray:
    g = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        up, down = a.copy(), a.copy()
        up[i] += h
        down[i] -= h
        g[i] = (fn(up) - fn(down)) / (2 * h)
    return g


def _values(text: str) -> list[np.ndarray]:
    return [np.array(eval(line)) for line in text.strip().splitlines()]  # noqa: S307 (our text)


def _loss(w: np.ndarray, x: np.ndarray, s: np.ndarray, act=np.tanh) -> float:
    return float(np.sum((act(x @ w.T + np.array(B)) * s) ** 2))


def test_graph_module_gradients_match_central_differences() -> None:
    got = out(
        MODEL + "loss = gm(x)\nloss.backward()\n"
        "print(x.grad.tolist())\nprint(gm.lin.weight.grad.tolist())\nprint(gm.s.grad.tolist())\n"
    )
    gx, gw, gs = _values(got)
    w, x, s = np.array(W), np.array(X), np.array([1.5, -0.5])
    np.testing.assert_allclose(gx, _numeric(lambda v: _loss(w, v, s), x), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(gw, _numeric(lambda v: _loss(v, x, s), w), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(gs, _numeric(lambda v: _loss(w, x, v), s), rtol=1e-7, atol=1e-9)


def test_an_edited_graph_runs_its_new_target_with_gradients() -> None:
    got = out(
        MODEL + "for n in gm.graph.nodes:\n"
        "    if n.target == torch.tanh:\n        n.target = torch.sin\n"
        "gm.recompile()\nloss = gm(x)\nloss.backward()\nprint(x.grad.tolist())\n"
    )
    (gx,) = _values(got)
    w, x, s = np.array(W), np.array(X), np.array([1.5, -0.5])
    expect = _numeric(lambda v: _loss(w, v, s, np.sin), x)
    np.testing.assert_allclose(gx, expect, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("if x.max() > 1:\n            x = x * 2\n        return x", "control flow"),
        ("return torch.stack([r for r in x])", "cannot be iterated"),
        ("return x.reshape(len(x), -1)", "'len' is not supported"),
    ],
)
def test_what_tracing_cannot_follow_is_catchable(body: str, words: str) -> None:
    got = out(
        "class C(torch.nn.Module):\n    def forward(self, x):\n        " + body + "\n"
        "try:\n    torch.fx.symbolic_trace(C())\nexcept Exception as e:\n"
        "    print(type(e).__name__, e)\n"
    )
    assert words in got


def test_erasing_a_used_node_is_refused_in_pytorchs_words() -> None:
    with pytest.raises(GradcliError, match="still had 1 users"):
        out(
            "def f(x):\n    return x.sin() + 1\ng = torch.fx.symbolic_trace(f)\n"
            "g.graph.erase_node(list(g.graph.nodes)[1])\n"
        )
