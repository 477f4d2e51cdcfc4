"""`python -m gradcli` and the `gradcli` console script."""

from __future__ import annotations

import gc
import os


def main() -> None:
    # The cyclic collector off while the command starts: importing NumPy, typer and gradcli
    # makes some 60,000 container objects (modules, functions, classes, op records), none of
    # them garbage, and the collector would walk the young ones ~90 times and the older ones
    # again and again as they pile up: 8-13% of `gradcli backward`'s CPU time. It comes back
    # on (with what start-up made frozen, out of its walks) when the program is about to run
    # (`cli.state.release_collector`), and when the command ends in any case.
    held = gc.isenabled()
    if held:
        gc.disable()
    from .cli import state

    state.State.collector_held = held
    try:
        _main()
    finally:
        if state.State.collector_held:
            state.State.collector_held = False
            gc.enable()


def _main() -> None:
    # One BLAS thread, unless the user chose otherwise. OpenBLAS starts its thread pool and
    # allocates a buffer per thread when NumPy is imported: about a third of `import numpy`'s
    # CPU time, paid by every command. gradcli's arithmetic follows PyTorch's one-thread CPU
    # kernels anyway (README, "Where gradcli differs from PyTorch"), and its programs are
    # small: the threads buy nothing. Set here, before anything imports NumPy, and only for
    # the command line: the library leaves its host process's environment alone.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from .cli.console import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
