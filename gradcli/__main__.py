"""`python -m gradcli` and the `gradcli` console script."""

from __future__ import annotations

import os


def main() -> None:
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
