"""The command line: parse options, call the library, render. Nothing else lives here.

Only this module imports typer. Errors: a `GradcliError` becomes one message on stderr and its
exit status (1, or 2 for usage); anything else is an internal error (exit 70, with the command
to reproduce it), shown as a traceback only with `--debug`.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import sys
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from .errors import GradcliError, UsageError

app = typer.Typer(
    name="gradcli",
    help="A gradient explorer: gradients, vector-Jacobian products, Jacobians and Hessians of "
    "small PyTorch-like programs, computed on NumPy.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class State:
    debug = False
    inputs: list[str] = []  # the files this command read (never overwritten by --output)


class Format(str, Enum):
    table = "table"
    plain = "plain"
    json = "json"


class DType(str, Enum):
    float64 = "float64"
    float32 = "float32"


EXIT_INTERNAL = 70


def _fail(e: GradcliError) -> None:
    sys.stderr.write(e.format().rstrip("\n") + "\n")
    raise typer.Exit(e.exit_code)


def guarded(f: Callable[..., Any]) -> Callable[..., Any]:
    """Every command: user errors to one message and an exit status, never a traceback."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        import warnings

        from . import limits

        State.inputs = []  # per command (tests run many in one process)
        if "gradcli.values" in sys.modules:
            sys.modules["gradcli.values"].FILES_READ.clear()
        try:
            # The whole command (not only the program's run) spends one time, memory and
            # graph budget: a backward pass or a Jacobian of a huge graph stops too.
            with warnings.catch_warnings(), limits.BUDGET.run():
                # NumPy's RuntimeWarnings (overflow, 0/0) are not for users: non-finite
                # results get gradcli's own warning.
                warnings.simplefilter("ignore", RuntimeWarning)
                return f(*args, **kwargs)
        except GradcliError as e:
            cause = getattr(e, "cause", None) or e.__cause__
            if State.debug and cause is not None:
                # The Python error behind a user error (e.g. NumPy's, on a bad argument).
                import traceback

                traceback.print_exception(cause, file=sys.stderr)
            _fail(e)
        except (typer.Exit, typer.Abort, KeyboardInterrupt):
            raise
        except BrokenPipeError:
            # The reader went away (`gradcli ... | head`): not an error.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            raise typer.Exit(0) from None
        except RecursionError:
            _fail(
                GradcliError(
                    "the program is nested or recursive too deeply",
                    hint="split long expressions into several assignments",
                )
            )
        except MemoryError:
            _fail(GradcliError("out of memory", hint="the tensors are too large for this machine"))
        except Exception as e:  # a bug in gradcli, not the user's fault
            if State.debug:
                raise
            # --debug is an option of `gradcli` itself: it goes before the command.
            import shlex

            argv = [a for a in sys.argv[1:] if a != "--debug"]
            cmd = "gradcli --debug " + " ".join(shlex.quote(a) for a in argv)
            what = str(e) if len(str(e)) <= 300 else str(e)[:300] + "…"
            if len(cmd) > 2000:
                cmd = cmd[:2000] + "…"
            sys.stderr.write(
                f"gradcli: internal error, please report: {type(e).__name__}: {what}\n"
                f"  to reproduce: {cmd}\n"
            )
            raise typer.Exit(EXIT_INTERNAL) from None

    return wrapper


def _version(value: bool) -> None:
    if value:
        from . import __version__

        sys.stdout.write(f"gradcli {__version__}\n")
        raise typer.Exit(0)


@app.callback()
def _root(
    debug: Annotated[
        bool, typer.Option("--debug", help="Show internal tracebacks (for bug reports).")
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print the version and exit.", callback=_version, is_eager=True
        ),
    ] = False,
) -> None:
    State.debug = debug


# --- shared options -----------------------------------------------------------------------

ProgramArg = Annotated[
    str | None,
    typer.Argument(help="The program file, or - for standard input.", show_default=False),
]
ExprOpt = Annotated[str | None, typer.Option("-e", "--expr", help="The program text itself.")]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set", help="Replace a tensor's data: NAME=VALUES (repeatable).", metavar="NAME=VALUES"
    ),
]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed for rand/randn.")]
DTypeOpt = Annotated[DType, typer.Option("--dtype", help="Default float dtype.")]
FormatOpt = Annotated[
    Format | None,
    typer.Option(
        "--format", "-f", help="Output format (default: table on a terminal, plain when piped)."
    ),
]
OutputOpt = Annotated[Path | None, typer.Option("--output", "-o", help="Write to FILE.")]
PrecisionOpt = Annotated[
    int | None, typer.Option("--precision", min=1, max=17, help="Significant digits shown.")
]
OfOpt = Annotated[
    str | None, typer.Option("--of", help="The output tensor (default: the last assigned).")
]
WrtOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--wrt", help="An input tensor (repeatable; default: every leaf that requires grad)."
    ),
]


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
    from . import limits

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
    from . import limits

    limits.SOURCE_BYTES.check(len(data), f"{name}'s size in bytes")
    if b"\x00" in data:
        raise GradcliError(f"{name} is a binary file, not a program")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise GradcliError(
            f"{name} is not UTF-8 text (byte {e.start})", hint="save the program as UTF-8"
        ) from None


