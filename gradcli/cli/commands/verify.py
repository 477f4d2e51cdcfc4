"""`gradcli check`, `gradcli symbolic`, `gradcli ops` (registered on the app of `cli`).

Only typer and `cli` are imported here at start-up; NumPy, sympy, rich and the library are
imported inside the commands.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from ..app import app, guarded
from ..inputs import load_program
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
from ..output import emit, resolve_format

EXIT_DISAGREE = 3


class Against(str, Enum):
    torch = "torch"


@app.command()
@guarded
def check(
    program: ProgramArg = None,
    of: OfOpt = None,
    wrt: WrtOpt = None,
    eps: Annotated[
        float,
        typer.Option(
            "--eps",
            help="Finite-difference step: h = eps * max(1, |x|), central differences in float64.",
        ),
    ] = 1e-6,
    atol: Annotated[
        float,
        typer.Option("--atol", help="Absolute tolerance of comparisons with finite differences."),
    ] = 1e-6,
    rtol: Annotated[
        float,
        typer.Option("--rtol", help="Relative tolerance of comparisons with finite differences."),
    ] = 1e-5,
    against: Annotated[
        Against | None,
        typer.Option(
            "--against",
            help="Also compare with PyTorch's autograd. This EXECUTES THE PROGRAM "
            "TEXT AS PYTHON with the real torch (the only gradcli command that runs program "
            "text): use it only on programs you trust.",
        ),
    ] = None,
    sympy: Annotated[
        bool,
        typer.Option(
            "--sympy/--no-sympy",
            help="Include sympy's exact derivatives (when the tensors are small enough).",
        ),
    ] = True,
    expr: ExprOpt = None,
    set_: SetOpt = None,
    seed: SeedOpt = 0,
    dtype: DTypeOpt = DType.float64,
    format: FormatOpt = None,
    output: OutputOpt = None,
    precision: PrecisionOpt = None,
) -> None:
    """Check the gradients: the engine's Jacobian (reverse and forward mode) against central
    finite differences, sympy's exact derivatives and, with --against torch, PyTorch.

    Exit status 0 when all agree, 3 when any disagrees (the worst entry is shown: which output,
    which input, each method's value, and the custom gradient to blame). A wrong f_backward /
    Function.backward is caught: finite differences and sympy differentiate f's forward.

    Example: gradcli check examples/mlp.py
    """
    from ...analysis.check import check as run_check
    from ..render import verify as render_verify
    from ..render.common import to_json

    if eps <= 0:
        from ...base.errors import UsageError

        raise UsageError(f"--eps must be positive, got {eps}")
    prog, overrides = load_program(program, expr, set_, seed, dtype)
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
        dtype=dtype.value,
        seed=seed,
    )
    fmt = resolve_format(format, output)
    if fmt is Format.json:
        emit(to_json(render_verify.check_json(res)), fmt, output)
    elif fmt is Format.plain:
        emit(render_verify.check_plain(res, precision), fmt, output)
    else:
        emit(render_verify.check_tables(res, precision), fmt, output)
    if not res.ok:
        raise typer.Exit(EXIT_DISAGREE)


@app.command()
@guarded
def symbolic(
    program: ProgramArg = None,
    of: OfOpt = None,
    wrt: WrtOpt = None,
    latex: Annotated[bool, typer.Option("--latex", help="Formulas as LaTeX.")] = False,
    simplify: Annotated[
        bool,
        typer.Option(
            "--simplify/--no-simplify", help="Simplify the formulas (best effort, bounded in time)."
        ),
    ] = True,
    at: Annotated[
        bool,
        typer.Option(
            "--at",
            help="Evaluate the formulas at the program's values next to the engine's "
            "numbers (exit 3 if any differs).",
        ),
    ] = False,
    zeros: Annotated[
        bool, typer.Option("--zeros", help="Also list the derivatives that are 0.")
    ] = False,
    expr: ExprOpt = None,
    set_: SetOpt = None,
    seed: SeedOpt = 0,
    dtype: DTypeOpt = DType.float64,
    format: FormatOpt = None,
    output: OutputOpt = None,
    precision: PrecisionOpt = None,
) -> None:
    """Derivative formulas (sympy): d OF[i] / d WRT[j] for every element, from the program's
    graph; every leaf element x[0,1] is the symbol x_0_1. For a one-element output, also the
    gradient as formulas.

    Example: gradcli symbolic examples/mlp.py --wrt b2 --at
    """
    from ...analysis.symbolic import symbolic as run_symbolic
    from ..render import verify as render_verify
    from ..render.common import to_json

    prog, overrides = load_program(program, expr, set_, seed, dtype)
    res = run_symbolic(
        prog,
        of,
        list(wrt) if wrt else None,
        simplify_=simplify,
        at=at,
        overrides=overrides,
        dtype=dtype.value,
        seed=seed,
    )
    fmt = resolve_format(format, output)
    if fmt is Format.json:
        emit(to_json(render_verify.symbolic_json(res, zeros=True)), fmt, output)
    elif fmt is Format.plain:
        emit(
            render_verify.symbolic_plain(res, latex=latex, zeros=zeros, precision=precision),
            fmt,
            output,
        )
    else:
        emit(
            render_verify.symbolic_tables(res, latex=latex, zeros=zeros, precision=precision),
            fmt,
            output,
        )
    if at and not res.ok:
        raise typer.Exit(EXIT_DISAGREE)


@app.command()
@guarded
def ops(
    name: Annotated[
        str | None,
        typer.Argument(
            help="One operation: a name as a program writes it (sum, relu, @, x[...], "
            "nn.Sigmoid) or a registry record (pow_scalar).",
            show_default=False,
        ),
    ] = None,
    format: FormatOpt = None,
    output: OutputOpt = None,
) -> None:
    """The supported operations: the names that reach each one, its signature, its derivative
    (from its sympy form where it has one, else its vector-Jacobian rule) and its convention
    at kinks (relu at 0, abs at 0, max ties, clamp at the bounds).

    Example: gradcli ops relu
    """
    from ...analysis.catalog import op_catalog, user_names
    from ...base.errors import GradcliError, suggest
    from ..render import verify as render_verify
    from ..render.common import to_json

    infos = op_catalog()
    fmt = resolve_format(format, output)
    if name is not None:
        names = user_names()
        by_record = {i.name: i for i in infos}
        if name in names:
            from ...analysis.catalog import main_record

            ops_ = names[name]
            first = main_record(name, ops_)
            order = [first] + [o for o in ops_ if o is not first]
            chosen = [by_record[o.name] for o in order if o.name in by_record]
        elif name in by_record:
            chosen = [by_record[name]]
        else:
            raise GradcliError(
                f"no operation named `{name}`",
                hint=suggest(name, list(names) + list(by_record)) or "gradcli ops lists them all",
            )
        if fmt is Format.json:
            emit(to_json({"name": name, "ops": [i.to_json() for i in chosen]}), fmt, output)
        else:
            emit(render_verify.ops_detail_plain(chosen), Format.plain, output)
        return
    if fmt is Format.json:
        emit(to_json(render_verify.ops_json(infos)), fmt, output)
    elif fmt is Format.plain:
        emit(render_verify.ops_plain(infos), fmt, output)
    else:
        emit(render_verify.ops_tables(infos), fmt, output)
