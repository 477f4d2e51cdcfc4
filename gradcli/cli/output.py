"""The one output dispatcher: a command's `Doc` drawn in the format asked for, written to
standard output or `--output`.

`emit(doc, options)` chooses the format (`--format`, else the `--output` file's extension, else
table on a terminal and plain in a pipe), refuses in one place a format the result cannot be
drawn in, refuses text too large to write (`output_numbers`), draws the doc with the format's
renderer (`RENDERERS`: one function a format), sends notes to standard error in the formats
made for scripts, and writes the bytes (never onto an input of the command, a file atomically).

Adding a format: a member of `options.Format` and its renderer here.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Callable
from typing import Any

from ..base import limits
from ..base.errors import GradcliError, UsageError
from ..base.record import Record
from .options import Format, OutputOptions
from .state import State
from .views import Blank, Custom, Doc, Indent, Line, Matrix, Note

# The one limit on text output (base.limits): the analysis checks it before the work, the
# dispatcher once more on what it is about to write.
OUTPUT_NUMBERS = limits.OUTPUT_NUMBERS

# An --output file's extension picks the format when --format is not given.
SUFFIX = {
    ".json": Format.json,
    ".csv": Format.csv,
    ".npy": Format.npy,
    ".npz": Format.npy,
    ".txt": Format.plain,
    ".dot": Format.dot,
    ".gv": Format.dot,
    ".mmd": Format.mermaid,
}


# --- choosing the format ---------------------------------------------------------------------


def _stdout_is_terminal() -> bool:
    out = sys.stdout
    try:
        return out is not None and out.isatty()
    except (ValueError, OSError):  # closed
        return False


def destination(output: str | None) -> str | None:
    """The file to write, or None for standard output (`-o -`)."""
    return None if output in (None, "-") else output


def resolve_format(fmt: Format | None, output: str | None) -> Format:
    """`--format`, else the extension of `--output`, else table on a terminal, plain in a pipe.
    A file is what its extension says: an explicit --format that contradicts a known extension
    is refused (a .txt file takes any text format; another extension, any format)."""
    path = destination(output)
    suffix = os.path.splitext(path)[1].lower() if path else ""
    implied = SUFFIX.get(suffix)
    if fmt is not None:
        if implied is not None and fmt is not implied and (suffix != ".txt" or fmt is Format.npy):
            wanted = [k for k, v in SUFFIX.items() if v is fmt]
            other = f", or a file name ending in {wanted[0]}" if wanted else ""
            # `an .npz`, `a .csv`: as the extension's first letter is said
            article = "an" if suffix[1:2] in set("aefhilmnorsx") else "a"
            raise UsageError(
                f"--output {_shown_path(path or '')} is {article} {suffix} file but --format "
                f"is {fmt.value}",
                hint=f"use --format {implied.value}{other}",
            )
        return fmt
    if implied is not None:
        return implied
    if path is None and _stdout_is_terminal():
        return Format.table
    return Format.plain


# --- the renderers ---------------------------------------------------------------------------


class Renderer(Record):
    """How a format draws a doc: `supports(doc)`, and `draw(doc, options, path)` returning
    text, bytes, or a list of rich renderables (tables)."""

    _fields = ("supports", "draw", "text")
    _defaults = {"text": True}
    supports: Callable[[Doc], bool]
    draw: Callable[[Doc, OutputOptions, str | None], Any]
    text: bool  # counted against output_numbers (tables elide instead)


def _has_views(doc: Doc) -> bool:
    return bool(doc.views)


def _table(doc: Doc, opts: OutputOptions, path: str | None) -> list[Any]:
    return table_renderables(doc.views, opts.precision)


def table_renderables(views: list[Any], precision: int | None) -> list[Any]:
    from rich.text import Text

    out: list[Any] = []
    for v in views:
        if isinstance(v, Matrix):
            if v.table:
                out += _matrix_table(v, precision)
        elif isinstance(v, Line):
            if v.table:  # prose: wrapped at words to the width (see _print_rich)
                out.append(Text(v.text, style=v.style, overflow="fold"))
        elif isinstance(v, Note):
            if v.table:
                out.append(Text(f"{v.kind}: {v.text}", style="yellow", overflow="fold"))
        elif isinstance(v, Blank):
            if v.table:
                out.append(Text(""))
        elif isinstance(v, Indent):
            from rich.console import Group

            out.append(_Indented(Group(*table_renderables(v.views, precision)), v.by))
        elif isinstance(v, Custom):
            if v.table is not None:
                out += v.table()
        else:  # pragma: no cover - a new kind of view must be drawn here
            raise TypeError(f"no table view for {type(v).__name__}")
    return out


class _Indented:
    """`inner` drawn `by` columns to the right, in the width left (rich's Padding would pad
    every line with blanks to the width)."""

    def __init__(self, inner: Any, by: int) -> None:
        self.inner, self.by = inner, by

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.segment import Segment

        width = max(1, options.max_width - self.by)
        lines = console.render_lines(self.inner, options.update_width(width), pad=False)
        for line in lines:
            if any(seg.text.strip() for seg in line):
                yield Segment(" " * self.by)
                yield from line
            yield Segment.line()


def _matrix_table(m: Matrix, precision: int | None) -> list[Any]:
    import numpy as np
    from rich.text import Text

    from . import matrix as mx

    data = np.asarray(m.data)
    if m.heat:
        return [_LazyHeat(data, m.title), *([Text(m.caption, style="yellow")] if m.caption else [])]
    if data.ndim == 0:
        # One number: no row or column to label.
        fmt = mx.number_format(data.reshape(1), precision)
        out: list[Any] = []
        if m.title:
            out.append(Text(m.title, style="bold"))
        out.append(Text(fmt.text(data[()]).rstrip(), style="dim" if data == 0 else ""))
        if m.caption:
            out.append(Text(m.caption, style="yellow"))
        return out
    rows = m.row_labels
    cols = m.col_labels
    if rows is None and data.ndim <= 1:
        rows = [""]
    if data.size == 0:
        out = [Text(m.title, style="bold")] if m.title else []
        return out + [Text(f"(empty, shape {list(data.shape)})", style="dim")]
    return [
        mx.matrix_view(
            data,
            precision=precision,
            row_labels=rows,
            col_labels=cols,
            title=m.title,
            caption=m.caption,
            hint=m.hint,
            max_rows=_max_rows(),
        )
    ]


def _max_rows() -> int | None:
    """Matrix rows a table shows: what fits a terminal (with room for titles), else the
    matrix module's default."""
    if _stdout_is_terminal():
        with contextlib.suppress(OSError, ValueError):
            return max(8, os.get_terminal_size(sys.stdout.fileno()).lines - 8)
    return None


