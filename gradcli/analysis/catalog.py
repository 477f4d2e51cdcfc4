"""The operation catalog (`gradcli ops`, the README table): every user-facing name and the
records it reaches, each record with its signature, rule, derivative (from its sympy form) and
convention at kinks.

The name -> record link is still inferred by scanning the surface functions' bytecode
(`reached_ops`): the seam for one declaration per user-facing name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.op import Op
from ..core.tensor import Tensor
from .symbolic import ELEMENTWISE_KINDS, Simplifier, sym_number, sympy_module

# Operator methods of Tensor, by the name a user writes.
OPERATOR_NAMES = {
    "__add__": "+",
    "__radd__": "+",
    "__sub__": "-",
    "__rsub__": "-",
    "__mul__": "*",
    "__rmul__": "*",
    "__truediv__": "/",
    "__rtruediv__": "/",
    "__pow__": "**",
    "__rpow__": "**",
    "__floordiv__": "//",
    "__rfloordiv__": "//",
    "__mod__": "%",
    "__rmod__": "%",
    "__matmul__": "@",
    "__rmatmul__": "@",
    "__neg__": "-x",
    "__abs__": "abs(x)",
    "__getitem__": "x[...]",
}


# Names that reach an op's record in their code but return no differentiable result.
NOT_DIFFERENTIABLE = frozenset({"argmax", "argmin"})


def _scanned(module: str) -> bool:
    """Whether `reached_ops` looks into a function of `module`: the records' layer and the
    PyTorch surface's own functions (not its compositions, which reach several records and
    have no row of their own in the catalog)."""
    return module.startswith(("gradcli.ops.", "gradcli.surface.")) and module not in (
        "gradcli.surface.composite",
        "gradcli.surface.printing",
    )


def reached_ops(
    fn: Any, _memo: dict[int, list[Op]] | None = None, _active: set[int] | None = None
) -> list[Op]:
    """The op records a `gradcli.functional` function applies, found in its code: the
    records it names (`O.sum_`), holds in its closure, or reaches through the functional
    helpers it calls; in the order met (the main record first)."""
    import dis
    import types

    memo = {} if _memo is None else _memo
    active = set() if _active is None else _active
    if isinstance(fn, Op):
        return [fn]
    if isinstance(fn, property):
        fn = fn.fget
    code = getattr(fn, "__code__", None)
    if code is None or not _scanned(getattr(fn, "__module__", "")):
        return []
    if id(fn) in memo:
        return memo[id(fn)]
    if id(fn) in active or len(active) > 12:  # recursion, or too deep to matter
        return []
    active.add(id(fn))
    found: list[Op] = []

    def add(ops: list[Op]) -> None:
        for o in ops:
            if not any(o is f for f in found):
                found.append(o)

    for cell in fn.__closure__ or ():
        try:
            add(reached_ops(cell.cell_contents, memo, active))
        except ValueError:  # an empty cell
            continue
    globs = fn.__globals__

    def walk(co: types.CodeType) -> None:
        prev: Any = None
        for ins in dis.get_instructions(co):
            if ins.opname == "LOAD_GLOBAL":
                v = globs.get(ins.argval)
                prev = v
                if isinstance(v, Op):
                    add([v])
                elif callable(v) and not isinstance(v, type):
                    add(reached_ops(v, memo, active))
                continue
            if ins.opname in ("LOAD_ATTR", "LOAD_METHOD") and isinstance(prev, types.ModuleType):
                v = getattr(prev, str(ins.argval), None)
                if isinstance(v, Op):
                    add([v])
            prev = None
        for c in co.co_consts:
            if isinstance(c, types.CodeType):
                walk(c)

    walk(code)
    active.discard(id(fn))
    memo[id(fn)] = found
    return found


def user_names() -> dict[str, list[Op]]:
    """Every user-facing name of a differentiable operation -> the records it reaches: the
    keys of `functional.FUNCTIONS`, `METHODS` and `NN_FUNCTIONAL` (F.X),
    the operators (`+`, `@`, `x[...]`, `.T`),
    and the `torch.nn` modules (`nn.Sigmoid`)."""
    from ..surface import names as fn

    out: dict[str, list[Op]] = {}
    memo: dict[int, list[Op]] = {}

    def put(name: str, f: Any) -> None:
        if name in NOT_DIFFERENTIABLE:
            return
        ops = [o for o in reached_ops(f, memo) if o.kind != "internal"]
        if ops:
            have = out.setdefault(name, [])
            for o in ops:
                if not any(o is h for h in have):
                    have.append(o)

    for name, f in {**fn.METHODS, **fn.FUNCTIONS, **fn.NN_FUNCTIONAL}.items():
        if name not in fn.INPLACE:  # `exp_` is `exp` in place: listed once, as `exp`
            put(name, f)
    for dunder, name in OPERATOR_NAMES.items():
        f = getattr(Tensor, dunder, None)
        if f is not None:
            put(name, f)
    for attr in ("T", "mT"):
        put(f".{attr}", getattr(Tensor, attr, None))
    for name, make in getattr(fn, "MODULES", {}).items():
        put(f"nn.{name}", make)
    for name, f in getattr(fn, "LINALG", {}).items():
        put(f"linalg.{name}", f)
    return dict(sorted(out.items(), key=lambda kv: (not kv[0][0].isalpha(), kv[0].lower())))


@dataclass
class OpInfo:
    """One record of the registry, for `gradcli ops`."""

    name: str
    names: list[str]  # the user-facing names whose main record this is
    also: list[str]  # user-facing names that reach it too (composites, aliases of others)
    kind: str
    signature: str
    torch_name: str
    vjp: str  # the rule, as the record writes it
    derivative: list[tuple[str, str]]  # (d/dx, formula) from the sympy form, where there is one
    derivative_latex: list[tuple[str, str]]
    kink: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "op": self.name,
            "names": self.names,
            "also": self.also,
            "kind": self.kind,
            "signature": self.signature,
            "grad_fn": self.torch_name,
            "vjp": self.vjp,
            "derivative": {k: v for k, v in self.derivative},
            "derivative_latex": {k: v for k, v in self.derivative_latex},
            "kink": self.kink,
        }


def main_record(user: str, ops: list[Op]) -> Op:
    """The record a user-facing name is mainly about, among those its code reaches: the one
    named like it (`pow`), else one whose name is part of it (`amin` -> min, `rsqrt` ->
    sqrt, `nn.Tanh` -> tanh), else the first reached (`square` -> pow_scalar)."""
    u = user.lower().removeprefix("nn.")
    for o in ops:
        if o.name == u:
            return o
    for o in ops:
        if o.name in u:
            return o
    return ops[0]


def _derivatives(
    sp: Any, op: Op, simp: Simplifier
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """d/dx (and d/dy) of an elementwise op's sympy form, with symbols for its required
    params (and for bounds that default to None, as clamp's)."""
    import inspect

    if op.sym is None or op.kind not in ELEMENTWISE_KINDS:
        return [], []
    try:
        params = list(inspect.signature(op.sym).parameters.values())[1:]
    except (TypeError, ValueError):
        return [], []
    n_in = 2 if op.kind == "binary" else 1
    if op.name == "where":
        return [], []
    variables = [sp.Symbol(v, real=True) for v in ("x", "y")[:n_in]]
    kwargs: dict[str, Any] = {}
    for p in params[n_in:]:
        if p.default is inspect.Parameter.empty or p.default is None:
            kwargs[p.name] = sp.Symbol("c" if p.name == "base" else p.name, real=True)
        elif isinstance(p.default, float):
            kwargs[p.name] = sym_number(sp, p.default)
    try:
        expr = op.sym(sp, *variables, **kwargs)
        # A DiracDelta (sign's derivative) is 0 wherever the function is differentiable,
        # and gradcli takes it as 0 at the jump too (see the op's kink).
        out = [
            (f"d/d{v}", simp(sp.diff(expr, v).replace(sp.DiracDelta, lambda *a: 0)))
            for v in variables
        ]
    except Exception:  # noqa: BLE001 - a form sympy cannot differentiate: leave it out
        return [], []
    return [(k, sp.sstr(e)) for k, e in out], [(k, sp.latex(e)) for k, e in out]


def op_catalog(*, derivatives: bool = True) -> list[OpInfo]:
    """The registry's records that a user can reach, each with its names, signature, rule,
    derivative (from the sympy form) and kink convention."""
    from ..core.op import REGISTRY

    names = user_names()
    main: dict[str, list[str]] = {}
    also: dict[str, list[str]] = {}
    for user, ops in names.items():
        first = main_record(user, ops)
        main.setdefault(first.name, []).append(user)
        for o in ops:
            if o is not first:
                also.setdefault(o.name, []).append(user)
    sp = sympy_module() if derivatives else None
    # factor_terms only: sympy's simplify adds nothing to these one-line derivatives.
    simp = Simplifier(sp, max_ops=0) if sp is not None else None
    infos = []
    for name, op in REGISTRY.items():
        if op.kind == "internal" or (name not in main and name not in also):
            continue
        d, dl = _derivatives(sp, op, simp) if sp is not None and simp is not None else ([], [])
        infos.append(
            OpInfo(
                name,
                main.get(name, []),
                also.get(name, []),
                op.kind,
                op.signature or (f"{name}(x, y)" if op.kind == "binary" else f"{name}(x)"),
                op.torch_name,
                op.formula,
                d,
                dl,
                op.kink,
            )
        )
    return infos
