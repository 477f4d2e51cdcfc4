"""Run a program's recorded graph symbolically, with sympy, and differentiate it exactly.

Every leaf element that requires grad, `x[0, 1]`, becomes the real sympy Symbol `x_0_1`
(a 0-d leaf `x` the Symbol `x`); constants become sympy numbers. The recorded nodes are then
evaluated in creation order on NumPy object arrays of sympy expressions:

- ops of kind elementwise / binary through their record's `sym` form, one element at a time
  (broadcasting as NumPy does);
- other ops through their record's `sym` form on whole object arrays where they have one (max,
  norm, softmax, ...), else through their own NumPy forward, which works on object arrays for
  the linear and structural ops (sum, matmul, reshape, index, cat, ...).

The expressions are built from gradcli's own graph: no user text ever reaches sympy (no
`sympify` of strings, no `parse_expr`). User functions with a custom gradient (`f` with
`f_backward`, `torch.autograd.Function`) are "seen through": the program is run once more with
their forward bodies recorded as ordinary operations (`Program.run(see_through=True)`), so that
sympy differentiates what `f` computes, not what `f_backward` claims.

Two named limits keep sympy from hanging: `limits.SYMPY_ELEMENTS` (elements of any tensor in
the graph) and `limits.SYMPY_EXPRESSION` (an upper bound on the tree size of one element's
expression, tracked as the graph is evaluated).

sympy is imported only inside the functions here (never when this module is imported).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError
from ..core.graph import ancestors
from ..core.op import Node, Op, producer
from ..core.tensor import Tensor

ELEMENTWISE_KINDS = ("elementwise", "binary")


class SymbolicUnavailable(GradcliError):
    """This graph (or this op) has no symbolic evaluation."""


def sympy_module() -> Any:
    try:
        import sympy
    except ImportError:  # pragma: no cover - sympy is a dependency
        raise GradcliError("sympy is not installed", hint="pip install sympy") from None
    return sympy


def custom_names(out: Tensor, stop: Iterable[int] = ()) -> list[str]:
    """Names of the user functions with a custom gradient that `out` depends on."""
    names: list[str] = []
    for n in ancestors([out], stop):
        if n.op.kind == "custom" and n.op.name not in names:
            names.append(n.op.name)
    return names


# --- numbers and symbols ---------------------------------------------------------------------


def sym_number(sp: Any, v: Any) -> Any:
    """A NumPy / Python number as a sympy number: integers exactly, short decimals (0.1, as
    the program wrote them) as rationals, others as 53-bit Floats."""
    if isinstance(v, (bool, np.bool_)):
        return sp.Integer(int(v))
    if isinstance(v, (int, np.integer)):
        return sp.Integer(int(v))
    x = float(v)
    if not np.isfinite(x):
        return sp.nan if np.isnan(x) else (sp.oo if x > 0 else -sp.oo)
    if x.is_integer() and abs(x) < 2**53:
        return sp.Integer(int(x))
    text = np.format_float_positional(v, unique=True, trim="-")
    digits = text.lstrip("-").replace(".", "").lstrip("0")
    if len(digits) <= 8 and len(text) <= 16:
        f = Fraction(text)
        return sp.Rational(f.numerator, f.denominator)
    return sp.Float(x)


def constant_array(sp: Any, data: np.ndarray) -> np.ndarray:
    """A NumPy array of numbers as an object array of sympy numbers."""
    arr = np.asarray(data)
    out = np.empty(arr.shape, dtype=object)
    cache: dict[Any, Any] = {}
    for idx in np.ndindex(arr.shape):
        v = arr[idx]
        key = (arr.dtype.kind, v.item() if hasattr(v, "item") else v)
        s = cache.get(key)
        if s is None:
            s = cache[key] = sym_number(sp, v)
        out[idx] = s
    return out


def element_label(name: str, idx: tuple[int, ...]) -> str:
    """`x[0,1]` (or `x` for a 0-d tensor)."""
    return f"{name}[{','.join(str(i) for i in idx)}]" if idx else name


def symbol_array(sp: Any, name: str, shape: tuple[int, ...], taken: set[str]) -> np.ndarray:
    """Symbols `name_i_j` for every element of a tensor of `shape`, unique among `taken`."""
    out = np.empty(shape, dtype=object)
    for idx in np.ndindex(shape):
        base = "_".join([name, *(str(i) for i in idx)])
        s = base
        while s in taken:
            s += "_"
        taken.add(s)
        out[idx] = sp.Symbol(s, real=True)
    return out


# --- evaluating ops --------------------------------------------------------------------------


def _sym_params(sp: Any, params: dict[str, Any]) -> dict[str, Any]:
    """Float params of an elementwise op as sympy numbers (so `x**2` stays `x**2`)."""
    out = {}
    for k, v in params.items():
        if isinstance(v, (float, np.floating)) and not isinstance(v, bool):
            out[k] = sym_number(sp, v)
        else:
            out[k] = v
    return out


def evaluate_op(sp: Any, op: Op, args: list[np.ndarray], params: dict[str, Any]) -> np.ndarray:
    """`op` on object arrays of sympy expressions (constants at `op.nondiff` positions stay
    the NumPy arrays they are)."""
    if op.kind == "custom":
        raise SymbolicUnavailable(
            f"`{op.name}` has a custom gradient and its forward body was not recorded",
            hint="gradcli evaluates custom functions symbolically by running their forward "
            "body (`Program.run(see_through=True)`)",
        )
    try:
        if op.sym is not None and op.kind in ELEMENTWISE_KINDS:
            p = _sym_params(sp, params)

            def one(*a: Any) -> Any:
                return op.sym(sp, *a, **p)

            res = np.frompyfunc(one, len(args), 1)(*args) if args else one()
        elif op.sym is not None:
            res = op.sym(sp, *args, **params)
        else:
            with np.errstate(all="ignore"):
                res = op.forward(*args, **params)
    except SymbolicUnavailable:
        raise
    except (TypeError, AttributeError, ValueError) as e:
        raise SymbolicUnavailable(
            f"`{op.name}` has no symbolic form for these arguments ({type(e).__name__}: {e})"
        ) from None
    out = np.empty(np.shape(res), dtype=object)
    out[...] = res
    for idx in np.ndindex(out.shape):
        v = out[idx]
        if isinstance(v, np.ndarray):  # a 0-d object array stored as an element (x[i] = g)
            if v.size != 1:
                raise SymbolicUnavailable(f"`{op.name}`: its symbolic form nests arrays")
            out[idx] = v.reshape(())[()]
    return out


def _size_bound(op: Op, sizes: list[int], counts: list[int]) -> int:
    """An upper bound on the tree size of one output element, from the inputs' bounds."""
    if op.kind in ELEMENTWISE_KINDS:
        return 1 + sum(sizes)
    if op.kind in ("shape", "internal") and op.name != "index_put":
        return max(sizes, default=1)
    return 1 + sum(s * max(c, 1) for s, c in zip(sizes, counts))


