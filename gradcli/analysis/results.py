"""The result types of the library: what `backward`, `forward`, `jacobian`, `hessian`, `hvp`
and `check` return. Each has `to_json()` (plain data: nested lists, non-finite floats as
strings); the renderers of `cli` draw them. The seam for one output layer (views per result).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..base.record import Record
from ..core import hooks

# Entries worked on at a time when large matrices are compared: the temporaries stay a few MB
# however large the Jacobian (a 9.6 M-entry --compare made a dozen full-size ones), and the
# run's budget (time, memory) is checked between blocks.
BLOCK = 1 << 18


def jsonable(a: np.ndarray) -> Any:
    """Nested lists of floats; non-finite values as the strings "nan", "inf", "-inf"."""
    arr = np.asarray(a)
    if arr.dtype.kind == "b":
        return arr.tolist()
    if arr.dtype.kind in "iu":
        return arr.tolist()
    if np.all(np.isfinite(arr)):
        return arr.astype(np.float64).tolist()
    obj = np.vectorize(lambda v: float(v) if np.isfinite(v) else str(v), otypes=[object])(arr)
    return obj.tolist()


def json_float(v: float) -> Any:
    """A float for JSON (non-finite as a string)."""
    v = float(v)
    if np.isfinite(v):
        return v
    return "nan" if np.isnan(v) else ("inf" if v > 0 else "-inf")


class TraceStep(Record):
    """One node of a traced backward pass: what it received and what it passed on."""

    _fields = ("node", "output", "received", "passed")
    node: str
    output: str
    received: np.ndarray
    passed: list[tuple[str, np.ndarray | None]]


class BackwardResult(Record):
    _fields = ("of", "of_shape", "grad_output", "grads", "unused", "trace")
    _defaults = {"unused": list, "trace": list}
    of: str
    of_shape: tuple[int, ...]
    grad_output: np.ndarray
    grads: dict[str, np.ndarray]
    unused: list[str]
    trace: list[TraceStep]

    def to_json(self) -> dict[str, Any]:
        return {
            "of": self.of,
            "of_shape": list(self.of_shape),
            "grad_output": jsonable(self.grad_output),
            "grads": {k: jsonable(v) for k, v in self.grads.items()},
            "shapes": {k: list(v.shape) for k, v in self.grads.items()},
            "unused": list(self.unused),
        }


class TensorInfo(Record):
    _fields = ("name", "value", "requires_grad", "grad_fn", "is_leaf")
    name: str
    value: np.ndarray
    requires_grad: bool
    grad_fn: str | None
    is_leaf: bool


class Block(Record):
    """The Jacobian of `of` with respect to one input: `array` has shape of.shape + wrt.shape."""

    _fields = ("name", "wrt_shape", "array", "unused")
    _defaults = {"unused": False}

    name: str
    wrt_shape: tuple[int, ...]
    array: np.ndarray
    unused: bool

    @property
    def matrix(self) -> np.ndarray:
        """The 2-D form: (output elements, input elements)."""
        rows = int(np.prod(self.array.shape[: self.array.ndim - len(self.wrt_shape)]))
        return self.array.reshape(rows, int(np.prod(self.wrt_shape)))


class Mask(Record):
    """One backward pass of the rows method: the one-hot upstream gradient at output element
    `index`, and the row of each block it produced (`rows[name]` has the input's shape)."""

    _fields = ("index", "of_shape", "rows")

    index: tuple[int, ...]
    of_shape: tuple[int, ...]
    rows: dict[str, np.ndarray]

    @property
    def mask(self) -> np.ndarray:
        e = np.zeros(self.of_shape)
        e[self.index] = 1
        return e


class JacobianResult(Record):
    _fields = (
        "of",
        "of_shape",
        "method",
        "passes",
        "blocks",
        "requested",
        "masks",
        "seconds",
        "note",
    )
    _defaults = {"requested": "rows", "masks": list, "seconds": 0.0, "note": None}

    of: str
    of_shape: tuple[int, ...]
    method: str
    passes: int
    blocks: dict[str, Block]
    requested: str
    masks: list[Mask]
    seconds: float
    note: str | None

    @property
    def unused(self) -> list[str]:
        return [n for n, b in self.blocks.items() if b.unused]

    @property
    def array(self) -> np.ndarray:
        """The array form (of.shape + wrt.shape) of the only block."""
        if len(self.blocks) != 1:
            raise GradcliError(
                f"the Jacobian has {len(self.blocks)} blocks ({', '.join(self.blocks)})",
                hint="take one with .blocks[NAME].array, or all side by side with .matrix",
            )
        return next(iter(self.blocks.values())).array

    @property
    def matrix(self) -> np.ndarray:
        """All blocks side by side: (output elements, input elements of every wrt in order)."""
        if len(self.blocks) == 1:  # the block itself, not a copy (Jacobians can be large)
            return next(iter(self.blocks.values())).matrix
        return np.concatenate([b.matrix for b in self.blocks.values()], axis=1)

    def to_json(self) -> dict[str, Any]:
        return {
            "of": self.of,
            "of_shape": list(self.of_shape),
            "method": self.method,
            "passes": self.passes,
            "jacobians": {
                n: {"wrt_shape": list(b.wrt_shape), "matrix": jsonable(b.matrix)}
                for n, b in self.blocks.items()
            },
            "unused": self.unused,
        }


class HessianResult(Record):
    """Second derivatives of a one-element `of`. `blocks[(a, b)]` has shape a.shape + b.shape:
    `[i, j] = d2 of / d a_i d b_j`."""

    _fields = ("of", "of_shape", "method", "passes", "wrt", "blocks", "unused", "seconds")
    _defaults = {"unused": list, "seconds": 0.0}

    of: str
    of_shape: tuple[int, ...]
    method: str
    passes: int
    wrt: list[tuple[str, tuple[int, ...]]]
    blocks: dict[tuple[str, str], np.ndarray]
    unused: list[str]
    seconds: float

    @property
    def matrix(self) -> np.ndarray:
        """The full Hessian over all inputs (in --wrt order), as one square matrix."""
        sizes = [int(np.prod(s)) for _, s in self.wrt]
        rows = []
        for (a, _), na in zip(self.wrt, sizes):
            rows.append(
                np.concatenate(
                    [self.blocks[(a, b)].reshape(na, nb) for (b, _), nb in zip(self.wrt, sizes)],
                    axis=1,
                )
            )
        return np.concatenate(rows, axis=0)

    @property
    def array(self) -> np.ndarray:
        """The array form (wrt.shape + wrt.shape) of the only input's block."""
        if len(self.wrt) != 1:
            raise GradcliError(
                f"the Hessian has {len(self.wrt)} inputs ({', '.join(n for n, _ in self.wrt)})",
                hint="take one block with .blocks[(A, B)], or all with .matrix",
            )
        name = self.wrt[0][0]
        return self.blocks[(name, name)]

    @property
    def asymmetry(self) -> float:
        """max |H - H^T| over the full Hessian (zero up to rounding)."""
        m = self.matrix
        return float(np.max(np.abs(m - m.T))) if m.size else 0.0

    def to_json(self) -> dict[str, Any]:
        sizes = {n: int(np.prod(s)) for n, s in self.wrt}
        return {
            "of": self.of,
            "of_shape": list(self.of_shape),
            "method": self.method,
            "passes": self.passes,
            "hessians": {
                a: {
                    "wrt_shape": list(s),
                    "matrix": jsonable(self.blocks[(a, a)].reshape(sizes[a], sizes[a])),
                }
                for a, s in self.wrt
            },
            "cross": {
                f"{a},{b}": {
                    "rows": a,
                    "cols": b,
                    "matrix": jsonable(self.blocks[(a, b)].reshape(sizes[a], sizes[b])),
                }
                for a, _ in self.wrt
                for b, _ in self.wrt
                if a != b
            },
            "asymmetry": self.asymmetry,
            "unused": list(self.unused),
        }


class HvpResult(Record):
    """The Hessian-vector product: `hvp[b] = sum over a of H[b, a] v[a]`."""

    _fields = ("of", "of_shape", "v", "hvp", "passes", "unused")
    _defaults = {"passes": 2, "unused": list}

    of: str
    of_shape: tuple[int, ...]
    v: dict[str, np.ndarray]
    hvp: dict[str, np.ndarray]
    passes: int
    unused: list[str]

    @property
    def array(self) -> np.ndarray:
        if len(self.hvp) != 1:
            raise GradcliError(
                f"the product has {len(self.hvp)} parts ({', '.join(self.hvp)})",
                hint="take one with .hvp[NAME]",
            )
        return next(iter(self.hvp.values()))

    def to_json(self) -> dict[str, Any]:
        return {
            "of": self.of,
            "of_shape": list(self.of_shape),
            "method": "reverse-over-reverse",
            "passes": self.passes,
            "v": {n: jsonable(a) for n, a in self.v.items()},
            "hvp": {n: jsonable(a) for n, a in self.hvp.items()},
            "shapes": {n: list(a.shape) for n, a in self.hvp.items()},
            "unused": list(self.unused),
        }


class MethodComparison(Record):
    """Several methods on the same Jacobian, each compared with the reference by the one
    comparison rule (`compare`): `comparisons[m]` is `m` against `reference`."""

    _fields = ("of", "of_shape", "results", "reference", "comparisons", "kinks")
    _defaults = {"comparisons": dict, "kinks": 0}

    of: str
    of_shape: tuple[int, ...]
    results: dict[str, JacobianResult]
    reference: str
    comparisons: dict[str, Comparison]
    kinks: int  # entries at a point where the function is not differentiable

    @property
    def ok(self) -> bool:
        """Whether every method agrees with the reference (the rule of `check`)."""
        return all(c.ok for c in self.comparisons.values())

    def differences(self) -> dict[str, tuple[float, float]]:
        """method -> (max |J - J_ref|, max relative difference), from the comparisons."""
        out = {}
        for m in self.results:
            c = self.comparisons.get(m)
            out[m] = (0.0, 0.0) if c is None else (c.max_abs, c.max_rel)
        return out

    @property
    def largest(self) -> float:
        """The largest difference between any two of the methods (max over entries)."""
        ms = [r.matrix for r in self.results.values()]
        best = 0.0
        for i in range(len(ms)):
            for j in range(i + 1, len(ms)):
                a, b = ms[i].reshape(-1), ms[j].reshape(-1)
                for k in range(0, a.size, BLOCK):  # a few MB of temporaries at a time
                    hooks.observer.tick()
                    with np.errstate(all="ignore"):
                        d = np.abs(a[k : k + BLOCK] - b[k : k + BLOCK])
                    fin = d[np.isfinite(d)]
                    if fin.size:
                        best = max(best, float(np.max(fin)))
        return best

    def to_json(self) -> dict[str, Any]:
        diffs = self.differences()
        return {
            "of": self.of,
            "of_shape": list(self.of_shape),
            "reference": self.reference,
            "ok": self.ok,
            "methods": {
                m: {
                    "passes": r.passes,
                    "seconds": r.seconds,
                    "max_abs_diff": json_float(diffs[m][0]),
                    "max_rel_diff": json_float(diffs[m][1]),
                    "agrees": self.comparisons[m].ok if m in self.comparisons else True,
                }
                for m, r in self.results.items()
            },
            "largest_difference": json_float(self.largest),
            "kinks": self.kinks,
        }


class Comparison(Record):
    _fields = ("a", "b", "max_abs", "max_rel", "ok", "worst", "ratio", "skipped")
    _defaults = {"skipped": 0}

    a: str
    b: str
    max_abs: float
    max_rel: float
    ok: bool
    worst: tuple[int, int] | None  # (row, column) of the entry furthest from agreeing
    ratio: float  # that entry's |a - b| / allowed (> 1: disagrees)
    skipped: int  # entries where one of the two had no value (nan)

    def to_json(self) -> dict[str, Any]:
        return {
            "methods": [self.a, self.b],
            "max_abs": json_float(self.max_abs),
            "max_rel": json_float(self.max_rel),
            "ok": self.ok,
        }


class PairResult(Record):
    """One (output, input) pair: each method's Jacobian and how they compare.

    Its `status`: "ok" (every pair of methods agrees, and at least one method independent of
    the engine's rules took part), "disagree" (some pair disagrees beyond the tolerance), or
    "unchecked" (nothing disagrees, but the engine could not be compared with an independent
    method, or not with one the user asked for: `unchecked` says why). Only "ok" passes.
    """

    _fields = (
        "of",
        "wrt",
        "of_shape",
        "wrt_shape",
        "jacobians",
        "skipped",
        "comparisons",
        "kinks",
        "one_sided",
        "custom",
        "culprits",
        "rules",
        "domain",
        "numeric_of",
        "notes",
        "causes",
        "unchecked",
    )
    _defaults = {
        "kinks": None,
        "one_sided": None,
        "custom": list,
        "culprits": list,
        "rules": list,
        "domain": list,
        "numeric_of": None,
        "notes": list,
        "causes": list,
        "unchecked": None,
    }

    of: str
    wrt: str
    of_shape: tuple[int, ...]
    wrt_shape: tuple[int, ...]
    jacobians: dict[str, np.ndarray]  # method -> (n_out, n_in)
    skipped: dict[str, str]  # method -> why it was not used
    comparisons: list[Comparison]
    kinks: np.ndarray | None  # bool (n_out, n_in): not differentiable there
    one_sided: tuple[np.ndarray, np.ndarray] | None
    custom: list[str]  # custom functions on the path
    culprits: list[str]  # custom functions found wrong
    rules: list[str]  # gradcli rules found wrong
    domain: list[str]  # ops evaluated where not differentiable
    numeric_of: str | None  # what finite differences differenced: "program" or "graph"
    notes: list[str]  # what a reader should know about how the methods were run
    causes: list[str]  # why the methods disagree, when no rule is to blame
    unchecked: str | None  # why the engine could not be checked (status "unchecked")

    @property
    def methods(self) -> list[str]:
        return list(self.jacobians)

    @property
    def status(self) -> str:
        if not all(c.ok for c in self.comparisons):
            return "disagree"
        if self.unchecked:
            return "unchecked"
        return "ok"

    @property
    def ok(self) -> bool:
        return self.status == "ok"

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
            "values": {m: json_float(float(J[i, j])) for m, J in self.jacobians.items()},
            "methods": [c.a, c.b],
            "abs": json_float(abs(float(self.jacobians[c.a][i, j] - self.jacobians[c.b][i, j]))),
            "kink": bool(self.kinks[i, j]) if self.kinks is not None else False,
        }
        if self.one_sided is not None and w["kink"]:
            w["one_sided"] = [
                json_float(float(self.one_sided[0][i, j])),
                json_float(float(self.one_sided[1][i, j])),
            ]
        return w

    def to_json(self) -> dict[str, Any]:
        return {
            "of": self.of,
            "wrt": self.wrt,
            "of_shape": list(self.of_shape),
            "wrt_shape": list(self.wrt_shape),
            "ok": self.ok,
            "status": self.status,
            "methods": self.methods,
            "skipped": dict(self.skipped),
            "numeric_of": self.numeric_of,
            "max_abs": json_float(self.max_abs),
            "max_rel": json_float(self.max_rel),
            "comparisons": [c.to_json() for c in self.comparisons],
            "worst": self.worst(),
            "kinks": int(self.kinks.sum()) if self.kinks is not None else 0,
            "custom": list(self.custom),
            "culprits": list(self.culprits),
            "rules": list(self.rules),
            "domain": list(self.domain),
            "causes": list(self.causes),
            "notes": list(self.notes),
            "unchecked": self.unchecked,
        }


