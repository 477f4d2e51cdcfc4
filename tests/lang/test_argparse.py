"""`argparse` in programs: the same program run by gradcli and by Python's own argparse must
print the same settings, or stop with the same `prog: error: ...` words. The parsers and
command lines are drawn at random from a pool of argument kinds (options with values, flags,
counts, appends, choices, nargs, positionals, prefixes, `=` values, clustered short flags),
so that the rule is tested, not a list of examples."""

from __future__ import annotations

import contextlib
import io
import random
import sys

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

# (add_argument's text, command-line pieces that use it)
OPTIONS = [
    ('"--lr", type=float, default=0.01', [["--lr", "0.5"], ["--lr=1e-3"], ["--l", "2"]]),
    ('"--epochs", type=int, default=10', [["--epochs", "3"], ["--epochs=7"], ["--epochs", "x"]]),
    (
        '"-b", "--batch-size", type=int, default="32"',
        [["-b", "8"], ["-b16"], ["--batch-size", "4"]],
    ),
    ('"--verbose", "-v", action="store_true"', [["--verbose"], ["-v"], ["--verbose=1"]]),
    ('"--no-cuda", action="store_false", dest="cuda"', [["--no-cuda"]]),
    ('"-q", action="count", default=0', [["-q"], ["-qq"], ["-q", "-q"]]),
    ('"--opt", choices=["sgd", "adam"], default="sgd"', [["--opt", "adam"], ["--opt", "rms"]]),
    ('"--layers", type=int, nargs="+", default=[4]', [["--layers", "3", "5"], ["--layers"]]),
    ('"--tags", action="append"', [["--tags", "a", "--tags", "b"], ["--tags", "c"]]),
    ('"--mode", nargs="?", const="fast", default="slow"', [["--mode"], ["--mode", "mid"]]),
    ('"--pair", type=float, nargs=2', [["--pair", "1", "2"], ["--pair", "1"]]),
    ('"--seed", type=int, required=True', [["--seed", "0"], ["--seed", "-1"]]),
    ('"--scale", type=lambda s: float(s) * 2, default="1.5"', [["--scale", "4"]]),
    ('"--flag", action=argparse.BooleanOptionalAction, default=True', [["--flag"], ["--no-flag"]]),
    ('"--const", action="store_const", const=42', [["--const"]]),
    ('"--act", choices=["relu", "tanh"], default="gelu"', [["--act", "tanh"], ["--act=x"]]),
    ('"--dims", type=int, nargs="*"', [["--dims"], ["--dims", "1", "2", "3"]]),
    ('"-x", type=float, nargs="?", const="1.5"', [["-x"], ["-x", "-2"], ["-x", "0.5"]]),
    ('"--wd", type=float, default=0.0', [["--wd", "-0.1"], ["--w", "1"]]),
]
POSITIONALS = [
    ('"n", type=int', [["3"], ["x"]]),
    ('"files", nargs="*"', [["a.txt", "b.txt"], []]),
    ('"out", nargs="?", default="out.pt"', [["model.pt"], []]),
    ('"size", nargs=2, type=int', [["3", "4"], ["3"]]),
]
EXTRA = [["--unknown", "1"], ["stray"], ["--", "-5"], ["--unknown=2"], ["-z"]]


def _case(rng: random.Random) -> tuple[str, list[list[str]]]:
    """A program defining a parser of a few random arguments, and a few command lines."""
    opts = rng.sample(OPTIONS, rng.randint(1, 5))
    pos = rng.sample(POSITIONALS, rng.randint(0, 2))
    lines = ["import argparse", "parser = argparse.ArgumentParser(description='t')"]
    lines += [f"parser.add_argument({spec})" for spec, _ in opts + pos]
    argvs = []
    for _ in range(3):
        argv: list[str] = []
        for _, pieces in rng.sample(opts, rng.randint(0, len(opts))):
            argv += rng.choice(pieces)
        for _, pieces in pos:
            argv += rng.choice(pieces)
        if rng.random() < 0.2:
            argv += rng.choice(EXTRA)
        argvs.append(argv)
    return "\n".join(lines) + "\n", argvs