# --- the symbolic graph ----------------------------------------------------------------------


@dataclass
class SymbolicGraph:
    """A program's output as sympy expressions of its leaves' symbols."""

    sp: Any
    of: str
    output: np.ndarray  # object array, the output's shape
    inputs: dict[str, np.ndarray]  # wrt name -> its symbols (object array, its shape)
    values: dict[Any, float]  # every symbol -> the program's value of it
    labels: dict[Any, str] = field(default_factory=dict)  # symbol -> "x[0,1]"
    latex_names: dict[Any, str] = field(default_factory=dict)  # symbol -> "x_{0,1}"
    size_bound: int = 1  # an upper bound on the tree size of one output element

    def derivative_work(self, wrt: list[str]) -> int:
        """An estimate of the work of the Jacobian: tree size x derivatives taken."""
        n_in = sum(int(self.inputs[w].size) for w in wrt)
        return self.size_bound * int(self.output.size) * n_in

    def check_work(self, wrt: list[str]) -> None:
        """The `sympy_expression` limit, on the work of differentiating (sympy's diff is
        slow on large trees: a clear error instead of minutes)."""
        work = self.derivative_work(wrt)
        if work > limits.SYMPY_EXPRESSION.value:
            limits.SYMPY_EXPRESSION.check(
                work, "the size of the sympy expressions times the derivatives to take"
            )

    def substitutions(self) -> dict[Any, Any]:
        return {s: self.sp.Float(v) for s, v in self.values.items()}


