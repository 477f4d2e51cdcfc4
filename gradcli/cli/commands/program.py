"""`gradcli run`, `forward`, `backward`, `graph`, `export`: the commands on one program run.

Only typer is imported here at start-up; NumPy, rich and the library are imported inside the
commands.
"""

from __future__ import annotations

import sys
from enum import Enum
from typing import Annotated

import typer

from ..app import app, guarded
from ..inputs import load_run, read_program, upstream_gradient
from ..options import (
    DType,
    DTypeOpt,
    ExprOpt,
    Format,
    FormatOpt,
    OfOpt,
    OutputOpt,
    PrecisionOpt,
    ProgramArg,
    SeedOpt,
    SetOpt,
    WrtOpt,
)
from ..output import emit, resolve_format, warn_nonfinite


@app.command()
@guarded
def run(
    program: ProgramArg = None,
    expr: ExprOpt = None,
    set_: SetOpt = None,
    seed: SeedOpt = 0,
    dtype: DTypeOpt = DType.float32,
) -> None:
    """Execute the program: its print() and backward() statements, as Python would.

    As PyTorch: float32 unless the program asks otherwise, random numbers from PyTorch's
    generator seeded with --seed (0) until the program calls torch.manual_seed.

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
    from ...analysis import api
    from ..render import common as render

    r = load_run(program, expr, set_, seed, dtype)
    fmt = resolve_format(format, output)
    infos = api.forward(r, of, text=True)
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

    from ...analysis import api
    from ..render import common as render

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
    from ...analysis import api
    from ...analysis import graph as g
    from ..render import common as render

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

    from ...analysis import api
    from ...analysis.export import to_torch

    r = load_run(program, expr, set_, seed, dtype)
    of_name, out = api.resolve_of(r, of)
    targets = api.resolve_wrt(r, wrt)
    g, _ = upstream_gradient(grad, out)
    if g is None and out.data.size != 1:
        api.implicit_gradient(of_name, out)
    text, name = read_program(program, expr)
    emit(to_torch(r, of_name, out, targets, g, name), Format.plain, output)