def _program(head: str, argvs: list[list[str]]) -> str:
    body = [head]
    for argv in argvs:
        body.append(f"args, rest = parser.parse_known_args({argv!r})\nprint(args, rest)")
        body.append(f"print(vars(parser.parse_args({argv!r})))")
    return "\n".join(body) + "\n"


def _python(program: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str | None]:
    """Python's own output, and its error line (`t.py: error: ...`) when it stopped."""
    monkeypatch.setattr(sys, "argv", ["t.py"])
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            exec(program, {"__name__": "__main__"})
        except SystemExit:
            return out.getvalue(), err.getvalue().strip().splitlines()[-1]
    return out.getvalue(), None


def _gradcli(program: str) -> tuple[str, str | None]:
    run = parse(program, "t.py")
    try:
        result = run.run(dtype="float32")
    except GradcliError as e:
        return "".join(e.output or []) if hasattr(e, "output") else "", e.message
    return "".join(result.output), None


@pytest.mark.parametrize("seed", range(200))
def test_random_parsers_parse_as_pythons(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    head, argvs = _case(random.Random(seed))
    for argv in argvs:  # each command line alone: an error stops the rest
        program = _program(head, [argv])
        want, want_error = _python(program, monkeypatch)
        got, got_error = _gradcli(program)
        assert got_error == want_error, program
        if want_error is None:
            assert got == want, program


def test_no_command_line_gives_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    program = "".join(
        ["import argparse\np = argparse.ArgumentParser()\n"]
        + [f"p.add_argument({spec})\n" for spec, _ in OPTIONS if "required" not in spec]
        + ["args = p.parse_args()\nprint(args)\nprint(args.lr * 2, args.batch_size + 1)\n"]
        + ["print(p.parse_args(args=[]) == args, type(args), p.get_default('lr'))\n"]
        + ["p.set_defaults(lr=0.3, extra='x')\nprint(p.parse_args([]))\n"]
        + ["print(argparse.Namespace(a=1, b=[2]), argparse.Namespace(a=1) == args)\n"]
    )
    want, error = _python(program, monkeypatch)
    assert error is None
    assert _gradcli(program) == (want, None)


@pytest.mark.parametrize(
    "line, words",
    [
        ("argparse.Namespace(__class__=1)", "argparse attribute `__class__` is not supported"),
        ("p.add_argument('--__init__')", "argparse attribute `__init__` is not supported"),
        ("p.add_argument('--x', dest=3)", "attribute name must be string, not 'int'"),
        ("p.print_help()", "argparse's help text is not supported"),
        ("p.add_argument('--x', nargs=argparse.REMAINDER)", "nargs='...' is not supported"),
        ("p.add_argument('--x', action='store_whatever')", "action 'store_whatever'"),
        ("p.parse_args([1])", "expected string or bytes-like object, got 'int'"),
    ],
)
def test_refusals_in_plain_words(line: str, words: str) -> None:
    program = f"import argparse\np = argparse.ArgumentParser()\n{line}\n"
    with pytest.raises(GradcliError) as e:
        parse(program, "t.py").run(dtype="float32")
    assert words in e.value.message


@pytest.mark.parametrize("kind", ["positional", "option", "nargs"])
def test_parser_size_limits_at_their_boundary(kind: str) -> None:
    from gradcli.lang import pyargparse as AP

    n = {"positional": AP.MAX_POSITIONALS, "option": AP.MAX_ARGUMENTS, "nargs": AP.MAX_NARGS}
    add = {
        "positional": "p.add_argument('a' + str(i), nargs='?')",
        "option": "p.add_argument('--a' + str(i))",
        "nargs": "p.add_argument('--x', nargs=i + 1)",
    }[kind]
    program = (
        "import argparse\np = argparse.ArgumentParser()\n"
        f"for i in range({{}}):\n    {add}\nprint(len(vars(p.parse_args([]))))\n"
    )
    if kind == "nargs":  # one parser per size: the last nargs is the limit
        program = program.replace(
            "    p.add_argument", "    p = argparse.ArgumentParser()\n    p.add_argument"
        )
    ok = parse(program.format(n[kind]), "t.py").run(dtype="float32")
    assert "".join(ok.output) == ("1\n" if kind == "nargs" else f"{n[kind]}\n")
    with pytest.raises(GradcliError, match="not supported"):
        parse(program.format(n[kind] + 1), "t.py").run(dtype="float32")
