"""Hessians and Hessian-vector products of a one-element output, reverse over reverse: one
backward pass with `create_graph` for the gradient, then the gradient's Jacobian (its one-hot
rows in one batched pass, one pass each, or central differences of the gradient), or one
more pass differentiating <gradient, v>.

`H[i, j] = d2 out / d in_i d in_j` (array form `a.shape + b.shape` for the block of `a`, `b`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..base.errors import GradcliError, UsageError
from ..core.autograd import run_backward
from ..core.differences import Progress
from ..core.graph import pruned, reached
from ..core.tensor import Tensor, in_pass
from ..lang.program import Program, Run
from .api import Setup, check_entries, check_text, setup, target_sizes
from .differences import evaluator, numeric_jacobian
from .jacobian import reverse_batched
from .results import HessianResult, HvpResult

HESSIAN_METHODS = ("batched", "rows", "numeric")


def _scalar_out(s: Setup) -> None:
    if s.out.data.size != 1:
        raise GradcliError(
            "grad can be implicitly created only for scalar outputs",
            found=f"`{s.of}` has shape {list(s.out.shape)} ({s.out.data.size} elements)",
            hint="a Hessian is of a one-element output: reduce it (e.g. y.sum()) and choose it "
            "with --of, or use `gradcli jacobian` for first derivatives",
        )


def _first_grads(s: Setup) -> list[Tensor | None]:
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
    text: bool = False,
) -> HessianResult:
    """Second derivatives of a one-element `of`, reverse over reverse: one backward pass with
    `create_graph` for the gradient, then the gradient's Jacobian, its one-hot rows in one
    batched pass (`batched`), one pass each (`rows`), or central differences of the gradient
    (`numeric`). `blocks[(a, b)][i, j] = d2 of / d a_i d b_j`. `text`: the answer is to be
    written as text (refused past `output_numbers` before any work, `api.check_text`)."""
    if method not in HESSIAN_METHODS:
        raise UsageError(f"unknown Hessian method {method!r}", expected=" | ".join(HESSIAN_METHODS))
    s = setup(program, of, wrt, seed, dtype, overrides)
    _scalar_out(s)
    sizes = target_sizes(s.targets)
    total = sum(sizes)
    check_entries(total, total, "Hessian")
    if text:
        check_text(total * total, "the Hessian")
    ts = [t for _, t in s.targets]
    t0 = time.perf_counter()
    dt = s.out.dtype
    reach = reached(s.out, s.graph())
    unused = [n for n, t in s.targets if id(t) not in reach]
    if method == "numeric":
        diffs = numeric_jacobian(evaluator(s), s.targets, of="gradient", progress=progress)
        full = np.concatenate([d.central for d in diffs], axis=1) if diffs else np.zeros((0, 0))
        passes = 2 * total
        dt = np.float64
    else:
        with pruned(s.out, ts, s.graph()), in_pass():  # one errstate, not one per op
            grads = _first_grads(s)
            full = np.zeros((total, total), dtype=dt)
            live = [(k, g) for k, g in enumerate(grads) if g is not None and g.requires_grad]
            offs = np.concatenate([[0], np.cumsum(sizes)]).astype(int)
            if method == "batched":
                # One batched pass per input with a gradient (its block-row of the Hessian).
                passes = 1 + len(live)
                for k, g in live:
                    rows = reverse_batched(g, ts, (sizes[k],))
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
    s = setup(program, of, wrt, seed, dtype, overrides)
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


def _split_v(s: Setup, v: Any) -> list[np.ndarray]:
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
