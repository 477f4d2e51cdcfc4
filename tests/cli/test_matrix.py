"""gradcli.cli.matrix: number formats, width-aware tables, plain text, CSV and heat maps.

Rendering is pinned at 60 and 120 columns; properties (hypothesis) check over random matrices
that every number shown is the true value to the digits shown, that nothing but the elision
marker is `…`, that the table fits the width, that `-0` never appears, and that plain text and
CSV round-trip exactly.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from rich.cells import cell_len
from rich.console import Console

from gradcli.cli import matrix

ROOT = Path(__file__).resolve().parents[2]


M = matrix


def render(renderable: object, width: int, color_system: str | None = None) -> str:
    console = Console(width=width, record=True, color_system=color_system, file=_Null())
    console.print(renderable)
    return console.export_text()


class _Null:
    def write(self, s: str) -> int:
        return len(s)

    def flush(self) -> None:
        pass


def table(mat: np.ndarray, width: int, **kw: object) -> str:
    title = kw.pop("title", None)
    hint = kw.pop("hint", None)
    layout = M.format_matrix(mat, width=width, **kw)
    return render(M.matrix_table(layout, title=title, hint=hint), width)


def jacobian_like(n: int = 50) -> np.ndarray:
    """Mixed signs, a band of magnitudes 1 .. 1e-10, exact zeros far from the diagonal."""
    i, j = np.indices((n, n))
    jac = np.exp(-0.5 * np.abs(i - j)) * np.cos(i + 2 * j)
    return np.where(np.abs(jac) < 1e-10, 0.0, jac)


YX = {"row_labels": lambda r: f"y[{r}]", "col_labels": lambda c: f"x[{c}]"}


# --- pinned rendering ----------------------------------------------------------------------

JAC_120 = """\
dy/dx
             x[0]        x[1]        x[2]        x[3]        x[4] …       x[46]       x[47]       x[48]       x[49]
 y[0]  1.0000e+00 -2.5241e-01 -2.4046e-01  2.1424e-01 -1.9691e-02 …  0           0           0           0
 y[1]  3.2771e-01 -9.8999e-01  1.7205e-01  2.7735e-01 -2.0330e-01 …  0           0           0           0
 y[2] -1.5309e-01 -3.9645e-01  9.6017e-01 -8.8250e-02 -3.0868e-01 …  2.7043e-10  0           0           0
 y[3] -2.2090e-01  1.0435e-01  4.5726e-01 -9.1113e-01  2.6843e-03 …  3.3581e-10 -2.5807e-10  0           0
    …           …           …           …           …           … …           …           …           …           …
y[46]  0          -1.0831e-10  2.6917e-10  0          -6.2883e-10 …  9.7365e-01 -1.1998e-01 -2.9762e-01  1.9438e-01
y[47]  0           0           1.2556e-10 -2.5615e-10  0          …  4.3547e-01 -9.3172e-01  3.4877e-02  3.2516e-01
y[48]  0           0           0          -1.4031e-10  2.3800e-10 … -7.2772e-02 -4.9069e-01  8.7115e-01  5.0924e-02
y[49]  0           0           0           0           1.5225e-10 … -2.0790e-01  2.1154e-02  5.3609e-01 -7.9314e-01
showing 9 of 50 columns, 8 of 50 rows
--format plain for all
"""  # noqa: E501

JAC_60 = """\
dy/dx
             x[0]        x[1] …       x[48]       x[49]
 y[0]  1.0000e+00 -2.5241e-01 …  0           0
 y[1]  3.2771e-01 -9.8999e-01 …  0           0
 y[2] -1.5309e-01 -3.9645e-01 …  0           0
 y[3] -2.2090e-01  1.0435e-01 …  0           0
    …           …           … …           …           …
y[46]  0          -1.0831e-10 … -2.9762e-01  1.9438e-01
y[47]  0           0          …  3.4877e-02  3.2516e-01
y[48]  0           0          …  8.7115e-01  5.0924e-02
y[49]  0           0          …  5.3609e-01 -7.9314e-01
showing 4 of 50 columns, 8 of 50 rows
--format plain for all
"""


@pytest.mark.parametrize(("width", "expected"), [(120, JAC_120), (60, JAC_60)])
def test_jacobian_50x50_pinned(width: int, expected: str) -> None:
    text = table(
        jacobian_like(), width, title="dy/dx", hint="--format plain for all", max_rows=8, **YX
    )
    assert text == expected


SOFTMAX_60 = """\
        x[0]    x[1]    x[2] …    x[7]    x[8]    x[9]
