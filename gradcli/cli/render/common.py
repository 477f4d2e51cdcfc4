"""Views of results: a result in, a `views.Doc` out (drawn by `output.emit` in any format).

Here: the shared pieces (labels, numbers in text), `forward`, `backward` and its trace.
Nothing here prints or imports rich; a `Custom` view imports rich when its table is built.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ...analysis.results import BackwardResult, TensorInfo, jsonable
from ..views import Blank, Doc, Indent, Line, Matrix, Note

# --- labels and numbers --------------------------------------------------------------------


def shape_text(s: Sequence[int]) -> str:
    return "[" + ", ".join(str(int(d)) for d in s) + "]"


def element(name: str, shape: Sequence[int], flat: int) -> str:
    """The label of element `flat` (row-major) of tensor `name`: `y[1,2]`, or `y` for ()."""
    if not len(shape):
        return name
    idx = np.unravel_index(flat, tuple(shape))
    return f"{name}[{','.join(str(int(i)) for i in idx)}]"


def elements(name: str, shape: Sequence[int]) -> Callable[[int], str]:
    """`element` for each flat index (a function: a huge matrix does not build its labels)."""
    shape = tuple(shape)
    return lambda j: element(name, shape, j)


def row_labels(name: str, shape: Sequence[int]) -> Callable[[int], str] | list[str]:
    """Rows of an array shown 2-D (the leading indices): `x[0]`, `x[1,2]`; a 0-D or 1-D array
    is one row named `x`."""
    shape = tuple(shape)
    if len(shape) <= 1:
        return [name]
    return elements(name, shape[:-1])


def col_labels(shape: Sequence[int]) -> Callable[[int], str] | list[str]:
    """Columns of an array shown 2-D (the last index): `[0]`, `[1]`; none for a 0-D one."""
    if not len(shape):
        return [""]
    return lambda j: f"[{j}]"


def scalar(v: Any, precision: int | None) -> str:
    """One number in a line of text: every digit that reads back by default, else
    `precision` digits after the point (in scientific notation where fixed would lose it)."""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v)).lower()
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    f = float(v)
    if f != f:
        return "nan"
    if f in (float("inf"), float("-inf")):
        return "inf" if f > 0 else "-inf"
    if precision is None:
        r = repr(f + 0.0)
        return r[:-2] if r.endswith(".0") else r
    from ..matrix import number_format

    fmt = number_format(np.array([f]), precision)
    if fmt.kind == "scaled":  # a line has no header for a shared factor
        s = f"{f:.{precision}e}"
    else:
        s = fmt.text(f).strip()
    return s[1:] if s.startswith("-") and not s.strip("-0.e+") else s


def value_matrix(name: str, a: Any, **kw: Any) -> Matrix:
    """A tensor's value (or gradient) as a labelled matrix."""
    a = np.asarray(a)
    return Matrix(a, row_labels=row_labels(name, a.shape), col_labels=col_labels(a.shape), **kw)


def value_csv(name: str, a: Any) -> Matrix:
    """The CSV of one tensor: its 2-D form, rows `x[i]` (or `x`), columns `[j]`."""
    a = np.asarray(a)
    rows = a.reshape(1, -1) if a.ndim <= 1 else a.reshape(-1, a.shape[-1])
    return Matrix(rows, row_labels=row_labels(name, a.shape), col_labels=col_labels(a.shape))


# --- forward ---------------------------------------------------------------------------------


def forward_json(infos: Sequence[TensorInfo]) -> dict[str, Any]:
    return {
        "values": {i.name: jsonable(i.value) for i in infos},
        "shapes": {i.name: list(i.value.shape) for i in infos},
        "requires_grad": {i.name: i.requires_grad for i in infos},
        "grad_fn": {i.name: i.grad_fn for i in infos},
    }


def forward_doc(infos: Sequence[TensorInfo]) -> Doc:
    views: list[Any] = []
    several = len(infos) > 1
    for k, i in enumerate(infos):
        tags = []
        if i.requires_grad:
            tags.append("requires_grad" if i.is_leaf else f"grad_fn={i.grad_fn}")
        title = f"{i.name}  shape {shape_text(i.value.shape)}  {i.value.dtype}" + (
            f"  ({', '.join(tags)})" if tags else ""
        )
        if k:
            views.append(Blank())
        views.append(
            value_matrix(
                i.name,
                i.value,
                title=title,
                head=f"{i.name} {shape_text(i.value.shape)}" if several else None,
            )
        )
    return Doc(
        "forward",
        views,
        json=lambda: forward_json(infos),
        arrays={i.name: i.value for i in infos},
        csv=value_csv(infos[0].name, infos[0].value) if len(infos) == 1 else None,
    )


