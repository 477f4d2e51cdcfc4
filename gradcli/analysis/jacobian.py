"""Jacobians of a program's tensors (Hessians and HVPs are in `hessian`).

    >>> import gradcli
    >>> prog = "x = tensor([1., 2.], requires_grad=True)\\ny = x * x"
    >>> gradcli.jacobian(prog, method="rows").array.tolist()
    [[2.0, 0.0], [0.0, 4.0]]
    >>> r = gradcli.jacobian(prog, method="auto")
    >>> r.method, r.passes
    ('batched', 1)

Layout, as PyTorch's `torch.autograd.functional.jacobian`: `J[i, j] = d out_i / d in_j`, the
output's elements row-major down the rows, the input's elements row-major across the columns;
the array form is `of.shape + wrt.shape` and the matrix form `(of.size, wrt.size)`.

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

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, UsageError
from ..core import forward as forward_mode
from ..core import hooks
from ..core.autograd import check_versions, run_backward
from ..core.differences import Differences, Progress
from ..core.graph import ancestors, has_custom, next_seq, on_path, pruned, reached
from ..core.op import Node, producer
from ..core.tensor import Tensor, as_tensor, in_pass, no_grad
from ..lang.program import Program, Run
from .api import Setup, check_entries, check_text, setup, target_sizes
from .compare import ATOL, RTOL, compare_methods
from .differences import NUMERIC_STEP, evaluator, numeric_jacobian
from .results import Block, JacobianResult, Mask, MethodComparison

METHODS = ("rows", "batched", "forward", "numeric", "auto")


# --- reverse mode ----------------------------------------------------------------------------


def _batched(s: Setup) -> tuple[list[np.ndarray | None], int]:
    return reverse_batched(s.out, [t for _, t in s.targets], s.out.shape, s.graph()), 1


def reverse_batched(
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
    nodes = ancestors([root]) if nodes is None else nodes
    known = set(nodes)
    counts: dict[int, int] = {}
    for n in nodes:
        for u in n.inputs:
            if u.requires_grad:
                counts[id(u)] = counts.get(id(u), 0) + 1
    ids = {id(t) for t in targets}

    def chain(t: Tensor, user: Node | None) -> tuple[Node, int, Tensor] | None:
        """t's node (the one that made the version of t `user` read), if t is not a target
        and its node has one input to follow, used once."""
        n = t.node
        if n is not None and user is not None and n.seq >= user.seq:
            n = producer(t, user.seq)  # t was changed in place after `user` read it
        if id(t) in ids or n is None or n not in known:
            return None
        live = [i for i, u in enumerate(n.inputs) if u.requires_grad and i not in n.op.nondiff]
        if len(live) != 1 or counts.get(id(n.inputs[live[0]]), 0) != 1:
            return None
        return n, live[0], n.inputs[live[0]]

    def elementwise(n: Node, u: Tensor, t: Tensor) -> bool:
        return n.op.kind in ("elementwise", "binary") and u.shape == t.shape

    t, d = root, np.ones(root.shape, dtype=root.dtype)
    start, g = root, None
    user: Node | None = None
    while (step := chain(t, user)) is not None:
        n, i, u = step
        if elementwise(n, u, t):
            check_versions(n)
            with no_grad(), np.errstate(all="ignore"):
                gi = n.op.vjp(Tensor(d), n.out, *n.inputs, **n.params)[i]
            if gi is None:
                return [None] * len(targets)
            d = as_tensor(gi, like=u).data
            d = d if d.shape == u.shape else np.broadcast_to(d, u.shape)
            t, user = u, n  # `user`: the node that read t
            continue
        if n.op.name == "matmul" and t.ndim == 1 and u.ndim == 1:
            w = n.inputs[1 - i].data
            if w.ndim == 2:
                # out = w @ u: rows d_i w[i, :]; out = u @ w: rows d_j w[:, j].
                g = d[:, None] * (w if i == 1 else w.T)
                start, user = u, n
        break
    if g is None:
        g = np.zeros((m, m), dtype=root.dtype)
        g.reshape(-1)[:: m + 1] = d.reshape(-1)
        start = t
    g = g.reshape((m,) + start.shape)
    while (step := chain(start, user)) is not None and elementwise(step[0], step[2], start):
        n, i, u = step
        check_versions(n)
        with no_grad(), np.errstate(all="ignore"):
            gi = n.op.vjp(Tensor(g), n.out, *n.inputs, **n.params)[i]
        if gi is None:
            return [None] * len(targets)
        g = as_tensor(gi, like=u).data
        g = g if g.shape == (m,) + u.shape else np.broadcast_to(g, (m,) + u.shape)
        start, user = u, n
    if start.node is None or id(start) in ids:
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
        first_mask: np.ndarray,
    ):
        g0 = Tensor(first_mask, requires_grad=True)
        first = next_seq()
        got = run_backward(
            [out],
            [g0],
            create_graph=True,
            retain_graph=True,
            capture=list(targets),
            check_freed=False,
        )
        results = [got[id(t)][1] if id(t) in got else None for t in targets]
        # The nodes this pass recorded that the results depend on, in creation order.
        recorded = ancestors(results, since=first)
        slot: dict[int, int] = {id(g0): 0}
        prog: list[tuple[Callable[..., Any], list[tuple[bool, Any]], dict, int]] = []
        for n in recorded:
            if not any(id(t) in slot for t in n.inputs):
                continue  # a constant (it does not depend on g)
            args = [(True, slot[id(t)]) if id(t) in slot else (False, t.data) for t in n.inputs]
            slot[id(n.out)] = len(slot)
            prog.append((n.op.forward, args, n.params, slot[id(n.out)]))
        self.ok = all(r is None or id(r) in slot for r in results)
        self.first = [None if r is None else np.array(r.data) for r in results]
        # (A result that does not depend on g, a rule's constant zeros, has no slot: not ok.)
        self.result_slots = [None if r is None else slot.get(id(r)) for r in results]
        self.prog = prog
        self.nslots = len(slot)

    def replay(self, mask: np.ndarray) -> list[np.ndarray | None]:
        vals: list[Any] = [None] * self.nslots
        vals[0] = mask
        tick = hooks.observer.tick
        with np.errstate(all="ignore"):
            for fwd, args, params, o in self.prog:
                tick()
                vals[o] = np.asarray(fwd(*[vals[a] if s else a for s, a in args], **params))
        return [None if k is None else vals[k] for k in self.result_slots]


def _literal_pass(
    out: Tensor, targets: Sequence[Tensor], mask: np.ndarray
) -> list[np.ndarray | None]:
    got = run_backward([out], [Tensor(mask)], capture=list(targets), check_freed=False)
    return [None if id(t) not in got else np.asarray(got[id(t)][1].data) for t in targets]


def _rows(s: Setup, progress: Progress | None) -> tuple[list[np.ndarray | None], int]:
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
        tape = _Tape(out, ts, mask_of(0))
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


def _forward(s: Setup) -> tuple[list[np.ndarray | None], int]:
    out = s.out
    sizes = target_sizes(s.targets)
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
    with its columns scaled by `d`): the mirror image of `reverse_batched`'s start."""
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
            check_versions(n)
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


