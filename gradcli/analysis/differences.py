"""Numeric derivatives of a program: what is re-evaluated with an input perturbed (an
evaluator), differenced by the one engine of `core.differences`.

Two evaluators, one interface (`value(deltas)`: the output with the targets moved by
`deltas`, keyed by the target's id; `gradient(deltas)`: the gradient of a one-element output
there):

- `GraphReplay`, "the recorded operations": the graph from the targets to the output,
  re-evaluated in float64 with each op's own forward (an intermediate target keeps its
  inputs' contribution: what it is computed from is recomputed, the perturbation added). It
  measures exactly the function the engine differentiates: the operations as recorded, at the
  values they were recorded with, whatever the program did to its tensors afterwards.
- `ProgramRerun`, "the program": the program run again with the leaves replaced
  (`Program.run(overrides=...)`, the one re-run mechanism). It measures the program as a
  function of its leaves: value-dependent branches and custom functions' forward bodies
  included, and also whatever the graph does not record (`.detach()`, `.item()`, a value
  read through `.data`). It can perturb a leaf only if the program leaves the leaf as it
  created it (checked on every run: `CannotRerun` says why not).

`numeric_jacobian` differences either with a step policy (`core.differences.Step`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..base.errors import GradcliError, LimitError
from ..core import hooks
from ..core.autograd import run_backward
from ..core.differences import CUBE_ROOT, Differences, Progress, Step, differences, relative
from ..core.graph import ancestors, has_custom, on_path
from ..core.op import Node, apply, producer
from ..core.tensor import Tensor
from ..lang.program import Run
from .api import Setup

NUMERIC_STEP = CUBE_ROOT  # `jacobian --method numeric`: about 1e-10 relative on smooth functions

Deltas = dict[int, np.ndarray]


class CannotRerun(GradcliError):
    """Re-running the program cannot perturb what the graph used (the message says why)."""


def f64(a: np.ndarray) -> np.ndarray:
    """Floating-point data in float64 (other data as it is)."""
    a = np.asarray(a)
    return a.astype(np.float64) if a.dtype.kind == "f" and a.dtype != np.float64 else a


class GraphReplay:
    """The recorded computation from the targets to `out`, re-evaluated in float64 with the
    targets perturbed."""

    source = "graph"

    def __init__(self, out: Tensor, targets: Sequence[Tensor]):
        self.out = out
        self.targets = list(targets)
        if has_custom(ancestors([out])):
            raise GradcliError(
                "the recorded operations include a user-defined function, whose forward "
                "cannot be re-evaluated from the graph",
                hint="re-run the program with its forward bodies seen through",
            )
        _, self.path = on_path(ancestors([out]), self.targets)

    def value(self, deltas: Deltas) -> np.ndarray:
        # Values by node (a tensor changed in place has one value per version), targets by id.
        vals: dict[Any, np.ndarray] = {}
        for t in self.targets:
            if id(t) not in vals:
                vals[id(t)] = f64(t.data) + deltas.get(id(t), 0)
        with np.errstate(all="ignore"):
            for n in self.path:
                hooks.observer.tick()
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

    def gradient(self, deltas: Deltas) -> list[np.ndarray]:
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


class ProgramRerun:
    """The program re-run with its leaf targets' data replaced (by name), for the output `of`.

    On every run each perturbed leaf must end the run holding exactly the data it was given:
    a program that changes a leaf after creating it (`w.data = ...`, `w.data -= ...`, an
    in-place update under no_grad) or binds its name again would otherwise be perturbed where
    the graph does not look, and the differences would measure another function. The first run
    (at the unperturbed values) must reproduce the output. Either failure is a `CannotRerun`.
    """

    source = "program"

    def __init__(
        self,
        base: Run,
        of: str,
        targets: Sequence[tuple[str, Tensor]],
        want: np.ndarray,
        **changes: Any,
    ):
        """`base`: the run to re-run (its settings, `--set` included, are kept; `changes` are
        made to them, e.g. `dtype="float64"`); `want`: the output's value at the base point."""
        self.base = base
        self.of = of
        self.targets = list(targets)
        self.changes = changes
        for n, t in self.targets:
            if t.node is not None:
                raise CannotRerun(
                    f"`{n}` is computed by the program: re-running it perturbs only leaves"
                )
        self.x0 = {n: f64(t.data) for n, t in self.targets}
        again = self.value({})
        want = f64(np.asarray(want))
        tol = 1e-12 if want.dtype == np.float64 else 1e-5
        with np.errstate(all="ignore"):
            same = again.shape == want.shape and bool(
                np.allclose(again, want, rtol=tol, atol=tol, equal_nan=True)
            )
        if not same:
            raise CannotRerun(
                f"re-running the program does not reproduce `{of}`: it does not compute the "
                "same values each run"
            )

    def run(self, deltas: Deltas) -> Run:
        given = {n: self.x0[n] + deltas.get(id(t), 0) for n, t in self.targets}
        r = self.base.rerun(overrides=given, **self.changes)
        for n, v in given.items():
            got = r.tensors.get(n)
            if (
                got is None
                or got.shape != v.shape
                or not np.array_equal(f64(got.data), v.astype(f64(got.data).dtype), equal_nan=True)
            ):
                raise CannotRerun(
                    f"the program changes `{n}` after creating it (through `.data`, an "
                    "in-place update, or by assigning the name again): re-running it with "
                    f"`{n}` perturbed does not move the value the graph uses"
                )
        return r

    def value(self, deltas: Deltas) -> np.ndarray:
        return f64(self.run(deltas).tensor(self.of).data)

    def gradient(self, deltas: Deltas) -> list[np.ndarray]:
        r = self.run(deltas)
        out = r.tensor(self.of)
        ts = [r.tensor(n) for n, _ in self.targets]
        if not out.requires_grad:
            return [np.zeros(t.shape) for t in ts]
        got = run_backward(
            [out], [Tensor(np.ones(out.shape, dtype=out.dtype))], capture=ts, check_freed=False
        )
        return [f64(got[id(t)][1].data) if id(t) in got else np.zeros(t.shape) for t in ts]


