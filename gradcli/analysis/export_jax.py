"""`gradcli export --to jax`: the recorded graph of an output as a JAX function of its inputs.

The script defines `f(inputs...)` that recomputes the output with `jax.numpy` (one line per
recorded operation, the constants closed over with the values the program computed them
with), takes the vector-Jacobian product with `jax.vjp` and the same upstream gradient, and
prints the gradients; `jax.jacrev` gives the whole Jacobian. So a program explored in gradcli
runs, unchanged in meaning, on an engine for accelerators and clusters.

The text is generated from gradcli's graph, never from the program's text: names are
identifiers or replaced, strings are escaped literals, numbers exact (`repr` round-trips).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.graph import ancestors, leaves
from ..core.op import Node, producer, write_call
from ..core.tensor import Tensor
from ..lang.program import Run
from .export import _comment, _ident

# Names the script defines or imports: a tensor of the same name gets another.
RESERVED = ("jax", "jnp", "np", "f", "out", "vjp", "grads", "print", "zip", "name", "g")


def _lit(v: Any) -> str:
    """Python source for a value, exact and inert (non-finite floats as `jnp.inf`/`jnp.nan`)."""
    if isinstance(v, np.ndarray | np.generic):
        v = v.tolist()
    if v is None or isinstance(v, bool):
        return repr(v)
    if isinstance(v, int):
        return repr(int(v))
    if isinstance(v, float):
        if math.isfinite(v):
            return repr(float(v))
        return "jnp.nan" if math.isnan(v) else "jnp.inf" if v > 0 else "-jnp.inf"
    if isinstance(v, str):
        return ascii(v)
    if isinstance(v, list | tuple):
        items = ", ".join(_lit(x) for x in v)
        if isinstance(v, tuple):
            return f"({items},)" if len(v) == 1 else f"({items})"
        return f"[{items}]"
    raise GradcliError(f"export: cannot write a value of type {type(v).__name__} as JAX")


def _array(a: Any) -> str:
    a = np.asarray(a)
    return f"jnp.array({_lit(a)}, dtype=jnp.{a.dtype.name})"


def _axis(p: dict[str, Any]) -> str:
    d = p.get("dim")
    if d is None:
        return "None"
    return _lit(tuple(d) if isinstance(d, list | tuple) else int(d))


def _index(idx: tuple) -> str:
    parts = []
    for k in idx:
        if k is None:
            parts.append("None")
        elif k is Ellipsis:
            parts.append("...")
        elif isinstance(k, slice):
            s = "" if k.start is None else str(int(k.start))
            s += ":" + ("" if k.stop is None else str(int(k.stop)))
            if k.step is not None:
                s += f":{int(k.step)}"
            parts.append(s)
        elif isinstance(k, np.ndarray):
            parts.append(f"np.array({_lit(k)}, dtype=np.{k.dtype.name})")
        else:
            parts.append(repr(int(k)))
    return ", ".join(parts) if parts else "()"


class Jax:
    """The jax.numpy dialect of the records' export text (`Op.to_jax`, `write_call`): what a
    record's text may use besides its inputs and params."""

    __slots__ = ("inputs", "node", "out")

    def __init__(self, node: Node) -> None:
        self.node = node  # the recorded application being written
        self.inputs = node.inputs  # its input tensors
        self.out = node.out  # its result

    lit = staticmethod(_lit)
    array = staticmethod(_array)
    index = staticmethod(_index)
    axis = staticmethod(_axis)

    @staticmethod
    def keep(p: dict[str, Any]) -> str:
        return f"keepdims={bool(p.get('keepdim'))}"

    @staticmethod
    def reduction(fn: str, x: str, p: dict[str, Any]) -> str:
        """`fn(x, axis=..., keepdims=...)`."""
        return f"{fn}({x}, axis={_axis(p)}, {Jax.keep(p)})"

    @staticmethod
    def reduced(code: str, p: dict[str, Any]) -> str:
        """A loss's elementwise `code` reduced as its `reduction` param says."""
        r = p.get("reduction", "mean")
        if r == "none":
            return code
        return f"jnp.{'sum' if r == 'sum' else 'mean'}({code})"


def _translations() -> dict[str, Any]:
    from ..ops import REGISTRY

    return {name: op.to_jax for name, op in REGISTRY.items() if op.to_jax is not None}


# How each registry operation is written with jax.numpy (its record's `to_jax`).
JAX = _translations()


