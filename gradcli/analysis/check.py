"""`gradcli check`: every derivative three ways (the engine, finite differences, sympy), and a
fourth (PyTorch) on request.

For each (output, input) pair the Jacobian `J[i, j] = d out_i / d in_j` (row-major over both
tensors) is computed by:

engine   reverse mode: one backward pass per output element, its upstream gradient a one-hot
         mask (`gradcli.jacobian`, method rows). It uses every rule as written, custom
         `f_backward` / `Function.backward` included.
forward  forward mode (`gradcli.jacobian`, method forward): one tangent per input element.
numeric  central finite differences in float64: `(f(x + h e_j) - f(x - h e_j)) / 2h` with the
         step `h = eps * max(1, |x_j|)` (`eps` = 1e-6 by default), by re-running the program
         with the input's element replaced (`Program.run(overrides=...)`). It sees only
         forward values, so it differentiates what a custom function computes.
sympy    the graph evaluated symbolically (`gradcli.symbolic`) and differentiated exactly, then
         evaluated at the program's values; when the tensors are small enough (named limits
         `sympy_elements`, `sympy_expression`). Custom functions are seen through (their
         forward body is differentiated).
torch    only with `against="torch"`: the program text is executed as real PyTorch code (it is
         valid PyTorch for the supported subset) and its Jacobian taken by masked
         `torch.autograd.grad` passes. This is the ONE place where gradcli executes program
         text as Python, and it happens only when the user asks for it explicitly
         (`gradcli check --against torch`): do not use it on programs you do not trust.

The whole check runs in float64: float32 leaves are promoted when they are assigned (with a
warning), so that differences measure the rules, not float32 rounding.

When a pair disagrees, check looks for the culprit: each custom function on the path is tried
alone (the engine's Jacobian with only its custom gradient kept, the others' forward bodies
differentiated, against finite differences); ops evaluated outside the points where they are
differentiable (an op's `domain` check, e.g. sqrt at 0) are reported; otherwise each of
gradcli's own rules on the path is checked at its node against finite differences of its
forward.

Agreement. Two values a, b agree when `|a - b| <= atol + rtol * max(|a|, |b|)`, plus, where
finite differences are involved, their rounding-error estimate `64 * 2**-52 * |f| / h`. The
user's `atol` / `rtol` (1e-6 / 1e-5 by default) apply to comparisons with finite differences;
exact methods (engine, sympy, torch in float64) must agree to `1e-8` relative and `1e-10 *
max(1, max |J|)` absolute (`2e-4` / `1e-5` when PyTorch computed in float32). Where the one-sided
differences of an input element disagree, the function is not differentiable there (relu at 0,
abs at 0, max ties, clamp at a bound): every method's value there must lie between the two
one-sided derivatives (that is where PyTorch's conventions fall), and the entry is reported as
a kink.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..base.errors import GradcliError, LimitError
from ..core.autograd import run_backward, unbroadcast
from ..core.graph import ancestors
from ..core.tensor import Tensor, no_grad

EPS = 1e-6
ATOL = 1e-6
RTOL = 1e-5
ATOL_EXACT = 1e-10
RTOL_EXACT = 1e-8
ATOL_F32 = 1e-5
RTOL_F32 = 2e-4
NOISE = 64 * 2.0**-52
KINK_TOL = 1e-2
MAX_NUMERIC_RUNS = 4_000  # perturbed runs of the program, over all inputs of one check

METHOD_HELP = {
    "engine": "reverse mode (masked backward passes)",
    "forward": "forward mode (one column per input element)",
    "numeric": "central finite differences (float64)",
    "sympy": "sympy's exact derivative, evaluated at the program's values",
    "torch": "PyTorch autograd (masked torch.autograd.grad passes)",
}


# --- results ---------------------------------------------------------------------------------


@dataclass
class Comparison:
    a: str
    b: str
    max_abs: float
    max_rel: float
    ok: bool
    worst: tuple[int, int] | None  # (row, column) of the entry furthest from agreeing
    ratio: float  # that entry's |a - b| / allowed (> 1: disagrees)
    skipped: int = 0  # entries where one of the two had no value (nan)

    def to_json(self) -> dict[str, Any]:
        return {
            "methods": [self.a, self.b],
            "max_abs": _jf(self.max_abs),
            "max_rel": _jf(self.max_rel),
            "ok": self.ok,
        }


@dataclass
class PairResult:
    """One (output, input) pair: each method's Jacobian and how they compare."""

    of: str
    wrt: str
    of_shape: tuple[int, ...]
    wrt_shape: tuple[int, ...]
    jacobians: dict[str, np.ndarray]  # method -> (n_out, n_in)
    skipped: dict[str, str]  # method -> why it was not used
    comparisons: list[Comparison]
    kinks: np.ndarray | None = None  # bool (n_out, n_in): not differentiable there
    one_sided: tuple[np.ndarray, np.ndarray] | None = None
    custom: list[str] = field(default_factory=list)  # custom functions on the path
    culprits: list[str] = field(default_factory=list)  # custom functions found wrong
    rules: list[str] = field(default_factory=list)  # gradcli rules found wrong
    domain: list[str] = field(default_factory=list)  # ops evaluated where not differentiable

    @property
    def methods(self) -> list[str]:
        return list(self.jacobians)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.comparisons)

    @property
    def max_abs(self) -> float:
        return max((c.max_abs for c in self.comparisons), default=0.0)

    @property
    def max_rel(self) -> float:
        return max((c.max_rel for c in self.comparisons), default=0.0)

    def worst_comparison(self) -> Comparison | None:
        cs = [c for c in self.comparisons if c.worst is not None]
        return max(cs, key=lambda c: c.ratio) if cs else None

    def worst(self) -> dict[str, Any] | None:
        """The entry furthest from agreeing: which output, which input, each method's value."""
        c = self.worst_comparison()
        if c is None or c.worst is None:
            return None
        i, j = c.worst
        out_idx = list(np.unravel_index(i, self.of_shape)) if self.of_shape else []
        in_idx = list(np.unravel_index(j, self.wrt_shape)) if self.wrt_shape else []
        w: dict[str, Any] = {
            "output": [int(k) for k in out_idx],
            "input": [int(k) for k in in_idx],
            "values": {m: _jf(float(J[i, j])) for m, J in self.jacobians.items()},
            "methods": [c.a, c.b],
            "abs": _jf(abs(float(self.jacobians[c.a][i, j] - self.jacobians[c.b][i, j]))),
            "kink": bool(self.kinks[i, j]) if self.kinks is not None else False,
        }
        if self.one_sided is not None and w["kink"]:
            w["one_sided"] = [
                _jf(float(self.one_sided[0][i, j])),
                _jf(float(self.one_sided[1][i, j])),
            ]
        return w

    def to_json(self) -> dict[str, Any]:
        return {
            "of": self.of,
            "wrt": self.wrt,
            "of_shape": list(self.of_shape),
            "wrt_shape": list(self.wrt_shape),
            "ok": self.ok,
            "methods": self.methods,
            "skipped": dict(self.skipped),
            "max_abs": _jf(self.max_abs),
            "max_rel": _jf(self.max_rel),
            "comparisons": [c.to_json() for c in self.comparisons],
            "worst": self.worst(),
            "kinks": int(self.kinks.sum()) if self.kinks is not None else 0,
            "custom": list(self.custom),
            "culprits": list(self.culprits),
            "rules": list(self.rules),
            "domain": list(self.domain),
        }