def _numeric(s: Setup, progress: Progress | None) -> tuple[list[np.ndarray | None], int]:
    diffs = numeric_jacobian(evaluator(s), s.targets, progress=progress)
    res: list[np.ndarray | None] = [
        d.central.reshape(s.out.shape + t.shape) for (_, t), d in zip(s.targets, diffs)
    ]
    return res, 2 * sum(target_sizes(s.targets))


# --- public functions --------------------------------------------------------------------------


def jacobian(
    program: str | Program | Run | Tensor,
    of: Any = None,
    wrt: Any = None,
    method: str | None = None,
    *,
    show_masks: bool = False,
    progress: Progress | None = None,
    seed: int = 0,
    dtype: Any = None,
    overrides: dict[str, Any] | None = None,
    text: bool = False,
) -> JacobianResult:
    """The Jacobian of `of` (default: the last assigned tensor) with respect to each `wrt`
    (default: every leaf that requires grad): one `Block` each, in `.blocks`; `.array` is the
    only block's array (of.shape + wrt.shape), `.matrix` all blocks side by side.

    `program` is program text, a parsed `Program` or a `Run`; `seed`, `dtype` and `overrides`
    are used to run it (and, by `numeric` on a program with user-defined functions, to re-run
    it). `show_masks` (rows and batched) keeps each one-hot mask and the row it produced in
    `.masks`. `progress(done, total)` is called as passes complete (rows, numeric). The
    method is `rows` by default. `text`: the answer is to be written as text, and is refused
    before any work past the `output_numbers` limit (`api.check_text`).

    The Tensor form: `jacobian(out, inputs, method=None)`, `out` a Tensor already computed and
    `inputs` a Tensor, a list of them (named x0, x1, ...) or a dict by name (`jacobian_of`;
    the method is `batched` by default).

    >>> x = gradcli.Tensor([1.0, 2.0], requires_grad=True)
    >>> gradcli.jacobian(x * x, x).array.tolist()
    [[2.0, 0.0], [0.0, 4.0]]
    """
    if isinstance(program, Tensor):
        inputs = of if wrt is None else wrt
        if isinstance(inputs, Tensor):
            inputs = [inputs]
        if not isinstance(inputs, (list, tuple, dict)) or (of is not None and wrt is not None):
            raise GradcliError(
                "the Jacobian of a Tensor is taken with respect to tensors",
                expected="jacobian(out, x), jacobian(out, [x, y]) or jacobian(out, {'x': x})",
            )
        return jacobian_of(program, inputs, method or "batched")
    method = method or "rows"
    if method not in METHODS:
        raise UsageError(f"unknown method {method!r}", expected=" | ".join(METHODS))
    s = setup(program, of, wrt, seed, dtype, overrides)
    return _jacobian(s, method, show_masks, progress, text)


