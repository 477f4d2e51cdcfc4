"""The console script. It imports only the module of the command its command line names,
when it names one (start-up pays for one area's commands, not for all of them), and lets typer
build only that command; for `--help`, a typo or no command, all of them."""

from __future__ import annotations

import importlib
import sys

from .app import app

# The module of `commands` that registers each command.
COMMANDS = {
    "run": "program",
    "forward": "program",
    "backward": "program",
    "graph": "program",
    "export": "program",
    "jacobian": "jacobian",
    "hessian": "jacobian",
    "hvp": "jacobian",
    "check": "verify",
    "symbolic": "verify",
    "ops": "verify",
}


def register(names: list[str] | None = None) -> None:
    """Register the commands `names` (default: all) on `app`."""
    modules = COMMANDS.values() if names is None else [COMMANDS[n] for n in names]
    for module in dict.fromkeys(modules):
        importlib.import_module(f"{__package__}.commands.{module}")


def _only_the_command_asked_for(argv: list[str]) -> None:
    """Typer builds every registered command's parameters on each run (about 3 ms a command,
    most of the CLI's own start-up): register just the command the line names, if it names one."""
    name = next((a for a in argv if not a.startswith("-")), None)
    register([name] if name in COMMANDS else None)
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
