"""`gradcli export --to torch`: the recorded graph of an output replayed as a PyTorch script.

The script creates the inputs with the values the program computed them with, recomputes the
output with PyTorch operations, runs `backward` with the same upstream gradient and prints the
gradients, so gradcli's numbers can be checked in real PyTorch. It is generated from gradcli's
graph (one line per recorded operation), not from the program's text.
"""

from __future__ import annotations

import keyword
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.graph import ancestors, leaves
from ..core.op import Node, producer
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


def _scatter_args(a: list[str], p: dict[str, Any]) -> str:
    idx = np.asarray(p["index"])
    index = f"torch.tensor({_lit(idx.reshape(-1))}, dtype=torch.int64).reshape({_lit(idx.shape)})"
    return f"{int(p['dim'])}, {index}, {a[1]}"


def _dim(p: dict[str, Any]) -> str:
    d = p.get("dim")
    return "" if d is None else f", dim={_lit(d)}"


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
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "asinh",
    "acosh",
    "atanh",
    "exp2",
    "expm1",
    "log2",
    "log10",
    "rsqrt",
    "reciprocal",
    "floor",
    "ceil",
    "trunc",
    "frac",
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
    "pow_scalar": lambda a, p: f"{a[0]} ** {_lit(p['p'])}",
    "rpow_scalar": lambda a, p: f"{_lit(p['base'])} ** {a[0]}",
    "matmul": lambda a, p: f"{a[0]} @ {a[1]}",
    "maximum": lambda a, p: f"torch.maximum({a[0]}, {a[1]})",
    "minimum": lambda a, p: f"torch.minimum({a[0]}, {a[1]})",
    "where": lambda a, p: f"torch.where({a[0]}.bool(), {a[1]}, {a[2]})",
    **{n: _elementwise(n) for n in _ELEMENTWISE},
    "round": lambda a, p: (
        f"torch.round({a[0]}, decimals={p['decimals']})"
        if p.get("decimals")
        else f"torch.round({a[0]})"
    ),
    "nan_to_num": lambda a, p: (
        f"torch.nan_to_num({a[0]}, nan={_lit(p.get('nan', 0.0))}, "
        f"posinf={_lit(p.get('posinf'))}, neginf={_lit(p.get('neginf'))})"
    ),
    "atan2": lambda a, p: f"torch.atan2({a[0]}, {a[1]})",
    "remainder": lambda a, p: f"torch.remainder({a[0]}, {a[1]})",
    "rremainder": lambda a, p: f"torch.remainder({a[0]}, {a[1]})",
    "fmod": lambda a, p: f"torch.fmod({a[0]}, {a[1]})",
    "floor_divide": lambda a, p: f"torch.floor_divide({a[0]}, {a[1]})",
    "div_mode": lambda a, p: (
        f"torch.div({a[0]}, {a[1]}, rounding_mode={_lit(p.get('rounding_mode', 'floor'))})"
    ),
    "heaviside": lambda a, p: f"torch.heaviside({a[0]}, {a[1]})",
    "leaky_relu": lambda a, p: f"F.leaky_relu({a[0]}, {_lit(p.get('negative_slope', 0.01))})",
    "softplus": lambda a, p: (
        f"F.softplus({a[0]}, beta={_lit(p.get('beta', 1.0))}, "
        f"threshold={_lit(p.get('threshold', 20.0))})"
    ),
    "gelu": lambda a, p: f"F.gelu({a[0]}, approximate={_lit(p.get('approximate', 'none'))})",
    "clamp": lambda a, p: (
        f"torch.clamp({a[0]}, min={_lit(p.get('min'))}, max={_lit(p.get('max'))})"
    ),
    "sum": _reduce("sum"),
    "mean": _reduce("mean"),
    "prod": _reduce("prod"),
    "max": _extreme,
    "min": _extreme,
    "norm": lambda a, p: (
        f"torch.linalg.vector_norm({a[0]}, ord={_lit(p.get('p', 2.0))}"
        f"{_dim(p)}, keepdim={bool(p.get('keepdim'))})"
    ),
    "logsumexp": lambda a, p: (
        f"torch.logsumexp({a[0]}, dim={_lit(p['dim'])}, keepdim={bool(p.get('keepdim'))})"
    ),
    "softmax": lambda a, p: f"torch.softmax({a[0]}, dim={_lit(p['dim'])})",
    "log_softmax": lambda a, p: f"torch.log_softmax({a[0]}, dim={_lit(p['dim'])})",
    "var": lambda a, p: (
        f"torch.var({a[0]}{_dim(p)}, correction={_lit(p.get('correction', 1))}, "
        f"keepdim={bool(p.get('keepdim'))})"
    ),
    "std": lambda a, p: (
        f"torch.std({a[0]}{_dim(p)}, correction={_lit(p.get('correction', 1))}, "
        f"keepdim={bool(p.get('keepdim'))})"
    ),
    "cumsum": lambda a, p: (
        f"{a[0]}.flip({p['dim']}).cumsum({p['dim']}).flip({p['dim']})"
        if p.get("reverse")
        else f"torch.cumsum({a[0]}, dim={p['dim']})"
    ),
    "cumprod": lambda a, p: f"torch.cumprod({a[0]}, dim={p['dim']})",
    "logcumsumexp": lambda a, p: f"torch.logcumsumexp({a[0]}, dim={p['dim']})",
    "reshape": lambda a, p: f"{a[0]}.reshape({_lit(tuple(p['shape']))})",
    "permute": lambda a, p: f"{a[0]}.permute({_lit(tuple(int(i) for i in p['perm']))})",
    "expand": lambda a, p: f"{a[0]}.expand({_lit(tuple(p['shape']))})",
    "index": lambda a, p: f"{a[0]}[{_index(p['idx'])}]",
    "scatter": lambda a, p: f"{a[0]}.scatter({_scatter_args(a, p)})",
    "scatter_add": lambda a, p: f"{a[0]}.scatter_add({_scatter_args(a, p)})",
    "cat": lambda a, p: f"torch.cat([{', '.join(a)}], dim={p.get('dim', 0)})",
    "stack": lambda a, p: f"torch.stack([{', '.join(a)}], dim={p.get('dim', 0)})",
    "astype": lambda a, p: f"{a[0]}.to(torch.{np.dtype(p['dtype']).name})",
    "mse_loss": lambda a, p: f"F.mse_loss({a[0]}, {a[1]}, reduction={_lit(p.get('reduction'))})",
    "binary_cross_entropy": lambda a, p: (
        f"F.binary_cross_entropy({a[0]}, {a[1]}{_weight(p)}, reduction={_lit(p.get('reduction'))})"
    ),
    "nll_loss": lambda a, p: (
        f"F.nll_loss({a[0]}, torch.tensor({_lit(p['target'])})"
        f"{_weight(p)}, reduction={_lit(p.get('reduction'))}, "
        f"ignore_index={_lit(p.get('ignore_index', -100))})"
    ),
}


