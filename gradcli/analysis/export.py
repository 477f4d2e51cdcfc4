"""`gradcli export --to torch`: the recorded graph of an output replayed as a PyTorch script.

The script creates the inputs with the values the program computed them with, recomputes the
output with PyTorch operations, runs `backward` with the same upstream gradient and prints the
gradients, so gradcli's numbers can be checked in real PyTorch. It is generated from gradcli's
graph (one line per recorded operation), not from the program's text.
"""

from __future__ import annotations

import keyword
import math
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.graph import ancestors, leaves
from ..core.op import Node, producer, write_call
from ..core.tensor import Tensor
from ..lang.program import Run


def _lit(v: Any) -> str:
    """Python source for a value: exact (floats round-trip through repr) and inert for any
    input. Non-finite floats become `float('inf')` (a bare `inf` is a NameError), NumPy scalars
    plain Python numbers (NumPy 2 writes `np.float64(1.0)`), strings their escaped repr."""
    if isinstance(v, np.ndarray | np.generic):
        v = v.tolist()
    if v is None or isinstance(v, bool):
        return repr(v)
    if isinstance(v, int):
        return repr(int(v))
    if isinstance(v, float):
        if math.isfinite(v):
            return repr(float(v))
        return "torch.nan" if math.isnan(v) else "torch.inf" if v > 0 else "-torch.inf"
    if isinstance(v, str):
        return _ascii(v)
    if isinstance(v, list | tuple):
        items = ", ".join(_lit(x) for x in v)
        if isinstance(v, tuple):
            return f"({items},)" if len(v) == 1 else f"({items})"
        return f"[{items}]"
    raise GradcliError(f"export: cannot write a value of type {type(v).__name__} as PyTorch")


def _ascii(text: str) -> str:
    """A string literal with everything outside printable ASCII escaped (`ascii`): no line
    break, NUL or bidirectional control character can reach the generated file."""
    return ascii(str(text))


def _comment(text: str) -> str:
    """Text for a `#` comment: the string literal's escapes, without the quotes."""
    return _ascii(text)[1:-1]


def _ident(name: str, fallback: str) -> str:
    """A tensor's name as a Python variable in the script (the fallback when it is not a plain
    identifier or collides with a name the script itself uses)."""
    if name.isidentifier() and name.isascii() and not keyword.iskeyword(name):
        if name not in ("torch", "F", "print", "float"):
            return name
    return fallback


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


class Torch:
    """The PyTorch dialect of the records' export text (`Op.to_torch`, `write_call`): what a
    record's text may use besides its inputs and params."""

    __slots__ = ("inputs", "node", "out")

    def __init__(self, node: Node) -> None:
        self.node = node  # the recorded application being written
        self.inputs = node.inputs  # its input tensors
        self.out = node.out  # its result

    lit = staticmethod(_lit)
    index = staticmethod(_index)

    @staticmethod
    def array(a: Any) -> str:
        """A constant tensor with its values and dtype."""
        a = np.asarray(a)
        return f"torch.tensor({_lit(a)}, dtype=torch.{a.dtype.name})"

    @staticmethod
    def dim(p: dict[str, Any]) -> str:
        """`, dim=...` for a `dim` param, nothing for None."""
        d = p.get("dim")
        return "" if d is None else f", dim={_lit(d)}"

    @staticmethod
    def reduction(fn: str, x: str, p: dict[str, Any]) -> str:
        """`fn(x)` over everything, or `fn(x, dim=..., keepdim=...)`."""
        if p.get("dim") is None:
            return f"{fn}({x})"
        return f"{fn}({x}{Torch.dim(p)}, keepdim={bool(p.get('keepdim'))})"


def _translations() -> dict[str, Any]:
    from ..ops import REGISTRY

    return {name: op.to_torch for name, op in REGISTRY.items() if op.to_torch is not None}


# How each registry operation is written in PyTorch (its record's `to_torch`).
TORCH = _translations()


def _internal() -> tuple[str, ...]:
    from ..ops import REGISTRY

    return tuple(name for name, op in REGISTRY.items() if op.kind == "internal")