def build(run: Any, of: str, wrt: list[str], *, out: Tensor | None = None) -> SymbolicGraph:
    """Evaluate the graph of `of` symbolically, with every named leaf that requires grad (and
    every tensor named in `wrt`, leaf or not) as symbols."""
    sp = sympy_module()
    out_t = out if out is not None else run.tensor(of)
    names: dict[int, str] = {}
    for n in run.assigned_order:
        t = run.tensors.get(n)
        if t is not None:
            names.setdefault(id(t), n)
    sources: dict[int, str] = {}
    for w in wrt:
        sources[id(run.tensor(w))] = w
    max_elems = limits.SYMPY_ELEMENTS.value
    max_size = limits.SYMPY_EXPRESSION.value
    nodes = ancestors([out_t], stop=sources)

    exprs: dict[Any, np.ndarray] = {}  # id(tensor), or a node for its output
    sizes: dict[int, int] = {}
    symbols: dict[str, np.ndarray] = {}
    values: dict[Any, float] = {}
    labels: dict[Any, str] = {}
    latex_names: dict[Any, str] = {}
    taken: set[str] = set()

    def check_elements(t: Tensor, what: str) -> None:
        if t.data.size > max_elems:
            limits.SYMPY_ELEMENTS.check(
                t.data.size, f"the number of elements of {what} (evaluated with sympy)"
            )

    def add_symbols(t: Tensor, name: str) -> np.ndarray:
        check_elements(t, f"`{name}`")
        syms = symbol_array(sp, name, t.shape, taken)
        data = np.asarray(t.data, dtype=np.float64)
        for idx in np.ndindex(t.shape):
            s = syms[idx]
            values[s] = float(data[idx])
            labels[s] = element_label(name, idx)
            latex_names[s] = (
                f"{_latex_name(name)}_{{{','.join(str(i) for i in idx)}}}"
                if idx
                else _latex_name(name)
            )
        exprs[id(t)] = syms
        sizes[id(t)] = 1
        symbols.setdefault(name, syms)
        return syms

    for w in sources.values():
        add_symbols(run.tensor(w), w)

    def operand(t: Tensor, pos: int, op: Op, user: Node) -> np.ndarray:
        p = t.node
        if p is not None and p.seq >= user.seq:
            p = producer(t, user.seq)  # `t` was changed in place after `user` read it
        if p is not None and p in exprs:
            return exprs[p]
        k = id(t)
        if k in exprs:
            return exprs[k]
        if pos in op.nondiff or t.data.dtype.kind not in "fiub":
            return t.data
        if t.node is None and t.requires_grad and k in names:
            return add_symbols(t, names[k])
        check_elements(t, f"a constant of {op.name}")
        exprs[k] = constant_array(sp, t.data)
        sizes[k] = 1
        return exprs[k]

    if not nodes:
        # The output is itself a source or a leaf.
        if id(out_t) not in exprs:
            if out_t.node is None and out_t.requires_grad:
                add_symbols(out_t, names.get(id(out_t), of))
            else:
                exprs[id(out_t)] = constant_array(sp, out_t.data)
    for n in nodes:
        args = [operand(t, i, n.op, n) for i, t in enumerate(n.inputs)]
        check_elements(n.out, f"the result of {n.op.name}")
        bound = _size_bound(
            n.op, [sizes.get(id(t), 1) for t in n.inputs], [int(t.data.size) for t in n.inputs]
        )
        if bound > max_size:
            limits.SYMPY_EXPRESSION.check(
                bound, f"the size of the sympy expressions after {n.op.name}"
            )
        res = evaluate_op(sp, n.op, args, n.params)
        if res.shape != n.out.shape:
            raise SymbolicUnavailable(
                f"`{n.op.name}`: its symbolic form has shape {list(res.shape)}, but the "
                f"engine's result has shape {list(n.out.shape)}"
            )
        exprs[n] = res  # by node: a tensor changed in place has one expression per version
        if n.out.node is n:
            exprs[id(n.out)] = res
        sizes[id(n.out)] = bound
    return SymbolicGraph(
        sp,
        of,
        exprs[id(out_t)],
        {w: exprs[id(run.tensor(w))] for w in wrt},
        values,
        labels,
        latex_names,
        sizes.get(id(out_t), 1),
    )


