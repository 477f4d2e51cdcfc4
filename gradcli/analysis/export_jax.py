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
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.graph import ancestors, leaves
from ..core.op import Node, producer
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


def _scatter(a: list[str], p: dict[str, Any], how: str) -> str:
    """`x.at[places].set(src[block])` / `.add(...)`: each index element's own coordinates, with
    coordinate `dim` its value; src's leading block of the index's shape."""
    idx = np.asarray(p["index"], dtype=np.int64)
    grids = list(np.indices(idx.shape, sparse=True))
    grids[int(p["dim"])] = idx
    places = tuple(np.ascontiguousarray(g) for g in np.broadcast_arrays(*grids))
    block = ", ".join(f":{n}" for n in idx.shape)
    return f"{a[0]}.at[{_index(places)}].{how}({a[1]}[{block}])"


def _reduced(code: str, p: dict[str, Any]) -> str:
    r = p.get("reduction", "mean")
    if r == "none":
        return code
    return f"jnp.{'sum' if r == 'sum' else 'mean'}({code})"


def _keep(p: dict[str, Any]) -> str:
    return f"keepdims={bool(p.get('keepdim'))}"


def _reduce(fn: str) -> Callable[[list[str], dict[str, Any], Any], str]:
    return lambda a, p, t: f"jnp.{fn}({a[0]}, axis={_axis(p)}, {_keep(p)})"


def _norm(a: list[str], p: dict[str, Any], t: Any) -> str:
    return (
        f"jnp.linalg.vector_norm({a[0]}, ord={_lit(float(p.get('p', 2.0)))}, "
        f"axis={_axis(p)}, {_keep(p)})"
    )


def _softplus(a: list[str], p: dict[str, Any], t: Any) -> str:
    beta, threshold = _lit(float(p.get("beta", 1.0))), _lit(float(p.get("threshold", 20.0)))
    # PyTorch's: log(1 + exp(beta x)) / beta, and x itself past the threshold.
    return (
        f"jnp.where({a[0]} * {beta} > {threshold}, {a[0]}, "
        f"jnp.logaddexp(0.0, {a[0]} * {beta}) / {beta})"
    )


def _bce(a: list[str], p: dict[str, Any], t: Any) -> str:
    # PyTorch clamps both logs at -100.
    code = (
        f"-({a[1]} * jnp.maximum(jnp.log({a[0]}), -100.0) + (1 - {a[1]}) * "
        f"jnp.maximum(jnp.log1p(-{a[0]}), -100.0))"
    )
    w = p.get("weight")
    if w is not None:
        code = f"{code} * {_array(w)}"
    return _reduced(code, p)


def _nll(a: list[str], p: dict[str, Any], t: Any) -> str:
    """-x[..., target] times the class weight (0 at ignore_index), reduced; the one-hot mask
    of the targets is a constant of the script."""
    x = t.inputs[0]  # `t`: the node
    target = np.asarray(p["target"])
    m = (np.arange(x.shape[-1]) == target[..., None]).astype(x.dtype)
    if p.get("weight") is not None:
        m = m * np.asarray(p["weight"], dtype=x.dtype)
    m = m * (target != p.get("ignore_index", -100))[..., None]
    code = f"-jnp.sum({_array(m)} * {a[0]}, axis=-1)"
    r = p.get("reduction", "mean")
    if r == "none":
        return code
    if r == "sum":
        return f"jnp.sum({code})"
    return f"jnp.sum({code}) / {_lit(float(m.sum()))}"


