"""Jacobians, Hessians and Hessian-vector products of a program's tensors.

    >>> from gradcli.jacobian import jacobian, hessian, hvp
    >>> prog = "x = tensor([1., 2.], requires_grad=True)\\ny = x * x"
    >>> jacobian(prog, method="rows").array.tolist()
    [[2.0, 0.0], [0.0, 4.0]]
    >>> r = jacobian(prog, method="auto")
    >>> r.method, r.passes
    ('batched', 1)
    >>> hessian("x = tensor([1., 2.], requires_grad=True)\\ny = (x ** 3).sum()").array.tolist()
    [[6.0, 0.0], [0.0, 12.0]]
    >>> cube = "x = tensor([1., 2.], requires_grad=True)\\ny = (x ** 3).sum()"
    >>> hvp(cube, v=[1, 1]).array.tolist()
    [6.0, 12.0]

Layout, as PyTorch's `torch.autograd.functional.jacobian`: `J[i, j] = d out_i / d in_j`, the
output's elements row-major down the rows, the input's elements row-major across the columns;
the array form is `of.shape + wrt.shape` and the matrix form `(of.size, wrt.size)`. A Hessian
is `H[i, j] = d2 out / d in_i d in_j` (array form `a.shape + b.shape` for the block of `a`, `b`).

The methods of `jacobian`:

  rows     The seeds' walkthrough: the forward pass runs once, then one backward pass per
           output element, its upstream gradient a one-hot mask; each pass gives one row. The
           first pass is recorded (`create_graph`, forward values as constants) and the other
           masks replay the recorded backward equations on NumPy arrays: the same operations
           on the same numbers as a fresh `run_backward` per mask, without re-walking the
           graph in Python (checked against a fresh pass on a random mask; a graph with a
           user-defined gradient uses fresh passes).
  batched  All the one-hot masks as one batch along a leading axis, in one backward pass.
  forward  Forward mode: one tangent (one column) per input element, all carried through the
           graph in one sweep. An op's `jvp` rule is used where it has one; an elementwise op's
           VJP is its JVP (its Jacobian is diagonal); any other op is transposed: a VJP is
           linear in its upstream gradient `g`, so the JVP is d<vjp(g), v>/dg, taken by
           recording the op's VJP and running it backward.
  numeric  Central differences in float64: (f(x + h e_j) - f(x - h e_j)) / 2h with the step
           h = NUMERIC_STEP * max(1, |x_j|), NUMERIC_STEP = eps ** (1/3) ~ 6.06e-6 (it
           balances truncation error h^2 against rounding eps / h: about 1e-10 relative
           accuracy on smooth functions). The recorded computation is re-evaluated with the
           perturbed input (which may be an intermediate tensor); a graph with a user-defined
           function re-runs the program instead.
  auto     forward when the inputs have fewer elements than the output, else batched.

The reverse passes only visit the part of the graph between the inputs asked for and the
output (`requires_grad` is switched off, for the duration, on everything else). Every method
refuses a Jacobian with more entries than the `jacobian_entries` limit (raise it with
GRADCLI_JACOBIAN_ENTRIES).
"""

from __future__ import annotations

import sys
import time
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, UsageError
from ..core import forward as forward_mode
from ..core.autograd import run_backward
from ..core.graph import ancestors, has_custom, on_path, pruned, reached
from ..core.op import Node, apply
from ..core.tensor import Tensor, as_tensor, no_grad
from ..lang.program import Program, Run
from . import api

METHODS = ("rows", "batched", "forward", "numeric", "auto")
HESSIAN_METHODS = ("batched", "rows", "numeric")
NUMERIC_STEP = float(np.finfo(np.float64).eps ** (1 / 3))

Progress = Callable[[int, int], None]


# --- results ---------------------------------------------------------------------------------


@dataclass
class Block:
    """The Jacobian of `of` with respect to one input: `array` has shape of.shape + wrt.shape."""

    name: str
    wrt_shape: tuple[int, ...]
    array: np.ndarray
    unused: bool = False

    @property
    def matrix(self) -> np.ndarray:
        """The 2-D form: (output elements, input elements)."""
        rows = int(np.prod(self.array.shape[: self.array.ndim - len(self.wrt_shape)]))
        return self.array.reshape(rows, int(np.prod(self.wrt_shape)))


@dataclass
class Mask:
    """One backward pass of the rows method: the one-hot upstream gradient at output element
    `index`, and the row of each block it produced (`rows[name]` has the input's shape)."""

    index: tuple[int, ...]
    of_shape: tuple[int, ...]
    rows: dict[str, np.ndarray]

    @property
    def mask(self) -> np.ndarray:
        e = np.zeros(self.of_shape)
        e[self.index] = 1
        return e


@dataclass
class JacobianResult:
    of: str
    of_shape: tuple[int, ...]
    method: str
    passes: int
    blocks: dict[str, Block]
    requested: str = "rows"
    masks: list[Mask] = field(default_factory=list)
    seconds: float = 0.0
    note: str | None = None

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
        return np.concatenate([b.matrix for b in self.blocks.values()], axis=1)

    def to_json(self) -> dict[str, Any]:
        return {
            "of": self.of,
            "of_shape": list(self.of_shape),
            "method": self.method,
            "passes": self.passes,
            "jacobians": {
                n: {"wrt_shape": list(b.wrt_shape), "matrix": api.jsonable(b.matrix)}
                for n, b in self.blocks.items()
            },
            "unused": self.unused,
        }


