"""Views of `jacobian`, `hessian` and `hvp` results (a result in, a `Doc` out).

Labels are PyTorch-style element names: rows `y[0]`, `y[1,2]`, columns `x[0,3]` (a one-element
tensor of shape () is just its name).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...analysis.results import HessianResult, HvpResult, JacobianResult, MethodComparison, jsonable
from ..views import Blank, Custom, Doc, Line, Matrix, Note
from .common import element, elements, scalar, shape_text, value_matrix

# --- jacobian ------------------------------------------------------------------------------

# Under a table that elides (a line of its own: it fits 60 columns).
HINT = "all of it: --format plain, csv, json or npy; a picture: --heat"


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


def jacobian_doc(r: JacobianResult, *, heat: bool = False, masks: bool = False) -> Doc:
    head = f"jacobian of {r.of} {shape_text(r.of_shape)}   method {r.method}" + (
        " (auto)" if r.requested == "auto" else ""
    )
    views: list[Any] = [Line(f"{head}: {_how(r)}", "bold", plain=False)]
    if r.requested == "auto" and r.note:
        views.append(Note(f"{r.note}; {_how(r)}"))
    if masks:
        views.append(Blank(plain=False))
        views.append(Custom(lambda: [masks_table(r)], None))
        views += _mask_views(r)
        views.append(Line("# the Jacobian", table=False))
    several = len(r.blocks) > 1
    for k, (n, b) in enumerate(r.blocks.items()):
        m, cols = b.matrix.shape
        title = (
            f"d{r.of}/d{n}   {r.of} {shape_text(r.of_shape)} x {n} {shape_text(b.wrt_shape)}"
            f"  ->  {m} x {cols}   J[i, j] = d {r.of}_i / d {n}_j"
        )
        views.append(Blank(plain=k > 0))
        views.append(
            Matrix(
                b.matrix,
                head=(f"d{r.of}/d{n} " if heat else f"{n} ") + shape_text(b.wrt_shape)
                if several or heat
                else None,
                title=title,
                row_labels=elements(r.of, r.of_shape),
                col_labels=elements(n, b.wrt_shape),
                caption=f"{r.of} does not depend on {n}: zero block" if b.unused else None,
                heat=heat,
                hint=HINT,
            )
        )
        if b.unused:
            views.append(Note(f"`{r.of}` does not depend on `{n}`: its block is zero", table=False))

    def to_json() -> dict[str, Any]:
        obj = r.to_json()
        if r.requested == "auto" and r.note:
            obj["note"] = r.note
        if masks:
            obj["masks"] = masks_json(r)
        return obj

    if heat:  # a picture: only the formats that draw pictures
        return Doc("jacobian --heat", views)
    if masks:  # masks have no place in a matrix file
        return Doc("jacobian --show-masks", views, json=to_json)
    cols: list[str] = []
    for n, b in r.blocks.items():
        cols += [element(n, b.wrt_shape, j) for j in range(int(np.prod(b.wrt_shape)))]
    return Doc(
        "jacobian",
        views,
        json=to_json,
        arrays={n: b.array for n, b in r.blocks.items()},
        npy=r.matrix if len(r.blocks) > 1 else None,
        csv=Matrix(r.matrix, row_labels=elements(r.of, r.of_shape), col_labels=cols),
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


def _mask_views(r: JacobianResult) -> list[Any]:
    """Plain text: each backward pass, its one-hot mask and the row it produced."""
    views: list[Any] = []
    for k, mk in enumerate(r.masks, 1):
        flat = int(np.ravel_multi_index(mk.index, r.of_shape)) if r.of_shape else 0
        label = element(r.of, r.of_shape, flat)
        views.append(
            Matrix(
                mk.mask.astype(int),
                head=f"pass {k}: upstream gradient = one-hot mask at {label}",
                table=False,
            )
        )
        for n, row in mk.rows.items():
            views.append(
                Matrix(
                    row,
                    head=f"-> row {label} of d{r.of}/d{n} (the gradient of {label})",
                    table=False,
                )
            )
        views.append(Blank(table=False))
    return views


def masks_table(r: JacobianResult) -> Any:
    """One line per backward pass: the mask, and the row of each block it produced."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    table = Table(box=None, pad_edge=False)
    table.add_column("pass", justify="right", style="dim")
    table.add_column(f"mask (gradient of {r.of})")
    for n in r.blocks:
        table.add_column(f"row of d{r.of}/d{n}")
    n_masks = len(r.masks)
    shown = (
        list(range(n_masks)) if n_masks <= 24 else [*range(12), -1, *range(n_masks - 12, n_masks)]
    )
    for k in shown:
        if k < 0:
            table.add_row("…", *(["…"] * (1 + len(r.blocks))))
            continue
        mk = r.masks[k]
        cells: list[Any] = [str(k + 1), Text(_flat_text(mk.mask.astype(int), None), style="cyan")]
        cells += [_flat_text(v, 4) for v in mk.rows.values()]
        table.add_row(*cells)
    return Group(
        Text("the one-hot masks and the rows they produced (one backward pass each)", style="bold"),
        table,
    )


