"""What a command shows, as data: a `Doc` of views, drawn by `output.emit` in any format.

A result becomes a `Doc` (the functions of `render/` build them): its JSON (the result's own
`to_json()`), its arrays in their array form (for `npy`), one labelled matrix (for `csv`), and
the views people read, in order:

- `Matrix`: a titled array with row and column labels and a caption, or its heat map;
- `Line`: a line of text (a heading for tables only, or a line of the report in both);
- `Note`: a remark, inline in a table and on standard error in the other formats;
- `Blank`: an empty line;
- `Indent`: views drawn indented (the steps of a trace);
- `Custom`: a rich renderable for tables and its plain text (the few views that are neither
  arrays nor lines: the graph tree, the ops table, check's table of comparisons).

Nothing here imports rich or draws anything.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..base.record import Record

Labels = Sequence[str] | Callable[[int], str] | None


class Matrix(Record):
    """A titled array. Shown 2-D: a 0-D or 1-D array is one row, an N-D one has its leading
    axes as rows. `head` is its plain-text header line (`# head`, none if None); `title`,
    `caption` and the labels are the table's; `hint` follows the note of an elided table.
    `plain`/`table`: whether it is drawn in plain text / in tables."""

    _fields = (
        "data",
        "head",
        "title",
        "row_labels",
        "col_labels",
        "caption",
        "heat",
        "hint",
        "plain",
        "table",
    )
    _defaults = {
        "head": None,
        "title": None,
        "row_labels": None,
        "col_labels": None,
        "caption": None,
        "heat": False,
        "hint": "all of it: --format plain, csv, json or npy",
        "plain": True,
        "table": True,
    }

    data: Any
    head: str | None
    title: str | None
    row_labels: Labels
    col_labels: Labels
    caption: str | None
    heat: bool
    hint: str | None
    plain: bool
    table: bool


class Line(Record):
    """A line of text: in both tables and plain text, or only in tables (`plain=False`).
    `style` is rich's (tables only)."""

    _fields = ("text", "style", "plain", "table")
    _defaults = {"style": "", "plain": True, "table": True}

    text: str
    style: str
    plain: bool
    table: bool


class Note(Record):
    """A remark: a yellow line of a table; `note: ...` (or `warning: ...`) on standard error
    in the other formats."""

    _fields = ("text", "kind", "table")
    _defaults = {"kind": "note", "table": True}

    text: str
    kind: str
    table: bool  # False: standard error only (a table shows it its own way)


class Blank(Record):
    _fields = ("plain", "table")
    _defaults = {"plain": True, "table": True}

    plain: bool
    table: bool


class Indent(Record):
    _fields = ("views", "by")
    _defaults = {"by": 3}

    views: list[Any]
    by: int


class Custom(Record):
    """A view of its own: `table()` builds its rich renderables, `plain` is its text (None:
    nothing in plain text)."""

    _fields = ("table", "plain")

    table: Callable[[], list[Any]] | None
    plain: str | None


View = Matrix | Line | Note | Blank | Indent | Custom


class Graph(Record):
    """The graph of `gradcli graph`, for the formats only a graph has (dot, mermaid)."""

    _fields = ("dot", "mermaid")

    dot: Callable[[], str]
    mermaid: Callable[[], str]


class Doc(Record):
    """A command's result, ready for every format it supports.

    `views`: table and plain; `json`: the result's `to_json()` (a function: built only when
    asked for); `arrays`: the array forms by name (npy, and `.npz` with several); `npy`: the
    single array a `.npy` file holds when there are several arrays (all blocks side by side),
    None if there is none; `csv`: the matrix CSV writes (None: one `name,value` row per
    element of `arrays`); `graph`: dot and mermaid; `exit_code`: the status once written.
    """

    _fields = ("command", "views", "json", "arrays", "npy", "csv", "graph", "exit_code")
    _defaults = {
        "views": list,
        "json": None,
        "arrays": None,
        "npy": None,
        "csv": None,
        "graph": None,
        "exit_code": 0,
    }

    command: str
    views: list[View]
    json: Callable[[], Any] | None
    arrays: dict[str, Any] | None
    npy: Any
    csv: Matrix | None
    graph: Graph | None
    exit_code: int

    def notes(self) -> list[Note]:
        """Every note, in order (also those inside indented views)."""
        out: list[Note] = []
        stack = list(reversed(self.views))
        while stack:
            v = stack.pop()
            if isinstance(v, Note):
                out.append(v)
            elif isinstance(v, Indent):
                stack.extend(reversed(v.views))
        return out
