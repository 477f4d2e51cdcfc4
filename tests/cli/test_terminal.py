"""The explorer on a terminal of 60 and of 120 columns, without colour, and in scripts: help
that fits and reads as documentation, matrices whose numbers are never cut (whole columns and
rows elided, counted), one number format per matrix, titles broken between their parts, the
heat map's character ramp, --trace and graph trees within the width, --precision everywhere,
output files in the format their extension says, and JSON errors a script can parse.

Each command runs through typer's CliRunner with COLUMNS pinned (rich measures nothing else in
a pipe), and its standard output and standard error are checked apart.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import numpy as np
import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from gradcli.cli.main import app
from tests.helpers import ROOT

WIDTHS = (60, 120)
COMMANDS = (
    "run",
    "forward",
    "backward",
    "graph",
    "export",
    "jacobian",
    "hessian",
    "hvp",
    "check",
    "symbolic",
    "ops",
)


def cli(width: int, *args: str, code: int = 0):
    runner = CliRunner(env={"COLUMNS": str(width), "NO_COLOR": "1", "FORCE_COLOR": ""})
    r = runner.invoke(app, list(args))
    assert r.exit_code == code, (r.exit_code, r.stdout, r.stderr)
    assert "Traceback" not in r.stdout + r.stderr
    return r


def widest(text: str) -> int:
    return max((cell_len(line) for line in text.splitlines()), default=0)


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples' paths, as the help's examples give them


# --- help --------------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("cmd", COMMANDS)
def test_help_fits_and_cuts_nothing(width: int, cmd: str) -> None:
    text = cli(width, cmd, "--help").stdout
    assert widest(text) <= width
    # Nothing cut short (rich ends a word too long for its column with an ellipsis), no
    # choice list or range crammed beside a metavar.
    assert "…" not in text
    assert "<" not in re.sub(r"d<grad, OF>|d<gradient, v>|blue < 0 < red", "", text)
    assert not re.search(r"\[x>=|<=x", text)
    # The example: a line of its own, whole at either width, and it runs.
    example = re.search(r"Example:\s*\n\s*(gradcli [^\n│]*?)\s*\n", text)
    assert example, text
    argv = shlex.split(example.group(1))
    assert cli(120, *argv[1:]).exit_code == 0


def test_help_keeps_brackets_that_look_like_markup() -> None:
    """typer renders help as rich markup, in which `[i, j]` would be a tag and vanish."""
    assert "J[i, j] = d OF_i / d WRT_j" in cli(120, "jacobian", "--help").stdout
    assert "H[i, j] = d2 OF" in cli(120, "hessian", "--help").stdout
    assert "d OF[i] / d WRT[j]" in cli(120, "symbolic", "--help").stdout


@pytest.mark.parametrize("width", WIDTHS)
def test_help_of_each_command_names_only_its_formats(width: int) -> None:
    def format_help(cmd: str) -> str:
        text = cli(width, cmd, "--help").stdout
        start = text.index("--format")
        return " ".join(text[start : text.index("--precision")].replace("│", " ").split())

    assert "table, plain, json, csv or npy" in format_help("jacobian")
    assert "table, plain, json, dot or mermaid" in format_help("graph")
    assert ".dot .mmd" in format_help("graph") and ".npy" not in format_help("graph")
    check = format_help("check")
    assert "table, plain or json" in check and "csv" not in check


@pytest.mark.parametrize("width", WIDTHS)
def test_the_root_help_and_gradcli_alone(width: int) -> None:
    text = cli(width, "--help").stdout
    assert widest(text) <= width and "…" not in text
    for cmd in COMMANDS:
        assert re.search(rf"│ {cmd} ", text), cmd
    assert "Exit status" in text
    start = cli(width).stdout
    assert widest(start) <= 60  # written for the narrowest terminal: no line broken
    assert "gradcli backward examples/seed_masks.py --of z -g 1,0,0,0" in start
    assert cli(width, "-V").stdout.startswith("gradcli ")


def test_limit_options_check_their_range_in_words() -> None:
    r = cli(60, "backward", "examples/mlp.py", "--precision", "18", code=2)
    assert "18 is not from 0 to 17" in r.stderr and r.stdout == ""
    r = cli(60, "backward", "examples/mlp.py", "--time-limit", "0", code=2)
    assert "0 is not >= 1" in r.stderr
    r = cli(60, "backward", "examples/mlp.py", "--time-limit", "soon", code=2)
    assert "is not a whole number" in r.stderr


# --- matrices ----------------------------------------------------------------------------

JAC_H_60 = """\
jacobian of h [2]   method rows: 2 backward passes, one per
output element (one-hot masks)