def _latex_name(name: str) -> str:
    return name.replace("_", r"\_")


# --- derivatives -----------------------------------------------------------------------------


def jacobian(g: SymbolicGraph, wrt: str) -> np.ndarray:
    """`J[i, j] = d output_i / d wrt_j` (row-major flattening), an object array of
    expressions."""
    sp = g.sp
    outs = list(g.output.reshape(-1))
    ins = list(g.inputs[wrt].reshape(-1))
    jac = np.empty((len(outs), len(ins)), dtype=object)
    for i, e in enumerate(outs):
        e = sp.sympify(e) if not isinstance(e, sp.Basic) else e
        free = e.free_symbols
        for j, s in enumerate(ins):
            jac[i, j] = sp.diff(e, s) if s in free else sp.Integer(0)
    return jac


class _Timeout(Exception):
    pass


class Simplifier:
    """Best-effort simplification that cannot hang: `factor_terms` (cheap) always, and sympy's
    `simplify` (which can take minutes on a 50-operation tanh expression) only on small
    expressions, under a deadline of `per` seconds each and `budget` seconds in all (deadlines
    need SIGALRM, so off the main thread only the cheap step runs). The shortest form wins."""

    def __init__(self, sp: Any, *, max_ops: int = 40, per: float = 0.3, budget: float = 3.0):
        self.sp = sp
        self.max_ops = max_ops
        self.per = per
        self.budget = budget
        self.spent = 0.0
        self.calls = 0
        import signal
        import threading

        self.can_alarm = hasattr(signal, "setitimer") and (
            threading.current_thread() is threading.main_thread()
        )

    def _simplify(self, e: Any) -> Any:
        import signal
        import time

        def on_alarm(*_: Any) -> None:
            raise _Timeout

        start = time.perf_counter()
        old = signal.signal(signal.SIGALRM, on_alarm)
        # The first call imports sympy's simplification modules: it gets longer.
        per = self.per if self.calls else max(self.per, 2.0)
        self.calls += 1
        signal.setitimer(signal.ITIMER_REAL, max(0.001, min(per, self.budget - self.spent)))
        try:
            return self.sp.simplify(e)
        except Exception:  # noqa: BLE001 - _Timeout, or sympy failing: best effort
            return None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
            self.spent += time.perf_counter() - start

    def __call__(self, e: Any) -> Any:
        sp = self.sp
        if not isinstance(e, sp.Basic) or e.is_number:
            return e
        n = sp.count_ops(e)
        best, best_n = e, n
        try:
            f = sp.factor_terms(e)
            fn = sp.count_ops(f)
            if fn < best_n:
                best, best_n = f, fn
        except Exception:  # noqa: BLE001
            pass
        if n <= self.max_ops and self.can_alarm and self.spent < self.budget:
            s = self._simplify(e)
            if s is not None and self._families(s) <= self._families(e):
                sn = sp.count_ops(s)
                if sn < best_n:
                    best, best_n = s, sn
        return best

    def _families(self, e: Any) -> set[type]:
        """The kinds of function in `e`: a simpler form must not bring in new ones (sigmoid's
        derivative as 1/(4 cosh(x/2)^2) is shorter but hides what it is)."""
        return {type(a) for a in e.atoms(self.sp.Function)}


def simplify(sp: Any, e: Any) -> Any:
    """One expression through a fresh `Simplifier`."""
    return Simplifier(sp)(e)