def to_jax(
    r: Run,
    of_name: str,
    of: Tensor,
    wrt: list[tuple[str, Tensor]],
    grad: np.ndarray | None,
    source: str,
) -> str:
    """A runnable JAX script: `f(*wrt)` recomputes `of`; `jax.vjp` with `grad` (default:
    ones, for a one-element output) gives d<grad, of>/d(wrt), printed as nested lists."""
    names = {id(t): n for n, t in r.tensors.items()}
    # Leaves are arguments of f; an intermediate gets an argument of zeros added to it (its
    # gradient is the intermediate's, and the gradients of the leaves still flow through it).
    args = {id(t) for _, t in wrt if t.node is None}
    nodes = ancestors([of])
    added: dict[int, str] = {}
    used: set[str] = set(RESERVED)
    # id(leaf or constant), or a node (one version of its output: a tensor changed in place
    # has several)
    expr: dict[Any, str] = {}

    def var(t: Tensor, fallback: str) -> str:
        n = _ident(names.get(id(t), fallback), fallback)
        while n in used:
            n = n + "_"
        used.add(n)
        return n

    def expr_of(x: Tensor, user: Node) -> str:
        p = x.node
        if p is not None and p.seq >= user.seq:
            p = producer(x, user.seq)  # changed in place after `user` read it
        return expr[p] if p is not None and p in expr else expr[id(x)]

    head = [
        f"# Generated by `gradcli export --to jax` from {_comment(source)}: the graph of "
        f"`{_comment(of_name)}`",
        "# as a JAX function of its inputs, with the values the program computed it with;",
        "# jax.vjp gives the gradients (jax.jacrev the whole Jacobian).",
        "import jax",
        "import jax.numpy as jnp",
        "import numpy as np",
        "",
        'jax.config.update("jax_enable_x64", True)  # float64, as gradcli computes',
        "",
    ]
    inputs: list[str] = []
    for n, t in wrt:
        if id(t) in args:
            v = var(t, "x")
            expr[id(t)] = v
            head.append(f"{v} = {_array(t.data)}")
        else:
            v = _ident(n, "x") + "_delta"
            while v in used:
                v += "_"
            used.add(v)
            added[id(t)] = v
            head.append(
                f"{v} = jnp.zeros({_lit(tuple(t.shape))}, dtype=jnp.{t.dtype.name})"
                f"  # added to `{_comment(n)}`: its gradient is `{_comment(n)}`'s"
            )
        inputs.append(v)
    consts: list[str] = []
    for x in leaves(nodes, of):
        if id(x) in expr:
            continue
        if x.ndim == 0 and id(x) not in names:
            expr[id(x)] = _array(x.data)
            continue
        c = var(x, f"c{len(consts)}")
        consts.append(f"{c} = {_array(x.data)}")
        expr[id(x)] = c
    body: list[str] = []
    for k, node in enumerate(nodes):
        op = node.op
        if op.kind == "custom":
            raise GradcliError(
                f"export: `{op.name}` has a user-defined gradient, which cannot be translated",
                hint="export a program without custom gradients, or write it with "
                "jax.custom_vjp in the generated script by hand",
            )
        if op.to_jax is None:
            raise GradcliError(
                f"export: the operation `{op.name}` has no JAX translation yet",
                hint="`gradcli export --to torch` writes the same graph for PyTorch",
            )
        t = node.out
        args = [expr_of(x, node) for x in node.inputs]
        code = write_call(op.to_jax, Jax(node), args, dict(node.params))
        if t.node is node:
            v = var(t, f"t{k}")
            if id(t) in added:
                code = f"{code} + {added[id(t)]}"
        else:  # an old version of a tensor changed in place: not the program's name
            v = f"t{k}"
            while v in used:
                v += "_"
            used.add(v)
        body.append(f"    {v} = {code}  # {node.name()}")
        expr[node] = v
        if t.node is node:
            expr[id(t)] = v
    if of.node is not None and of.node in expr:
        result = expr[of.node]
    elif id(of) in expr:
        result = expr[id(of)]
    else:  # the output is a constant
        result = _array(of.data)
    lines = head
    if consts:
        lines += ["", "# Constants of the graph.", *consts]
    lines += ["", "", f"def f({', '.join(inputs)}):", *body, f"    return {result}", ""]
    lines.append("")
    call = ", ".join(["f", *inputs])
    lines.append(f"out, vjp = jax.vjp({call})")
    if grad is None:
        lines.append("grads = vjp(jnp.ones_like(out))")
    else:
        lines.append(f"grads = vjp({_array(np.asarray(grad, dtype=of.dtype))})")
    wrt_names = [n for n, _ in wrt]
    lines.append(f"for name, g in zip({_lit(wrt_names)}, grads):")
    lines.append("    print(name, np.asarray(g).tolist())")
    argnums = _lit(tuple(range(len(inputs))))
    lines.append(
        f"# The whole Jacobian of `{_comment(of_name)}`: "
        f"jax.jacrev(f, argnums={argnums})({', '.join(inputs)})"
    )
    return "\n".join(lines) + "\n"