@dataclass
class HessianResult:
    """Second derivatives of a one-element `of`. `blocks[(a, b)]` has shape a.shape + b.shape:
    `[i, j] = d2 of / d a_i d b_j`."""

    of: str
    of_shape: tuple[int, ...]
    method: str
    passes: int
    wrt: list[tuple[str, tuple[int, ...]]]
    blocks: dict[tuple[str, str], np.ndarray]
    unused: list[str] = field(default_factory=list)
    seconds: float = 0.0

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
                    "matrix": api.jsonable(self.blocks[(a, a)].reshape(sizes[a], sizes[a])),
                }
                for a, s in self.wrt
            },
            "cross": {
                f"{a},{b}": {
                    "rows": a,
                    "cols": b,
                    "matrix": api.jsonable(self.blocks[(a, b)].reshape(sizes[a], sizes[b])),
                }
                for a, _ in self.wrt
                for b, _ in self.wrt
                if a != b
            },
            "asymmetry": self.asymmetry,
            "unused": list(self.unused),
        }


@dataclass
class HvpResult:
    """The Hessian-vector product: `hvp[b] = sum over a of H[b, a] v[a]`."""

    of: str
    of_shape: tuple[int, ...]
    v: dict[str, np.ndarray]
    hvp: dict[str, np.ndarray]
    passes: int = 2
    unused: list[str] = field(default_factory=list)

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
            "v": {n: api.jsonable(a) for n, a in self.v.items()},
            "hvp": {n: api.jsonable(a) for n, a in self.hvp.items()},
            "shapes": {n: list(a.shape) for n, a in self.hvp.items()},
            "unused": list(self.unused),
        }


@dataclass
class Comparison:
    """Several methods on the same Jacobian, and how far apart they are."""

    of: str
    of_shape: tuple[int, ...]
    results: dict[str, JacobianResult]
    reference: str

    def differences(self) -> dict[str, tuple[float, float]]:
        """method -> (max |J - J_ref|, that divided by max(1, max |J_ref|))."""
        ref = self.results[self.reference].matrix
        scale = max(1.0, float(np.max(np.abs(ref)))) if ref.size else 1.0
        out = {}
        for m, r in self.results.items():
            d = float(np.max(np.abs(r.matrix - ref))) if ref.size else 0.0
            out[m] = (d, d / scale)
        return out

    @property
    def largest(self) -> float:
        """The largest difference between any two of the methods (max over entries)."""
        ms = [r.matrix for r in self.results.values()]
        best = 0.0
        for i in range(len(ms)):
            for j in range(i + 1, len(ms)):
                if ms[i].size:
                    best = max(best, float(np.max(np.abs(ms[i] - ms[j]))))
        return best

    def to_json(self) -> dict[str, Any]:
        diffs = self.differences()
        return {
            "of": self.of,
            "of_shape": list(self.of_shape),
            "reference": self.reference,
            "methods": {
                m: {
                    "passes": r.passes,
                    "seconds": r.seconds,
                    "max_abs_diff": diffs[m][0],
                    "max_rel_diff": diffs[m][1],
                }
                for m, r in self.results.items()
            },
            "largest_difference": self.largest,
        }


# --- resolving the program, the output and the inputs -------------------------------------


@dataclass
class _Setup:
    run: Run | None
    of: str
    out: Tensor
    targets: list[tuple[str, Tensor]]
    seed: int
    dtype: Any
    _graph: list[Node] | None = None

    def graph(self) -> list[Node]:
        """The nodes `out` depends on (walked once, before any pruning)."""
        if self._graph is None:
            self._graph = ancestors([self.out])
        return self._graph


def _setup(
    program: str | Program | Run,
    of: str | None,
    wrt: Sequence[str] | str | None,
    seed: int,
    dtype: Any,
    overrides: dict[str, Any] | None,
) -> _Setup:
    if isinstance(program, Run):
        r = program
    else:
        r = api.run(program, seed=seed, dtype=dtype, overrides=overrides)
    of_name, out = api.resolve_of(r, of)
    if isinstance(wrt, str):
        wrt = [wrt]
    names = list(dict.fromkeys(wrt)) if wrt else None
    targets = api.resolve_wrt(r, names, of_name)
    for n, t in targets:
        if t.dtype.kind != "f":
            raise GradcliError(f"`{n}` is not a floating-point tensor", found=str(t.dtype))
    return _Setup(r, of_name, out, targets, seed, dtype)


def _check_entries(rows: int, cols: int, what: str) -> None:
    """Refuse, before any work, a matrix over the `jacobian_entries` limit."""
    limits.JACOBIAN_ENTRIES.check(
        rows * cols, f"the number of {what} entries ({rows:,} x {cols:,})"
    )


def _sizes(targets: Sequence[tuple[str, Tensor]]) -> list[int]:
    return [int(t.data.size) for _, t in targets]


# --- the graph between the inputs and the output ---------------------------------------------


# --- reverse mode ----------------------------------------------------------------------------


