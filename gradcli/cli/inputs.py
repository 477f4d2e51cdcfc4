"""Reading a command's inputs: the program (a file, `-` for standard input, or `-e`), the
`--set` values of its leaves and the `--grad` upstream gradient (parsed by `values`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from ..base.errors import GradcliError, UsageError
from .options import ProgramOptions
from .state import State


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
        data = (
            sys.stdin.buffer.read(cap + 1)
            if hasattr(sys.stdin, "buffer")
            else sys.stdin.read(cap + 1).encode()
        )
        return _decode(data, "<stdin>"), "<stdin>"
    path = Path(program)
    try:
        if not path.exists():
            raise GradcliError(f"no such file: {program}", hint="check the path, or use -e 'TEXT'")
        if path.is_dir():
            raise GradcliError(f"{program} is a directory, not a program file")
        size = path.stat().st_size
        if size > cap:
            limits.SOURCE_BYTES.check(size, f"{program}'s size in bytes")
        with path.open("rb") as fh:
            data = fh.read(cap + 1)
        State.inputs.append(program)
    except (OSError, ValueError) as e:  # a name too long, a file that cannot be read...
        shown = program if len(program) <= 100 else program[:60] + "…" + program[-20:]
        raise GradcliError(f"cannot read {shown}: {getattr(e, 'strerror', None) or e}") from None
    return _decode(data, program), program


def _decode(data: bytes, name: str) -> str:
    from ..base import limits

    limits.SOURCE_BYTES.check(len(data), f"{name}'s size in bytes")
    if b"\x00" in data:
        raise GradcliError(f"{name} is a binary file, not a program")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise GradcliError(
            f"{name} is not UTF-8 text (byte {e.start})", hint="save the program as UTF-8"
        ) from None


def _overrides(sets: list[str] | None) -> dict[str, Any]:
    if not sets:
        return {}
    from .values import parse_assignment

    out = {}
    for s in sets:
        name, text = parse_assignment(s)
        out[name] = text
    return out


def load_program(p: ProgramOptions) -> tuple[Any, dict[str, Any]]:
    """The parsed program and the `--set` values (as arrays shaped like their tensors): what
    a command needs to run, or re-run, the program."""
    import numpy as np

    from ..lang.program import parse

    text, name = read_program(p.program, p.expr)
    prog = parse(text, name)
    raw = _overrides(p.set_)
    overrides: dict[str, Any] = {}
    seed, dtype = p.seed, p.dtype
    if raw:
        # --set values are parsed against the tensor's shape, so run once to learn shapes.
        from .values import parse_values

        first = prog.run(dtype=dtype.value, seed=seed)
        for n, txt in raw.items():
            t = first.tensor(n)
            arr, _ = parse_values(
                txt, tuple(t.shape), what=f"--set {n}", dtype=np.dtype(t.dtype), allow_special=True
            )
            overrides[n] = arr
    return prog, overrides


def load_run(p: ProgramOptions, echo: Any = None) -> Any:
    """Read, parse and run the program, with `--set` values applied to its leaves."""
    prog, overrides = load_program(p)
    r = prog.run(overrides=overrides, dtype=p.dtype.value, seed=p.seed, echo=echo)
    for w in getattr(r, "warnings", ()):
        sys.stderr.write(w + "\n")
    return r


def upstream_gradient(grad: str | None, out: Any) -> tuple[Any, str | None]:
    """The `--grad` text as an array of the output's shape and dtype (and a note when a flat
    list was reshaped); (None, None) without `--grad`."""
    if grad is None:
        return None, None
    import numpy as np

    from .values import parse_values

    return parse_values(grad, tuple(out.shape), what="--grad", dtype=np.dtype(out.dtype))