class _LazyHeat:
    """A heat map laid out when rich draws it, at the width it is given there."""

    def __init__(self, data: Any, title: str | None) -> None:
        self.data, self.title = data, title

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from . import matrix as mx

        layout = mx.heat_layout(self.data, width=options.max_width)
        yield mx.heat_table(layout, self.title)


def _plain(doc: Doc, opts: OutputOptions, path: str | None) -> str:
    return plain_text(doc.views, opts.precision)


def plain_text(views: list[Any], precision: int | None) -> str:
    from . import matrix as mx

    chunks: list[str] = []
    for v in views:
        if isinstance(v, Matrix):
            if not v.plain:
                continue
            if v.heat:
                text = mx.heat_plain(mx.heat_layout(v.data, width=_plain_width()))
            else:
                text = mx.matrix_plain(v.data, precision)
            if v.head is not None:
                text = f"# {v.head}" + ("\n" + text if text else "")
            chunks.append(text)
        elif isinstance(v, Line):
            if v.plain:
                chunks.append(v.text)
        elif isinstance(v, Blank):
            if v.plain:
                chunks.append("")
        elif isinstance(v, Indent):
            inner = plain_text(v.views, precision)
            chunks.append(
                "\n".join(" " * v.by + line if line else line for line in inner.split("\n"))
            )
        elif isinstance(v, Custom):
            if v.plain is not None:
                chunks.append(v.plain)
    return "\n".join(chunks)