@dataclass
class CheckResult:
    of: str
    results: list[PairResult]
    eps: float
    atol: float
    rtol: float
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "of": self.of,
            "eps": self.eps,
            "atol": self.atol,
            "rtol": self.rtol,
            "warnings": list(self.warnings),
            "results": [r.to_json() for r in self.results],
        }

    def summary(self) -> str:
        """One line per disagreeing pair (or that all agree)."""
        if self.ok:
            n = len(self.results)
            return f"ok: all methods agree on {n} pair{'s' if n != 1 else ''}"
        return "\n".join(describe_failure(r) for r in self.results if not r.ok)


def _jf(v: float) -> Any:
    """A float for JSON (non-finite as a string)."""
    v = float(v)
    if np.isfinite(v):
        return v
    return "nan" if np.isnan(v) else ("inf" if v > 0 else "-inf")


def describe_failure(r: PairResult) -> str:
    """Which output, which input, each method's value, and whom to blame."""
    w = r.worst()
    head = f"{r.of} / {r.wrt}: the methods disagree"
    if w is None:
        return head
    out = f"{r.of}[{','.join(map(str, w['output']))}]" if w["output"] else r.of
    inp = f"{r.wrt}[{','.join(map(str, w['input']))}]" if w["input"] else r.wrt
    vals = ", ".join(f"{m} {v}" for m, v in w["values"].items())
    lines = [f"{head}: d {out} / d {inp}: {vals}"]
    for c in r.culprits:
        lines.append(
            f"  the custom gradient of `{c}` is wrong: it disagrees with the "
            f"derivative of `{c}`'s forward (finite differences)"
        )
    if r.custom and not r.culprits:
        lines.append("  custom gradients on the path: " + ", ".join(f"`{c}`" for c in r.custom))
    for d in r.domain:
        lines.append(f"  the program is evaluated where it is not differentiable: {d}")
    for rule in r.rules:
        lines.append(
            f"  gradcli's rule for `{rule}` disagrees with finite differences (please report it)"
        )
    return "\n".join(lines)