# Operations that only appear inside gradients recorded with create_graph=True.
INTERNAL = _internal()

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
    # The one walk: every input before the operations that use it, in the program's order.
    nodes = ancestors([of])
    order: list[Any] = leaves(nodes, of) + list(nodes)
    # Every value is written into the script as text: refuse a script of millions of numbers
    # before writing any (it would take minutes, and gigabytes as one string).
    from .api import check_text

    check_text(
        sum(int(t.data.size) for t in order if not isinstance(t, Node))
        + (0 if grad is None else int(np.size(grad))),
        "the exported script",
        hint="export a program with smaller tensors",
    )
    used: dict[str, bool] = {}
    expr: dict[Any, str] = {}  # id(leaf or constant), or a node (a version of its output)

    def expr_of(x: Tensor, user: Node) -> str:
        p = x.node
        if p is not None and p.seq >= user.seq:
            p = producer(x, user.seq)  # changed in place after `user` read it
        return expr[p] if p is not None and p in expr else expr[id(x)]

    lines = [
        f"# Generated by `gradcli export --to torch` from {_comment(source)}: the graph of "
        f"`{_comment(of_name)}`",
        "# replayed in PyTorch, with the values the program computed it with.",
        "import torch",
        "import torch.nn.functional as F",
        "",
    ]

    def var(t: Tensor, fallback: str) -> str:
        n = _ident(names.get(id(t), fallback), fallback)
        while n in used:
            n = n + "_"
        used[n] = True
        return n

    for k, item in enumerate(order):
        node = item if isinstance(item, Node) else None
        t = item.out if node is not None else item
        dt = _DTYPES.get(t.dtype.name, f"torch.{t.dtype.name}")
        if node is None:
            if t.ndim == 0 and not t.requires_grad and id(t) not in names:
                expr[id(t)] = f"torch.tensor({_lit(t.data)}, dtype={dt})"
                continue
            n = var(t, f"c{k}")
            rg = ", requires_grad=True" if t.requires_grad else ""
            lines.append(f"{n} = torch.tensor({_lit(t.data)}, dtype={dt}{rg})")
            expr[id(t)] = n
            continue
        op = node.op
        if op.kind == "custom":
            raise GradcliError(
                f"export: `{op.name}` has a user-defined gradient, which cannot be translated",
                hint="export a program without custom gradients, or write the "
                "torch.autograd.Function in the generated script by hand",
            )
        if op.to_torch is None:
            raise GradcliError(
                f"export: the operation `{op.name}` has no PyTorch translation",
                hint="it only appears in graphs recorded with create_graph=True",
            )
        args = [expr_of(x, node) for x in node.inputs]
        code = write_call(op.to_torch, Torch(node), args, dict(node.params))
        if t.node is node:
            n = var(t, f"t{k}")
        else:  # an old version of a tensor changed in place: not the program's name
            n = f"t{k}"
            while n in used:
                n = n + "_"
            used[n] = True
        lines.append(f"{n} = {code}  # {node.name()}")
        expr[node] = n
        if t.node is node:
            expr[id(t)] = n
    out = expr[of.node] if of.node is not None and of.node in expr else expr[id(of)]
    lines.append("")
    if grad is None:
        lines.append(f"{out}.backward()")
    else:
        g_dt = _DTYPES.get(of.dtype.name, "torch.float64")
        lines.append(f"{out}.backward(torch.tensor({_lit(grad)}, dtype={g_dt}))")
    for n, t in wrt:
        if id(t) not in expr:
            lines.append(
                f"# `{_comment(n)}` is not in the graph of `{_comment(of_name)}`: "
                "its gradient is zero"
            )
            continue
        v = expr[id(t)]
        if t.node is not None:
            # An intermediate: retain its grad (inserted right after it is computed).
            idx = next(i for i, line in enumerate(lines) if line.startswith(f"{v} = "))
            lines.insert(idx + 1, f"{v}.retain_grad()")
        lines.append(f"print({_lit(n)}, {v}.grad)")
    return "\n".join(lines) + "\n"