def _flat_text(a: np.ndarray, precision: int | None, limit: int = 8) -> str:
    flat = np.asarray(a).reshape(-1)
    shown = [scalar(v, precision) for v in flat[:limit]]
    return "[" + " ".join(shown) + (" …" if flat.size > limit else "") + "]"


# --- compare -------------------------------------------------------------------------------


def compare_doc(c: MethodComparison) -> Doc:
    diffs = c.differences()
    lines = [
        f"# {c.of} {shape_text(c.of_shape)}: methods against {c.reference}",
        "method passes seconds max_abs_diff max_rel_diff",
    ]
    for m, res in c.results.items():
        d, rel = diffs[m]
        lines.append(f"{m} {res.passes} {res.seconds:.6f} {d:.3g} {rel:.3g}")
    lines.append(f"# largest difference between any two methods: {c.largest:.3g}")

    def table() -> list[Any]:
        from rich.table import Table
        from rich.text import Text

        t = Table(box=None, pad_edge=False)
        for col, just in (
            ("method", "left"),
            ("passes", "right"),
            ("time", "right"),
            ("max |J - J_ref|", "right"),
            ("relative", "right"),
        ):
            t.add_column(col, justify=just)  # type: ignore[arg-type]
        for m, res in c.results.items():
            d, rel = diffs[m]
            t.add_row(m, str(res.passes), f"{res.seconds * 1e3:.2f} ms", f"{d:.3g}", f"{rel:.3g}")
        return [
            Text(
                f"jacobian of {c.of} {shape_text(c.of_shape)}: the methods compared (against "
                f"{c.reference})",
                style="bold",
            ),
            t,
            Text(f"largest difference between any two methods: {c.largest:.3g}", style="bold"),
        ]

    return Doc("jacobian --compare", [Custom(table, "\n".join(lines))], json=c.to_json)


# --- hessian -------------------------------------------------------------------------------


def _hess_mat(r: HessianResult, a: str, sa: tuple, b: str, sb: tuple) -> np.ndarray:
    return r.blocks[(a, b)].reshape(int(np.prod(sa)), int(np.prod(sb)))


