"""Renderers for `jacobian`, `hessian` and `hvp`: results in, text or rich renderables out.

Nothing here prints. `plain`, `csv` and `json` need no rich; the table and heat views import it
when they are built. Labels are PyTorch-style element names: rows `y[0]`, `y[1,2]`, columns
`x[0,3]` (a one-element tensor of shape () is just its name).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...analysis.results import (
    HessianResult,
    HvpResult,
    JacobianResult,
    MethodComparison,
    jsonable,
)
from .common import MAX_COLS, MAX_ROWS, fmt, plain_array

HEAT_ROWS = 48
HEAT_COLS = 96
RAMP = " .:-=+*#%@"


# --- labels and shared pieces --------------------------------------------------------------


def element(name: str, shape: tuple[int, ...], flat: int) -> str:
    """The label of element `flat` (row-major) of tensor `name`: `y[1,2]`, or `y` for shape ()."""
    if not shape:
        return name
    idx = np.unravel_index(flat, shape)
    return f"{name}[{','.join(str(int(i)) for i in idx)}]"


def _shape(s: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(d) for d in s) + "]"


def _shown(n: int, limit: int) -> list[int]:
    """Indices to show of n: all, or the first and last limit/2 with -1 (an ellipsis) between."""
    if n <= limit:
        return list(range(n))
    return list(range(limit // 2)) + [-1] + list(range(n - limit // 2, n))


def _matrix_table(
    mat: np.ndarray,
    row_label: Any,
    col_label: Any,
    precision: int | None,
    title: str | None = None,
    caption: str | None = None,
) -> Any:
    """A rich Table of a 2-D matrix with element labels; zeros dimmed; large ones elided (the
    title and caption as lines of their own, never wrapped to the table's width)."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    p = 6 if precision is None else precision
    mat = np.asarray(mat) + 0  # no "-0"
    table = Table(box=None, pad_edge=False, show_header=True)
    table.add_column("", style="cyan", justify="right")
    cols = _shown(mat.shape[1], MAX_COLS)
    for c in cols:
        table.add_column(Text("…" if c < 0 else col_label(c)), justify="right", header_style="cyan")
    for r in _shown(mat.shape[0], MAX_ROWS):
        cells: list[Any] = [Text("…" if r < 0 else row_label(r))]
        for c in cols:
            if r < 0 or c < 0:
                cells.append(Text("…", style="dim"))
                continue
            s = fmt(mat[r, c], p)
            cells.append(Text(s, style="dim" if s == "0" else ""))
        table.add_row(*cells)
    parts: list[Any] = []
    if title:
        parts.append(Text(title, style="bold"))
    parts.append(table)
    if mat.shape[0] > MAX_ROWS or mat.shape[1] > MAX_COLS:
        parts.append(
            Text(
                f"({mat.shape[0]} x {mat.shape[1]}: the middle is elided; "
                "--format plain/csv/json/npy for all of it, --heat for a picture)",
                style="dim",
            )
        )
    if caption:
        parts.append(Text(caption, style="yellow"))
    return Group(*parts)


def _plain_matrix(mat: np.ndarray, precision: int | None) -> str:
    return "\n".join(" ".join(fmt(v, precision) for v in row) for row in np.asarray(mat) + 0)


def _csv(mat: np.ndarray, row_label: Any, col_label: Any, precision: int | None) -> str:
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([""] + [col_label(c) for c in range(mat.shape[1])])
    mat = np.asarray(mat) + 0
    for r in range(mat.shape[0]):
        w.writerow([row_label(r)] + [fmt(v, precision) for v in mat[r]])
    return buf.getvalue().rstrip("\n")


def _tiles(mat: np.ndarray, rows: int, cols: int) -> tuple[np.ndarray, int, int]:
    """The matrix shrunk to at most rows x cols tiles, each the entry of largest magnitude."""
    r, c = mat.shape
    fr, fc = max(1, math.ceil(r / rows)), max(1, math.ceil(c / cols))
    if fr == 1 and fc == 1:
        return mat, 1, 1
    R, C = math.ceil(r / fr), math.ceil(c / fc)
    pad = np.zeros((R * fr, C * fc), dtype=np.float64)
    pad[:r, :c] = np.nan_to_num(mat, nan=0.0, posinf=0.0, neginf=0.0)
    t = pad.reshape(R, fr, C, fc).transpose(0, 2, 1, 3).reshape(R, C, fr * fc)
    idx = np.argmax(np.abs(t), axis=-1)[..., None]
    return np.take_along_axis(t, idx, axis=-1)[..., 0], fr, fc


def heat_plain(mat: np.ndarray) -> str:
    """A character heat map of |entries| (RAMP, blank for 0, `@` for the largest)."""
    tiles, fr, fc = _tiles(np.asarray(mat, dtype=np.float64), HEAT_ROWS, HEAT_COLS)
    a = np.abs(np.nan_to_num(tiles, nan=0.0, posinf=0.0, neginf=0.0))
    top = float(a.max()) if a.size else 0.0
    levels = (
        np.zeros(a.shape, dtype=int)
        if top == 0
        else np.where(
            a == 0, 0, 1 + np.minimum(len(RAMP) - 2, (a / top * (len(RAMP) - 1)).astype(int))
        )
    )
    scale = f"|value| / {fmt(top, 4)} as '{RAMP}'" if top else "all zero"
    lines = [
        f"# heat: {scale}"
        + (f", each character the largest of {fr} x {fc} entries" if fr * fc > 1 else "")
    ]
    lines += ["".join(RAMP[v] for v in row) for row in levels]
    return "\n".join(lines)


def heat_table(mat: np.ndarray, title: str) -> Any:
    """A shaded heat map: red positive, blue negative, the brighter the larger; `·` is zero."""
    from rich.text import Text

    tiles, fr, fc = _tiles(np.asarray(mat, dtype=np.float64), HEAT_ROWS, HEAT_COLS)
    finite = np.nan_to_num(tiles, nan=0.0, posinf=0.0, neginf=0.0)
    top = float(np.max(np.abs(finite))) if finite.size else 0.0
    out = Text()
    out.append(title + "\n", style="bold")
    for row in finite:
        for v in row:
            if v == 0 or top == 0:
                out.append("·", style="grey42")
                continue
            k = abs(v) / top
            level = int(60 + 195 * k)
            color = f"rgb({level},40,40)" if v > 0 else f"rgb(40,70,{level})"
            out.append("█", style=color)
        out.append("\n")
    legend = f"red > 0, blue < 0, brightness |value| / {fmt(top, 4)}" if top else "all zero"
    if fr * fc > 1:
        legend += f"; each cell the largest of {fr} x {fc} entries"
    out.append(legend, style="dim")
    return out


# --- jacobian ------------------------------------------------------------------------------


def _how(r: JacobianResult) -> str:
    m = int(np.prod(r.of_shape))
    n = sum(int(np.prod(b.wrt_shape)) for b in r.blocks.values())
    if r.method == "rows":
        return (
            f"{r.passes} backward pass{'es' if r.passes != 1 else ''}, one per output "
            "element (one-hot masks)"
        )
    if r.method == "batched":
        return f"1 backward pass: all {m} one-hot mask{'s' if m != 1 else ''} as one batch"
    if r.method == "forward":
        return f"forward mode: 1 sweep carrying {n} tangent{'s' if n != 1 else ''} (one per column)"
    return f"central differences: {r.passes} evaluations of {r.of}"


def jacobian_plain(r: JacobianResult, precision: int | None) -> str:
    if len(r.blocks) == 1:
        return _plain_matrix(next(iter(r.blocks.values())).matrix, precision)
    return "\n\n".join(
        f"# {n} {_shape(b.wrt_shape)}\n{_plain_matrix(b.matrix, precision)}"
        for n, b in r.blocks.items()
    )


def jacobian_csv(r: JacobianResult, precision: int | None) -> str:
    """One matrix: rows the output's elements, columns every input's elements in order."""
    cols: list[str] = []
    for n, b in r.blocks.items():
        cols += [element(n, b.wrt_shape, j) for j in range(int(np.prod(b.wrt_shape)))]
    return _csv(r.matrix, lambda i: element(r.of, r.of_shape, i), lambda j: cols[j], precision)


def jacobian_notes(r: JacobianResult) -> list[str]:
    """Sentences for stderr in the plain formats."""
    notes = []
    if r.requested == "auto" and r.note:
        notes.append(f"{r.note}; {_how(r)}")
    for n in r.unused:
        notes.append(f"`{r.of}` does not depend on `{n}`: its block is zero")
    return notes


def jacobian_tables(r: JacobianResult, precision: int | None, heat: bool = False) -> list[Any]:
    from rich.text import Text

    head = Text()
    head.append("jacobian ", style="bold")
    head.append(f"of {r.of} {_shape(r.of_shape)}", style="cyan")
    head.append(f"   method {r.method}", style="bold")
    if r.requested == "auto":
        head.append(" (auto)", style="bold")
    head.append(f": {_how(r)}")
    out: list[Any] = [head]
    if r.requested == "auto" and r.note:
        out.append(Text(r.note, style="dim"))
    for n, b in r.blocks.items():
        m, k = b.matrix.shape
        title = (
            f"d{r.of}/d{n}   {r.of} {_shape(r.of_shape)} x {n} {_shape(b.wrt_shape)}"
            f"  ->  {m} x {k}   J[i, j] = d {r.of}_i / d {n}_j"
        )
        caption = f"{r.of} does not depend on {n}: zero block" if b.unused else None
        out.append(Text(""))
        if heat:
            out.append(heat_table(b.matrix, title))
            if caption:
                out.append(Text(caption, style="yellow"))
        else:
            out.append(
                _matrix_table(
                    b.matrix,
                    lambda i: element(r.of, r.of_shape, i),
                    lambda j, n=n, b=b: element(n, b.wrt_shape, j),
                    precision,
                    title,
                    caption,
                )
            )
    return out


def jacobian_heat_plain(r: JacobianResult) -> str:
    return "\n\n".join(
        f"# d{r.of}/d{n} {_shape(r.of_shape)} x {_shape(b.wrt_shape)}\n{heat_plain(b.matrix)}"
        for n, b in r.blocks.items()
    )


def masks_json(r: JacobianResult) -> list[dict[str, Any]]:
    return [
        {
            "index": list(mk.index),
            "mask": jsonable(mk.mask),
            "rows": {n: jsonable(v) for n, v in mk.rows.items()},
        }
        for mk in r.masks
    ]


def masks_plain(r: JacobianResult, precision: int | None) -> str:
    blocks = []
    for k, mk in enumerate(r.masks, 1):
        label = element(
            r.of, r.of_shape, int(np.ravel_multi_index(mk.index, r.of_shape)) if r.of_shape else 0
        )
        lines = [
            f"# pass {k}: upstream gradient = one-hot mask at {label}",
            plain_array(mk.mask.astype(int), precision),
        ]
        for n, row in mk.rows.items():
            lines.append(f"# -> row {label} of d{r.of}/d{n} (the gradient of {label})")
            lines.append(plain_array(row, precision))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def masks_table(r: JacobianResult, precision: int | None) -> Any:
    """One line per backward pass: the mask, and the row of each block it produced."""
    from rich.table import Table
    from rich.text import Text

    p = 6 if precision is None else precision
    table = Table(box=None, pad_edge=False)
    table.add_column("pass", justify="right", style="dim")
    table.add_column(f"mask (gradient of {r.of})")
    for n in r.blocks:
        table.add_column(f"row of d{r.of}/d{n}")
    for k in _shown(len(r.masks), MAX_ROWS):
        if k < 0:
            table.add_row("…", *(["…"] * (1 + len(r.blocks))))
            continue
        mk = r.masks[k]
        cells: list[Any] = [str(k + 1), Text(_flat_text(mk.mask.astype(int), None), style="cyan")]
        cells += [_flat_text(v, p) for v in mk.rows.values()]
        table.add_row(*cells)
    from rich.console import Group

    return Group(
        Text("the one-hot masks and the rows they produced (one backward pass each)", style="bold"),
        table,
    )


def _flat_text(a: np.ndarray, precision: int | None, limit: int = 8) -> str:
    flat = np.asarray(a).reshape(-1)
    shown = [fmt(v, precision) for v in flat[:limit]]
    return "[" + " ".join(shown) + (" …" if flat.size > limit else "") + "]"


# --- compare -------------------------------------------------------------------------------


def compare_plain(c: MethodComparison) -> str:
    diffs = c.differences()
    lines = [
        f"# {c.of} {_shape(c.of_shape)}: methods against {c.reference}",
        "method passes seconds max_abs_diff max_rel_diff",
    ]
    for m, res in c.results.items():
        d, rel = diffs[m]
        lines.append(f"{m} {res.passes} {res.seconds:.6f} {d:.3g} {rel:.3g}")
    lines.append(f"# largest difference between any two methods: {c.largest:.3g}")
    return "\n".join(lines)


def compare_tables(c: MethodComparison) -> list[Any]:
    from rich.table import Table
    from rich.text import Text

    diffs = c.differences()
    table = Table(box=None, pad_edge=False)
    for col, just in (
        ("method", "left"),
        ("passes", "right"),
        ("time", "right"),
        ("max |J - J_ref|", "right"),
        ("relative", "right"),
    ):
        table.add_column(col, justify=just)
    for m, res in c.results.items():
        d, rel = diffs[m]
        table.add_row(m, str(res.passes), f"{res.seconds * 1e3:.2f} ms", f"{d:.3g}", f"{rel:.3g}")
    return [
        Text(
            f"jacobian of {c.of} {_shape(c.of_shape)}: the methods compared (against "
            f"{c.reference})",
            style="bold",
        ),
        table,
        Text(f"largest difference between any two methods: {c.largest:.3g}", style="bold"),
    ]


# --- hessian -------------------------------------------------------------------------------


def _hess_pairs(r: HessianResult) -> list[tuple[str, tuple[int, ...], str, tuple[int, ...]]]:
    return [(a, sa, b, sb) for a, sa in r.wrt for b, sb in r.wrt]


def _hess_mat(
    r: HessianResult, a: str, sa: tuple[int, ...], b: str, sb: tuple[int, ...]
) -> np.ndarray:
    return r.blocks[(a, b)].reshape(int(np.prod(sa)), int(np.prod(sb)))


def hessian_plain(r: HessianResult, precision: int | None) -> str:
    if len(r.wrt) == 1:
        ((a, sa),) = r.wrt
        return _plain_matrix(_hess_mat(r, a, sa, a, sa), precision)
    return "\n\n".join(
        f"# {a}, {b} {_shape(sa)} x {_shape(sb)}\n"
        f"{_plain_matrix(_hess_mat(r, a, sa, b, sb), precision)}"
        for a, sa, b, sb in _hess_pairs(r)
    )


def hessian_csv(r: HessianResult, precision: int | None) -> str:
    labels: list[str] = []
    for a, sa in r.wrt:
        labels += [element(a, sa, j) for j in range(int(np.prod(sa)))]
    return _csv(r.matrix, lambda i: labels[i], lambda j: labels[j], precision)


def hessian_heat_plain(r: HessianResult) -> str:
    return heat_plain(r.matrix)


def hessian_notes(r: HessianResult) -> list[str]:
    return [f"`{r.of}` does not depend on `{n}`: its rows and columns are zero" for n in r.unused]


def hessian_tables(r: HessianResult, precision: int | None, heat: bool = False) -> list[Any]:
    from rich.text import Text

    head = Text()
    head.append("hessian ", style="bold")
    head.append(f"of {r.of} {_shape(r.of_shape)}", style="cyan")
    how = {
        "batched": f"1 backward pass with create_graph, then {r.passes - 1} batched pass"
        f"{'es' if r.passes - 1 != 1 else ''} over the gradient (one per input)",
        "rows": f"1 backward pass with create_graph, then {r.passes - 1} one-hot passes "
        "over the gradient",
        "numeric": f"central differences of the gradient: {r.passes} evaluations",
    }[r.method]
    head.append(f"   method {r.method}: {how}")
    out: list[Any] = [head]
    if heat:
        names = ", ".join(a for a, _ in r.wrt)
        out.append(
            heat_table(
                r.matrix, f"d2{r.of}/d({names})^2   {r.matrix.shape[0]} x {r.matrix.shape[1]}"
            )
        )
    else:
        for a, sa, b, sb in _hess_pairs(r):
            title = (
                f"d2{r.of}/d{a} d{b}   {a} {_shape(sa)} x {b} {_shape(sb)}   "
                f"H[i, j] = d2 {r.of} / d {a}_i d {b}_j"
            )
            caption = None
            if a in r.unused or b in r.unused:
                caption = f"{r.of} does not depend on {a if a in r.unused else b}: zero block"
            out.append(Text(""))
            out.append(
                _matrix_table(
                    _hess_mat(r, a, sa, b, sb),
                    lambda i, a=a, sa=sa: element(a, sa, i),
                    lambda j, b=b, sb=sb: element(b, sb, j),
                    precision,
                    title,
                    caption,
                )
            )
    asym = r.asymmetry
    out.append(Text(""))
    out.append(
        Text(
            f"symmetric to rounding: max |H - H^T| = {asym:.3g}",
            style="dim"
            if asym <= 1e-8 * max(1.0, float(np.max(np.abs(r.matrix))) if r.matrix.size else 1.0)
            else "yellow",
        )
    )
    return out


# --- hvp -----------------------------------------------------------------------------------


def hvp_plain(r: HvpResult, precision: int | None) -> str:
    if len(r.hvp) == 1:
        return plain_array(next(iter(r.hvp.values())), precision)
    return "\n\n".join(
        f"# {n} {_shape(a.shape)}\n{plain_array(a, precision)}" for n, a in r.hvp.items()
    )


def hvp_csv(r: HvpResult, precision: int | None) -> str:
    lines = ["name,value"]
    for n, a in r.hvp.items():
        for j, v in enumerate(np.asarray(a).reshape(-1)):
            lines.append(f"{element(n, a.shape, j)},{fmt(v, precision)}")
    return "\n".join(lines)


def hvp_tables(r: HvpResult, precision: int | None) -> list[Any]:
    from rich.markup import escape
    from rich.text import Text

    from .common import array_table

    head = Text()
    head.append("hvp ", style="bold")
    head.append(f"of {r.of} {_shape(r.of_shape)}", style="cyan")
    head.append(": H v without building H (a create_graph backward pass, then one more)")
    out: list[Any] = [head]
    for n, a in r.hvp.items():
        out.append(Text(""))
        caption = f"{r.of} does not depend on {n}: zero" if n in r.unused else None
        out.append(
            array_table(
                a,
                precision,
                title=escape(f"(H v) for {n}   shape {_shape(a.shape)}"),
                caption=caption and escape(caption),
            )
        )
    return out