def _plain_width() -> int:
    """Characters across for a plain heat map: the terminal's, else COLUMNS, else 80."""
    if _stdout_is_terminal():
        with contextlib.suppress(OSError, ValueError):
            return os.get_terminal_size(sys.stdout.fileno()).columns
    return _columns(80)


def _columns(default: int) -> int:
    try:
        return max(20, int(os.environ.get("COLUMNS", "")))
    except ValueError:
        return default


def _json(doc: Doc, opts: OutputOptions, path: str | None) -> str:
    return to_json(doc.json())  # type: ignore[misc]


def to_json(obj: Any) -> str:
    import json

    try:
        return json.dumps(obj, separators=(", ", ": "), allow_nan=False)
    except ValueError:  # a non-finite float that no result wrote as a string: write it as one
        return json.dumps(_finite(obj), separators=(", ", ": "), allow_nan=False)


def _finite(obj: Any) -> Any:
    if isinstance(obj, float) and obj != obj:
        return "nan"
    if isinstance(obj, float) and obj in (float("inf"), float("-inf")):
        return "inf" if obj > 0 else "-inf"
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    return obj


def _csv(doc: Doc, opts: OutputOptions, path: str | None) -> str:
    from . import matrix as mx

    m = doc.csv
    if m is not None:
        return mx.matrix_csv(m.data, m.row_labels, m.col_labels, opts.precision)
    import numpy as np

    # Several arrays of different shapes: one row an element, labelled `x[0,1]`.
    labels: list[str] = []
    values = []
    for name, a in (doc.arrays or {}).items():
        a = np.asarray(a)
        labels += [element(name, a.shape, j) for j in range(a.size)]
        values.append(a.reshape(-1, 1).astype(np.float64))
    data = np.concatenate(values) if values else np.zeros((0, 1))
    return mx.matrix_csv(data, labels, ["value"], opts.precision)


def element(name: str, shape: tuple[int, ...], flat: int) -> str:
    """The label of element `flat` (row-major) of tensor `name`: `y[1,2]`, or `y` for ()."""
    if not shape:
        return name
    import numpy as np

    idx = np.unravel_index(flat, shape)
    return f"{name}[{','.join(str(int(i)) for i in idx)}]"


def _npy(doc: Doc, opts: OutputOptions, path: str | None) -> Stream:
    import numpy as np

    arrays = doc.arrays or {}
    if path is not None and path.lower().endswith(".npz"):
        return Stream(lambda fh: np.savez(fh, **{k: np.asarray(v) for k, v in arrays.items()}))
    if len(arrays) == 1:
        single = next(iter(arrays.values()))
    elif doc.npy is not None:
        single = doc.npy
    else:
        raise UsageError(
            f"{doc.command} has {len(arrays)} arrays ({_names(arrays)}) and an .npy file holds one",
            hint="write them all to an .npz file (-o FILE.npz), or choose one (--of / --wrt)",
        )
    return Stream(lambda fh: np.save(fh, np.ascontiguousarray(single)))


class Stream:
    """Binary output written straight into the file (no copy of a large array in memory)."""

    def __init__(self, write: Callable[[Any], None]) -> None:
        self.write = write


def _names(arrays: dict[str, Any]) -> str:
    names = list(arrays)
    shown = ", ".join(names[:5]) + (f", … ({len(names)} in all)" if len(names) > 5 else "")
    return shown


def _dot(doc: Doc, opts: OutputOptions, path: str | None) -> str:
    return doc.graph.dot()  # type: ignore[union-attr]


def _mermaid(doc: Doc, opts: OutputOptions, path: str | None) -> str:
    return doc.graph.mermaid()  # type: ignore[union-attr]


RENDERERS: dict[Format, Renderer] = {
    Format.table: Renderer(_has_views, _table, text=False),
    Format.plain: Renderer(_has_views, _plain),
    Format.json: Renderer(lambda d: d.json is not None, _json),
    Format.csv: Renderer(lambda d: d.csv is not None or bool(d.arrays), _csv),
    Format.npy: Renderer(lambda d: bool(d.arrays), _npy, text=False),
    Format.dot: Renderer(lambda d: d.graph is not None, _dot),
    Format.mermaid: Renderer(lambda d: d.graph is not None, _mermaid),
}


