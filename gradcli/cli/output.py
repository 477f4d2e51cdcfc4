"""Writing a command's output: choosing the format (`--format`, else by where the output goes)
and writing text or rich renderables to standard output or `--output`. The seam for the one
output dispatcher."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from ..base.errors import GradcliError
from .options import Format


def warn_nonfinite(label: str, a: Any) -> None:
    """A warning on stderr when a result holds NaN or infinity (reported, not an error)."""
    import numpy as np

    arr = np.asarray(a)
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        nan, inf = int(np.isnan(arr).sum()), int(np.isinf(arr).sum())
        parts = ([f"{nan} nan"] if nan else []) + ([f"{inf} inf"] if inf else [])
        sys.stderr.write(
            f"warning: {label} has non-finite values ({', '.join(parts)} of {arr.size})\n"
        )


def resolve_format(fmt: Format | None, output: Path | None) -> Format:
    if fmt is not None:
        return fmt
    if output is None and sys.stdout.isatty():
        return Format.table
    return Format.plain


def emit(content: Any, fmt: Format, output: Path | None) -> None:
    """Write text, or rich renderables, to stdout or `--output`."""
    if fmt is Format.table:
        from rich.console import Console

        items = content if isinstance(content, list) else [content]
        if output is None:
            # On a terminal, its width; into a pipe or file, wide enough that a header line
            # is not broken at an arbitrary 80 columns.
            width = None if sys.stdout.isatty() else 200
            console = Console(highlight=False, soft_wrap=False, width=width)
            for item in items:
                console.print(item)
            return
        with _open_output(output) as fh:
            console = Console(file=fh, highlight=False, width=200, no_color=True)
            for item in items:
                console.print(item)
        return
    text = content if content.endswith("\n") else content + "\n"
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        with _open_output(output) as fh:
            fh.write(text)


def _open_output(path: Path) -> Any:
    try:
        return path.open("w", encoding="utf-8")
    except OSError as e:
        raise GradcliError(f"cannot write {path}: {e.strerror or e}") from None