def _batched(s: _Setup) -> tuple[list[np.ndarray | None], int]:
    return _reverse_batched(s.out, [t for _, t in s.targets], s.out.shape, s.graph()), 1


def _reverse_batched(
    root: Tensor,
    targets: Sequence[Tensor],
    lead: tuple[int, ...],
    nodes: Sequence[Node] | None = None,
) -> list[np.ndarray | None]:
    """The Jacobian of `root` with respect to each target, from one backward pass whose
    upstream gradient is every one-hot mask at once (a leading batch axis of root.size).

    The batch starts as the identity. While it stays diagonal (batch element i nonzero only at
    element i) it is carried as its diagonal `d`: through elementwise ops (one VJP of `d`), and
    into a matrix-vector product, where the batched VJP of diag(d) is the matrix with its rows
    scaled by `d` (no product with an identity). Elementwise ops right after that take the
    batch here, keeping one batch alive at a time; the rest of the pass is the engine's."""
    m = int(root.data.size)
    counts: dict[int, int] = {}
    for n in ancestors([root]) if nodes is None else nodes:
        for u in n.inputs:
            if u.requires_grad:
                counts[id(u)] = counts.get(id(u), 0) + 1
    ids = {id(t) for t in targets}

    def chain(t: Tensor) -> tuple[Node, int, Tensor] | None:
        """t's node, if t is not a target and its node has one input to follow, used once."""
        if id(t) in ids or t.node is None:
            return None
        n = t.node
        live = [i for i, u in enumerate(n.inputs) if u.requires_grad and i not in n.op.nondiff]
        if len(live) != 1 or counts.get(id(n.inputs[live[0]]), 0) != 1:
            return None
        return n, live[0], n.inputs[live[0]]

    def elementwise(n: Node, u: Tensor, t: Tensor) -> bool:
        return n.op.kind in ("elementwise", "binary") and u.shape == t.shape

    t, d = root, np.ones(root.shape, dtype=root.dtype)
    start, g = root, None
    while (step := chain(t)) is not None:
        n, i, u = step
        if elementwise(n, u, t):
            with no_grad(), np.errstate(all="ignore"):
                gi = n.op.vjp(Tensor(d), n.out, *n.inputs, **n.params)[i]
            if gi is None:
                return [None] * len(targets)
            d = as_tensor(gi, like=u).data
            d = d if d.shape == u.shape else np.broadcast_to(d, u.shape)
            t = u
            continue
        if n.op.name == "matmul" and t.ndim == 1 and u.ndim == 1:
            w = n.inputs[1 - i].data
            if w.ndim == 2:
                # out = w @ u: rows d_i w[i, :]; out = u @ w: rows d_j w[:, j].
                g = d[:, None] * (w if i == 1 else w.T)
                start = u
        break
    if g is None:
        g = np.zeros((m, m), dtype=root.dtype)
        g.reshape(-1)[:: m + 1] = d.reshape(-1)
        start = t
    g = g.reshape((m,) + start.shape)
    while (step := chain(start)) is not None and elementwise(step[0], step[2], start):
        n, i, u = step
        with no_grad(), np.errstate(all="ignore"):
            gi = n.op.vjp(Tensor(g), n.out, *n.inputs, **n.params)[i]
        if gi is None:
            return [None] * len(targets)
        g = as_tensor(gi, like=u).data
        g = g if g.shape == (m,) + u.shape else np.broadcast_to(g, (m,) + u.shape)
        start = u
    if start.node is None:
        got = {id(start): (start, Tensor(g))}
    else:
        got = run_backward([start], [Tensor(g)], nb=1, capture=list(targets), check_freed=False)
    del g
    out = []
    for x in targets:
        hit = got.get(id(x))
        a = None if hit is None else np.asarray(hit[1].data).reshape(lead + x.shape)
        out.append(a if a is None or a.flags.writeable else a.copy())
    return out


class _Tape:
    """The backward pass of `out` recorded once, as equations in its upstream gradient `g`
    (every other value a constant), replayed on NumPy arrays for each further mask."""

    def __init__(
        self,
        out: Tensor,
        targets: Sequence[Tensor],
        forward_nodes: Sequence[Node],
        first_mask: np.ndarray,
    ):
        g0 = Tensor(first_mask, requires_grad=True)
        got = run_backward(
            [out],
            [g0],
            create_graph=True,
            retain_graph=True,
            capture=list(targets),
            check_freed=False,
        )
        known = {n.seq for n in forward_nodes}
        results = [got[id(t)][1] if id(t) in got else None for t in targets]
        # The nodes this pass recorded that the results depend on, in creation order.
        seen: dict[int, Node] = {}
        stack = [r.node for r in results if r is not None and r.node is not None]
        while stack:
            n = stack.pop()
            if n.seq in seen or n.seq in known:
                continue
            seen[n.seq] = n
            stack.extend(t.node for t in n.inputs if t.node is not None)
        slot: dict[int, int] = {id(g0): 0}
        prog: list[tuple[Callable[..., Any], list[tuple[bool, Any]], dict, int]] = []
        for seq in sorted(seen):
            n = seen[seq]
            if not any(id(t) in slot for t in n.inputs):
                continue  # a constant (it does not depend on g)
            args = [(True, slot[id(t)]) if id(t) in slot else (False, t.data) for t in n.inputs]
            slot[id(n.out)] = len(slot)
            prog.append((n.op.forward, args, n.params, slot[id(n.out)]))
        self.ok = all(r is None or id(r) in slot for r in results)
        self.first = [None if r is None else np.array(r.data) for r in results]
        self.result_slots = [None if r is None else slot[id(r)] for r in results]
        self.prog = prog
        self.nslots = len(slot)

    def replay(self, mask: np.ndarray) -> list[np.ndarray | None]:
        vals: list[Any] = [None] * self.nslots
        vals[0] = mask
        with np.errstate(all="ignore"):
            for fwd, args, params, o in self.prog:
                vals[o] = np.asarray(fwd(*[vals[a] if s else a for s, a in args], **params))
        return [None if k is None else vals[k] for k in self.result_slots]