def supported(doc: Doc) -> list[Format]:
    return [f for f, r in RENDERERS.items() if r.supports(doc)]


# --- the dispatcher --------------------------------------------------------------------------


def emit(doc: Doc, opts: OutputOptions) -> None:
    """Draw `doc` in the format asked for (or the default one) and write it."""
    path = destination(opts.output)
    if path is not None:  # losing an input outranks any other complaint about the output
        _refuse_input(path)
    fmt = resolve_format(opts.format, opts.output)
    renderer = RENDERERS[fmt]
    if not renderer.supports(doc):
        formats = ", ".join(f.value for f in supported(doc))
        raise UsageError(
            f"{doc.command} cannot be written as {fmt.value}",
            found=f"--format {fmt.value}"
            + (f" (from the extension of {_shown_path(path)})" if opts.format is None else ""),
            expected=f"one of: {formats}",
        )
    if renderer.text:
        count = _numbers(doc, fmt)
        OUTPUT_NUMBERS.check(count, f"the numbers to write as {fmt.value}")
    drawn = renderer.draw(doc, opts, path)
    _write_drawn(drawn, fmt, path)
    # The notes once the output is written (an error writing it is then the only message).
    if fmt not in (Format.table, Format.json):
        for n in doc.notes():
            note(n.text, n.kind)
    if opts.strict_finite and not _all_finite(doc):
        # One error (and its JSON under --format json), after the result and its warnings.
        raise GradcliError(
            "the result holds NaN or infinity (--strict-finite)",
            hint="the warnings above name the operation that made the first one",
        )


def _all_finite(doc: Doc) -> bool:
    import numpy as np

    for a in (doc.arrays or {}).values():
        a = np.asarray(a)
        if a.dtype.kind in "fc" and not np.isfinite(a).all():
            return False
    return True


def _write_drawn(drawn: Any, fmt: Format, path: str | None) -> None:
    if isinstance(drawn, list):
        _print_rich(drawn, path)
    elif isinstance(drawn, (bytes, Stream)):
        if path is None and _stdout_is_terminal():
            raise UsageError(
                f"--format {fmt.value} writes binary data, not text for a terminal",
                hint=f"give --output FILE.{fmt.value} (or pipe the output into a file)",
            )
        write(drawn, path)
    else:
        write((drawn if drawn.endswith("\n") or not drawn else drawn + "\n").encode(), path)


def _numbers(doc: Doc, fmt: Format) -> int:
    """How many numbers the text of `doc` holds (an upper bound for the views)."""
    import numpy as np

    def size(a: Any) -> int:
        return int(np.asarray(a).size)

    if fmt is Format.csv and doc.csv is not None:
        return size(doc.csv.data)
    arrays = sum(size(a) for a in (doc.arrays or {}).values())
    if fmt in (Format.json, Format.csv):
        return arrays

    def views(vs: list[Any]) -> int:
        n = 0
        for v in vs:
            if isinstance(v, Matrix) and not v.heat and v.plain:
                n += size(v.data)
            elif isinstance(v, Indent):
                n += views(v.views)
        return n

    return views(doc.views)


def note(text: str, kind: str = "note") -> None:
    """A remark on standard error (never on standard output: scripts read that): one line in
    a file or a pipe (for grep), wrapped at words on a terminal."""
    stderr_line(f"{kind}: {text}")


def stderr_line(line: str) -> None:
    """A line of text on standard error: as it is in a file or a pipe; on a terminal, wrapped
    at words to its width, the lines after the first indented."""
    err = sys.stderr
    if err is None:
        return
    width = _terminal_width(err)
    if width is not None and len(line) > width:
        import textwrap

        line = "\n".join(
            textwrap.fill(part, width, subsequent_indent="  ", break_on_hyphens=False)
            if len(part) > width
            else part
            for part in line.split("\n")
        )
    with contextlib.suppress(OSError, ValueError):
        err.write(line + "\n")
        err.flush()


