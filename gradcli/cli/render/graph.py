"""Views of `gradcli graph`: the tree (tables and plain text), Graphviz, Mermaid and JSON."""

from __future__ import annotations

from typing import Any

from ...analysis import graph as g
from ..views import Custom, Doc, Graph


def graph_doc(name: str, nodes: list[Any], precision: int | None = None) -> Doc:
    """`precision` (digits after the point) formats the numbers of --values and --grads as
    the tables format a tensor (one format for each); without it, 4 significant digits."""
    numbers = None if precision is None else _numbers(precision)
    tree = g.to_tree(nodes, numbers=numbers)
    return Doc(
        "graph",
        [Custom(lambda: [_Tree(nodes, numbers)], tree)],
        json=lambda: g.to_json(name, nodes),
        graph=Graph(
            dot=lambda: g.to_dot(nodes, numbers), mermaid=lambda: to_mermaid(nodes, numbers)
        ),
    )


def _numbers(precision: int) -> Any:
    from .. import matrix as mx

    def numbers(a: Any) -> Any:
        fmt = mx.number_format(a, precision)
        return lambda v: fmt.text(v).rstrip()

    return numbers


def tree_depth(width: int) -> int:
    """Levels of one drawing of the tree in `width` columns (4 a level, and room for a node's
    line, about 48 columns): 12 from 96 columns, fewer on a narrower terminal."""
    return max(2, min(g.MAX_DEPTH, (width - 48) // 4))


class _Tree:
    """The tree drawn when rich prints it, as deep as the width allows; a line still wider
    than the terminal is left to it to wrap (`soft_wrap`), never cut."""

    soft_wrap = True

    def __init__(self, nodes: list[Any], numbers: Any) -> None:
        self.nodes, self.numbers = nodes, numbers

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.text import Text

        depth = tree_depth(options.max_width)
        yield Text(g.to_tree(self.nodes, depth, self.numbers), no_wrap=True, overflow="ignore")


def to_mermaid(nodes: list[Any], numbers: Any = None) -> str:
    """A Mermaid flowchart (renders on GitHub and in many editors), leaves at the top."""
    out = ["flowchart BT"]
    for n in nodes:
        parts = [g.title(n), *g.number_parts(n, numbers)]
        label = "<br/>".join(_mermaid_text(t) for t in parts)
        out.append(f'  n{n.id}["{label}"]' if n.kind == "op" else f'  n{n.id}(["{label}"])')
    for n in nodes:
        for j in n.inputs:
            out.append(f"  n{j} --> n{n.id}")
    leaves = [f"n{n.id}" for n in nodes if n.kind == "leaf"]
    if leaves:
        out.append("  classDef leaf fill:#dde8ff,stroke:#335")
        out.append(f"  class {','.join(leaves)} leaf")
    return "\n".join(out)


def _mermaid_text(s: str) -> str:
    """Text inside a quoted Mermaid label: quotes and markup written as entities."""
    return s.replace("&", "#amp;").replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")
