"""The typer app and `guarded`, the one place where errors become exit statuses: a
`GradcliError` becomes one message on stderr and its exit status (1, or 2 for usage); anything
else is an internal error (exit 70, with the command to reproduce it), shown as a traceback
only with `--debug`. The commands (`commands`) register on `app`; `main` runs it.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer

from ..base.errors import GradcliError

app = typer.Typer(
    name="gradcli",
    help="A gradient explorer: gradients, vector-Jacobian products, Jacobians and Hessians of "
    "small PyTorch-like programs, computed on NumPy.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class State:
    debug = False
    inputs: list[str] = []  # the files this command read (never overwritten by --output)


EXIT_INTERNAL = 70


def _fail(e: GradcliError) -> None:
    sys.stderr.write(e.format().rstrip("\n") + "\n")
    raise typer.Exit(e.exit_code)


def guarded(f: Callable[..., Any]) -> Callable[..., Any]:
    """Every command: user errors to one message and an exit status, never a traceback."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        import warnings

        from ..base import limits

        State.inputs = []  # per command (tests run many in one process)
        if "gradcli.cli.values" in sys.modules:
            sys.modules["gradcli.cli.values"].FILES_READ.clear()
        try:
            # The whole command (not only the program's run) spends one time, memory and
            # graph budget: a backward pass or a Jacobian of a huge graph stops too.
            with warnings.catch_warnings(), limits.BUDGET.run():
                # NumPy's RuntimeWarnings (overflow, 0/0) are not for users: non-finite
                # results get gradcli's own warning.
                warnings.simplefilter("ignore", RuntimeWarning)
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
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
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
            # --debug is an option of `gradcli` itself: it goes before the command.
            import shlex

            argv = [a for a in sys.argv[1:] if a != "--debug"]
            cmd = "gradcli --debug " + " ".join(shlex.quote(a) for a in argv)
            what = str(e) if len(str(e)) <= 300 else str(e)[:300] + "…"
            if len(cmd) > 2000:
                cmd = cmd[:2000] + "…"
            sys.stderr.write(
                f"gradcli: internal error, please report: {type(e).__name__}: {what}\n"
                f"  to reproduce: {cmd}\n"
            )
            raise typer.Exit(EXIT_INTERNAL) from None

    return wrapper


def _version(value: bool) -> None:
    if value:
        from ..base.version import VERSION

        sys.stdout.write(f"gradcli {VERSION}\n")
        raise typer.Exit(0)


@app.callback()
def _root(
    debug: Annotated[
        bool, typer.Option("--debug", help="Show internal tracebacks (for bug reports).")
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print the version and exit.", callback=_version, is_eager=True
        ),
    ] = False,
) -> None:
    State.debug = debug