# --- backward --------------------------------------------------------------------------------


def backward_doc(r: BackwardResult, note: str | None = None, trace: bool = False) -> Doc:
    views: list[Any] = []
    if trace:
        views += trace_views(r)
        views.append(Blank())
    views.append(Line(f"backward from {r.of} {shape_text(r.of_shape)}", "bold", plain=False))
    views.append(
        value_matrix(
            "grad_output", r.grad_output, title="upstream gradient (grad_output)", plain=False
        )
    )
    if note:
        views.append(Note(note))
    several = len(r.grads) > 1
    for k, (name, g) in enumerate(r.grads.items()):
        unused = name in r.unused
        title = f"{name}.grad  = d<grad_output, {r.of}>/d{name}   shape {shape_text(g.shape)}"
        views.append(Blank(plain=k > 0))
        views.append(
            value_matrix(
                name,
                g,
                title=title,
                head=f"{name} {shape_text(g.shape)}" if several else None,
                caption=f"{r.of} does not depend on {name}: zero gradient" if unused else None,
            )
        )
        if unused:
            views.append(
                Note(f"`{r.of}` does not depend on `{name}`: its gradient is zero", table=False)
            )

    def to_json() -> dict[str, Any]:
        obj = r.to_json()
        if note:
            obj["note"] = note
        if trace:
            obj["trace"] = trace_json(r)
        return obj

    first = next(iter(r.grads)) if r.grads else None
    return Doc(
        "backward",
        views,
        json=to_json,
        arrays=dict(r.grads),
        csv=value_csv(first, r.grads[first]) if len(r.grads) == 1 and first else None,
    )


def trace_views(r: BackwardResult) -> list[Any]:
    """The chain rule step by step: each node, the gradient it received, what it passed on;
    labels on their own lines, arrays indented under them."""
    views: list[Any] = [
        Line(f"backward from `{r.of}` {shape_text(r.of_shape)} with upstream gradient:"),
        Indent([value_matrix("grad_output", r.grad_output)]),
    ]
    for i, s in enumerate(r.trace, 1):
        views.append(Line(f"{i}. {s.node} (computes {s.output}) received:"))
        views.append(Indent([value_matrix("received", s.received)]))
        for name, g in s.passed:
            if g is None:
                views.append(Line(f"   -> {name}: nothing (does not require grad)"))
            else:
                views.append(Line(f"   -> {name} {shape_text(np.shape(g))}:"))
                views.append(Indent([value_matrix(name, g)], 6))
    return views


def trace_json(r: BackwardResult) -> list[dict[str, Any]]:
    return [
        {
            "step": i,
            "node": s.node,
            "output": s.output,
            "received": jsonable(s.received),
            "passed": [{"to": n, "grad": None if g is None else jsonable(g)} for n, g in s.passed],
        }
        for i, s in enumerate(r.trace, 1)
    ]


# --- what a default chose --------------------------------------------------------------------


def _names(names: Sequence[str], most: int = 8) -> str:
    shown = ", ".join(f"`{n}`" for n in names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def default_notes(
    *,
    of: str | None = None,
    wrt: Sequence[str] | None = None,
    run: Any = None,
) -> list[Note]:
    """Notes (standard error, in the formats for scripts) saying which output and inputs the
    defaults chose: `of` / `wrt` are what they chose (None: given on the command line)."""
    notes = []
    if of is not None:
        text = f"the output is `{of}`: the last assigned tensor that requires grad"
        order = list(getattr(run, "assigned_order", ()) or ())
        if of in order:
            later = [n for n in order[order.index(of) + 1 :] if n != of]
            if later:
                verb = "does" if len(later) == 1 else "do"
                text += f" ({_names(later)}, assigned later, {verb} not)"
        notes.append(Note(text + "; --of NAME chooses another", table=False))
    if wrt is not None:
        notes.append(
            Note(
                f"the inputs are {_names(list(wrt))}: every leaf that requires grad; "
                "--wrt NAME chooses",
                table=False,
            )
        )
    return notes