def _literal_pass(
    out: Tensor, targets: Sequence[Tensor], mask: np.ndarray
) -> list[np.ndarray | None]:
    got = run_backward([out], [Tensor(mask)], capture=list(targets), check_freed=False)
    return [None if id(t) not in got else np.asarray(got[id(t)][1].data) for t in targets]


def _rows(s: _Setup, progress: Progress | None) -> tuple[list[np.ndarray | None], int]:
    out, m = s.out, int(s.out.data.size)
    ts = [t for _, t in s.targets]
    result = [np.zeros((m,) + t.shape, dtype=out.dtype) for t in ts]
    touched = [False] * len(ts)

    def mask_of(i: int) -> np.ndarray:
        e = np.zeros(m, dtype=out.dtype)
        e[i] = 1
        return e.reshape(out.shape)

    nodes = s.graph()
    tape: _Tape | None = None
    start = 0
    if m > 8 and not has_custom(nodes):  # recording costs about three plain passes
        tape = _Tape(out, ts, nodes, mask_of(0))
        probe = np.random.default_rng(0).standard_normal(out.shape).astype(out.dtype)
        if tape.ok and not _same(tape.replay(probe), _literal_pass(out, ts, probe)):
            tape = None
        if tape is not None and tape.ok:
            _store(result, touched, 0, tape.first)
            start = 1
        else:
            tape = None
    for i in range(start, m):
        e = mask_of(i)
        got = tape.replay(e) if tape is not None else _literal_pass(out, ts, e)
        _store(result, touched, i, got)
        if progress is not None and (i % 16 == 15 or i == m - 1):
            progress(i + 1, m)
    return [
        r.reshape(out.shape + t.shape) if k else None for r, k, t in zip(result, touched, ts)
    ], m


def _same(a: list[np.ndarray | None], b: list[np.ndarray | None]) -> bool:
    for x, y in zip(a, b):
        if (x is None) != (y is None):
            if not np.all((x if x is not None else y) == 0):
                return False
            continue
        if x is None:
            continue
        tol = 1e-9 if np.asarray(x).dtype == np.float64 else 1e-4
        if not np.allclose(x, y, rtol=tol, atol=tol * 1e-3, equal_nan=True):
            return False
    return True


def _store(
    result: list[np.ndarray], touched: list[bool], i: int, got: list[np.ndarray | None]
) -> None:
    for k, g in enumerate(got):
        if g is not None:
            result[k][i] = g
            touched[k] = True


# --- forward mode ----------------------------------------------------------------------------


def _forward(s: _Setup) -> tuple[list[np.ndarray | None], int]:
    out = s.out
    sizes = _sizes(s.targets)
    total = sum(sizes)
    ts = [t for _, t in s.targets]
    _, path = on_path(s.graph(), ts)
    tangent: dict[int, Tensor] = {}
    skip: set[int] = set()
    if len(ts) == 1:
        tangent, skip = _diagonal_start(ts[0], path)
    else:
        off = 0
        for t, n in zip(ts, sizes):
            seed = np.zeros((total, n), dtype=t.dtype)
            seed[off : off + n] = np.eye(n, dtype=t.dtype)
            seed_t = Tensor(seed.reshape((total,) + t.shape))
            tangent[id(t)] = tangent[id(t)] + seed_t if id(t) in tangent else seed_t
            off += n
    forward_mode.push(path, tangent, 1, skip)
    final = tangent.get(id(out))
    if final is None:
        return [None] * len(ts), 1
    # final[j] is column j, d out / d input_j: the Jacobian is its transpose.
    mat = np.asarray(final.data).reshape(total, -1).T
    res: list[np.ndarray | None] = []
    off = 0
    for t, n in zip(ts, sizes):
        res.append(mat[:, off : off + n].reshape(out.shape + t.shape))
        off += n
    return res, 1