# --- the engine's Jacobian -------------------------------------------------------------------


def engine_jacobian(
    out: Tensor, targets: list[tuple[str, Tensor]], method: str = "rows"
) -> dict[str, np.ndarray]:
    """`J[i, j] = d out_i / d in_j` for each target from the engine's rules, as (n_out, n_in)
    float64 matrices: `rows` (one masked backward pass per output element), `batched` (all
    masks in one pass) or `forward` (forward mode), by `gradcli.jacobian.jacobian_of`."""
    try:
        from .jacobian import jacobian_of
    except ImportError:  # pragma: no cover - the jacobian module is part of gradcli
        return _masked_passes(out, targets)
    res = jacobian_of(out, dict(targets), method)
    return {name: np.asarray(res.blocks[name].matrix, dtype=np.float64) for name, _ in targets}


def _masked_passes(out: Tensor, targets: list[tuple[str, Tensor]]) -> dict[str, np.ndarray]:
    """The minimal reverse mode: one backward pass per output element, a one-hot mask each."""
    n_out = int(out.data.size)
    caps = [t for _, t in targets]
    result = {name: np.zeros((n_out, int(t.data.size))) for name, t in targets}
    for i in range(n_out):
        mask = np.zeros(n_out, dtype=out.dtype)
        mask[i] = 1
        got = run_backward(
            [out], [Tensor(mask.reshape(out.shape))], capture=caps, check_freed=False
        )
        for name, t in targets:
            if id(t) in got:
                result[name][i] = np.asarray(got[id(t)][1].data, dtype=np.float64).reshape(-1)
    return result


# --- finite differences ----------------------------------------------------------------------


@dataclass
class Differences:
    central: np.ndarray  # (n_out, n_in)
    left: np.ndarray
    right: np.ndarray
    noise: np.ndarray  # rounding-error estimate of `central`
    failed: int = 0  # input elements whose perturbed runs failed (their columns are nan)


def finite_differences(
    prog: Any,
    of: str,
    name: str,
    x0: np.ndarray,
    f0: np.ndarray,
    *,
    eps: float = EPS,
    overrides: dict[str, np.ndarray] | None = None,
    dtype: Any = None,
    seed: int = 0,
) -> Differences:
    """Central (and one-sided) differences of `of` in the leaf `name`, in float64, by
    re-running the program with one element of `name` moved by `h = eps * max(1, |x|)`."""
    x0 = np.asarray(x0, dtype=np.float64)
    f0 = np.asarray(f0, dtype=np.float64).reshape(-1)
    n_in, n_out = int(x0.size), int(f0.size)
    central = np.full((n_out, n_in), np.nan)
    left = np.full((n_out, n_in), np.nan)
    right = np.full((n_out, n_in), np.nan)
    noise = np.zeros((n_out, n_in))
    failed = 0
    base = dict(overrides or {})

    def value(x: np.ndarray) -> np.ndarray | None:
        try:
            r = prog.run(overrides={**base, name: x}, dtype=dtype, seed=seed, promote=True)
            with np.errstate(all="ignore"):
                return np.asarray(r.tensor(of).data, dtype=np.float64).reshape(-1)
        except GradcliError:
            return None

    flat = x0.reshape(-1)
    for j in range(n_in):
        h = eps * max(1.0, abs(float(flat[j])))
        xp, xm = flat.copy(), flat.copy()
        xp[j] += h
        xm[j] -= h
        hp, hm = xp[j] - flat[j], flat[j] - xm[j]  # the steps actually taken
        fp, fm = value(xp.reshape(x0.shape)), value(xm.reshape(x0.shape))
        if fp is None or fm is None or fp.shape != f0.shape or fm.shape != f0.shape:
            failed += 1
            continue
        with np.errstate(all="ignore"):
            central[:, j] = (fp - fm) / (hp + hm)
            right[:, j] = (fp - f0) / hp
            left[:, j] = (f0 - fm) / hm
            scale = np.maximum(np.maximum(np.abs(fp), np.abs(fm)), np.abs(f0))
            noise[:, j] = NOISE * scale / min(hp, hm)
    return Differences(central, left, right, noise, failed)