def _overrides(sets: list[str] | None, dtype: str) -> dict[str, Any]:
    if not sets:
        return {}
    from .values import parse_assignment

    out = {}
    for s in sets:
        name, text = parse_assignment(s)
        out[name] = text
    return out


def load_run(
    program: str | None,
    expr: str | None,
    sets: list[str] | None,
    seed: int,
    dtype: DType,
    echo: Any = None,
) -> Any:
    """Read, parse and run the program, with `--set` values applied to its leaves."""
    import numpy as np

    from .interpreter import parse

    text, name = read_program(program, expr)
    prog = parse(text, name)
    raw = _overrides(sets, dtype.value)
    overrides: dict[str, Any] = {}
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
    r = prog.run(overrides=overrides, dtype=dtype.value, seed=seed, echo=echo)
    for w in getattr(r, "warnings", ()):
        sys.stderr.write(w + "\n")
    return r


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


def upstream_gradient(grad: str | None, out: Any) -> tuple[Any, str | None]:
    """The `--grad` text as an array of the output's shape and dtype (and a note when a flat
    list was reshaped); (None, None) without `--grad`."""
    if grad is None:
        return None, None
    import numpy as np

    from .values import parse_values

    return parse_values(grad, tuple(out.shape), what="--grad", dtype=np.dtype(out.dtype))


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


# --- commands -----------------------------------------------------------------------------


@app.command()
@guarded
def run(
    program: ProgramArg = None,
    expr: ExprOpt = None,
    set_: SetOpt = None,
    seed: SeedOpt = 0,
    dtype: DTypeOpt = DType.float64,
) -> None:
    """Execute the program: its print() and backward() statements, as Python would.

    Example: gradcli run examples/seed_masks.py
    """

    def echo(text: str) -> None:
        sys.stdout.write(text)

    load_run(program, expr, set_, seed, dtype, echo=echo)
    sys.stdout.flush()


@app.command()
@guarded
def forward(
    program: ProgramArg = None,
    of: Annotated[
        list[str] | None,
        typer.Option("--of", help="Only these tensors (repeatable; default: all named tensors)."),
    ] = None,
    expr: ExprOpt = None,
    set_: SetOpt = None,
    seed: SeedOpt = 0,
    dtype: DTypeOpt = DType.float64,
    format: FormatOpt = None,
    output: OutputOpt = None,
    precision: PrecisionOpt = None,
) -> None:
    """The values and shapes of the program's tensors.

    Example: gradcli forward examples/sigmoid_net.py --of y_pred
    """
    from . import api, render

    r = load_run(program, expr, set_, seed, dtype)
    infos = api.forward(r, of)
    fmt = resolve_format(format, output)
    if fmt is Format.json:
        emit(render.to_json(render.forward_json(infos)), fmt, output)
    elif fmt is Format.plain:
        emit(render.forward_plain(infos, precision), fmt, output)
    else:
        emit(render.forward_tables(infos, precision), fmt, output)


