"""The typer app and `command`, the one place where errors become exit statuses.

A `GradcliError` becomes one message on stderr and its exit status (1, or 2 for usage);
anything else is an internal error (exit 70, with the command to reproduce it), shown as a
traceback only with `--debug`. Command-line usage errors (click's) get the same look
(`GradcliGroup`). With `--format json` (or an `--output` ending in .json) the message is
followed by the same error as one JSON object, the last line of stderr (indented, as the
message's other details):
`{"error": {"message", "file", "line", "column", ...}}`.
Messages never carry a line break or a control character from the input, and never echo
more than a few hundred characters of it.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from ..base.errors import GradcliError, UsageError
from ..base.record import LazyPattern
from .options import CommonOptions, OutputOptions, expand_options
from .state import State

EXIT_INTERNAL = 70


# --- messages --------------------------------------------------------------------------------

MESSAGE_CHARS = 400  # of one part of a message (the message, found, expected, hint)
WORD_CHARS = 80  # of one word in it (a name, a path, a value)
_LONG_WORD = LazyPattern(rf"\S{{{WORD_CHARS + 1},}}")


def _short(text: str | None) -> str | None:
    """A part of a message as it may be shown: line breaks and other control characters
    (not tabs) escaped (no input can forge a second message line; `_short_lines` keeps a message's
    lines, indented), long words and long parts cut in the middle."""
    if text is None:
        return None
    text = str(text)
    if not text.isprintable():
        # (a tab is shown as one: PyTorch's messages indent their lines with it, and it
        # moves the cursor only along the line)
        text = "".join(
            c
            if c.isprintable() or c == "\t"
            else c.encode("unicode_escape", "backslashreplace").decode()
            for c in text
        )
    if len(text) > WORD_CHARS:
        text = _LONG_WORD.sub(lambda m: m.group()[: WORD_CHARS - 20] + "…" + m.group()[-10:], text)
    if len(text) > MESSAGE_CHARS:
        cut = len(text) - (MESSAGE_CHARS - 40)
        text = text[: MESSAGE_CHARS - 60] + f"… ({cut:,} more characters) …" + text[-20:]
    return text


MESSAGE_LINES = 24  # of a message of several lines (PyTorch's gradcheck and assert_close)
CONTINUATION = "    "  # before a message's second and later lines


def _short_lines(text: str) -> str:
    """A message as it may be shown: PyTorch's messages of several lines (gradcheck's two
    Jacobians, assert_close's report) keep their lines, each made safe and short on its own
    and indented, so that no line of a message can pass for the start of another; a long
    message keeps its first and last lines."""
    lines = str(text).rstrip("\n").split("\n")
    if len(lines) > MESSAGE_LINES:
        cut = len(lines) - MESSAGE_LINES + 1
        head = MESSAGE_LINES * 2 // 3
        lines = lines[:head] + [f"… ({cut:,} more lines) …"] + lines[head + cut :]
    return f"\n{CONTINUATION}".join(_short(line) or "" for line in lines)


def shortened(e: GradcliError) -> GradcliError:
    """`e` with every part of its message made safe and short (the span is kept)."""
    out = type(e).__new__(type(e))
    out.__dict__.update(e.__dict__)
    out.message = _short_lines(e.message)
    for part in ("found", "expected", "hint"):
        setattr(out, part, _short(getattr(e, part)))
    out.args = (out.message,)
    return out


def error_json(e: GradcliError) -> dict[str, Any]:
    """An error as the JSON object scripts read under `--format json`."""
    span = e.span
    obj: dict[str, Any] = {
        "message": e.message,
        "file": span.source.name if span is not None else None,
        "line": span.line if span is not None else None,
        "column": span.col + 1 if span is not None else None,
        "end_column": span.end_col + 1 if span is not None else None,
        "source": span.source.line(span.line) if span is not None else None,
        "found": e.found,
        "expected": e.expected,
        "hint": e.hint,
        "kind": "usage" if isinstance(e, UsageError) else type(e).__name__,
        "exit_code": e.exit_code,
    }
    if obj["source"] is not None and len(obj["source"]) > 4 * MESSAGE_CHARS:
        obj["source"] = None  # a huge line: the position says where
    return {"error": obj}


def _write_error(text: str) -> None:
    err = sys.stderr
    if err is None:
        return
    try:
        err.write(text.rstrip("\n") + "\n")
        err.flush()
    except (OSError, ValueError):
        pass


def report(e: GradcliError) -> int:
    """Write `e` on stderr; with --format json, its JSON object follows as the message's last
    line, indented like the message's other details (a script parses that line; a person, and
    every tool that looks for `error:`, reads the message). Returns its exit status."""
    e = shortened(e)
    preamble = getattr(e, "preamble", None)  # (the report of a failed unittest run)
    if preamble:
        _write_error(preamble)
    _write_error(e.format())
    if State.json_errors:
        from .output import to_json

        _write_error("  " + to_json(error_json(e)))
    return e.exit_code


def _fail(e: GradcliError) -> None:
    raise typer.Exit(report(e))


def _internal(e: BaseException) -> None:
    import shlex

    # --debug shows the traceback; it may go anywhere on the line.
    argv = [a for a in sys.argv[1:] if a != "--debug"]
    cmd = "gradcli --debug " + " ".join(shlex.quote(a) for a in argv)
    what = _short(str(e)) or ""
    if len(cmd) > 2000:
        cmd = cmd[:2000] + "…"
    _write_error(
        f"gradcli: internal error, please report: {type(e).__name__}: {what}\n  to reproduce: {cmd}"
    )
    if State.json_errors:
        from .output import to_json

        _write_error(
            "  "
            + to_json(
                {
                    "error": {
                        "message": f"internal error, please report: {type(e).__name__}: {what}",
                        "kind": "internal",
                        "reproduce": cmd,
                        "exit_code": EXIT_INTERNAL,
                    }
                }
            )
        )
    raise typer.Exit(EXIT_INTERNAL) from None


def guarded(f: Callable[..., Any], formats: tuple[str, ...] | None = None) -> Callable[..., Any]:
    """Every command: user errors to one message and an exit status, never a traceback; the
    limits and --debug of `CommonOptions` applied; JSON errors when the output is JSON; a
    format the command cannot write (`formats`) refused before any work."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        import warnings

        from ..base import limits

        common = next((v for v in kwargs.values() if isinstance(v, CommonOptions)), None)
        out = next((v for v in kwargs.values() if isinstance(v, OutputOptions)), None)
        State.inputs = []  # per command (tests run many in one process)
        State.debug = State.debug or bool(common and common.debug)
        State.json_errors = out is not None and _json_output(out)
        if "gradcli.cli.values" in sys.modules:
            sys.modules["gradcli.cli.values"].FILES_READ.clear()
        saved = {}
        try:
            for k, v in (common.environment() if common else {}).items():
                saved[k] = os.environ.get(k)
                os.environ[k] = v
            # The whole command (not only the program's run) spends one time, memory and
            # graph budget: a backward pass or a Jacobian of a huge graph stops too.
            if out is not None and formats:
                _refuse_format_early(out, formats, f.__name__)
            if os.environ.get("GRADCLI_KERNELS"):
                from ..core import cpu

                cpu.family()  # a family that does not exist: a usage error before any work
            with warnings.catch_warnings(), limits.BUDGET.run():
                # NumPy's RuntimeWarnings (overflow, 0/0) are not for users: non-finite
                # results get gradcli's own warning.
                warnings.simplefilter("ignore", RuntimeWarning)
                from ..core.op import complex_casts_fail

                complex_casts_fail()
                return f(*args, **kwargs)
        except GradcliError as e:
            cause = getattr(e, "cause", None) or e.__cause__
            if State.debug and cause is not None:
                # The Python error behind a user error (e.g. NumPy's, on a bad argument).
                import traceback

                traceback.print_exception(cause, file=sys.stderr)
            _fail(e)
        except (typer.Exit, typer.Abort, KeyboardInterrupt):
            raise
        except BrokenPipeError:
            # The reader went away (`gradcli ... | head`): not an error.
            _quiet_stdout()
            raise typer.Exit(0) from None
        except RecursionError:
            _fail(
                GradcliError(
                    "the program is nested or recursive too deeply",
                    hint="split long expressions into several assignments",
                )
            )
        except MemoryError:
            _fail(GradcliError("out of memory", hint="the tensors are too large for this machine"))
        except Exception as e:  # a bug in gradcli, not the user's fault
            if State.debug:
                raise
            _internal(e)
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v

    return wrapper


