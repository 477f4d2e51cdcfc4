"""The operation catalog (`gradcli ops`, the README table): every user-facing name and the
records it is built on, each record with its signature, rule, derivative (from its sympy form)
and convention at kinks.

The name -> record link is the surface's declarations (`gradcli.surface.declare`): a name
declared as a record's own operation is listed on that record's row (its main record first,
the others "also"); a name declared as a composition is listed with the records it composes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.op import Op
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


def _keys(name: str, where: tuple[str, ...]) -> list[str]:
    """The catalog's spellings of a declared name: `sum` for torch.sum / x.sum / F.sum,
    `nn.Sigmoid`, `linalg.det`, `+` for `__add__`, `.T`; none for the in-place forms
    (`exp_` is `exp` in place: listed once, as `exp`)."""
    out = []
    for w in where:
        if w == "Tensor_":
            continue
        if name.startswith("__"):
            if name in OPERATOR_NAMES:
                out.append(OPERATOR_NAMES[name])
        elif w in ("torch", "Tensor", "F"):
            if not name.endswith("_"):
                out.append(name)
        elif w == "property":
            out.append(f".{name}")
        else:  # nn, linalg
            out.append(f"{w}.{name}")
    return out


def declared() -> tuple[dict[str, list[Op]], set[str], set[str]]:
    """Every user-facing name of a differentiable operation -> its records (the main one
    first), the names declared as compositions, and the names with no derivative."""
    from ..ops import REGISTRY
    from ..surface.names import NAMES

    out: dict[str, list[Op]] = {}
    compositions: set[str] = set()
    plain: set[str] = set()
    for n in NAMES:
        for key in _keys(n.name, n.where):
            ops = [REGISTRY[r] for r in n.records if REGISTRY[r].kind != "internal"]
            if not ops:
                plain.add(key)
                continue
            have = out.setdefault(key, [])
            have += [o for o in ops if not any(o is h for h in have)]
            if n.composition:
                compositions.add(key)
    order = sorted(out.items(), key=lambda kv: (not kv[0][0].isalpha(), kv[0].lower()))
    return dict(order), compositions, plain - set(out)


def user_names() -> dict[str, list[Op]]:
    """Every user-facing name of a differentiable operation -> the records it is built on (its
    main record first), as declared: torch.X / x.X / F.X by their name, the operators (`+`,
    `@`, `x[...]`, `.T`), `nn.Sigmoid`, `linalg.det`."""
    return declared()[0]


def compositions() -> set[str]:
    """The user-facing names declared as compositions of records (`flip`, `cross_entropy`)."""
    return declared()[1]


# Names that return no differentiable result (argmax, the comparisons, constructors...).
NOT_DIFFERENTIABLE = frozenset({"argmax", "argmin"})


def main_record(user: str, ops: list[Op]) -> Op:
    """The record a user-facing name is mainly about: the first it declares."""
    return ops[0]


@dataclass
class OpInfo:
    """One record of the registry, for `gradcli ops`."""

    name: str
    names: list[str]  # the user-facing names whose main record this is
    also: list[str]  # user-facing names built on it too (compositions, other forms of a name)
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
    from ..ops import REGISTRY

    names, composed, _ = declared()
    main: dict[str, list[str]] = {}
    also: dict[str, list[str]] = {}
    for user, ops in names.items():
        first = None if user in composed else main_record(user, ops)
        if first is not None:
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