_ELEMENTWISE = {
    "exp": "jnp.exp",
    "log": "jnp.log",
    "log1p": "jnp.log1p",
    "sqrt": "jnp.sqrt",
    "abs": "jnp.abs",
    "sin": "jnp.sin",
    "cos": "jnp.cos",
    "tan": "jnp.tan",
    "tanh": "jnp.tanh",
    "sigmoid": "jax.nn.sigmoid",
    "relu": "jax.nn.relu",
    "sign": "jnp.sign",
    "erf": "jax.scipy.special.erf",
    "asin": "jnp.arcsin",
    "acos": "jnp.arccos",
    "atan": "jnp.arctan",
    "sinh": "jnp.sinh",
    "cosh": "jnp.cosh",
    "asinh": "jnp.arcsinh",
    "acosh": "jnp.arccosh",
    "atanh": "jnp.arctanh",
    "exp2": "jnp.exp2",
    "expm1": "jnp.expm1",
    "log2": "jnp.log2",
    "log10": "jnp.log10",
    "rsqrt": "jax.lax.rsqrt",
    "reciprocal": "jnp.reciprocal",
    "floor": "jnp.floor",
    "ceil": "jnp.ceil",
    "trunc": "jnp.trunc",
}


def _scan(fn: str) -> Callable[[list[str], dict[str, Any], Any], str]:
    """A running sum / product / logsumexp along one axis (a 0-d input is its own scan)."""

    def f(a: list[str], p: dict[str, Any], t: Any) -> str:
        if t.inputs[0].ndim == 0:
            return a[0]
        d = int(p["dim"])
        if p.get("reverse"):
            return f"jnp.flip({fn}(jnp.flip({a[0]}, {d}), axis={d}), {d})"
        return f"{fn}({a[0]}, axis={d})"

    return f


def _elementwise(fn: str) -> Callable[[list[str], dict[str, Any], Any], str]:
    return lambda a, p, t: f"{fn}({a[0]})"