def jacobian_of(
    out: Tensor, inputs: dict[str, Tensor] | Sequence[Tensor], method: str = "batched"
) -> JacobianResult:
    """The Jacobian of a `Tensor` with respect to others (already computed): the Tensor form
    of `jacobian`. `inputs` by name, or a list (named x0, x1, ...)."""
    if method not in METHODS:
        raise UsageError(f"unknown method {method!r}", expected=" | ".join(METHODS))
    named = dict(inputs) if isinstance(inputs, dict) else {f"x{i}": t for i, t in enumerate(inputs)}
    for n, t in named.items():
        if not isinstance(t, Tensor) or not t.requires_grad:
            raise GradcliError(f"input `{n}` is not a Tensor that requires grad")
    if not out.requires_grad:
        raise GradcliError("the output does not require grad: nothing it is computed from does")
    return _jacobian(Setup(None, "out", out, list(named.items()), 0, None), method, False, None)


def _jacobian(
    s: Setup, method: str, show_masks: bool, progress: Progress | None, text: bool = False
) -> JacobianResult:
    m = int(s.out.data.size)
    n = sum(target_sizes(s.targets))
    check_entries(m, n, "Jacobian")
    if text:
        # The Jacobian, and with the masks each one-hot mask and the row it gave.
        check_text(m * n + (m * (m + n) if show_masks else 0), "the Jacobian")
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
        # One errstate for the whole computation (`in_pass`), not one per operation.
        with pruned(s.out, [t for _, t in s.targets], s.graph()), in_pass():
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