y[0]  0.0293 -0.0011 -0.0014 … -0.0043 -0.0054 -0.0068
y[1] -0.0011  0.0363 -0.0018 … -0.0054 -0.0068 -0.0084
y[2] -0.0014 -0.0018  0.0449 … -0.0068 -0.0084 -0.0105
y[3] -0.0018 -0.0022 -0.0028 … -0.0084 -0.0105 -0.0132
y[4] -0.0022 -0.0028 -0.0035 … -0.0105 -0.0132 -0.0164
y[5] -0.0028 -0.0035 -0.0043 … -0.0132 -0.0164 -0.0205
y[6] -0.0035 -0.0043 -0.0054 … -0.0164 -0.0205 -0.0256
y[7] -0.0043 -0.0054 -0.0068 …  0.1228 -0.0256 -0.0320
y[8] -0.0054 -0.0068 -0.0084 … -0.0256  0.1469 -0.0400
y[9] -0.0068 -0.0084 -0.0105 … -0.0320 -0.0400  0.1735
showing 6 of 10 columns
"""

SOFTMAX_120_HEAD = """\
        x[0]    x[1]    x[2]    x[3]    x[4]    x[5]    x[6]    x[7]    x[8]    x[9]
y[0]  0.0293 -0.0011 -0.0014 -0.0018 -0.0022 -0.0028 -0.0035 -0.0043 -0.0054 -0.0068
"""


def softmax_jacobian() -> np.ndarray:
    x = np.linspace(-1, 1, 10)
    s = np.exp(x) / np.exp(x).sum()
    return np.diag(s) - np.outer(s, s)


def test_10x10_fixed_pinned() -> None:
    assert table(softmax_jacobian(), 60, **YX) == SOFTMAX_60
    wide = table(softmax_jacobian(), 120, **YX)
    assert wide.startswith(SOFTMAX_120_HEAD)
    assert "showing" not in wide and len(wide.splitlines()) == 11


SCI_60 = """\
            x[0]        x[1] …        x[8]        x[9]
y[0]  1.0000e-10 -4.1615e-11 … -9.5766e-11  6.6032e-11
y[1]  1.0806e-10  1.0806e-10 … -1.5194e-10 -5.5033e-11
y[2] -1.2484e-10  3.0000e-10 …  4.1021e-11 -2.8730e-10
y[3] -3.9600e-10  2.1612e-10 …  3.6298e-10 -3.0388e-10
y[4] -3.2682e-10 -2.0807e-10 …  4.2193e-10  6.8369e-11
y[5]  1.7020e-10 -5.9400e-10 …  2.6554e-12  5.4447e-10
y[6]  6.7212e-10 -4.5755e-10 … -5.8735e-10  5.9070e-10
y[7]  6.0312e-10  2.2693e-10 … -7.2890e-10  3.5406e-12
y[8] -1.3095e-10  8.6415e-10 … -1.3095e-10 -7.5516e-10
y[9] -9.1113e-10  7.5390e-10 …  7.5390e-10 -9.1113e-10
showing 4 of 10 columns
"""

SCI_60_P2 = """\
          x[0]      x[1]      x[2] …      x[8]      x[9]
y[0]  1.00e-10 -4.16e-11 -6.54e-11 … -9.58e-11  6.60e-11
"""


def test_10x10_tiny_values_at_60_columns_are_never_cut() -> None:
    """The issue's failure: at 60 columns a 10x10 Jacobian was all `0.…` and `-0…`."""
    i, j = np.indices((10, 10))
    mat = np.cos(i - 2 * j) * (1 + i) / 10 * 1e-9
    assert table(mat, 60, **YX) == SCI_60
    assert table(mat, 60, precision=2, **YX).startswith(SCI_60_P2)


def test_scaled_nan_inf_negative_zero_pinned() -> None:
    mat = np.array(
        [
            [1.5e-9, 0.0, 0.0, np.nan],
            [-0.0, 3e-9, np.inf, -np.inf],
            [1e-11, -8e-12, 7.77777e-9, 1e-9],
        ]
    )
    text = table(mat, 60)
    assert text.splitlines()[0] == "1e-09 *"
    assert "-0 " not in text and not re.search(r"-0(\s|$)", text)
    lines = text.splitlines()
    assert lines[1:] == [
        "        [0]     [1]     [2]     [3]",
        "[0]  1.5000  0       0          nan",
        "[1]  0       3.0000     inf    -inf",
        "[2]  0.0100 -0.0080  7.7778  1.0000",
    ]


