"""Inputs outside programs (files, stdin, --grad/--set/--of/--wrt, option conflicts), numerical
edge cases reported with a warning, and internal errors (exit 70, `--debug`).

Every error is one message on stderr, nothing on stdout, exit status 1 (2 for usage).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli.analysis import api
from gradcli.cli.main import app
from tests.helpers.cli import run_cli as _run_cli

PROG = """\
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
c = torch.ones(3)
y = x * 2 + c
z = y.sum()
"""


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"})


@pytest.fixture
def prog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "prog.py").write_text(PROG)
    return "prog.py"


def fails(
    runner: CliRunner, args: list[str], code: int = 1, input: bytes | str | None = None
) -> str:
    r = runner.invoke(app, args, input=input)
    assert r.exit_code == code, (r.exit_code, r.stdout, r.stderr)
    assert r.stdout == "", r.stdout
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
    assert r.stderr.strip(), "an error needs a message"
    return r.stderr


# --- the program file --------------------------------------------------------------------


def test_missing_file(runner: CliRunner, prog: str) -> None:
    err = fails(runner, ["backward", "nope.py"])
    assert err.startswith("error: no such file: nope.py\n")
    assert "hint:" in err


def test_directory(runner: CliRunner, prog: str, tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    assert fails(runner, ["run", "sub"]).startswith("error: sub is a directory")


def test_unreadable_file(runner: CliRunner, prog: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real_open = Path.open

    def no_permission(self: Path, *a: object, **k: object) -> object:
        if self.name == "prog.py":
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *a, **k)

    monkeypatch.setattr(Path, "open", no_permission)
    err = fails(runner, ["run", "prog.py"])
    assert err.startswith("error: cannot read prog.py: Permission denied")


def test_binary_file(runner: CliRunner, prog: str, tmp_path: Path) -> None:
    (tmp_path / "a.out").write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00")
    assert fails(runner, ["run", "a.out"]) == "error: a.out is a binary file, not a program\n"


def test_non_utf8_file(runner: CliRunner, prog: str, tmp_path: Path) -> None:
    (tmp_path / "latin.py").write_bytes("x = 'caf\xe9'\n".encode("latin-1"))
    err = fails(runner, ["run", "latin.py"])
    assert err.startswith("error: latin.py is not UTF-8 text (byte 8)")
    assert "save the program as UTF-8" in err


def test_coding_line_is_honoured(runner: CliRunner, prog: str, tmp_path: Path) -> None:
    """A PEP 263 coding line decodes the program as Python decodes it (Chinese tutorial
    repositories keep GBK files): on the first line, or on the second after a comment."""
    text = "# -*- coding: gbk -*-\n# 梯度\nprint('求导', len('求导'))\n"
    (tmp_path / "gbk.py").write_bytes(text.encode("gbk"))
    r = runner.invoke(app, ["run", "gbk.py"])
    assert r.exit_code == 0 and r.stdout == "求导 2\n"
    text = "#!/usr/bin/env python\n# vim: set fileencoding=latin-1 :\nprint('café')\n"
    (tmp_path / "latin.py").write_bytes(text.encode("latin-1"))
    r = runner.invoke(app, ["run", "latin.py"])
    assert r.exit_code == 0 and r.stdout == "café\n"
    (tmp_path / "utf.py").write_bytes("# coding=UTF_8\nprint('é')\n".encode())
    r = runner.invoke(app, ["run", "utf.py"])
    assert r.exit_code == 0 and r.stdout == "é\n"
    # Not a coding line after a line of code (as Python): the file must then be UTF-8.
    (tmp_path / "late.py").write_bytes("x = 1\n# coding: latin-1\nprint('é')\n".encode("latin-1"))
    assert fails(runner, ["run", "late.py"]).startswith("error: late.py is not UTF-8 text")


def test_coding_line_problems(runner: CliRunner, prog: str, tmp_path: Path) -> None:
    """What Python refuses, gradcli refuses, with Python's words; an encoding gradcli does not
    read is said plainly."""
    # Declared GBK, saved as UTF-8 (a file copied from a web page): not GBK text.
    (tmp_path / "mixed.py").write_bytes("# encoding=GBK\n# 自动求导\nprint(1)\n".encode())
    err = fails(runner, ["run", "mixed.py"])
    assert err.startswith("error: mixed.py: syntax error: encoding problem: GBK\n")
    assert "not gbk text" in err
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbf# coding: latin-1\nprint(1)\n")
    err = fails(runner, ["run", "bom.py"])
    assert err.startswith("error: bom.py: syntax error: encoding problem: iso-8859-1 with BOM")
    for declared in ("foo-bar", "rot13", "utf-16"):
        (tmp_path / "odd.py").write_bytes(f"# coding: {declared}\nprint(1)\n".encode())
        err = fails(runner, ["run", "odd.py"])
        assert err.startswith(
            f"error: odd.py: the coding line (line 1) declares the encoding '{declared}', "
            "which gradcli does not read"
        )
        assert "save the program as UTF-8 and remove the coding line" in err


def test_utf8_bom_is_fine(runner: CliRunner, prog: str, tmp_path: Path) -> None:
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbfprint(1)\n")
    r = runner.invoke(app, ["run", "bom.py"])
    assert r.exit_code == 0 and r.stdout == "1\n"


def test_huge_file(runner: CliRunner, prog: str, tmp_path: Path) -> None:
    (tmp_path / "big.py").write_bytes(b"x = 1\n" * 200_000)
    err = fails(runner, ["run", "big.py"])
    assert "size in bytes is 1,200,000, over the limit of 1,000,000" in err


def test_stdin(runner: CliRunner, prog: str) -> None:
    r = runner.invoke(app, ["run", "-"], input="print(1 + 1)\n")
    assert r.exit_code == 0 and r.stdout == "2\n"
    assert (
        fails(runner, ["run", "-"], input=b"x = 1\x00")
        == "error: <stdin> is a binary file, not a program\n"
    )
    assert fails(runner, ["run", "-"], input=b"\xff\xfe").startswith(
        "error: <stdin> is not UTF-8 text"
    )
    err = fails(runner, ["run", "-"], input="y = z\n")
    assert err.startswith("<stdin>:1:5: error: name 'z' is not defined")


def test_expr_not_utf8(runner: CliRunner) -> None:
    # What a shell hands over for invalid UTF-8 in an argument (surrogate escapes).
    err = fails(runner, ["run", "-e", "x = 1\udcff"])
    assert err.startswith("<-e>:1:6: error: the program is not valid UTF-8 text")


def test_empty_program(runner: CliRunner) -> None:
    assert runner.invoke(app, ["run", "-e", ""]).exit_code == 0
    err = fails(runner, ["backward", "-e", ""])
    assert "no output to differentiate" in err


# --- conflicting and missing options (usage: exit 2) ------------------------------------------


def test_file_and_expr(runner: CliRunner, prog: str) -> None:
    err = fails(runner, ["backward", "prog.py", "-e", "x = 1"], code=2)
    assert err == "error: give the program as a file or with -e, not both\n"


def test_no_program(runner: CliRunner) -> None:
    err = fails(runner, ["forward"], code=2)
    assert err.startswith("error: no program given")


@pytest.mark.parametrize(
    "args",
    [
        ["backward", "prog.py", "--format", "xml"],
        ["backward", "prog.py", "--dtype", "float16"],
        ["backward", "prog.py", "--precision", "-1"],
        ["backward", "prog.py", "--seed", "1.5"],
        ["backward", "prog.py", "--no-such-option"],
        ["forward", "prog.py", "--grad", "1"],
        ["no-such-command"],
    ],
)
def test_usage_errors(runner: CliRunner, prog: str, args: list[str]) -> None:
    """Usage errors look like every other error: `error: ...` and a hint, one message."""
    err = fails(runner, args, code=2)
    assert err.startswith("error: "), err
    assert "  hint: " in err and "--help" in err
    assert "Usage:" not in err and "╭" not in err


def test_set_without_equals_is_usage(runner: CliRunner, prog: str) -> None:
    err = fails(runner, ["backward", "prog.py", "--set", "x"], code=2)
    assert err.startswith("error: --set expects NAME=VALUES, but `x` has no `=`")


# --- --grad ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "grad, message",
    [
        ("1,2", "error: --grad has 2 values but the output has shape [3] (3 elements)"),
        ("1,2,3,4", "error: --grad has 4 values but the output has shape [3]"),
        ("1,x,3", "error: --grad: `x` (the value at index 1) is not a number"),
        ("1,,3", "error: --grad: the value at index 1 is empty"),
        ("1,nan,3", "error: --grad: the value at index 1 is `nan`; values must be finite"),
        ("1,2,-inf", "values must be finite"),
        ("[1,[2],3]", "error: --grad is a ragged list"),
        ("[[1,2,3]", "unclosed"),
        ("onehot:3", "error: --grad: onehot index 3 is out of range"),
        ("onehot:", "needs an index"),
        ("@missing.npy", "error: --grad file `missing.npy` does not exist"),
        ("@prog.py", "unsupported extension `.py`"),
        ("", "error: --grad is empty"),
    ],
)
def test_bad_grad(runner: CliRunner, prog: str, grad: str, message: str) -> None:
    err = fails(runner, ["backward", "prog.py", "--of", "y", "--grad", grad])
    assert message in err.splitlines()[0] + err, err


def test_grad_files(runner: CliRunner, prog: str, tmp_path: Path) -> None:
    np.save(tmp_path / "g.npy", np.array([1.0, 0.0, 0.0]))
    r = runner.invoke(app, ["backward", "prog.py", "--of", "y", "--grad", "@g.npy"])
    assert r.exit_code == 0 and r.stdout == "2 0 0\n"
    np.save(tmp_path / "bad.npy", np.array([1.0, np.nan, 0.0]))
    assert "finite" in fails(runner, ["backward", "prog.py", "--of", "y", "--grad", "@bad.npy"])
    (tmp_path / "g.json").write_text("[1, 2]")
    assert "has 2 values" in fails(
        runner, ["backward", "prog.py", "--of", "y", "--grad", "@g.json"]
    )
    (tmp_path / "junk.npy").write_bytes(b"not an npy file")
    fails(runner, ["backward", "prog.py", "--of", "y", "--grad", "@junk.npy"])
    (tmp_path / "d.csv").mkdir()
    assert "is a directory" in fails(
        runner, ["backward", "prog.py", "--of", "y", "--grad", "@d.csv"]
    )


# --- --set -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, message",
    [
        ("x=1,2", "error: --set x has 2 values but `x` has shape [3] (3 elements)"),
        ("x=1,inf,3", "finite"),
        ("x=a,b,c", "is not a number"),
        ("x=@missing.json", "does not exist"),
        ("q=1", "the program assigns no tensor named `q`"),
        ("y=1,2,3", "`y` is computed by the program"),
        ("x=", "has no values after `=`"),
    ],
)
def test_bad_set(runner: CliRunner, prog: str, value: str, message: str) -> None:
    code = 2 if value.endswith("=") else 1
    err = fails(runner, ["backward", "prog.py", "--set", value], code=code)
    assert message in err, err


def test_set_works(runner: CliRunner, prog: str) -> None:
    r = runner.invoke(app, ["forward", "prog.py", "--set", "x=0,1,2", "--of", "y"])
    assert r.exit_code == 0 and r.stdout == "1 3 5\n"


# --- --of / --wrt ------------------------------------------------------------------------------


def test_unknown_of_suggests(runner: CliRunner, prog: str) -> None:
    err = fails(runner, ["backward", "prog.py", "--of", "yy"])
    assert err.splitlines()[0] == "error: no tensor named `yy` in the program"
    assert "did you mean `y`?" in err
    assert "expected: one of: `x`, `c`, `y`, `z`" in err


def test_unknown_wrt_suggests(runner: CliRunner, prog: str) -> None:
    err = fails(runner, ["backward", "prog.py", "--wrt", "X"])
    assert "no tensor named `X`" in err and "did you mean `x`?" in err


def test_wrt_and_of_constants(runner: CliRunner, prog: str) -> None:
    assert "`c` does not require grad" in fails(runner, ["backward", "prog.py", "--wrt", "c"])
    assert "`c` does not require grad" in fails(runner, ["backward", "prog.py", "--of", "c"])
    assert "`nope` " in fails(runner, ["forward", "prog.py", "--of", "nope"])


def test_output_errors(runner: CliRunner, prog: str, tmp_path: Path) -> None:
    assert fails(runner, ["backward", "prog.py", "--output", "."]).startswith(
        "error: cannot write ."
    )
    assert "cannot write" in fails(
        runner, ["backward", "prog.py", "--output", "no/such/dir/out.txt"]
    )
    assert not (tmp_path / "no").exists()


# --- numerical edge cases: results, with a warning ------------------------------------------------


@pytest.mark.parametrize(
    "expr, shown",
    [
        ("torch.log(x - 1)", "-inf"),
        ("torch.sqrt(x - 1)", "0"),
        ("1 / (x - 1)", "inf"),
        ("torch.exp(x * 1000)", "inf"),
        ("(x - 1) / (x - 1)", "nan"),
    ],
)
def test_non_finite_results_warn(runner: CliRunner, expr: str, shown: str) -> None:
    text = f"x = torch.tensor([1.0], requires_grad=True)\ny = {expr}\nz = y.sum()"
    r = runner.invoke(app, ["backward", "-e", text, "--of", "z", "--format", "json"])
    assert r.exit_code == 0, r.stderr
    assert "Traceback" not in r.stderr and "RuntimeWarning" not in r.stderr
    assert "warning:" in r.stderr, r.stderr
    assert json.loads(r.stdout)["grads"]["x"]  # reported, as PyTorch computes them
    f = runner.invoke(app, ["forward", "-e", text, "--of", "y"])
    assert f.exit_code == 0 and f.stdout.strip() == shown


def test_warning_names_the_line(runner: CliRunner) -> None:
    text = "x = torch.tensor([0.0, 1.0], requires_grad=True)\ny = torch.log(x)\nz = y.sum()"
    r = runner.invoke(app, ["backward", "-e", text])
    assert r.exit_code == 0
    assert r.stdout == "inf 1\n"
    lines = r.stderr.splitlines()
    assert lines[0].startswith("<-e>:2:1: warning: `y` has non-finite values (1 inf of 2)")
    assert any("the gradient of `x` has non-finite values (1 inf of 2)" in ln for ln in lines)


def test_run_warns_after_output(runner: CliRunner) -> None:
    text = (
        "x = torch.tensor([0.0], requires_grad=True)\ny = torch.sqrt(x)\ny.backward()\n"
        "print(x.grad)"
    )
    r = runner.invoke(app, ["run", "-e", text])
    assert r.exit_code == 0
    assert r.stdout == "tensor([inf])\n"
    assert "`x.grad` has non-finite values" in r.stderr


def test_library_reports_warnings() -> None:
    r = api.load("a = torch.tensor([1e308]) * 10\nb = torch.tensor([-1.0]).log()")
    assert len(r.warnings) == 2
    assert "`a` has non-finite values (1 inf of 1)" in r.warnings[0]
    assert "`b` has non-finite values (1 nan of 1)" in r.warnings[1]


# --- internal errors -----------------------------------------------------------------------------


def _boom(*a: object, **k: object) -> None:
    raise RuntimeError("boom")


def test_internal_error_exit_70(
    runner: CliRunner, prog: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(api, "backward", _boom)
    monkeypatch.setattr(sys, "argv", ["gradcli", "backward", "prog.py", "--of", "z"])
    r = runner.invoke(app, ["backward", "prog.py", "--of", "z"])
    assert r.exit_code == 70
    assert r.stdout == ""
    assert "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert lines[0] == "gradcli: internal error, please report: RuntimeError: boom"
    assert lines[1] == "  to reproduce: gradcli --debug backward prog.py --of z"


def test_internal_error_command_is_quoted(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(api, "forward", _boom)
    argv = ["forward", "-e", "x = torch.ones(2)\ny = x * 2"]
    monkeypatch.setattr(sys, "argv", ["gradcli", *argv])
    r = runner.invoke(app, argv)
    assert r.exit_code == 70
    assert "to reproduce: gradcli --debug forward -e 'x = torch.ones(2)\ny = x * 2'" in r.stderr


def test_debug_shows_the_traceback() -> None:
    patch = "def boom(*a, **k):\n    raise RuntimeError('boom')\napi.backward = boom"
    args = ["backward", "-e", "x = torch.ones(2, requires_grad=True)\ny = x.sum()"]
    plain = _run_cli(args, patch)
    assert plain.returncode == 70
    assert "Traceback" not in plain.stderr
    assert "internal error, please report: RuntimeError: boom" in plain.stderr
    debug = _run_cli(["--debug", *args], patch)
    assert debug.returncode != 0
    assert "Traceback (most recent call last)" in debug.stderr
    assert "RuntimeError: boom" in debug.stderr


def test_debug_shows_the_cause_of_a_user_error() -> None:
    # A Python error on a bad argument is the user's error (exit 1); --debug shows where.
    # (beta='a' is refused before any work now, in the words of PyTorch's parser)
    args = ["run", "-e", "x = torch.nn.functional.softplus(torch.ones(2), beta=None)"]
    plain = _run_cli(args)
    assert plain.returncode == 1
    assert "Traceback" not in plain.stderr
    debug = _run_cli(["--debug", *args])
    assert debug.returncode == 1
    assert "Traceback" in debug.stderr and "TypeError" in debug.stderr
    assert "softplus(): float() argument must be a string or a real number" in debug.stderr


def test_real_process_errors_are_clean(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "gradcli", "run", "-e", "x = torch.zeros(100000, 100000)"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert r.returncode == 1
    assert r.stdout == ""
    assert r.stderr.startswith("<-e>:1:5: error: a tensor of shape [100000, 100000]")
    assert list(tmp_path.iterdir()) == []


def test_file_name_too_long(runner: CliRunner, prog: str) -> None:
    err = fails(runner, ["run", "a" * 5000])
    assert err.startswith("error: cannot read aaaa")
    assert "File name too long" in err
    assert len(err) < 300


def test_raised_source_limit_reads_the_whole_file(
    runner: CliRunner, prog: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "big.py").write_text("# " + "-" * 1_100_000 + "\nx = 1\nprint(x + 1)\n")
    assert "over the limit" in fails(runner, ["run", "big.py"])
    monkeypatch.setenv("GRADCLI_SOURCE_BYTES", "2000000")
    r = runner.invoke(app, ["run", "big.py"])
    assert r.exit_code == 0 and r.stdout == "2\n", r.stderr


def test_error_messages_cannot_drive_the_terminal(runner: CliRunner, prog: str) -> None:
    err = fails(runner, ["backward", "prog.py", "--of", "\x1b]0;title\x07"])
    assert "\x1b" not in err and "\x07" not in err
    assert "\\x1b]0;title\\x07" in err
    err = fails(runner, ["run", "-e", "x = '\u202e\x1b[2J'; y = z"])
    assert "\x1b" not in err and "\u202e" not in err


# "Did you mean" by meaning: each name PyTorch has and gradcli lacks, and what it computes.
MEANINGS = {"logit": lambda v: np.log(v / (1 - v))}


def test_every_meaning_names_a_function_gradcli_lacks() -> None:
    """The table is for names gradcli does not have where the program looked (it went stale
    once: atan, round... were added and their hints still said gradcli had none)."""
    from gradcli.base.errors import MEANING
    from gradcli.lang.namespaces import build_namespaces

    torch = build_namespaces()["torch"].members
    for name, text in MEANING.items():
        assert name not in torch, name
        if text.startswith("write "):
            assert name in MEANINGS, name


@pytest.mark.parametrize("name", sorted(MEANINGS))
def test_did_you_mean_by_meaning_writes_what_runs(runner: CliRunner, name: str) -> None:
    """The table's text for a missing function is a composition that gradcli runs and that
    computes the function (not the nearest spelling: `logit` is not `log`); while gradcli lacks
    the function, its error gives that text as the hint."""
    from gradcli.base.errors import MEANING

    src = "x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True)\n"
    want = MEANINGS[name](np.array([0.2, 0.5, 0.7]))
    text = MEANING.get(name)
    if text is None:  # gradcli has the function now (its hint is gone): it computes it
        r = runner.invoke(
            app, ["forward", "-e", src + f"y = torch.{name}(x)", "--of", "y", "-f", "json"]
        )
        assert r.exit_code == 0, r.stderr
        np.testing.assert_allclose(json.loads(r.stdout)["values"]["y"], want, rtol=1e-12)
        return
    assert text.startswith("write ")
    expr = re.split(r" \((?:that is|less)", text[len("write ") :])[0]
    out = runner.invoke(app, ["forward", "-e", src + f"y = {expr}", "--of", "y", "-f", "json"])
    assert out.exit_code == 0, out.stderr
    np.testing.assert_allclose(json.loads(out.stdout)["values"]["y"], want, rtol=1e-12)
    r = runner.invoke(
        app, ["forward", "-e", src + f"y = torch.{name}(x)", "--of", "y", "-f", "json"]
    )
    if r.exit_code == 0:  # gradcli has the function now: then it computes it
        np.testing.assert_allclose(json.loads(r.stdout)["values"]["y"], want, rtol=1e-12)
    else:
        assert r.exit_code == 1 and f"hint: {text}" in r.stderr, r.stderr


@pytest.mark.parametrize(
    "call, fragment",
    [
        ("torch.elu(x)", r"F\.elu\(x\)"),
        ("torch.mish(x)", r"F\.mish\(x\)"),
        ("torch.logit(x)", "torch.log"),
        ("torch.special.expit(x)", "torch.sigmoid"),
        ("torch.sigmoidd(x)", "did you mean `sigmoid`?"),  # spelling still, second
    ],
)
def test_did_you_mean_by_meaning_then_spelling(runner: CliRunner, call: str, fragment: str):
    """Meaning first (unless gradcli has the function by now: then it runs)."""
    r = runner.invoke(
        app, ["forward", "-e", f"x = torch.ones(2, 2, requires_grad=True) * 0.5\ny = {call}"]
    )
    if r.exit_code == 0:
        assert "sigmoidd" not in call
        return
    assert r.exit_code == 1 and re.search(fragment, r.stderr), r.stderr
    assert "did you mean `log`" not in r.stderr


def test_xor_has_its_position_and_the_power_hint(runner: CliRunner) -> None:
    # `run` (float32, as PyTorch): the analysis commands compute in float64, where PyTorch's
    # words name 'Double'.
    r = runner.invoke(app, ["run", "-e", "x = torch.ones(2, requires_grad=True)\ny = x ^ 2"])
    assert r.exit_code == 1
    lines = r.stderr.splitlines()
    # `^` is Python's (bitwise on integer and bool tensors): on a float tensor, PyTorch's error.
    assert lines[0] == "<-e>:2:5: error: \"bitwise_xor_cpu\" not implemented for 'Float'"
    assert lines[2] == "   |     ^^^^^"
    assert "for x squared write `x ** 2`" in r.stderr and "BitXor" not in r.stderr


@pytest.mark.parametrize("command", [["backward"], ["export"], ["jacobian", "--of", "y"]])
def test_output_onto_the_program_given_on_standard_input(
    command: list[str], tmp_path: Path
) -> None:
    """`gradcli backward - -o prog.py < prog.py`: standard input is the program's file, an
    input of the command like a named one; a pipe is no file and nothing to protect."""
    prog = tmp_path / "prog.py"
    text = "import torch\nx = torch.tensor([1., 2.], requires_grad=True)\ny = (x * 2).sum()\n"
    prog.write_text(text)
    env = {"PYTHONPATH": str(Path(__file__).resolve().parents[2]), "COLUMNS": "100"}
    for out in ("prog.py", "./sub/../prog.py"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        with prog.open("rb") as stdin:
            r = subprocess.run(
                [sys.executable, "-m", "gradcli", *command, "-", "-o", out],
                stdin=stdin, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60,
            )  # fmt: skip
        assert r.returncode == 2, r.stderr
        assert "is an input of this command (standard input)" in r.stderr
        assert prog.read_text() == text
    r = subprocess.run(
        [sys.executable, "-m", "gradcli", *command, "-", "-o", "out.txt"],
        input=text, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out.txt").read_text() and prog.read_text() == text


def test_backward_create_graph_warns_once_per_run(runner: CliRunner) -> None:
    # PyTorch's engine warns once per process (TORCH_WARN_ONCE) about the reference cycle a
    # .grad with a history makes; autograd.grad(create_graph=True) does not warn.
    text = (
        "x = torch.ones(2, requires_grad=True)\n"
        "torch.autograd.grad((x * x).sum(), x, create_graph=True)\n"
        "(x * x).sum().backward(create_graph=True)\n"
        "(x * x).sum().backward(create_graph=True)\n"
        "print(x.grad)"
    )
    r = runner.invoke(app, ["run", "-e", text])
    assert r.exit_code == 0, r.stderr
    assert r.stdout == "tensor([4., 4.], grad_fn=<AddBackward0>)\n"
    assert r.stderr.count("Using backward() with create_graph=True") == 1, r.stderr
    assert "<-e>:3:1: warning:" in r.stderr


def test_empty_printed_before_a_write_is_said(runner: CliRunner) -> None:
    # PyTorch's torch.empty holds whatever memory held: printing gradcli's zeros is said (once
    # a run, at the print); an empty tensor written first (nn.init, uniform_, fill_) is quiet
    quiet = (
        "import torch\nimport torch.nn as nn\na = torch.empty(2, 3)\nnn.init.xavier_uniform_(a)\n"
        "b = torch.empty(2).fill_(1.0)\nc = torch.empty_like(b).uniform_()\n"
        "d = torch.Tensor(2, 2).zero_()\nprint(b, c.shape, d)"
    )
    r = runner.invoke(app, ["run", "-e", quiet])
    assert r.exit_code == 0, r.stderr
    assert r.stdout == "tensor([1., 1.]) torch.Size([2]) tensor([[0., 0.],\n        [0., 0.]])\n"
    assert r.stderr == ""
    for made in (
        "torch.empty(2)",
        "torch.empty_like(torch.ones(2))",
        "torch.ones(1).new_empty(2)",
        "torch.Tensor(2)",
        "torch.LongTensor(2)",
    ):
        loud = runner.invoke(app, ["run", "-e", f"a = {made}\nfor i in range(3):\n    print(a)"])
        assert loud.exit_code == 0, loud.stderr
        assert loud.stderr.count("warning: printing a tensor made by torch.empty") == 1, made
        assert loud.stderr.startswith("<-e>:3:5: warning:"), loud.stderr
        assert "hint: write its elements first" in loud.stderr


def test_message_tabs_shown_as_tabs(runner: CliRunner, tmp_path: Path) -> None:
    """PyTorch's load_state_dict message indents its lines with a tab: stderr shows the tab,
    not the two characters `\\t`; other control characters stay escaped."""
    (tmp_path / "p.py").write_text(
        "import torch\ntorch.nn.Linear(2, 2).load_state_dict(torch.nn.Linear(3, 2).state_dict())\n"
    )
    r = runner.invoke(app, ["run", str(tmp_path / "p.py")])
    assert r.exit_code == 1
    assert "\n    \tsize mismatch for weight" in r.stderr and "\\t" not in r.stderr
    (tmp_path / "p.py").write_text("raise RuntimeError('a\\x1b[31m\\tb')\n")
    r = runner.invoke(app, ["run", str(tmp_path / "p.py")])
    assert "a\\x1b[31m\tb" in r.stderr and "\x1b" not in r.stderr
