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
from dataclasses import dataclass, field
from typing import Any

Labels = Sequence[str] | Callable[[int], str] | None


@dataclass
class Matrix:
    """A titled array. Shown 2-D: a 0-D or 1-D array is one row, an N-D one has its leading
    axes as rows. `head` is its plain-text header line (`# head`, none if None); `title`,
    `caption` and the labels are the table's; `hint` follows the note of an elided table.
    `plain`/`table`: whether it is drawn in plain text / in tables."""

    data: Any
    head: str | None = None
    title: str | None = None
    row_labels: Labels = None
    col_labels: Labels = None
    caption: str | None = None
    heat: bool = False
    hint: str | None = "all of it: --format plain, csv, json or npy"
    plain: bool = True
    table: bool = True


@dataclass
class Line:
    """A line of text: in both tables and plain text, or only in tables (`plain=False`).
    `style` is rich's (tables only)."""

    text: str
    style: str = ""
    plain: bool = True
    table: bool = True


@dataclass
class Note:
    """A remark: a yellow line of a table; `note: ...` (or `warning: ...`) on standard error
    in the other formats."""

    text: str
    kind: str = "note"
    table: bool = True  # False: standard error only (a table shows it its own way)


@dataclass
class Blank:
    plain: bool = True
    table: bool = True


@dataclass
class Indent:
    views: list[Any]
    by: int = 3


@dataclass
class Custom:
    """A view of its own: `table()` builds its rich renderables, `plain` is its text (None:
    nothing in plain text)."""

    table: Callable[[], list[Any]] | None
    plain: str | None


View = Matrix | Line | Note | Blank | Indent | Custom


@dataclass
class Graph:
    """The graph of `gradcli graph`, for the formats only a graph has (dot, mermaid)."""

    dot: Callable[[], str]
    mermaid: Callable[[], str]


@dataclass
class Doc:
    """A command's result, ready for every format it supports.

    `views`: table and plain; `json`: the result's `to_json()` (a function: built only when
    asked for); `arrays`: the array forms by name (npy, and `.npz` with several); `npy`: the
    single array a `.npy` file holds when there are several arrays (all blocks side by side),
    None if there is none; `csv`: the matrix CSV writes (None: one `name,value` row per
    element of `arrays`); `graph`: dot and mermaid; `exit_code`: the status once written.
    """

    command: str
    views: list[View] = field(default_factory=list)
    json: Callable[[], Any] | None = None
    arrays: dict[str, Any] | None = None
    npy: Any = None
    csv: Matrix | None = None
    graph: Graph | None = None
    exit_code: int = 0

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
