"""`gradcli check`, `gradcli symbolic`, `gradcli ops` (registered on the app of `cli`).

Only typer and `cli` are imported here at start-up; NumPy, sympy, rich and the library are
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
    OfOpt,
    OutputOptions,
    ProgramOptions,
    WrtOpt,
    _Name,
)


class Against(str, Enum):
    torch = "torch"


@command(
    help="Check the gradients: the engine's Jacobian (reverse and forward mode) against "
    "central finite differences, sympy's exact derivatives and, with --against torch, PyTorch. "
    "Exit status 0 when all agree, 3 when any disagrees (the worst entry is shown: which "
    "output, which input, each method's value, and the custom gradient to blame).",
    example="gradcli check examples/mlp.py",
    short="The gradients against finite differences, sympy and PyTorch.",
    formats=("table", "plain", "json"),
)
def check(
    p: ProgramOptions,
    *,
    of: OfOpt = None,
    wrt: WrtOpt = None,
    eps: Annotated[
        float,
        typer.Option(
            "--eps",
            help="Finite-difference step: h = eps * max(1, |x|), central differences in float64.",
            metavar="EPS",
            rich_help_panel=METHOD,
        ),
    ] = 1e-6,
    atol: Annotated[
        float,
        typer.Option(
            "--atol",
            help="Absolute tolerance of comparisons with finite differences.",
            metavar="TOL",
            rich_help_panel=METHOD,
        ),
    ] = 1e-6,
    rtol: Annotated[
        float,
        typer.Option(
            "--rtol",
            help="Relative tolerance of comparisons with finite differences.",
            metavar="TOL",
            rich_help_panel=METHOD,
        ),
    ] = 1e-5,
    against: Annotated[
        Against | None,
        typer.Option(
            "--against",
            help="Also compare with PyTorch's autograd. This EXECUTES THE PROGRAM TEXT AS "
            "PYTHON with the real torch (the only gradcli command that runs program text): use "
            "it only on programs you trust.",
            metavar="torch",
            rich_help_panel=METHOD,
            show_default=False,
        ),
    ] = None,
    sympy: Annotated[
        bool,
        typer.Option(
            "--sympy/--no-sympy",
            help="Include sympy's exact derivatives (when the tensors are small enough).",
            rich_help_panel=METHOD,
        ),
    ] = True,
    o: OutputOptions,
    c: CommonOptions,
) -> None:
    from ...analysis.check import check as run_check
    from ...base.errors import UsageError
    from ..inputs import load_program
    from ..output import emit
    from ..render.verify import check_doc

    if not eps > 0:
        raise UsageError(f"--eps must be positive, got {eps}")
    for name, tol in (("--atol", atol), ("--rtol", rtol)):
        if not tol >= 0:
            raise UsageError(f"{name} must be a number >= 0, got {tol}")
    prog, overrides = load_program(p)
    res = run_check(
        prog,
        of,
        list(wrt) if wrt else None,
        eps=eps,
        atol=atol,
        rtol=rtol,
        against=against.value if against else None,
        use_sympy=sympy,
        overrides=overrides,
        dtype=p.dtype.value,
        seed=p.seed,
    )
    doc = check_doc(res, o.precision)
    emit(doc, o)
    if doc.exit_code:
        raise typer.Exit(doc.exit_code)


@command(
    help="Derivative formulas (sympy): d OF[i] / d WRT[j] for every element, from the "
    "program's graph; every leaf element x[0,1] is the symbol x_0_1. For a one-element output, "
    "also the gradient as formulas.",
    example="gradcli symbolic examples/mlp.py --wrt b2 --at",
    short="Derivative formulas (sympy), also as LaTeX.",
    formats=("table", "plain", "json"),
)
def symbolic(
    p: ProgramOptions,
    *,
    of: OfOpt = None,
    wrt: WrtOpt = None,
    latex: Annotated[
        bool, typer.Option("--latex", help="Formulas as LaTeX.", rich_help_panel=OUTPUT)
    ] = False,
    simplify: Annotated[
        bool,
        typer.Option(
            "--simplify/--no-simplify",
            help="Simplify the formulas (best effort, bounded in time).",
            rich_help_panel=METHOD,
        ),
    ] = True,
    at: Annotated[
        bool,
        typer.Option(
            "--at",
            help="Evaluate the formulas at the program's values next to the engine's numbers "
            "(exit 3 if any differs).",
            rich_help_panel=METHOD,
        ),
    ] = False,
    zeros: Annotated[
        bool,
        typer.Option(
            "--zeros", help="Also list the derivatives that are 0.", rich_help_panel=OUTPUT
        ),
    ] = False,
    o: OutputOptions,
    c: CommonOptions,
) -> None:
    from ...analysis.symbolic import symbolic as run_symbolic
    from ..inputs import load_program
    from ..output import emit
    from ..render.verify import symbolic_doc

    prog, overrides = load_program(p)
    res = run_symbolic(
        prog,
        of,
        list(wrt) if wrt else None,
        simplify_=simplify,
        at=at,
        overrides=overrides,
        dtype=p.dtype.value,
        seed=p.seed,
    )
    doc = symbolic_doc(res, latex=latex, zeros=zeros, at=at, precision=o.precision)
    emit(doc, o)
    if doc.exit_code:
        raise typer.Exit(doc.exit_code)


@command(
    help="The supported operations: the names that reach each one, its signature, its "
    "derivative (from its sympy form where it has one, else its vector-Jacobian rule) and its "
    "convention at kinks (relu at 0, abs at 0, max ties, clamp at the bounds).",
    example="gradcli ops relu",
    short="The supported operations and their derivatives.",
    formats=("table", "plain", "json"),
)
def ops(
    name: Annotated[
        str | None,
        typer.Argument(
            help="One operation: a name as a program writes it (sum, relu, @, x[...], "
            "nn.Sigmoid, F.relu) or a registry record (pow_scalar).",
            metavar="NAME",
            show_default=False,
            click_type=_Name(),
        ),
    ] = None,
    *,
    o: OutputOptions,
    c: CommonOptions,
) -> None:
    from ...analysis.catalog import op_catalog, user_names
    from ...base.errors import GradcliError, suggest
    from ..output import emit
    from ..render.verify import ops_detail_doc, ops_doc

    infos = op_catalog()
    if name is None:
        emit(ops_doc(infos), o)
        return
    names = user_names()
    by_record = {i.name: i for i in infos}
    if name in names:
        from ...analysis.catalog import main_record

        ops_ = names[name]
        first = main_record(name, ops_)
        order = [first] + [op for op in ops_ if op is not first]
        chosen = [by_record[op.name] for op in order if op.name in by_record]
    elif name in by_record:
        chosen = [by_record[name]]
    else:
        raise GradcliError(
            f"no operation named `{name}`",
            hint=suggest(name, list(names) + list(by_record)) or "gradcli ops lists them all",
        )
    emit(ops_detail_doc(name, chosen), o)
