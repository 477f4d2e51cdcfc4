"""`gradcli jacobian`, `gradcli hessian`, `gradcli hvp` (registered on the app of `cli`).

Only typer and `cli` are imported here at start-up; NumPy, rich and the library are imported
inside the commands.

Output formats: `table` (a terminal), `plain` (piped), `json`, `csv`, and `npy`, which saves the
array form: a Jacobian of one `--wrt` as of.shape + wrt.shape, a Hessian of one as
wrt.shape + wrt.shape. With several `--wrt`, `npy` saves the 2-D matrix of all blocks side by
side (columns in --wrt order; a Hessian's full square matrix), and an `--output` ending in
`.npz` saves each block's array form under its name (`x`, or `x,W` for a Hessian's block).
Without `--format`, an `--output` ending in .npy/.npz, .csv or .json picks that format.
"""

from __future__ import annotations

import sys
import time
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from ...base.errors import UsageError
from ..app import app, guarded
from ..inputs import load_run
from ..options import (
    DType,
    DTypeOpt,
    ExprOpt,
    Format,
    OfOpt,
    OutputOpt,
    PrecisionOpt,
    ProgramArg,
    SeedOpt,
    SetOpt,
    WrtOpt,
)
from ..output import emit, write_output


class OutFormat(str, Enum):
    table = "table"
    plain = "plain"
    json = "json"
    csv = "csv"
    npy = "npy"


class Method(str, Enum):
    rows = "rows"
    batched = "batched"
    forward = "forward"
    numeric = "numeric"
    auto = "auto"


class HessianMethod(str, Enum):
    batched = "batched"
    rows = "rows"
    numeric = "numeric"


FormatOpt = Annotated[
    OutFormat | None,
    typer.Option(
        "--format",
        "-f",
        help="Output format (default: table on a terminal, plain when piped; "
        "npy saves the array form, see --output).",
    ),
]
HeatOpt = Annotated[
    bool,
    typer.Option(
        "--heat", help="A shaded heat map of the matrix instead of its numbers (table or plain)."
    ),
]

_SUFFIX = {
    ".npy": OutFormat.npy,
    ".npz": OutFormat.npy,
    ".csv": OutFormat.csv,
    ".json": OutFormat.json,
}


def _format(fmt: OutFormat | None, output: Path | None) -> OutFormat:
    if fmt is not None:
        if output is not None and output.suffix.lower() == ".npz" and fmt is not OutFormat.npy:
            raise UsageError(
                f"--output {output} is an .npz file but --format is {fmt.value}",
                hint="use --format npy, or another file name",
            )
        return fmt
    if output is not None and output.suffix.lower() in _SUFFIX:
        return _SUFFIX[output.suffix.lower()]
    if output is None and sys.stdout.isatty():
        return OutFormat.table
    return OutFormat.plain


def _emit_text(text: str, output: Path | None) -> None:
    emit(text, Format.plain, output)


def _save_npy(arrays: dict[str, Any], single: Any, output: Path | None) -> None:
    """`single` (the array form, or the 2-D matrix of several blocks) to a .npy file, or every
    block of `arrays` to an .npz; to standard output only when it is not a terminal."""
    import io

    import numpy as np

    buf = io.BytesIO()
    if output is not None and output.suffix.lower() == ".npz":
        np.savez(buf, **arrays)
    else:
        np.save(buf, np.ascontiguousarray(single))
    data = buf.getvalue()
    if output is None:
        if sys.stdout.isatty():
            raise UsageError(
                "--format npy writes binary data: give --output FILE.npy (or pipe "
                "the output into a file)"
            )
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    write_output(output, data)


def _notes(lines: list[str]) -> None:
    for line in lines:
        sys.stderr.write(f"note: {line}\n")


