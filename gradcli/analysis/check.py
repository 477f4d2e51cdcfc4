"""`gradcli check`: every derivative three ways (the engine, finite differences, sympy), and a
fourth (PyTorch) on request, with a verdict and, when they disagree, what to blame.

For each (output, input) pair the Jacobian `J[i, j] = d out_i / d in_j` (row-major over both
tensors) is computed by:

engine   reverse mode: one backward pass per output element, its upstream gradient a one-hot
         mask (`jacobian`, method rows). It uses every rule as written, custom
         `f_backward` / `Function.backward` included.
forward  forward mode (`jacobian`, method forward): one tangent per input element.
numeric  central finite differences in float64 (`core.differences`): `(f(x + h e_j) -
         f(x - h e_j)) / 2h` with the step `h = eps * max(1, |x_j|)` (`eps` = 1e-6 by
         default), of the program re-run with the input's element replaced
         (`Program.run(overrides=...)`): the program as a function of its inputs, custom
         functions' forward bodies included. When re-running cannot move the value the graph
         uses (the program changes the input after creating it, e.g. `w.data = w.data * 3`,
         or the input is computed by the program), or would take more than
         MAX_NUMERIC_RUNS runs, the differences are of the recorded operations instead
         (`GraphReplay`: each op's forward re-evaluated at the values it was recorded with),
         and a note says why.
sympy    the graph evaluated symbolically (`symbolic`) and differentiated exactly, then
         evaluated at the program's values; when the tensors are small enough (named limits
         `sympy_elements`, `sympy_expression`). Custom functions are seen through (their
         forward body is differentiated). It runs in a worker process that is killed at its
         deadline (`symbolic.bounded`).
torch    only with `against="torch"`: the program text is executed as real PyTorch code (it is
         valid PyTorch for the supported subset) and its Jacobian taken by masked
         `torch.autograd.grad` passes. This is the ONE place where gradcli executes program
         text as Python, and it happens only when the user asks for it explicitly
         (`gradcli check --against torch`): do not use it on programs you do not trust. Every
         tensor both runs name is compared first; leaves whose values differ (random numbers)
         are given gradcli's values in PyTorch's run (`torch_ref`).

The whole check runs in float64: float32 leaves are promoted when they are assigned (with a
warning), so that differences measure the rules, not float32 rounding.

The verdict of a pair (`PairResult.status`), by the one comparison rule (`compare`):

ok         every pair of methods agrees, and a method independent of the engine's rules
           (numeric, sympy or torch) took part;
disagree   some pair disagrees beyond the tolerance (exit status 3);
unchecked  nothing disagrees, but no independent method could be compared with the engine,
           or the PyTorch the user asked for could not be (its values differ and cannot be
           replaced): the reason is given (exit status 3 too). A limit reached on the way is
           never a reason to skip a method: it is an error (exit 1).

When a pair disagrees, the culprit: if only PyTorch disagrees while the engine agrees with
finite differences or sympy, gradcli's rules are not blamed (the two runs computed different
values, or PyTorch uses another convention at a kink). If finite differences of the program
disagree with the engine but finite differences of the recorded operations agree, the program
depends on the input through something the graph does not record (`.detach()`, `.item()`,
`.data`): PyTorch's gradient, which the engine computes, leaves that out. Otherwise each custom
function on the path is tried alone (the engine's Jacobian with only its custom gradient kept,
the others' forward bodies differentiated, against finite differences); ops evaluated outside
the points where they are differentiable (an op's `domain` check, e.g. sqrt at 0) are
reported; otherwise each of gradcli's own rules on the path is checked at its node against
finite differences of its forward (`local_rules`).

Agreement (`compare`). Two values a, b agree when `|a - b| <= atol + rtol * max(|a|, |b|)`,
plus, where finite differences are involved, their rounding-error estimate
`64 * 2**-52 * |f| / h`. The user's `atol` / `rtol` (1e-6 / 1e-5 by default) apply to
comparisons with finite differences, `atol` relative to the largest derivative the exact
methods found where that is below 1 (down to 1e-5 of it: derivatives all of 1e-7 are held to
what they would be held to times 1e7); exact methods (engine, sympy, torch in float64) must
agree to `1e-8` relative and `1e-10 * max(1, max |J|)` absolute (`2e-4` / `1e-5` when PyTorch
computed in float32). Where the one-sided differences of an input element disagree, the
function is not differentiable there (relu at 0, abs at 0, max ties, clamp at a bound): every
method's value there must lie between the two one-sided derivatives (that is where PyTorch's
conventions fall), and the entry is reported as a kink.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, LimitError
from ..core.autograd import unbroadcast
from ..core.differences import EPS, Differences, Step, differences, relative
from ..core.graph import ancestors
from ..core.tensor import Tensor, no_grad
from ..lang.program import Run
from . import api
from .compare import ATOL, RTOL, RTOL_F32, compare, compare_methods
from .differences import CannotRerun, GraphReplay, ProgramRerun, numeric_jacobian
from .jacobian import engine_jacobian
from .results import CheckResult, PairResult
from .symbolic import custom_names

MAX_NUMERIC_RUNS = 4_000  # perturbed runs of the program, over all inputs of one check
INDEPENDENT = ("numeric", "sympy", "torch")  # methods that do not use the engine's rules

METHOD_HELP = {
    "engine": "reverse mode (masked backward passes)",
    "forward": "forward mode (one column per input element)",
    "numeric": "central finite differences (float64)",
    "sympy": "sympy's exact derivative, evaluated at the program's values",
    "torch": "PyTorch autograd (masked torch.autograd.grad passes)",
}

OUTSIDE_GRAPH = (
    "the program's value depends on `{wrt}` through something the graph does not record "
    "(`.detach()`, `.item()`, `.tolist()`, a value read through `.data`, a tensor made from "
    "numbers): finite differences of the program see it, the engine (as PyTorch) treats it "
    "as a constant. Finite differences of the recorded operations agree with the engine, so "
    "gradcli's rules are not to blame"
)


# --- finding the culprit ---------------------------------------------------------------------


def _blame_custom(
    base: Run,
    of: str,
    r: PairResult,
    target: str,
    ref: Differences,
    atol: float,
    rtol: float,
) -> list[str]:
    """The custom functions whose own backward is wrong: for each, the engine's Jacobian with
    only that function's custom gradient kept (the others' forward bodies differentiated)
    against the finite differences `ref`."""
    bad = []
    for name in r.custom:
        try:
            run = base.rerun(see_through=lambda n, keep=name: n != keep, promote=True)
            out = run.tensor(of)
            t = run.tensor(target)
            j = engine_jacobian(out, [(target, t)])[target]
        except LimitError:
            raise
        except GradcliError:
            continue
        c = compare_methods({"engine": j, "numeric": ref.central}, ref, atol=atol, rtol=rtol)[0]
        if not c.ok:
            bad.append(name)
    return bad


def domain_notes(out: Tensor, stop: set[int]) -> list[str]:
    """The ops (with a `domain` check) that run at values where they are not differentiable,
    e.g. sqrt at 0: why the methods may disagree there without any rule being wrong."""
    notes: list[str] = []
    for n in ancestors([out], stop):
        if n.op.domain is None:
            continue
        try:
            msg = n.op.domain(*[t.data for t in n.inputs])
        except Exception:  # noqa: BLE001 - a diagnosis only
            continue
        if msg and msg not in notes:
            notes.append(msg)
    return notes


def local_rules(
    out: Tensor,
    stop: set[int],
    *,
    eps: float = EPS,
    atol: float = ATOL,
    rtol: float = RTOL,
    max_entries: int = 20_000,
) -> list[str]:
    """gradcli's own rules that disagree with finite differences of their forward, node by
    node (at the node's input values, one-sided differences judging kinks as in `check`):
    which op to blame when a check fails."""
    bad: list[str] = []
    step = relative(eps)
    for n in ancestors([out], stop):
        op = n.op
        if op.kind == "custom" or op.name in bad:
            continue
        arrays = [
            np.asarray(t.data, dtype=np.float64) if t.data.dtype.kind == "f" else t.data
            for t in n.inputs
        ]
        pos = [
            i
            for i, t in enumerate(n.inputs)
            if t.requires_grad and i not in op.nondiff and t.data.dtype.kind == "f"
        ]
        try:
            with np.errstate(all="ignore"):
                f0 = np.asarray(op.forward(*arrays, **n.params), dtype=np.float64)
        except Exception:  # noqa: BLE001 - best effort diagnosis
            continue
        n_out = int(f0.size)
        if n_out * sum(arrays[i].size for i in pos) > max_entries:
            continue
        jac = _rule_jacobian(n, arrays, pos, f0)
        if jac is None:
            continue
        for i in pos:
            f = _one_input(n, arrays, i)
            d = differences(f, arrays[i], step=step, f0=f0)
            c = compare_methods({"engine": jac[i], "numeric": d.central}, d, atol=atol, rtol=rtol)
            if not c[0].ok:
                bad.append(op.name)
                break
    return bad


def _one_input(n: Any, arrays: list[np.ndarray], i: int) -> Any:
    """The node's forward as a function of its input `i` alone (None outside its domain)."""

    def f(x: np.ndarray) -> np.ndarray | None:
        args = list(arrays)
        args[i] = x
        try:
            with np.errstate(all="ignore"):
                return np.asarray(n.op.forward(*args, **n.params), dtype=np.float64)
        except Exception:  # noqa: BLE001 - outside the op's domain
            return None

    return f


def _rule_jacobian(
    n: Any, arrays: list[np.ndarray], pos: list[int], f0: np.ndarray
) -> dict[int, np.ndarray] | None:
    """The Jacobian of one node's output with respect to each input in `pos`, from its VJP
    rule (one one-hot upstream gradient per output element)."""
    n_out = int(f0.size)
    # The inputs asked about require grad: a rule may skip the gradients nobody wants.
    tensors = [
        Tensor(a, requires_grad=i in pos and a.dtype.kind == "f") for i, a in enumerate(arrays)
    ]
    out_t = Tensor(f0)
    jac = {i: np.zeros((n_out, arrays[i].size)) for i in pos}
    try:
        with no_grad(), np.errstate(all="ignore"):
            for k in range(n_out):
                limits.BUDGET.tick()
                mask = np.zeros(n_out)
                mask[k] = 1
                gs = n.op.vjp(Tensor(mask.reshape(f0.shape)), out_t, *tensors, **n.params)
                for i in pos:
                    gi = gs[i] if i < len(gs) else None
                    if gi is None:
                        continue
                    gi = gi if isinstance(gi, Tensor) else Tensor(np.asarray(gi))
                    gi = unbroadcast(gi, arrays[i].shape, 0)
                    jac[i][k] = np.asarray(gi.data, dtype=np.float64).reshape(-1)
    except LimitError:
        raise
    except Exception:  # noqa: BLE001 - best effort diagnosis
        return None
    return jac


# --- the numeric method ----------------------------------------------------------------------


class _Numeric:
    """Finite differences for each input, of the program where re-running measures what the
    engine differentiates, else of the recorded operations (made on demand, kept)."""

    def __init__(
        self,
        base: Run,
        of: str,
        out: Tensor,
        targets: list[tuple[str, Tensor]],
        step: Step,
        customs: bool,
    ):
        self.base, self.of, self.out, self.targets = base, of, out, targets
        self.step = step
        self.customs = customs
        self.by_graph: dict[str, Differences] = {}
        self._replay: GraphReplay | None = None
        self._seen_through: Run | None = None

    def seen_through(self) -> Run:
        """The program run again with custom functions' forward bodies recorded."""
        if self._seen_through is None:
            self._seen_through = self.base.rerun(see_through=True, promote=True)
        return self._seen_through

    def program(self, name: str, t: Tensor) -> Differences:
        """Of the program re-run (CannotRerun when re-running cannot perturb `name`)."""
        ev = ProgramRerun(self.base, self.of, [(name, t)], self.out.data, promote=True)
        return numeric_jacobian(ev, [(name, t)], step=self.step, one_sided=True, tolerant=True)[0]

    def graph(self, name: str) -> Differences:
        """Of the recorded operations (of the see-through run when there are custom
        functions, whose forward the graph of the engine's run does not hold)."""
        if name not in self.by_graph:
            run = self.seen_through() if self.customs else self.base
            out = run.tensor(self.of)
            ts = [(n, run.tensor(n)) for n, _ in self.targets]
            if self._replay is None:
                self._replay = GraphReplay(out, [t for _, t in ts])
            target = [(n, t) for n, t in ts if n == name]
            self.by_graph[name] = numeric_jacobian(
                self._replay, target, step=self.step, one_sided=True, tolerant=True
            )[0]
        return self.by_graph[name]


def _numeric(
    num: _Numeric, targets: list[tuple[str, Tensor]]
) -> tuple[dict[str, Differences], dict[str, str], dict[str, str], list[str]]:
    """Each input's finite differences, what they are of ("program" or "graph"), why a graph's
    were used (notes), and the inputs with none (and why)."""
    diffs: dict[str, Differences] = {}
    source: dict[str, str] = {}
    notes: dict[str, str] = {}
    runs = 2 * sum(int(t.data.size) for _, t in targets if t.node is None)
    for n, t in targets:
        why = None
        if t.node is not None:
            why = f"`{n}` is computed by the program: re-running it perturbs only leaves"
        elif runs > MAX_NUMERIC_RUNS:
            why = f"re-running the program {runs:,} times is over {MAX_NUMERIC_RUNS:,} runs"
        else:
            try:
                diffs[n] = num.program(n, t)
                source[n] = "program"
            except CannotRerun as e:
                why = e.message
        if why is not None:
            diffs[n] = num.graph(n)
            source[n] = "graph"
            notes[n] = (
                f"finite differences of the recorded operations, not of the program re-run: {why}"
            )
    return diffs, source, notes, []


# --- check -----------------------------------------------------------------------------------


def check(
    program: Any,
    of: str | None = None,
    wrt: list[str] | None = None,
    eps: float = EPS,
    atol: float = ATOL,
    rtol: float = RTOL,
    against: str | None = None,
    *,
    use_sympy: bool = True,
    overrides: dict[str, np.ndarray] | None = None,
    dtype: Any = None,
    seed: int = 0,
) -> CheckResult:
    """Compare the engine's Jacobian of `of` with respect to each `wrt` with finite
    differences, sympy (when small enough) and, with `against="torch"`, PyTorch. See the
    module's docstring for the methods, the tolerances and the verdicts.

    >>> check("x = tensor([1., 2.], requires_grad=True)\\ny = (x * x).sum()").ok
    True
    """
    started = time.perf_counter()
    if not (eps > 0 and np.isfinite(eps)):
        raise GradcliError(f"the finite-difference step must be positive, got {eps}")
    for what, v in (("atol", atol), ("rtol", rtol)):
        if not (v >= 0 and np.isfinite(v)):
            raise GradcliError(f"{what} must be a finite number >= 0, got {v}")
    if against not in (None, "torch"):
        raise GradcliError(f"cannot check against {against!r}", expected="torch")
    prog = api.as_program(program)
    base = prog.run(overrides=overrides, dtype=dtype, seed=seed, promote=True)
    asked = of
    of, out = api.resolve_of(base, of)
    targets = api.resolve_wrt(base, wrt)
    names = [n for n, _ in targets]
    warnings: list[str] = []
    note = api.default_note(base, asked, of)
    if note:
        warnings.append(note)
    if base.promoted:
        warnings.append(
            "the program is float32 ("
            + ", ".join(f"`{p}`" for p in base.promoted)
            + "): check runs it in float64, so that finite differences are "
            "accurate and differences measure the rules, not float32 rounding"
        )
    low_precision: set[str] = set()
    if out.dtype == np.float32 or any(t.dtype == np.float32 for _, t in targets):
        warnings.append(
            f"`{of}` is still float32 after promoting the leaves (an explicit "
            ".float()?): the comparisons use float32 tolerances"
        )
        low_precision.add("engine")
        low_precision.add("forward")
        eps = max(eps, 1e-3)
        atol, rtol = max(atol, 1e-4), max(rtol, 1e-3)
    _budget(out, targets, against == "torch")
    step = relative(eps)
    stop = {id(t) for _, t in targets}
    customs = custom_names(out, stop)

    engine = engine_jacobian(out, targets, "rows")
    forward: dict[str, np.ndarray] | None = None
    forward_skip = ""
    try:
        forward = engine_jacobian(out, targets, "forward")
    except LimitError:
        raise
    except GradcliError as e:
        forward_skip = e.message

    num = _Numeric(base, of, out, targets, step, bool(customs))
    diffs, source, numeric_notes, _ = _numeric(num, targets)

    # sympy
    sym: dict[str, np.ndarray] = {}
    sym_skip = ""
    if use_sympy:
        sym, sym_skip = _sympy_jacobians(num, of, names, bool(customs))
    else:
        sym_skip = "not asked for (--no-sympy)"

    # PyTorch
    ref = None
    if against == "torch":
        from .torch_ref import torch_jacobian

        values = {
            n: (np.asarray(t.data), t.node is None)
            for n, t in base.tensors.items()
            if t.data.dtype.kind in "fiub"
        }
        ref = torch_jacobian(prog.source.text, prog.source.name, of, names, values)
        if ref.low_precision:
            low_precision.add("torch")
            warnings.append(
                "PyTorch computed in float32 (as the program asks): it is compared "
                f"with float32 tolerances ({RTOL_F32:g} relative)"
            )
        if ref.replaced:
            warnings.append(
                "PyTorch's run drew other values for "
                + ", ".join(f"`{n}`" for n in ref.replaced)
                + " (random numbers, or --set): they were given gradcli's values in "
                "PyTorch's run, so that both differentiate the same function"
            )
        if ref.computed:
            warnings.append(
                "PyTorch computes other values than gradcli for "
                + ", ".join(f"`{n}`" for n in ref.computed)
                + " from the same inputs"
            )

    results = []
    for n, t in targets:
        mats: dict[str, np.ndarray] = {"engine": engine[n]}
        skipped: dict[str, str] = {}
        if forward is not None:
            mats["forward"] = forward[n]
        else:
            skipped["forward"] = forward_skip
        d = diffs.get(n)
        if d is not None and d.n_failed >= max(1, int(t.data.size)):
            skipped["numeric"] = (
                f"every perturbed run of `{n}` failed (outside the program's domain?): "
                "no finite differences"
            )
            d = None
        if d is not None:
            mats["numeric"] = d.central
            if d.n_failed:
                warnings.append(
                    f"{d.n_failed} perturbed run(s) of `{n}` failed (outside the "
                    "program's domain?): those columns have no finite differences"
                )
        if n in sym:
            mats["sympy"] = sym[n]
        else:
            skipped["sympy"] = sym_skip or "not available"
        unchecked = None
        if ref is not None:
            if n in ref.jacobians:
                mats["torch"] = ref.jacobians[n]
            else:
                why = (
                    "PyTorch's run has other values than gradcli's for "
                    + ", ".join(f"`{v}`" for v in ref.differing)
                    + ", which could not be replaced (each must be a tensor created by one "
                    "top-level assignment and not changed afterwards): give them literal "
                    "values to compare with PyTorch"
                )
                skipped["torch"] = why
                unchecked = f"cannot compare with PyTorch: {why}"
        if not any(m in mats for m in INDEPENDENT):
            unchecked = "no method independent of the engine's rules could run (" + (
                "; ".join(f"{m}: {skipped[m]}" for m in INDEPENDENT if m in skipped) + ")"
            )
        r = PairResult(
            of,
            n,
            tuple(out.shape),
            tuple(t.shape),
            mats,
            skipped,
            compare_methods(mats, d, atol=atol, rtol=rtol, low_precision=low_precision),
            custom=custom_names(out, {id(t)}) if customs else [],
            numeric_of=source.get(n) if d is not None else None,
            notes=[numeric_notes[n]] if n in numeric_notes and d is not None else [],
            unchecked=unchecked,
        )
        if d is not None:
            r.kinks = d.kinks()
            r.one_sided = (d.left, d.right) if d.left is not None else None
        if r.status == "disagree":
            _diagnose(r, num, base, of, out, t, stop, d, ref, eps, atol, rtol)
        results.append(r)
    return CheckResult(of, results, eps, atol, rtol, warnings, time.perf_counter() - started)


def _budget(out: Tensor, targets: list[tuple[str, Tensor]], torch: bool) -> None:
    """Refuse, before any work, a check whose matrices would not fit the memory limit: each
    input holds about eight (n_out, n_in) float64 matrices (engine, forward, the central,
    left and right differences, their noise, sympy's, PyTorch's)."""
    n_out = int(out.data.size)
    entries = sum(n_out * int(t.data.size) for _, t in targets)
    api.check_entries(n_out, sum(int(t.data.size) for _, t in targets), "Jacobian")
    mb = entries * 8 * (9 if torch else 8) >> 20
    limits.MEMORY_MB.check(
        mb,
        f"the memory check needs for its matrices ({entries:,} entries, several methods), in MB,",
    )


def _diagnose(
    r: PairResult,
    num: _Numeric,
    base: Run,
    of: str,
    out: Tensor,
    t: Tensor,
    stop: set[int],
    d: Differences | None,
    ref: Any,
    eps: float,
    atol: float,
    rtol: float,
) -> None:
    """Why the pair disagrees: see the module's docstring."""
    failing = [c for c in r.comparisons if not c.ok]
    agree = {frozenset((c.a, c.b)) for c in r.comparisons if c.ok}
    engine_confirmed = any(frozenset(("engine", m)) in agree for m in ("numeric", "sympy"))
    if engine_confirmed and all("torch" in (c.a, c.b) for c in failing):
        # Only PyTorch disagrees, and an independent method confirms the engine.
        kink = r.kinks is not None and r.worst() is not None and r.worst()["kink"]  # type: ignore[index]
        if kink:
            r.causes.append(
                "PyTorch's value differs at a point where the function is not differentiable "
                "(a kink): the two use different conventions there; finite differences agree "
                "with gradcli, so gradcli's rules are not to blame"
            )
        else:
            r.causes.append(
                "only PyTorch disagrees, and finite differences or sympy agree with gradcli's "
                "engine: the two runs differentiate different computations (see the "
                "warnings), not a wrong rule in gradcli"
            )
        return
    numeric_failed = any("numeric" in (c.a, c.b) and "engine" in (c.a, c.b) for c in failing)
    if numeric_failed and r.numeric_of == "program":
        g = num.graph(r.wrt)
        c = compare_methods(
            {"engine": r.jacobians["engine"], "numeric": g.central}, g, atol=atol, rtol=rtol
        )[0]
        if c.ok:
            r.causes.append(OUTSIDE_GRAPH.format(wrt=r.wrt))
            return
    if r.custom and d is not None:
        r.culprits = _blame_custom(base, of, r, r.wrt, d, atol, rtol)
    r.domain = domain_notes(out, stop)
    if not r.culprits and not r.domain:
        r.rules = local_rules(out, stop, eps=eps, atol=atol, rtol=rtol)


def _sympy_jacobians(
    num: _Numeric, of: str, names: list[str], customs: bool
) -> tuple[dict[str, np.ndarray], str]:
    """sympy's Jacobians evaluated at the program's values, or why there are none. A limit
    of sympy's own (elements, expression size, its share of time) skips it with the reason; the
    command's time limit is an error."""
    from .symbolic import SymbolicUnavailable, sympy_jacobians

    run = num.seen_through() if customs else num.base
    try:
        return sympy_jacobians(run, of, names), ""
    except LimitError as e:
        if e.limit == limits.TIME_SECONDS.name:
            raise
        return {}, f"too large for sympy: {e.message} ({e.hint})"
    except SymbolicUnavailable as e:
        return {}, e.message
    except RecursionError:
        return {}, "the expressions are nested too deeply for sympy"


__all__ = ["METHOD_HELP", "check", "compare", "domain_notes", "local_rules"]
