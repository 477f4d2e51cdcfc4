"""Reading a command's inputs: the program (a file, `-` for standard input, or `-e`), the
`--set` values of its leaves and the `--grad` upstream gradient (parsed by `values`)."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any

from ..base.errors import GradcliError, UsageError
from .options import ProgramOptions
from .state import State, release_collector


def read_program(program: str | None, expr: str | None) -> tuple[str, str]:
    """The program's text and the name to show for it."""
    if expr is not None and program is not None:
        raise UsageError("give the program as a file or with -e, not both")
    if expr is not None:
        return expr, "<-e>"
    if program is None:
        raise UsageError(
            "no program given", hint="gradcli backward FILE, or -e 'TEXT', or - for standard input"
        )
    from ..base import limits

    cap = limits.SOURCE_BYTES.value  # read one byte more, to know a larger file is larger
    if program == "-":
        stdin = sys.stdin
        if stdin is None:
            raise GradcliError(
                "cannot read the program from standard input: it is closed",
                hint="give the program as a file, or with -e 'TEXT'",
            )
        try:
            data = (
                stdin.buffer.read(cap + 1)
                if hasattr(stdin, "buffer")
                else stdin.read(cap + 1).encode()
            )
        except (OSError, ValueError) as e:
            reason = getattr(e, "strerror", None) or "it is closed"
            raise GradcliError(f"cannot read the program from standard input: {reason}") from None
        _stdin_file()
        return _decode(data, "<stdin>"), "<stdin>"
    shown = program if len(program) <= 100 else program[:60] + "…" + program[-20:]
    path = Path(program)
    try:
        if not path.exists():
            raise GradcliError(f"no such file: {program}", hint="check the path, or use -e 'TEXT'")
        if path.is_dir():
            raise GradcliError(f"{program} is a directory, not a program file")
        st = path.stat()
        if stat.S_ISREG(st.st_mode):
            if st.st_size > cap:
                limits.SOURCE_BYTES.check(st.st_size, f"{program}'s size in bytes")
            with path.open("rb") as fh:
                data = fh.read(cap + 1)
        else:
            data = _read_special(program, cap)
        State.inputs.append(program)
        _refuse_output_onto(program)
    except (OSError, ValueError) as e:  # a name too long, a file that cannot be read...
        raise GradcliError(f"cannot read {shown}: {getattr(e, 'strerror', None) or e}") from None
    return _decode(data, program), program


def _stdin_file() -> None:
    """Standard input redirected from a file (`gradcli backward - -o prog.py < prog.py`) is
    an input of the command like a program named on the command line: `--output` may not
    overwrite it. (A pipe or a terminal is no file: nothing to protect.)"""
    try:
        fd = sys.stdin.fileno()
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return
    except (OSError, ValueError, AttributeError):
        return
    path = f"/dev/fd/{fd}"
    if not os.path.exists(path):  # no /dev/fd here: the file cannot be named
        return
    State.inputs.append(path)
    _refuse_output_onto(path, "standard input")


def _refuse_output_onto(program: str, shown: str | None = None) -> None:
    """`-o PROGRAM`: refused as soon as the program is read, before any work."""
    out = State.output
    if out is None:
        return
    try:
        same = os.path.samefile(out, program)
    except (OSError, ValueError):  # the output does not exist yet: not the program
        return
    if same:
        from ..base.errors import UsageError
        from .output import _shown_path

        raise UsageError(
            f"--output {_shown_path(out)} is an input of this command "
            f"({shown or _shown_path(program)}): writing it would destroy the input",
            hint="choose another output file",
        )


PIPE_WAIT = 2.0  # seconds a pipe may stay silent before gradcli gives up on it


def _read_special(program: str, cap: int) -> bytes:
    """A program that is not a regular file: a pipe (`<(...)`, a FIFO) or a device. Opened
    without blocking and read while data comes; a FIFO that nothing writes to, or a pipe
    silent for PIPE_WAIT seconds, is an error rather than a hang."""
    import os
    import select
    import time

    fd = os.open(program, os.O_RDONLY | os.O_NONBLOCK)
    try:
        chunks: list[bytes] = []
        size = 0
        opened = time.monotonic()
        while size <= cap:
            ready, _, _ = select.select([fd], [], [], PIPE_WAIT)
            if not ready:
                what = (
                    "it is a pipe (FIFO) and nothing writes to it"
                    if not chunks
                    else (f"nothing more came from it in {PIPE_WAIT:g} s")
                )
                raise GradcliError(
                    f"cannot read {program}: {what}",
                    hint="write the program to a regular file, or give it with -e or on "
                    "standard input",
                )
            try:
                chunk = os.read(fd, min(1 << 16, cap + 1 - size))
            except BlockingIOError:
                continue
            if not chunk:
                # End of file. A FIFO whose writer has not come yet also reads as the end:
                # wait for it a little (select says readable at once with no writer).
                if not chunks and time.monotonic() - opened < PIPE_WAIT:
                    time.sleep(0.05)
                    if _no_writer_yet(program):
                        continue
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _no_writer_yet(program: str) -> bool:
    import stat as st_

    try:
        return st_.S_ISFIFO(os.stat(program).st_mode)
    except OSError:
        return False


