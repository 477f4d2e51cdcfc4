"""What scripts use of `sys`: `sys.exit(main())`, `sys.argv` (the program's name, or what a
notebook sets before argparse reads it), `print(..., file=sys.stderr)` and
`sys.stderr.write` (shown on gradcli's stderr, never in the output), `sys.maxsize`,
`sys.setrecursionlimit`. The same program run by Python must print the same standard output;
the rest of `sys` stays refused."""

from __future__ import annotations

import contextlib
import io
import sys

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

PROGRAM = """\
import sys
import argparse
print(len(sys.argv), sys.argv[0].endswith("t.py"), sys.maxsize)
sys.setrecursionlimit(5000)
print("progress", 1, file=sys.stderr)
sys.stderr.write("half a line ")
sys.stderr.write("and its end\\n")
n = sys.stdout.write("written\\n")
print(n, end="|", file=sys.stdout)
sys.argv = ["train.py", "--lr", "0.3", "--epochs=2"]
p = argparse.ArgumentParser()
p.add_argument("--lr", type=float, default=0.1)
p.add_argument("--epochs", type=int, default=5)
print(p.parse_args())
def main():
    print("main ran")
    return {code}
if __name__ == "__main__":
    sys.exit(main())
print("not reached")
"""


def _python(program: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, object]:
    monkeypatch.setattr(sys, "argv", ["/somewhere/t.py"])
    out, err = io.StringIO(), io.StringIO()
    code: object = "ran to its end"
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            exec(program, {"__name__": "__main__"})
        except SystemExit as e:
            code = e.code
    return out.getvalue(), err.getvalue(), code


@pytest.mark.parametrize("code", ["0", "None"])
def test_a_script_using_sys_prints_as_pythons(code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    program = PROGRAM.format(code=code)
    want, want_err, _ = _python(program, monkeypatch)
    run = parse(program, "/somewhere/t.py").run(dtype="float32")
    assert "".join(run.output) == want
    shown = [w.split("warning: stderr: ", 1)[1] for w in run.warnings if "stderr: " in w]
    assert shown == want_err.splitlines()


def test_a_failing_exit_status_stops_the_run() -> None:
    with pytest.raises(GradcliError, match="exit status 3"):
        parse(PROGRAM.format(code="3"), "t.py").run(dtype="float32")


@pytest.mark.parametrize(
    "line, words",
    [
        ("sys.modules", "`sys.modules` is not supported"),
        ("sys.settrace(None)", "`sys.settrace` is not supported"),
        ("sys.argv = 5", "'int' object is not iterable"),
        ("sys.path = []", "`sys.path` is not supported"),
        ("sys.stderr.write(3)", "write() argument must be str, not int"),
        ("print(1, file=[])", "print(file=...) is not supported"),
    ],
)
def test_the_rest_of_sys_is_refused(line: str, words: str) -> None:
    with pytest.raises(GradcliError) as e:
        parse(f"import sys\n{line}\n", "t.py").run(dtype="float32")
    assert words in e.value.message
