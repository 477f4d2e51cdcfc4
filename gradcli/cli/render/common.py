"""Renderers: results in, text or rich renderables out. They never print.

`plain` and `json` need no rich (and so start fast in pipes); `table` builds rich renderables,
importing rich only then.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...analysis.results import BackwardResult, TensorInfo, jsonable

MAX_ROWS = 24
MAX_COLS = 12


def fmt(v: Any, precision: int | None) -> str:
    """One number: shortest round-trip form by default, `precision` significant digits if set."""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v)).lower()
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    f = float(v)
    if not np.isfinite(f):
        return "nan" if np.isnan(f) else ("inf" if f > 0 else "-inf")
    if precision is None:
        r = repr(f)
        return r[:-2] if r.endswith(".0") else r
    s = f"{f:.{precision}g}"
    return "0" if s in ("-0", "0") else s


def rows_of(a: np.ndarray) -> tuple[list[str], np.ndarray]:
    """An array as a 2-D grid: row labels (leading indices) and rows (the last axis)."""
    a = np.asarray(a)
    if a.ndim == 0:
        return [""], a.reshape(1, 1)
    if a.ndim == 1:
        return [""], a.reshape(1, -1)
    lead = a.shape[:-1]
    labels = [",".join(str(i) for i in idx) for idx in np.ndindex(*lead)]
    return labels, a.reshape(-1, a.shape[-1])


def plain_array(a: np.ndarray, precision: int | None = None) -> str:
    """Numbers separated by spaces, one row (last axis) a line."""
    _, grid = rows_of(a)
    if grid.size == 0:
        return ""
    return "\n".join(" ".join(fmt(v, precision) for v in row) for row in grid)


def to_json(obj: Any) -> str:
    import json

    return json.dumps(obj, indent=None, separators=(", ", ": "))


# --- plain ---------------------------------------------------------------------------------


def backward_plain(r: BackwardResult, precision: int | None) -> str:
    if len(r.grads) == 1:
        return plain_array(next(iter(r.grads.values())), precision)
    blocks = []
    for name, g in r.grads.items():
        blocks.append(f"# {name} {list(g.shape)}\n{plain_array(g, precision)}")
    return "\n\n".join(blocks)


def forward_plain(infos: Sequence[TensorInfo], precision: int | None) -> str:
    if len(infos) == 1:
        return plain_array(infos[0].value, precision)
    return "\n\n".join(
        f"# {i.name} {list(i.value.shape)}\n{plain_array(i.value, precision)}" for i in infos
    )


def trace_plain(r: BackwardResult, precision: int | None) -> str:
    lines = [
        f"backward from `{r.of}` {list(r.of_shape)} with upstream gradient:",
        _indent(plain_array(r.grad_output, precision)),
    ]
    for i, s in enumerate(r.trace, 1):
        lines.append(f"{i}. {s.node} (computes {s.output}) received:")
        lines.append(_indent(plain_array(s.received, precision)))
        for name, g in s.passed:
            if g is None:
                lines.append(f"   -> {name}: nothing (does not require grad)")
            else:
                lines.append(f"   -> {name} {list(np.shape(g))}:")
                lines.append(_indent(plain_array(g, precision), 6))
    return "\n".join(lines)


def _indent(text: str, n: int = 3) -> str:
    return "\n".join(" " * n + line for line in text.splitlines())


# --- json ----------------------------------------------------------------------------------


def forward_json(infos: Sequence[TensorInfo]) -> dict[str, Any]:
    return {
        "values": {i.name: jsonable(i.value) for i in infos},
        "shapes": {i.name: list(i.value.shape) for i in infos},
        "requires_grad": {i.name: i.requires_grad for i in infos},
        "grad_fn": {i.name: i.grad_fn for i in infos},
    }


def trace_json(r: BackwardResult) -> list[dict[str, Any]]:
    return [
        {
            "node": s.node,
            "output": s.output,
            "received": jsonable(s.received),
            "passed": [{"to": n, "grad": None if g is None else jsonable(g)} for n, g in s.passed],
        }
        for s in r.trace
    ]


# --- rich tables ---------------------------------------------------------------------------


def array_table(
    a: np.ndarray,
    precision: int | None,
    title: str | None = None,
    caption: str | None = None,
) -> Any:
    """A rich Table of an array: rows are the leading indices, columns the last axis."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    labels, grid = rows_of(a)
    p = 6 if precision is None else precision
    arr = np.asarray(a)
    # Title and caption are lines of their own: as a table's title they would wrap to its width.
    table = Table(show_header=arr.ndim >= 1, box=None, pad_edge=False)
    if arr.ndim >= 2:
        table.add_column("", style="dim", justify="right")
    ncols = grid.shape[1]
    shown_cols = (
        list(range(ncols))
        if ncols <= MAX_COLS
        else (list(range(MAX_COLS // 2)) + [-1] + list(range(ncols - MAX_COLS // 2, ncols)))
    )
    for c in shown_cols:
        table.add_column(
            "…" if c == -1 else (f"[{c}]" if arr.ndim >= 1 else ""),
            justify="right",
            style=None,
            header_style="dim",
        )
    nrows = grid.shape[0]
    shown_rows = (
        list(range(nrows))
        if nrows <= MAX_ROWS
        else (list(range(MAX_ROWS // 2)) + [-1] + list(range(nrows - MAX_ROWS // 2, nrows)))
    )
    for r in shown_rows:
        cells = []
        if arr.ndim >= 2:
            cells.append("…" if r == -1 else f"[{labels[r]}]")
        for c in shown_cols:
            if r == -1 or c == -1:
                cells.append(Text("…", style="dim"))
                continue
            v = grid[r, c]
            s = fmt(v, p)
            cells.append(Text(s, style="dim" if s == "0" else ""))
        table.add_row(*cells)
    parts: list[Any] = []
    if title:
        parts.append(Text(title, style="bold"))
    parts.append(table)
    if nrows > MAX_ROWS or ncols > MAX_COLS:
        parts.append(
            Text(f"({nrows} x {ncols} shown in part; --format plain or json for all)", style="dim")
        )
    if caption:
        parts.append(Text(caption, style="yellow"))
    return Group(*parts)


def backward_tables(r: BackwardResult, precision: int | None, note: str | None) -> list[Any]:
    from rich.text import Text

    out: list[Any] = []
    head = Text()
    head.append("backward ", style="bold")
    head.append(f"from {r.of} {list(r.of_shape)}", style="cyan")
    out.append(head)
    out.append(array_table(r.grad_output, precision, title="upstream gradient (grad_output)"))
    if note:
        out.append(Text(f"note: {note}", style="yellow"))
    for name, g in r.grads.items():
        title = f"{name}.grad  = d<grad_output, {r.of}>/d{name}   shape {list(g.shape)}"
        caption = f"{r.of} does not depend on {name}: zero gradient" if name in r.unused else None
        out.append(Text(""))
        out.append(array_table(g, precision, title=title, caption=caption))
    return out


def forward_tables(infos: Sequence[TensorInfo], precision: int | None) -> list[Any]:
    from rich.text import Text

    out: list[Any] = []
    for i in infos:
        tags = []
        if i.requires_grad:
            tags.append("requires_grad" if i.is_leaf else f"grad_fn={i.grad_fn}")
        title = f"{i.name}  shape {list(i.value.shape)}  {i.value.dtype}" + (
            f"  ({', '.join(tags)})" if tags else ""
        )
        out.append(array_table(i.value, precision, title=title))
        out.append(Text(""))
    return out[:-1]


def trace_tables(r: BackwardResult, precision: int | None) -> list[Any]:
    from rich.text import Text

    out: list[Any] = [Text(f"chain rule, step by step: backward from {r.of}", style="bold")]
    for i, s in enumerate(r.trace, 1):
        out.append(Text(f"{i}. {s.node} (computes {s.output})", style="cyan"))
        out.append(array_table(s.received, precision, title="   received"))
        for name, g in s.passed:
            if g is not None:
                out.append(array_table(g, precision, title=f"   passed to {name}"))
    return out