def _terminal_width(stream: Any) -> int | None:
    try:
        if stream.isatty():
            return os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError, AttributeError):
        pass
    return None


# --- writing ---------------------------------------------------------------------------------


def _console(file: Any, to_file: bool) -> Any:
    from rich.console import Console

    if to_file:
        return Console(file=file, highlight=False, width=_columns(100), no_color=True)
    return Console(highlight=False)


def _print_rich(items: list[Any], path: str | None) -> None:
    import io

    buf = io.StringIO()
    if path is not None:
        console = _console(buf, True)
    elif _stdout_is_terminal():
        # On a terminal, straight to it (colour, its width).
        console = _console(None, False)
        try:
            for item in items:
                console.print(item, soft_wrap=_soft(item))
        except OSError as e:
            _stdout_failed(e)
        return
    else:
        console = _pipe_console(buf)
    for item in items:
        console.print(item, soft_wrap=_soft(item))
    # No blanks at the ends of lines (rich leaves them where it wraps or pads) in a file or
    # a pipe.
    text = "\n".join(line.rstrip(" ") for line in buf.getvalue().split("\n"))
    write(text.encode("utf-8"), path)


def _soft(item: Any) -> bool:
    """Text made `no_wrap` (a graph tree, drawn to fit) printed as it is, neither wrapped nor
    cut by rich; any other text is prose, wrapped at words to the width (never in the middle
    of a word, as a terminal would wrap it)."""
    if getattr(item, "soft_wrap", False):
        return True
    return isinstance(item, _TEXT_TYPES()) and bool(item.no_wrap)


def _pipe_console(buf: Any) -> Any:
    """A console into `buf` for a pipe: no terminal to measure, so COLUMNS if set (tests pin
    it), else 100 columns; colour only when FORCE_COLOR asks for it (NO_COLOR wins)."""
    from rich.console import Console

    force = os.environ.get("FORCE_COLOR") and not os.environ.get("NO_COLOR")
    return Console(
        file=buf,
        highlight=False,
        width=_columns(100),
        force_terminal=bool(force) or None,
        color_system="truecolor" if force else None,
    )


def _TEXT_TYPES() -> tuple[type, ...]:  # noqa: N802 - a constant imported lazily
    from rich.text import Text

    return (Text,)


def write(data: bytes | Stream, path: str | None) -> None:
    """Bytes (or a stream of them) to `path`, or to standard output."""
    if path is None:
        write_stdout(data)
    else:
        write_output(path, data)


def write_stdout(data: bytes | str | Stream) -> None:
    """Write to standard output; a closed or full one is the environment's error (exit 1).

    All or nothing where standard output is a regular file: the text is written at once, a
    size past the file size limit (`ulimit -f`) is refused before anything is written, and a
    write that fails part of the way (a full disk) is undone (the file cut back to where it
    ended), so that an error never leaves part of the numbers for a script to read."""
    out = sys.stdout
    if out is None:
        raise GradcliError("cannot write to standard output: it is closed")
    end: tuple[int, int] | None = None
    try:
        out.flush()
        buffer = getattr(out, "buffer", None)
        end = _file_end(out)
        if end is not None and not isinstance(data, Stream):
            size = (
                len(data.encode(out.encoding or "utf-8", "replace"))
                if isinstance(data, str)
                else len(data)
            )
            _check_file_size(end[1], size)
        if isinstance(data, str):
            out.write(data)
        elif isinstance(data, Stream):
            data.write(buffer)
            buffer.flush()
        elif buffer is not None:
            buffer.write(data)
            buffer.flush()
        else:
            out.write(data.decode("utf-8"))
        out.flush()
    except BrokenPipeError:
        raise
    except (OSError, ValueError) as e:
        if end is not None:
            _cut_back(end)
        _stdout_failed(e)


