"""`gradcli run`, `forward`, `backward`, `graph`, `export`: the commands on one program run.

A command parses its options, calls the library and hands a `Doc` of its result to
`output.emit`. Only typer is imported here at start-up; NumPy, rich and the library are
imported inside the commands.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from ..app import command
from ..options import (
    METHOD,
    OUTPUT,
    CommonOptions,
    Format,
    GradOpt,
    OfOpt,
    OutputOptions,
    ProgramOptions,
    RunProgramOptions,
    WrtOpt,
)


@command(
    help="Execute the program as Python would: its print() calls print, its backward() calls "
    "fill .grad. As PyTorch: float32 unless the program asks otherwise, random numbers from "
    "PyTorch's generator seeded with --seed (0) until the program calls torch.manual_seed.",
    example="gradcli run examples/seed_masks.py",
    short="Run the program as Python would: its prints, its backward calls.",
)
def run(p: RunProgramOptions, c: CommonOptions) -> None:
    from ..inputs import load_run
    from ..output import write_stdout

    load_run(p, echo=write_stdout)


@command(
    help="The values and shapes of the program's tensors (all of them, or those named by --of).",
    example="gradcli forward examples/sigmoid_net.py --of y_pred",
    short="The values and shapes of the program's tensors.",
    formats=("table", "plain", "json", "csv", "npy"),
)
def forward(
    p: ProgramOptions,
    *,
    of: Annotated[
        list[str] | None,
        typer.Option(
            "--of",
            help="Only these tensors (repeatable; default: every named tensor).",
            metavar="NAME",
            rich_help_panel=METHOD,
            show_default=False,
        ),
    ] = None,
    o: OutputOptions,
    c: CommonOptions,
) -> None:
    from ...analysis import api
    from ..inputs import load_run
    from ..output import emit, explain_nonfinite, resolve_format
    from ..render.common import forward_doc

    fmt = resolve_format(o.format, o.output)
    r = load_run(p)
    # Every number written as text is budgeted before the work (a table elides: no budget).
    infos = api.forward(r, of, text=fmt not in (Format.npy, Format.table))
    bad = [r.tensors[i.name] for i in infos if i.name in r.tensors]
    if bad:  # the last tensor shown: its graph holds the first non-finite value, if any
        explain_nonfinite(r, bad[-1], None, [i.value for i in infos])
    emit(forward_doc(infos), o)


@command(
    help="Gradients from one backward pass: d<grad, OF>/dWRT, what PyTorch's "
    "OF.backward(gradient=grad) leaves in WRT.grad.",
    example="gradcli backward examples/seed_masks.py --of z -g 1,0,0,0",
    short="Gradients from one backward pass, with the upstream gradient you choose.",
    formats=("table", "plain", "json", "csv", "npy"),
)
def backward(
    p: ProgramOptions,
    *,
    of: OfOpt = None,
    wrt: WrtOpt = None,
    grad: GradOpt = None,
    trace: Annotated[
        bool,
        typer.Option(
            "--trace",
            help="The chain rule step by step: each node, the gradient it received and what it "
            "passed on.",
            rich_help_panel=OUTPUT,
        ),
    ] = False,
    o: OutputOptions,
    c: CommonOptions,
) -> None:
    from ...analysis import api
    from ..inputs import load_run, upstream_gradient
    from ..output import emit, explain_nonfinite, warn_nonfinite
    from ..render.common import backward_doc, default_notes

    r = load_run(p)
    of_name, out = api.resolve_of(r, of)
    g, note = upstream_gradient(grad, out, of_name)
    result = api.backward(r, of_name, wrt, g, trace=trace)
    for n, gr in result.grads.items():
        warn_nonfinite(f"the gradient of `{n}`", gr)
    explain_nonfinite(r, out, result.grad_output, result.grads.values())
    doc = backward_doc(result, note, trace)
    doc.views[:0] = default_notes(
        of=None if of else of_name, wrt=None if wrt else list(result.grads), run=r
    )
    emit(doc, o)


@command(
    help="The computation graph of an output: a tree from the output down to the leaves "
    "(--dot for Graphviz, --mermaid for Mermaid); --values and --grads add each node's value "
    "and its gradient from one backward pass (micrograd's picture, for tensors).",
    example="gradcli graph examples/mlp.py --values --grads",
    short="The computation graph: a tree, Graphviz or Mermaid.",
    formats=("table", "plain", "json", "dot", "mermaid"),
)
def graph(
    p: ProgramOptions,
    *,
    of: OfOpt = None,
    values: Annotated[
        bool,
        typer.Option("--values", help="Each node's value.", rich_help_panel=OUTPUT),
    ] = False,
    grads: Annotated[
        bool,
        typer.Option(
            "--grads",
            help="Each node's gradient: d<grad, OF>/d(node), from one backward pass with --grad "
            "(default: ones for a one-element output).",
            rich_help_panel=OUTPUT,
        ),
    ] = False,
    grad: GradOpt = None,
    dot: Annotated[
        bool,
        typer.Option(
            "--dot", help="Graphviz text (the same as --format dot).", rich_help_panel=OUTPUT
        ),
    ] = False,
    mermaid: Annotated[
        bool,
        typer.Option(
            "--mermaid",
            help="A Mermaid flowchart (the same as --format mermaid).",
            rich_help_panel=OUTPUT,
        ),
    ] = False,
    o: OutputOptions,
    c: CommonOptions,
) -> None:
    from ...analysis import api
    from ...analysis import graph as g
    from ..inputs import load_run, upstream_gradient
    from ..output import emit
    from ..render.common import default_notes
    from ..render.graph import graph_doc

    if dot and mermaid:
        from ...base.errors import UsageError

        raise UsageError("--dot and --mermaid ask for two formats")
    if dot:
        o.format = _only_format(o, Format.dot, "--dot")
    if mermaid:
        o.format = _only_format(o, Format.mermaid, "--mermaid")
    if grad is not None and not grads:
        from ...base.errors import UsageError

        raise UsageError("--grad is the upstream gradient of --grads", hint="add --grads")
    r = load_run(p)
    name, out = api.resolve_of(r, of)
    nodes = g.build(r, out)
    if values or grads:
        up, _ = upstream_gradient(grad, out, name)
        if grads and up is None:
            up = api.implicit_gradient(name, out)
        g.with_values(nodes, out, up, values=values, grads=grads)
    doc = graph_doc(name, nodes, o.precision)
    doc.views[:0] = default_notes(of=None if of else name, run=r)
    emit(doc, o)


def _only_format(o: OutputOptions, fmt: Format, flag: str) -> Format:
    from ...base.errors import UsageError

    if o.format is not None and o.format is not fmt:
        raise UsageError(f"{flag} and --format {o.format.value} ask for two formats")
    return fmt


class ExportTarget(str, Enum):
    torch = "torch"
    jax = "jax"


@command(
    help="Equivalent code: the output's graph replayed with torch operations, then backward "
    "with the same upstream gradient and the gradients printed; --to jax writes it as a JAX "
    "function of the inputs, differentiated with jax.vjp (jax.jacrev for the Jacobian).",
    example="gradcli export examples/mlp.py --to jax",
    short="The same computation as a PyTorch or JAX script.",
)
def export(
    p: ProgramOptions,
    *,
    to: Annotated[
        ExportTarget,
        typer.Option(
            "--to",
            help="The framework to write: torch or jax.",
            metavar="FRAMEWORK",
            rich_help_panel=OUTPUT,
        ),
    ] = ExportTarget.torch,
    of: OfOpt = None,
    wrt: WrtOpt = None,
    grad: GradOpt = None,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="Write the script to FILE (- for standard output).",
            metavar="FILE",
            rich_help_panel=OUTPUT,
            show_default=False,
        ),
    ] = None,
    c: CommonOptions,
) -> None:
    from ...analysis import api
    from ..inputs import load_run, upstream_gradient
    from ..output import emit
    from ..views import Custom, Doc

    r = load_run(p)
    of_name, out = api.resolve_of(r, of)
    targets = api.resolve_wrt(r, wrt)
    g, _ = upstream_gradient(grad, out, of_name)
    if g is None and out.data.size != 1:
        api.implicit_gradient(of_name, out)
    if to is ExportTarget.jax:
        from ...analysis.export_jax import to_jax as write
    else:
        from ...analysis.export import to_torch as write
    text = write(r, of_name, out, targets, g, r.program.source.name)
    emit(Doc("export", [Custom(None, text)]), OutputOptions(Format.plain, output))