def _decode(data: bytes, name: str) -> str:
    from ..base import limits

    limits.SOURCE_BYTES.check(len(data), f"{name}'s size in bytes")
    if b"\x00" in data:
        raise GradcliError(f"{name} is a binary file, not a program")
    codec = _declared_codec(data, name)
    try:
        return data.decode(codec)
    except UnicodeDecodeError as e:
        if codec == "utf-8-sig":
            raise GradcliError(
                f"{name} is not UTF-8 text (byte {e.start})", hint="save the program as UTF-8"
            ) from None
        raise GradcliError(
            f"{name}: syntax error: encoding problem: {_cookie(data)[0]}",
            hint=f"its coding line declares {codec}, but byte {e.start} is not {codec} text "
            "(as Python refuses it): save the program in the declared encoding, or as UTF-8 "
            "without the coding line",
        ) from None


# The source encodings gradcli decodes when a program's coding line (PEP 263) declares one:
# UTF-8 and the common single- and multi-byte encodings of tutorial code, by codec name.
_CODECS = frozenset(
    "utf_8 ascii latin_1 cp1252 iso8859_15 cp1251 koi8_r gbk gb2312 gb18030 big5 "
    "big5hkscs shift_jis cp932 euc_jp euc_kr cp949".split()
)
_COOKIE = None


def _cookie(data: bytes) -> tuple[str, int] | tuple[None, None]:
    """The encoding a coding line declares, as Python finds it: a comment matching
    `coding[:=]` on the first line, or on the second when the first is blank or a comment."""
    global _COOKIE
    import re

    if _COOKIE is None:
        _COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
    blank = re.compile(rb"^[ \t\f]*(?:[#\r\n]|$)")
    for number, line in enumerate(data.split(b"\n", 2)[:2], 1):
        if number == 1 and line.startswith(b"\xef\xbb\xbf"):
            line = line[3:]
        m = _COOKIE.match(line)
        if m:
            return m.group(1).decode("ascii"), number
        if not blank.match(line):
            break
    return None, None


def _declared_codec(data: bytes, name: str) -> str:
    """The codec to decode a program with: UTF-8 (a BOM allowed) unless its coding line
    declares another encoding, which is honoured as Python honours it."""
    declared, line = _cookie(data)
    if declared is None:
        return "utf-8-sig"
    low = declared[:12].lower().replace("_", "-")
    if low == "utf-8" or low.startswith("utf-8-"):
        return "utf-8-sig"
    if low in ("latin-1", "iso-8859-1", "iso-latin-1") or low.startswith(
        ("latin-1-", "iso-8859-1-", "iso-latin-1-")
    ):
        normal = "iso-8859-1"
    else:
        normal = declared
    if data.startswith(b"\xef\xbb\xbf"):
        raise GradcliError(
            f"{name}: syntax error: encoding problem: {normal} with BOM",
            hint="a UTF-8 byte-order mark and a coding line for another encoding contradict "
            "each other (Python refuses it too): remove one of them",
        )
    from encodings import aliases, normalize_encoding

    key = normalize_encoding(normal).lower()
    codec = aliases.aliases.get(key, key)
    if codec not in _CODECS:
        raise GradcliError(
            f"{name}: the coding line (line {line}) declares the encoding '{declared}', "
            "which gradcli does not read",
            hint="gradcli reads UTF-8, ASCII, Latin-1, cp1252, cp1251, KOI8-R, GBK, GB2312, "
            "GB18030, Big5, Shift-JIS, EUC-JP and EUC-KR programs: save the program as UTF-8 "
            "and remove the coding line",
        )
    return codec


def _overrides(sets: list[str] | None) -> dict[str, Any]:
    if not sets:
        return {}
    from .values import parse_assignment

    out = {}
    for s in sets:
        name, text = parse_assignment(s)
        out[name] = text
    return out


class SetValue:
    """`--set NAME=TEXT`: read against the tensor it replaces, when the program creates it
    (the program runs once, not once to learn shapes and again), and read once however often
    the program is re-run (finite differences, check)."""

    def __init__(self, name: str, text: str) -> None:
        self.name, self.text = name, text
        self.array: Any = None

    def __call__(self, t: Any) -> Any:
        if self.array is None:
            import numpy as np

            from .values import parse_values

            self.array, _ = parse_values(
                self.text,
                tuple(t.shape),
                what=f"--set {self.name}",
                dtype=np.dtype(t.dtype),
                allow_special=True,
                name=self.name,
            )
        return self.array


def load_program(p: ProgramOptions) -> tuple[Any, dict[str, Any]]:
    """The parsed program and the `--set` values: what a command needs to run, or re-run,
    the program."""
    from ..lang.program import parse

    text, name = read_program(p.program, p.expr)
    prog = parse(text, name)
    release_collector()  # the program may make cyclic garbage: the collector runs again
    return prog, {n: SetValue(n, txt) for n, txt in _overrides(p.set_).items()}


def load_run(p: ProgramOptions, echo: Any = None) -> Any:
    """Read, parse and run the program, with `--set` values applied to its leaves."""
    prog, overrides = load_program(p)
    r = prog.run(overrides=overrides, dtype=p.dtype.value, seed=p.seed, echo=echo)
    from .output import stderr_line

    for w in getattr(r, "warnings", ()):
        stderr_line(w)
    return r


def upstream_gradient(
    grad: str | None, out: Any, name: str | None = None
) -> tuple[Any, str | None]:
    """The `--grad` text as an array of the output's shape and dtype (and a note when a flat
    list was reshaped); (None, None) without `--grad`. `name` is the output's (a file of
    several tensors gives that one's values)."""
    if grad is None:
        return None, None
    import numpy as np

    from .values import parse_values

    return parse_values(grad, tuple(out.shape), what="--grad", dtype=np.dtype(out.dtype), name=name)
