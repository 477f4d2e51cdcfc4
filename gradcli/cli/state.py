"""What one command run knows about itself, shared by the modules of `cli`."""

from __future__ import annotations


class State:
    debug = False
    json_errors = False  # --format json: errors as JSON on stderr
    inputs: list[str] = []  # the files this command read (never overwritten by --output)
    output: str | None = None  # --output (a file), refused when it is the program
