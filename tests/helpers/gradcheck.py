"""Finite differences for the tests: random inputs for an op's `Sample`, the engine's VJPs, and
float64 central differences to compare them with.

Everything here works on one registry record (`gradcli.ops.REGISTRY[name]`) called as
`apply(op, *inputs, **sample.params)`: the forward used for the differences is the op's own
NumPy `forward`, the gradients come from `run_backward` (so the rules are exercised exactly as
the engine runs them, `unbroadcast` included).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from gradcli.core.autograd import grad, run_backward
from gradcli.core.differences import absolute, differences
from gradcli.core.op import Op, Sample, apply
from gradcli.core.tensor import Tensor

STEP = 1e-6  # central differences of first derivatives (float64)
STEP2 = 1e-5  # central differences of gradients (second derivatives)
RTOL = 1e-6  # a rule off by 0.1% is off by 1e-3: a thousand times over this


class GradcheckError(AssertionError):
    """A gradient disagrees with finite differences (the message says where and by how much)."""


# --- inputs ---------------------------------------------------------------------------------


def _draw(rng: np.random.Generator, n: int, s: Sample) -> np.ndarray:
    if s.distinct:
        # Points of a grid of spacing `gap`, jittered by at most gap/4: any two differ by at
        # least gap/2; grid points within `gap` of an avoided point are left out.
        grid = s.low + s.gap * (np.arange(int((s.high - s.low) / s.gap)) + 0.5)
        for a in s.avoid:
            grid = grid[np.abs(grid - a) >= s.gap]
        if len(grid) < n:
            raise ValueError(f"{s}: not enough room for {n} distinct values")
        v = rng.choice(grid, size=n, replace=False)
        return v + rng.uniform(-s.gap / 4, s.gap / 4, size=n)
    v = rng.uniform(s.low, s.high, size=n)
    for a in s.avoid:
        near = np.abs(v - a) < s.gap
        v = np.where(near, a + np.where(v >= a, s.gap, -s.gap), v)
    return v


SYMMETRIC = ("spd", "symmetric")


def _sym(a: np.ndarray) -> np.ndarray:
    return (a + np.swapaxes(a, -1, -2)) / 2


def structured(kind: str, a: np.ndarray) -> np.ndarray:
    """A random draw made into the matrices a `Sample.structure` kind names (last two axes)."""
    n = a.shape[-1]
    eye = np.eye(n, dtype=a.dtype)
    if kind == "invertible":
        return a + 3.0 * eye
    if kind == "spd":
        return a @ np.swapaxes(a, -1, -2) / n + eye
    if kind == "symmetric":
        return _sym(a) + np.diag(np.arange(n, dtype=a.dtype) * 1.5)
    if kind == "wide":
        m = a.shape[-2]
        return a + 3.0 * np.eye(m, n, dtype=a.dtype)
    if kind in ("lower", "upper"):  # a Cholesky factor: one triangle, a positive diagonal
        t = np.tril(a) if kind == "lower" else np.triu(a)
        return t + float(n) * eye
    if kind == "any":
        return a
    raise ValueError(f"unknown structure {kind!r}")


def symmetrized(s: Sample, arrays: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The inputs a rule sees when finite differences move the symmetric ones."""
    return [_sym(a) if s.structure.get(i) in SYMMETRIC else a for i, a in enumerate(arrays)]


def make_inputs(s: Sample, seed: int, dtype: Any = np.float64) -> list[np.ndarray]:
    """The sample's inputs: random floats of its shapes (fixed ones as given), made into the
    matrices `s.structure` asks for."""
    return [
        structured(s.structure[i], a).astype(a.dtype) if i in s.structure else a
        for i, a in enumerate(_make_inputs(s, seed, dtype))
    ]


def _make_inputs(s: Sample, seed: int, dtype: Any = np.float64) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    randoms = [i for i in range(len(s.shapes)) if i not in s.fixed]
    values = _draw(rng, sum(int(np.prod(s.shapes[i])) for i in randoms), s)
    out: list[np.ndarray] = []
    start = 0
    for i, shape in enumerate(s.shapes):
        if i in s.fixed:
            a = np.asarray(s.fixed[i])
            if a.shape != tuple(shape):
                raise ValueError(f"{s}: fixed input {i} has shape {a.shape}, not {shape}")
            # Fixed float values take the dtype under test (a float32 run is float32 through).
            out.append(a.astype(dtype) if a.dtype.kind == "f" else a)
            continue
        n = int(np.prod(shape))
        out.append(values[start : start + n].reshape(shape).astype(dtype))
        start += n
    return out