@app.command()
@guarded
def backward(
    program: ProgramArg = None,
    of: OfOpt = None,
    wrt: WrtOpt = None,
    grad: Annotated[
        str | None,
        typer.Option(
            "--grad",
            "-g",
            help="The upstream gradient: 1,0,0,0 (flat, row-major) | [[1,0],[0,1]] | ones | "
            "onehot:K | @FILE (.npy/.json/.csv). Default: ones for a one-element output.",
        ),
    ] = None,
    trace: Annotated[
        bool, typer.Option("--trace", help="Print the chain rule step by step.")
    ] = False,
    expr: ExprOpt = None,
    set_: SetOpt = None,
    seed: SeedOpt = 0,
    dtype: DTypeOpt = DType.float64,
    format: FormatOpt = None,
    output: OutputOpt = None,
    precision: PrecisionOpt = None,
) -> None:
    """Gradients from one backward pass: d<grad, OF>/dWRT, as PyTorch's
    OF.backward(gradient=grad) leaves them in WRT.grad.

    Example: gradcli backward examples/seed_masks.py --of z --grad 1,0,0,0
    """

    from . import api, render

    r = load_run(program, expr, set_, seed, dtype)
    of_name, out = api.resolve_of(r, of)
    g, note = upstream_gradient(grad, out)
    result = api.backward(r, of_name, wrt, g, trace=trace)
    for n, gr in result.grads.items():
        warn_nonfinite(f"the gradient of `{n}`", gr)
    fmt = resolve_format(format, output)
    if fmt is Format.json:
        obj = result.to_json()
        if note:
            obj["note"] = note
        if trace:
            obj["trace"] = render.trace_json(result)
        emit(render.to_json(obj), fmt, output)
    elif fmt is Format.plain:
        text = render.backward_plain(result, precision)
        if trace:
            text = render.trace_plain(result, precision) + "\n\n" + text
        if note:
            sys.stderr.write(f"note: {note}\n")
        for n in result.unused:
            sys.stderr.write(
                f"note: `{result.of}` does not depend on `{n}`: its gradient is zero\n"
            )
        emit(text, fmt, output)
    else:
        items = render.backward_tables(result, precision, note)
        if trace:
            items = render.trace_tables(result, precision) + [""] + items
        emit(items, fmt, output)


@app.command()
@guarded
def graph(
    program: ProgramArg = None,
    of: OfOpt = None,
    dot: Annotated[bool, typer.Option("--dot", help="Graphviz text instead of a tree.")] = False,
    expr: ExprOpt = None,
    set_: SetOpt = None,
    seed: SeedOpt = 0,
    dtype: DTypeOpt = DType.float64,
    format: FormatOpt = None,
    output: OutputOpt = None,
) -> None:
    """The computation graph of an output: a tree from the output to the leaves.

    Example: gradcli graph examples/mlp.py   (or --dot | dot -Tpng > graph.png)
    """
    from . import api, render
    from . import graph as g

    r = load_run(program, expr, set_, seed, dtype)
    name, out = api.resolve_of(r, of)
    nodes = g.build(r, out)
    fmt = resolve_format(format, output)
    if dot:
        emit(g.to_dot(nodes), Format.plain, output)
    elif fmt is Format.json:
        emit(render.to_json(g.to_json(name, nodes)), fmt, output)
    else:
        emit(g.to_tree(nodes), Format.plain, output)


class ExportTarget(str, Enum):
    torch = "torch"


@app.command()
@guarded
def export(
    program: ProgramArg = None,
    to: Annotated[ExportTarget, typer.Option("--to", help="The framework to write.")] = (
        ExportTarget.torch
    ),
    of: OfOpt = None,
    wrt: WrtOpt = None,
    grad: Annotated[
        str | None, typer.Option("--grad", "-g", help="The upstream gradient (as for `backward`).")
    ] = None,
    expr: ExprOpt = None,
    set_: SetOpt = None,
    seed: SeedOpt = 0,
    dtype: DTypeOpt = DType.float64,
    output: OutputOpt = None,
) -> None:
    """Equivalent PyTorch code: the output's graph replayed with torch operations, then
    backward with the same upstream gradient and the gradients printed.

    Example: gradcli export examples/mlp.py --to torch > mlp_torch.py && python mlp_torch.py
    """

    from . import api
    from .export import to_torch

    r = load_run(program, expr, set_, seed, dtype)
    of_name, out = api.resolve_of(r, of)
    targets = api.resolve_wrt(r, wrt, of_name)
    g, _ = upstream_gradient(grad, out)
    if g is None and out.data.size != 1:
        api.implicit_gradient(of_name, out)
    text, name = read_program(program, expr)
    emit(to_torch(r, of_name, out, targets, g, name), Format.plain, output)


# Commands of the other areas register themselves on `app` (each module imports only typer
# and this module at import time; everything heavy is imported inside the commands).
from . import cli_jacobian as _cli_jacobian  # noqa: E402,F401
from . import cli_verify as _cli_verify  # noqa: E402,F401


def _only_the_command_asked_for(argv: list[str]) -> None:
    """Typer builds every command's parameters on each run (about 3 ms a command, most of the
    CLI's own start-up). When the command line names a command, register just that one; for
    `--help`, a typo or no command, all of them stay (for the listing and suggestions)."""
    name = next((a for a in argv if not a.startswith("-")), None)
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
