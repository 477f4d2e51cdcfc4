"""The recorded computation graph of an output, as plain data (for `gradcli graph`)."""

from __future__ import annotations

from collections.abc import Callable
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
    value: np.ndarray | None = None  # with_values: the tensor's value
    grad: np.ndarray | None = None  # with_values: d<grad, output>/d(this tensor)
    tensor: Any = field(default=None, repr=False, compare=False)


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
        # An old version of a tensor changed in place: its value is gone (no tensor to show).
        current = not isinstance(v, Node) or t.node is v
        out[i] = GraphNode(
            i, label, tuple(t.shape), op, kind, params, inputs, tensor=t if current else None
        )
    return out


def with_values(
    nodes: list[GraphNode],
    out: Tensor,
    grad_output: np.ndarray | None = None,
    *,
    values: bool = True,
    grads: bool = True,
) -> None:
    """Fill each node's value and/or gradient (micrograd's picture, for tensors): the
    gradient of <grad_output, out> (default: ones for a one-element output) with respect to
    every tensor of the graph, from one backward pass. Constants get no gradient."""
    if values:
        for n in nodes:
            if n.tensor is not None:
                n.value = np.array(n.tensor.data)
    if not grads:
        return
    from ..core.autograd import run_backward

    g = np.ones(out.shape, dtype=out.dtype) if grad_output is None else grad_output
    got = run_backward(
        [out],
        [Tensor(np.array(g, dtype=out.dtype))],
        capture=[n.tensor for n in nodes if n.kind != "constant" and n.tensor is not None],
        check_freed=False,
    )
    for n in nodes:
        if n.kind != "constant" and n.tensor is not None:
            found = got.get(id(n.tensor))
            n.grad = np.array(found[1].data) if found is not None else np.zeros(n.shape, out.dtype)


def to_json(of: str, nodes: list[GraphNode]) -> dict[str, Any]:
    from .results import jsonable

    out = []
    for n in nodes:
        d: dict[str, Any] = {
            "id": n.id,
            "name": n.label or None,
            "shape": list(n.shape),
            "op": n.op,
            "kind": n.kind,
            "params": n.params,
            "inputs": n.inputs,
        }
        if n.value is not None:
            d["value"] = jsonable(n.value)
        if n.grad is not None:
            d["grad"] = jsonable(n.grad)
        out.append(d)
    return {"of": of, "nodes": out}


BRIEF_VALUES = 6  # values of a tensor shown in a node's line; more are elided


# A tensor's number format: given the tensor, a function of one of its values.
NumberFormat = Callable[[np.ndarray], Callable[[Any], str]]


def brief(a: np.ndarray, numbers: NumberFormat | None = None) -> str:
    """A tensor's values in a few characters: 4 significant digits (or the format `numbers`
    makes for the tensor), nested like the tensor, at most BRIEF_VALUES values (the first and
    last ones; the count of the others)."""
    a = np.asarray(a)
    if a.dtype.kind == "b":
        a = a.astype(np.int8)
    if a.dtype.kind == "f":
        a = a + 0.0  # -0 as 0

    def num(v: Any) -> str:
        if a.dtype.kind in "iu":
            return str(int(v))
        return f"{float(v):.4g}"

    if numbers is not None and a.dtype.kind == "f":
        num = numbers(a)  # noqa: F811 - the format asked for

    if a.ndim == 0:
        return num(a)
    if a.size <= BRIEF_VALUES:
        return _nested(a, num)
    flat = a.reshape(-1)
    head = ", ".join(num(v) for v in flat[:3])
    tail = ", ".join(num(v) for v in flat[-2:])
    return f"[{head}, … {a.size - 5:,} more …, {tail}]"


def _nested(a: np.ndarray, num: Any) -> str:
    if a.ndim == 1:
        return "[" + ", ".join(num(v) for v in a) + "]"
    return "[" + ", ".join(_nested(x, num) for x in a) + "]"


