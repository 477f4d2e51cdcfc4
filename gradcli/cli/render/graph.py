"""Views of `gradcli graph`: the tree (tables and plain text), Graphviz, Mermaid and JSON."""

from __future__ import annotations

from typing import Any

from ...analysis import graph as g
from ..views import Custom, Doc, Graph


def graph_doc(name: str, nodes: list[Any]) -> Doc:
    tree = g.to_tree(nodes)
    return Doc(
        "graph",
        [Custom(lambda: [_text(tree)], tree)],
        json=lambda: g.to_json(name, nodes),
        graph=Graph(dot=lambda: g.to_dot(nodes), mermaid=lambda: to_mermaid(nodes)),
    )


def _text(text: str) -> Any:
    from rich.text import Text

    return Text(text)


def to_mermaid(nodes: list[Any]) -> str:
    """A Mermaid flowchart (renders on GitHub and in many editors), leaves at the top."""
    out = ["flowchart BT"]
    for n in nodes:
        label = "<br/>".join(_mermaid_text(t) for t in [g.title(n), *g.number_parts(n)])
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
