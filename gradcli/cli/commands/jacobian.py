"""`gradcli jacobian`, `gradcli hessian`, `gradcli hvp` (registered on the app of `cli`).

Only typer and `cli` are imported here at start-up; NumPy, rich and the library are imported
inside the commands.

`npy` saves the array form: a Jacobian of one `--wrt` as of.shape + wrt.shape, a Hessian of one
as wrt.shape + wrt.shape. With several `--wrt`, `npy` saves the 2-D matrix of all blocks side by
side (columns in --wrt order; a Hessian's full square matrix), and an `--output` ending in
`.npz` saves each block's array form under its name (`x`, or `x,W` for a Hessian's block).
"""

from __future__ import annotations

import sys
import time
from enum import Enum
from typing import Annotated, Any

import typer

from ...base.errors import UsageError
from ..app import command
from ..options import (
    METHOD,
    OUTPUT,
    CommonOptions,
    Format,
    HeatOpt,
    OfOpt,
    OutputOptions,
    ProgramOptions,
    WrtOpt,
)


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


class _ProgressBar:
    """`progress(done, total)` for the library: a rich bar on stderr, shown only on a terminal
    and only once the work looks like taking more than a second. When its estimate is long
    (LONG seconds), it shows `hint` (a faster method), and says it again once it is done."""

    LONG = 3.0

    def __init__(self, what: str, hint: str | None = None) -> None:
        self.what = what
        self.hint = hint
        self.start = time.perf_counter()
        self.bar: Any = None
        self.task: Any = None
        self.long = False
        err = sys.stderr
        self.enabled = err is not None and err.isatty()

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        elapsed = time.perf_counter() - self.start
        if self.bar is None:
            if done >= total or elapsed < 0.2 or elapsed / done * total < 1.0:
                return
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

            what = self.what
            self.long = self.hint is not None and elapsed / done * total > self.LONG
            if self.long:
                what += f" ({self.hint})"
            self.bar = Progress(
                TextColumn(what),
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
            if self.long:
                from ..output import note

                took = time.perf_counter() - self.start
                note(f"that took {took:.1f} s: {self.hint}")


def _check_combination(o: OutputOptions, *, heat: bool, masks: bool, compare: bool) -> None:
    if heat and (masks or compare):
        raise UsageError("--heat cannot be combined with --show-masks or --compare")


@command(
    help="The full Jacobian J[i, j] = d OF_i / d WRT_j, row by row from one-hot masked backward "
    "passes (or another --method). One block per --wrt; an input OF does not depend on gives a "
    "zero block. Refused above GRADCLI_JACOBIAN_ENTRIES entries.",
    example="gradcli jacobian examples/mlp.py --of h --show-masks",
    short="The full Jacobian, one masked backward pass per row.",
    formats=("table", "plain", "json", "csv", "npy"),
)
def jacobian(
    p: ProgramOptions,
    *,
    of: OfOpt = None,
    wrt: WrtOpt = None,
    method: Annotated[
        Method,
        typer.Option(
            "--method",
            "-m",
            help="rows: one backward pass per output element (one-hot masks); batched: all "
            "masks in one pass; forward: forward mode, one tangent per input element; numeric: "
            "central differences (float64); auto: forward if the inputs are smaller than the "
            "output, else batched.",
            metavar="METHOD",
            rich_help_panel=METHOD,
        ),
    ] = Method.rows,
    show_masks: Annotated[
        bool,
        typer.Option(
            "--show-masks",
            help="Print each one-hot mask and the row it produced.",
            rich_help_panel=OUTPUT,
        ),
    ] = False,
    compare: Annotated[
        bool,
        typer.Option(
            "--compare",
            help="Run rows, batched, forward and numeric and print how far apart they are.",
            rich_help_panel=METHOD,
        ),
    ] = False,
    heat: HeatOpt = False,
    o: OutputOptions,
    c: CommonOptions,
) -> None:
    _check_combination(o, heat=heat, masks=show_masks, compare=compare)
    from ...analysis import jacobian as lib
    from ..inputs import load_run
    from ..output import emit, resolve_format
    from ..render.common import default_notes
    from ..render.jacobian import compare_doc, jacobian_doc

    fmt = resolve_format(o.format, o.output)  # a contradiction is refused before the work
    r = load_run(p)
    if compare:
        methods = ["rows", "batched", "forward", "numeric"]
        ref = method.value if method.value in methods else "rows"
        c = lib.compare(r, of, wrt, methods, reference=ref, seed=p.seed)
        emit(compare_doc(c), o)
        if not c.ok:
            raise typer.Exit(3)  # the methods disagree (as `gradcli check`)
        return
    faster = "--method batched makes the same rows in one pass"
    bar = _ProgressBar(f"jacobian ({method.value})", faster if method is Method.rows else None)
    try:
        res = lib.jacobian(
            r,
            of,
            wrt,
            method.value,
            show_masks=show_masks,
            progress=bar,
            seed=p.seed,
            text=fmt not in (Format.npy, Format.table),
        )
    finally:
        bar.close()
    _explain_rows(r, res.of, [b.array for b in res.blocks.values()])
    doc = jacobian_doc(res, heat=heat, masks=show_masks)
    doc.views[:0] = default_notes(
        of=None if of else res.of, wrt=None if wrt else list(res.blocks), run=r
    )
    emit(doc, o)


@command(
    help="Second derivatives H[i, j] = d2 OF / d WRT_i d WRT_j of a one-element OF, by "
    "differentiating the gradient (create_graph): the assembled matrix of every --wrt (--blocks: "
    "one block per pair), and how far from symmetric it is (rounding only).",
    example="gradcli hessian examples/mlp.py --wrt b1 --wrt b2",
    short="Second derivatives of a one-element output.",
    formats=("table", "plain", "json", "csv", "npy"),
)
def hessian(
    p: ProgramOptions,
    *,
    of: OfOpt = None,
    wrt: WrtOpt = None,
    method: Annotated[
        HessianMethod,
        typer.Option(
            "--method",
            "-m",
            help="batched: the gradient's one-hot rows in one pass per input (reverse over "
            "reverse); rows: one pass per row; numeric: central differences of the gradient.",
            metavar="METHOD",
            rich_help_panel=METHOD,
        ),
    ] = HessianMethod.batched,
    blocks: Annotated[
        bool,
        typer.Option(
            "--blocks",
            help="One matrix per pair of --wrt instead of the assembled matrix.",
            rich_help_panel=OUTPUT,
        ),
    ] = False,
    heat: HeatOpt = False,
    o: OutputOptions,
    c: CommonOptions,
) -> None:
    from ...analysis import hessian as lib
    from ..inputs import load_run
    from ..output import emit, resolve_format
    from ..render.common import default_notes
    from ..render.jacobian import hessian_doc

    fmt = resolve_format(o.format, o.output)
    r = load_run(p)
    bar = _ProgressBar(f"hessian ({method.value})")
    try:
        res = lib.hessian(
            r,
            of,
            wrt,
            method.value,
            progress=bar,
            seed=p.seed,
            text=fmt not in (Format.npy, Format.table),
        )
    finally:
        bar.close()
    doc = hessian_doc(res, heat=heat, blocks=blocks)
    doc.views[:0] = default_notes(
        of=None if of else res.of, wrt=None if wrt else [n for n, _ in res.wrt], run=r
    )
    emit(doc, o)


@command(
    help="The Hessian-vector product H v of a one-element OF without building H: a backward "
    "pass with create_graph for the gradient, then one more for d<gradient, v>/dWRT.",
    example="gradcli hvp examples/mlp.py --wrt b1 --v 1,0",
    short="A Hessian-vector product, without building the Hessian.",
    formats=("table", "plain", "json", "csv", "npy"),
)
def hvp(
    p: ProgramOptions,
    *,
    v: Annotated[
        str | None,
        typer.Option(
            "--v",
            "-v",
            help="The vector: one value per input element (all --wrt in order): 1,0,0 | "
            "[[1,0],[0,1]] (one --wrt) | ones | onehot:K | @FILE.",
            metavar="VALUES",
            rich_help_panel=METHOD,
            show_default=False,
        ),
    ] = None,
    of: OfOpt = None,
    wrt: WrtOpt = None,
    o: OutputOptions,
    c: CommonOptions,
) -> None:
    if v is None:
        raise UsageError(
            "hvp needs the vector: --v VALUES",
            hint="one value per input element, e.g. --v 1,0,0, or --v ones",
        )
    import numpy as np

    from ...analysis import api
    from ...analysis import hessian as lib
    from ..inputs import load_run
    from ..output import emit, resolve_format
    from ..render.common import default_notes
    from ..render.jacobian import hvp_doc
    from ..values import parse_values

    resolve_format(o.format, o.output)
    r = load_run(p)
    of_name, _ = api.resolve_of(r, of)
    targets = api.resolve_wrt(r, list(dict.fromkeys(wrt)) if wrt else None)
    shapes = [tuple(t.shape) for _, t in targets]
    total = sum(int(np.prod(s)) for s in shapes)
    shape = shapes[0] if len(shapes) == 1 else (total,)
    names = ", ".join(f"`{n}`" for n, _ in targets)
    what = names if len(targets) == 1 else f"{names} (together)"
    vec, note = parse_values(v, shape, what="--v", dtype=np.dtype(np.float64), target=what)
    res = lib.hvp(r, of_name, [n for n, _ in targets], vec.reshape(-1), seed=p.seed)
    doc = hvp_doc(res, note)
    doc.views[:0] = default_notes(
        of=None if of else of_name, wrt=None if wrt else [n for n, _ in targets], run=r
    )
    emit(doc, o)


def _explain_rows(r: Any, of: str, blocks: list[Any]) -> None:
    """A Jacobian with NaN or infinity: what made the first one, from the backward pass of
    the first row that holds one (its one-hot mask as the upstream gradient)."""
    import numpy as np

    from ..output import explain_nonfinite

    out = r.tensors.get(of)
    if out is None:
        return
    rows = np.zeros(out.data.size, dtype=bool)
    for b in blocks:
        m = np.asarray(b).reshape(out.data.size, -1)
        rows |= ~np.isfinite(m).all(axis=1)
    if not rows.any():
        return
    g = np.zeros(out.data.size, dtype=out.dtype)
    g[int(np.argmax(rows))] = 1
    explain_nonfinite(r, out, g.reshape(out.shape), blocks)