def diff_positions(op: Op, s: Sample, arrays: Sequence[np.ndarray]) -> list[int]:
    """The inputs that are differentiated: float, not fixed, not one of the op's `nondiff`."""
    return [
        i
        for i, a in enumerate(arrays)
        if i not in s.fixed and i not in op.nondiff and a.dtype.kind == "f"
    ]


def random_like(shape: tuple[int, ...], seed: int, dtype: Any = np.float64) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1.0, 1.0, size=shape).astype(dtype)


# --- the engine's side -----------------------------------------------------------------------


def tensors(arrays: Sequence[np.ndarray], positions: Sequence[int]) -> list[Tensor]:
    return [Tensor(a.copy(), requires_grad=i in positions) for i, a in enumerate(arrays)]


def engine_vjp(
    op: Op,
    arrays: Sequence[np.ndarray],
    params: dict,
    g: np.ndarray,
    positions: Sequence[int],
    nb: int = 0,
) -> list[np.ndarray]:
    """The VJP of `op` at `arrays` with upstream `g` (with `nb` leading batch axes), from
    `run_backward`; one array per differentiated input (zeros where no gradient came)."""
    ts = tensors(arrays, positions)
    out = apply(op, *ts, **params)
    if g.shape[nb:] != out.shape:
        raise GradcheckError(f"upstream of shape {g.shape[nb:]} for an output of {out.shape}")
    got = run_backward([out], [Tensor(g)], nb=nb)
    res = []
    for i in positions:
        t = ts[i]
        if id(t) in got:
            r = got[id(t)][1].data
        else:
            r = np.zeros(g.shape[:nb] + t.shape, dtype=t.dtype)
        if r.shape != g.shape[:nb] + t.shape:
            raise GradcheckError(
                f"{op.name}: gradient of input {i} has shape {r.shape}, "
                f"expected {g.shape[:nb] + t.shape}"
            )
        res.append(np.asarray(r))
    return res


def engine_hvp(
    op: Op,
    arrays: Sequence[np.ndarray],
    params: dict,
    w: np.ndarray,
    v: Sequence[np.ndarray],
    positions: Sequence[int],
) -> list[np.ndarray]:
    """d/dx <VJP(x; w), v> by differentiating the gradient graph (`create_graph=True`)."""
    from gradcli.ops import arithmetic as A
    from gradcli.surface import functional as F

    ts = tensors(arrays, positions)
    ins = [ts[i] for i in positions]
    out = apply(op, *ts, **params)
    gs = grad(out, ins, grad_outputs=Tensor(w), create_graph=True, materialize_grads=True)
    total = None
    for gi, vi in zip(gs, v, strict=True):
        term = F.sum(A.mul_t(gi, Tensor(vi)))
        total = term if total is None else A.add_t(total, term)
    if total is None or not total.requires_grad:
        # The gradient does not depend on the inputs (a linear op): the Hessian is zero.
        return [np.zeros(t.shape) for t in ins]
    hs = grad(total, ins, materialize_grads=True)
    return [np.asarray(h.data) for h in hs]


# --- finite differences ----------------------------------------------------------------------


def numeric_grad(
    f: Callable[[list[np.ndarray]], float],
    arrays: Sequence[np.ndarray],
    positions: Sequence[int],
    step: float = STEP,
) -> list[np.ndarray]:
    """Central differences of the scalar `f` with respect to each input in `positions`, by
    gradcli's one finite-difference engine (`core.differences`) with an absolute step."""
    xs = [np.array(a, dtype=a.dtype, copy=True) for a in arrays]
    res = []
    for i in positions:

        def fi(x: np.ndarray, i: int = i) -> np.ndarray:
            ys = list(xs)
            ys[i] = x.astype(xs[i].dtype, copy=False)
            return np.asarray(f(ys), dtype=np.float64)

        d = differences(fi, xs[i], step=absolute(step), one_sided=False)
        res.append(d.central.reshape(xs[i].shape))
    return res


def weighted(
    op: Op, params: dict, w: np.ndarray, s: Sample | None = None
) -> Callable[[list[np.ndarray]], float]:
    """x -> sum(op(x) * w), computed in float64 with the op's NumPy forward (symmetric inputs
    of `s` made symmetric first)."""

    def f(xs: list[np.ndarray]) -> float:
        if s is not None:
            xs = symmetrized(s, xs)
        with np.errstate(all="ignore"):
            out = np.asarray(op.forward(*xs, **params), dtype=np.float64)
        return float(np.sum(out * w))

    return f