# How each registry operation is written with jax.numpy: (inputs, params, node) -> code.
JAX: dict[str, Callable[[list[str], dict[str, Any], Any], str]] = {
    "neg": lambda a, p, t: f"-{a[0]}",
    "add": lambda a, p, t: f"{a[0]} + {a[1]}",
    "sub": lambda a, p, t: f"{a[0]} - {a[1]}",
    "mul": lambda a, p, t: f"{a[0]} * {a[1]}",
    "div": lambda a, p, t: f"{a[0]} / {a[1]}",
    "pow": lambda a, p, t: f"{a[0]} ** {a[1]}",
    "pow_scalar": lambda a, p, t: f"{a[0]} ** {_lit(p['p'])}",
    "rpow_scalar": lambda a, p, t: f"{_lit(p['base'])} ** {a[0]}",
    "matmul": lambda a, p, t: f"{a[0]} @ {a[1]}",
    "maximum": lambda a, p, t: f"jnp.maximum({a[0]}, {a[1]})",
    "minimum": lambda a, p, t: f"jnp.minimum({a[0]}, {a[1]})",
    "where": lambda a, p, t: f"jnp.where({a[0]}.astype(bool), {a[1]}, {a[2]})",
    **{n: _elementwise(fn) for n, fn in _ELEMENTWISE.items()},
    "frac": lambda a, p, t: f"({a[0]} - jnp.trunc({a[0]}))",
    "round": lambda a, p, t: f"jnp.round({a[0]}, {int(p.get('decimals', 0))})",
    "nan_to_num": lambda a, p, t: (
        f"jnp.nan_to_num({a[0]}, nan={_lit(p.get('nan', 0.0))}, "
        f"posinf={_lit(p.get('posinf'))}, neginf={_lit(p.get('neginf'))})"
    ),
    "atan2": lambda a, p, t: f"jnp.arctan2({a[0]}, {a[1]})",
    "remainder": lambda a, p, t: f"jnp.remainder({a[0]}, {a[1]})",
    "rremainder": lambda a, p, t: f"jnp.remainder({a[0]}, {a[1]})",
    "fmod": lambda a, p, t: f"jnp.fmod({a[0]}, {a[1]})",
    "floor_divide": lambda a, p, t: f"jnp.floor_divide({a[0]}, {a[1]})",
    "div_mode": lambda a, p, t: (
        f"jnp.floor_divide({a[0]}, {a[1]})"
        if p.get("rounding_mode", "floor") == "floor"
        else f"jnp.trunc({a[0]} / {a[1]})"
    ),
    "heaviside": lambda a, p, t: f"jnp.heaviside({a[0]}, {a[1]})",
    "leaky_relu": lambda a, p, t: (
        f"jax.nn.leaky_relu({a[0]}, {_lit(float(p.get('negative_slope', 0.01)))})"
    ),
    "softplus": _softplus,
    "gelu": lambda a, p, t: (
        f"jax.nn.gelu({a[0]}, approximate={p.get('approximate', 'none') == 'tanh'})"
    ),
    "clamp": lambda a, p, t: f"jnp.clip({a[0]}, {_lit(p.get('min'))}, {_lit(p.get('max'))})",
    "sum": _reduce("sum"),
    "mean": _reduce("mean"),
    "prod": _reduce("prod"),
    "max": lambda a, p, t: f"jnp.{p.get('fn', 'max')}({a[0]}, axis={_axis(p)}, {_keep(p)})",
    "min": lambda a, p, t: f"jnp.{p.get('fn', 'min')}({a[0]}, axis={_axis(p)}, {_keep(p)})",
    "norm": _norm,
    "logsumexp": lambda a, p, t: (
        f"jax.scipy.special.logsumexp({a[0]}, axis={_axis(p)}, {_keep(p)})"
    ),
    "softmax": lambda a, p, t: f"jax.nn.softmax({a[0]}, axis={_axis(p)})",
    "log_softmax": lambda a, p, t: f"jax.nn.log_softmax({a[0]}, axis={_axis(p)})",
    "var": lambda a, p, t: (
        f"jnp.var({a[0]}, axis={_axis(p)}, ddof={_lit(p.get('correction', 1))}, {_keep(p)})"
    ),
    "std": lambda a, p, t: (
        f"jnp.std({a[0]}, axis={_axis(p)}, ddof={_lit(p.get('correction', 1))}, {_keep(p)})"
    ),
    "cumsum": _scan("jnp.cumsum"),
    "cumprod": _scan("jnp.cumprod"),
    "logcumsumexp": _scan("jax.lax.cumlogsumexp"),
    # Shapes from the recorded output (PyTorch's -1 and expand's -1 already resolved).
    "reshape": lambda a, p, t: f"jnp.reshape({a[0]}, {_lit(tuple(t.out.shape))})",
    "permute": lambda a, p, t: f"jnp.transpose({a[0]}, {_lit(tuple(int(i) for i in p['perm']))})",
    "expand": lambda a, p, t: f"jnp.broadcast_to({a[0]}, {_lit(tuple(t.out.shape))})",
    "index": lambda a, p, t: f"{a[0]}[{_index(p['idx'])}]",
    "scatter": lambda a, p, t: _scatter(a, p, "set"),
    "scatter_add": lambda a, p, t: _scatter(a, p, "add"),
    "cat": lambda a, p, t: f"jnp.concatenate([{', '.join(a)}], axis={int(p.get('dim', 0))})",
    "stack": lambda a, p, t: f"jnp.stack([{', '.join(a)}], axis={int(p.get('dim', 0))})",
    "astype": lambda a, p, t: f"{a[0]}.astype(jnp.{np.dtype(p['dtype']).name})",
    "mse_loss": lambda a, p, t: _reduced(f"({a[0]} - {a[1]}) ** 2", p),
    "binary_cross_entropy": _bce,
    "nll_loss": _nll,
}


def _jpacked(call: str, a: str) -> str:
    return f"jnp.concatenate([t.reshape(*{a}.shape[:-2], -1) for t in {call}], axis=-1)"


def _jeinsum(a: list[str], p: dict[str, Any], t: Any) -> str:
    from .export import einsum_equation

    return f"jnp.einsum({_lit(einsum_equation(p['spec']))}, {', '.join(a)})"


def _jcdist(a: list[str], p: dict[str, Any], t: Any) -> str:
    order = float(p.get("p", 2.0))
    return (
        f"jnp.linalg.vector_norm({a[0]}[..., :, None, :] - {a[1]}[..., None, :, :], "
        f"ord={_lit(order)}, axis=-1)"
    )