def number_parts(n: GraphNode, numbers: NumberFormat | None = None) -> list[str]:
    """`value ...` and `grad ...` of a node, when with_values filled them."""
    parts = []
    if n.value is not None:
        parts.append(f"value {brief(n.value, numbers)}")
    if n.grad is not None:
        parts.append(f"grad {brief(n.grad, numbers)}")
    return parts


def title(n: GraphNode) -> str:
    """A node's line: its name (or `#id`), shape, operation and parameters."""
    name = n.label or ("const" if n.kind == "constant" else f"#{n.id}")
    what = n.op or ("leaf, requires_grad" if n.kind == "leaf" else "constant")
    extra = ", ".join(f"{k}={v}" for k, v in n.params.items())
    return f"{name} {list(n.shape)}  {what}" + (f"({extra})" if extra else "")


_title = title


MAX_DEPTH = 12  # levels of one tree drawing; deeper inputs continue in a drawing below


def to_tree(
    nodes: list[GraphNode], max_depth: int = MAX_DEPTH, numbers: NumberFormat | None = None
) -> str:
    """An indented tree from the output down to the leaves; a node used twice (a leaf too) is
    shown once, then referred to (`a  (#1, shown above)`). Past `max_depth` levels a node's
    inputs continue in a drawing of their own below (`inputs below, at #id`), so a deep graph
    stays readable at any depth and its text grows linearly with its size."""
    lines: list[str] = []
    shown: set[int] = set()
    roots = [0]
    k = 0
    while k < len(roots):
        root = roots[k]
        k += 1
        if k > 1:
            lines.append("")
        # (node id, prefix for its line, prefix for its children, depth)
        stack: list[tuple[int, str, str, int]] = [(root, "", "", 0)]
        while stack:
            i, head, tail, depth = stack.pop()
            n = nodes[i]
            if i != root or k == 1:
                if i in shown:  # a node (a leaf too) used twice: its inputs are above
                    ref = (
                        f"{n.label}  (#{n.id}, shown above)"
                        if n.label
                        else f"#{n.id}  (shown above)"
                    )
                    lines.append(head + ref)
                    continue
                shown.add(i)
            else:
                head = ""  # a continued drawing starts at its node, said so
            kids = n.inputs
            more = depth >= max_depth and bool(kids)
            suffix = "  (continued)" if i == root and k > 1 else ""
            lines.append(head + _title(n) + (f"  (inputs below, at #{n.id})" if more else suffix))
            # Its value and gradient on lines of their own, under it.
            under = tail + ("│ " if kids and not more else "  ")
            if not suffix:  # (a continued node's numbers are above)
                lines.extend(under + part for part in number_parts(n, numbers))
            if more:
                roots.append(i)
                continue
            for j in range(len(kids) - 1, -1, -1):
                last = j == len(kids) - 1
                stack.append(
                    (
                        kids[j],
                        tail + ("└── " if last else "├── "),
                        tail + ("    " if last else "│   "),
                        depth + 1,
                    )
                )
    return "\n".join(lines)


def to_dot(nodes: list[GraphNode], numbers: NumberFormat | None = None) -> str:
    """Graphviz: `gradcli graph prog.py --dot | dot -Tpng > graph.png`."""
    out = ["digraph gradcli {", "  rankdir=BT;", '  node [fontname="monospace"];']
    for n in nodes:
        shape = "box" if n.kind == "op" else "ellipse"
        style = ', style=filled, fillcolor="#dde8ff"' if n.kind == "leaf" else ""
        parts = [_title(n), *number_parts(n, numbers)]
        label = "\\n".join(p.replace("\\", "\\\\").replace('"', '\\"') for p in parts)
        out.append(f'  n{n.id} [label="{label}", shape={shape}{style}];')
    for n in nodes:
        for j in n.inputs:
            out.append(f"  n{j} -> n{n.id};")
    out.append("}")
    return "\n".join(out)
