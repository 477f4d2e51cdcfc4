"""The nodes a selection's gradient records under create_graph, as PyTorch 2.13 names them
(its backward formulas: gather's scatter_add, sort's and max(dim)'s scatter, index_select's
index_add, masked_select's masked_scatter, max()'s masked_fill of g / count, tril's tril), and
the second derivatives through them against central differences in float64."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.lang.program import parse

HEAD = "import torch\nx = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]], requires_grad=True)\n"

# (the selection, PyTorch's node of x's gradient, the names of its next_functions)
NAMES = [
    ("x.gather(1, torch.tensor([[0, 2], [1, 0]]))", "ScatterAddBackward0", ["AddBackward0"]),
    ("x.sort(1)[0]", "ScatterBackward0", ["AddBackward0"]),
    ("x.topk(2, 1)[0]", "ScatterBackward0", ["AddBackward0"]),
    ("x.max(1)[0]", "ScatterBackward0", ["UnsqueezeBackward0"]),
    ("x.min(0)[0]", "ScatterBackward0", ["UnsqueezeBackward0"]),
    ("x.max(1, keepdim=True)[0]", "ScatterBackward0", ["AddBackward0"]),
    ("x.max()", "MaskedFillBackward1", ["DivBackward0"]),
    ("x.min()", "MaskedFillBackward1", ["DivBackward0"]),
    ("x.index_select(1, torch.tensor([2, 0]))", "IndexAddBackward0", ["AddBackward0"]),
    ("x.masked_select(x > 0)", "MaskedScatterBackward0", ["AddBackward0"]),
    ("x.flip(1)", "FlipBackward0", ["AddBackward0"]),
    ("x.roll(1, 1)", "RollBackward0", ["AddBackward0"]),
    ("x.tril()", "TrilBackward0", ["AddBackward0"]),
    ("x.triu(1)", "TriuBackward0", ["AddBackward0"]),
    ("x.cummax(1)[0]", "ScatterAddBackward0", ["AddBackward0"]),
    ("x.cummin(1)[0]", "ScatterAddBackward0", ["AddBackward0"]),
    ("x.kthvalue(2, 1)[0]", "ScatterBackward0", ["UnsqueezeBackward0"]),
    ("x.kthvalue(2, 1, keepdim=True)[0]", "ScatterBackward0", ["AddBackward0"]),
    ("x.median(0, keepdim=True)[0]", "ScatterBackward0", ["AddBackward0"]),
    # (unchanged: PyTorch's own indexing nodes)
    ("x[:, 1:]", "SliceBackwardBackward0", ["AddBackward0"]),
    ("x[torch.tensor([1, 0])]", "IndexPutImplBackward0", ["AddBackward0"]),
]


@pytest.mark.parametrize(("sel", "name", "nexts"), NAMES)
def test_gradient_node_names(sel: str, name: str, nexts: list[str]) -> None:
    env = (
        parse(
            HEAD + f"y = {sel}\n"
            "g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)\n"
            "name = g.grad_fn.name()\n"
            "nexts = [f[0].name() for f in g.grad_fn.next_functions if f[0] is not None]\n",
            "t.py",
        )
        .run(dtype="float32")
        .env
    )
    assert env["name"] == name
    assert env["nexts"] == nexts


@pytest.mark.parametrize(
    ("sel", "fn"),
    [
        ("x.max(1)[0]", lambda a: a.max(1)),
        ("x.max()", lambda a: a.max()),
        ("x.tril()", lambda a: np.tril(a)),
        ("x.sort(1)[0]", lambda a: np.sort(a, 1)),
    ],
)
def test_second_derivative_through_the_nodes(sel: str, fn) -> None:
    env = (
        parse(
            "import torch\n"
            "x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]], dtype=torch.float64,\n"
            "    requires_grad=True)\n"
            f"g, = torch.autograd.grad(({sel}).pow(3).sum(), x, create_graph=True)\n"
            "h, = torch.autograd.grad(g.sum(), x)\n",
            "t.py",
        )
        .run(dtype="float64")
        .env
    )
    x0 = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]])

    def grad_sum(a: np.ndarray) -> float:
        # the sum of the gradient of sum(sel(a) ** 3), by central differences
        eps = 1e-5
        total = 0.0
        for i in np.ndindex(a.shape):
            e = np.zeros_like(a)
            e[i] = eps
            total += ((fn(a + e) ** 3).sum() - (fn(a - e) ** 3).sum()) / (2 * eps)
        return total

    eps = 1e-4
    want = np.zeros_like(x0)
    for i in np.ndindex(x0.shape):
        e = np.zeros_like(x0)
        e[i] = eps
        want[i] = (grad_sum(x0 + e) - grad_sum(x0 - e)) / (2 * eps)
    np.testing.assert_allclose(np.asarray(env["h"].data), want, rtol=1e-5, atol=1e-5)