def substitute(e: Any, subs: dict[Any, Any], cache: dict[Any, Any]) -> Any:
    """`e` with the symbols replaced (`subs`: Symbol -> Float), evaluated bottom-up, each
    distinct subexpression once (`cache` is shared between calls: the entries of a Jacobian
    share most of their subtrees), iteratively (no recursion limit)."""
    if e in cache:
        return cache[e]
    stack: list[tuple[Any, bool]] = [(e, False)]
    while stack:
        node, ready = stack.pop()
        if node in cache:
            continue
        if not node.args:
            cache[node] = subs.get(node, node)
        elif ready:
            args = [cache[a] for a in node.args]
            same = all(a is b for a, b in zip(args, node.args))
            cache[node] = node if same else node.func(*args)
        else:
            stack.append((node, True))
            stack.extend((a, False) for a in node.args if a not in cache)
    return cache[e]


def numeric(sp: Any, e: Any, subs: dict[Any, Any], cache: dict[Any, Any] | None = None) -> float:
    """An expression's value at `subs` (Symbol -> Float), or nan where it has none (a
    DiracDelta at 0, a complex value)."""
    try:
        if not isinstance(e, sp.Basic):
            return float(e)
        v = substitute(e, subs, {} if cache is None else cache)
        if isinstance(v, sp.Basic):
            v = v.evalf()
            if v.free_symbols:
                return float("nan")
            c = complex(v)
            if abs(c.imag) > 1e-12 * max(1.0, abs(c.real)):
                return float("nan")
            return float(c.real)
        return float(v)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError, AttributeError):
        return float("nan")


def numeric_array(sp: Any, a: np.ndarray, subs: dict[Any, Any]) -> np.ndarray:
    out = np.empty(a.shape, dtype=np.float64)
    cache: dict[Any, Any] = {}
    for idx in np.ndindex(a.shape):
        out[idx] = numeric(sp, a[idx], subs, cache)
    return out


# --- bounded: the sympy work in a worker process ----------------------------------------------


class Formula:
    """An expression as the worker sends it back: its text, its LaTeX, whether it is 0 (the
    parent never needs sympy to show a formula)."""

    __slots__ = ("text", "latex", "zero")

    def __init__(self, text: str, latex: str, zero: bool):
        self.text = text
        self.latex = latex
        self.zero = zero

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Formula):
            return self.text == other.text
        if isinstance(other, (int, float)) and other == 0:
            return self.zero
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Formula({self.text!r})"


def _formulas(sp: Any, a: np.ndarray, latex_names: dict[Any, str]) -> np.ndarray:
    out = np.empty(a.shape, dtype=object)
    for idx in np.ndindex(a.shape):
        e = a[idx]
        e = sp.sympify(e) if not isinstance(e, sp.Basic) else e
        out[idx] = Formula(sp.sstr(e), sp.latex(e, symbol_names=latex_names), bool(e == 0))
    return out


def _run_bounded(work: Any, what: str) -> Any:
    from .worker import Expired, bounded, expired_error

    try:
        return bounded(work, limit=limits.SYMPY_SECONDS)
    except Expired as e:
        raise expired_error(e, what) from None


def sympy_jacobians(run: Any, of: str, wrt: list[str]) -> dict[str, np.ndarray]:
    """sympy's Jacobians of `of` with respect to each of `wrt`, evaluated at the run's values
    (float64, nan where a formula has no value), computed in a worker process killed at its
    deadline (`sympy_seconds`, and the command's time limit)."""

    def work(send: Any) -> None:
        graph = build(run, of, wrt)
        graph.check_work(wrt)
        subs = graph.substitutions()
        send({n: numeric_array(graph.sp, jacobian(graph, n), subs) for n in wrt})

    got = _run_bounded(work, "sympy")
    from .worker import Partial

    if isinstance(got, Partial):  # pragma: no cover - one result only
        got = got.value
    return got


# --- the `symbolic` command's library function -----------------------------------------------


@dataclass
class SymbolicWrt:
    """The derivatives of one output with respect to one input."""

    name: str
    shape: tuple[int, ...]
    matrix: np.ndarray  # object array (n_out, n_in) of `Formula`s
    values: np.ndarray | None = None  # the formulas evaluated at the program's values
    engine: np.ndarray | None = None  # the engine's Jacobian, (n_out, n_in)
    agree: np.ndarray | None = None  # bool (n_out, n_in)