Evaluator = GraphReplay | ProgramRerun


def flat_values(v: Any) -> np.ndarray:
    if isinstance(v, list):
        return np.concatenate([np.asarray(a, dtype=np.float64).reshape(-1) for a in v])
    return np.asarray(v, dtype=np.float64).reshape(-1)


def numeric_jacobian(
    ev: Evaluator,
    targets: Sequence[tuple[str, Tensor]],
    *,
    of: str = "value",
    step: Step | None = None,
    one_sided: bool = False,
    tolerant: bool = False,
    progress: Progress | None = None,
) -> list[Differences]:
    """The finite differences of `ev.value` (or, with `of="gradient"`, of `ev.gradient`) with
    respect to each target, one `Differences` each ((n_out, n_in) arrays).

    `tolerant`: an evaluation that fails with a user error (outside the program's domain)
    leaves its column nan, counted in `failed`; otherwise the error propagates. A limit error
    and `CannotRerun` always propagate."""
    step = step or relative(NUMERIC_STEP)
    fn: Callable[[Deltas], Any] = ev.value if of == "value" else ev.gradient
    total = sum(int(t.data.size) for _, t in targets)
    done = 0
    out: list[Differences] = []
    for _, t in targets:
        x0 = f64(t.data)

        def f(x: np.ndarray, t: Tensor = t, x0: np.ndarray = x0) -> np.ndarray | None:
            try:
                return flat_values(fn({id(t): x - x0}))
            except (LimitError, CannotRerun):
                raise
            except GradcliError:
                if tolerant:
                    return None
                raise

        offset = done

        def report(k: int, n: int, offset: int = offset) -> None:
            if progress is not None:
                progress(offset + k, total)

        f0 = None
        if one_sided:
            f0 = f(x0.copy())
            if f0 is None:
                raise GradcliError("the program cannot be evaluated at its own values")
        out.append(differences(f, x0, step=step, f0=f0, one_sided=one_sided, progress=report))
        done += int(t.data.size)
    return out


def evaluator(s: Setup) -> Evaluator:
    """`jacobian`/`hessian --method numeric`'s evaluator: the recorded operations, or (for a
    graph with a user-defined function, whose forward the graph cannot replay) the program
    re-run, in float64."""
    if not has_custom(s.graph()):
        return GraphReplay(s.out, [t for _, t in s.targets])
    if s.run is None:
        raise GradcliError(
            "--method numeric cannot re-evaluate a user-defined function outside a program",
            hint="use another method",
        )
    try:
        return ProgramRerun(s.run, s.of, s.targets, s.out.data, dtype="float64", promote=True)
    except CannotRerun as e:
        raise GradcliError(
            f"--method numeric re-runs a program with a user-defined function, and {e.message}",
            hint="use another --method",
        ) from None