def hessian_doc(r: HessianResult, *, heat: bool = False, blocks: bool = False) -> Doc:
    how = {
        "batched": f"1 backward pass with create_graph, then {r.passes - 1} batched pass"
        f"{'es' if r.passes - 1 != 1 else ''} over the gradient (one per input)",
        "rows": f"1 backward pass with create_graph, then {r.passes - 1} one-hot passes "
        "over the gradient",
        "numeric": f"central differences of the gradient: {r.passes} evaluations",
    }.get(r.method, r.method)
    views: list[Any] = [
        Line(
            f"hessian of {r.of} {shape_text(r.of_shape)}   method {r.method}: {how}",
            "bold",
            plain=False,
        )
    ]
    labels: list[str] = []
    for a, sa in r.wrt:
        labels += [element(a, sa, j) for j in range(int(np.prod(sa)))]
    names = ", ".join(a for a, _ in r.wrt)
    if blocks and len(r.wrt) > 1:
        for a, sa in r.wrt:
            for b, sb in r.wrt:
                title = (
                    f"d2{r.of}/d{a} d{b}   {a} {shape_text(sa)} x {b} {shape_text(sb)}   "
                    f"H[i, j] = d2 {r.of} / d {a}_i d {b}_j"
                )
                caption = None
                if a in r.unused or b in r.unused:
                    caption = f"{r.of} does not depend on {a if a in r.unused else b}: zero block"
                views.append(Blank(plain=len(views) > 1))
                views.append(
                    Matrix(
                        _hess_mat(r, a, sa, b, sb),
                        head=f"{a}, {b} {shape_text(sa)} x {shape_text(sb)}",
                        title=title,
                        row_labels=elements(a, sa),
                        col_labels=elements(b, sb),
                        caption=caption,
                        heat=heat,
                    )
                )
    else:
        n = r.matrix.shape[0]
        title = f"d2{r.of}/d({names})^2   {n} x {n}   H[i, j] = d2 {r.of} / d in_i d in_j" + (
            f"   (inputs {names} in this order)" if len(r.wrt) > 1 else ""
        )
        views.append(Blank(plain=False))
        views.append(
            Matrix(
                r.matrix,
                head=f"d2{r.of}/d({names})^2" if heat else None,
                title=title,
                row_labels=labels,
                col_labels=labels,
                heat=heat,
                hint=HINT,
            )
        )
    for n_ in r.unused:
        views.append(Note(f"`{r.of}` does not depend on `{n_}`: its rows and columns are zero"))
    asym = r.asymmetry
    scale = max(1.0, float(np.max(np.abs(r.matrix)))) if r.matrix.size else 1.0
    views.append(Blank(plain=False))
    views.append(
        Line(
            f"symmetric to rounding: max |H - H^T| = {asym:.3g}",
            "dim" if asym <= 1e-8 * scale else "yellow",
            plain=False,
        )
    )
    if heat:
        return Doc("hessian --heat", views)
    return Doc(
        "hessian",
        views,
        json=r.to_json,
        arrays={(a if a == b else f"{a},{b}"): v for (a, b), v in r.blocks.items()},
        npy=r.array if len(r.wrt) == 1 else r.matrix,
        csv=Matrix(r.matrix, row_labels=labels, col_labels=labels),
    )


# --- hvp -----------------------------------------------------------------------------------


def hvp_doc(r: HvpResult, note: str | None = None) -> Doc:
    views: list[Any] = [
        Line(
            f"hvp of {r.of} {shape_text(r.of_shape)}: H v without building H (a create_graph "
            "backward pass, then one more)",
            "bold",
            plain=False,
        )
    ]
    if note:
        views.append(Note(note))
    several = len(r.hvp) > 1
    for k, (n, a) in enumerate(r.hvp.items()):
        views.append(Blank(plain=k > 0))
        views.append(
            value_matrix(
                n,
                a,
                head=f"{n} {shape_text(a.shape)}" if several else None,
                title=f"(H v) for {n}   shape {shape_text(a.shape)}",
                caption=f"{r.of} does not depend on {n}: zero" if n in r.unused else None,
            )
        )
        if n in r.unused:
            views.append(Note(f"`{r.of}` does not depend on `{n}`: its part is zero", table=False))

    def to_json() -> dict[str, Any]:
        obj = r.to_json()
        if note:
            obj["note"] = note
        return obj

    return Doc(
        "hvp",
        views,
        json=to_json,
        arrays=dict(r.hvp),
        npy=np.concatenate([np.asarray(a).reshape(-1) for a in r.hvp.values()]),
    )