dh/dW1   h [2] x W1 [2, 3]  ->  2 x 6
J[i, j] = d h_i / d W1_j
     W1[0,0] W1[0,1] W1[0,2] W1[1,0] W1[1,1] W1[1,2]
h[0]  0.2576 -0.5152  1.0305  0       0       0
h[1]  0       0       0       0.0871 -0.1743  0.3485
"""

JAC_H_120 = """\
jacobian of h [2]   method rows: 2 backward passes, one per output element (one-hot masks)

dh/dW1   h [2] x W1 [2, 3]  ->  2 x 6   J[i, j] = d h_i / d W1_j
     W1[0,0] W1[0,1] W1[0,2] W1[1,0] W1[1,1] W1[1,2]
h[0]  0.2576 -0.5152  1.0305  0       0       0
h[1]  0       0       0       0.0871 -0.1743  0.3485
"""


@pytest.mark.parametrize(("width", "expected"), [(60, JAC_H_60), (120, JAC_H_120)])
def test_jacobian_table_pinned(width: int, expected: str) -> None:
    r = cli(width, "jacobian", "examples/mlp.py", "--of", "h", "--wrt", "W1", "-f", "table")
    assert r.stdout == expected and r.stderr == ""


# A 50 x 50 Jacobian whose entries span 1e-12 .. 1e12, with exact zeros (and -0).
BIG = """\
import torch
x = torch.linspace(-1, 1, 50, requires_grad=True)
s = 10.0 ** torch.linspace(-12, 12, 50)
A = torch.outer(s, torch.cos(torch.arange(50.0)))
A = A * (torch.rand(50, 50) > 0.3)
y = A @ x - 0.0 * x
"""


def _shown_numbers(text: str) -> list[tuple[str, str, str]]:
    """(row label, column label, cell text) of every number a table shows."""
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.lstrip().startswith("x[0]"))
    cols = lines[head].split()
    out = []
    for line in lines[head + 1 :]:
        if line.lstrip().startswith("…"):  # the elided rows
            continue
        if not line.lstrip().startswith("y["):
            break
        label, *cells = line.split()
        assert len(cells) == len(cols), line
        out += [(label, c, v) for c, v in zip(cols, cells) if c != "…" and v != "…"]
    return out


@pytest.mark.parametrize("width", WIDTHS)
def test_a_50x50_jacobian_shows_true_numbers_and_elides_whole_columns(
    width: int, tmp_path: Path
) -> None:
    prog = tmp_path / "big.py"
    prog.write_text(BIG)
    r = cli(width, "jacobian", str(prog), "--of", "y", "--wrt", "x", "-f", "table")
    text = r.stdout
    assert widest(text) <= width
    shown = re.search(r"showing (\d+) of 50 columns, (\d+) of 50 rows", text)
    assert shown and int(shown.group(1)) < 50, text
    assert "all of it: --format plain, csv, json or npy" in text
    assert "-0 " not in text and not re.search(r"-0\.0+(?!\d)", text)
    exact = np.load(_npy(width, prog, tmp_path))
    cells = _shown_numbers(text)
    assert len(cells) >= 4 * int(shown.group(2))
    kinds = {("e" in v) for _, _, v in cells if v != "0"}
    assert len(kinds) == 1  # one format for the whole matrix
    for row, col, v in cells:
        i, j = int(row[2:-1]), int(col[2:-1])
        if v == "0":
            assert exact[i, j] == 0, (row, col)
        else:
            # correctly rounded to the digits shown
            assert v == f"{exact[i, j]:.4e}", (row, col, v, exact[i, j])


def _npy(width: int, prog: Path, tmp_path: Path) -> Path:
    out = tmp_path / f"J{width}.npy"
    cli(width, "jacobian", str(prog), "--of", "y", "--wrt", "x", "-o", str(out))
    return out


@pytest.mark.parametrize("width", WIDTHS)
def test_a_300x300_jacobian_elides_rows_and_columns_with_counts(width: int) -> None:
    src = "x = torch.linspace(-1, 1, 300, requires_grad=True)\ny = torch.tanh(3 * x) * x.sum()"
    r = cli(width, "jacobian", "-e", src, "--method", "batched", "-f", "table")
    assert widest(r.stdout) <= width
    assert re.search(r"showing \d+ of 300 columns, 24 of 300 rows", r.stdout)
    assert re.search(r"^\s+… +…", r.stdout, re.M)  # the elided rows' line


@pytest.mark.parametrize("width", WIDTHS)
def test_values_across_24_decades_negative_zero_nan_and_inf(width: int) -> None:
    src = (
        "x = torch.tensor([1e-12, -1e-6, 1e6, 1e12, -0.0, float('nan'), float('inf'), "
        "-float('inf'), 0.0])"
    )
    r = cli(width, "forward", "-e", src, "-f", "table")
    assert widest(r.stdout) <= width
    assert "-0 " not in r.stdout and not r.stdout.rstrip().endswith("-0")
    row = next(line for line in r.stdout.splitlines() if re.match(r"x +[-\d]", line))
    assert "1.0000e-12" in row and "-inf" in row
    if width == 120:  # all of it fits
        assert row.split() == [
            "x",
            *"1.0000e-12 -1.0000e-06 1.0000e+06 1.0000e+12 0 nan inf -inf 0".split(),
        ]
    else:
        assert "…" in row and re.search(r"showing \d+ of 9 columns", r.stdout)
    plain = cli(width, "forward", "-e", src, "-f", "plain").stdout
    assert plain.split() == "1e-12 -1e-06 1000000 1000000000000 0 nan inf -inf 0".split()
    assert "non-finite values (1 nan, 2 inf of 9)" in r.stderr


@pytest.mark.parametrize("width", WIDTHS)
def test_precision_is_honoured_in_every_text_format(width: int) -> None:
    args = ("backward", "examples/mlp.py", "--wrt", "b1", "--precision", "3")
    assert cli(width, *args, "-f", "plain").stdout == "0.119 -0.046\n"
    assert cli(width, *args, "-f", "csv").stdout == ",[0],[1]\nb1,0.119,-0.046\n"
    assert "b1  0.119 -0.046" in cli(width, *args, "-f", "table").stdout
    graph = cli(width, "graph", "examples/mlp.py", "--values", "--precision", "6").stdout
    assert "value 0.362712" in graph and "value [0.852256]" in graph
    # JSON always has every digit (PyTorch's float64 value: W1 @ x is MKL's dgemv order)
    assert "0.11888241202656394" in cli(width, *args, "-f", "json").stdout


def test_heat_without_colour_is_a_sign_aware_ramp() -> None:
    for width in WIDTHS:
        r = cli(width, "jacobian", "examples/wide.py", "--heat", "-f", "table")
        assert widest(r.stdout) <= width
        grid = [line for line in r.stdout.splitlines() if line and set(line) <= set("#=-·+*@")]
        assert len(grid) == 36
        assert "#" in grid[10] and "@" not in "".join(grid)  # -2 the most negative
        assert "# = - < 0 < + * @" in r.stdout and "exactly 0" in r.stdout
        assert "\x1b[" not in r.stdout


def test_a_title_breaks_between_its_parts_never_inside_a_formula() -> None:
    r = cli(60, "hessian", "examples/mlp.py", "--wrt", "b1", "--wrt", "b2", "-f", "table")
    assert widest(r.stdout) <= 60
    lines = r.stdout.splitlines()
    assert "d2loss/d(b1, b2)^2   3 x 3" in lines
    assert "H[i, j] = d2 loss / d in_i d in_j" in lines
    assert "(inputs b1, b2 in this order)" in lines
    assert "b2[0] -0.1486  0.0574 -0.4121" in lines  # the assembled matrix


# --- trace and graph ---------------------------------------------------------------------

TRACE_60 = """\
backward from `loss` [1] with upstream gradient:
               [0]
   grad_output   1