class CheckResult(Record):
    _fields = ("of", "results", "eps", "atol", "rtol", "warnings", "seconds")
    _defaults = {"warnings": list, "seconds": 0.0}

    of: str
    results: list[PairResult]
    eps: float
    atol: float
    rtol: float
    warnings: list[str]
    seconds: float

    @property
    def status(self) -> str:
        """ "disagree" if any pair disagrees, else "unchecked" if any could not be checked,
        else "ok"."""
        statuses = {r.status for r in self.results}
        for s in ("disagree", "unchecked"):
            if s in statuses:
                return s
        return "ok"

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "status": self.status,
            "of": self.of,
            "eps": self.eps,
            "atol": self.atol,
            "rtol": self.rtol,
            "warnings": list(self.warnings),
            "results": [r.to_json() for r in self.results],
        }

    def summary(self) -> str:
        """One line per pair that is not ok (or that all agree)."""
        if self.ok:
            n = len(self.results)
            return f"ok: all methods agree on {n} pair{'s' if n != 1 else ''}"
        return "\n".join(verdict_line(r) for r in self.results if not r.ok)


VERDICT = {"ok": "ok", "disagree": "DISAGREE", "unchecked": "UNCHECKED"}


def verdict_line(r: PairResult) -> str:
    """The verdict of a pair that is not ok, with its explanation (several lines)."""
    return f"{VERDICT[r.status]} {describe_failure(r)}"


def describe_failure(r: PairResult) -> str:
    """Which output, which input, each method's value, and whom or what to blame; or why the
    pair could not be checked."""
    if r.status == "unchecked":
        return f"{r.of} / {r.wrt}: cannot check the gradient: {r.unchecked}"
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
    for cause in r.causes:
        lines.append(f"  {cause}")
    return "\n".join(lines)
