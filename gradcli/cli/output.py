"""Writing a command's output: choosing the format (`--format`, else by where the output goes)
and writing text or rich renderables to standard output or `--output`. The seam for the one
output dispatcher."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from pathlib import Path
from typing import Any

from ..base.errors import GradcliError, UsageError
from .app import State
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
        import io

        buf = io.StringIO()
        console = Console(file=buf, highlight=False, width=200, no_color=True)
        for item in items:
            console.print(item)
        write_output(output, buf.getvalue().encode("utf-8"))
        return
    text = content if content.endswith("\n") else content + "\n"
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_output(output, text.encode("utf-8"))


def _is_input(path: Path) -> str | None:
    """The input of this command that `path` names (the same file by any path, link or
    hard link), or None."""
    from .values import FILES_READ

    for inp in [*State.inputs, *FILES_READ]:
        try:
            if os.path.samefile(path, inp):
                return inp
        except OSError:  # either does not exist (any more): not the same file
            continue
    return None


def write_output(path: Path, data: bytes) -> None:
    """`--output`: never onto a file this command read; a regular file is written to a
    temporary file beside it and renamed over it, so an error never leaves half a file."""
    import stat
    import tempfile

    same = _is_input(path)
    if same is not None:
        raise UsageError(
            f"--output {_shown_path(str(path))} is an input of this command "
            f"({_shown_path(same)}): writing it would destroy the input",
            hint="choose another output file",
        )
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise GradcliError(f"cannot write {_shown_path(str(path))}: {e.strerror or e}") from None
    try:
        if st is not None and not stat.S_ISREG(st.st_mode):
            if stat.S_ISDIR(st.st_mode):
                raise GradcliError(f"cannot write {_shown_path(str(path))}: it is a directory")
            # A device or a pipe (/dev/stdout, a FIFO): written in place. A FIFO nobody reads
            # would block for ever: opened without blocking first, which fails at once then.
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as e:
                if e.errno == errno.ENXIO:
                    raise GradcliError(
                        f"cannot write {_shown_path(str(path))}: it is a pipe that nothing reads"
                    ) from None
                raise
            os.set_blocking(fd, True)
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            return
        real = os.path.realpath(path)
        fd, tmp = tempfile.mkstemp(
            dir=os.path.dirname(real) or ".", prefix="." + os.path.basename(real)[:64] + "."
        )
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            if st is not None:
                os.chmod(tmp, stat.S_IMODE(st.st_mode))
            else:
                mask = os.umask(0)
                os.umask(mask)
                os.chmod(tmp, 0o666 & ~mask)
            os.replace(tmp, real)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as e:
        raise GradcliError(f"cannot write {_shown_path(str(path))}: {e.strerror or e}") from None


def _shown_path(p: str) -> str:
    """A path as shown in a message: escaped where it is not printable, shortened if long."""
    shown = p if p.isprintable() else ascii(p)[1:-1]
    return shown if len(shown) <= 100 else shown[:60] + "…" + shown[-20:]