def _diagonal_start(x: Tensor, path: Sequence[Node]) -> tuple[dict[int, Tensor], set[int]]:
    """The identity tangent of `x`, carried as its diagonal while it stays diagonal (through
    elementwise ops, and into a matrix-vector product, whose tangent for diag(d) is the matrix
    with its columns scaled by `d`): the mirror image of `_reverse_batched`'s start."""
    n_x = int(x.data.size)
    users: dict[int, list[Node]] = {}
    for n in path:
        for u in n.inputs:
            if u.requires_grad:
                users.setdefault(id(u), []).append(n)
    t, d = x, np.ones(x.shape, dtype=x.dtype)
    skip: set[int] = set()
    while True:
        use = users.get(id(t), [])
        if len(use) != 1:
            break
        n = use[0]
        live = [i for i, u in enumerate(n.inputs) if u.requires_grad and i not in n.op.nondiff]
        if len(live) != 1:
            break
        i = live[0]
        if n.op.kind in ("elementwise", "binary") and n.out.shape == t.shape:
            ins = [Tensor(u.data, requires_grad=j == i) for j, u in enumerate(n.inputs)]
            with no_grad(), np.errstate(all="ignore"):
                gi = n.op.vjp(Tensor(d), Tensor(n.out.data), *ins, **n.params)[i]
            if gi is None:
                return {}, skip | {n.seq}
            d = np.broadcast_to(as_tensor(gi, like=t).data, t.shape)
            skip.add(n.seq)
            t = n.out
            continue
        if n.op.name == "matmul" and t.ndim == 1 and n.out.ndim == 1:
            w = n.inputs[1 - i].data
            if w.ndim == 2:
                # out = w @ t: column j is d_j w[:, j]; out = t @ w: it is d_j w[j, :].
                skip.add(n.seq)
                return {id(n.out): Tensor(d.reshape(-1)[:, None] * (w.T if i == 1 else w))}, skip
        break
    seed = np.zeros((n_x, n_x), dtype=x.dtype)
    seed.reshape(-1)[:: n_x + 1] = d.reshape(-1)
    return {id(t): Tensor(seed.reshape((n_x,) + t.shape))}, skip


# --- numeric ---------------------------------------------------------------------------------


class _Replay:
    """The recorded computation from the targets to `out`, re-evaluated in float64 with the
    targets perturbed (an intermediate target keeps its inputs' contribution: what it is
    computed from is recomputed, the perturbation added)."""

    def __init__(self, out: Tensor, targets: Sequence[Tensor]):
        self.out = out
        self.targets = list(targets)
        _, self.path = on_path(ancestors([out]), self.targets)

    def value(self, deltas: dict[int, np.ndarray]) -> np.ndarray:
        vals: dict[int, np.ndarray] = {}
        for t in self.targets:
            if id(t) not in vals:
                vals[id(t)] = _f64(t.data) + deltas.get(id(t), 0)
        with np.errstate(all="ignore"):
            for n in self.path:
                arrays = [vals[id(t)] if id(t) in vals else _f64(t.data) for t in n.inputs]
                v = np.asarray(n.op.forward(*arrays, **n.params))
                k = id(n.out)
                if k in deltas:
                    v = v + deltas[k]
                vals[k] = v
        return vals.get(id(self.out), _f64(self.out.data))

    def gradient(self, deltas: dict[int, np.ndarray]) -> list[np.ndarray]:
        """The gradient of the (one-element) output at the perturbed point, from a graph built
        anew by applying the recorded ops to the perturbed values."""
        new: dict[int, Tensor] = {}
        capture: list[Tensor] = []
        computed = {id(n.out) for n in self.path}
        for t in self.targets:
            if id(t) not in new and id(t) not in computed:
                new[id(t)] = Tensor(_f64(t.data) + deltas.get(id(t), 0), requires_grad=True)
        for n in self.path:
            ins = [new[id(t)] if id(t) in new else Tensor(_f64(t.data)) for t in n.inputs]
            v = apply(n.op, *ins, **n.params)
            if id(n.out) in deltas or any(n.out is t for t in self.targets):
                v = v + Tensor(deltas.get(id(n.out), np.zeros(n.out.shape)))
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


class _Rerun:
    """The program re-run with the (leaf) targets' data replaced: for graphs with user-defined
    functions, whose forward pass cannot be replayed from the graph."""

    def __init__(self, s: _Setup):
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
            over[n] = _f64(t.data) + deltas.get(id(t), 0)
        return self.program.run(overrides=over, dtype="float64", seed=self.s.seed)

    def value(self, deltas: dict[int, np.ndarray]) -> np.ndarray:
        return _f64(self._run(deltas).tensor(self.s.of).data)

    def gradient(self, deltas: dict[int, np.ndarray]) -> list[np.ndarray]:
        r = self._run(deltas)
        out = r.tensor(self.s.of)
        ts = [r.tensor(n) for n, _ in self.s.targets]
        if not out.requires_grad:
            return [np.zeros(t.shape) for t in ts]
        got = run_backward(
            [out], [Tensor(np.ones(out.shape, dtype=out.dtype))], capture=ts, check_freed=False
        )
        return [_f64(got[id(t)][1].data) if id(t) in got else np.zeros(t.shape) for t in ts]


def _f64(a: np.ndarray) -> np.ndarray:
    """Floating-point data in float64 (other data as it is)."""
    a = np.asarray(a)
    return a.astype(np.float64) if a.dtype.kind == "f" and a.dtype != np.float64 else a


def _evaluator(s: _Setup) -> _Replay | _Rerun:
    if has_custom(s.graph()):
        return _Rerun(s)
    return _Replay(s.out, [t for _, t in s.targets])


