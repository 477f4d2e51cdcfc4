"""Finite differences: the numeric derivatives every exact method is checked against.

Two engines still, with different step rules (the seam for one engine, step policy a
parameter):

- `numeric_columns` (`jacobian --method numeric`, `hessian --method numeric`): central
  differences with h = NUMERIC_STEP * max(1, |x|), NUMERIC_STEP = eps ** (1/3), of a `Replay`
  of the recorded graph (any target, intermediates too) or a `Rerun` of the program;
- `finite_differences` (`check`): central and one-sided differences with h = eps * max(1, |x|)
  (eps = 1e-6) and a rounding-noise estimate, by re-running the program (`Program.run`).

`check.local_rules` differences one op's forward at its node the same way as the second.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.autograd import run_backward
from ..core.graph import ancestors, has_custom, on_path
from ..core.op import Node, apply, producer
from ..core.tensor import Tensor
from ..lang.program import Run
from .api import Setup, target_sizes

Progress = Callable[[int, int], None]
NUMERIC_STEP = float(np.finfo(np.float64).eps ** (1 / 3))
EPS = 1e-6
NOISE = 64 * 2.0**-52


class Replay:
    """The recorded computation from the targets to `out`, re-evaluated in float64 with the
    targets perturbed (an intermediate target keeps its inputs' contribution: what it is
    computed from is recomputed, the perturbation added)."""

    def __init__(self, out: Tensor, targets: Sequence[Tensor]):
        self.out = out
        self.targets = list(targets)
        _, self.path = on_path(ancestors([out]), self.targets)

    def value(self, deltas: dict[int, np.ndarray]) -> np.ndarray:
        # Values by node (a tensor changed in place has one value per version), targets by id.
        vals: dict[Any, np.ndarray] = {}
        for t in self.targets:
            if id(t) not in vals:
                vals[id(t)] = f64(t.data) + deltas.get(id(t), 0)
        with np.errstate(all="ignore"):
            for n in self.path:
                arrays = [_version(vals, t, n, f64) for t in n.inputs]
                v = np.asarray(n.op.forward(*arrays, **n.params))
                k = id(n.out)
                if k in deltas and n.out.node is n:
                    v = v + deltas[k]
                vals[n] = v
        out = self.out
        if out.node is not None and out.node in vals:
            return vals[out.node]
        return vals.get(id(out), f64(out.data))

    def gradient(self, deltas: dict[int, np.ndarray]) -> list[np.ndarray]:
        """The gradient of the (one-element) output at the perturbed point, from a graph built
        anew by applying the recorded ops to the perturbed values."""
        new: dict[Any, Tensor] = {}
        capture: list[Tensor] = []
        computed = {id(n.out) for n in self.path}
        for t in self.targets:
            if id(t) not in new and id(t) not in computed:
                new[id(t)] = Tensor(f64(t.data) + deltas.get(id(t), 0), requires_grad=True)
        for n in self.path:
            ins = [_version(new, t, n, lambda a: Tensor(f64(a))) for t in n.inputs]
            v = apply(n.op, *ins, **n.params)
            latest = n.out.node is n
            if latest and (id(n.out) in deltas or any(n.out is t for t in self.targets)):
                v = v + Tensor(deltas.get(id(n.out), np.zeros(n.out.shape)))
            new[n] = v
            if latest:
                new[id(n.out)] = v
        for t in self.targets:
            capture.append(new[id(t)])
        out = new.get(id(self.out))
        if out is None or not out.requires_grad:
            return [np.zeros(t.shape) for t in self.targets]
        got = run_backward([out], [Tensor(np.ones(out.shape))], capture=capture, check_freed=False)
        return [
            np.asarray(got[id(c)][1].data) if id(c) in got else np.zeros(c.shape) for c in capture
        ]


def _version(vals: dict[Any, Any], t: Tensor, n: Node, constant: Callable[[Any], Any]) -> Any:
    """The value of the version of `t` that node `n` used: recomputed by the node that made it,
    a perturbed target, or (not on the path) its recorded data."""
    p = t.node
    if p is not None:
        if p.seq >= n.seq:
            p = producer(t, n.seq)
        if p is not None and p in vals:
            return vals[p]
        if p is not t.node:
            return constant(t.data)  # an old version made off the path
    return vals[id(t)] if id(t) in vals else constant(t.data)


class Rerun:
    """The program re-run with the (leaf) targets' data replaced: for graphs with user-defined
    functions, whose forward pass cannot be replayed from the graph."""

    def __init__(self, s: Setup):
        if s.run is None:
            raise GradcliError(
                "--method numeric cannot re-evaluate a user-defined function outside a program",
                hint="use another method",
            )
        for n, t in s.targets:
            if t.node is not None:
                raise GradcliError(
                    f"--method numeric cannot perturb the intermediate `{n}` of a program with "
                    "a user-defined function",
                    hint="use another --method, or take the derivative with respect to leaves",
                )
        self.s = s
        self.program = s.run.program
        self.base = {n: t.data for n, t in s.run.tensors.items() if t.node is None}
        again = self.value({})
        want = s.out.data
        tol = 1e-12 if want.dtype == np.float64 else 1e-5
        if again.shape != want.shape or not np.allclose(again, want, rtol=tol, atol=tol):
            raise GradcliError(
                f"--method numeric re-runs a program with a user-defined function, and the "
                f"re-run does not reproduce `{s.of}`",
                hint="the program must compute the same values each run (the same seed, and "
                "each leaf assigned once); or use another --method",
            )

    def _run(self, deltas: dict[int, np.ndarray]) -> Run:
        over = dict(self.base)
        for n, t in self.s.targets:
            over[n] = f64(t.data) + deltas.get(id(t), 0)
        return self.program.run(overrides=over, dtype="float64", seed=self.s.seed)

    def value(self, deltas: dict[int, np.ndarray]) -> np.ndarray:
        return f64(self._run(deltas).tensor(self.s.of).data)

    def gradient(self, deltas: dict[int, np.ndarray]) -> list[np.ndarray]:
        r = self._run(deltas)
        out = r.tensor(self.s.of)
        ts = [r.tensor(n) for n, _ in self.s.targets]
        if not out.requires_grad:
            return [np.zeros(t.shape) for t in ts]
        got = run_backward(
            [out], [Tensor(np.ones(out.shape, dtype=out.dtype))], capture=ts, check_freed=False
        )
        return [f64(got[id(t)][1].data) if id(t) in got else np.zeros(t.shape) for t in ts]


def f64(a: np.ndarray) -> np.ndarray:
    """Floating-point data in float64 (other data as it is)."""
    a = np.asarray(a)
    return a.astype(np.float64) if a.dtype.kind == "f" and a.dtype != np.float64 else a


def evaluator(s: Setup) -> Replay | Rerun:
    if has_custom(s.graph()):
        return Rerun(s)
    return Replay(s.out, [t for _, t in s.targets])


def numeric_columns(
    s: Setup, f: Callable[[dict[int, np.ndarray]], Any], progress: Progress | None
) -> list[np.ndarray]:
    """Central differences of `f` (an array or a list of arrays) for every input element:
    one column per element, of f's flattened value(s)."""
    cols_per_target: list[np.ndarray] = []
    total = sum(target_sizes(s.targets))
    done = 0
    for _, t in s.targets:
        n = int(t.data.size)
        x = f64(t.data).reshape(-1)
        cols = []
        for j in range(n):
            h = NUMERIC_STEP * max(1.0, abs(float(x[j]))) if np.isfinite(x[j]) else NUMERIC_STEP
            d = np.zeros(n)
            d[j] = h
            plus = flat_values(f({id(t): d.reshape(t.shape)}))
            d[j] = -h
            minus = flat_values(f({id(t): d.reshape(t.shape)}))
            cols.append((plus - minus) / (2 * h))
            done += 1
            if progress is not None and (done % 8 == 0 or done == total):
                progress(done, total)
        cols_per_target.append(np.stack(cols, axis=1) if cols else np.zeros((0, 0)))
    return cols_per_target


def flat_values(v: Any) -> np.ndarray:
    if isinstance(v, list):
        return np.concatenate([np.asarray(a, dtype=np.float64).reshape(-1) for a in v])
    return np.asarray(v, dtype=np.float64).reshape(-1)


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
