"""The one graph walk (`core.graph.ancestors`) and the walkers built on it.

Every walker (backward, the Jacobian passes, symbolic, graph, export, check's blame) takes the
nodes from `ancestors`; no module follows `tensor.node` / `node.inputs` through the graph by
itself (checked on the source below), and a 100,000-node graph walks without recursion.
"""

from __future__ import annotations

import ast
import sys

import numpy as np

import gradcli
from gradcli.analysis import export
from gradcli.analysis import graph as graph_view
from gradcli.core.graph import ancestors, leaves, next_seq, producers
from gradcli.core.tensor import Tensor
from tests.helpers import ROOT


def leaf(values) -> Tensor:
    return Tensor(np.array(values, dtype=np.float64), requires_grad=True)


def test_ancestors_are_the_dependencies_in_creation_order() -> None:
    x, y = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    a = x * y
    unused = x.exp()
    b = a.sin()
    c = b + x
    nodes = ancestors([c])
    assert [n.out for n in nodes] == [a, b, c]
    assert unused.node not in nodes
    assert [n.seq for n in nodes] == sorted(n.seq for n in nodes)


def test_ancestors_stop_and_since() -> None:
    x = leaf([1.0])
    a = x * 2
    b = a.exp()
    c = b * b
    assert [n.out for n in ancestors([c], stop=[id(b)])] == [c]
    first = next_seq()
    d = c + 1
    e = d * 3
    assert [n.out for n in ancestors([e], since=first)] == [d, e]
    assert next_seq() == e.node.seq + 1


def test_producers_and_leaves() -> None:
    x, w = leaf([1.0, 2.0]), Tensor(np.array([5.0, 6.0]))
    y = (x * w).sum()
    nodes = ancestors([y])
    made = producers(nodes)
    assert made[id(y)] is y.node
    assert [id(t) for t in leaves(nodes, y)] == [id(x), id(w)]
    assert [id(t) for t in leaves([], x)] == [id(x)]


def test_a_100000_node_chain_walks_without_recursion() -> None:
    x = leaf([0.5])
    y = x
    for _ in range(100_000):
        y = y * 1.0
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)  # any recursion over the chain would fail at once
    try:
        nodes = ancestors([y])
        assert len(nodes) == 100_000
        y.backward(np.ones(1))
        np.testing.assert_array_equal(x.grad.data, [1.0])
    finally:
        sys.setrecursionlimit(limit)


def test_graph_view_and_export_of_a_deep_program() -> None:
    text = "import torch\nx = torch.tensor([0.5], requires_grad=True)\ny = x\n"
    text += "for i in range(3000):\n    y = y * 1.0\n"
    run = gradcli.parse(text).run()
    y = run.tensors["y"]
    nodes = graph_view.build(run, y)
    assert sum(n.kind == "op" for n in nodes) == 3000
    assert [n.label for n in nodes if n.kind == "leaf"] == ["x"]
    assert nodes[0].label == "y" and nodes[0].op == "MulBackward0"
    script = export.to_torch(run, "y", y, [("x", run.tensors["x"])], None, "-")
    assert script.count("# MulBackward0") == 3000


# --- nobody else walks the graph ------------------------------------------------------------

WALK_OWNER = "gradcli/core/graph.py"


def _walks_by_hand(tree: ast.AST) -> list[int]:
    """Lines of loops that step from a tensor to its node's inputs themselves: a `.node`
    attribute and an `.inputs` attribute read in the same `while` loop, or `x.node.inputs`."""
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "inputs":
            v = node.value
            if isinstance(v, ast.Attribute) and v.attr == "node":
                bad.append(node.lineno)
        if isinstance(node, ast.While):
            attrs = {a.attr for a in ast.walk(node) if isinstance(a, ast.Attribute)}
            if "node" in attrs and "inputs" in attrs:
                bad.append(node.lineno)
    return bad


def test_no_module_walks_the_graph_by_hand() -> None:
    found = {}
    for path in sorted((ROOT / "gradcli").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel == WALK_OWNER:
            continue
        lines = _walks_by_hand(ast.parse(path.read_text()))
        if lines:
            found[rel] = lines
    assert found == {}, f"graph walked by hand (use core.graph.ancestors): {found}"


def test_the_hand_walk_detector_detects() -> None:
    walk = "while stack:\n    t = stack.pop()\n    stack.extend(t.node.inputs)\n"
    assert _walks_by_hand(ast.parse(walk)) == [1, 3]
    hidden = "while s:\n    n = s.pop().node\n    s.extend(n.inputs)\n"
    assert _walks_by_hand(ast.parse(hidden)) == [1]