# --- PyTorch ---------------------------------------------------------------------------------


def torch_jacobian(
    text: str, filename: str, of: str, names: list[str], leaves: dict[str, np.ndarray]
) -> tuple[dict[str, np.ndarray], bool]:
    """Run the program text as real PyTorch code and take the Jacobian by masked passes.

    THIS EXECUTES THE PROGRAM AS PYTHON (the only place gradcli does): it is called only for
    `gradcli check --against torch`. Returns the Jacobians and whether PyTorch computed in
    float32. `leaves` (name -> value in gradcli) must equal PyTorch's values, else the two are
    not comparable (a GradcliError says so).
    """
    try:
        import torch
    except ImportError:
        raise GradcliError(
            "--against torch needs PyTorch, which is not installed",
            hint="pip install torch, or leave out --against",
        ) from None
    import builtins
    import warnings

    from ..surface.names import FUNCTIONS

    namespace: dict[str, Any] = {
        "__name__": "__gradcli_check__",
        "__builtins__": builtins,
        "print": lambda *a, **k: None,
    }
    # The names a gradcli program may use without importing them: torch's own.
    for name in FUNCTIONS:
        for owner in (torch, torch.nn.functional, torch.autograd):
            if hasattr(owner, name):
                namespace[name] = getattr(owner, name)
                break
    namespace.update(
        {
            "torch": torch,
            "nn": torch.nn,
            "F": torch.nn.functional,
            "autograd": torch.autograd,
            "numpy": np,
            "np": np,
        }
    )
    # The program may free its graph (a last backward() without retain_graph): keep it.
    saved = (torch.Tensor.backward, torch.autograd.backward, torch.autograd.grad)

    def t_backward(
        self: Any,
        gradient: Any = None,
        retain_graph: Any = None,
        create_graph: bool = False,
        inputs: Any = None,
    ) -> None:
        saved[0](self, gradient, True, create_graph, inputs)

    def a_backward(
        tensors: Any,
        grad_tensors: Any = None,
        retain_graph: Any = None,
        create_graph: bool = False,
        *a: Any,
        **k: Any,
    ) -> None:
        saved[1](tensors, grad_tensors, True, create_graph, *a, **k)

    def a_grad(
        outputs: Any,
        inputs: Any,
        grad_outputs: Any = None,
        retain_graph: Any = None,
        create_graph: bool = False,
        *a: Any,
        **k: Any,
    ) -> Any:
        return saved[2](outputs, inputs, grad_outputs, True, create_graph, *a, **k)

    try:
        code = compile(text, filename, "exec")
    except SyntaxError as e:
        raise GradcliError(f"PyTorch: the program is not valid Python: {e.msg}") from None
    torch.manual_seed(0)
    default_dtype = torch.get_default_dtype()
    try:
        # gradcli's default dtype is float64 (PyTorch's float32); FloatTensor stays float32.
        torch.set_default_dtype(torch.float64)
        torch.Tensor.backward = t_backward  # type: ignore[method-assign]
        torch.autograd.backward = a_backward  # type: ignore[assignment]
        torch.autograd.grad = a_grad  # type: ignore[assignment]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(code, namespace)  # noqa: S102 - `--against torch` only, documented
    except Exception as e:  # noqa: BLE001 - any failure of the user's code in PyTorch
        raise GradcliError(
            f"the program does not run in PyTorch: {type(e).__name__}: {e}",
            hint="--against torch runs the program text as real PyTorch code; "
            "gradcli accepts some things PyTorch does not",
        ) from None
    finally:
        torch.set_default_dtype(default_dtype)
        torch.Tensor.backward = saved[0]  # type: ignore[method-assign]
        torch.autograd.backward, torch.autograd.grad = saved[1], saved[2]  # type: ignore[assignment]
    for n, v in leaves.items():
        t = namespace.get(n)
        if isinstance(t, torch.Tensor):
            tv = t.detach().cpu().numpy().astype(np.float64)
            if tv.shape != v.shape or not np.allclose(tv, v, rtol=1e-6, atol=1e-7):
                raise GradcliError(
                    f"PyTorch's `{n}` has other values than gradcli's",
                    hint="random numbers (rand/randn) differ between PyTorch and gradcli, and "
                    "--set does not reach PyTorch: give the inputs literal values to compare",
                )
    out = namespace.get(of)
    if not isinstance(out, torch.Tensor) or not out.requires_grad:
        raise GradcliError(f"PyTorch: `{of}` is not a tensor that requires grad")
    ins = []
    for n in names:
        t = namespace.get(n)
        if not isinstance(t, torch.Tensor) or not t.requires_grad:
            raise GradcliError(f"PyTorch: `{n}` is not a tensor that requires grad")
        ins.append(t)
    n_out = out.numel()
    result = {n: np.zeros((n_out, t.numel())) for n, t in zip(names, ins)}
    for i in range(n_out):
        mask = torch.zeros(n_out, dtype=out.dtype)
        mask[i] = 1
        grads = saved[2](
            out, ins, grad_outputs=mask.reshape(out.shape), retain_graph=True, allow_unused=True
        )
        for n, g in zip(names, grads):
            if g is not None:
                result[n][i] = g.detach().cpu().numpy().astype(np.float64).reshape(-1)
    low = out.dtype == torch.float32 or any(t.dtype == torch.float32 for t in ins)
    return result, bool(low)