def _refuse_format_early(out: OutputOptions, formats: tuple[str, ...], name: str) -> None:
    """The output's format (`--format`, `-o FILE`'s extension) checked against the ones the
    command writes, before the work: the refusal `output.emit` would give after it."""
    from .output import _shown_path, destination, resolve_format

    fmt = resolve_format(out.format, out.output)
    if fmt.value not in formats:
        path = destination(out.output)
        raise UsageError(
            f"{name} cannot be written as {fmt.value}",
            found=f"--format {fmt.value}"
            + (f" (from the extension of {_shown_path(path)})" if out.format is None else ""),
            expected=f"one of: {', '.join(formats)}",
        )


def _quiet_stdout() -> None:
    """Standard output to /dev/null (what is still buffered would fail again at exit)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _json_output(out: OutputOptions) -> bool:
    fmt = out.format.value if out.format is not None else None
    if fmt is not None:
        return fmt == "json"
    return bool(out.output and out.output.lower().endswith(".json"))


def command(
    help: str,  # noqa: A002 - typer's name
    example: str,
    short: str,
    formats: tuple[str, ...] | None = None,
    name: str | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a command: its option groups expanded (`options.expand_options`; `formats`,
    the ones its result can be written in, named in the help of --format and --output), its
    errors guarded, its help one paragraph, `short` its line in `gradcli --help`, and an
    example that runs from the repository root."""

    def deco(f: Callable[..., Any]) -> Callable[..., Any]:
        app.command(
            name=name,
            help=markup_escaped(help),
            short_help=markup_escaped(short),
            # The example on a line of its own: at 60 columns it is not broken in two.
            epilog=f"Example:\n\n{markup_escaped(example)}",
        )(expand_options(guarded(f, formats), formats))
        return f

    return deco