def _file_end(out: Any) -> tuple[int, int] | None:
    """(fd, offset) of standard output where it is a regular file written at its end (where
    what this command writes can be measured before and undone after), else None."""
    import stat

    try:
        fd = out.fileno()
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        pos = os.lseek(fd, 0, os.SEEK_CUR)
    except (OSError, ValueError, AttributeError):
        return None
    # Appending (`>>`): at the file's end; writing at or past its end (`>`): there. Not in the
    # middle of a file opened for reading and writing, whose later bytes an undo would destroy.
    if _appends(fd):
        return fd, st.st_size
    return (fd, pos) if pos >= st.st_size else None


def _appends(fd: int) -> bool:
    try:
        import fcntl

        return bool(fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_APPEND)
    except (ImportError, OSError):
        return False


def _check_file_size(offset: int, size: int) -> None:
    """Refuse, before writing any of it, output the file size limit (RLIMIT_FSIZE) would cut."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    except (ImportError, OSError, ValueError):
        return
    if soft != resource.RLIM_INFINITY and offset + size > soft:
        raise OSError(
            errno.EFBIG,
            f"File too large ({size:,} bytes to write, from byte {offset:,}, past the file size "
            f"limit of {soft:,} bytes)",
        )


def _cut_back(end: tuple[int, int]) -> None:
    """Undo a write that failed part of the way: the file cut back to its end before it."""
    fd, size = end
    with contextlib.suppress(OSError):
        os.ftruncate(fd, size)
        os.lseek(fd, size, os.SEEK_SET)


def _stdout_failed(e: BaseException) -> None:
    if isinstance(e, BrokenPipeError):
        raise e
    # What is still buffered would fail again when Python exits: send it nowhere.
    with contextlib.suppress(Exception):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    reason = getattr(e, "strerror", None) or ("it is closed" if isinstance(e, ValueError) else e)
    raise GradcliError(f"cannot write to standard output: {reason}") from None


def _is_input(path: str) -> str | None:
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


def _refuse_input(path: str) -> None:
    same = _is_input(path)
    if same is not None:
        raise UsageError(
            f"--output {_shown_path(str(path))} is an input of this command "
            f"({'standard input' if same.startswith('/dev/fd/') else _shown_path(same)}): "
            "writing it would destroy the input",
            hint="choose another output file",
        )


def write_output(path: str, data: bytes | Stream) -> None:
    """`--output`: never onto a file this command read; a regular file is written to a
    temporary file beside it and renamed over it, so an error never leaves half a file."""
    import stat
    import tempfile

    _refuse_input(path)
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
                _put(fh, data)
            return
        real = os.path.realpath(path)
        fd, tmp = tempfile.mkstemp(
            dir=os.path.dirname(real) or ".", prefix="." + os.path.basename(real)[:64] + "."
        )
        try:
            with os.fdopen(fd, "wb") as fh:
                _put(fh, data)
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


def _put(fh: Any, data: bytes | Stream) -> None:
    if isinstance(data, Stream):
        data.write(fh)
    else:
        fh.write(data)


def _shown_path(p: str) -> str:
    """A path as shown in a message: escaped where it is not printable, shortened if long."""
    shown = p if p.isprintable() else ascii(p)[1:-1]
    return shown if len(shown) <= 100 else shown[:60] + "…" + shown[-20:]


def explain_nonfinite(run: Any, out: Any, grad_output: Any, values: Any) -> None:
    """When a result among `values` (computed from `out`) holds NaN or infinity: a warning
    that names the operation that made the first one, with its values and its line (and, for
    the masked branch of `where`, why and the fix)."""
    from ..analysis.finite import findings

    names = {id(t): n for n, t in run.tensors.items()}
    line = getattr(run, "node_line", None)
    for f in findings(out, grad_output, names, list(values), line):
        note(f.text(), "warning")


def warn_nonfinite(label: str, a: Any) -> None:
    """A warning on stderr when a result holds NaN or infinity (reported, not an error)."""
    import numpy as np

    arr = np.asarray(a)
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        nan, inf = int(np.isnan(arr).sum()), int(np.isinf(arr).sum())
        parts = ([f"{nan} nan"] if nan else []) + ([f"{inf} inf"] if inf else [])
        note(f"{label} has non-finite values ({', '.join(parts)} of {arr.size})", "warning")