def _numeric_columns(
    s: _Setup, f: Callable[[dict[int, np.ndarray]], Any], progress: Progress | None
) -> list[np.ndarray]:
    """Central differences of `f` (an array or a list of arrays) for every input element:
    one column per element, of f's flattened value(s)."""
    cols_per_target: list[np.ndarray] = []
    total = sum(_sizes(s.targets))
    done = 0
    for _, t in s.targets:
        n = int(t.data.size)
        x = _f64(t.data).reshape(-1)
        cols = []
        for j in range(n):
            h = NUMERIC_STEP * max(1.0, abs(float(x[j]))) if np.isfinite(x[j]) else NUMERIC_STEP
            d = np.zeros(n)
            d[j] = h
            plus = _flat(f({id(t): d.reshape(t.shape)}))
            d[j] = -h
            minus = _flat(f({id(t): d.reshape(t.shape)}))
            cols.append((plus - minus) / (2 * h))
            done += 1
            if progress is not None and (done % 8 == 0 or done == total):
                progress(done, total)
        cols_per_target.append(np.stack(cols, axis=1) if cols else np.zeros((0, 0)))
    return cols_per_target


def _flat(v: Any) -> np.ndarray:
    if isinstance(v, list):
        return np.concatenate([np.asarray(a, dtype=np.float64).reshape(-1) for a in v])
    return np.asarray(v, dtype=np.float64).reshape(-1)


def _numeric(s: _Setup, progress: Progress | None) -> tuple[list[np.ndarray | None], int]:
    ev = _evaluator(s)
    cols = _numeric_columns(s, ev.value, progress)
    res: list[np.ndarray | None] = []
    for (_, t), c in zip(s.targets, cols):
        res.append(c.reshape(s.out.shape + t.shape) if c.size else np.zeros(s.out.shape + t.shape))
    return res, 2 * sum(_sizes(s.targets))


# --- public functions --------------------------------------------------------------------------


def jacobian(
    program: str | Program | Run,
    of: str | None = None,
    wrt: Sequence[str] | str | None = None,
    method: str = "rows",
    *,
    show_masks: bool = False,
    progress: Progress | None = None,
    seed: int = 0,
    dtype: Any = None,
    overrides: dict[str, Any] | None = None,
) -> JacobianResult:
    """The Jacobian of `of` (default: the last assigned tensor) with respect to each `wrt`
    (default: every leaf that requires grad): one `Block` each, in `.blocks`; `.array` is the
    only block's array (of.shape + wrt.shape), `.matrix` all blocks side by side.

    `program` is program text, a parsed `Program` or a `Run`; `seed`, `dtype` and `overrides`
    are used to run it (and, by `numeric` on a program with user-defined functions, to re-run
    it). `show_masks` (rows and batched) keeps each one-hot mask and the row it produced in
    `.masks`. `progress(done, total)` is called as passes complete (rows, numeric).
    """
    if method not in METHODS:
        raise UsageError(f"unknown method {method!r}", expected=" | ".join(METHODS))
    s = _setup(program, of, wrt, seed, dtype, overrides)
    return _jacobian(s, method, show_masks, progress)


def jacobian_of(
    out: Tensor, inputs: dict[str, Tensor] | Sequence[Tensor], method: str = "batched"
) -> JacobianResult:
    """The Jacobian of an engine `Tensor` with respect to others (already computed): the
    library's entry point below programs. `inputs` by name, or a list (named x0, x1, ...).

    >>> from gradcli.engine import Tensor
    >>> x = Tensor([1.0, 2.0], requires_grad=True)
    >>> jacobian_of(x * x, [x]).array.tolist()
    [[2.0, 0.0], [0.0, 4.0]]
    """
    if method not in METHODS:
        raise UsageError(f"unknown method {method!r}", expected=" | ".join(METHODS))
    named = dict(inputs) if isinstance(inputs, dict) else {f"x{i}": t for i, t in enumerate(inputs)}
    for n, t in named.items():
        if not isinstance(t, Tensor) or not t.requires_grad:
            raise GradcliError(f"input `{n}` is not a Tensor that requires grad")
    if not out.requires_grad:
        raise GradcliError("the output does not require grad: nothing it is computed from does")
    return _jacobian(_Setup(None, "out", out, list(named.items()), 0, None), method, False, None)