def _masks_from(s: Setup, blocks: dict[str, Block]) -> list[Mask]:
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
    atol: float = ATOL,
    rtol: float = RTOL,
) -> MethodComparison:
    """Run several methods on the same Jacobian (the program runs once) and compare each
    with the reference by the one comparison rule of `check` (`compare.compare_methods`:
    exact methods to 1e-8 relative, finite differences to `atol`/`rtol` plus their rounding
    noise, and at a kink anything between the one-sided derivatives). `.ok` is the verdict."""
    s = setup(program, of, wrt, seed, dtype, overrides)
    names = [n for n, _ in s.targets]
    entries = int(s.out.data.size) * sum(target_sizes(s.targets))
    check_entries(int(s.out.data.size), sum(target_sizes(s.targets)), "Jacobian")
    # Each method's matrix, and the numeric method's central, one-sided and noise arrays.
    n_arrays = len(set(methods)) + (3 if "numeric" in methods else 0)
    if "numeric" in methods and len(s.targets) > 1:
        n_arrays += 4  # the numeric differences of each input, then side by side
    limits.MEMORY_MB.check(
        entries * 8 * n_arrays >> 20,
        f"the memory --compare needs for {n_arrays} matrices of {entries:,} entries, in MB,",
    )
    results: dict[str, JacobianResult] = {}
    diffs: Differences | None = None
    for m in dict.fromkeys(methods):
        if m == "numeric":
            results[m], diffs = _numeric_with_sides(s)
        else:
            results[m] = jacobian(s.run, s.of, names, m, seed=seed)
    ref = reference if reference in results else next(iter(results))
    comparisons = {}
    for m, r in results.items():
        if m == ref:
            continue
        mats = {ref: results[ref].matrix, m: r.matrix}
        comparisons[m] = compare_methods(
            mats, diffs if "numeric" in mats else None, atol=atol, rtol=rtol, pairs=[(m, ref)]
        )[0]
    kinks = diffs.kinks() if diffs is not None else None
    return MethodComparison(
        s.of,
        tuple(s.out.shape),
        results,
        ref,
        comparisons,
        int(kinks.sum()) if kinks is not None else 0,
    )


def _numeric_with_sides(s: Setup) -> tuple[JacobianResult, Differences]:
    """The numeric method's Jacobian, and its differences with the one-sided ones (all
    inputs side by side) that judge kinks."""
    check_entries(int(s.out.data.size), sum(target_sizes(s.targets)), "Jacobian")
    t0 = time.perf_counter()
    parts = numeric_jacobian(evaluator(s), s.targets, one_sided=True)
    seconds = time.perf_counter() - t0
    blocks = {
        name: Block(name, tuple(t.shape), d.central.reshape(s.out.shape + t.shape))
        for (name, t), d in zip(s.targets, parts)
    }
    reach = reached(s.out, s.graph())
    for name, t in s.targets:
        if id(t) not in reach:
            blocks[name] = Block(name, tuple(t.shape), blocks[name].array, unused=True)

    def cat(field: str) -> np.ndarray | None:
        arrs = [getattr(d, field) for d in parts]
        if any(a is None for a in arrs):
            return None
        return arrs[0] if len(arrs) == 1 else np.concatenate(arrs, axis=1)

    central = cat("central")
    assert central is not None
    both = Differences(
        central,
        cat("left"),
        cat("right"),
        cat("noise"),
        np.concatenate([d.failed for d in parts]),
        parts[0].step,
    )
    res = JacobianResult(
        s.of,
        tuple(s.out.shape),
        "numeric",
        2 * sum(target_sizes(s.targets)),
        blocks,
        "numeric",
        [],
        seconds,
        f"central differences in float64, step {NUMERIC_STEP:.3g} * max(1, |x|)",
    )
    return res, both


def engine_jacobian(
    out: Tensor, targets: list[tuple[str, Tensor]], method: str = "rows"
) -> dict[str, np.ndarray]:
    """`J[i, j] = d out_i / d in_j` for each target from the engine's rules, as (n_out, n_in)
    float64 matrices: `rows` (one masked backward pass per output element), `batched` (all
    masks in one pass) or `forward` (forward mode), by `jacobian_of`."""
    res = jacobian_of(out, dict(targets), method)
    return {name: np.asarray(res.blocks[name].matrix, dtype=np.float64) for name, _ in targets}
