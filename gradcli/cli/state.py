"""What one command run knows about itself, shared by the modules of `cli`."""

from __future__ import annotations


class State:
    debug = False
    json_errors = False  # --format json: errors as JSON on stderr
    inputs: list[str] = []  # the files this command read (never overwritten by --output)
    output: str | None = None  # --output (a file), refused when it is the program
    collector_held = False  # the console script switched the cyclic collector off (start-up)


def release_collector() -> None:
    """The cyclic collector back on, once start-up's imports are done (`gradcli.__main__`
    held it off): what they made is frozen (moved out of the collector's walks: modules,
    functions and records live as long as the process), then the program runs with the
    collector as usual."""
    if State.collector_held:
        import gc

        State.collector_held = False
        gc.freeze()
        gc.enable()