1. SumBackward1 (computes loss) received:
            [0]
   received   1
   -> z [1, 4]:
           [0] [1] [2] [3]
      z[0]   1   1   1   1
2. MulBackward0 (computes z) received:
               [0] [1] [2] [3]
   received[0]   1   1   1   1
   -> x [1, 4]:
           [0] [1] [2] [3]
      x[0]   2   2   2   2
   -> (constant): nothing (does not require grad)
"""


def test_trace_tables_are_indented_under_their_step_without_trailing_blanks() -> None:
    r = cli(60, "backward", "examples/seed_masks.py", "--of", "loss", "--wrt", "x", "--trace")
    plain = r.stdout
    assert plain.startswith("backward from `loss` [1] with upstream gradient:\n   1\n")
    r = cli(60, *"backward examples/seed_masks.py --of loss --wrt x --trace -f table".split())
    assert r.stdout.startswith(TRACE_60)
    assert all(line == line.rstrip() for line in r.stdout.splitlines())


DEEP = """\
x = torch.tensor([0.5, -1.0], requires_grad=True)
h = x
for i in range(20):
    h = torch.tanh(h * 1.1 + 0.1)
y = h.sum()
"""


@pytest.mark.parametrize("width", WIDTHS)
def test_a_graph_of_61_levels_continues_below_within_the_width(width: int) -> None:
    r = cli(width, "graph", "-e", DEEP, "--of", "y", "-f", "table")
    assert widest(r.stdout) <= width
    assert r.stdout.count("(continued)") >= (4 if width == 120 else 10)
    for m in re.finditer(r"inputs below, at (#\d+)", r.stdout):
        assert f"\n{m.group(1)} [2]" in r.stdout  # each continues in a drawing of its own
    assert "── x [2]  leaf, requires_grad" in r.stdout


def test_graph_and_trace_name_a_node_by_the_same_id() -> None:
    graph = cli(120, "graph", "examples/mlp.py").stdout
    trace = cli(120, "backward", "examples/mlp.py", "--wrt", "W1", "--trace").stdout
    ids = set(re.findall(r"#\d+", graph))
    assert {"#2", "#3", "#6", "#7"} <= ids
    for i in ("#2", "#3", "#6", "#7"):
        assert f"(computes {i})" in trace


# --- files and scripts ---------------------------------------------------------------------


def test_output_files_are_what_their_extension_says_and_read_back(tmp_path: Path) -> None:
    def out(name: str, *args: str) -> Path:
        p = tmp_path / name
        r = cli(120, *args, "-o", str(p))
        assert r.stdout == "" and p.exists()
        return p

    g = ("graph", "examples/mlp.py")
    assert out("g.dot", *g).read_text().startswith("digraph gradcli {")
    assert out("g.mmd", *g).read_text().startswith("flowchart BT")
    assert json.loads(out("g.json", *g).read_text())["of"] == "loss"
    assert out("g.txt", *g).read_text().startswith("loss []  MseLossBackward0")
    b = ("backward", "examples/mlp.py", "--of", "h", "--grad", "onehot:1", "--wrt", "W1")
    assert np.load(out("W1.npy", *b)).shape == (2, 3)
    assert set(np.load(out("all.npz", "forward", "examples/mlp.py"))) >= {"W1", "h", "loss"}
    assert out("W1.csv", *b).read_text().startswith(",[0],[1],[2]\nW1[0],0,0,0\n")
    assert out("W1.txt", *b).read_text().startswith("0 0 0\n")
    # Read back: the same value whichever file carries it.
    want = cli(120, "backward", "examples/mlp.py", "--of", "loss", "--wrt", "b1",
               "--set", "W1=0,0,0,0.0871342827809065,-0.174268565561813,"
               "0.348537131123626").stdout  # fmt: skip
    out("W1.npz", *b)
    for f in ("W1.npy", "W1.csv", "W1.npz"):
        src = tmp_path / f
        got = cli(120, "backward", "examples/mlp.py", "--of", "loss", "--wrt", "b1",
                  "--set", f"W1=@{src}").stdout  # fmt: skip
        assert got == want, f
    h = out("h.json", "forward", "examples/mlp.py", "--of", "h")
    a = cli(120, "backward", "examples/mlp.py", "--of", "h", "--grad", f"@{h}", "--wrt", "b1")
    b2 = cli(120, "backward", "examples/mlp.py", "--of", "h", "--grad", "0.6962576726866815,"
             "-0.9086976584311126", "--wrt", "b1")  # fmt: skip
    assert a.stdout == b2.stdout


def test_dash_is_standard_output() -> None:
    r = cli(120, "backward", "examples/mlp.py", "--wrt", "b1", "-o", "-", "-f", "csv")
    assert r.stdout.startswith(",[0],[1]\nb1,")


ERRORS = [
    (["backward", "examples/mlp.py", "--of", "h", "--grad", "1,2,3"], 1),
    (["backward", "examples/mlp.py", "--of", "nope"], 1),
    (["backward", "examples/mlp.py", "--nope"], 2),
    (["backward", "no/such/file.py"], 1),
    (["jacobian", "examples/mlp.py", "--method", "nope"], 2),
    (["check", "examples/mlp.py", "-o", "check.csv"], 2),
    (
        [
            "backward",
            "-e",
            "x = torch.tensor([0.0], requires_grad=True)\ny = x.sqrt().sum()",
            "--strict-finite",
        ],
        1,
    ),  # fmt: skip
]


@pytest.mark.parametrize(("args", "code"), ERRORS)
def test_errors_under_json_end_stderr_with_one_json_line(args: list[str], code: int) -> None:
    json_ways = [["--format", "json"], ["-o", "-", "--format", "json"]]
    if "-o" in args:  # its own file: JSON errors from --format json alone
        json_ways = [["--format", "json"]]
    for fmt in json_ways:
        r = cli(60, *args, *fmt, code=code)
        human, last = r.stderr.rstrip("\n").rsplit("\n", 1)
        assert "error: " in human
        err = json.loads(last)["error"]
        assert err["exit_code"] == code and err["message"] in human
        if "--strict-finite" in args:
            assert json.loads(r.stdout)["grads"]["x"] == ["inf"]  # the result, whole
        else:
            assert r.stdout == ""
    # Without JSON: the same message, no JSON line.
    r = cli(60, *args, code=code)
    assert '{"error"' not in r.stderr


@pytest.mark.parametrize("width", WIDTHS)
def test_check_ops_and_warnings_wrap_prose_at_words(width: int) -> None:
    r = cli(width, "check", "examples/mlp.py", "--no-sympy", "-f", "table")
    assert widest(r.stdout) <= width
    assert "numeric: central finite differences" in " ".join(r.stdout.split())
    r = cli(width, "ops", "tanh", "-f", "table")
    assert widest(r.stdout) <= width
    lines = r.stdout.splitlines()
    # the values of `gradcli ops NAME` in one column
    starts = {line.index(":") + len(line.split(":", 1)[1]) - len(line.split(":", 1)[1].lstrip())
              for line in lines[1:] if line.startswith("  ") and ":" in line}  # fmt: skip
    assert len(starts) == 1, lines
    assert widest(cli(width, "ops", "-f", "table").stdout) <= width


def test_remarks_wrap_at_words_on_a_terminal_and_stay_one_line_in_a_pipe(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gradcli.cli import output

    text = "the first non-finite value: `log` (LogBackward0) at prog.py:2:1: log(0) = -inf"
    output.note(text, "warning")
    assert capsys.readouterr().err == f"warning: {text}\n"  # a pipe: one line, for grep
    monkeypatch.setattr(output, "_terminal_width", lambda stream: 60)
    output.note(text, "warning")
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all(len(line) <= 60 for line in lines)
    assert lines[1].startswith("  ") and " ".join(" ".join(lines).split()) == f"warning: {text}"


def test_shell_completion_completes_commands_options_and_choices() -> None:
    def complete(words: str, cword: int) -> list[str]:
        env = {"_GRADCLI_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(cword)}
        r = CliRunner(env=env).invoke(app, [], prog_name="gradcli")
        return r.stdout.split()

    assert complete("gradcli jac", 1) == ["jacobian"]
    assert "--method" in complete("gradcli jacobian --me", 2)
    assert complete("gradcli jacobian --method ", 3) == [
        "rows",
        "batched",
        "forward",
        "numeric",
        "auto",
    ]