@dataclass
class SymbolicResult:
    of: str
    of_shape: tuple[int, ...]
    output: np.ndarray  # object array of `Formula`s: the output's elements
    wrt: list[SymbolicWrt]
    labels: dict[str, str]  # symbol name -> the element it stands for ("x_0_1" -> "x[0,1]")
    values: dict[str, float]  # symbol name -> the program's value of it
    dtype: str = "float64"
    custom: list[str] = field(default_factory=list)
    at: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(w.agree is None or bool(np.all(w.agree)) for w in self.wrt)

    def text(self, e: Any) -> str:
        return e.text if isinstance(e, Formula) else str(e)

    def latex(self, e: Any) -> str:
        return e.latex if isinstance(e, Formula) else str(e)


def symbolic(
    program: Any,
    of: str | None = None,
    wrt: list[str] | None = None,
    *,
    simplify_: bool = True,
    at: bool = False,
    overrides: dict[str, np.ndarray] | None = None,
    dtype: Any = None,
    seed: int = 0,
) -> SymbolicResult:
    """The derivative of every element of `of` with respect to every element of each `wrt`,
    as formulas; with `at`, also their values at the program's values next to the engine's
    Jacobian. sympy runs in a worker process killed at its deadline (`sympy_seconds` and the
    command's time limit); simplification is best effort: when its time runs out, the formulas
    are shown as differentiated (a note says so).

    >>> r = symbolic("x = tensor([1., 2.], requires_grad=True)\ny = x * x")
    >>> r.text(r.wrt[0].matrix[1, 1])
    '2*x_1'
    """
    from . import api
    from .worker import Partial

    prog = api.as_program(program)
    run = prog.run(overrides=overrides, dtype=dtype, seed=seed)
    of, out = api.resolve_of(run, of)
    targets = api.resolve_wrt(run, wrt)
    names = [n for n, _ in targets]
    customs = custom_names(out, stop={id(t) for _, t in targets})
    sym_run = run
    if customs:
        sym_run = run.rerun(see_through=True)
    engine_j: dict[str, np.ndarray] = {}
    if at:
        from .jacobian import engine_jacobian

        engine_j = engine_jacobian(out, targets)
    tol = 1e-4 if out.dtype == np.float32 else 1e-8

    def work(send: Any) -> None:
        graph = build(sym_run, of, names)
        graph.check_work(names)
        sp = graph.sp
        mats = {n: jacobian(graph, n) for n in names}
        subs = graph.substitutions()
        values = {n: numeric_array(sp, m, subs) for n, m in mats.items()} if at else {}

        def package(output: np.ndarray, ms: dict[str, np.ndarray]) -> dict[str, Any]:
            return {
                "output": _formulas(sp, output, graph.latex_names),
                "mats": {n: _formulas(sp, m, graph.latex_names) for n, m in ms.items()},
                "values": values,
                "labels": {str(k): v for k, v in graph.labels.items()},
                "symbol_values": {str(k): v for k, v in graph.values.items()},
                "simplified": False,
            }

        first = package(graph.output, mats)
        if not simplify_:
            send(first)
            return
        send(first)
        simp = Simplifier(sp)
        output = np.empty(graph.output.shape, dtype=object)
        for idx in np.ndindex(output.shape):
            output[idx] = simp(graph.output[idx])
        for m in mats.values():
            for idx in np.ndindex(m.shape):
                m[idx] = simp(m[idx])
        done = package(output, mats)
        done["simplified"] = True
        send(done)

    got = _run_bounded(work, "sympy")
    notes: list[str] = []
    if isinstance(got, Partial):
        got = got.value
        notes.append(
            "simplification was stopped at its time bound: the formulas are shown as differentiated"
        )
    result = SymbolicResult(
        of,
        tuple(out.shape),
        got["output"],
        [],
        got["labels"],
        got["symbol_values"],
        str(out.dtype),
        customs,
        at,
        notes,
    )
    for name, t in targets:
        w = SymbolicWrt(name, tuple(t.shape), got["mats"][name])
        if at:
            w.values = got["values"][name]
            w.engine = engine_j[name]
            w.agree = np.isclose(w.values, w.engine, rtol=tol, atol=tol, equal_nan=True)
        result.wrt.append(w)
    return result