def rel_error(got: np.ndarray, want: np.ndarray) -> float:
    """max |got - want| over max(max |want|, 1): relative for large values, absolute for small."""
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        return float("inf")
    if got.size == 0:
        return 0.0
    if not (np.all(np.isfinite(got)) and np.all(np.isfinite(want))):
        same = np.array_equal(got, want, equal_nan=True)
        return 0.0 if same else float("inf")
    return float(np.max(np.abs(got - want)) / max(float(np.max(np.abs(want))), 1.0))


def compare(
    what: str,
    got: Sequence[np.ndarray],
    want: Sequence[np.ndarray],
    positions: Sequence[int],
    rtol: float,
) -> None:
    for i, a, b in zip(positions, got, want, strict=True):
        err = rel_error(a, b)
        if not err <= rtol:
            raise GradcheckError(
                f"{what}: input {i}: relative error {err:.3g} > {rtol:g}\n"
                f"  engine:  {np.array2string(np.asarray(a), precision=10)}\n"
                f"  numeric: {np.array2string(np.asarray(b), precision=10)}"
            )


def check_vjp(op: Op, s: Sample, seed: int = 0, rtol: float | None = None) -> float:
    """Raise `GradcheckError` unless the engine's VJP with a random upstream `w` matches
    central differences of `sum(op(x) * w)`; return the largest relative error."""
    arrays = make_inputs(s, seed)
    positions = diff_positions(op, s, arrays)
    out = np.asarray(op.forward(*arrays, **s.params))
    w = random_like(out.shape, seed + 1)
    eps = np.finfo(out.dtype).eps if out.dtype.kind == "f" else np.finfo(np.float64).eps
    # Float64 results: the usual step. Lower-precision results (astype to float32) are
    # differenced with a step suited to their precision and compared more loosely.
    step = STEP if eps <= np.finfo(np.float64).eps else 0.05
    tol = rtol if rtol is not None else (RTOL if step == STEP else 1e-4)
    got = engine_vjp(op, arrays, s.params, w.astype(out.dtype), positions)
    want = numeric_grad(weighted(op, s.params, w, s), arrays, positions, step)
    compare(f"{op.name} {describe(s)}", got, want, positions, tol)
    return max((rel_error(a, b) for a, b in zip(got, want, strict=True)), default=0.0)


def check_hvp(op: Op, s: Sample, seed: int = 0, rtol: float = RTOL) -> float:
    """Second order: the gradient of <VJP(x; w), v> (create_graph) against central differences
    of the first VJP along v."""
    arrays = make_inputs(s, seed)
    positions = diff_positions(op, s, arrays)
    out = np.asarray(op.forward(*arrays, **s.params))
    w = random_like(out.shape, seed + 1)
    v = [random_like(arrays[i].shape, seed + 2 + i) for i in positions]
    v = [
        _sym(vi) if s.structure.get(i) in SYMMETRIC else vi
        for i, vi in zip(positions, v, strict=True)
    ]
    got = engine_hvp(op, arrays, s.params, w, v, positions)

    def first(h: np.ndarray) -> np.ndarray:
        """The VJPs (flattened, side by side) at x + h v."""
        xs = [a.copy() for a in arrays]
        for i, vi in zip(positions, v, strict=True):
            xs[i] = xs[i] + float(h[0]) * vi
        got = engine_vjp(op, xs, s.params, w, positions)
        return np.concatenate([np.asarray(g, dtype=np.float64).reshape(-1) for g in got])

    # The derivative of the VJPs along v: central differences in the scalar h at 0.
    col = differences(first, np.zeros(1), step=absolute(STEP2), one_sided=False).central[:, 0]
    want, k = [], 0
    for i in positions:
        n = int(arrays[i].size)
        want.append(col[k : k + n].reshape(arrays[i].shape))
        k += n
    compare(f"{op.name} {describe(s)} (second order)", got, want, positions, rtol)
    return max((rel_error(a, b) for a, b in zip(got, want, strict=True)), default=0.0)


def describe(s: Sample) -> str:
    params = ", ".join(f"{k}={_short(v)}" for k, v in s.params.items())
    shapes = " & ".join(str(tuple(x)) for x in s.shapes)
    return f"[{shapes}{'; ' + params if params else ''}]"


def _short(v: Any) -> str:
    if isinstance(v, np.ndarray):
        return f"array{list(v.shape)}" if v.size > 4 else repr(v.tolist())
    if isinstance(v, tuple):
        return "(" + ", ".join(_short(e) for e in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, np.dtype):
        return v.name
    return repr(v)