def einsum_equation(spec: tuple) -> str:
    """An einsum record's spec as an equation string ('ij,jk->ik')."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    ins, out = spec
    table: dict[int, str] = {}
    for ls in (*ins, out):
        for lab in ls:
            table.setdefault(lab, letters[len(table) % 52])
    terms = ["".join(table[lab] for lab in ls) for ls in ins]
    return ",".join(terms) + "->" + "".join(table[lab] for lab in out)


def _packed(call: str, a: str, n: int) -> str:
    """A decomposition's `n` results flattened and concatenated, as gradcli's record packs
    them (each result by its index: the script holds no comprehension)."""
    parts = ", ".join(f"{call}[{i}].reshape(*{a}.shape[:-2], -1)" for i in range(n))
    return f"torch.cat([{parts}], dim=-1)"


def _canvas(x: str, p: dict[str, Any], kernel: Any, value: str = "0.0") -> str:
    """`x` on the records' canvas (`ops.conv`): `pad` before each of the last d axes, and after
    them as far as the `out` windows reach (a negative width cuts), as F.pad writes it."""
    widths = []
    for i in reversed(range(len(kernel))):
        k, st, dl, lo, o = kernel[i], p["stride"][i], p["dilation"][i], p["pad"][i], p["out"][i]
        reach = (o - 1) * st + dl * (k - 1) + 1 - lo
        widths.append(f"{lo}, {reach} - {x}.shape[{i - len(kernel)}]")
    return f"F.pad({x}, [{', '.join(widths)}], value={value})"


def _conv(a: list[str], p: dict[str, Any]) -> str:
    d = len(p["out"])
    bias = a[2] if len(a) > 2 else "None"
    k = f"{a[1]}.shape[2:]"
    widths = []
    for i in reversed(range(d)):
        st, dl, lo, o = p["stride"][i], p["dilation"][i], p["pad"][i], p["out"][i]
        widths.append(
            f"{lo}, {(o - 1) * st + 1 - lo} + {dl} * ({k}[{i}] - 1) - {a[0]}.shape[{i - d}]"
        )
    return (
        f"F.conv{d}d(F.pad({a[0]}, [{', '.join(widths)}]), {a[1]}, {bias}, "
        f"stride={_lit(tuple(p['stride']))}, dilation={_lit(tuple(p['dilation']))}, "
        f"groups={p.get('groups', 1)})"
    )


def _max_pool(a: list[str], p: dict[str, Any]) -> str:
    k = tuple(p["kernel"])
    d = len(k)
    padded = _canvas(a[0], p, k, "-torch.inf")
    return (
        f"F.max_pool{d}d({padded}, {_lit(k)}, "
        f"{_lit(tuple(p['stride']))}, 0, {_lit(tuple(p['dilation']))})"
    )


def _avg_pool(a: list[str], p: dict[str, Any]) -> str:
    k, st, pad, out = (tuple(p[n]) for n in ("kernel", "stride", "pad", "out"))
    d = len(k)
    # ceil_mode: whether some axis has more windows than floor division gives (written out
    # axis by axis: the script holds no comprehension).
    ceil = " or ".join(
        f"({a[0]}.shape[{i - d}] + {2 * pad[i] - k[i]}) // {st[i]} + 1 != {out[i]}"
        for i in range(d)
    )
    div = p.get("divisor")
    return (
        f"F.avg_pool{d}d({a[0]}, {_lit(k)}, {_lit(st)}, {_lit(pad)}, ceil_mode={ceil}, "
        f"count_include_pad={bool(p.get('count_include_pad', True))}, "
        f"divisor_override={_lit(None if div is None else int(div))})"
    )


def _unfold(a: list[str], p: dict[str, Any]) -> str:
    k, out = tuple(p["kernel"]), tuple(p["out"])
    return (
        f"F.unfold({a[0]}, {_lit(k)}, dilation={_lit(tuple(p['dilation']))}, "
        f"padding={_lit(tuple(p['pad']))}, stride={_lit(tuple(p['stride']))})"
        f".reshape({a[0]}.shape[:-2] + {_lit(k + out)})"
    )


def _fold(a: list[str], p: dict[str, Any]) -> str:
    k, out = tuple(p["kernel"]), tuple(p["out"])
    cols = f"{a[0]}.expand({a[0]}.shape[:-4] + {_lit(k + out)})"
    return (
        f"F.fold({cols}.reshape({a[0]}.shape[:-5] + (-1, {math.prod(out)})), "
        f"{_lit(tuple(p['size']))}, {_lit(k)}, dilation={_lit(tuple(p['dilation']))}, "
        f"padding={_lit(tuple(p['pad']))}, stride={_lit(tuple(p['stride']))})"
    )


TORCH.update(
    {
        "einsum": lambda a, p: f"torch.einsum({_lit(einsum_equation(p['spec']))}, {', '.join(a)})",
        "inv": lambda a, p: f"torch.linalg.inv({a[0]})",
        "det": lambda a, p: f"torch.linalg.det({a[0]})",
        "slogdet": lambda a, p: f"torch.stack(torch.linalg.slogdet({a[0]}), dim=-1)",
        "solve": lambda a, p: f"torch.linalg.solve({a[0]}, {a[1]})",
        "cholesky": lambda a, p: f"torch.linalg.cholesky({a[0]})",
        "qr": lambda a, p: _packed(
            f"torch.linalg.qr({a[0]}, mode={_lit(p.get('mode', 'reduced'))})", a[0], 2
        ),
        "eigh": lambda a, p: _packed(
            f"torch.linalg.eigh({a[0]}, UPLO={_lit(p.get('uplo', 'L'))})", a[0], 2
        ),
        "svd": lambda a, p: _packed(
            f"torch.linalg.svd({a[0]}, full_matrices={bool(p.get('full_matrices', True))})",
            a[0],
            3,
        ),
        "svdvals": lambda a, p: f"torch.linalg.svdvals({a[0]})",
        "pinv": lambda a, p: (
            f"torch.linalg.pinv({a[0]}, atol={_lit(float(p.get('atol', 0.0)))}, "
            f"rtol={_lit(float(p.get('rtol', 0.0)))}, hermitian={bool(p.get('hermitian'))})"
        ),
        "cross": lambda a, p: f"torch.linalg.cross({a[0]}, {a[1]}, dim={p.get('dim', -1)})",
        "cdist": lambda a, p: (
            f"torch.cdist({a[0]}, {a[1]}, p={_lit(float(p.get('p', 2.0)))}, "
            "compute_mode='donot_use_mm_for_euclid_dist')"
        ),
        "elu": lambda a, p: (
            f"torch.ops.aten.elu({a[0]}, {_lit(p['alpha'])}, {_lit(p['scale'])}, "
            f"{_lit(p['input_scale'])})"
        ),
        "hardtanh": lambda a, p: f"F.hardtanh({a[0]}, {_lit(p['min_val'])}, {_lit(p['max_val'])})",
        "hardswish": lambda a, p: f"F.hardswish({a[0]})",
        "hardsigmoid": lambda a, p: f"F.hardsigmoid({a[0]})",
        "mish": lambda a, p: f"F.mish({a[0]})",
        "softshrink": lambda a, p: f"F.softshrink({a[0]}, {_lit(p['lambd'])})",
        "hardshrink": lambda a, p: f"F.hardshrink({a[0]}, {_lit(p['lambd'])})",
        "threshold": lambda a, p: (
            f"F.threshold({a[0]}, {_lit(p['threshold'])}, {_lit(p['value'])})"
        ),
        "conv": _conv,
        "max_pool": _max_pool,
        "avg_pool": _avg_pool,
        "unfold": _unfold,
        "fold": _fold,
    }
)

# Operations that only appear inside gradients recorded with create_graph=True.
INTERNAL = ("index_put", "conv_tx", "conv_tw")

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
        if op.name not in TORCH:
            raise GradcliError(
                f"export: the operation `{op.name}` has no PyTorch translation",
                hint="it only appears in graphs recorded with create_graph=True",
            )
        params = dict(node.params)
        if op.name == "logsumexp" and params.get("dim") is None:
            params["dim"] = tuple(range(node.inputs[0].ndim))
        code = TORCH[op.name]([expr_of(x, node) for x in node.inputs], params)
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