JAX.update(
    {
        "einsum": _jeinsum,
        "inv": lambda a, p, t: f"jnp.linalg.inv({a[0]})",
        "det": lambda a, p, t: f"jnp.linalg.det({a[0]})",
        "slogdet": lambda a, p, t: f"jnp.stack(jnp.linalg.slogdet({a[0]}), axis=-1)",
        "solve": lambda a, p, t: f"jnp.linalg.solve({a[0]}, {a[1]})",
        "cholesky": lambda a, p, t: f"jnp.linalg.cholesky({a[0]})",
        "qr": lambda a, p, t: _jpacked(
            f"jnp.linalg.qr({a[0]}, mode={_lit(p.get('mode', 'reduced'))})", a[0]
        ),
        "eigh": lambda a, p, t: _jpacked(
            f"jnp.linalg.eigh({a[0]}, UPLO={_lit(p.get('uplo', 'L'))})", a[0]
        ),
        "svd": lambda a, p, t: _jpacked(
            f"jnp.linalg.svd({a[0]}, full_matrices={bool(p.get('full_matrices', True))})", a[0]
        ),
        "svdvals": lambda a, p, t: f"jnp.linalg.svd({a[0]}, compute_uv=False)",
        "pinv": lambda a, p, t: (
            f"jnp.linalg.pinv({a[0]}, rtol={_lit(float(p.get('rtol', 0.0)))}, "
            f"hermitian={bool(p.get('hermitian'))})"
        ),
        "cross": lambda a, p, t: f"jnp.cross({a[0]}, {a[1]}, axis={p.get('dim', -1)})",
        "cdist": _jcdist,
    }
)


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
        if op.name not in JAX:
            raise GradcliError(
                f"export: the operation `{op.name}` has no JAX translation yet",
                hint="`gradcli export --to torch` writes the same graph for PyTorch",
            )
        t = node.out
        code = JAX[op.name]([expr_of(x, node) for x in node.inputs], dict(node.params), node)
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


# --- activations, convolution and pooling (`ops.activation`, `ops.conv`) ----------------------


def _window_padding(p: dict[str, Any], node: Any, lead: int) -> str:
    """The (low, high) padding of each axis for jax.lax: none on the `lead` axes, the
    records' canvas (`pad` before, as far as the windows reach after) on the others."""
    x = node.inputs[0]
    kernel = p.get("kernel") or tuple(node.inputs[1].shape[2:])
    d = len(kernel)
    size = x.shape[x.ndim - d :]
    pairs = [(0, 0)] * lead
    for i in range(d):
        reach = (
            (p["out"][i] - 1) * p["stride"][i]
            + p.get("dilation", (1,) * d)[i] * (kernel[i] - 1)
            + 1
        )
        pairs.append((p["pad"][i], reach - p["pad"][i] - size[i]))
    return _lit(tuple(pairs))


def _jax_conv(a: list[str], p: dict[str, Any], t: Any) -> str:
    d = len(p["out"])
    pad = _window_padding(p, t, 0)
    code = (
        f"jax.lax.conv_general_dilated({a[0]}, {a[1]}, window_strides={_lit(tuple(p['stride']))}, "
        f"padding={pad}, rhs_dilation={_lit(tuple(p['dilation']))}, "
        f"feature_group_count={p.get('groups', 1)})"
    )
    if len(a) > 2:
        code = f"{code} + {a[2]}.reshape((-1,) + {_lit((1,) * d)})"
    return code


def _jax_max_pool(a: list[str], p: dict[str, Any], t: Any) -> str:
    x = t.inputs[0]
    d = len(p["kernel"])
    lead = x.ndim - d
    ones = (1,) * lead
    return (
        f"jax.lax.reduce_window({a[0]}, -jnp.inf, jax.lax.max, "
        f"{_lit(ones + tuple(p['kernel']))}, {_lit(ones + tuple(p['stride']))}, "
        f"{_window_padding(p, t, lead)}, window_dilation={_lit(ones + tuple(p['dilation']))})"
    )