def test_integral_matrices_are_exact_integers() -> None:
    assert table(np.array([[2.0, 0.0, 0.0, 0.0]]), 60) == (
        "    [0] [1] [2] [3]\n[0]   2   0   0   0\n"
    )
    assert table(np.array([[2.0, -0.0, 10.0, -300.0]]), 60) == (
        "     [0]  [1]  [2]  [3]\n[0]    2    0   10 -300\n"
    )
    # integral but huge: a shared factor, as PyTorch's pre-0.4 printing
    text = table(np.arange(12.0).reshape(3, 4) * 1e9, 60)
    assert text.splitlines()[:3] == [
        "1e+10 *",
        "       [0]    [1]    [2]    [3]",
        "[0] 0      0.1000 0.2000 0.3000",
    ]


def test_matrix_view_lays_out_at_the_width_it_is_given() -> None:
    from rich.padding import Padding

    jac = jacobian_like()
    for width in (60, 120):
        view = M.matrix_view(jac, title="dy/dx", hint="--format plain for all", max_rows=8, **YX)
        assert render(view, width) == (JAC_60 if width == 60 else JAC_120)
    # indented (as a --trace step under its label): the table fits what is left
    text = render(Padding(M.matrix_view(jac, **YX), (0, 0, 0, 6)), 60)
    assert all(cell_len(line) <= 60 for line in text.splitlines())
    assert "showing 3 of 50 columns" in text


def test_issue_precision_3_shows_the_whole_exponent() -> None:
    mat = np.full((50, 50), 9.1233e-10)
    mat[0, 0] = 1.0
    for width in (60, 120):
        text = table(mat, width, precision=3, **YX)
        assert "9.123e-10" in text and "…" in text
        assert all(cell_len(line) <= width for line in text.splitlines())


def test_rows_elided_by_max_rows_default_and_one_row_is_never_elided() -> None:
    lay = M.format_matrix(np.zeros((50, 3)), width=80)
    assert len(lay.rows) == M.DEFAULT_MAX_ROWS + 1 and M.ELIDED in lay.rows
    assert lay.note == f"showing {M.DEFAULT_MAX_ROWS} of 50 rows"
    # eliding a single row would print a `…` line instead of it: show it
    lay = M.format_matrix(np.zeros((5, 3)), width=80, max_rows=4)
    assert lay.rows == (0, 1, 2, 3, 4) and lay.note is None
    lay = M.format_matrix(np.zeros((6, 3)), width=80, max_rows=4)
    assert lay.rows == (0, 1, M.ELIDED, 4, 5)


def test_shapes_other_than_2d() -> None:
    assert M.format_matrix(np.float64(3.5), width=40).text() == "       [0]\n[0] 3.5000"
    assert (
        M.format_matrix(np.arange(3.0), width=40, row_labels=[""]).text()
        == "[0] [1] [2]\n  0   1   2"
    )
    lay = M.format_matrix(np.zeros((2, 3, 4)), width=80)
    assert lay.shape == (6, 4)
    empty = M.format_matrix(np.zeros((0, 3)), width=40)
    assert empty.rows == () and empty.cells == ()
    assert render(M.matrix_table(empty), 40) == "[0] [1] [2]\n"
    assert M.format_matrix(np.zeros((2, 0)), width=40).cols == ()


def test_labels_wider_than_cells_and_sequences() -> None:
    lay = M.format_matrix(
        np.eye(2), width=80, row_labels=["first", "second"], col_labels=["a,b,c,d", "e"]
    )
    assert lay.text() == "       a,b,c,d e\n first       1 0\nsecond       0 1"


def test_too_narrow_for_any_column_shows_only_the_elision() -> None:
    lay = M.format_matrix(np.full((2, 5), 0.125), width=8)
    assert lay.cols == (M.ELIDED,)
    assert lay.note == "showing 0 of 5 columns"
    assert lay.width <= 8