# What rich's markup would take for a tag (and drop from the help): `J[i, j]`, `OF[i]`.
_MARKUP_TAG = LazyPattern(r"(\\*)(\[[a-z#/@][^[]*?])")


def markup_escaped(text: str) -> str:
    """Help text shown as written: typer renders help as rich markup, where `[i, j]` is a
    tag (rich.markup.escape's rule, without importing rich at start-up)."""
    return _MARKUP_TAG.sub(lambda m: m.group(1) * 2 + "\\" + m.group(2), text)


# --- usage errors in gradcli's own style ------------------------------------------------------


def _wants_json(args: list[str]) -> bool:
    """Whether the command line asks for JSON output (for the errors found while parsing it)."""
    for i, a in enumerate(args):
        if a in ("--format", "-f") and i + 1 < len(args):
            if args[i + 1] == "json":
                return True
        elif a in ("--format=json", "-fjson"):
            return True
        elif a in ("--output", "-o") and i + 1 < len(args) and args[i + 1].endswith(".json"):
            if not any(b in ("--format", "-f") or b.startswith("--format=") for b in args):
                return True
    return False


def usage_error(e: Any) -> UsageError:
    """click's usage error as gradcli's."""
    from typer._click import exceptions as ce

    message = e.message if isinstance(e, ce.NoSuchOption) else e.format_message()
    hint = None
    if isinstance(e, ce.NoSuchOption) and e.possibilities:
        hint = "did you mean " + " or ".join(f"`{p}`" for p in sorted(e.possibilities)) + "?"
    ctx = getattr(e, "ctx", None)
    path = ctx.command_path if ctx is not None else "gradcli"
    more = f"`{path} --help` lists the options"
    if isinstance(e, ce.UsageError) and "No such command" in message:
        more = "`gradcli --help` lists the commands"
    return UsageError(message, hint=f"{hint} ({more})" if hint else more)


class GradcliGroup(TyperGroup):
    """The app's click group: usage errors get gradcli's look (or JSON), exit status 2."""

    def main(  # type: ignore[override]
        self,
        args: list[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        from typer._click import exceptions as ce
        from typer.exceptions import Abort

        argv = list(sys.argv[1:] if args is None else args)
        State.json_errors = _wants_json(argv)
        try:
            rv = super().main(
                args=argv,
                prog_name=prog_name or "gradcli",
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
        except ce.UsageError as e:
            rv = report(usage_error(e))
        except ce.ClickException as e:
            rv = report(GradcliError(e.format_message()))
        except Abort:
            _write_error("error: aborted")
            rv = 1
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


app = typer.Typer(
    name="gradcli",
    cls=GradcliGroup,
    help="A gradient explorer: gradients, vector-Jacobian products, Jacobians and Hessians "
    "of small PyTorch-like programs, computed on NumPy.",
    epilog="A command's options and an example: gradcli COMMAND --help. Exit status: 0 done; "
    "1 a mistake in the program or its inputs; 2 a wrong command line; 3 check found "
    "gradients that disagree; 70 a bug in gradcli.",
    add_completion=True,
    no_args_is_help=False,
    invoke_without_command=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


# No line wider than 60 columns (a narrow terminal does not break one in the middle).
GETTING_STARTED = """\
gradcli: a gradient explorer for small PyTorch-like
programs, computed on NumPy.

Three commands to try, from a clone of the repository:

  gradcli backward examples/seed_masks.py --of z -g 1,0,0,0
    the gradient one backward pass leaves in x.grad, with
    the upstream gradient you choose (-g, --grad)
  gradcli jacobian examples/mlp.py --of h --wrt W1
    the full Jacobian, one masked backward pass per row
  gradcli graph examples/mlp.py
    the computation graph, from the output to the leaves

Your own program: a file, - for standard input, or -e TEXT:

  gradcli backward -e 'x = torch.tensor([1., 2.],
  requires_grad=True); y = (x ** 2).sum()'

All commands: gradcli --help. One: gradcli backward --help.
"""


def _say(text: str) -> None:
    """Text on standard output for the root options (no command, --version)."""
    try:
        if sys.stdout is None:
            raise ValueError("closed")
        sys.stdout.write(text)
        sys.stdout.flush()
    except (OSError, ValueError) as e:
        reason = getattr(e, "strerror", None) or "it is closed"
        _quiet_stdout()
        raise typer.Exit(
            report(GradcliError(f"cannot write to standard output: {reason}"))
        ) from None


def _version(value: bool) -> None:
    if value:
        from ..base.version import VERSION

        _say(f"gradcli {VERSION}\n")
        raise typer.Exit(0)


@app.callback()
def _root(
    ctx: typer.Context,
    debug: Annotated[
        bool,
        typer.Option(
            "--debug", help="Show internal tracebacks (for bug reports; also after the command)."
        ),
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version", "-V", help="Print the version and exit.", callback=_version, is_eager=True
        ),
    ] = False,
) -> None:
    State.debug = debug
    if ctx.invoked_subcommand is None:
        _say(GETTING_STARTED)