def _jax_avg_pool(a: list[str], p: dict[str, Any], t: Any) -> str:
    from ..ops.conv import avg_divisor

    x = t.inputs[0]
    d = len(p["kernel"])
    lead = x.ndim - d
    ones = (1,) * lead
    div = p.get("divisor")
    if div is None:
        div = avg_divisor(
            x.shape[lead:],
            p["kernel"],
            p["stride"],
            p["pad"],
            p["out"],
            p.get("count_include_pad", True),
        )
    return (
        f"jax.lax.reduce_window({a[0]}, 0.0, jax.lax.add, {_lit(ones + tuple(p['kernel']))}, "
        f"{_lit(ones + tuple(p['stride']))}, {_window_padding(p, t, lead)}) / {_array(div)}"
    )


def _jax_windows(fold: bool) -> Callable[[list[str], dict[str, Any], Any], str]:
    """unfold / fold as the linear maps they are: a constant 0/1 matrix between the flattened
    spatial axes (the script's constant), applied with jnp.tensordot."""

    def code(a: list[str], p: dict[str, Any], t: Any) -> str:
        from ..ops.conv import _unfold_fwd

        k = tuple(p["kernel"])
        d = len(k)
        size = tuple(p["size"]) if fold else tuple(t.inputs[0].shape[-d:])
        eye = np.eye(math.prod(size)).reshape((-1,) + size)
        geo = {n: p[n] for n in ("kernel", "stride", "dilation", "pad", "out")}
        m = _unfold_fwd(eye, **geo).reshape(math.prod(size), -1)  # (S, K*L)
        if fold:
            x = t.inputs[0]
            cols = x.shape[: x.ndim - 2 * d] + k + tuple(p["out"])
            full = f"jnp.broadcast_to({a[0]}, {_lit(cols)})"
            flat = f"{full}.reshape({full}.shape[: -{2 * d}] + (-1,))"
            shape = f"{flat}.shape[:-1] + {_lit(size)}"
            return f"jnp.tensordot({flat}, {_array(m.T)}, axes=1).reshape({shape})"
        flat = f"{a[0]}.reshape({a[0]}.shape[: -{d}] + (-1,))"
        shape = f"{flat}.shape[:-1] + {_lit(k + tuple(p['out']))}"
        return f"jnp.tensordot({flat}, {_array(m)}, axes=1).reshape({shape})"

    return code


JAX.update(
    {
        "elu": lambda a, p, t: (
            f"jnp.where({a[0]} > 0, {_lit(p['scale'])} * {a[0]}, "
            f"{_lit(p['scale'] * p['alpha'])} * jnp.expm1({_lit(p['input_scale'])} * "
            f"jnp.minimum({a[0]}, 0.0)))"
        ),
        "hardtanh": lambda a, p, t: f"jnp.clip({a[0]}, {_lit(p['min_val'])}, {_lit(p['max_val'])})",
        "hardswish": lambda a, p, t: f"{a[0]} * jnp.clip({a[0]} + 3.0, 0.0, 6.0) / 6.0",
        "hardsigmoid": lambda a, p, t: f"jnp.clip({a[0]} + 3.0, 0.0, 6.0) / 6.0",
        "mish": lambda a, p, t: f"{a[0]} * jnp.tanh(jax.nn.softplus({a[0]}))",
        "softshrink": lambda a, p, t: (
            f"jnp.where({a[0]} > {_lit(p['lambd'])}, {a[0]} - {_lit(p['lambd'])}, "
            f"jnp.where({a[0]} < -{_lit(p['lambd'])}, {a[0]} + {_lit(p['lambd'])}, 0.0))"
        ),
        "hardshrink": lambda a, p, t: (
            f"jnp.where(jnp.abs({a[0]}) > {_lit(p['lambd'])}, {a[0]}, 0.0)"
        ),
        "threshold": lambda a, p, t: (
            f"jnp.where({a[0]} > {_lit(p['threshold'])}, {a[0]}, {_lit(p['value'])})"
        ),
        "conv": _jax_conv,
        "max_pool": _jax_max_pool,
        "avg_pool": _jax_avg_pool,
        "unfold": _jax_windows(False),
        "fold": _jax_windows(True),
    }
)