def test_bool_and_int_dtypes() -> None:
    assert M.format_matrix(np.array([[True, False]]), width=40).text() == (
        "      [0]   [1]\n[0]  true false"
    )
    assert M.format_matrix(np.array([[-(2**62), 3]]), width=80).text().endswith("3")
    assert M.matrix_plain(np.array([[True, False]])) == "true false"
    assert M.matrix_plain(np.array([[2**62, -1]])) == f"{2**62} -1"


def test_matrix_table_styles_zeros_dim_and_specials() -> None:
    lay = M.format_matrix(np.array([[0.0, np.nan, 0.5]]), width=40)
    console = Console(width=40, record=True, color_system="truecolor", file=_Null())
    console.print(M.matrix_table(lay))
    styled = console.export_text(styles=True)
    assert "\x1b[2m" in styled  # dim zero
    assert "\x1b[33m" in styled  # yellow nan


def test_module_import_does_not_import_rich() -> None:
    code = (
        "import sys\n"
        "from gradcli.cli import matrix as m\n"
        "import numpy as np\n"
        "m.matrix_plain(np.eye(3)); m.matrix_csv(np.eye(3)); m.read_matrix_csv('1,2')\n"
        "m.heat_plain(m.heat_layout(np.eye(3), width=40))\n"
        "m.format_matrix(np.eye(3), width=40).text()\n"
        "print(sorted(k for k in sys.modules if k.split('.')[0] == 'rich'))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


# --- properties of tables ------------------------------------------------------------------

SPECIALS = [0.0, -0.0, np.nan, np.inf, -np.inf, 5e-324, 1e-300, -1e300, 1e8, 1e-4, 9.99995e-5]


@st.composite
def matrices(draw: st.DrawFn) -> np.ndarray:
    shape = (draw(st.integers(1, 9)), draw(st.integers(1, 14)))
    family = draw(st.sampled_from(["any", "scaled", "integral", "narrow"]))
    if family == "any":
        a = draw(arrays(np.float64, shape, elements=st.floats(width=64)))
    elif family == "scaled":  # one magnitude, anywhere: fixed, scaled or sci by the exponent
        mant = draw(arrays(np.float64, shape, elements=st.floats(-999.0, 999.0)))
        a = mant * 10.0 ** draw(st.integers(-300, 300))
    elif family == "integral":
        a = draw(arrays(np.float64, shape, elements=st.integers(-(10**9), 10**9).map(float)))
    else:  # ratios around PyTorch's 1e3 switch and magnitudes around 1e-4 and 1e8
        mant = draw(arrays(np.float64, shape, elements=st.floats(0.5, 2000.0)))
        signs = draw(arrays(np.float64, shape, elements=st.sampled_from([-1.0, 1.0])))
        a = mant * signs * draw(st.sampled_from([1e-7, 1e-4, 1e-3, 1.0, 1e5, 1e8]))
    if draw(st.booleans()):
        mask = draw(arrays(np.bool_, shape))
        fill = draw(arrays(np.float64, shape, elements=st.sampled_from(SPECIALS)))
        a = np.where(mask, fill, a)
    return a


def check_cell(text: str, true: float, fmt: object) -> None:
    """`text` (a cell) is `true` to the digits shown; never `-0`, never cut."""
    s = text.strip()
    assert "…" not in s
    if math.isnan(true):
        assert s == "nan"
        return
    if math.isinf(true):
        assert s == ("inf" if true > 0 else "-inf")
        return
    if true == 0:
        assert s == "0"
        return
    assert not re.fullmatch(r"-0(\.0*)?(e[+-]\d+)?", s), s
    p = fmt.precision
    if fmt.kind == "int":
        assert Decimal(s) == Decimal(true)
        return
    if fmt.kind == "sci":
        mant, exp = s.split("e")
        assert len(exp) == 1 + fmt.exp_digits
        shown, ulp = Decimal(s), Decimal(10) ** (int(exp) - p)
        assert len(mant.lstrip("-").split(".")[-1]) == p or p == 0
    else:
        scale = Decimal(10) ** fmt.exponent
        shown, ulp = Decimal(s) * scale, Decimal(10) ** -p * scale
        if p:
            assert len(s.split(".")[1]) == p
    assert abs(shown - Decimal(true)) <= ulp / 2, (s, true)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mat=matrices(),
    width=st.integers(12, 200),
    precision=st.none() | st.integers(0, 8),
    max_rows=st.none() | st.integers(1, 10),
    wide_labels=st.booleans(),
)
def test_table_properties(
    mat: np.ndarray, width: int, precision: int | None, max_rows: int | None, wide_labels: bool
) -> None:
    col_labels = (lambda c: f"x[{c},{c}]") if wide_labels else None
    lay = M.format_matrix(
        mat, width=width, precision=precision, max_rows=max_rows, col_labels=col_labels
    )
    fmt = lay.format
    nr, nc = mat.shape
    # every shown number is the true value to the digits shown; -0 and `…` never appear
    for i, r in enumerate(lay.rows):
        for j, c in enumerate(lay.cols):
            if r != M.ELIDED and c != M.ELIDED:
                check_cell(lay.cells[i][j], float(mat[r, c]), fmt)
    # decimal points (or exponents) line up: every finite nonzero cell has the same tail
    tails = {
        len(cell) - cell.index("e" if fmt.kind == "sci" else ".")
        for row in lay.cells
        for cell in row
        if cell and ("." in cell or "e" in cell) and cell.strip() not in ("nan", "inf", "-inf")
    }
    assert len(tails) <= 1
    # the width is respected (the `…` column and the row labels always fit at these widths)
    assert lay.width <= width
    text = render(M.matrix_table(lay, title="t"), width)
    assert all(cell_len(line) <= width for line in text.splitlines())
    assert lay.text() in text
    # whole columns are elided in the middle, as few as the width allows
    shown = [c for c in lay.cols if c != M.ELIDED]
    k = len(shown)
    assert shown == list(range((k + 1) // 2)) + list(range(nc - k // 2, nc))
    if k < nc:
        extra = M._edges(nc, k + 1)
        labels = [col_labels(c) if col_labels else f"[{c}]" for c in extra if c != M.ELIDED]
        need = sum(max(fmt.width, len(s)) for s in labels) + (1 if M.ELIDED in extra else 0)
        need += M.GAP * (len(extra) - 1)
        assert need > width - (lay.label_width + M.GAP)
        assert f"{k} of {nc} columns" in lay.note
    limit = M.DEFAULT_MAX_ROWS if max_rows is None else max_rows
    assert (M.ELIDED in lay.rows) == (nr > limit + 1)


# --- plain text ----------------------------------------------------------------------------


def test_plain_is_todays_plain_output() -> None:
    """Shortest round-trip text, integral floats compact, -0 as 0 (what gradcli printed)."""
    assert M.matrix_plain(np.array([2.0, 0.0, 0.0, 0.0])) == "2 0 0 0"
    assert M.matrix_plain(np.array([[0.1, -0.0], [1e-10, 1e16]])) == "0.1 0\n1e-10 1e+16"
    assert M.matrix_plain(np.array([np.nan, np.inf, -np.inf, -2.5])) == "nan inf -inf -2.5"
    assert M.matrix_plain(np.array([123456789.0, -10.0])) == "123456789 -10"
    assert M.matrix_plain(np.zeros((0, 4))) == ""
    assert M.matrix_plain(np.float64(7.0)) == "7"
    assert M.matrix_plain(np.arange(8.0).reshape(2, 2, 2)) == "0 1\n2 3\n4 5\n6 7"


def test_plain_float32_is_shortest_for_float32() -> None:
    a = np.array([[0.1, 2.0, -0.0, 1e-8]], dtype=np.float32)
    text = M.matrix_plain(a)
    assert text == "0.1 2 0 1e-08"
    assert np.array_equal(np.array(text.split(), dtype=np.float32), a[0])


def test_plain_with_precision() -> None:
    assert M.matrix_plain(np.array([[0.5, -0.001, 0.25]]), 3) == "0.500 -0.001 0.250"
    assert M.matrix_plain(np.array([[0.5, -0.001, 0.25]]), 2) == "0.50 0.00 0.25"  # not -0.00
    assert M.matrix_plain(np.array([[1e-9, -2e-9]]), 2) == "1.00e-09 -2.00e-09"  # scaled -> sci
    assert M.matrix_plain(np.array([[2.0, -0.0, -3.0]]), 2) == "2 0 -3"


def _tokens_back(text: str) -> np.ndarray:
    return np.array([[float(t) for t in line.split(" ")] for line in text.split("\n")])


@settings(max_examples=200, deadline=None)
@given(mat=matrices())
def test_plain_round_trips_exactly(mat: np.ndarray) -> None:
    text = M.matrix_plain(mat)
    assert np.array_equal(_tokens_back(text), mat, equal_nan=True)
    tokens = text.split()
    assert not any(re.fullmatch(r"-0(\.0*)?(e[+-]\d+)?", t) for t in tokens)
    assert not any(t.endswith(".0") for t in tokens)


@settings(max_examples=200, deadline=None)
@given(mat=matrices(), precision=st.integers(0, 8))
def test_plain_with_precision_is_true_to_the_digits_shown(mat: np.ndarray, precision: int) -> None:
    text = M.matrix_plain(mat, precision)
    fmt = M.number_format(mat, precision)
    for tok, true in zip(text.split(), mat.reshape(-1).tolist()):
        assert not re.fullmatch(r"-0(\.0*)?(e[+-]\d+)?", tok), tok
        if not math.isfinite(true):
            assert tok == repr(true)
            continue
        if "e" in tok:
            ulp = Decimal(10) ** (int(tok.split("e")[1]) - precision)
        elif fmt.kind == "int":
            ulp = Decimal(0)
        else:
            ulp = Decimal(10) ** -precision
        assert abs(Decimal(tok) - Decimal(true)) <= ulp / 2, (tok, true)


# --- CSV -----------------------------------------------------------------------------------


def test_csv_writes_header_and_quoted_labels() -> None:
    text = M.matrix_csv(
        np.array([[1.0, -0.0], [0.1, np.nan]]),
        row_labels=lambda r: f"y[{r},0]",
        col_labels=lambda c: f"x[{c}]",
    )
    assert text == ',x[0],x[1]\n"y[0,0]",1,0\n"y[1,0]",0.1,nan'
    back = M.read_matrix_csv(text)
    assert back.row_labels == ("y[0,0]", "y[1,0]") and back.col_labels == ("x[0]", "x[1]")
    assert np.array_equal(back.values, [[1.0, 0.0], [0.1, np.nan]], equal_nan=True)


label_text = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=8).map(
    str.strip
)


@settings(max_examples=200, deadline=None)
@given(mat=matrices(), data=st.data())
def test_csv_round_trips(mat: np.ndarray, data: st.DataObject) -> None:
    nr, nc = mat.shape
    rows = data.draw(st.lists(label_text, min_size=nr, max_size=nr))
    cols = data.draw(st.lists(label_text, min_size=nc, max_size=nc))
    back = M.read_matrix_csv(M.matrix_csv(mat, rows, cols))
    assert np.array_equal(back.values, mat, equal_nan=True)
    assert back.row_labels == tuple(rows) and back.col_labels == tuple(cols)


def test_read_csv_without_header_or_labels() -> None:
    got = M.read_matrix_csv("1,2\n3, 4e-3\n\n")
    assert np.array_equal(got.values, [[1, 2], [3, 0.004]])
    assert got.row_labels is None and got.col_labels is None
    got = M.read_matrix_csv("a,b\n1,2\n")
    assert got.col_labels == ("a", "b") and got.row_labels is None
    got = M.read_matrix_csv("y0,1,2\ny1,3,4")
    assert got.row_labels == ("y0", "y1") and got.col_labels is None
    got = M.read_matrix_csv(",0,1\n0,1.5,2\n1,3,4")  # pandas' to_csv: numeric labels
    assert got.row_labels == ("0", "1") and got.col_labels == ("0", "1")
    assert np.array_equal(got.values, [[1.5, 2], [3, 4]])
    got = M.read_matrix_csv("a\n1\n2")  # one column with a header
    assert got.col_labels == ("a",) and got.values.shape == (2, 1)
    got = M.read_matrix_csv(M.matrix_csv(np.zeros((0, 3))))
    assert got.values.shape == (0, 3)


def test_read_csv_errors_name_the_line_and_the_header_row() -> None:
    with pytest.raises(
        M.CsvFormatError, match=r"line 3 has 2 values but the header row \(line 1\) has 3"
    ):
        M.read_matrix_csv(",a,b\nr,1,2\nr,1")
    with pytest.raises(M.CsvFormatError, match=r"line 2: `x` \(column 2\) is not a number") as e:
        M.read_matrix_csv("1,2\n3,x")
    assert e.value.line == 2 and e.value.column == 2
    with pytest.raises(M.CsvFormatError, match="line 2 has 3 values but line 1 has 2"):
        M.read_matrix_csv("1,2\n1,2,3")
    with pytest.raises(M.CsvFormatError, match="line 1: the value in column 2 is empty"):
        M.read_matrix_csv("1,,3")
    with pytest.raises(M.CsvFormatError, match="empty"):
        M.read_matrix_csv("\n \n")


# --- heat maps -----------------------------------------------------------------------------

HEAT_SMALL = (
    (
        "heat: # = - < 0 < + * @, in thirds of the largest |value| (3; an infinity is the "
        "largest); · exactly 0; ? nan\n"
    )
    + """\
------··
++++++??
@@··++##"""
)


def test_heat_character_ramp_is_sign_aware() -> None:
    mat = np.array([[-1.0, -0.5, -0.1, 0.0], [0.1, 0.5, 1.0, np.nan], [np.inf, -0.0, 2e-9, -3]])
    assert M.heat_plain(M.heat_layout(mat, width=60)) == HEAT_SMALL
    lev = M.heat_layout(np.array([[-3.0, -2.0, -1.0, 1.0, 2.0, 3.0]]), width=60)
    assert M.heat_plain(lev).splitlines()[1] == "##==--++**@@"


def test_heat_tiles_are_block_means_and_say_so() -> None:
    rng = np.random.default_rng(3)
    mat = rng.standard_normal((100, 300))
    lay = M.heat_layout(mat, width=60, max_rows=20)
    assert lay.block == (5, 5) and lay.tiles.shape == (20, 60) and lay.cell == 1
    assert np.allclose(lay.tiles, mat.reshape(20, 5, 60, 5).mean(axis=(1, 3)))
    assert lay.note == "each character is the mean of a 5 x 5 block (100 x 300 shown as 20 x 60)"
    text = M.heat_plain(lay)
    assert lay.note in text.splitlines()[0]
    assert all(len(line) <= 60 for line in text.splitlines()[1:])
    # ragged edges: the mean of the real entries only; nan and infinities carried through
    odd = np.ones((3, 7))
    odd[0, 0], odd[2, 6] = np.nan, -np.inf
    lay = M.heat_layout(odd, width=4, max_rows=2)
    assert lay.block == (2, 2) and lay.tiles.shape == (2, 4)
    assert np.isnan(lay.tiles[0, 0]) and lay.tiles[1, 3] == -np.inf and lay.tiles[1, 0] == 1.0


def test_heat_colour_and_no_colour() -> None:
    mat = np.array([[-1.0, 0.0], [0.5, 1.0]])
    lay = M.heat_layout(mat, width=60)
    console = Console(width=60, record=True, color_system="truecolor", file=_Null())
    console.print(M.heat_table(lay, title="h"))
    plain = console.export_text(styles=False, clear=False)
    assert plain.splitlines()[:3] == ["h", "██··", "████"]
    styled = console.export_text(styles=True)
    assert "38;2;0;40;255m██" in styled  # the strongest negative: full blue
    assert "38;2;255;0;0m██" in styled  # the strongest positive: full red
    # NO_COLOR (or no colour terminal): the character ramp, decided when rendered
    for console in (
        Console(width=60, record=True, no_color=True, color_system="truecolor", file=_Null()),
        Console(width=60, record=True, color_system=None, file=_Null()),
    ):
        console.print(M.heat_table(lay))
        lines = console.export_text().splitlines()
        assert lines[:2] == ["##··", "**@@"]
        assert lines[2].startswith("# = - < 0 < + * @")


@settings(max_examples=100, deadline=None)
@given(mat=matrices(), width=st.integers(1, 120), rows=st.integers(1, 30))
def test_heat_fits_and_marks_every_nonzero(mat: np.ndarray, width: int, rows: int) -> None:
    lay = M.heat_layout(mat, width=width, max_rows=rows)
    grid = M.heat_plain(lay).splitlines()[1:]
    assert len(grid) <= rows and all(len(line) <= width for line in grid)
    if lay.block == (1, 1):
        chars = np.array([list(line[:: lay.cell]) for line in grid])
        assert np.array_equal(chars == M.ZERO_CHAR, mat == 0)
        assert np.array_equal(np.isin(chars, list(M.NEG_RAMP)), mat < 0)
        assert np.array_equal(chars == M.NAN_CHAR, np.isnan(mat))
