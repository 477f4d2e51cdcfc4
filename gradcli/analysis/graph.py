"""The recorded computation graph of an output, as plain data (for `gradcli graph`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.graph import ancestors
from ..core.op import Node, producer
from ..core.tensor import Tensor
from ..lang.program import Run


@dataclass
class GraphNode:
    id: int
    label: str  # the program's name for the tensor, or "" for an unnamed intermediate
    shape: tuple[int, ...]
    op: str | None  # grad_fn name (MulBackward0), None for leaves and constants
    kind: str  # "op", "leaf" (requires grad), "constant"
    params: dict[str, Any] = field(default_factory=dict)
    inputs: list[int] = field(default_factory=list)


def _params(p: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in p.items():
        if k.startswith("_") or isinstance(v, np.ndarray):
            continue
        out[k] = v if isinstance(v, (int, float, str, bool, type(None))) else repr(v)
    return out


def build(r: Run, of: Tensor) -> list[GraphNode]:
    """The nodes `of` depends on (the one walk, `core.graph.ancestors`), numbered as the tree
    shows them: the output first, then depth first, each node's inputs in order. A vertex is a
    node (one version of a tensor: one changed in place has several) or a leaf or constant."""
    names = {id(t): n for n, t in r.tensors.items()}
    nodes = ancestors([of])
    known = set(nodes)

    def vertex(t: Tensor, user: Node | None) -> Any:
        p = t.node
        if p is not None and user is not None and p.seq >= user.seq:
            p = producer(t, user.seq)
        return p if p is not None and p in known else id(t)

    root = vertex(of, None)
    tensor_of: dict[Any, Tensor] = {root: of}
    kids: dict[Any, list[Any]] = {}
    for n in nodes:
        ks = []
        for t in n.inputs:
            v = vertex(t, n)
            tensor_of.setdefault(v, t)
            ks.append(v)
        kids[n] = ks
    # Number depth first from the output (iteratively: a graph may be 100,000 nodes deep).
    order: dict[Any, int] = {}
    stack = [root]
    while stack:
        v = stack.pop()
        if v in order:
            continue
        order[v] = len(order)
        stack.extend(reversed([k for k in kids.get(v, []) if k not in order]))
    out: list[GraphNode] = [None] * len(order)  # type: ignore[list-item]
    for v, i in order.items():
        if isinstance(v, Node):
            t = v.out
            kind, op, params = "op", v.name(), _params(v.params)
            inputs = [order[k] for k in kids[v]]
            label = names.get(id(t), "") if t.node is v else ""  # an old version: unnamed
        else:
            t = tensor_of[v]
            kind = "leaf" if t.requires_grad and t.node is None else "constant"
            op, params, inputs = None, {}, []
            label = names.get(id(t), "")
        out[i] = GraphNode(i, label, tuple(t.shape), op, kind, params, inputs)
    return out


def to_json(of: str, nodes: list[GraphNode]) -> dict[str, Any]:
    return {
        "of": of,
        "nodes": [
            {
                "id": n.id,
                "name": n.label or None,
                "shape": list(n.shape),
                "op": n.op,
                "kind": n.kind,
                "params": n.params,
                "inputs": n.inputs,
            }
            for n in nodes
        ],
    }


def _title(n: GraphNode) -> str:
    name = n.label or ("const" if n.kind == "constant" else f"#{n.id}")
    what = n.op or ("leaf, requires_grad" if n.kind == "leaf" else "constant")
    extra = ", ".join(f"{k}={v}" for k, v in n.params.items())
    return f"{name} {list(n.shape)}  {what}" + (f"({extra})" if extra else "")


MAX_INDENT = 64  # characters of tree indentation at most


def to_tree(nodes: list[GraphNode]) -> str:
    """An indented tree from the output down to the leaves; shared nodes are shown once."""
    lines: list[str] = []
    shown: dict[int, bool] = {}
    # (node id, prefix for its line, prefix for its children, is_root)
    stack: list[tuple[int, str, str]] = [(0, "", "")]
    while stack:
        i, head, tail = stack.pop()
        n = nodes[i]
        if i in shown and n.kind == "op":
            lines.append(f"{head}{_title(n)}  (shown above)")
            continue
        shown[i] = True
        lines.append(head + _title(n))
        kids = n.inputs
        # Past a depth the indentation stops growing (a long chain would print in quadratic
        # size otherwise); the `⋮` marks where it was cut.
        if len(tail) >= MAX_INDENT:
            tail = tail[: MAX_INDENT - 4] + "⋮   "
        for k in range(len(kids) - 1, -1, -1):
            last = k == len(kids) - 1
            stack.append(
                (kids[k], tail + ("└── " if last else "├── "), tail + ("    " if last else "│   "))
            )
    return "\n".join(lines)


def to_dot(nodes: list[GraphNode]) -> str:
    """Graphviz: `gradcli graph prog.py --dot | dot -Tpng > graph.png`."""
    out = ["digraph gradcli {", "  rankdir=BT;", '  node [fontname="monospace"];']
    for n in nodes:
        shape = "box" if n.kind == "op" else "ellipse"
        style = ', style=filled, fillcolor="#dde8ff"' if n.kind == "leaf" else ""
        label = _title(n).replace("\\", "\\\\").replace('"', '\\"')
        out.append(f'  n{n.id} [label="{label}", shape={shape}{style}];')
    for n in nodes:
        for j in n.inputs:
            out.append(f"  n{j} -> n{n.id};")
    out.append("}")
    return "\n".join(out)