# --- comparing -------------------------------------------------------------------------------


def compare(
    a_name: str,
    a: np.ndarray,
    b_name: str,
    b: np.ndarray,
    *,
    atol: float,
    rtol: float,
    noise: np.ndarray | None = None,
    kinks: np.ndarray | None = None,
    lo: np.ndarray | None = None,
    hi: np.ndarray | None = None,
) -> Comparison:
    """Entry by entry: |a - b| <= atol + rtol * max(|a|, |b|) (+ noise); at kinks both must
    lie between the one-sided derivatives `lo`, `hi` (widened by the same tolerance)."""
    with np.errstate(all="ignore"):
        big = np.maximum(np.abs(a), np.abs(b))
        diff = np.abs(a - b)
        allowed = atol + rtol * np.where(np.isfinite(big), big, 0.0)
        if noise is not None:
            allowed = allowed + noise
        same = (a == b) | (np.isnan(a) & np.isnan(b))
        ratio = np.where(same, 0.0, diff / allowed)
        # An entry where one method (not the engine) has no value is skipped.
        missing = (np.isnan(a) ^ np.isnan(b)) & ~(np.isnan(a) & (a_name == "engine"))
        ratio = np.where(missing, 0.0, ratio)
        ratio = np.where(np.isnan(ratio), np.inf, ratio)
        if kinks is not None and lo is not None and hi is not None:
            low, high = np.minimum(lo, hi) - allowed, np.maximum(lo, hi) + allowed
            inside = ((a >= low) & (a <= high) | np.isnan(a)) & (
                (b >= low) & (b <= high) | np.isnan(b)
            )
            ratio = np.where(kinks & inside, 0.0, ratio)
        fin = np.isfinite(diff) & ~missing
        max_abs = float(diff[fin].max()) if fin.any() else 0.0
        rel_ok = fin & (big > atol)
        max_rel = float((diff[rel_ok] / big[rel_ok]).max()) if rel_ok.any() else 0.0
    if ratio.size:
        k = int(np.argmax(ratio))
        worst = (int(k // ratio.shape[1]), int(k % ratio.shape[1]))
        top = float(ratio.reshape(-1)[k])
    else:
        worst, top = None, 0.0
    return Comparison(
        a_name, b_name, max_abs, max_rel, bool(top <= 1.0), worst, top, int(missing.sum())
    )


def _compare_all(
    r: PairResult, diffs: Differences | None, atol: float, rtol: float, low_precision: set[str]
) -> None:
    names = list(r.jacobians)
    scale = max(
        (
            float(np.nanmax(np.abs(J)))
            for J in r.jacobians.values()
            if J.size and np.isfinite(J).any()
        ),
        default=1.0,
    )
    scale = max(1.0, scale if np.isfinite(scale) else 1.0)
    kinks = lo = hi = None
    if diffs is not None:
        with np.errstate(all="ignore"):
            gap = np.abs(diffs.right - diffs.left)
            size = np.maximum(1.0, np.maximum(np.abs(diffs.left), np.abs(diffs.right)))
            kinks = np.nan_to_num(gap / size, nan=0.0) > KINK_TOL
        lo, hi = diffs.left, diffs.right
        r.kinks = kinks
        r.one_sided = (diffs.left, diffs.right)
    for x in range(len(names)):
        for y in range(x + 1, len(names)):
            a, b = names[x], names[y]
            if "numeric" in (a, b):
                c = compare(
                    a,
                    r.jacobians[a],
                    b,
                    r.jacobians[b],
                    atol=atol,
                    rtol=rtol,
                    noise=diffs.noise if diffs is not None else None,
                    kinks=kinks,
                    lo=lo,
                    hi=hi,
                )
            else:
                if a in low_precision or b in low_precision:
                    at, rt = ATOL_F32 * scale, RTOL_F32
                else:
                    at, rt = ATOL_EXACT * scale, RTOL_EXACT
                c = compare(
                    a,
                    r.jacobians[a],
                    b,
                    r.jacobians[b],
                    atol=at,
                    rtol=rt,
                    kinks=kinks,
                    lo=lo,
                    hi=hi,
                )
            r.comparisons.append(c)


# --- finding the culprit ---------------------------------------------------------------------


def _blame_custom(
    prog: Any,
    of: str,
    r: PairResult,
    target: str,
    reference: np.ndarray,
    noise: np.ndarray | None,
    atol: float,
    rtol: float,
    overrides: Any,
    dtype: Any,
    seed: int,
) -> list[str]:
    """The custom functions whose own backward is wrong: for each, the engine's Jacobian with
    only that function's custom gradient kept (the others' forward bodies differentiated)
    against `reference` (finite differences)."""
    bad = []
    for name in r.custom:
        try:
            run = prog.run(
                overrides=overrides,
                dtype=dtype,
                seed=seed,
                see_through=lambda n, keep=name: n != keep,
                promote=True,
            )
            out = run.tensor(of)
            t = run.tensor(target)
            j = engine_jacobian(out, [(target, t)])[target]
        except GradcliError:
            continue
        c = compare(
            "engine",
            j,
            "numeric",
            reference,
            atol=atol,
            rtol=rtol,
            noise=noise,
            kinks=r.kinks,
            lo=r.one_sided[0] if r.one_sided else None,
            hi=r.one_sided[1] if r.one_sided else None,
        )
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
    node (at the node's input values): which op to blame when a check fails."""
    bad: list[str] = []
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
        tensors = [Tensor(a) for a in arrays]
        out_t = Tensor(f0)
        jac = {i: np.zeros((n_out, arrays[i].size)) for i in pos}
        try:
            with no_grad(), np.errstate(all="ignore"):
                for k in range(n_out):
                    mask = np.zeros(n_out)
                    mask[k] = 1
                    gs = op.vjp(Tensor(mask.reshape(f0.shape)), out_t, *tensors, **n.params)
                    for i in pos:
                        gi = gs[i] if i < len(gs) else None
                        if gi is None:
                            continue
                        gi = gi if isinstance(gi, Tensor) else Tensor(np.asarray(gi))
                        gi = unbroadcast(gi, arrays[i].shape, 0)
                        jac[i][k] = np.asarray(gi.data, dtype=np.float64).reshape(-1)
        except Exception:  # noqa: BLE001
            continue
        for i in pos:
            x0 = arrays[i]
            flat = x0.reshape(-1)
            cen = np.full((n_out, flat.size), np.nan)
            lft, rgt, noi = cen.copy(), cen.copy(), np.zeros_like(cen)
            for j in range(flat.size):
                h = eps * max(1.0, abs(float(flat[j])))
                xp, xm = flat.copy(), flat.copy()
                xp[j] += h
                xm[j] -= h
                try:
                    with np.errstate(all="ignore"):
                        ap, am = list(arrays), list(arrays)
                        ap[i], am[i] = xp.reshape(x0.shape), xm.reshape(x0.shape)
                        fp = np.asarray(op.forward(*ap, **n.params), dtype=np.float64).ravel()
                        fm = np.asarray(op.forward(*am, **n.params), dtype=np.float64).ravel()
                except Exception:  # noqa: BLE001
                    continue
                hp, hm = xp[j] - flat[j], flat[j] - xm[j]
                with np.errstate(all="ignore"):
                    cen[:, j] = (fp - fm) / (hp + hm)
                    rgt[:, j] = (fp - f0.ravel()) / hp
                    lft[:, j] = (f0.ravel() - fm) / hm
                    noi[:, j] = NOISE * np.maximum(np.abs(fp), np.abs(fm)) / min(hp, hm)
            with np.errstate(all="ignore"):
                gap = np.abs(rgt - lft) / np.maximum(1.0, np.maximum(np.abs(lft), np.abs(rgt)))
            kinks = np.nan_to_num(gap, nan=0.0) > KINK_TOL
            c = compare(
                "engine",
                jac[i],
                "numeric",
                cen,
                atol=atol,
                rtol=rtol,
                noise=noi,
                kinks=kinks,
                lo=lft,
                hi=rgt,
            )
            if not c.ok:
                bad.append(op.name)
                break
    return bad


# --- check -----------------------------------------------------------------------------------


def _program(program: Any) -> Any:
    from ..lang.program import Program, Run, parse

    if isinstance(program, Run):
        return program.program
    if isinstance(program, Program):
        return program
    return parse(program)


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
    module's docstring for the methods and the tolerances.

    >>> check("x = tensor([1., 2.], requires_grad=True)\\ny = (x * x).sum()").ok
    True
    """
    from . import api
    from .symbolic import custom_names, resolve_output

    started = time.perf_counter()
    if eps <= 0 or not np.isfinite(eps):
        raise GradcliError(f"the finite-difference step must be positive, got {eps}")
    if against not in (None, "torch"):
        raise GradcliError(f"cannot check against {against!r}", expected="torch")
    prog = _program(program)
    base = prog.run(overrides=overrides, dtype=dtype, seed=seed, promote=True)
    promoted = base.promoted
    asked = of
    of, out = resolve_output(base, of)
    targets = api.resolve_wrt(base, wrt, of)
    names = [n for n, _ in targets]
    warnings: list[str] = []
    if asked is None and base.last_assigned not in (None, of):
        warnings.append(
            f"the last assigned tensor, `{base.last_assigned}`, does not require "
            f"grad: checking `{of}`, the last one that does (choose with --of)"
        )
    if promoted:
        warnings.append(
            "the program is float32 ("
            + ", ".join(f"`{p}`" for p in promoted)
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
        eps = max(eps, 1e-3)
        atol, rtol = max(atol, 1e-4), max(rtol, 1e-3)
    stop = {id(t) for _, t in targets}
    customs = custom_names(out, stop)

    engine = engine_jacobian(out, targets, "rows")
    forward: dict[str, np.ndarray] | None = None
    forward_skip = ""
    try:
        forward = engine_jacobian(out, targets, "forward")
    except GradcliError as e:
        forward_skip = e.message
    f0 = np.asarray(out.data, dtype=np.float64)

    # finite differences (leaves only: an intermediate cannot be perturbed by re-running)
    diffs: dict[str, Differences] = {}
    numeric_skip: dict[str, str] = {}
    runs = 2 * sum(int(t.data.size) for _, t in targets if t.node is None)
    for n, t in targets:
        if t.node is not None:
            numeric_skip[n] = (
                f"`{n}` is computed by the program (finite differences perturb only leaves)"
            )
            continue
        if runs > MAX_NUMERIC_RUNS:
            numeric_skip[n] = (
                f"finite differences would run the program {runs:,} times (more than "
                f"{MAX_NUMERIC_RUNS:,}): check fewer or smaller inputs with --wrt"
            )
            continue
        d = finite_differences(
            prog, of, n, t.data, f0, eps=eps, overrides=overrides, dtype=dtype, seed=seed
        )
        if d.failed >= t.data.size:  # `failed` counts input elements (columns)
            numeric_skip[n] = (
                f"every perturbed run of `{n}` failed (outside the program's domain, or over "
                "a limit?): no finite differences"
            )
            continue
        if d.failed:
            warnings.append(
                f"{d.failed} perturbed run(s) of `{n}` failed (outside the "
                "program's domain?): those columns have no finite differences"
            )
        diffs[n] = d

    # sympy
    sym: dict[str, np.ndarray] = {}
    sym_skip = ""
    if use_sympy:
        sym, sym_skip = _sympy_jacobians(
            prog, base, of, names, bool(customs), overrides=overrides, dtype=dtype, seed=seed
        )
    else:
        sym_skip = "not asked for (--no-sympy)"

    # PyTorch
    torch_j: dict[str, np.ndarray] = {}
    torch_skip = "not asked for (--against torch)"
    if against == "torch":
        if overrides:
            raise GradcliError(
                "--against torch cannot use --set: PyTorch runs the program text as written"
            )
        leaves = {n: np.asarray(base.tensors[n].data, dtype=np.float64) for n in base.leaves()}
        torch_j, low = torch_jacobian(prog.source.text, prog.source.name, of, names, leaves)
        torch_skip = ""
        if low:
            low_precision.add("torch")
            warnings.append(
                "PyTorch computed in float32 (as the program asks): it is compared "
                f"with float32 tolerances ({RTOL_F32:g} relative)"
            )

    results = []
    for n, t in targets:
        mats: dict[str, np.ndarray] = {"engine": engine[n]}
        skipped: dict[str, str] = {}
        if forward is not None:
            mats["forward"] = forward[n]
        else:
            skipped["forward"] = forward_skip
        if n in diffs:
            mats["numeric"] = diffs[n].central
        else:
            skipped["numeric"] = numeric_skip.get(n, "not available")
        if n in sym:
            mats["sympy"] = sym[n]
        else:
            skipped["sympy"] = sym_skip or "not available"
        if n in torch_j:
            mats["torch"] = torch_j[n]
        elif against == "torch":
            skipped["torch"] = torch_skip or "not available"
        r = PairResult(
            of,
            n,
            tuple(out.shape),
            tuple(t.shape),
            mats,
            skipped,
            [],
            custom=custom_names(out, {id(t)}) if customs else [],
        )
        _compare_all(r, diffs.get(n), atol, rtol, low_precision)
        if not r.ok:
            ref = diffs[n] if n in diffs else None
            if r.custom and ref is not None:
                r.culprits = _blame_custom(
                    prog, of, r, n, ref.central, ref.noise, atol, rtol, overrides, dtype, seed
                )
            r.domain = domain_notes(out, stop)
            if not r.culprits and not r.domain:
                r.rules = local_rules(out, stop, eps=eps, atol=atol, rtol=rtol)
        results.append(r)
    return CheckResult(of, results, eps, atol, rtol, warnings, time.perf_counter() - started)


def _sympy_jacobians(
    prog: Any,
    base: Any,
    of: str,
    names: list[str],
    customs: bool,
    *,
    overrides: Any,
    dtype: Any,
    seed: int,
) -> tuple[dict[str, np.ndarray], str]:
    """sympy's Jacobians evaluated at the program's values, or why there are none."""
    from .symbolic import SymbolicUnavailable, build, jacobian, numeric_array

    try:
        run = base
        if customs:
            run = prog.run(
                overrides=overrides, dtype=dtype, seed=seed, see_through=True, promote=True
            )
        graph = build(run, of, names)
        graph.check_work(names)
        subs = graph.substitutions()
        return {n: numeric_array(graph.sp, jacobian(graph, n), subs) for n in names}, ""
    except LimitError as e:
        return {}, f"too large for sympy: {e.message} ({e.hint})"
    except SymbolicUnavailable as e:
        return {}, e.message
    except RecursionError:
        return {}, "the expressions are nested too deeply for sympy"
