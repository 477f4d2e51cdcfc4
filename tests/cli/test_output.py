"""The one output dispatcher: every command's result in every format it supports, the format
picked by `--output`'s extension, the refusals in one place, errors in one style (and as JSON
with --format json), and the first contact (no arguments, -V, --debug anywhere)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli.cli import matrix
from gradcli.cli.main import app

PROG = """\
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
w = torch.tensor([0.5, -1.0], requires_grad=True)
h = x * w
y = h.sum(dim=1)
loss = (y ** 2).sum()
"""


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1", "FORCE_COLOR": ""})


@pytest.fixture
def prog(tmp_path: Path) -> str:
    p = tmp_path / "prog.py"
    p.write_text(PROG)
    return str(p)


def run(runner: CliRunner, *args: str, code: int = 0):
    r = runner.invoke(app, list(args))
    assert r.exit_code == code, (r.stdout, r.stderr)
    assert "Traceback" not in r.stdout + r.stderr
    return r


# The commands that produce numbers, with the arguments that make them run.
NUMBERS = {
    "forward": ["--of", "h"],
    "backward": ["--of", "y", "--grad", "1,2", "--wrt", "w"],
    "jacobian": ["--of", "y", "--wrt", "x"],
    "hessian": ["--of", "loss", "--wrt", "w"],
    "hvp": ["--of", "loss", "--wrt", "w", "--v", "1,0"],
}


@pytest.mark.parametrize("cmd", NUMBERS)
@pytest.mark.parametrize("fmt", ["table", "plain", "json", "csv", "npy"])
def test_every_command_with_numbers_has_every_format(
    runner: CliRunner, prog: str, tmp_path: Path, cmd: str, fmt: str
) -> None:
    out = tmp_path / f"out.{fmt}"
    run(runner, cmd, prog, *NUMBERS[cmd], "--format", fmt, "-o", str(out))
    data = out.read_bytes()
    if fmt == "npy":
        assert np.load(out).size > 0
    elif fmt == "json":
        assert isinstance(json.loads(data), dict)
    elif fmt == "csv":
        m = matrix.read_matrix_csv(data.decode())
        assert m.values.size > 0 and m.row_labels is not None
    else:
        assert data.strip()


@pytest.mark.parametrize("cmd", NUMBERS)
@pytest.mark.parametrize("ext", ["npy", "json", "csv", "txt"])
def test_the_extension_of_output_picks_the_format(
    runner: CliRunner, prog: str, tmp_path: Path, cmd: str, ext: str
) -> None:
    out = tmp_path / f"out.{ext}"
    run(runner, cmd, prog, *NUMBERS[cmd], "-o", str(out))
    data = out.read_bytes()
    if ext == "npy":
        assert data.startswith(b"\x93NUMPY")
        np.load(out)
    elif ext == "json":
        json.loads(data)
    elif ext == "csv":
        assert data.startswith(b",")  # the header row: an empty corner, then the labels
    else:
        assert not data.startswith((b"\x93NUMPY", b"{", b","))


def test_backward_npy_is_the_gradient_and_npz_every_gradient(
    runner: CliRunner, prog: str, tmp_path: Path
) -> None:
    one = tmp_path / "g.npy"
    run(runner, "backward", prog, "--of", "y", "--grad", "1,2", "--wrt", "w", "-o", str(one))
    np.testing.assert_array_equal(np.load(one), [7.0, 10.0])
    several = tmp_path / "g.npy"
    r = run(runner, "backward", prog, "--of", "y", "--grad", "1,2", "-o", str(several), code=2)
    assert ".npz" in r.stderr
    npz = tmp_path / "g.npz"
    run(runner, "backward", prog, "--of", "y", "--grad", "1,2", "-o", str(npz))
    with np.load(npz) as z:
        assert sorted(z.files) == ["w", "x"]
        np.testing.assert_array_equal(z["x"], [[0.5, -1.0], [1.0, -2.0]])


def test_dash_is_standard_output(runner: CliRunner, prog: str) -> None:
    r = run(runner, "backward", prog, "--of", "y", "--grad", "1,2", "--wrt", "w", "-o", "-")
    assert r.stdout == "7 10\n"
    r = run(runner, "forward", prog, "--of", "y", "-f", "json", "-o", "-")
    assert json.loads(r.stdout)["values"]["y"] == [-1.5, -2.5]


@pytest.mark.parametrize(
    "args, fmt",
    [
        (["check", "--no-sympy"], "csv"),
        (["check", "--no-sympy"], "npy"),
        (["graph"], "csv"),
        (["jacobian", "--of", "y", "--compare"], "csv"),
        (["jacobian", "--of", "y", "--heat"], "json"),
        (["jacobian", "--of", "y", "--show-masks"], "npy"),
        (["backward", "--of", "loss"], "dot"),
    ],
)
def test_a_format_a_result_cannot_take_is_refused_in_one_place(
    runner: CliRunner, prog: str, args: list[str], fmt: str
) -> None:
    r = run(runner, args[0], prog, *args[1:], "--format", fmt, code=2)
    assert r.stdout == ""
    first = r.stderr.splitlines()[0]
    assert first.startswith("error: ") and f"cannot be written as {fmt}" in first
    assert "expected: one of: table, plain" in r.stderr


def test_npz_needs_npy(runner: CliRunner, prog: str, tmp_path: Path) -> None:
    r = run(
        runner, "jacobian", prog, "--of", "y", "-f", "csv", "-o", str(tmp_path / "j.npz"), code=2
    )
    assert "an .npz file but --format is csv" in r.stderr


def test_npy_is_not_written_onto_a_terminal(prog: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from gradcli.cli import output

    monkeypatch.setattr(output, "_stdout_is_terminal", lambda: True)
    r = CliRunner().invoke(app, ["backward", prog, "--of", "loss", "--wrt", "w", "-f", "npy"])
    assert r.exit_code == 2 and "binary data" in r.stderr


def test_too_many_numbers_for_text_is_a_named_limit(
    runner: CliRunner, prog: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GRADCLI_OUTPUT_NUMBERS", "3")
    r = run(runner, "forward", prog, "--of", "h", "-f", "plain", code=1)
    assert "4 numbers to write as text, over the limit of 3" in r.stderr
    assert "GRADCLI_OUTPUT_NUMBERS" in r.stderr
    run(runner, "forward", prog, "--of", "h", "-f", "table")  # a table elides: no limit
    run(runner, "forward", prog, "--of", "h", "-o", str(tmp_path / "h.npy"))  # binary


# --- errors: one style, and JSON with --format json -------------------------------------------


def test_errors_under_json_end_with_the_error_as_json(runner: CliRunner, tmp_path: Path) -> None:
    p = tmp_path / "bad.py"
    p.write_text("import torch\nx = torch.ones(2, requires_grad=True)\ny = torch.sigmoidd(x)\n")
    r = run(runner, "backward", str(p), "--format", "json", code=1)
    lines = r.stderr.splitlines()
    assert lines[0].startswith(f"{p}:3:5: error: ")  # the message, as without --format json
    err = json.loads(lines[-1])["error"]
    assert (err["file"], err["line"], err["column"]) == (str(p), 3, 5)
    assert "sigmoidd" in err["message"] and err["hint"] and err["exit_code"] == 1
    assert err["source"] == "y = torch.sigmoidd(x)"


def test_usage_errors_under_json_too(runner: CliRunner, prog: str) -> None:
    r = run(runner, "backward", prog, "-f", "json", "--wrt", "x", "--bogus", code=2)
    err = json.loads(r.stderr.splitlines()[-1])["error"]
    assert err["kind"] == "usage" and "--bogus" in err["message"] and err["exit_code"] == 2
    r = run(runner, "check", prog, "--no-sympy", "-o", "c.json", "--of", "los", code=1)
    assert json.loads(r.stderr.splitlines()[-1])["error"]["hint"] == "did you mean `loss`?"


def test_without_json_no_json(runner: CliRunner, prog: str) -> None:
    r = run(runner, "backward", prog, "--of", "nope", code=1)
    assert "{" not in r.stderr


@pytest.mark.parametrize("name", ["y\nerror: fake second message", "a" * 100_000])
def test_error_messages_never_forge_lines_nor_echo_long_input(
    runner: CliRunner, prog: str, name: str
) -> None:
    for opt in ("--of", "--wrt"):
        r = run(runner, "backward", prog, opt, name, code=1)
        assert len(r.stderr) < 2000
        assert not any(line.startswith("error: fake") for line in r.stderr.splitlines())


def test_messages_of_several_lines_keep_them_indented(runner: CliRunner, tmp_path: Path) -> None:
    # PyTorch's gradcheck and assert_close write reports of several lines; each stays a line,
    # indented under the first, so none can pass for the start of another message.
    p = tmp_path / "lines.py"
    p.write_text(
        'import torch\nrows = "\\n".join(f"row {i}" for i in range(40))\n'
        'raise RuntimeError("mismatch,\\nerror: fake\\n" + rows + "\\n")\n'
    )
    r = run(runner, "run", str(p), code=1)
    lines = r.stderr.splitlines()
    assert lines[0].endswith("error: RuntimeError: mismatch,")
    assert lines[1] == "    error: fake"
    assert lines[2] == "    row 0"
    assert any(line.startswith("    … (19 more lines) …") for line in lines)
    assert lines.index("    row 39") < lines.index(" 3 | " + p.read_text().splitlines()[2])
    assert not any(line.startswith("error") for line in lines)
    assert len([line for line in lines if line.startswith("    ")]) == 24 - 1


def test_usage_error_style_and_suggestion(runner: CliRunner, prog: str) -> None:
    r = run(runner, "backward", prog, "--fromat", "json", code=2)
    lines = r.stderr.splitlines()
    assert lines[0] == "error: No such option: --fromat" and len(lines) == 2
    assert lines[1].startswith("  hint: did you mean `--format`")
    assert lines[1].endswith("(`gradcli backward --help` lists the options)")
    r = run(runner, "backwrd", code=2)
    assert r.stderr.startswith("error: No such command 'backwrd'")


# --- first contact ---------------------------------------------------------------------------


def test_no_arguments_is_a_getting_started_screen(runner: CliRunner) -> None:
    r = run(runner)
    assert r.stderr == ""
    commands = [line.strip() for line in r.stdout.splitlines() if line.startswith("  gradcli")]
    assert len(commands) == 4
    for c in commands[:3]:  # each runs, from the repository root
        import shlex

        run(runner, *shlex.split(c)[1:])


def test_version_short_and_long(runner: CliRunner) -> None:
    assert run(runner, "-V").stdout.startswith("gradcli ")
    assert run(runner, "--version").stdout == run(runner, "-V").stdout


def test_debug_anywhere(runner: CliRunner, prog: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import gradcli.analysis.api as api

    def boom(*a, **k):
        raise RuntimeError("boom")

    monkeypatch.setattr(api, "forward", boom)
    for argv in (["--debug", "forward", prog], ["forward", prog, "--debug"]):
        r = runner.invoke(app, argv)
        assert isinstance(r.exception, RuntimeError), argv  # the traceback, not exit 70
    r = runner.invoke(app, ["forward", prog])
    assert r.exit_code == 70 and "please report" in r.stderr


def test_completion_is_typers(runner: CliRunner) -> None:
    r = run(runner, "--help")
    assert "--install-completion" in r.stdout and "--show-completion" in r.stdout


@pytest.mark.parametrize(
    "cmd",
    [
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
    ],
)
def test_help_has_panels_metavars_and_an_example_that_runs(runner: CliRunner, cmd: str) -> None:
    import re
    import shlex

    r = run(runner, cmd, "--help")
    text = r.stdout
    assert "Limits" in text and "--time-limit" in text and "SECONDS" in text
    if cmd != "ops":
        assert "Program" in text and "PROGRAM" in text and "TEXT" in text
    if cmd not in ("run", "export"):
        assert "Output" in text and "FORMAT" in text and "FILE" in text
    assert "<str>" not in text and "<path>" not in text
    example = re.search(r"Example:\s*\n\s*(gradcli [^\n│]*)", text)
    assert example, text
    argv = shlex.split(example.group(1).split(" > ")[0].split(" | ")[0].strip())
    run(runner, *argv[1:])


def test_plain_output_says_which_output_and_inputs_the_defaults_chose(
    runner: CliRunner, prog: str
) -> None:
    r = run(runner, "backward", prog, "--format", "plain")
    assert "note: the output is `loss`: the last assigned tensor that requires grad" in r.stderr
    assert "note: the inputs are `x`, `w`: every leaf that requires grad" in r.stderr
    # Chosen on the command line: nothing to say.
    r = run(runner, "backward", prog, "--of", "loss", "--wrt", "w", "--format", "plain")
    assert "note: the output" not in r.stderr and "note: the inputs" not in r.stderr


@pytest.mark.parametrize("fmt", ["csv", "json", "npy"])
def test_what_gradcli_writes_it_reads_back(
    runner: CliRunner, prog: str, tmp_path: Path, fmt: str
) -> None:
    """forward -o FILE, then backward --grad @FILE and --set NAME=@FILE."""
    out = tmp_path / f"h.{fmt}"
    run(runner, "forward", prog, "--of", "h", "-o", str(out))
    r = run(runner, "backward", prog, "--of", "h", "--grad", f"@{out}", "--wrt", "w")
    r2 = run(runner, "backward", prog, "--of", "h", "--grad", "[[0.5,-2],[1.5,-4]]", "--wrt", "w")
    assert r.stdout == r2.stdout
    g = tmp_path / f"g.{fmt}"
    run(runner, "backward", prog, "--wrt", "x", "-o", str(g))
    r = run(runner, "forward", prog, "--of", "x", "--set", f"x=@{g}", "--format", "json")
    # d loss / dx = 2 y w, y = x @ w = [-1.5, -2.5]
    assert json.loads(r.stdout)["values"]["x"] == [[-1.5, 3.0], [-2.5, 5.0]]


def test_set_runs_the_program_once(
    runner: CliRunner, prog: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gradcli.lang import program

    runs = []
    real = program.Program.run

    def counted(self, *a, **k):
        runs.append(1)
        return real(self, *a, **k)

    monkeypatch.setattr(program.Program, "run", counted)
    r = run(runner, "forward", prog, "--of", "w", "--set", "w=3,4", "--format", "json")
    assert json.loads(r.stdout)["values"]["w"] == [3.0, 4.0]
    assert len(runs) == 1


WIDE = """\
x = torch.linspace(-1, 1, 10, requires_grad=True)
W = torch.arange(100.0).reshape(10, 10) / 7 - 3
y = torch.tanh(W @ x) * 1e-3
"""


@pytest.mark.parametrize("columns, shown", [(60, 6), (120, 10)])
def test_tables_at_60_and_120_columns(columns: int, shown: int) -> None:
    """A 10x10 Jacobian on a terminal of 60 and 120 columns: whole columns elided (and said
    so), never a number cut, one scale factor for the matrix, no line wider than the screen."""
    runner = CliRunner(env={"COLUMNS": str(columns), "NO_COLOR": "1", "FORCE_COLOR": ""})
    r = run(runner, "jacobian", "-e", WIDE, "--format", "table")
    lines = r.stdout.splitlines()
    assert max(len(line) for line in lines) <= columns
    header = next(line for line in lines if "x[0]" in line)
    assert header.count("x[") == shown
    assert "1e-04 *" in lines
    row = next(line for line in lines if line.startswith("y[3]"))
    # Every number whole, to 4 decimals (PyTorch's precision) under the shared scale factor.
    numbers = [c for c in row.split()[1:] if c != "…"]
    assert numbers[0] == "0.2702" and all(len(c.split(".")[-1]) == 4 for c in numbers)
    assert ("showing 6 of 10 columns" in r.stdout) == (shown < 10)


def test_colour_and_no_color() -> None:
    coloured = CliRunner(env={"COLUMNS": "120", "NO_COLOR": None, "FORCE_COLOR": "1"})
    plain = CliRunner(env={"COLUMNS": "120", "NO_COLOR": "1", "FORCE_COLOR": None})
    a = run(coloured, "jacobian", "-e", WIDE, "--format", "table", "--heat").stdout
    b = run(plain, "jacobian", "-e", WIDE, "--format", "table", "--heat").stdout
    assert "\x1b[" in a and "\x1b[" not in b
    # Without colour the heat map is a sign-aware ramp of characters, not solid blocks.
    rows = [line for line in b.splitlines() if len(line) == 20 and " " not in line]
    assert len(rows) == 10 and "█" not in b
    assert rows[0] == "-" * 20 and rows[-1] == "@" * 20  # the most negative, the most positive
    assert "·" in rows[2]  # exactly 0 (W @ x at y[2], x[1]) is its own character
