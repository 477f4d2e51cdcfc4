"""The console script: the app with every command registered on it."""

from __future__ import annotations

import sys

from .app import app
from .commands import jacobian as _jacobian  # noqa: F401 - registers jacobian, hessian, hvp
from .commands import program as _program  # noqa: F401 - registers run, forward, backward...
from .commands import verify as _verify  # noqa: F401 - registers check, symbolic, ops


def _only_the_command_asked_for(argv: list[str]) -> None:
    """Typer builds every command's parameters on each run (about 3 ms a command, most of the
    CLI's own start-up). When the command line names a command, register just that one; for
    `--help`, a typo or no command, all of them stay (for the listing and suggestions)."""
    name = next((a for a in argv if not a.startswith("-")), None)
    chosen = [
        c
        for c in app.registered_commands
        if (c.name or c.callback.__name__.replace("_", "-")) == name
    ]
    if chosen:
        app.registered_commands = chosen


def main() -> None:
    """The console script."""
    _only_the_command_asked_for(sys.argv[1:])
    try:
        app(prog_name="gradcli")
    except BrokenPipeError:
        sys.exit(0)