def _jacobian(
    s: _Setup, method: str, show_masks: bool, progress: Progress | None
) -> JacobianResult:
    m = int(s.out.data.size)
    n = sum(_sizes(s.targets))
    _check_entries(m, n, "Jacobian")
    used = method
    if method == "auto":
        used = "forward" if n < m else "batched"
    if show_masks and used not in ("rows", "batched"):
        raise UsageError(
            f"--show-masks shows the one-hot masks of the reverse methods; method {used} uses none",
            hint="use --method rows (or batched) with --show-masks",
        )
    t0 = time.perf_counter()
    note = None
    reach = reached(s.out, s.graph())
    if used == "numeric":
        arrays, passes = _numeric(s, progress)
        note = f"central differences in float64, step {NUMERIC_STEP:.3g} * max(1, |x|)"
    else:
        with pruned(s.out, [t for _, t in s.targets], s.graph()):
            if used == "rows":
                arrays, passes = _rows(s, progress)
            elif used == "batched":
                arrays, passes = _batched(s)
            else:
                arrays, passes = _forward(s)
    seconds = time.perf_counter() - t0
    blocks: dict[str, Block] = {}
    dt = np.float64 if used == "numeric" else s.out.dtype
    for (name, t), a in zip(s.targets, arrays):
        if a is None or id(t) not in reach:
            blocks[name] = Block(
                name, tuple(t.shape), np.zeros(s.out.shape + t.shape, dtype=dt), unused=True
            )
        else:
            blocks[name] = Block(name, tuple(t.shape), a)
    if method == "auto":
        note = (
            f"auto chose {used}: {n} input element{'s' if n != 1 else ''} "
            f"{'<' if n < m else '>='} {m} output element{'s' if m != 1 else ''}"
        )
    masks = _masks_from(s, blocks) if show_masks else []
    return JacobianResult(
        s.of, tuple(s.out.shape), used, passes, blocks, method, masks, seconds, note
    )


def _masks_from(s: _Setup, blocks: dict[str, Block]) -> list[Mask]:
    m = int(s.out.data.size)
    mats = {n: b.array.reshape((m,) + b.wrt_shape) for n, b in blocks.items()}
    return [
        Mask(
            tuple(int(k) for k in np.unravel_index(i, s.out.shape)),
            tuple(s.out.shape),
            {n: a[i] for n, a in mats.items()},
        )
        for i in range(m)
    ]


def compare(
    program: str | Program | Run,
    of: str | None = None,
    wrt: Sequence[str] | str | None = None,
    methods: Sequence[str] = ("rows", "batched", "forward", "numeric"),
    *,
    reference: str | None = None,
    seed: int = 0,
    dtype: Any = None,
    overrides: dict[str, Any] | None = None,
) -> Comparison:
    """Run several methods on the same Jacobian (the program runs once)."""
    s = _setup(program, of, wrt, seed, dtype, overrides)
    results = {}
    for m in dict.fromkeys(methods):
        results[m] = jacobian(s.run, s.of, [n for n, _ in s.targets], m, seed=seed)
    ref = reference if reference in results else next(iter(results))
    return Comparison(s.of, tuple(s.out.shape), results, ref)


def _scalar_out(s: _Setup) -> None:
    if s.out.data.size != 1:
        raise GradcliError(
            "grad can be implicitly created only for scalar outputs",
            found=f"`{s.of}` has shape {list(s.out.shape)} ({s.out.data.size} elements)",
            hint="a Hessian is of a one-element output: reduce it (e.g. y.sum()) and choose it "
            "with --of, or use `gradcli jacobian` for first derivatives",
        )


def _first_grads(s: _Setup) -> list[Tensor | None]:
    """The gradient of the output, itself differentiable (create_graph)."""
    ts = [t for _, t in s.targets]
    got = run_backward(
        [s.out],
        [Tensor(np.ones(s.out.shape, dtype=s.out.dtype))],
        create_graph=True,
        retain_graph=True,
        capture=ts,
        check_freed=False,
    )
    return [got[id(t)][1] if id(t) in got else None for t in ts]


def hessian(
    program: str | Program | Run,
    of: str | None = None,
    wrt: Sequence[str] | str | None = None,
    method: str = "batched",
    *,
    progress: Progress | None = None,
    seed: int = 0,
    dtype: Any = None,
    overrides: dict[str, Any] | None = None,
) -> HessianResult:
    """Second derivatives of a one-element `of`, reverse over reverse: one backward pass with
    `create_graph` for the gradient, then the gradient's Jacobian, its one-hot rows in one
    batched pass (`batched`), one pass each (`rows`), or central differences of the gradient
    (`numeric`). `blocks[(a, b)][i, j] = d2 of / d a_i d b_j`."""
    if method not in HESSIAN_METHODS:
        raise UsageError(f"unknown Hessian method {method!r}", expected=" | ".join(HESSIAN_METHODS))
    s = _setup(program, of, wrt, seed, dtype, overrides)
    _scalar_out(s)
    sizes = _sizes(s.targets)
    total = sum(sizes)
    _check_entries(total, total, "Hessian")
    ts = [t for _, t in s.targets]
    t0 = time.perf_counter()
    dt = s.out.dtype
    reach = reached(s.out, s.graph())
    unused = [n for n, t in s.targets if id(t) not in reach]
    if method == "numeric":
        ev = _evaluator(s)
        cols = _numeric_columns(s, ev.gradient, progress)
        full = np.concatenate(cols, axis=1) if cols else np.zeros((total, total))
        passes = 2 * total
        dt = np.float64
    else:
        with pruned(s.out, ts, s.graph()):
            grads = _first_grads(s)
            full = np.zeros((total, total), dtype=dt)
            live = [(k, g) for k, g in enumerate(grads) if g is not None and g.requires_grad]
            offs = np.concatenate([[0], np.cumsum(sizes)]).astype(int)
            if method == "batched":
                # One batched pass per input with a gradient (its block-row of the Hessian).
                passes = 1 + len(live)
                for k, g in live:
                    rows = _reverse_batched(g, ts, (sizes[k],))
                    for b, r in enumerate(rows):
                        if r is not None:
                            full[offs[k] : offs[k + 1], offs[b] : offs[b + 1]] = r.reshape(
                                sizes[k], sizes[b]
                            )
            else:
                passes = 1 + total
                done = 0
                for k, g in live:
                    for i in range(sizes[k]):
                        e = np.zeros(sizes[k], dtype=dt)
                        e[i] = 1
                        got = run_backward(
                            [g], [Tensor(e.reshape(ts[k].shape))], capture=ts, check_freed=False
                        )
                        for b, t in enumerate(ts):
                            if id(t) in got:
                                full[offs[k] + i, offs[b] : offs[b + 1]] = np.asarray(
                                    got[id(t)][1].data
                                ).reshape(-1)
                        done += 1
                        if progress is not None and (done % 16 == 0):
                            progress(done, total)
                if progress is not None:
                    progress(total, total)
    seconds = time.perf_counter() - t0
    blocks: dict[tuple[str, str], np.ndarray] = {}
    offs = np.concatenate([[0], np.cumsum(sizes)]).astype(int)
    for a, (na, ta) in enumerate(s.targets):
        for b, (nb_, tb) in enumerate(s.targets):
            blocks[(na, nb_)] = np.ascontiguousarray(
                full[offs[a] : offs[a + 1], offs[b] : offs[b + 1]]
            ).reshape(ta.shape + tb.shape)
    return HessianResult(
        s.of,
        tuple(s.out.shape),
        method,
        passes,
        [(n, tuple(t.shape)) for n, t in s.targets],
        blocks,
        unused,
        seconds,
    )


