"""Matrices for people and for scripts: number formats, width-aware tables, plain text, CSV, heat.

A pure formatting layer: arrays in, strings or rich renderables out; nothing here prints, reads
the terminal or imports another gradcli module (but `base.record`, the plain records of the
start-up path). Rich is imported only by the functions that
build rich renderables, so the plain and CSV paths start fast in pipes.

Tables (`format_matrix` + `matrix_table`, or `matrix_view`, which does both when rich renders
it and so at the width it is given) follow what NumPy's and PyTorch's printing taught
numerical users to expect:

* One number format per matrix, chosen from its finite nonzero values (nan, inf and zeros do
  not vote), so every cell has the same digits after the point and points align:

  - ``int``    every value integral and max |v| <= 1e8: exact integers, ``2`` (not ``2.``).
    PyTorch switches integral tensors to scientific when max/min > 1e3; exact integers are
    both narrower and exact, so they stay integers here.
  - ``sci``    max/min > 1e3 (PyTorch's rule): ``-9.1234e-10``, exponents padded to the same
    number of digits.
  - ``scaled`` max/min <= 1e3 but max > 1e8 or min < 1e-4 (where PyTorch goes scientific): one
    shared factor shown above the table, ``1e-09 *``, and fixed digits for the rest, as
    PyTorch did before 0.4: narrower than ``sci`` and just as exact.
  - ``fixed``  otherwise: ``%.{precision}f``.

  ``precision`` is PyTorch's: digits after the decimal point (default 4), in every kind but
  ``int``. Every number shown is the true value correctly rounded to the digits shown.
* Exact zeros are ``0`` (under the units digit), never ``-0``; a negative value that rounds
  to zero loses its sign too. nan and infinities are ``nan``, ``inf``, ``-inf``.
* A number is never cut. When the columns do not fit the width, whole columns are elided in
  the middle (the first and last ones kept, a ``…`` column between) and a note says how many
  are shown; rows likewise beyond ``max_rows``.

Plain text and CSV (`matrix_plain`, `matrix_csv`) are for scripts: every number, no elision.
Without a precision each number is the shortest text that reads back as the same float
(Python's ``repr``; ``2`` for an integral ``2.0``), which is what gradcli's plain output has
always printed, so scripts lose nothing and old output stays byte-identical. With a precision
they use the table's kind of format (``scaled`` becomes ``sci``: a pipe has no header line).
`read_matrix_csv` reads what `matrix_csv` writes (and headerless or label-less CSV).

Heat maps (`heat_layout` + `heat_plain` / `heat_table`): sign-aware, blue negative and red
positive in colour, a character ramp without colour, large matrices averaged in blocks.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any, Literal, NamedTuple

import numpy as np

from ..base.record import FrozenRecord, LazyPattern

__all__ = [
    "DEFAULT_MAX_ROWS",
    "DEFAULT_PRECISION",
    "ELIDED",
    "CsvFormatError",
    "CsvMatrix",
    "HeatLayout",
    "Labels",
    "MatrixLayout",
    "NumberFormat",
    "format_matrix",
    "heat_layout",
    "heat_plain",
    "heat_table",
    "matrix_csv",
    "matrix_plain",
    "matrix_table",
    "matrix_view",
    "number_format",
    "read_matrix_csv",
]

DEFAULT_PRECISION = 4  # PyTorch's default
DEFAULT_MAX_ROWS = 24  # matrix rows in a table when the caller does not know the terminal height
DEFAULT_HEAT_ROWS = 48
ELIDED = -1  # in MatrixLayout.rows/cols: the `…` row or column
GAP = 1  # spaces between columns, as NumPy: cells keep a place for the minus sign instead

# Where PyTorch's _Formatter switches to scientific notation.
_SCI_RATIO = 1e3
_SCI_MAX = 1e8
_SCI_MIN = 1e-4

Kind = Literal["int", "fixed", "scaled", "sci", "bool"]
# Row or column labels: a sequence, a function of the index (so a million-row matrix does not
# build a million labels to show 24), or None for `[i]`.
Labels = Sequence[str] | Callable[[int], str] | None


# --- the number format ---------------------------------------------------------------------


class NumberFormat(FrozenRecord):
    """One format for every cell of a matrix; `cell` pads to `width` so decimal points align."""

    _fields = ("kind", "precision", "exponent", "exp_digits", "width")
    _defaults = {"exponent": 0, "exp_digits": 2, "width": 1}
    kind: Kind
    precision: int
    exponent: int  # kind "scaled": every value is shown divided by 10**exponent (default 0)
    exp_digits: int  # kind "sci": exponent digits, the same for every cell (default 2)
    width: int  # (default 1)

    @property
    def scale_text(self) -> str | None:
        """The shared factor for the header line, PyTorch-style (`1e-09 *`), if any."""
        if self.kind != "scaled":
            return None
        return f"1e{self.exponent:+03d} *"

    def _tail(self) -> int:
        """Characters after the units digit of a formatted number (where a zero's `0` sits)."""
        if self.kind in ("int", "bool"):
            return 0
        frac = self.precision + 1 if self.precision > 0 else 0
        if self.kind == "sci":
            return frac + 2 + self.exp_digits
        return frac

    def text(self, v: Any) -> str:
        """One value, unpadded (zeros carry the trailing spaces that keep them aligned)."""
        if self.kind == "bool":
            return "true" if v else "false"
        if isinstance(v, (int, np.integer)):
            return str(int(v))
        f = float(v)
        if f != f:
            return "nan"
        if math.isinf(f):
            return "inf" if f > 0 else "-inf"
        if f == 0:
            return "0" + " " * self._tail()
        p = self.precision
        if self.kind == "int":
            s = f"{f:.0f}"
        elif self.kind == "fixed":
            s = f"{f:.{p}f}"
        elif self.kind == "scaled":
            # Decimal: exact value, exact power-of-ten shift, one correct rounding (a float
            # division would round twice and could miss the last digit at a tie).
            from decimal import Decimal  # here: 1 ms of start-up that only this kind needs

            s = format(Decimal(f).scaleb(-self.exponent), f".{p}f")
        else:
            s = f"{f:.{p}e}"
            if self.exp_digits == 3 and len(s) - s.index("e") == 4:
                s = s[:-2] + "0" + s[-2:]
        if s[0] == "-" and not s.strip("-0.e+"):
            s = s[1:]  # a negative value that rounds to zero: `0.0000`, never `-0.0000`
        return s

    def cell(self, v: Any) -> str:
        """One value padded on the left to `width`."""
        return self.text(v).rjust(self.width)


def number_format(mat: Any, precision: int | None = None) -> NumberFormat:
    """The format for a whole matrix (see the module docstring for the rules)."""
    p = DEFAULT_PRECISION if precision is None else int(precision)
    if p < 0:
        raise ValueError(f"precision must be >= 0, not {p}")
    a = np.asarray(mat)
    if a.dtype == np.bool_:
        return NumberFormat("bool", p, width=5 if (~a).any() else 4)
    if a.dtype.kind in "iu":
        w = max((len(str(int(x))) for x in (a.min(), a.max())), default=1) if a.size else 1
        return NumberFormat("int", p, width=w)
    if a.dtype.kind not in "f":
        a = a.astype(np.float64)
    finite = np.isfinite(a)
    nz = a[finite & (a != 0)]
    kind: Kind = "int"
    exponent, exp_digits = 0, 2
    if nz.size:
        mags = np.abs(nz).astype(np.float64)
        amax, amin = float(mags.max()), float(mags.min())
        if amax <= _SCI_MAX and bool(np.all(nz == np.trunc(nz))):
            kind = "int"
        elif amax / amin > _SCI_RATIO:
            kind = "sci"
            exps = [abs(int(f"{x:.{p}e}".split("e")[1])) for x in (amax, amin)]
            exp_digits = 3 if max(exps) >= 100 else 2
        elif amax > _SCI_MAX or amin < _SCI_MIN:
            kind = "scaled"
            exponent = int(f"{amax:e}".split("e")[1])
        else:
            kind = "fixed"
    fmt = NumberFormat(kind, p, exponent, exp_digits)
    # Widths grow with |v| in every kind, so the extremes of each sign bound the cell width.
    probes: list[Any] = []
    if nz.size:
        probes += [nz.max(), nz.min()]
    if (a == 0).any():
        probes.append(0.0)
    if (~finite).any():
        probes += [x for x in (np.nan, np.inf, -np.inf) if _has(a, x)]
    width = max((len(fmt.text(x)) for x in probes), default=1)
    return NumberFormat(kind, p, exponent, exp_digits, width)


def _has(a: np.ndarray, x: float) -> bool:
    return bool(np.isnan(a).any()) if x != x else bool((a == x).any())


# --- tables --------------------------------------------------------------------------------


class MatrixLayout(FrozenRecord):
    """What a table shows of a matrix: which rows and columns, their labels and cells.

    `rows` and `cols` are matrix indices, ELIDED for the `…` row or column; `cells[i][j]` is the
    text of shown row i, column j (already padded to the format's width). `text()` is the table
    as plain text; `matrix_table` renders it with rich styles.
    """

    _fields = (
        "shape",
        "format",
        "rows",
        "cols",
        "row_labels",
        "col_labels",
        "col_widths",
        "label_width",
        "cells",
        "note",
    )
    shape: tuple[int, int]
    format: NumberFormat
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    row_labels: tuple[str, ...]
    col_labels: tuple[str, ...]
    col_widths: tuple[int, ...]
    label_width: int
    cells: tuple[tuple[str, ...], ...]
    note: str | None

    @property
    def width(self) -> int:
        """The table's width in terminal cells."""
        widths = list(self.col_widths)
        if self.label_width:
            widths.insert(0, self.label_width)
        return sum(widths) + GAP * max(0, len(widths) - 1)

    @property
    def elided(self) -> bool:
        return ELIDED in self.rows or ELIDED in self.cols

    def segments(self) -> list[list[tuple[str, str]]]:
        """Lines of (text, role) pieces; role is "", "label", "zero", "special" or "elided"."""
        lines: list[list[tuple[str, str]]] = []
        head: list[tuple[str, str]] = []
        if self.label_width:
            head.append((" " * self.label_width, ""))
        for lab, w, c in zip(self.col_labels, self.col_widths, self.cols):
            head.append((_pad(lab, w, bool(head)), "elided" if c == ELIDED else "label"))
        lines.append(head)
        for i, r in enumerate(self.rows):
            line: list[tuple[str, str]] = []
            if self.label_width:
                line.append((_pad(self.row_labels[i], self.label_width, False), "label"))
            for j, (c, w) in enumerate(zip(self.cols, self.col_widths)):
                if r == ELIDED or c == ELIDED:
                    line.append((_pad("…", w, bool(line)), "elided"))
                    continue
                s = self.cells[i][j]
                core = s.strip()
                role = "zero" if core == "0" else ("special" if core[-1] in "nf" else "")
                line.append((_pad(s, w, bool(line)), role))
            lines.append(line)
        for line in lines:  # no trailing blanks (a zero in the last column pads on the right)
            while line and not line[-1][0].rstrip():
                line.pop()
            if line:
                line[-1] = (line[-1][0].rstrip(), line[-1][1])
        return lines

    def text(self) -> str:
        """The table as plain text (no title, scale line or note)."""
        return "\n".join("".join(t for t, _ in line) for line in self.segments())


def _pad(s: str, w: int, gap: bool) -> str:
    return (" " * GAP if gap else "") + " " * max(0, w - _cell_len(s)) + s


def _cell_len(s: str) -> int:
    """Terminal cells taken by `s` (wide East Asian characters two, combining marks none)."""
    if s.isascii():
        return len(s)
    import unicodedata

    n = 0
    for ch in s:
        if unicodedata.combining(ch):
            continue
        n += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return n


def _as_2d(mat: Any) -> np.ndarray:
    a = np.asarray(mat)
    if a.ndim == 0:
        return a.reshape(1, 1)
    if a.ndim == 1:
        return a.reshape(1, -1)
    if a.ndim > 2:  # leading axes become rows, as gradcli's plain output always did
        return a.reshape(-1, a.shape[-1])
    return a


def _label(labels: Labels, i: int) -> str:
    if labels is None:
        return f"[{i}]"
    if callable(labels):
        return str(labels(i))
    return str(labels[i])


def _edges(n: int, keep: int) -> tuple[int, ...]:
    """All of range(n), or its first ceil(keep/2) and last floor(keep/2) around ELIDED."""
    if n <= keep:
        return tuple(range(n))
    first = (keep + 1) // 2
    return (*range(first), ELIDED, *range(n - (keep - first), n))


def format_matrix(
    mat: Any,
    *,
    width: int,
    precision: int | None = None,
    row_labels: Labels = None,
    col_labels: Labels = None,
    max_rows: int | None = None,
) -> MatrixLayout:
    """Lay a matrix out in `width` terminal cells: one number format, whole columns elided.

    Rows beyond `max_rows` (default DEFAULT_MAX_ROWS) are elided in the middle, and columns
    until the table fits `width`; a number is never cut. If the row labels and the `…` column
    alone are wider than `width`, no number column is shown (the table is then wider than
    asked: labels are not cut either). 0-D and 1-D arrays are one row; N-D ones have their
    leading axes flattened into rows.
    """
    a = _as_2d(mat)
    nr, nc = a.shape
    fmt = number_format(a, precision)
    limit = DEFAULT_MAX_ROWS if max_rows is None else max(1, int(max_rows))
    # The `…` row takes a line too: eliding one row would save nothing.
    rows = _edges(nr, limit if nr > limit + 1 else nr)
    rlabels = tuple("…" if r == ELIDED else _label(row_labels, r) for r in rows)
    label_w = max((_cell_len(s) for s in rlabels), default=0)
    budget = width - (label_w + GAP if label_w else 0)

    def col_width(c: int) -> int:
        return 1 if c == ELIDED else max(fmt.width, _cell_len(_label(col_labels, c)))

    def total(cs: tuple[int, ...]) -> int:
        return sum(col_width(c) for c in cs) + GAP * max(0, len(cs) - 1)

    # Each column takes at least fmt.width + GAP cells: only that many can ever fit.
    most = max(0, (budget + GAP) // (fmt.width + GAP))
    cols: tuple[int, ...] = tuple(range(nc))
    if nc > most or total(cols) > budget:
        # The shown sets are nested as k grows, so the first k that fits is the largest.
        for k in range(min(nc - 1, most), -1, -1):
            cols = _edges(nc, k)
            if total(cols) <= budget:
                break
    col_widths = tuple(col_width(c) for c in cols)
    clabels = tuple("…" if c == ELIDED else _label(col_labels, c) for c in cols)
    sub = a[np.ix_([r for r in rows if r != ELIDED], [c for c in cols if c != ELIDED])]
    cells: list[tuple[str, ...]] = []
    k = 0
    for r in rows:
        if r == ELIDED:
            cells.append(())
            continue
        vals = iter(sub[k].tolist())
        cells.append(tuple("" if c == ELIDED else fmt.cell(next(vals)) for c in cols))
        k += 1
    shown_c = sum(c != ELIDED for c in cols)
    shown_r = sum(r != ELIDED for r in rows)
    parts = []
    if shown_c < nc:
        parts.append(f"{shown_c} of {nc} columns")
    if shown_r < nr:
        parts.append(f"{shown_r} of {nr} rows")
    note = "showing " + ", ".join(parts) if parts else None
    return MatrixLayout(
        (nr, nc), fmt, rows, cols, rlabels, clabels, col_widths, label_w, tuple(cells), note
    )


_ROLE_STYLE = {"": "", "label": "cyan", "zero": "dim", "special": "yellow", "elided": "dim"}


def title_lines(title: str, width: int | None) -> str:
    """A title made of parts separated by three blanks (`dh/dW1   h [2] x W1 [2, 3]   J[i, j]
    = ...`) laid out in `width` columns: a line holds as many whole parts as fit, so a
    narrow terminal breaks it between parts, never inside a formula. A part wider than the
    width is left whole to be wrapped at words."""
    if width is None or len(title) <= width:
        return title
    lines: list[str] = []
    for part in re.split(r" {3,}", title):
        if lines and len(lines[-1]) + 3 + len(part) <= width:
            lines[-1] += "   " + part
        else:
            lines.append(part)
    return "\n".join(lines)


def matrix_table(
    layout: MatrixLayout,
    title: str | None = None,
    caption: str | None = None,
    hint: str | None = None,
    width: int | None = None,
) -> Any:
    """A rich renderable of `layout`: title (its parts laid out in `width`, see
    `title_lines`), scale line, the table, the note (+ `hint` when something is elided), the
    caption. Title and caption are lines of their own."""
    from rich.console import Group
    from rich.text import Text

    parts: list[Any] = []
    if title:
        parts.append(Text(title_lines(title, width), style="bold"))
    if layout.format.scale_text:
        parts.append(Text(layout.format.scale_text, style="bold"))
    table = Text(no_wrap=True, overflow="ignore")
    for n, line in enumerate(layout.segments()):
        if n:
            table.append("\n")
        for text, role in line:
            table.append(text, style=_ROLE_STYLE[role])
    parts.append(table)
    if layout.note:
        parts.append(Text(layout.note, style="dim"))
        if hint:
            parts.append(Text(hint, style="dim"))
    if caption:
        parts.append(Text(caption, style="yellow"))
    return Group(*parts)


class _MatrixView:
    """format_matrix + matrix_table at render time, at the width rich offers there."""

    def __init__(self, mat: Any, kw: dict[str, Any], parts: tuple[Any, Any, Any]) -> None:
        self.mat, self.kw, self.parts = mat, kw, parts

    def __rich_console__(self, console: Any, options: Any) -> Any:
        layout = format_matrix(self.mat, width=options.max_width, **self.kw)
        yield matrix_table(layout, *self.parts, width=options.max_width)


def matrix_view(
    mat: Any,
    *,
    precision: int | None = None,
    row_labels: Labels = None,
    col_labels: Labels = None,
    max_rows: int | None = None,
    title: str | None = None,
    caption: str | None = None,
    hint: str | None = None,
) -> Any:
    """A rich renderable that lays `mat` out when printed, in the width it is given there.

    For renderers that build renderables before anyone knows the terminal's width: the console
    (or an enclosing Padding/Table, e.g. an indented --trace step) decides it.
    """
    kw = {
        "precision": precision,
        "row_labels": row_labels,
        "col_labels": col_labels,
        "max_rows": max_rows,
    }
    return _MatrixView(mat, kw, (title, caption, hint))


# --- plain text and CSV --------------------------------------------------------------------

# A token that is a negative zero after rounding (`-0`, `-0.000`): shown without its sign.
_NEG_ZERO = LazyPattern(r"(?<![^\s,])-(0(?:\.0*)?)(?=[\s,]|$)")


def _rows_text(a: np.ndarray, precision: int | None, sep: str) -> list[str]:
    """Each row of a 2-D array as one line of numbers joined by `sep` (vectorised per row)."""
    if a.dtype == np.bool_:
        words = np.where(a, "true", "false")
        return [sep.join(r) for r in words.tolist()]
    if a.dtype.kind in "iu":
        return [sep.join(map(str, r)) for r in a.tolist()]
    if a.dtype.kind != "f":
        a = a.astype(np.float64)
    a = a + a.dtype.type(0)  # -0.0 + 0.0 is 0.0: no `-0` anywhere below
    if precision is None:
        if a.dtype == np.float64 or a.dtype.itemsize > 8:
            # repr is the shortest text that reads back as the same double; map runs it in C,
            # as fast as savetxt's `%` formatting.
            rows = [sep.join(map(repr, r)) for r in a.astype(np.float64).tolist()]
        else:
            # float32/16: NumPy's shortest text for *that* type (repr of the widened double
            # would print 0.1f as 0.10000000149011612).
            rows = [sep.join(r) for r in a.astype(str).tolist()]
        # Integral values read `2`, not `2.0`: repr and NumPy write `.0` only for those, so a
        # `.0` before a separator or the line's end is always an integral value's.
        return [(r + sep).replace(".0" + sep, sep)[: -len(sep)] for r in rows]
    fmt = number_format(a, precision)
    if fmt.kind == "int":
        spec = "%.0f"
    elif fmt.kind == "fixed":
        spec = f"%.{fmt.precision}f"
    else:  # sci, and scaled: a pipe has no header line for the shared factor
        spec = f"%.{fmt.precision}e"
    row_fmt = sep.join([spec] * a.shape[1])
    text = "\n".join(row_fmt % tuple(r) for r in a.tolist())
    return _NEG_ZERO.sub(r"\1", text).split("\n")


def matrix_plain(mat: Any, precision: int | None = None) -> str:
    """Every number, one row a line, separated by spaces; no elision, no padding.

    precision None: the shortest text that reads back as the same float (`2` for 2.0); else the
    table's kind of format with `precision` digits after the point (sci for scaled). `-0` never
    appears. N-D arrays have their leading axes flattened into rows; empty arrays give "".
    """
    a = _as_2d(mat)
    if a.size == 0:
        return ""
    return "\n".join(_rows_text(a, precision, " "))


def _csv_field(s: str) -> str:
    if any(ch in s for ch in ',"\r\n'):
        return '"' + s.replace('"', '""') + '"'
    return s


def matrix_csv(
    mat: Any,
    row_labels: Labels = None,
    col_labels: Labels = None,
    precision: int | None = None,
) -> str:
    """CSV with a header row (an empty corner, then the column labels) and a label column.

    Numbers as in `matrix_plain` (full precision by default); labels quoted when they hold a
    comma (`"y[1,2]"`). `read_matrix_csv` reads it back exactly (labels without leading or
    trailing blanks: the reader strips cells, as hand-written CSV wants). No trailing newline.
    """
    a = _as_2d(mat)
    nr, nc = a.shape
    lines = ["," + ",".join(_csv_field(_label(col_labels, j)) for j in range(nc))]
    if a.size:
        for i, body in enumerate(_rows_text(a, precision, ",")):
            lines.append(_csv_field(_label(row_labels, i)) + "," + body)
    else:
        lines += [_csv_field(_label(row_labels, i)) for i in range(nr)]
    return "\n".join(lines)


class CsvFormatError(ValueError):
    """A CSV that is not a matrix; `line` is 1-based, `column` 1-based or None."""

    def __init__(self, message: str, line: int, column: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


class CsvMatrix(NamedTuple):
    """A matrix read from CSV, with its labels when the file had them, and the line (1-based)
    each row came from."""

    values: np.ndarray
    row_labels: tuple[str, ...] | None
    col_labels: tuple[str, ...] | None
    lines: tuple[int, ...] = ()


_NUMBER = LazyPattern(
    r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|nan|inf|infinity)", re.IGNORECASE
)


def _is_number(s: str) -> bool:
    return _NUMBER.fullmatch(s.strip()) is not None


def read_matrix_csv(text: str) -> CsvMatrix:
    """Read a CSV matrix: gradcli's own (header and labels), or bare rows of numbers.

    The first row is a header when its first cell is empty or any other cell is not a number;
    the first column holds labels when the header's corner is empty or the first data row
    starts with a non-number. nan/inf are read as such (the caller decides whether to accept
    them). Raises CsvFormatError naming the line (and the header row, when it is at fault).
    """
    import csv
    import io

    records: list[tuple[int, list[str]]] = []
    reader = csv.reader(io.StringIO(text))
    try:
        for row in reader:
            # A blank line is no row; a line of empty cells (`,`) is one (an empty header).
            if len(row) > 1 or (row and row[0].strip()):
                records.append((reader.line_num, row))
    except csv.Error as e:
        raise CsvFormatError(f"line {reader.line_num}: {e}", reader.line_num) from None
    if not records:
        raise CsvFormatError("no rows: the CSV is empty", 1)
    header: list[str] | None = None
    header_line = 0
    first = records[0][1]
    if len(first) == 1:
        is_header = not _is_number(first[0])
    else:
        # An empty cell in a row of numbers is a missing number, not a header's label.
        is_header = not first[0].strip() or any(c.strip() and not _is_number(c) for c in first[1:])
    if is_header:
        header_line, header = records.pop(0)
        header = [c.strip() for c in header]
    labelled = bool(header is not None and header[0] == "") or bool(
        records and not _is_number(records[0][1][0])
    )
    start = 1 if labelled else 0
    width = len(header) if header is not None else len(records[0][1])
    rows_out: list[list[float]] = []
    row_labels: list[str] = []
    lines: list[int] = []
    for lineno, row in records:
        if len(row) != width:
            if header is not None:
                where = f"the header row (line {header_line})"
            else:
                where = f"line {records[0][0]}"
            raise CsvFormatError(
                f"line {lineno} has {len(row)} value{'s' if len(row) != 1 else ''} but {where} "
                f"has {width}",
                lineno,
            )
        vals = []
        for j in range(start, width):
            tok = row[j].strip()
            if not tok:
                raise CsvFormatError(
                    f"line {lineno}: the value in column {j + 1} is empty", lineno, j + 1
                )
            if not _is_number(tok):
                shown = tok if len(tok) <= 40 else tok[:37] + "..."
                raise CsvFormatError(
                    f"line {lineno}: `{shown}` (column {j + 1}) is not a number", lineno, j + 1
                )
            vals.append(float(tok))
        rows_out.append(vals)
        lines.append(lineno)
        if labelled:
            row_labels.append(row[0].strip())
    ncols = width - start
    values = np.array(rows_out, dtype=np.float64).reshape(len(rows_out), ncols)
    col_labels = tuple(header[start:]) if header is not None else None
    return CsvMatrix(values, tuple(row_labels) if labelled else None, col_labels, tuple(lines))


# --- heat maps -----------------------------------------------------------------------------

# Without colour, a character carries the sign and a third of the range each.
NEG_RAMP = "-=#"
POS_RAMP = "+*@"
ZERO_CHAR = "·"
NAN_CHAR = "?"
COLOR_LEVELS = 8


class HeatLayout(FrozenRecord):
    """A matrix shrunk to tiles for a heat map.

    `tiles` holds each tile's mean (nan if the tile holds a nan, or both infinities); `block`
    is the entries per tile (rows, columns); `cell` the characters per tile across; `top` the
    largest finite |tile| (0 if none).
    """

    _fields = ("shape", "tiles", "block", "cell", "top")
    shape: tuple[int, int]
    tiles: np.ndarray
    block: tuple[int, int]
    cell: int
    top: float

    @property
    def note(self) -> str | None:
        fr, fc = self.block
        if fr * fc == 1:
            return None
        tr, tc = self.tiles.shape
        return (
            f"each character is the mean of a {fr} x {fc} block "
            f"({self.shape[0]} x {self.shape[1]} shown as {tr} x {tc})"
        )

    def levels(self, n: int) -> np.ndarray:
        """Signed intensity per tile, -n..n: 0 for exactly zero, never 0 for a nonzero tile;
        infinities at +-n; nan tiles are reported as n + 1."""
        t = self.tiles
        with np.errstate(invalid="ignore", divide="ignore"):
            frac = np.abs(t) / self.top if self.top > 0 else np.where(t == 0, 0.0, 1.0)
            lev = np.clip(np.ceil(np.nan_to_num(frac, posinf=1.0) * n), 1, n).astype(int)
        lev = np.where(t == 0, 0, np.where(t < 0, -lev, lev))
        return np.where(np.isnan(t), n + 1, lev)


def heat_layout(mat: Any, *, width: int, max_rows: int | None = None) -> HeatLayout:
    """Tiles of a matrix for a heat map at most `width` characters wide and `max_rows`
    (default DEFAULT_HEAT_ROWS) lines high: two characters an entry when the whole matrix fits
    that way (a square on most terminals), else one, and when even that does not fit, the mean
    of blocks of entries (nan if a block holds a nan or both infinities, else +-inf if it holds
    one)."""
    a = _as_2d(mat).astype(np.float64, copy=False)
    nr, nc = a.shape
    rows = DEFAULT_HEAT_ROWS if max_rows is None else max(1, int(max_rows))
    width = max(1, int(width))
    fr = max(1, math.ceil(nr / rows))
    fc = max(1, math.ceil(nc / width))
    # Two characters across for one line down keeps an entry square; with rows averaged in
    # pairs one character across does that better.
    cell = 2 if fr == 1 and fc == 1 and 2 * nc <= width else 1
    if fr == 1 and fc == 1:
        tiles = a.copy()
    else:
        tr, tc = math.ceil(nr / fr), math.ceil(nc / fc)
        # Entries of each tile (the padding past the right and bottom edges does not count).
        cols = np.minimum(fc, nc - fc * np.arange(tc))
        tiles = np.empty((tr, tc))
        # One band of tile rows at a time: the temporaries stay a band's size, not the
        # matrix's (a 5000 x 5000 Jacobian would need gigabytes at once).
        for i in range(tr):
            band = a[i * fr : (i + 1) * fr]
            h = band.shape[0]
            pad = np.zeros((h, tc * fc))
            pad[:, :nc] = band
            v = pad.reshape(h, tc, fc).transpose(1, 0, 2).reshape(tc, h * fc)
            fin = np.isfinite(v)
            # The mean, each entry divided before the sum so that huge finite values cannot
            # overflow to inf.
            mean = (np.where(fin, v, 0.0) / (h * cols)[:, None]).sum(-1)
            has_nan = np.isnan(v).any(-1)
            pinf, ninf = (v == np.inf).any(-1), (v == -np.inf).any(-1)
            row = np.where(pinf, np.inf, np.where(ninf, -np.inf, mean))
            tiles[i] = np.where(has_nan | (pinf & ninf), np.nan, row)
    finite = tiles[np.isfinite(tiles)]
    top = float(np.max(np.abs(finite))) if finite.size else 0.0
    return HeatLayout((nr, nc), tiles, (fr, fc), cell, top)


def _top_text(top: float) -> str:
    return f"{top:.4g}"


def _heat_grid(layout: HeatLayout) -> list[str]:
    lev = layout.levels(len(POS_RAMP))
    # levels -3..3 index chars[0..6] (`#` .. `@`); the nan marker (4) the last one
    chars = np.array([*NEG_RAMP[::-1], ZERO_CHAR, *POS_RAMP, NAN_CHAR])
    idx = np.where(lev > len(POS_RAMP), len(chars) - 1, lev + len(NEG_RAMP))
    grid = chars[idx]
    if layout.cell > 1:
        grid = np.char.multiply(grid, layout.cell)
    return ["".join(row) for row in grid.tolist()]


def _heat_legend(layout: HeatLayout, color: bool) -> str:
    """What the shades mean (colour) or the characters (no colour), nan, and the tiling."""
    if layout.top == 0 and not np.isinf(layout.tiles).any():
        text = "all zero" if not np.isnan(layout.tiles).all() else "no number"
    elif color:
        # the colour bar before it gives the range
        text = f"blue < 0 < red, brighter = larger |value|; {ZERO_CHAR} exactly 0"
    else:
        neg, pos = " ".join(NEG_RAMP[::-1]), " ".join(POS_RAMP)
        text = (
            f"{neg} < 0 < {pos}, in thirds of the largest |value| ({_top_text(layout.top)}; "
            f"an infinity is the largest); {ZERO_CHAR} exactly 0"
        )
    if np.isnan(layout.tiles).any() and layout.tiles.size > 1:
        text += f"; {NAN_CHAR} nan"
    if layout.note:
        text += f"; {layout.note}"
    return text


def heat_plain(layout: HeatLayout) -> str:
    """The heat map as characters (for pipes and NO_COLOR): a legend line, then the rows."""
    return "\n".join(["heat: " + _heat_legend(layout, False), *_heat_grid(layout)])


def _heat_rgb(level: int, n: int) -> str:
    """Red for positive, blue for negative, brighter the larger |level| (1..n)."""
    k = abs(level) / n
    hi = int(round(90 + 165 * k))
    lo = int(round(60 * (1 - k)))
    return f"rgb({hi},{lo},{lo})" if level > 0 else f"rgb({lo},{lo + 40},{hi})"


class _Heat:
    """A heat map that decides colour or characters when rendered, from the console."""

    def __init__(self, layout: HeatLayout, title: str | None, color: bool | None) -> None:
        self.layout, self.title, self.color = layout, title, color

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.text import Text

        color = self.color
        if color is None:
            color = console.color_system is not None and not console.no_color
        lay = self.layout
        if self.title:
            yield Text(title_lines(self.title, options.max_width), style="bold")
        grid = Text(no_wrap=True, overflow="ignore")
        if not color:
            grid.append("\n".join(_heat_grid(lay)))
            yield grid
            yield Text(_heat_legend(lay, False), style="dim")
            return
        n = COLOR_LEVELS
        for i, row in enumerate(lay.levels(n).tolist()):
            if i:
                grid.append("\n")
            for v in row:
                if v == 0:
                    grid.append(ZERO_CHAR * lay.cell, style="grey42")
                elif v > n:
                    grid.append(NAN_CHAR * lay.cell, style="yellow")
                else:
                    grid.append("█" * lay.cell, style=_heat_rgb(v, n))
        yield grid
        legend = Text()
        if lay.top > 0 or np.isinf(lay.tiles).any():
            # A colour bar, strongest negative to strongest positive.
            legend.append(f"-{_top_text(lay.top)} ")
            for v in (*range(-n, 0), 0, *range(1, n + 1)):
                legend.append(
                    ZERO_CHAR if v == 0 else "█", style="grey42" if v == 0 else _heat_rgb(v, n)
                )
            legend.append(f" {_top_text(lay.top)}  ")
        legend.append(_heat_legend(lay, True), style="dim")
        yield legend


def heat_table(layout: HeatLayout, title: str | None = None, color: bool | None = None) -> Any:
    """A rich renderable of the heat map: coloured blocks (blue < 0, red > 0, brighter =
    larger), or with `color` False (None: whatever the console can, NO_COLOR honoured) the
    character ramp of `heat_plain`. Either way with a legend and the tiling note."""
    return _Heat(layout, title, color)
