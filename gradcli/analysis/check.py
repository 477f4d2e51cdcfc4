"""`gradcli check`: every derivative three ways (the engine, finite differences, sympy), and a
fourth (PyTorch) on request.

For each (output, input) pair the Jacobian `J[i, j] = d out_i / d in_j` (row-major over both
tensors) is computed by:

engine   reverse mode: one backward pass per output element, its upstream gradient a one-hot
         mask (`jacobian`, method rows). It uses every rule as written, custom
         `f_backward` / `Function.backward` included.
forward  forward mode (`jacobian`, method forward): one tangent per input element.
numeric  central finite differences in float64: `(f(x + h e_j) - f(x - h e_j)) / 2h` with the
         step `h = eps * max(1, |x_j|)` (`eps` = 1e-6 by default), by re-running the program
         with the input's element replaced (`Program.run(overrides=...)`). It sees only
         forward values, so it differentiates what a custom function computes.
sympy    the graph evaluated symbolically (`symbolic`) and differentiated exactly, then
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

Agreement (`compare`). Two values a, b agree when `|a - b| <= atol + rtol * max(|a|, |b|)`,
plus, where finite differences are involved, their rounding-error estimate
`64 * 2**-52 * |f| / h`. The user's `atol` / `rtol` (1e-6 / 1e-5 by default) apply to
comparisons with finite differences; exact methods (engine, sympy, torch in float64) must
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

from ..base.errors import GradcliError, LimitError
from ..core.autograd import unbroadcast
from ..core.graph import ancestors
from ..core.tensor import Tensor, no_grad
from . import api
from .compare import ATOL, KINK_TOL, RTOL, RTOL_F32, compare, compare_all
from .differences import EPS, NOISE, Differences, finite_differences
from .jacobian import engine_jacobian
from .results import CheckResult, PairResult
from .symbolic import custom_names
from .torch_ref import torch_jacobian

MAX_NUMERIC_RUNS = 4_000  # perturbed runs of the program, over all inputs of one check

METHOD_HELP = {
    "engine": "reverse mode (masked backward passes)",
    "forward": "forward mode (one column per input element)",
    "numeric": "central finite differences (float64)",
    "sympy": "sympy's exact derivative, evaluated at the program's values",
    "torch": "PyTorch autograd (masked torch.autograd.grad passes)",
}


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
    started = time.perf_counter()
    if eps <= 0 or not np.isfinite(eps):
        raise GradcliError(f"the finite-difference step must be positive, got {eps}")
    if against not in (None, "torch"):
        raise GradcliError(f"cannot check against {against!r}", expected="torch")
    prog = api.as_program(program)
    base = prog.run(overrides=overrides, dtype=dtype, seed=seed, promote=True)
    promoted = base.promoted
    asked = of
    of, out = api.resolve_of(base, of)
    targets = api.resolve_wrt(base, wrt)
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
        compare_all(r, diffs.get(n), atol, rtol, low_precision)
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