def hvp(
    program: str | Program | Run,
    of: str | None = None,
    wrt: Sequence[str] | str | None = None,
    v: Any = None,
    *,
    seed: int = 0,
    dtype: Any = None,
    overrides: dict[str, Any] | None = None,
) -> HvpResult:
    """The Hessian-vector product H v of a one-element `of`, without building H: a backward
    pass with `create_graph` gives the gradient, a second one differentiates <gradient, v>.

    `v`: one array per `wrt` (a list, or a dict by name), or one flat sequence of all their
    elements in --wrt order."""
    s = _setup(program, of, wrt, seed, dtype, overrides)
    _scalar_out(s)
    vs = _split_v(s, v)
    ts = [t for _, t in s.targets]
    with pruned(s.out, ts, s.graph()):
        grads = _first_grads(s)
        roots, rgs = [], []
        for g, vi in zip(grads, vs):
            if g is not None and g.requires_grad:
                roots.append(g)
                rgs.append(Tensor(vi.astype(g.dtype)))
        got = run_backward(roots, rgs, capture=ts, check_freed=False) if roots else {}
    res = {
        n: np.asarray(got[id(t)][1].data) if id(t) in got else np.zeros(t.shape, dtype=s.out.dtype)
        for n, t in s.targets
    }
    unused = [n for (n, _), g in zip(s.targets, grads) if g is None]
    return HvpResult(
        s.of, tuple(s.out.shape), {n: a for (n, _), a in zip(s.targets, vs)}, res, 2, unused
    )


def _split_v(s: _Setup, v: Any) -> list[np.ndarray]:
    if v is None:
        raise GradcliError(
            "hvp needs the vector v", hint="give v with one value per input element, e.g. --v 1,0,0"
        )
    shapes = [tuple(t.shape) for _, t in s.targets]
    if isinstance(v, dict):
        missing = [n for n, _ in s.targets if n not in v]
        if missing:
            raise GradcliError(f"v has no part for `{missing[0]}`")
        parts = [np.asarray(v[n], dtype=np.float64) for n, _ in s.targets]
    elif (
        isinstance(v, (list, tuple))
        and len(v) == len(shapes)
        and len(shapes) > 1
        and all(np.size(p) == int(np.prod(sh)) for p, sh in zip(v, shapes))
    ):
        parts = [np.asarray(p, dtype=np.float64) for p in v]
    else:
        flat = np.asarray(v.data if isinstance(v, Tensor) else v, dtype=np.float64).reshape(-1)
        total = sum(int(np.prod(sh)) for sh in shapes)
        if flat.size != total:
            names = ", ".join(f"`{n}` {list(sh)}" for (n, _), sh in zip(s.targets, shapes))
            raise GradcliError(
                f"v has {flat.size} values but the inputs have {total} elements",
                found=f"{flat.size} values",
                expected=f"{total} ({names})",
            )
        parts, off = [], 0
        for sh in shapes:
            k = int(np.prod(sh))
            parts.append(flat[off : off + k])
            off += k
    out = []
    for p, sh, (n, _) in zip(parts, shapes, s.targets):
        if p.size != int(np.prod(sh)):
            raise GradcliError(f"v for `{n}` has {p.size} values but `{n}` has shape {list(sh)}")
        out.append(p.reshape(sh))
    return out


# `gradcli.jacobian` is this module (the import system sets the package attribute to it), and
# the library promises `gradcli.jacobian(program, of=, wrt=, method=)`: calling the module calls
# the function.
class _CallableModule(types.ModuleType):
    def __call__(self, *args: Any, **kwargs: Any) -> JacobianResult:
        return jacobian(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