class _ProgressBar:
    """`progress(done, total)` for the library: a rich bar on stderr, shown only on a terminal
    and only once the work looks like taking more than a second."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.start = time.perf_counter()
        self.bar: Any = None
        self.task: Any = None
        self.enabled = sys.stderr.isatty()

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        elapsed = time.perf_counter() - self.start
        if self.bar is None:
            if done >= total or elapsed < 0.2 or elapsed / done * total < 1.0:
                return
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

            self.bar = Progress(
                TextColumn(self.what),
                BarColumn(),
                TextColumn("{task.completed}/{task.total}"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task(self.what, total=total)
        self.bar.update(self.task, completed=done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def _check_combination(
    fmt: OutFormat, *, heat: bool = False, masks: bool = False, compare: bool = False
) -> None:
    if heat and fmt not in (OutFormat.table, OutFormat.plain):
        raise UsageError(
            f"--heat draws a picture: it needs --format table or plain, not {fmt.value}"
        )
    if masks and fmt in (OutFormat.csv, OutFormat.npy):
        raise UsageError(
            f"--show-masks cannot be written as {fmt.value}",
            hint="use --format table, plain or json",
        )
    if compare and fmt in (OutFormat.csv, OutFormat.npy):
        raise UsageError(
            f"--compare prints a comparison, not a matrix: --format {fmt.value} does not apply",
            hint="use --format table, plain or json",
        )
    if heat and (masks or compare):
        raise UsageError("--heat cannot be combined with --show-masks or --compare")


@app.command()
@guarded
def jacobian(
    program: ProgramArg = None,
    of: OfOpt = None,
    wrt: WrtOpt = None,
    method: Annotated[
        Method,
        typer.Option(
            "--method",
            "-m",
            help="rows: one backward pass per output element (one-hot masks); "
            "batched: all masks in one pass; forward: forward mode, one tangent per input element; "
            "numeric: central differences (float64); auto: forward if the inputs are smaller "
            "than the output, else batched.",
        ),
    ] = Method.rows,
    show_masks: Annotated[
        bool, typer.Option("--show-masks", help="Print each one-hot mask and the row it produced.")
    ] = False,
    compare: Annotated[
        bool,
        typer.Option(
            "--compare",
            help="Run rows, batched, forward and numeric and print how far apart they are.",
        ),
    ] = False,
    heat: HeatOpt = False,
    expr: ExprOpt = None,
    set_: SetOpt = None,
    seed: SeedOpt = 0,
    dtype: DTypeOpt = DType.float64,
    format: FormatOpt = None,
    output: OutputOpt = None,
    precision: PrecisionOpt = None,
) -> None:
    """The full Jacobian J(i, j) = d OF_i / d WRT_j, row by row from one-hot masked backward
    passes (or another --method). One block per --wrt; an input OF does not depend on gives a
    zero block. Refused above GRADCLI_JACOBIAN_ENTRIES entries.

    Example: gradcli jacobian examples/seed_masks.py --of z --wrt x --show-masks
    """
    fmt = _format(format, output)
    _check_combination(fmt, heat=heat, masks=show_masks, compare=compare)
    from ...analysis import jacobian as lib
    from ..render import common as render
    from ..render import jacobian as rj

    r = load_run(program, expr, set_, seed, dtype)
    if compare:
        methods = ["rows", "batched", "forward", "numeric"]
        ref = method.value if method.value in methods else "rows"
        c = lib.compare(r, of, wrt, methods, reference=ref, seed=seed)
        if fmt is OutFormat.json:
            _emit_text(render.to_json(c.to_json()), output)
        elif fmt is OutFormat.plain:
            _emit_text(rj.compare_plain(c), output)
        else:
            emit(rj.compare_tables(c), Format.table, output)
        if not c.ok:
            raise typer.Exit(3)  # the methods disagree (as `gradcli check`)
        return
    bar = _ProgressBar(f"jacobian ({method.value})")
    try:
        res = lib.jacobian(
            r,
            of,
            wrt,
            method.value,
            show_masks=show_masks,
            progress=bar,
            seed=seed,
            text=fmt is not OutFormat.npy,
        )
    finally:
        bar.close()
    if fmt is OutFormat.json:
        obj = res.to_json()
        if res.requested == "auto" and res.note:
            obj["note"] = res.note
        if show_masks:
            obj["masks"] = rj.masks_json(res)
        _emit_text(render.to_json(obj), output)
    elif fmt is OutFormat.npy:
        arrays = {n: b.array for n, b in res.blocks.items()}
        _save_npy(arrays, res.array if len(arrays) == 1 else res.matrix, output)
    elif fmt is OutFormat.csv:
        _notes(rj.jacobian_notes(res))
        _emit_text(rj.jacobian_csv(res, precision), output)
    elif fmt is OutFormat.plain:
        _notes(rj.jacobian_notes(res))
        text = rj.jacobian_heat_plain(res) if heat else rj.jacobian_plain(res, precision)
        if show_masks:
            text = rj.masks_plain(res, precision) + "\n\n# the Jacobian\n" + text
        _emit_text(text, output)
    else:
        items = rj.jacobian_tables(res, precision, heat=heat)
        if show_masks:
            from rich.text import Text

            items = items[:1] + [Text(""), rj.masks_table(res, precision)] + items[1:]
        emit(items, Format.table, output)


@app.command()
@guarded
def hessian(
    program: ProgramArg = None,
    of: OfOpt = None,
    wrt: WrtOpt = None,
    method: Annotated[
        HessianMethod,
        typer.Option(
            "--method",
            "-m",
            help="batched: the gradient's one-hot rows in one pass per input "
            "(reverse over reverse); rows: one pass per row; numeric: central differences of the "
            "gradient.",
        ),
    ] = HessianMethod.batched,
    heat: HeatOpt = False,
    expr: ExprOpt = None,
    set_: SetOpt = None,
    seed: SeedOpt = 0,
    dtype: DTypeOpt = DType.float64,
    format: FormatOpt = None,
    output: OutputOpt = None,
    precision: PrecisionOpt = None,
) -> None:
    """Second derivatives H(i, j) = d2 OF / d WRT_i d WRT_j of a one-element OF, by
    differentiating the gradient (create_graph). One block per pair of --wrt; the output
    reports how far from symmetric H is (rounding only).

    Example: gradcli hessian -e 'x = tensor([1., 2.], requires_grad=True); y = (x ** 3).sum()'
    """
    fmt = _format(format, output)
    _check_combination(fmt, heat=heat)
    from ...analysis import hessian as lib
    from ..render import common as render
    from ..render import jacobian as rj

    r = load_run(program, expr, set_, seed, dtype)
    bar = _ProgressBar(f"hessian ({method.value})")
    try:
        res = lib.hessian(
            r, of, wrt, method.value, progress=bar, seed=seed, text=fmt is not OutFormat.npy
        )
    finally:
        bar.close()
    if fmt is OutFormat.json:
        _emit_text(render.to_json(res.to_json()), output)
    elif fmt is OutFormat.npy:
        arrays = {(a if a == b else f"{a},{b}"): v for (a, b), v in res.blocks.items()}
        _save_npy(arrays, res.array if len(res.wrt) == 1 else res.matrix, output)
    elif fmt is OutFormat.csv:
        _notes(rj.hessian_notes(res))
        _emit_text(rj.hessian_csv(res, precision), output)
    elif fmt is OutFormat.plain:
        _notes(rj.hessian_notes(res))
        _emit_text(rj.hessian_heat_plain(res) if heat else rj.hessian_plain(res, precision), output)
    else:
        emit(rj.hessian_tables(res, precision, heat=heat), Format.table, output)


@app.command()
@guarded
def hvp(
    program: ProgramArg = None,
    v: Annotated[
        str | None,
        typer.Option(
            "--v",
            "-v",
            help="The vector: one value per input element (all --wrt in order): "
            "1,0,0 | [[1,0],[0,1]] (one --wrt) | ones | onehot:K | @FILE.",
        ),
    ] = None,
    of: OfOpt = None,
    wrt: WrtOpt = None,
    expr: ExprOpt = None,
    set_: SetOpt = None,
    seed: SeedOpt = 0,
    dtype: DTypeOpt = DType.float64,
    format: FormatOpt = None,
    output: OutputOpt = None,
    precision: PrecisionOpt = None,
) -> None:
    """The Hessian-vector product H v of a one-element OF without building H: a backward pass
    with create_graph for the gradient, then one more for d<gradient, v>/dWRT.

    Example: gradcli hvp -e 'x = tensor([1., 2.], requires_grad=True); y = (x ** 3).sum()' --v 1,1
    """
    fmt = _format(format, output)
    if v is None:
        raise UsageError(
            "hvp needs the vector: --v VALUES",
            hint="one value per input element, e.g. --v 1,0,0, or --v ones",
        )
    import numpy as np

    from ...analysis import api
    from ...analysis import hessian as lib
    from ..render import common as render
    from ..render import jacobian as rj
    from ..values import parse_values

    r = load_run(program, expr, set_, seed, dtype)
    of_name, _ = api.resolve_of(r, of)
    targets = api.resolve_wrt(r, list(dict.fromkeys(wrt)) if wrt else None)
    shapes = [tuple(t.shape) for _, t in targets]
    total = sum(int(np.prod(s)) for s in shapes)
    shape = shapes[0] if len(shapes) == 1 else (total,)
    names = ", ".join(f"`{n}`" for n, _ in targets)
    what = names if len(targets) == 1 else f"{names} (together)"
    vec, note = parse_values(v, shape, what="--v", dtype=np.dtype(np.float64), target=what)
    res = lib.hvp(r, of_name, [n for n, _ in targets], vec.reshape(-1), seed=seed)
    if fmt is OutFormat.json:
        obj = res.to_json()
        if note:
            obj["note"] = note
        _emit_text(render.to_json(obj), output)
    elif fmt is OutFormat.npy:
        arrays = dict(res.hvp)
        single = (
            res.array
            if len(arrays) == 1
            else np.concatenate([a.reshape(-1) for a in arrays.values()])
        )
        _save_npy(arrays, single, output)
    elif fmt is OutFormat.csv:
        _emit_text(rj.hvp_csv(res, precision), output)
    elif fmt is OutFormat.plain:
        if note:
            _notes([note])
        _notes([f"`{res.of}` does not depend on `{n}`: its part is zero" for n in res.unused])
        _emit_text(rj.hvp_plain(res, precision), output)
    else:
        emit(rj.hvp_tables(res, precision), Format.table, output)
