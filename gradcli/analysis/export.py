"""`gradcli export --to torch`: the recorded graph of an output replayed as a PyTorch script.

The script creates the inputs with the values the program computed them with, recomputes the
output with PyTorch operations, runs `backward` with the same upstream gradient and prints the
gradients, so gradcli's numbers can be checked in real PyTorch. It is generated from gradcli's
graph (one line per recorded operation), not from the program's text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.tensor import Tensor
from ..lang.program import Run


def _lit(a: Any) -> str:
    """A Python literal for an array (exact: floats round-trip through repr)."""
    return repr(np.asarray(a).tolist())


def _index(idx: tuple) -> str:
    parts = []
    for k in idx:
        if k is None:
            parts.append("None")
        elif k is Ellipsis:
            parts.append("...")
        elif isinstance(k, slice):
            s = "" if k.start is None else str(k.start)
            s += ":" + ("" if k.stop is None else str(k.stop))
            if k.step is not None:
                s += f":{k.step}"
            parts.append(s)
        elif isinstance(k, np.ndarray):
            parts.append(f"torch.tensor({_lit(k)})")
        else:
            parts.append(repr(int(k)))
    return ", ".join(parts) if parts else "()"


def _dim(p: dict[str, Any]) -> str:
    d = p.get("dim")
    return "" if d is None else f", dim={d!r}"


def _reduce(fn: str) -> Callable[[list[str], dict[str, Any]], str]:
    def f(a: list[str], p: dict[str, Any]) -> str:
        if p.get("dim") is None:
            return f"torch.{fn}({a[0]})"
        return f"torch.{fn}({a[0]}{_dim(p)}, keepdim={bool(p.get('keepdim'))})"

    return f


def _extreme(a: list[str], p: dict[str, Any]) -> str:
    fn = p.get("fn", "max")
    if p.get("dim") is None:
        return f"torch.{fn}({a[0]})"
    return f"torch.{fn}({a[0]}{_dim(p)}, keepdim={bool(p.get('keepdim'))}).values"


def _weight(p: dict[str, Any]) -> str:
    w = p.get("weight")
    if w is None:
        return ""
    return f", weight=torch.tensor({_lit(w)}, dtype=torch.{np.asarray(w).dtype.name})"


_ELEMENTWISE = (
    "exp",
    "log",
    "log1p",
    "sqrt",
    "abs",
    "sin",
    "cos",
    "tan",
    "tanh",
    "sigmoid",
    "relu",
    "sign",
    "erf",
)


def _elementwise(name: str) -> Callable[[list[str], dict[str, Any]], str]:
    return lambda a, p: f"torch.{name}({a[0]})"


# How each registry operation is written in PyTorch: (input expressions, params) -> code.
TORCH: dict[str, Callable[[list[str], dict[str, Any]], str]] = {
    "neg": lambda a, p: f"-{a[0]}",
    "add": lambda a, p: f"{a[0]} + {a[1]}",
    "sub": lambda a, p: f"{a[0]} - {a[1]}",
    "mul": lambda a, p: f"{a[0]} * {a[1]}",
    "div": lambda a, p: f"{a[0]} / {a[1]}",
    "pow": lambda a, p: f"{a[0]} ** {a[1]}",
    "pow_scalar": lambda a, p: f"{a[0]} ** {p['p']!r}",
    "rpow_scalar": lambda a, p: f"{p['base']!r} ** {a[0]}",
    "matmul": lambda a, p: f"{a[0]} @ {a[1]}",
    "maximum": lambda a, p: f"torch.maximum({a[0]}, {a[1]})",
    "minimum": lambda a, p: f"torch.minimum({a[0]}, {a[1]})",
    "where": lambda a, p: f"torch.where({a[0]}.bool(), {a[1]}, {a[2]})",
    **{n: _elementwise(n) for n in _ELEMENTWISE},
    "leaky_relu": lambda a, p: f"F.leaky_relu({a[0]}, {p.get('negative_slope', 0.01)!r})",
    "softplus": lambda a, p: (
        f"F.softplus({a[0]}, beta={p.get('beta', 1.0)!r}, threshold={p.get('threshold', 20.0)!r})"
    ),
    "gelu": lambda a, p: f"F.gelu({a[0]}, approximate={p.get('approximate', 'none')!r})",
    "clamp": lambda a, p: f"torch.clamp({a[0]}, min={p.get('min')!r}, max={p.get('max')!r})",
    "sum": _reduce("sum"),
    "mean": _reduce("mean"),
    "prod": _reduce("prod"),
    "max": _extreme,
    "min": _extreme,
    "norm": lambda a, p: (
        f"torch.linalg.vector_norm({a[0]}, ord={p.get('p', 2.0)!r}"
        f"{_dim(p)}, keepdim={bool(p.get('keepdim'))})"
    ),
    "logsumexp": lambda a, p: (
        f"torch.logsumexp({a[0]}, dim={p['dim']!r}, keepdim={bool(p.get('keepdim'))})"
    ),
    "softmax": lambda a, p: f"torch.softmax({a[0]}, dim={p['dim']})",
    "log_softmax": lambda a, p: f"torch.log_softmax({a[0]}, dim={p['dim']})",
    "var": lambda a, p: (
        f"torch.var({a[0]}{_dim(p)}, correction={p.get('correction', 1)!r}, "
        f"keepdim={bool(p.get('keepdim'))})"
    ),
    "std": lambda a, p: (
        f"torch.std({a[0]}{_dim(p)}, correction={p.get('correction', 1)!r}, "
        f"keepdim={bool(p.get('keepdim'))})"
    ),
    "reshape": lambda a, p: f"{a[0]}.reshape({tuple(p['shape'])!r})",
    "permute": lambda a, p: f"{a[0]}.permute({tuple(int(i) for i in p['perm'])!r})",
    "expand": lambda a, p: f"{a[0]}.expand({tuple(p['shape'])!r})",
    "index": lambda a, p: f"{a[0]}[{_index(p['idx'])}]",
    "cat": lambda a, p: f"torch.cat([{', '.join(a)}], dim={p.get('dim', 0)})",
    "stack": lambda a, p: f"torch.stack([{', '.join(a)}], dim={p.get('dim', 0)})",
    "astype": lambda a, p: f"{a[0]}.to(torch.{np.dtype(p['dtype']).name})",
    "mse_loss": lambda a, p: f"F.mse_loss({a[0]}, {a[1]}, reduction={p.get('reduction')!r})",
    "binary_cross_entropy": lambda a, p: (
        f"F.binary_cross_entropy({a[0]}, {a[1]}{_weight(p)}, reduction={p.get('reduction')!r})"
    ),
    "nll_loss": lambda a, p: (
        f"F.nll_loss({a[0]}, torch.tensor({_lit(p['target'])})"
        f"{_weight(p)}, reduction={p.get('reduction')!r}, "
        f"ignore_index={p.get('ignore_index', -100)!r})"
    ),
}

# Operations that only appear inside gradients recorded with create_graph=True.
INTERNAL = ("index_put",)

_DTYPES = {
    "float64": "torch.float64",
    "float32": "torch.float32",
    "int64": "torch.int64",
    "bool": "torch.bool",
}


def to_torch(
    r: Run,
    of_name: str,
    of: Tensor,
    wrt: list[tuple[str, Tensor]],
    grad: np.ndarray | None,
    source: str,
) -> str:
    """A runnable PyTorch script that replays `of`'s graph and prints d<grad, of>/d(wrt)."""
    names = {id(t): n for n, t in r.tensors.items()}
    order: list[Tensor] = []
    seen: dict[int, bool] = {}
    stack: list[tuple[Tensor, bool]] = [(of, False)]
    while stack:  # iterative post-order: inputs before the node that uses them
        t, expanded = stack.pop()
        if id(t) in seen:
            continue
        if expanded or t.node is None:
            seen[id(t)] = True
            order.append(t)
            continue
        stack.append((t, True))
        for x in reversed(t.node.inputs):
            if id(x) not in seen:
                stack.append((x, False))
    used: dict[str, bool] = {}
    expr: dict[int, str] = {}
    lines = [
        f"# Generated by `gradcli export --to torch` from {source}: the graph of `{of_name}`",
        "# replayed in PyTorch, with the values the program computed it with.",
        "import torch",
        "import torch.nn.functional as F",
        "",
    ]

    def var(t: Tensor, fallback: str) -> str:
        n = names.get(id(t), fallback)
        while n in used:
            n = n + "_"
        used[n] = True
        return n

    for k, t in enumerate(order):
        dt = _DTYPES.get(t.dtype.name, f"torch.{t.dtype.name}")
        if t.node is None:
            if t.ndim == 0 and not t.requires_grad and id(t) not in names:
                expr[id(t)] = f"torch.tensor({_lit(t.data)}, dtype={dt})"
                continue
            n = var(t, f"c{k}")
            rg = ", requires_grad=True" if t.requires_grad else ""
            lines.append(f"{n} = torch.tensor({_lit(t.data)}, dtype={dt}{rg})")
            expr[id(t)] = n
            continue
        op = t.node.op
        if op.kind == "custom":
            raise GradcliError(
                f"export: `{op.name}` has a user-defined gradient, which cannot be translated",
                hint="export a program without custom gradients, or write the "
                "torch.autograd.Function in the generated script by hand",
            )
        if op.name not in TORCH:
            raise GradcliError(
                f"export: the operation `{op.name}` has no PyTorch translation",
                hint="it only appears in graphs recorded with create_graph=True",
            )
        params = dict(t.node.params)
        if op.name == "logsumexp" and params.get("dim") is None:
            params["dim"] = tuple(range(t.node.inputs[0].ndim))
        code = TORCH[op.name]([expr[id(x)] for x in t.node.inputs], params)
        n = var(t, f"t{k}")
        lines.append(f"{n} = {code}  # {t.node.name()}")
        expr[id(t)] = n
    out = expr[id(of)]
    lines.append("")
    if grad is None:
        lines.append(f"{out}.backward()")
    else:
        g_dt = _DTYPES.get(of.dtype.name, "torch.float64")
        lines.append(f"{out}.backward(torch.tensor({_lit(grad)}, dtype={g_dt}))")
    for n, t in wrt:
        if id(t) not in expr:
            lines.append(f"# `{n}` is not in the graph of `{of_name}`: its gradient is zero")
            continue
        v = expr[id(t)]
        if t.node is not None:
            # An intermediate: retain its grad (inserted right after it is computed).
            idx = next(i for i, line in enumerate(lines) if line.startswith(f"{v} = "))
            lines.insert(idx + 1, f"{v}.retain_grad()")
        lines.append(f"print({n!r}, {v}.grad)")
    return "\n".join(lines) + "\n"
