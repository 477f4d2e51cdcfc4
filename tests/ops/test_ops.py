"""Every record of `gradcli.ops.REGISTRY`, on every one of its `samples`.

The tests are parametrized over the registry itself, so a new op is picked up (and fails
`test_has_samples` until it has samples). For each sample:

- forward: against an independent NumPy / `math` reference, shape and dtype included;
- VJP: the engine's `run_backward` against float64 central differences of `sum(out * w)`
  for a random `w` (a random vector-Jacobian product);
- batched VJP: one pass with a stack of 3 upstream gradients (`nb=1`) equals 3 single passes;
- second order: `grad(create_graph=True)`, then the gradient of `<grad, v>`, against central
  differences of the first gradient along `v`;
- float32 in, float32 out (values, gradients), as in PyTorch;
- PyTorch (when installed): forward and VJP agree to 1e-10 relative in float64.

Then the documented kinks (`Op.kink`) and a few edge values, with the exact values PyTorch
gives, and a test of the checker itself: a rule off by 0.1% must fail it.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from gradcli import ops
from gradcli.core.op import Sample, apply
from gradcli.core.tensor import Tensor
from gradcli.ops import arithmetic as A
from gradcli.surface import functional as F
from gradcli.surface.indexing import getitem
from tests.helpers import gradcheck as gc

# Records whose values on the real samples here are complex, or that refuse real inputs (as
# PyTorch's imag): tests/ops/test_complex.py checks them on complex values.
COMPLEX_VALUED = {
    "imag", "complex", "view_as_real", "view_as_complex", "eig", "fft_c2c", "fft_r2c", "fft_c2r"
}  # fmt: skip
CASES = [
    pytest.param(name, i, id=f"{name}-{i}")
    for name, op in ops.REGISTRY.items()
    if name not in COMPLEX_VALUED
    for i in range(len(op.samples))
]


def _case(name: str, i: int) -> tuple[Any, Sample]:
    op = ops.REGISTRY[name]
    return op, op.samples[i]


def _seed(name: str, i: int) -> int:
    return sum(map(ord, name)) * 100 + i


# --- independent forward references ---------------------------------------------------------


def _vec(f: Callable[[float], float]) -> Callable[[np.ndarray], np.ndarray]:
    return lambda x: np.vectorize(lambda v: float(f(float(v))), otypes=[np.float64])(x)


def _vec2(f: Callable[[float, float], float]) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    return lambda x, y: np.vectorize(
        lambda u, v: float(f(float(u), float(v))), otypes=[np.float64]
    )(x, y)


def _py_mod(u: float, v: float) -> float:
    # Python's %, but a zero keeps the sign of u (fmod's), as PyTorch's remainder.
    r = math.fmod(u, v)
    return r + v if r != 0 and (r < 0) != (v < 0) else r


def _py_floordiv(u: float, v: float) -> float:
    if v == 0:
        return u / v if u != 0 else math.nan
    return float(u // v)


def _rows(x: np.ndarray, dim: Any) -> tuple[np.ndarray, tuple[int, ...], tuple[int, ...]]:
    """x with the reduced axes moved last and flattened: (kept..., n)."""
    dims = tuple(range(x.ndim)) if dim is None else dim if isinstance(dim, tuple) else (dim,)
    dims = tuple(sorted(d % x.ndim for d in dims)) if x.ndim else ()
    kept = [d for d in range(x.ndim) if d not in dims]
    moved = np.transpose(x, kept + list(dims))
    return moved.reshape([x.shape[d] for d in kept] + [-1]), dims, tuple(kept)


def _reduce_ref(f: Callable[[list[float]], float]) -> Callable[..., np.ndarray]:
    def ref(x: np.ndarray, dim: Any = None, keepdim: bool = False, **kw: Any) -> np.ndarray:
        rows, dims, _ = _rows(x, dim)
        flat = rows.reshape(-1, rows.shape[-1])
        out = np.array([f([float(v) for v in r], **kw) for r in flat]).reshape(rows.shape[:-1])
        if keepdim:
            out = out.reshape([1 if d in dims else s for d, s in enumerate(x.shape)])
        return out

    return ref


def _norm_row(r: list[float], p: float) -> float:
    if p == math.inf:
        return max(abs(v) for v in r)
    return math.fsum(abs(v) ** p for v in r) ** (1 / p)


def _lse_row(r: list[float]) -> float:
    m = max(r)
    return math.log(math.fsum(math.exp(v - m) for v in r)) + m


def _var_row(r: list[float], correction: float) -> float:
    mu = math.fsum(r) / len(r)
    return math.fsum((v - mu) ** 2 for v in r) / (len(r) - correction)


def _scan_ref(x: np.ndarray, dim: int, reverse: bool, f: Callable[[list[float]], float]):
    """f of each prefix (suffix, reversed) along dim, element by element."""
    if x.ndim == 0:
        return x.copy()
    moved = np.moveaxis(x, dim, -1)
    out = np.empty(moved.shape)
    for i in np.ndindex(moved.shape[:-1]):
        row = [float(v) for v in moved[i]]
        for k in range(len(row)):
            out[i + (k,)] = f(row[k:]) if reverse else f(row[: k + 1])
    return np.moveaxis(out, -1, dim)


def _extreme_ref(x: np.ndarray, dim: Any = None, keepdim: bool = False, fn: str = "max"):
    return _reduce_ref(max if fn == "max" else min)(x, dim, keepdim)


def _softmax_ref(x: np.ndarray, dim: int) -> np.ndarray:
    if x.ndim == 0:
        return np.ones_like(x)
    e = np.exp(x - x.max(axis=dim, keepdims=True))
    return e / e.sum(axis=dim, keepdims=True)


def _matmul_ref(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    a = x[None, :] if x.ndim == 1 else x
    b = y[:, None] if y.ndim == 1 else y
    out = (a[..., :, :, None] * b[..., None, :, :]).sum(axis=-2)
    if x.ndim == 1:
        out = out[..., 0, :]
    if y.ndim == 1:
        out = out[..., 0]
    return out


def _per_batch(stack: Callable, x: Any, lead: int, f: Callable) -> Any:
    """f on each element of the `lead` leading (batch) axes of x, stacked back."""
    if not lead:
        return f(x)
    flat = x.reshape((-1,) + tuple(x.shape[lead:]))
    r = stack([f(flat[b]) for b in range(flat.shape[0])])
    return r.reshape(tuple(x.shape[:lead]) + tuple(r.shape[1:]))


def _zero_region_ref(x: np.ndarray, idx: tuple, base: int) -> np.ndarray:
    # the places the index reads, found by their numbers, set to 0 (no assignment through idx)
    pos = np.arange(x.size).reshape(x.shape)
    hit = np.isin(pos, np.asarray(pos[idx]).ravel())
    return np.where(hit, np.zeros((), x.dtype), x)


def _index_put_ref(g: np.ndarray, idx: tuple, shape: tuple, out_ndim: int) -> np.ndarray:
    # Which flat element of x each element of x[idx] is, then a scatter-add by bincount.
    size = int(np.prod(shape))
    pos = np.arange(size).reshape(shape)[idx]
    return np.bincount(pos.reshape(-1), weights=g.reshape(-1), minlength=size).reshape(shape)


def _scatter_ref(x: np.ndarray, src: np.ndarray, dim: int, index: np.ndarray, add: bool = False):
    # One element at a time, in the index's row-major order.
    out = x.copy()
    for pos in np.ndindex(*index.shape):
        place = list(pos)
        place[dim] = int(index[pos])
        out[tuple(place)] = (out[tuple(place)] if add else 0.0) + src[pos]
    return out


def _scatter_reduce_ref(x, src, dim, index, reduce, include_self):
    # Each place's values collected in the index's row-major order, then reduced in float64.
    got: dict[tuple, list] = {}
    for pos in np.ndindex(*index.shape):
        place = list(pos)
        place[dim] = int(index[pos])
        got.setdefault(tuple(place), []).append(src[pos])
    out = x.copy()
    fns = {"sum": sum, "prod": math.prod, "amax": max, "amin": min}
    for place, vals in got.items():
        vals = ([x[place]] if include_self else []) + vals
        out[place] = sum(vals) / len(vals) if reduce == "mean" else fns[reduce](vals)
    return out


def _loss_reduce(a: np.ndarray, reduction: str) -> np.ndarray:
    return {"mean": np.mean, "sum": np.sum, "none": np.asarray}[reduction](a)


def _bce_ref(p, t, weight=None, reduction="mean"):
    loss = -(t * np.log(p) + (1 - t) * np.log(1 - p)) * (1 if weight is None else weight)
    return _loss_reduce(loss, reduction)


def _bcel_ref(x, t, weight=None, reduction="mean", pos_weight=None):
    # the textbook form: -(p t log sigmoid(x) + (1 - t) log(1 - sigmoid(x))), p = 1 by default
    sig = 1 / (1 + np.exp(-x))
    p = 1 if pos_weight is None else pos_weight
    loss = -(p * t * np.log(sig) + (1 - t) * np.log(1 - sig)) * (1 if weight is None else weight)
    return _loss_reduce(loss, reduction)


def _nll_ref(x, target, weight=None, reduction="mean", ignore_index=-100):
    x2, t1 = x.reshape(-1, x.shape[-1]), np.asarray(target).reshape(-1)
    w = np.ones(x.shape[-1]) if weight is None else weight
    picked = [0.0 if t == ignore_index else -w[t] * row[t] for row, t in zip(x2, t1, strict=True)]
    ws = [0.0 if t == ignore_index else w[t] for t in t1]
    if reduction == "none":
        return np.array(picked).reshape(np.shape(target))
    return np.sum(picked) / (np.sum(ws) if reduction == "mean" else 1.0)


def _clamp_ref(x, min=None, max=None):  # noqa: A002
    lo = -math.inf if min is None else min
    hi = math.inf if max is None else max
    return _vec(lambda v: builtins_min(builtins_max(v, lo), hi))(x)


builtins_min, builtins_max = min, max
_ERF = _vec(math.erf)


# --- linear algebra: references by other means than the records' (loops, Leibniz, normal
# equations); decompositions are checked by what defines them (Q R = A, V L V^T = A ...).


def _einsum_ref(*xs: np.ndarray, spec: tuple) -> np.ndarray:
    """Every combination of label values, one at a time."""
    ins, out = spec
    sizes: dict[int, int] = {}
    for x, ls in zip(xs, ins, strict=True):
        for n, lab in zip(x.shape, ls, strict=True):
            sizes[lab] = n
    labels = sorted(sizes)
    res = np.zeros(tuple(sizes[lab] for lab in out))
    for combo in np.ndindex(*(sizes[lab] for lab in labels)):
        val = dict(zip(labels, combo, strict=True))
        term = 1.0
        for x, ls in zip(xs, ins, strict=True):
            term *= x[tuple(val[lab] for lab in ls)]
        res[tuple(val[lab] for lab in out)] += term
    return res


def _leibniz(m: np.ndarray) -> float:
    import itertools

    n = m.shape[0]
    total = 0.0
    for perm in itertools.permutations(range(n)):
        inversions = sum(perm[i] > perm[j] for i in range(n) for j in range(i + 1, n))
        total += (-1) ** inversions * math.prod(m[i, perm[i]] for i in range(n))
    return total


def _batched(f: Callable[[np.ndarray], Any], a: np.ndarray, tail: int = 2) -> np.ndarray:
    lead = a.shape[: a.ndim - tail]
    flat = a.reshape((-1,) + a.shape[a.ndim - tail :])
    out = [np.asarray(f(m)) for m in flat]
    return np.stack(out).reshape(lead + out[0].shape) if out else np.zeros(lead)


def _det_ref(a: np.ndarray) -> np.ndarray:
    return _batched(_leibniz, a)


def _matrix_exp_ref(a: np.ndarray) -> np.ndarray:
    # The power series itself, with no scaling: 60 terms, each A^k / k! from the previous one
    # (the samples' matrices have 1-norms of a few units, where it converges to rounding)
    term = np.broadcast_to(np.eye(a.shape[-1]), a.shape).copy()
    total = term.copy()
    for k in range(1, 60):
        term = term @ a / k
        total = total + term
    return total


def _inv_ref(a: np.ndarray, strict: bool = True) -> np.ndarray:
    # The cofactor matrix over the determinant (Cramer's rule).
    def one(m: np.ndarray) -> np.ndarray:
        n = m.shape[0]
        cof = np.zeros_like(m)
        for i in range(n):
            for j in range(n):
                minor = np.delete(np.delete(m, i, 0), j, 1)
                cof[i, j] = (-1) ** (i + j) * (_leibniz(minor) if n > 1 else 1.0)
        return cof.T / _leibniz(m)

    return _batched(one, a)


def _slogdet_ref(a: np.ndarray) -> np.ndarray:
    d = _det_ref(a)
    return np.stack([np.sign(d), np.log(np.abs(d))], axis=-1)


def _solve_ref(a: np.ndarray, b: np.ndarray, strict: bool = True) -> np.ndarray:
    return np.matmul(_inv_ref(a), b)


def _lu_ref_one(a: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """Gaussian elimination with partial pivoting, one scalar at a time."""
    lu = [list(map(float, row)) for row in a]
    m, n = a.shape
    piv = []
    for j in range(min(m, n)):
        best = max(range(j, m), key=lambda i: (abs(lu[i][j]), -i))
        piv.append(best)
        lu[j], lu[best] = lu[best], lu[j]
        for i in range(j + 1, m):
            if lu[j][j] != 0:
                lu[i][j] = lu[i][j] / lu[j][j]
            for c in range(j + 1, n):
                lu[i][c] -= lu[i][j] * lu[j][c]
    return np.array(lu), piv


def _lu_factor_ref(a: np.ndarray) -> np.ndarray:
    flat = a.reshape((-1,) + a.shape[-2:])
    return np.stack([_lu_ref_one(x)[0] for x in flat]).reshape(a.shape)


def _lu_ref(a: np.ndarray) -> np.ndarray:
    m, n = a.shape[-2:]
    k = min(m, n)
    lu = _lu_factor_ref(a)
    low = np.tril(lu[..., :, :k], -1) + np.eye(m, k)
    up = np.triu(lu[..., :k, :])
    lead = a.shape[:-2]
    return np.concatenate([low.reshape(lead + (-1,)), up.reshape(lead + (-1,))], axis=-1)


def _lu_solve_ref(lu, b, pivots=None, left=True, adjoint=False) -> np.ndarray:
    """A = P L U rebuilt from the factors and pivots, then a plain solve."""
    n = lu.shape[-1]
    low = np.tril(lu, -1) + np.eye(n)
    a = low @ np.triu(lu)
    piv = np.broadcast_to(np.asarray(pivots), a.shape[:-1]).reshape(-1, n)
    flat = np.array(a.reshape(-1, n, n))
    for m, row in zip(flat, piv):
        for j in reversed(range(n)):  # undo the row swaps: P (L U)
            m[[j, row[j]]] = m[[row[j], j]]
    a = flat.reshape(a.shape)
    if adjoint:
        a = np.swapaxes(a, -1, -2)
    if left:
        return np.linalg.solve(a, b)
    return np.swapaxes(np.linalg.solve(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)


def _solve_triangular_ref(
    a: np.ndarray, b: np.ndarray, upper: bool = False, unitriangular: bool = False
) -> np.ndarray:
    t = np.triu(a) if upper else np.tril(a)
    if unitriangular:
        t = t - t * np.eye(a.shape[-1]) + np.eye(a.shape[-1])
    return np.matmul(_inv_ref(t), b)


def _triangular_solve_ref(
    b: np.ndarray,
    a: np.ndarray,
    upper: bool = True,
    transpose: bool = False,
    unitriangular: bool = False,
) -> np.ndarray:
    t = np.triu(a) if upper else np.tril(a)
    if unitriangular:
        t = t - t * np.eye(a.shape[-1]) + np.eye(a.shape[-1])
    return np.matmul(_inv_ref(np.swapaxes(t, -1, -2) if transpose else t), b)


def _cholesky_ref(a: np.ndarray) -> np.ndarray:
    def one(m: np.ndarray) -> np.ndarray:  # Cholesky-Banachiewicz, element by element
        n = m.shape[0]
        low = np.zeros_like(m)
        for i in range(n):
            for j in range(i + 1):
                s = m[i, j] - math.fsum(low[i, k] * low[j, k] for k in range(j))
                low[i, j] = math.sqrt(s) if i == j else s / low[j, j]
        return low

    return _batched(one, a)


def _gram_schmidt(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    m, n = a.shape
    k = min(m, n)
    q = np.zeros((m, k))
    r = np.zeros((k, n))
    for j in range(n):
        v = a[:, j].copy()
        for i in range(min(j, k)):
            r[i, j] = q[:, i] @ a[:, j]
            v -= r[i, j] * q[:, i]
        if j < k:
            r[j, j] = np.linalg.norm(v)
            q[:, j] = v / r[j, j]
    return q, r


def _qr_ref(a: np.ndarray, mode: str = "reduced") -> np.ndarray:
    # Gram-Schmidt, with LAPACK's signs (R's diagonal may be negative) taken from the record.
    from gradcli.ops.matrices import _qr_fwd

    got = _qr_fwd(a, mode)
    lead = a.shape[:-2]
    flat = a.reshape((-1,) + a.shape[-2:])
    gflat = got.reshape((flat.shape[0], -1))
    m, n = a.shape[-2:]
    k = min(m, n)
    outs = []
    for mat, g in zip(flat, gflat, strict=True):
        q, r = _gram_schmidt(mat)
        qk = m * (m if mode == "complete" else k)
        qg = g[:qk].reshape(m, -1)
        signs = np.sign(np.sum(qg[:, :k] * q, axis=0))
        q, r = q * signs, r * signs[:, None]
        if mode == "complete":
            q = np.concatenate([q, qg[:, k:]], axis=1)  # the completion is not unique
            r = np.concatenate([r, np.zeros((m - k, n))], axis=0)
        outs.append(np.concatenate([q.reshape(-1), r.reshape(-1)]))
    return np.stack(outs).reshape(lead + (-1,))


def _eig_check(w: np.ndarray, v: np.ndarray, a: np.ndarray) -> None:
    assert np.allclose(a @ v, v * w, atol=1e-10), "A V != V L"


def _eig_ref(a: np.ndarray) -> np.ndarray:
    """eig's packed (L, V) from its definition: each eigenvector the null vector of A - l I
    (the last right singular vector), scaled to LAPACK's convention (unit norm, the largest
    component real and positive); the eigenvalues in the record's order."""
    n = a.shape[-1]
    w = np.asarray(np.linalg.eigvals(a), dtype=np.complex128)
    got_w = np.linalg.eig(a)[0]
    order = [int(np.argmin(np.abs(w - x))) for x in got_w]
    w = w[order]
    v = np.empty((n, n), np.complex128)
    for j, lam in enumerate(w):
        col = np.conj(np.linalg.svd(a - lam * np.eye(n))[2][-1])
        big = col[np.argmax(np.abs(col))]
        v[:, j] = col * (abs(big) / big)
    return np.concatenate([w, v.reshape(-1)])


def _eigh_ref(a: np.ndarray, uplo: str = "L") -> np.ndarray:
    from gradcli.ops.matrices import _eigh_fwd

    got = _eigh_fwd(a, uplo)
    n = a.shape[-1]
    full = np.tril(a) + np.swapaxes(np.tril(a, -1), -1, -2)
    if uplo == "U":
        full = np.triu(a) + np.swapaxes(np.triu(a, 1), -1, -2)
    w = got[..., :n]
    v = got[..., n:].reshape(a.shape)
    for idx in np.ndindex(*a.shape[:-2]):
        _eig_check(w[idx], v[idx], full[idx])
        assert np.allclose(np.swapaxes(v[idx], -1, -2) @ v[idx], np.eye(n), atol=1e-12)
    assert np.all(np.diff(w, axis=-1) > 0), "eigenvalues not ascending"
    return got


def _svdvals_ref(a: np.ndarray) -> np.ndarray:
    # The square roots of the eigenvalues of A^T A (or A A^T), in descending order.
    def one(m: np.ndarray) -> np.ndarray:
        g = m.T @ m if m.shape[0] >= m.shape[1] else m @ m.T
        return np.sqrt(np.clip(np.sort(np.linalg.eigvalsh(g))[::-1], 0, None))

    return _batched(one, a)


def _svd_ref(a: np.ndarray, full_matrices: bool = True) -> np.ndarray:
    from gradcli.ops.matrices import _svd_fwd, _svd_shapes

    got = _svd_fwd(a, full_matrices)
    shapes = _svd_shapes(a.shape, full_matrices)
    sizes = [math.prod(s) for s in shapes]
    u = got[..., : sizes[0]].reshape(a.shape[:-2] + shapes[0])
    s = got[..., sizes[0] : sizes[0] + sizes[1]]
    vh = got[..., sizes[0] + sizes[1] :].reshape(a.shape[:-2] + shapes[2])
    assert np.allclose(s, _svdvals_ref(a), atol=1e-12)
    k = s.shape[-1]
    rebuilt = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
    assert np.allclose(rebuilt, a, atol=1e-12), "U S Vh != A"
    return got


def _pinv_ref(a: np.ndarray, atol: float = 0.0, rtol: float = 0.0, hermitian: bool = False):
    # Full rank: the normal equations.
    def one(m: np.ndarray) -> np.ndarray:
        if m.shape[0] >= m.shape[1]:
            return _inv_ref(m.T @ m) @ m.T
        return m.T @ _inv_ref(m @ m.T)

    return _batched(one, a)


def _cross_ref(a: np.ndarray, b: np.ndarray, dim: int = -1) -> np.ndarray:
    a, b = np.broadcast_arrays(a, b)
    a, b = np.moveaxis(a, dim, -1), np.moveaxis(b, dim, -1)
    c = np.stack(
        [
            a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
            a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
            a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0],
        ],
        axis=-1,
    )
    return np.moveaxis(c, -1, dim)


def _cdist_ref(x1: np.ndarray, x2: np.ndarray, p: float = 2.0) -> np.ndarray:
    lead = np.broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
    x1 = np.broadcast_to(x1, lead + x1.shape[-2:])
    x2 = np.broadcast_to(x2, lead + x2.shape[-2:])
    out = np.zeros(lead + (x1.shape[-2], x2.shape[-2]))
    for idx in np.ndindex(*out.shape):
        r = list(np.abs(x1[idx[:-1]] - x2[idx[:-2] + idx[-1:]]))
        out[idx] = _norm_row([float(v) for v in r], p)
    return out


def _pdist_ref(x: np.ndarray, p: float = 2.0) -> np.ndarray:
    n = x.shape[0]
    return np.array(
        [
            _norm_row([float(v) for v in np.abs(x[i] - x[j])], p)
            for i in range(n)
            for j in range(i + 1, n)
        ]
    )


def _pdist_backward_ref(g: np.ndarray, x: np.ndarray, dist: np.ndarray, p: float = 2.0):
    # the derivative of each pair's distance, by the textbook: p = 2, diff / d; p = 1,
    # sign(diff); p = inf, sign(diff) where |diff| is the distance (0 where d = 0)
    out = np.zeros(x.shape)
    k = 0
    for i in range(x.shape[0]):
        for j in range(i + 1, x.shape[0]):
            diff = x[i] - x[j]
            if dist[k] == 0:
                d = np.zeros_like(diff)
            elif p == 2:
                d = diff / dist[k]
            elif p == 1:
                d = np.sign(diff)
            else:
                d = np.sign(diff) * (np.abs(diff) == dist[k])
            out[i] += g[k] * d
            out[j] -= g[k] * d
            k += 1
    return out


def _adaptive_windows_ref(n: int, o: int) -> list[range]:
    return [range(math.floor(i * n / o), math.ceil((i + 1) * n / o)) for i in range(o)]


def _adaptive_avg_ref(x: np.ndarray, out_size: tuple) -> np.ndarray:
    d = len(out_size)
    wins = [_adaptive_windows_ref(n, o) for n, o in zip(x.shape[x.ndim - d :], out_size)]
    out = np.zeros(x.shape[: x.ndim - d] + tuple(out_size))
    for cell in np.ndindex(*out_size):
        block = x[(...,) + tuple(np.ix_(*[wins[a][c] for a, c in enumerate(cell)]))]
        out[(...,) + cell] = block.reshape(block.shape[: x.ndim - d] + (-1,)).mean(-1)
    return out


def _adaptive_avg_backward_ref(g: np.ndarray, x: np.ndarray, size: tuple) -> np.ndarray:
    # each output's gradient shared equally by its window's inputs
    d = len(size)
    out_size = g.shape[g.ndim - d :]
    wins = [_adaptive_windows_ref(n, o) for n, o in zip(size, out_size)]
    res = np.zeros(g.shape[: g.ndim - d] + tuple(size))
    for cell in np.ndindex(*out_size):
        sel = [wins[a][c] for a, c in enumerate(cell)]
        share = g[(...,) + cell] / math.prod(len(r) for r in sel)
        res[(...,) + tuple(np.ix_(*sel))] += share[(...,) + (None,) * d]
    return res


# --- windows (conv, pooling), by explicit loops over canvas coordinates -----------------------


def _window_points(out: tuple, kernel: tuple, stride: tuple, dilation: tuple, pad: tuple):
    """For each output position and kernel offset: the input coordinates (may be outside)."""
    import itertools

    for o in itertools.product(*[range(n) for n in out]):
        for k in itertools.product(*[range(n) for n in kernel]):
            yield (
                o,
                k,
                tuple(
                    oi * s + ki * dl - p for oi, ki, s, dl, p in zip(o, k, stride, dilation, pad)
                ),
            )


def _inside(pos: tuple, size: tuple) -> bool:
    return all(0 <= p < s for p, s in zip(pos, size))


def _layer_norm_bwd_ref(g, x, w, which, k, eps, has_w):
    """native_layer_norm_backward's three results by the textbook formula (float64)."""
    n = int(np.prod(x.shape[x.ndim - k :]))
    xr, gr = x.reshape(-1, n), g.reshape(-1, n)
    xc = xr - xr.mean(axis=1, keepdims=True)
    s = np.sqrt((xc * xc).mean(axis=1, keepdims=True) + eps)
    xhat = xc / s
    if which == 2:
        return gr.sum(axis=0).reshape(x.shape[x.ndim - k :])
    if which == 1:
        return (gr * xhat).sum(axis=0).reshape(x.shape[x.ndim - k :])
    gy = gr * w.reshape(1, -1) if has_w else gr
    dx = gy - gy.mean(axis=1, keepdims=True) - xhat * (gy * xhat).mean(axis=1, keepdims=True)
    return (dx / s).reshape(x.shape)


def _unfold_ref(x, kernel, stride, dilation, pad, out):
    d = len(kernel)
    lead, size = x.shape[:-d], x.shape[-d:]
    r = np.zeros(lead + tuple(kernel) + tuple(out))
    for o, k, pos in _window_points(out, kernel, stride, dilation, pad):
        if _inside(pos, size):
            r[(Ellipsis,) + k + o] = x[(Ellipsis,) + pos]
    return r


def _unfold_windows_ref(x, dim, size, step):
    """Tensor.unfold by loops: window i of dimension `dim` is elements i*step .. i*step+size-1,
    moved to a last axis."""
    count = (x.shape[dim] - size) // step + 1
    out = np.zeros(x.shape[:dim] + (count,) + x.shape[dim + 1 :] + (size,))
    for i in range(count):
        for j in range(size):
            src = np.take(x, i * step + j, axis=dim)
            out[(slice(None),) * dim + (i,) + (Ellipsis, j)] = src
    return out


def _as_strided_ref(x, size, stride, idx, offset):
    """as_strided by loops over a contiguous x: place p reads the flat element offset +
    sum(p_k * stride_k) (the sample's idx is not used)."""
    flat = np.ascontiguousarray(x).ravel()
    out = np.zeros(size)
    for p in np.ndindex(*size):
        out[p] = flat[offset + sum(i * s for i, s in zip(p, stride))]
    return out


def _fold_ref(c, size, kernel, stride, dilation, pad, out):
    d = len(kernel)
    lead = c.shape[: c.ndim - 2 * d]
    r = np.zeros(lead + tuple(size))
    ks = c.shape[c.ndim - 2 * d : c.ndim - d]
    for o, k, pos in _window_points(out, kernel, stride, dilation, pad):
        if _inside(pos, size):
            at = tuple(ki if n > 1 else 0 for ki, n in zip(k, ks))  # size 1: broadcast
            r[(Ellipsis,) + pos] += c[(Ellipsis,) + at + o]
    return r


def _conv_tx_ref(g, w, size, stride, dilation, pad, out, groups):
    n = g.shape[0]
    o, cg = w.shape[:2]
    og = o // groups
    r = np.zeros((n, groups * cg) + tuple(size))
    for oo, k, pos in _window_points(out, w.shape[2:], stride, dilation, pad):
        if not _inside(pos, size):
            continue
        for oc in range(o):
            for ci in range(cg):
                r[(slice(None), oc // og * cg + ci) + pos] += (
                    w[(oc, ci) + k] * g[(slice(None), oc) + oo]
                )
    return r


def _conv_tw_ref(x, g, kernel, stride, dilation, pad, out, groups):
    c = x.shape[1]
    o = g.shape[1]
    og, cg = o // groups, c // groups
    r = np.zeros((o, cg) + tuple(kernel))
    for oo, k, pos in _window_points(out, kernel, stride, dilation, pad):
        if not _inside(pos, x.shape[2:]):
            continue
        for oc in range(o):
            for ci in range(cg):
                r[(oc, ci) + k] += np.sum(
                    g[(slice(None), oc) + oo] * x[(slice(None), oc // og * cg + ci) + pos]
                )
    return r


def _upsample_ref(x, index):
    """Each output position reads its source, one position at a time."""
    d = len(index)
    lead = x.shape[: x.ndim - d]
    r = np.zeros(lead + tuple(len(i) for i in index))
    for o in np.ndindex(*r.shape[x.ndim - d :]):
        src = tuple(index[k][o[k]] for k in range(d))
        r[(Ellipsis,) + o] = x[(Ellipsis,) + src]
    return r


def _upsample_adjoint_ref(g, index, size):
    d = len(index)
    r = np.zeros(g.shape[: g.ndim - d] + tuple(size))
    for o in np.ndindex(*g.shape[g.ndim - d :]):
        src = tuple(index[k][o[k]] for k in range(d))
        r[(Ellipsis,) + src] += g[(Ellipsis,) + o]
    return r


def _interp_matrices(taps, sizes):
    """Each axis's interpolation as a dense (outputs x inputs) matrix of its weights."""
    mats = []
    for (index, weights), n_in in zip(taps, sizes):
        m = np.zeros((len(index), n_in))
        for o, (ii, ww) in enumerate(zip(index, weights)):
            for i, w in zip(ii, ww):
                m[o, i] += w
        mats.append(m)
    return mats


def _interp_ref(x, taps):
    """Each output position: the weighted sum of its sources, one axis at a time."""
    d = len(taps)
    r = np.asarray(x, np.float64)
    for a, m in enumerate(_interp_matrices(taps, x.shape[x.ndim - d :])):
        ax = r.ndim - d + a
        r = np.moveaxis(np.tensordot(r, m, axes=([ax], [1])), -1, ax)
    return r


def _interp_adjoint_ref(g, taps, size):
    d = len(taps)
    r = np.asarray(g, np.float64)
    for a, m in enumerate(_interp_matrices(taps, size)):
        ax = r.ndim - d + a
        r = np.moveaxis(np.tensordot(r, m, axes=([ax], [0])), -1, ax)
    return r


def _gs_coord(v, size, padding, align):
    """grid_sample's pixel position of a grid value (PyTorch's documented unnormalization,
    reflection and border clipping), one number at a time, and its derivative."""
    v = float(v)
    if align:
        pos, d = (v + 1) / 2 * (size - 1), (size - 1) / 2
    else:
        pos, d = ((v + 1) * size - 1) / 2, size / 2
    if padding == "reflection":
        lo, hi = (0.0, size - 1.0) if align else (-0.5, size - 0.5)
        span = hi - lo
        if span <= 0:
            return 0.0, 0.0
        t = pos - lo
        sign = -1.0 if t < 0 else 1.0
        t = abs(t)
        flips, extra = divmod(t, span)
        if int(flips) % 2:
            pos, sign = hi - extra, -sign
        else:
            pos = lo + extra
        d *= sign
    if padding in ("border", "reflection"):
        if pos <= 0 or pos >= size - 1:
            d = 0.0
        pos = min(max(pos, 0.0), size - 1.0)
    return pos, d


def _gs_taps(grid_b, h, w, mode, padding, align):
    """Per output position: the (y, x, weight) of its neighbours inside the input."""
    out = {}
    for o in np.ndindex(*grid_b.shape[:2]):
        px, _ = _gs_coord(grid_b[o][0], w, padding, align)
        py, _ = _gs_coord(grid_b[o][1], h, padding, align)
        if mode == "nearest":
            cand = [(int(np.rint(py)), int(np.rint(px)), 1.0)]
        else:
            x0, y0 = math.floor(px), math.floor(py)
            fx, fy = px - x0, py - y0
            cand = [
                (y0, x0, (1 - fx) * (1 - fy)),
                (y0, x0 + 1, fx * (1 - fy)),
                (y0 + 1, x0, (1 - fx) * fy),
                (y0 + 1, x0 + 1, fx * fy),
            ]
        out[o] = [(yy, xx, wt) for yy, xx, wt in cand if 0 <= yy < h and 0 <= xx < w]
    return out


def _gs_ref(x, grid, mode, padding, align):
    n, c, h, w = x.shape
    r = np.zeros((n, c) + grid.shape[1:3])
    for b in range(n):
        for o, taps in _gs_taps(grid[b], h, w, mode, padding, align).items():
            for yy, xx, wt in taps:
                r[(b, slice(None)) + o] += wt * x[b, :, yy, xx]
    return r


def _gs_input_grad_ref(g, grid, mode, padding, align, size):
    n, c = g.shape[:2]
    r = np.zeros((n, c) + tuple(size))
    for b in range(n):
        for o, taps in _gs_taps(grid[b], size[0], size[1], mode, padding, align).items():
            for yy, xx, wt in taps:
                r[b, :, yy, xx] += wt * g[(b, slice(None)) + o]
    return r


def _gs_grid_grad_ref(g, x, grid, mode, padding, align):
    """d <g, grid_sample(x, grid)> / d grid by the bilinear slopes at each position."""
    n, c, h, w = x.shape
    r = np.zeros(grid.shape)
    if mode == "nearest":
        return r

    def at(b, yy, xx):
        ok = 0 <= yy < h and 0 <= xx < w
        return x[b, :, yy, xx] if ok else np.zeros(c)

    for b in range(n):
        for o in np.ndindex(*grid.shape[1:3]):
            px, dx = _gs_coord(grid[b][o][0], w, padding, align)
            py, dy = _gs_coord(grid[b][o][1], h, padding, align)
            x0, y0 = math.floor(px), math.floor(py)
            fx, fy = px - x0, py - y0
            nw, ne = at(b, y0, x0), at(b, y0, x0 + 1)
            sw, se = at(b, y0 + 1, x0), at(b, y0 + 1, x0 + 1)
            go = g[(b, slice(None)) + o]
            r[b][o][0] = np.sum(go * ((ne - nw) * (1 - fy) + (se - sw) * fy)) * dx
            r[b][o][1] = np.sum(go * ((sw - nw) * (1 - fx) + (se - ne) * fx)) * dy
    return r


def _conv_ref(x, w, b, stride, dilation, pad, out, groups=1):
    n, c = x.shape[:2]
    o, cg = w.shape[:2]
    og = o // groups
    r = np.zeros((n, o) + tuple(out))
    for oo, k, pos in _window_points(out, w.shape[2:], stride, dilation, pad):
        if not _inside(pos, x.shape[2:]):
            continue
        for oc in range(o):
            gi = oc // og
            for ci in range(cg):
                r[(slice(None), oc) + oo] += w[(oc, ci) + k] * x[(slice(None), gi * cg + ci) + pos]
    if b is not None:
        r += b.reshape((o,) + (1,) * len(out))
    return r


def _pool_ref(x, reduce, kernel, stride, dilation, pad, out):
    d = len(kernel)
    lead, size = x.shape[:-d], x.shape[-d:]
    r = np.zeros(lead + tuple(out))
    for li in np.ndindex(*lead):
        for o in np.ndindex(*out):
            vals = []
            for kk in np.ndindex(*kernel):
                pos = tuple(
                    oi * s + ki * dl - p for oi, ki, s, dl, p in zip(o, kk, stride, dilation, pad)
                )
                if _inside(pos, size):
                    vals.append(x[li + pos])
            r[li + o] = reduce(vals)
    return r


def _avg_ref(x, kernel, stride, pad, out, count_include_pad, divisor):
    d = len(kernel)
    lead, size = x.shape[:-d], x.shape[-d:]
    r = np.zeros(lead + tuple(out))
    for li in np.ndindex(*lead):
        for o in np.ndindex(*out):
            total, inside, padded = 0.0, 0, 1
            for i in range(d):
                start = o[i] * stride[i] - pad[i]
                padded *= builtins_min(start + kernel[i], size[i] + pad[i]) - start
            for kk in np.ndindex(*kernel):
                pos = tuple(oi * s + ki - p for oi, ki, s, p in zip(o, kk, stride, pad))
                if _inside(pos, size):
                    total += x[li + pos]
                    inside += 1
            div = divisor if divisor is not None else padded if count_include_pad else inside
            r[li + o] = total / div
    return r


def _mp(f: Callable[..., Any]) -> Callable[..., np.ndarray]:
    """An elementwise reference computed by mpmath at 40 digits."""
    import mpmath

    def call(*arrays: np.ndarray, **params: Any) -> np.ndarray:
        arrs = np.broadcast_arrays(*[np.asarray(a, np.float64) for a in arrays])
        with mpmath.workdps(40):
            flat = [
                float(f(mpmath, *[mpmath.mpf(float(v)) for v in vs], **params))
                for vs in zip(*[a.reshape(-1) for a in arrs], strict=True)
            ]
        return np.array(flat, dtype=np.float64).reshape(arrs[0].shape)

    return call


def _logit_ref(m: Any, x: Any, eps: Any = None) -> Any:
    if eps is not None:
        x = min(max(x, m.mpf(eps)), 1 - m.mpf(eps))
    return m.log(x / (1 - x))


def _trigamma_torch(m: Any, x: Any) -> Any:
    """PyTorch's trigamma at 40 digits: its recurrence and its series truncated after the
    1/z^7 term (about 1e-10 relative below the true value; gradcli mirrors it)."""
    if x < 0.5:
        return m.pi**2 / m.sin(m.pi * x) ** 2 - _trigamma_torch(m, 1 - x)
    s = m.fsum(1 / (x + k) ** 2 for k in range(6))
    z = x + 6
    return s + 1 / z + 1 / (2 * z**2) + 1 / (6 * z**3) - 1 / (30 * z**5) + 1 / (42 * z**7)


def _polygamma_ref(m: Any, x: Any, n: int) -> Any:
    return _trigamma_torch(m, x) if n == 1 else m.psi(n, x)


def _special_references() -> dict[str, Callable[..., np.ndarray]]:
    return {
        "logit": _mp(_logit_ref),
        "erfinv": _mp(lambda m, x: m.erfinv(x)),
        "erfc": _mp(lambda m, x: m.erfc(x)),
        "erfcx": _mp(lambda m, x: m.exp(x * x) * m.erfc(x)),
        "ndtri": _mp(lambda m, p: m.sqrt(2) * m.erfinv(2 * p - 1)),
        "log_ndtr": _mp(lambda m, x: m.log(m.ncdf(x))),
        "lgamma": _mp(lambda m, x: m.log(abs(m.gamma(x)))),
        "digamma": _mp(lambda m, x: m.psi(0, x)),
        "polygamma": _mp(_polygamma_ref),
        "mvlgamma": _mp(
            lambda m, x, p: (
                p * (p - 1) / 4 * m.log(m.pi)
                + m.fsum(m.log(m.gamma(x - m.mpf(i) / 2)) for i in range(p))
            )
        ),
        "i0": _mp(lambda m, x: m.besseli(0, x)),
        "i0e": _mp(lambda m, x: m.besseli(0, x) * m.exp(-abs(x))),
        "i1": _mp(lambda m, x: m.besseli(1, x)),
        "i1e": _mp(lambda m, x: m.besseli(1, x) * m.exp(-abs(x))),
        "entr": _mp(lambda m, x: -x * m.log(x)),
        "xlogy": _mp(lambda m, x, y: x * m.log(y)),
        "xlog1py": _mp(lambda m, x, y: x * m.log1p(y)),
        "logaddexp": _mp(lambda m, a, b: m.log(m.exp(a) + m.exp(b))),
        "logaddexp2": _mp(lambda m, a, b: m.log(2**a + 2**b) / m.log(2)),
        "copysign": lambda a, b: np.copysign(a, b),
        # one float step: within 1e-12 of a itself (the reference is not the forward again)
        "nextafter": lambda a, b: a + 0 * b,
        "ldexp": lambda x, e: x * 2.0**e,
        "frexp": lambda x: np.frexp(x)[0],
        "zeta": _mp(lambda m, s, q: m.zeta(s, q)),
        "igamma": _mp(lambda m, a, x: m.gammainc(a, 0, x, regularized=True)),
        "igammac": _mp(lambda m, a, x: m.gammainc(a, x, m.inf, regularized=True)),
    }


def _gelu_slope(x: np.ndarray, approximate: str) -> np.ndarray:
    if approximate == "tanh":
        k, c = math.sqrt(2 / math.pi), 0.044715
        t = np.tanh(k * (x + c * x**3))
        return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 3 * c * x * x)
    cdf = 0.5 * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))
    return cdf + x * np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


def _ctc_paths(x, targets, input_lengths, target_lengths, blank=0):
    """Per batch item, by brute force over every alignment of its input length: the score
    sum of each path that collapses (repeats merged, blanks dropped) to the item's target,
    with its labels: [(log probability, path)] (independent of the kernel's recursions)."""
    import itertools

    targets = np.asarray(targets)
    out, pos = [], 0
    for b, (il, tl) in enumerate(zip(input_lengths, target_lengths, strict=True)):
        if targets.ndim == 1:
            want = [int(v) for v in targets[pos : pos + tl]]
            pos += tl
        else:
            want = [int(v) for v in targets[b, :tl]]
        found = []
        for path in itertools.product(range(x.shape[2]), repeat=il):
            merged = [c for k, c in enumerate(path) if k == 0 or c != path[k - 1]]
            if [c for c in merged if c != blank] == want:
                found.append((math.fsum(x[t, b, c] for t, c in enumerate(path)), path))
        out.append(found)
    return out


def _segment_rows(data, lengths, axis):
    """(data block, its row of lengths) for each index before `axis`."""
    if axis == 0:
        return [(data, lengths)]
    flat = data.reshape((-1,) + data.shape[axis:])
    return list(zip(flat, lengths, strict=True))


def _segment_ref(data, lengths, reduce, initial=None, axis=0):
    """Each segment reduced by NumPy's whole-array functions (an empty one: initial, else the
    reduction's identity, NaN for mean)."""
    fns = {"sum": np.sum, "mean": np.mean, "prod": np.prod, "max": np.max, "min": np.min}
    empty = {"sum": 0.0, "mean": math.nan, "prod": 1.0, "max": -math.inf, "min": math.inf}
    parts = []
    for block, row in _segment_rows(data, lengths, axis):
        outs, at = [], 0
        for n in row:
            seg = block[at : at + n]
            at += n
            if n == 0:
                fill = empty[reduce] if initial is None else initial
                outs.append(np.full(block.shape[1:], fill))
                continue
            if reduce == "mean":
                outs.append((np.sum(seg, axis=0) + (initial or 0.0)) / n)
                continue
            if initial is not None:
                seg = np.concatenate([np.full((1,) + block.shape[1:], initial), seg])
            outs.append(fns[reduce](seg, axis=0))
        parts.append(np.stack(outs))
    out = np.stack(parts)
    return out[0] if axis == 0 else out.reshape(data.shape[:axis] + out.shape[1:])


def _segment_backward_ref(g, data, lengths, reduce, initial=None, axis=0):
    """The derivative of `_segment_ref` (the samples' values are distinct and nonzero)."""
    out = _segment_ref(data, lengths, reduce, initial, axis)
    res = np.zeros(data.shape)
    rows = zip(
        _segment_rows(res, lengths, axis),
        _segment_rows(g, lengths, axis),
        _segment_rows(out, lengths, axis),
        _segment_rows(data, lengths, axis),
    )
    for (rb, row), (gb, _), (ob, _), (db, _) in rows:
        at = 0
        for i, n in enumerate(row):
            seg = db[at : at + n]
            if reduce in ("sum", "mean"):
                rb[at : at + n] = gb[i] / (n if reduce == "mean" else 1)
            elif reduce == "prod":
                rb[at : at + n] = gb[i] * ob[i] / seg
            else:
                rb[at : at + n] = np.where(seg == ob[i], gb[i], 0.0)
            at += n
    return res


def _ctc_ref(x, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    res = []
    for found in _ctc_paths(x, targets, input_lengths, target_lengths, blank):
        if not found:
            res.append(math.inf)
            continue
        top = max(v for v, _ in found)
        res.append(-(top + math.log(math.fsum(math.exp(v - top) for v, _ in found))))
    return np.array(res)


def _ctc_extra(x, g, input_lengths, zero_infinity=False, nll=None):
    """What PyTorch's CtcLossBackward0 adds to the derivative in log_probs: exp(lp) * g, for
    the time steps of each item (the gradient through a log_softmax, whose rows of exp sum
    to 1, is then the loss's); an infinite loss zeroed by zero_infinity has no gradient."""
    keep = np.arange(x.shape[0])[:, None] < np.asarray(input_lengths)[None, :]
    if zero_infinity:
        keep = keep & ~(np.asarray(nll) == np.inf)[None, :]
    return np.where(keep[..., None], np.exp(x) * np.asarray(g)[..., None, :, None], 0.0)


def _ctc_backward_ref(g, x, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    """ATen's gradient by brute force: d(loss)/d(lp[t, c]) = -(the probability of the paths
    through c at t) / (that of all paths), plus `_ctc_extra`, times g."""
    paths = _ctc_paths(x, targets, input_lengths, target_lengths, blank)
    d = np.zeros(x.shape)
    nll = _ctc_ref(x, targets, input_lengths, target_lengths, blank)
    for b, found in enumerate(paths):
        if not found:
            continue
        for v, path in found:
            p = math.exp(v + nll[b])
            for t, c in enumerate(path):
                d[t, b, c] -= p
    d = d * np.asarray(g)[None, :, None]
    keep = np.arange(x.shape[0])[:, None] < np.asarray(input_lengths)[None, :]
    if zero_infinity:
        keep = keep & ~(nll == np.inf)[None, :]
    d = np.where(keep[..., None], d, 0.0)
    return d + _ctc_extra(x, g, input_lengths, zero_infinity, nll)


# Records whose rule is PyTorch's formula and not the derivative of their forward: what the
# rule adds to the derivative, f(inputs, upstream, params) (checked with it added).
def _cholesky_inverse_ref(a: np.ndarray, upper: bool = False) -> np.ndarray:
    t = np.triu(a) if upper else np.tril(a)
    th = np.swapaxes(t, -1, -2)
    return _inv_ref(th @ t if upper else t @ th)


def _cholesky_inverse_extra(arrays, w, p) -> list:
    """PyTorch's gradient of cholesky_inverse in the triangle its forward does not read:
    -(X (w + w^T) X) L (upper: -L (X (w + w^T) X)) there, where the derivative is 0."""
    a, upper = arrays[0], p.get("upper", False)
    x = _cholesky_inverse_ref(a, upper)
    common = x @ (w + np.swapaxes(w, -1, -2)) @ x
    g = -(a @ common) if upper else -(common @ a)
    return [np.tril(g, -1) if upper else np.triu(g, 1)]


def _strided_scatter_extra(arrays, w, p) -> list:
    """PyTorch's gradient of as_strided_scatter for x is w at the places (zeros elsewhere), the
    derivative w elsewhere (zeros at the places): the rule adds w at the places and takes w
    off elsewhere; src's is the derivative."""
    at = np.zeros(arrays[0].shape, dtype=bool)
    at[p["idx"]] = True
    return [np.where(at, w, -w), np.zeros(arrays[1].shape)]


BEYOND_DERIVATIVE: dict[str, Callable[..., list]] = {
    "as_strided_scatter": _strided_scatter_extra,
    "cholesky_inverse": _cholesky_inverse_extra,
    "ctc_loss": lambda arrays, w, p: [
        _ctc_extra(
            arrays[0],
            w,
            p["input_lengths"],
            p.get("zero_infinity", False),
            _ctc_ref(arrays[0], **p),
        )
    ],
}


def _view_scatter_ref(x: np.ndarray, src: np.ndarray, idx: tuple, move: Any) -> np.ndarray:
    """select/slice/diagonal_scatter written out: each place of the view, one at a time."""
    out = x.copy()
    view = out if move is None else np.moveaxis(out, move, (-2, -1))
    places = np.zeros(view.shape, dtype=bool)
    places[idx] = True
    target = np.argwhere(places)
    flat_src = np.broadcast_to(src, view[idx].shape).reshape(-1)
    for k, at in enumerate(target):
        view[tuple(at)] = flat_src[k]
    return out


def _view_scatter_torch(torch: Any, x: Any, src: Any, idx: tuple, move: Any) -> Any:
    y = x.clone()
    view = y if move is None else y.movedim(move, (-2, -1))
    view[tuple(torch.as_tensor(i) if isinstance(i, np.ndarray) else i for i in idx)] = src
    return y


def _soft_margin_ref(x: np.ndarray, t: np.ndarray, reduction: str) -> np.ndarray:
    loss = np.log1p(np.exp(-x * t))
    return loss if reduction == "none" else loss.mean() if reduction == "mean" else loss.sum()


def _smooth_l1_ref(x: np.ndarray, t: np.ndarray, reduction: str, beta: float) -> np.ndarray:
    z = np.abs(x - t)
    loss = np.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta)
    return loss if reduction == "none" else loss.mean() if reduction == "mean" else loss.sum()


def _huber_ref(x: np.ndarray, t: np.ndarray, reduction: str, delta: float) -> np.ndarray:
    z = np.abs(x - t)
    loss = np.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta))
    return loss if reduction == "none" else loss.mean() if reduction == "mean" else loss.sum()


def _glu_ref(x: np.ndarray, dim: int) -> np.ndarray:
    a, b = np.split(x, 2, axis=dim)
    return a / (1 + np.exp(-b))


def _glu_backward_ref(g: np.ndarray, x: np.ndarray, dim: int) -> np.ndarray:
    # the derivatives of a * sigmoid(b), written independently of the record's kernel order
    a, b = np.split(x, 2, axis=dim)
    s = 1 / (1 + np.exp(-b))
    return np.concatenate([g * s, g * a * s * (1 - s)], axis=dim)


def _renorm_ref(x: np.ndarray, p: float, dim: int, maxnorm: float) -> np.ndarray:
    """Each slice along dim scaled to maxnorm / (norm + 1e-7) when its p-norm is larger."""
    others = tuple(i for i in range(x.ndim) if i != dim)
    norm = np.sum(np.abs(x) ** p, axis=others, keepdims=True) ** (1 / p)
    return x * np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)


def _unique_ref(x: np.ndarray, dim: int | None, consecutive: bool) -> np.ndarray:
    """The distinct slices along dim (the elements: dim None) in increasing order, or the first
    of each run of equal neighbours, by Python's comparisons of the slices as lists."""
    slices = (
        [x.reshape(-1)[i] for i in range(x.size)] if dim is None else list(np.moveaxis(x, dim, 0))
    )
    keys = [np.asarray(s).reshape(-1).tolist() for s in slices]
    if consecutive:
        kept = [i for i in range(len(keys)) if i == 0 or keys[i] != keys[i - 1]]
    else:
        first = {}
        for i, k in enumerate(keys):
            first.setdefault(tuple(k), i)
        kept = [first[k] for k in sorted(first)]
    picked = np.stack([np.asarray(slices[i]) for i in kept])
    return picked if dim is None else np.moveaxis(picked, 0, dim)


def _geqrf_ref(a: np.ndarray) -> np.ndarray:
    """LAPACK's Householder QR as its documentation states it: for each column, beta =
    -sign(alpha) ||(alpha, x)||, tau = (beta - alpha) / beta, v = x / (alpha - beta) stored
    below the diagonal, H = I - tau [1; v] [1; v]^T applied to the columns on the right."""
    lead, (m, n) = a.shape[:-2], a.shape[-2:]
    k = min(m, n)
    rs, taus = [], []
    for mat in np.asarray(a, dtype=np.float64).reshape((-1, m, n)):
        r = mat.copy()
        tau = np.zeros(k)
        for i in range(k):
            alpha, x = r[i, i], r[i + 1 :, i]
            if not x.size or not np.any(x):
                continue
            beta = -math.copysign(math.hypot(alpha, float(np.linalg.norm(x))), alpha)
            tau[i] = (beta - alpha) / beta
            v = np.concatenate([[1.0], x / (alpha - beta)])
            r[i:, i + 1 :] -= tau[i] * np.outer(v, v @ r[i:, i + 1 :])
            r[i, i], r[i + 1 :, i] = beta, v[1:]
        rs.append(r)
        taus.append(tau)
    return np.concatenate([np.reshape(rs, lead + (-1,)), np.reshape(taus, lead + (-1,))], axis=-1)


def _dft_along(x: np.ndarray, axis: int, sign: int, n: int | None = None) -> np.ndarray:
    """The DFT of x along one axis as a sum over its terms (e^{sign 2 pi i jk / n}); with n,
    the first n // 2 + 1 terms given and the rest their conjugate mirror (a real signal)."""
    x = np.moveaxis(np.asarray(x, np.complex128), axis, -1)
    if n is not None:
        full = np.zeros(x.shape[:-1] + (n,), np.complex128)
        h = min(x.shape[-1], n // 2 + 1)
        full[..., :h] = x[..., :h]
        full[..., 0] = full[..., 0].real
        for k in range(1, n - h + 1):
            full[..., n - k] = np.conj(full[..., k])
        if n % 2 == 0:
            full[..., n // 2] = full[..., n // 2].real
        x = full
    m = x.shape[-1]
    j = np.arange(m)
    w = np.exp(sign * 2j * np.pi * np.outer(j, j) / m)
    return np.moveaxis(x @ w.T, -1, axis)


def _dft_scale(shape: tuple, dims: tuple, norm: int) -> float:
    n = math.prod(shape[d] for d in dims)
    return (1.0, 1 / math.sqrt(n), 1 / n)[norm]


def _c2c_ref(x: np.ndarray, dims: tuple, norm: int, forward: bool) -> np.ndarray:
    out = np.asarray(x, np.complex128)
    for d in dims:
        out = _dft_along(out, d, -1 if forward else 1)
    return out * _dft_scale(x.shape, dims, norm)


def _r2c_ref(x: np.ndarray, dims: tuple, norm: int, onesided: bool) -> np.ndarray:
    out = _c2c_ref(x, dims, norm, True)
    if onesided:
        out = np.moveaxis(
            np.moveaxis(out, dims[-1], -1)[..., : x.shape[dims[-1]] // 2 + 1], -1, dims[-1]
        )
    return out


def _c2r_ref(x: np.ndarray, dims: tuple, norm: int, last_dim_size: int) -> np.ndarray:
    out = np.asarray(x, np.complex128)
    for d in dims[:-1]:
        out = _dft_along(out, d, 1)
    out = _dft_along(out, dims[-1], 1, n=last_dim_size).real
    return out * _dft_scale(out.shape, dims, norm)


REFERENCE: dict[str, Callable[..., np.ndarray]] = {
    "fft_c2c": _c2c_ref,
    "fft_r2c": _r2c_ref,
    "fft_c2r": _c2r_ref,
    "neg": lambda x: 0.0 - x,
    "exp": _vec(math.exp),
    "log": _vec(math.log),
    "log1p": _vec(math.log1p),
    "sqrt": _vec(math.sqrt),
    "abs": _vec(abs),
    "sin": _vec(math.sin),
    "cos": _vec(math.cos),
    "tan": _vec(math.tan),
    "tanh": _vec(math.tanh),
    "asin": _vec(math.asin),
    "acos": _vec(math.acos),
    "atan": _vec(math.atan),
    "sinh": _vec(math.sinh),
    "cosh": _vec(math.cosh),
    "asinh": _vec(math.asinh),
    "acosh": _vec(math.acosh),
    "atanh": _vec(math.atanh),
    "sinc": _vec(lambda v: math.sin(math.pi * v) / (math.pi * v) if v else 1.0),
    "exp2": _vec(lambda v: 2.0**v),
    "expm1": _vec(math.expm1),
    "log2": _vec(math.log2),
    "log10": _vec(math.log10),
    # the special functions, against mpmath (sympy's arbitrary-precision library)
    **_special_references(),
    "rsqrt": _vec(lambda v: 1 / math.sqrt(v)),
    "reciprocal": _vec(lambda v: 1 / v),
    "floor": _vec(math.floor),
    "ceil": _vec(math.ceil),
    "trunc": _vec(math.trunc),
    "round": lambda x, decimals=0: _vec(lambda v: round(v, decimals))(x),
    "frac": _vec(lambda v: math.fmod(v, 1.0)),
    "nan_to_num": lambda x, nan=0.0, posinf=None, neginf=None: _vec(
        lambda v: (
            nan
            if math.isnan(v)
            else (posinf if posinf is not None else 1.7976931348623157e308)
            if v == math.inf
            else (neginf if neginf is not None else -1.7976931348623157e308)
            if v == -math.inf
            else v
        )
    )(x),
    "sigmoid": _vec(lambda v: 1 / (1 + math.exp(-v))),
    "relu": _vec(lambda v: v if v > 0 else 0.0),
    "sign": _vec(lambda v: (v > 0) - (v < 0)),
    "erf": _ERF,
    "leaky_relu": lambda x, negative_slope: _vec(lambda v: v if v > 0 else v * negative_slope)(x),
    "softplus": lambda x, beta, threshold: _vec(
        lambda v: v if v * beta > threshold else math.log(1 + math.exp(beta * v)) / beta
    )(x),
    "gelu": lambda x, approximate: _vec(
        (lambda v: v * 0.5 * (1 + math.erf(v / math.sqrt(2))))
        if approximate == "none"
        else (lambda v: 0.5 * v * (1 + math.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v**3))))
    )(x),
    "clamp": _clamp_ref,
    "pow_scalar": lambda x, p: _vec(lambda v: v**p)(x),
    "rpow_scalar": lambda x, base: _vec(lambda v: base**v)(x),
    "rsub_scalar": lambda x, c: _vec(lambda v: c - v)(x),
    "add": lambda x, y: x + y,
    "sub": lambda x, y: x - y,
    "rsub": lambda x, y: y - x,
    "mul": lambda x, y: x * y,
    "div": lambda x, y: x / y,
    "pow": lambda x, y: np.exp(y * np.log(x)),
    "maximum": lambda x, y: np.where(x > y, x, y),
    "minimum": lambda x, y: np.where(x < y, x, y),
    "fmax": lambda x, y: np.where((x >= y) | np.isnan(y), x, y),
    "fmin": lambda x, y: np.where((x <= y) | np.isnan(y), x, y),
    "where": lambda c, x, y: np.where(c, x, y),
    "atan2": lambda y, x: _vec2(math.atan2)(y, x),
    "hypot": lambda x, y: _vec2(math.hypot)(x, y),
    "remainder": lambda a, b: _vec2(_py_mod)(a, b),
    "fmod": lambda a, b: _vec2(math.fmod)(a, b),
    "div_mode": lambda a, b, rounding_mode: _vec2(
        (lambda u, v: math.floor(u / v))
        if rounding_mode == "floor"
        else (lambda u, v: math.trunc(u / v))
    )(a, b),
    "floor_divide": lambda a, b: _vec2(_py_floordiv)(a, b),
    "rremainder": lambda a, b: _vec2(_py_mod)(a, b),
    "unique": lambda x, dim=None, consecutive=False: _unique_ref(x, dim, consecutive),
    "bincount": lambda w, index, minlength: np.array(
        [sum(float(v) for v, i in zip(w, index) if i == b) for b in range(minlength)]
    ),
    "heaviside": lambda x, v: _vec2(lambda u, w: w if u == 0 else float(u > 0))(x, v),
    "matmul": _matmul_ref,
    "scaled_matmul": lambda x, y, alpha: _matmul_ref(x, y) * alpha,
    "addr": lambda s, u, v, alpha, beta: beta * s + alpha * np.outer(u, v),
    "times_scalar": lambda x, c: x * c,
    "addcmul": lambda x, t1, t2, value: x + value * t1 * t2,
    "addcdiv": lambda x, t1, t2, value: x + value * t1 / t2,
    "lerp_tensor": lambda s, e, w: s + w * (e - s),
    "addbmm": lambda s, x, y, alpha, beta: (
        beta * s + alpha * sum(_matmul_ref(a, b) for a, b in zip(x, y))
    ),
    "sum": _reduce_ref(math.fsum),
    "nansum": _reduce_ref(lambda r: math.fsum(v for v in r if v == v)),
    "mean": _reduce_ref(lambda r: math.fsum(r) / len(r)),
    "prod": _reduce_ref(math.prod),
    "max": _extreme_ref,
    "min": _extreme_ref,
    "norm": lambda x, p, dim=None, keepdim=False: _reduce_ref(_norm_row)(x, dim, keepdim, p=p),
    "dist": lambda a, b, p: np.asarray(_norm_row(list(np.ravel(np.subtract(a, b))), p)),
    "logsumexp": _reduce_ref(_lse_row),
    "softmax": _softmax_ref,
    "log_softmax": lambda x, dim: np.log(_softmax_ref(x, dim)),
    "var": lambda x, dim=None, correction=1, keepdim=False: _reduce_ref(_var_row)(
        x, dim, keepdim, correction=correction
    ),
    "std": lambda x, dim=None, correction=1, keepdim=False: np.sqrt(
        _reduce_ref(_var_row)(x, dim, keepdim, correction=correction)
    ),
    "cumsum": lambda x, dim, reverse=False: _scan_ref(x, dim, reverse, math.fsum),
    "cumprod": lambda x, dim: _scan_ref(x, dim, False, math.prod),
    "logcumsumexp": lambda x, dim: _scan_ref(x, dim, False, _lse_row),
    "reshape": lambda x, shape: x.reshape(shape),
    "clone": lambda x: x.copy(),
    "permute": lambda x, perm: x.transpose(perm),
    "expand": lambda x, shape: np.broadcast_to(x, shape),
    "index": lambda x, idx, lead=0: _per_batch(np.stack, x, lead, lambda e: e[idx]),
    "index_put": _index_put_ref,
    "zero_region": _zero_region_ref,
    "cat": lambda *xs, dim: np.concatenate(xs, axis=dim),
    "stack": lambda *xs, dim: np.stack(xs, axis=dim),
    "astype": lambda x, dtype: x.astype(dtype),
    "real": lambda x: np.real(x),
    "imag": lambda x: np.imag(x),
    "conj": lambda x: np.conj(x),
    "angle": lambda x: np.angle(x),
    "complex": lambda re, im: re + 1j * im,
    "view_as_real": lambda x: np.stack([x.real, x.imag], -1),
    "view_as_complex": lambda x: x[..., 0] + 1j * x[..., 1],
    "scatter": _scatter_ref,
    "view_scatter": lambda x, src, idx, move: _view_scatter_ref(x, src, idx, move),
    "as_strided_scatter": lambda x, src, idx: _view_scatter_ref(x, src, idx, None),
    "scatter_add": lambda x, src, dim, index: _scatter_ref(x, src, dim, index, add=True),
    "scatter_reduce": _scatter_reduce_ref,
    "scatter_legacy": lambda x, src, dim, index, reduce: _scatter_reduce_ref(
        x, src, dim, index, reduce, True
    ),
    "set_source": lambda x, source: source,  # x takes source's values (and shape)
    "mse_loss": lambda x, y, reduction: _loss_reduce((x - y) ** 2, reduction),
    "binary_cross_entropy": _bce_ref,
    "binary_cross_entropy_with_logits": _bcel_ref,
    "nll_loss": _nll_ref,
    "ctc_loss": _ctc_ref,
    "ctc_loss_backward": _ctc_backward_ref,
    "segment_reduce": _segment_ref,
    "segment_reduce_backward": _segment_backward_ref,
    "einsum": _einsum_ref,
    "inv": _inv_ref,
    "matrix_exp": _matrix_exp_ref,
    "det": _det_ref,
    "slogdet": _slogdet_ref,
    "solve": _solve_ref,
    "solve_triangular": _solve_triangular_ref,
    "triangular_solve": _triangular_solve_ref,
    "lu_factor": _lu_factor_ref,
    "lu": _lu_ref,
    "lu_solve": _lu_solve_ref,
    "cholesky_inverse": _cholesky_inverse_ref,
    "cholesky": _cholesky_ref,
    "qr": _qr_ref,
    "geqrf": _geqrf_ref,
    "eigh": _eigh_ref,
    "eig": _eig_ref,
    "svd": _svd_ref,
    "svdvals": _svdvals_ref,
    "pinv": _pinv_ref,
    "cross": _cross_ref,
    "cdist": _cdist_ref,
    "pdist": _pdist_ref,
    "adaptive_avg_pool": _adaptive_avg_ref,
    "adaptive_avg_pool_backward": _adaptive_avg_backward_ref,
    "pdist_backward": _pdist_backward_ref,
    "elu": lambda x, alpha, scale, input_scale: _vec(
        lambda v: scale * v if v > 0 else scale * alpha * (math.exp(input_scale * v) - 1)
    )(x),
    "hardtanh": lambda x, min_val, max_val: _clamp_ref(x, min_val, max_val),
    "hardswish": _vec(lambda v: v * builtins_min(builtins_max(v + 3, 0.0), 6.0) / 6),
    "hardsigmoid": _vec(lambda v: builtins_min(builtins_max(v + 3, 0.0), 6.0) / 6),
    "mish": _vec(lambda v: v * math.tanh(math.log1p(math.exp(v)))),
    "silu": _vec(lambda v: v / (1 + math.exp(-v))),
    "layer_norm": lambda x, w, b, k, eps, has_w, has_b: _ref_layer_norm(
        x, w, b, k, eps, has_w, has_b
    ),
    "group_norm": lambda x, w, b, groups, eps, has_w, has_b: _ref_group_norm(
        x, w, b, groups, eps, has_w, has_b
    ),
    "batch_norm": lambda x, w, b, *st, eps, has_w, has_b, training: _ref_batch_norm(
        x, w, b, st, eps, has_w, has_b, training
    ),
    "logsigmoid": _vec(lambda v: min(v, 0.0) - math.log1p(math.exp(-abs(v)))),
    "softshrink": lambda x, lambd: _vec(
        lambda v: v - lambd if v > lambd else v + lambd if v < -lambd else 0.0
    )(x),
    "hardshrink": lambda x, lambd: _vec(lambda v: v if abs(v) > lambd else 0.0)(x),
    "threshold": lambda x, threshold, value: _vec(lambda v: v if v > threshold else value)(x),
    "threshold_backward": lambda g, r, threshold: np.vectorize(
        lambda gv, rv: gv if rv > threshold else 0.0
    )(g, r),
    "sigmoid_backward": lambda g, y: g * (1 - y) * y,
    "gelu_backward": lambda g, x, approximate: g * _gelu_slope(x, approximate),
    "elu_backward": lambda g, x, alpha, scale, input_scale: np.where(
        x > 0, g * scale, g * input_scale * alpha * scale * np.exp(np.minimum(x, 0) * input_scale)
    ),
    "elu_backward_result": lambda g, r, alpha, scale, input_scale: np.where(
        r > 0, g * scale, g * input_scale * (r + alpha * scale)
    ),
    "logsigmoid_backward": lambda g, x: g / (1 + np.exp(x)),
    "piecewise_backward": lambda g, x, fn, a, b: (
        np.where(x > 0, g, g * a)
        if fn == "leaky_relu"
        else np.where((x > a) & (x < b) if fn == "hardtanh" else (x > a) | (x < -a), g, 0.0)
    ),
    "bce_backward": lambda g, p, t, weight=None, reduction="mean": (
        g
        * (p - t)
        / np.maximum((1 - p) * p, 1e-12)
        * (1 if weight is None else weight)
        / (p.size if reduction == "mean" else 1)
    ),
    "hardsigmoid_backward": lambda g, x: np.where(
        (x > -3) & (x < 3), g * float(np.float32(1) / np.float32(6)), 0.0
    ),  # (1/6 in float32, in every dtype)
    "hardswish_backward": lambda g, x: np.where(
        x <= -3, 0.0, np.where(x < 3, g * (x / 3 + 0.5), g)
    ),
    "soft_margin_loss": lambda x, t, reduction="mean": _soft_margin_ref(x, t, reduction),
    "soft_margin_loss_backward": lambda g, x, t, reduction: (
        g * -t / (1 + np.exp(t * x)) / (x.size if reduction == "mean" else 1)
    ),
    "smooth_l1_loss": lambda x, t, reduction="mean", beta=1.0: _smooth_l1_ref(
        x, t, reduction, beta
    ),
    "smooth_l1_loss_backward": lambda g, x, t, reduction, beta: (
        g * np.clip((x - t) / beta, -1, 1) / ((x - t).size if reduction == "mean" else 1)
    ),
    "huber_loss": lambda x, t, reduction="mean", delta=1.0: _huber_ref(x, t, reduction, delta),
    "huber_loss_backward": lambda g, x, t, reduction, delta: (
        g * np.clip(x - t, -delta, delta) / ((x - t).size if reduction == "mean" else 1)
    ),
    "glu": lambda x, dim: _glu_ref(x, dim),
    "glu_backward": lambda g, x, dim: _glu_backward_ref(g, x, dim),
    "prelu_kernel": _vec2(lambda v, w: v if v > 0 else w * v),
    "rrelu_noise": lambda x, noise: x * noise,
    "rrelu_noise_backward": lambda g, x, noise: g * noise,
    "prelu_backward_input": lambda g, x, w: np.vectorize(
        lambda a, b, c: a if b > 0 else c * a, otypes=[np.float64]
    )(g, x, w),
    "prelu_backward_weight": lambda g, x, w: np.vectorize(
        lambda a, b, c: 0.0 if b > 0 else b * a, otypes=[np.float64]
    )(g, x, w),
    "mse_loss_backward": lambda g, x, y, reduction: (
        (2.0 / (x - y).size if reduction == "mean" else 2.0) * (x - y) * g
    ),
    "softmax_backward": lambda g, y, dim: y * (g - np.sum(g * y, axis=dim, keepdims=True)),
    "log_softmax_backward": lambda g, y, dim: g - np.exp(y) * np.sum(g, axis=dim, keepdims=True),
    "tanh_backward": lambda g, y: g * (1 - y * y),
    "layer_norm_backward": lambda g, x, w, which, k, eps, has_w, has_b: _layer_norm_bwd_ref(
        g, x, w, which, k, eps, has_w
    ),
    "renorm": lambda x, p, dim, maxnorm: _renorm_ref(x, p, dim, maxnorm),
    "bilinear_product": lambda x, w, z: np.einsum("ni,oij,nj->no", x, w, z),
    "group_norm_mean": lambda x, groups, eps: x.reshape(x.shape[0], groups, -1).mean(axis=2),
    "group_norm_rstd": lambda x, groups, eps: (
        1 / np.sqrt(x.reshape(x.shape[0], groups, -1).var(axis=2) + eps)
    ),
    "softplus_backward": lambda g, x, beta, threshold: np.vectorize(
        lambda gv, xv: gv if beta * xv > threshold else gv / (1 + math.exp(-beta * xv))
    )(g, x),
    "unfold": lambda x, **geo: _unfold_ref(x, **geo),
    "fold": lambda c, size, **geo: _fold_ref(c, size, **geo),
    "unfold_windows": _unfold_windows_ref,
    "as_strided": _as_strided_ref,
    "conv": lambda x, w, *b, **p: _conv_ref(x, w, b[0] if b else None, **p),
    "conv_tx": _conv_tx_ref,
    "upsample_nearest": lambda x, index, bindex: _upsample_ref(x, index),
    "upsample_nearest_adjoint": lambda g, index, bindex, size: _upsample_adjoint_ref(
        g, bindex, size
    ),
    "upsample_interp": lambda x, taps, btaps, kernel, cubic: _interp_ref(x, taps),
    "grid_sample": _gs_ref,
    "grid_sample_input_grad": _gs_input_grad_ref,
    "grid_sample_grid_grad": _gs_grid_grad_ref,
    "upsample_interp_adjoint": lambda g, taps, btaps, kernel, cubic, size: _interp_adjoint_ref(
        g, btaps, size
    ),
    "conv_transpose": lambda x, w, *b, size, **p: (
        _conv_tx_ref(x, w, size, **p) + (b[0].reshape((-1,) + (1,) * len(size)) if b else 0)
    ),
    "conv_tw": _conv_tw_ref,
    "conv_db": lambda g, dim: np.sum(g, axis=tuple(dim)),
    "max_pool": lambda x, **geo: _pool_ref(x, max, **geo),
    "avg_pool": lambda x, kernel, stride, pad, out, count_include_pad=True, divisor=None: _avg_ref(
        x, kernel, stride, pad, out, count_include_pad, divisor
    ),
}


# --- PyTorch equivalents of the records --------------------------------------------------------


def _all_dims(x: Any, dim: Any) -> Any:
    return tuple(range(x.ndim)) if dim is None else dim


def _torch_index(idx: tuple) -> tuple:
    import torch

    has_array = any(isinstance(i, np.ndarray) and i.dtype != bool for i in idx)
    out = []
    for i in idx:
        if isinstance(i, np.ndarray):
            out.append(torch.as_tensor(i))
        elif isinstance(i, int) and has_array:
            # NumPy counts an int beside index arrays as one more index array (its axes go
            # first when the arrays are not adjacent); PyTorch applies it as a select first.
            out.append(torch.tensor([i]))
        else:
            out.append(i)
    return tuple(out)


def _torch_index_put(torch: Any, g: Any, idx: tuple, shape: tuple, out_ndim: int) -> Any:
    # index_put is the VJP of indexing, differentiable in g.
    z = torch.zeros(shape, dtype=g.dtype, requires_grad=True)
    (r,) = torch.autograd.grad(z[_torch_index(idx)], z, g, create_graph=True)
    return r


def _ref_batch_norm(x, w, b, stats, eps, has_w, has_b, training):
    """Channel by channel in Python floats: the batch's mean and population variance (the
    running ones in evaluation)."""
    c = x.shape[1]
    out = np.empty(x.shape)
    for j in range(c):
        vals = x[:, j].reshape(-1).tolist()
        if training:
            mu = math.fsum(vals) / len(vals)
            var = math.fsum((v - mu) ** 2 for v in vals) / len(vals)
        else:
            mu, var = float(stats[0][j]), float(stats[1][j])
        out[:, j] = (x[:, j] - mu) / math.sqrt(var + eps)
        if has_w:
            out[:, j] *= w[j]
        if has_b:
            out[:, j] += b[j]
    return out


def _ref_group_norm(x, w, b, groups, eps, has_w, has_b):
    """Group by group in Python floats (layer norm's rows), then the per-channel affine."""
    n, c = x.shape[:2]
    y = _ref_layer_norm(x.reshape(n, groups, -1), None, None, 1, eps, False, False)
    y = y.reshape(x.shape)
    per = (c,) + (1,) * (x.ndim - 2)
    if has_w:
        y = y * w.reshape(per)
    if has_b:
        y = y + b.reshape(per)
    return y


def _ref_layer_norm(x, w, b, k, eps, has_w, has_b):
    """Row by row in Python floats: the mean, the population variance, the normalised row."""
    n = int(np.prod(x.shape[x.ndim - k :]))
    rows = x.reshape(-1, n).tolist()
    out = []
    for r in rows:
        mu = math.fsum(r) / n
        var = math.fsum((v - mu) ** 2 for v in r) / n
        out.append([(v - mu) / math.sqrt(var + eps) for v in r])
    y = np.array(out).reshape(x.shape)
    if has_w:
        y = y * w
    if has_b:
        y = y + b
    return y


def _torch_linalg() -> dict[str, Callable[..., Any]]:
    """PyTorch's functions for the linalg records, decompositions packed as the records pack
    them, with the signs of their vectors (which LAPACK builds choose differently) aligned
    with gradcli's (a constant +-1 per column: the same function, the same gradients)."""
    import torch

    from gradcli.ops import matrices as M

    def packed(*ts: Any) -> Any:
        lead = ts[0].shape[:-2] if ts[0].ndim >= 2 else ts[0].shape[:-1]
        return torch.cat([t.reshape(tuple(lead) + (-1,)) for t in ts], dim=-1)

    def signs(mine: np.ndarray, theirs: Any) -> Any:
        s = np.sign(np.sum(mine * theirs.detach().numpy(), axis=-2))
        return torch.as_tensor(np.where(s == 0, 1.0, s))

    def pieces(a: Any, fwd: Callable[..., np.ndarray], shapes: list) -> list[np.ndarray]:
        got = fwd(a.detach().numpy())
        out, start = [], 0
        for sh in shapes:
            n = math.prod(sh)
            out.append(got[..., start : start + n].reshape(tuple(a.shape[:-2]) + tuple(sh)))
            start += n
        return out

    def qr(a: Any, mode: str = "reduced") -> Any:
        q, r = torch.linalg.qr(a, mode=mode)
        q0, _ = pieces(a, lambda x: M._qr_fwd(x, mode), M._qr_shapes(tuple(a.shape), mode))
        sg = signs(q0, q)
        k = r.shape[-2]
        return packed(q * sg.unsqueeze(-2), r * sg[..., :k].unsqueeze(-1))

    def eigh(a: Any, uplo: str = "L") -> Any:
        w, v = torch.linalg.eigh(a, UPLO=uplo)
        n = a.shape[-1]
        _, v0 = pieces(a, lambda x: M._eigh_fwd(x, uplo), [(n,), (n, n)])
        return packed(w.unsqueeze(-1), v * signs(v0, v).unsqueeze(-2))

    def svd(a: Any, full_matrices: bool = True) -> Any:
        u, sv, vh = torch.linalg.svd(a, full_matrices=full_matrices)
        shapes = M._svd_shapes(tuple(a.shape), full_matrices)
        u0, _, _ = pieces(a, lambda x: M._svd_fwd(x, full_matrices), shapes)
        su = signs(u0, u)
        k = sv.shape[-1]
        vs = torch.ones(vh.shape[:-1], dtype=vh.dtype)
        vs = torch.cat([su[..., :k], vs[..., k:]], dim=-1)
        return packed(u * su.unsqueeze(-2), sv.unsqueeze(-1), vh * vs.unsqueeze(-1))

    def einsum(*xs: Any, spec: tuple) -> Any:
        ins, out = spec
        args: list[Any] = []
        for x, ls in zip(xs, ins, strict=True):
            args += [x, list(ls)]
        return torch.einsum(*args, list(out))

    def pinv(a: Any, atol: float = 0.0, rtol: float = 0.0, hermitian: bool = False) -> Any:
        return torch.linalg.pinv(a, atol=atol or None, rtol=rtol, hermitian=hermitian)

    return {
        "einsum": einsum,
        "inv": lambda a, strict=True: torch.linalg.inv(a),
        "matrix_exp": torch.linalg.matrix_exp,
        "det": torch.linalg.det,
        "slogdet": lambda a: torch.stack(torch.linalg.slogdet(a), dim=-1),
        "solve": lambda a, b, strict=True: torch.linalg.solve(a, b),
        "triangular_solve": lambda b, a, upper=True, transpose=False, unitriangular=False: (
            torch.triangular_solve(b, a, upper, transpose, unitriangular)[0]
        ),
        "solve_triangular": lambda a, b, upper=False, unitriangular=False: (
            torch.linalg.solve_triangular(a, b, upper=upper, unitriangular=unitriangular)
        ),
        "cholesky": torch.linalg.cholesky,
        "lu_factor": lambda a: torch.linalg.lu_factor(a).LU,
        "lu": lambda a: packed(*torch.linalg.lu(a)[1:]),
        "lu_solve": lambda lu, b, pivots=None, left=True, adjoint=False: torch.linalg.lu_solve(
            lu,
            torch.as_tensor(np.asarray(pivots) + 1, dtype=torch.int32),
            b,
            left=left,
            adjoint=adjoint,
        ),
        "qr": qr,
        "geqrf": lambda a: packed(*torch.geqrf(a)),
        "eigh": eigh,
        "svd": svd,
        "svdvals": torch.linalg.svdvals,
        "pinv": pinv,
        "cross": lambda a, b, dim=-1: torch.linalg.cross(a, b, dim=dim),
        "cdist": lambda x1, x2, p=2.0: torch.cdist(
            x1, x2, p=p, compute_mode="donot_use_mm_for_euclid_dist"
        ),
        "pdist": lambda x, p=2.0: torch.nn.functional.pdist(x, p),
        "adaptive_avg_pool": lambda x, out_size: getattr(
            torch.nn.functional, f"adaptive_avg_pool{len(out_size)}d"
        )(x, out_size),
        "adaptive_avg_pool_backward": lambda g, x, size: getattr(
            torch.ops.aten, f"_adaptive_avg_pool{len(size)}d_backward"
        )(g, x),
        "pdist_backward": lambda g, x, d, p=2.0: torch._pdist_backward(g, x, p, d),
    }


def _torch_padded(torch: Any, x: Any, kernel, stride, dilation, pad, out, value=0.0) -> Any:
    """x on the records' canvas: `pad` before each of the last d axes, and after them as far as
    the `out` windows reach (or cut where they do not reach the end)."""
    d = len(kernel)
    widths = []
    for i in reversed(range(d)):
        s = x.shape[x.ndim - d + i]
        need = (out[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1 - pad[i] - s
        widths += [pad[i], need]
    return torch.nn.functional.pad(x, widths, value=value)


def _torch_unfold(torch: Any, x: Any, kernel, stride, dilation, pad, out) -> Any:
    c = _torch_padded(torch, x, kernel, stride, dilation, pad, out)
    for i, (k, st, dl) in enumerate(zip(kernel, stride, dilation)):
        axis = x.ndim - len(kernel) + i  # each unfold appends its window axis last
        c = c.unfold(axis, dl * (k - 1) + 1, st)[..., ::dl]
    d = len(kernel)
    nl = x.ndim - d
    perm = list(range(nl)) + [nl + d + i for i in range(d)] + [nl + i for i in range(d)]
    return c.permute(perm)


def _torch_fold(torch: Any, c: Any, size, **geo: Any) -> Any:
    # fold is the transpose of unfold: its VJP at any point
    lead = c.shape[: c.ndim - 2 * len(geo["kernel"])]
    c = c.expand(tuple(lead) + tuple(geo["kernel"]) + tuple(geo["out"]))  # size-1 kernel axes
    z = torch.zeros(tuple(lead) + tuple(size), dtype=c.dtype, requires_grad=True)
    (r,) = torch.autograd.grad(_torch_unfold(torch, z, **geo), z, c, create_graph=True)
    return r


def _torch_conv(torch: Any, x: Any, w: Any, b: Any, stride, dilation, pad, out, groups=1) -> Any:
    d = len(out)
    k = tuple(w.shape[2:])
    xp = _torch_padded(torch, x, k, stride, dilation, pad, out)
    f = torch.nn.functional.conv1d if d == 1 else torch.nn.functional.conv2d
    return f(xp, w, b, stride=stride, dilation=dilation, groups=groups)


def _torch_conv_t(torch: Any, x: Any, w: Any, b: tuple, size, stride, dilation, pad, out, groups):
    """PyTorch's conv_transpose{1,2}d, with the output_padding that gives `size`."""
    k = tuple(w.shape[2:])
    op = tuple(
        s - ((o - 1) * st - 2 * p + dl * (kk - 1) + 1)
        for s, o, st, p, dl, kk in zip(size, out, stride, pad, dilation, k)
    )
    f = (
        torch.nn.functional.conv_transpose1d
        if len(out) == 1
        else torch.nn.functional.conv_transpose2d
    )
    return f(x, w, b[0] if b else None, stride, pad, op, groups, dilation)


def _torch_conv_grad(torch: Any, which: int, g: Any, other: Any, shape, **p: Any) -> Any:
    """conv's input gradient (which=0: other is the weight) or weight gradient (which=1: other
    is the input), by PyTorch's autograd, differentiable again."""
    n, o = g.shape[:2]
    if which == 0:
        z = torch.zeros((n, other.shape[1] * p["groups"]) + tuple(shape), dtype=g.dtype)
        z.requires_grad_()
        y = _torch_conv(torch, z, other, None, **p)
    else:
        z = torch.zeros((o, other.shape[1] // p["groups"]) + tuple(shape), dtype=g.dtype)
        z.requires_grad_()
        y = _torch_conv(torch, other, z, None, **p)
    (r,) = torch.autograd.grad(y, z, g, create_graph=True)
    return r


def _torch_pool(torch: Any, kind: str, x: Any, kernel, stride, pad, out, dilation=None, **kw: Any):
    d = len(kernel)
    tf = torch.nn.functional
    if kind == "max":
        xp = _torch_padded(torch, x, kernel, stride, dilation, pad, out, value=-math.inf)
        y = xp.unsqueeze(-2) if d == 1 else xp
        k, s, dl = (
            ((1,) + kernel, (1,) + stride, (1,) + dilation)
            if d == 1
            else (
                kernel,
                stride,
                dilation,
            )
        )
        r = tf.max_pool2d(y, k, s, 0, dl)
        return r.squeeze(-2) if d == 1 else r
    y = x.unsqueeze(-2) if d == 1 else x
    k, s, p = ((1,) + kernel, (1,) + stride, (0,) + pad) if d == 1 else (kernel, stride, pad)
    size = x.shape[x.ndim - d :]
    ceil = any(pool_out(size[i], kernel[i], stride[i], pad[i], False) != out[i] for i in range(d))
    r = tf.avg_pool2d(
        y,
        k,
        s,
        p,
        ceil_mode=ceil,
        count_include_pad=kw.get("count_include_pad", True),
        divisor_override=None if kw.get("divisor") is None else int(kw["divisor"]),
    )
    return r.squeeze(-2) if d == 1 else r


def pool_out(size: int, k: int, s: int, p: int, ceil: bool) -> int:
    from gradcli.surface.nnfunctional import pool_out as po

    return po(size, k, s, p, 1, ceil)


def _torch_interp(torch: Any, x: Any, taps: tuple, size: tuple | None) -> Any:
    """The interpolation (size None) or its adjoint as products with each axis's weights."""
    d = len(taps)
    sizes = x.shape[x.ndim - d :] if size is None else size
    r = x
    for a, m in enumerate(_interp_matrices(taps, sizes)):
        ax = r.ndim - d + a
        mt = torch.tensor(m)
        r = torch.movedim(torch.tensordot(r, mt, dims=([ax], [1 if size is None else 0])), -1, ax)
    return r


def _torch_ctc_backward(g, x, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    import torch

    tg = torch.as_tensor(targets)
    il, tl = list(input_lengths), list(target_lengths)
    nll, alpha = torch._ctc_loss(x, tg, il, tl, blank, zero_infinity)
    return torch._ctc_loss_backward(g, x, tg, il, tl, nll, alpha, blank, zero_infinity)


def torch_fns() -> dict[str, Callable[..., Any]]:
    import torch
    import torch.nn.functional as tf

    def red(fn: Callable[..., Any]) -> Callable[..., Any]:
        return lambda x, dim=None, keepdim=False: fn(x, dim=_all_dims(x, dim), keepdim=keepdim)

    def extreme(x, dim=None, keepdim=False, fn="max"):
        f = torch.max if fn == "max" else torch.min
        return f(x) if dim is None else f(x, dim=dim, keepdim=keepdim).values

    def prod(x, dim=None, keepdim=False):
        return torch.prod(x) if dim is None else torch.prod(x, dim=dim, keepdim=keepdim)

    def w(a: Any) -> Any:
        return None if a is None else torch.as_tensor(a)

    return {
        "neg": torch.neg,
        "exp": torch.exp,
        "log": torch.log,
        "log1p": torch.log1p,
        "sqrt": torch.sqrt,
        "abs": torch.abs,
        "sin": torch.sin,
        "cos": torch.cos,
        "tan": torch.tan,
        "tanh": torch.tanh,
        "asin": torch.asin,
        "acos": torch.acos,
        "atan": torch.atan,
        "sinh": torch.sinh,
        "cosh": torch.cosh,
        "asinh": torch.asinh,
        "acosh": torch.acosh,
        "atanh": torch.atanh,
        "sinc": torch.sinc,
        "exp2": torch.exp2,
        "expm1": torch.expm1,
        "log2": torch.log2,
        "log10": torch.log10,
        "rsqrt": torch.rsqrt,
        "reciprocal": torch.reciprocal,
        "floor": torch.floor,
        "ceil": torch.ceil,
        "trunc": torch.trunc,
        "round": lambda x, decimals=0: torch.round(x, decimals=decimals),
        "frac": torch.frac,
        "nan_to_num": lambda x, nan=0.0, posinf=None, neginf=None: torch.nan_to_num(
            x, nan, posinf, neginf
        ),
        "atan2": torch.atan2,
        "hypot": torch.hypot,
        "remainder": torch.remainder,
        "fmod": torch.fmod,
        "div_mode": lambda a, b, rounding_mode: torch.div(a, b, rounding_mode=rounding_mode),
        "floor_divide": torch.floor_divide,
        "bincount": lambda w, index, minlength: torch.bincount(
            torch.as_tensor(index), weights=w, minlength=minlength
        ),
        "unique": lambda x, dim=None, consecutive=False: (
            torch.unique_consecutive(x, dim=dim) if consecutive else torch.unique(x, dim=dim)
        ),
        "logit": lambda x, eps=None: torch.logit(x, eps=eps),
        "erfinv": torch.erfinv,
        "erfc": torch.erfc,
        "erfcx": torch.special.erfcx,
        "ndtri": torch.special.ndtri,
        "log_ndtr": torch.special.log_ndtr,
        "lgamma": torch.lgamma,
        "digamma": torch.digamma,
        "polygamma": lambda x, n: torch.polygamma(n, x),
        "mvlgamma": lambda x, p: torch.mvlgamma(x, p=p),
        "i0": torch.i0,
        "i0e": torch.special.i0e,
        "i1": torch.special.i1,
        "i1e": torch.special.i1e,
        "entr": torch.special.entr,
        "xlogy": torch.xlogy,
        "xlog1py": torch.special.xlog1py,
        "logaddexp": torch.logaddexp,
        "logaddexp2": torch.logaddexp2,
        "copysign": torch.copysign,
        "nextafter": torch.nextafter,
        "ldexp": torch.ldexp,
        "frexp": lambda x: torch.frexp(x).mantissa,
        "zeta": torch.special.zeta,
        "igamma": torch.special.gammainc,
        "igammac": torch.special.gammaincc,
        "rremainder": lambda a, b: torch.remainder(a.item(), b) if a.ndim == 0 else None,
        "heaviside": torch.heaviside,
        "sigmoid": torch.sigmoid,
        "relu": torch.relu,
        "threshold_backward": lambda g, r, threshold: torch.ops.aten.threshold_backward(
            g, r, threshold
        ),
        "sigmoid_backward": torch.ops.aten.sigmoid_backward,
        "gelu_backward": lambda g, x, approximate: torch.ops.aten.gelu_backward(
            g, x, approximate=approximate
        ),
        "elu_backward": lambda g, x, alpha, scale, input_scale: torch.ops.aten.elu_backward(
            g, alpha, scale, input_scale, False, x
        ),
        "elu_backward_result": lambda g, r, alpha, scale, input_scale: torch.ops.aten.elu_backward(
            g, alpha, scale, input_scale, True, r
        ),
        "logsigmoid_backward": lambda g, x: torch.ops.aten.log_sigmoid_backward(
            g, x, torch.empty(0)
        ),
        "piecewise_backward": lambda g, x, fn, a, b: {
            "leaky_relu": lambda: torch.ops.aten.leaky_relu_backward(g, x, a, False),
            "hardtanh": lambda: torch.ops.aten.hardtanh_backward(g, x, a, b),
            "softshrink": lambda: torch.ops.aten.softshrink_backward(g, x, a),
            "hardshrink": lambda: torch.ops.aten.hardshrink_backward(g, x, a),
        }[fn](),
        "bce_backward": lambda g, p, t, weight=None, reduction="mean": (
            torch.ops.aten.binary_cross_entropy_backward(
                g, p, t, w(weight), {"none": 0, "mean": 1, "sum": 2}[reduction]
            )
        ),
        "hardsigmoid_backward": torch.ops.aten.hardsigmoid_backward,
        "hardswish_backward": torch.ops.aten.hardswish_backward,
        "soft_margin_loss": lambda x, t, reduction="mean": tf.soft_margin_loss(
            x, t, reduction=reduction
        ),
        "soft_margin_loss_backward": lambda g, x, t, reduction: (
            torch.ops.aten.soft_margin_loss_backward(
                g, x, t, {"none": 0, "mean": 1, "sum": 2}[reduction]
            )
        ),
        "smooth_l1_loss": lambda x, t, reduction="mean", beta=1.0: tf.smooth_l1_loss(
            x, t, reduction=reduction, beta=beta
        ),
        "smooth_l1_loss_backward": lambda g, x, t, reduction, beta: (
            torch.ops.aten.smooth_l1_loss_backward(
                g, x, t, {"none": 0, "mean": 1, "sum": 2}[reduction], beta
            )
        ),
        "huber_loss": lambda x, t, reduction="mean", delta=1.0: tf.huber_loss(
            x, t, reduction=reduction, delta=delta
        ),
        "huber_loss_backward": lambda g, x, t, reduction, delta: torch.ops.aten.huber_loss_backward(
            g, x, t, {"none": 0, "mean": 1, "sum": 2}[reduction], delta
        ),
        "glu": lambda x, dim: tf.glu(x, dim),
        "glu_backward": lambda g, x, dim: torch.ops.aten.glu_backward(g, x, dim),
        "prelu_kernel": torch._prelu_kernel,
        "prelu_backward_input": lambda g, x, w: torch.ops.aten._prelu_kernel_backward(
            *torch.broadcast_tensors(g, x), w
        )[0],
        "prelu_backward_weight": lambda g, x, w: torch.ops.aten._prelu_kernel_backward(
            *torch.broadcast_tensors(g, x), w
        )[1],
        "mse_loss_backward": lambda g, x, y, reduction: torch.ops.aten.mse_loss_backward(
            g, x, y, {"none": 0, "mean": 1, "sum": 2}[reduction]
        ),
        "softmax_backward": lambda g, y, dim: torch.ops.aten._softmax_backward_data(
            g, y.expand_as(g), dim, y.dtype
        ),
        "log_softmax_backward": lambda g, y, dim: torch.ops.aten._log_softmax_backward_data(
            g, y.expand_as(g), dim, y.dtype
        ),
        "tanh_backward": torch.ops.aten.tanh_backward,
        "softplus_backward": lambda g, x, beta, threshold: torch.ops.aten.softplus_backward(
            g, x, beta, threshold
        ),
        "sign": torch.sign,
        "erf": torch.erf,
        "leaky_relu": lambda x, negative_slope: tf.leaky_relu(x, negative_slope),
        "softplus": lambda x, beta, threshold: tf.softplus(x, beta, threshold),
        "gelu": lambda x, approximate: tf.gelu(x, approximate=approximate),
        "clamp": lambda x, min=None, max=None: torch.clamp(x, min, max),  # noqa: A006
        "pow_scalar": lambda x, p: torch.pow(x, p),
        "rpow_scalar": lambda x, base: torch.pow(base, x),
        "rsub_scalar": lambda x, c: c - x,
        "add": torch.add,
        "sub": torch.sub,
        "rsub": torch.rsub,
        "mul": torch.mul,
        "div": torch.div,
        "pow": torch.pow,
        "maximum": torch.maximum,
        "minimum": torch.minimum,
        "fmax": torch.fmax,
        "fmin": torch.fmin,
        "where": lambda c, x, y: torch.where(c.bool(), x, y),
        "matmul": torch.matmul,
        "scaled_matmul": lambda x, y, alpha: torch.matmul(x, y) * alpha,
        "addr": lambda s, u, v, alpha, beta: torch.addr(s, u, v, alpha=alpha, beta=beta),
        "times_scalar": lambda x, c: torch.mul(x, c),
        "addcmul": lambda x, t1, t2, value: torch.addcmul(x, t1, t2, value=value),
        "addcdiv": lambda x, t1, t2, value: torch.addcdiv(x, t1, t2, value=value),
        "lerp_tensor": torch.lerp,
        "addbmm": lambda s, x, y, alpha, beta: torch.addbmm(s, x, y, alpha=alpha, beta=beta),
        "sum": red(torch.sum),
        "nansum": red(torch.nansum),
        "mean": red(torch.mean),
        "prod": prod,
        "max": extreme,
        "min": extreme,
        "dist": lambda a, b, p: torch.dist(a, b, p),
        "norm": lambda x, p, dim=None, keepdim=False: torch.linalg.vector_norm(
            x, p, dim=dim, keepdim=keepdim
        ),
        "logsumexp": red(torch.logsumexp),
        "softmax": lambda x, dim: torch.softmax(x, dim),
        "log_softmax": lambda x, dim: torch.log_softmax(x, dim),
        "var": lambda x, dim=None, correction=1, keepdim=False: torch.var(
            x, dim=dim, correction=correction, keepdim=keepdim
        ),
        "std": lambda x, dim=None, correction=1, keepdim=False: torch.std(
            x, dim=dim, correction=correction, keepdim=keepdim
        ),
        "cumsum": lambda x, dim, reverse=False: (
            torch.cumsum(x.flip(dim), dim).flip(dim) if reverse else torch.cumsum(x, dim)
        ),
        "cumprod": lambda x, dim: torch.cumprod(x, dim),
        "logcumsumexp": lambda x, dim: torch.logcumsumexp(x, dim),
        "reshape": lambda x, shape: torch.reshape(x, shape),
        "clone": torch.clone,
        "permute": lambda x, perm: x.permute(perm),
        "expand": lambda x, shape: x.expand(shape),
        "index": lambda x, idx, lead=0: _per_batch(
            torch.stack, x, lead, lambda e: e[_torch_index(idx)]
        ),
        "index_put": lambda g, idx, shape, out_ndim: _torch_index_put(torch, g, idx, shape, 0),
        "cat": lambda *xs, dim: torch.cat(xs, dim),
        "stack": lambda *xs, dim: torch.stack(xs, dim),
        "real": torch.real,
        "imag": torch.imag,
        "conj": torch.conj,
        "angle": torch.angle,
        "complex": torch.complex,
        # (ATen's _fft_* take non-negative dims)
        "fft_c2c": lambda x, dims, norm, forward: torch._fft_c2c(
            x, [d % x.ndim for d in dims], norm, forward
        ),
        "fft_r2c": lambda x, dims, norm, onesided: torch._fft_r2c(
            x, [d % x.ndim for d in dims], norm, onesided
        ),
        "fft_c2r": lambda x, dims, norm, last_dim_size: torch._fft_c2r(
            x, [d % x.ndim for d in dims], norm, last_dim_size
        ),
        "view_as_real": torch.view_as_real,
        "view_as_complex": torch.view_as_complex,
        "astype": lambda x, dtype: x.to(getattr(torch, np.dtype(dtype).name)),
        "scatter": lambda x, src, dim, index: x.scatter(dim, torch.as_tensor(index), src),
        "view_scatter": lambda x, src, idx, move: _view_scatter_torch(torch, x, src, idx, move),
        "scatter_add": lambda x, src, dim, index: x.scatter_add(dim, torch.as_tensor(index), src),
        "scatter_reduce": lambda x, src, dim, index, reduce, include_self: x.scatter_reduce(
            dim, torch.as_tensor(index), src, reduce, include_self=include_self
        ),
        "scatter_legacy": lambda x, src, dim, index, reduce: x.scatter(
            dim, torch.as_tensor(index), src, reduce="add" if reduce == "sum" else "multiply"
        ),
        "set_source": lambda x, source: x.clone().set_(source),
        "mse_loss": lambda x, y, reduction: tf.mse_loss(x, y, reduction=reduction),
        "binary_cross_entropy": lambda p, t, weight=None, reduction="mean": tf.binary_cross_entropy(
            p, t, weight=w(weight), reduction=reduction
        ),
        "binary_cross_entropy_with_logits": lambda x, t, weight=None, reduction="mean", **k: (
            tf.binary_cross_entropy_with_logits(
                x, t, weight=w(weight), reduction=reduction, pos_weight=w(k.get("pos_weight"))
            )
        ),
        "elu": lambda x, alpha, scale, input_scale: torch.ops.aten.elu(
            x, alpha, scale, input_scale
        ),
        "hardtanh": lambda x, min_val, max_val: tf.hardtanh(x, min_val, max_val),
        "hardswish": tf.hardswish,
        "hardsigmoid": tf.hardsigmoid,
        "mish": tf.mish,
        "silu": tf.silu,
        "layer_norm": lambda x, w, b, k, eps, has_w, has_b: tf.layer_norm(
            x, x.shape[x.ndim - k :], w if has_w else None, b if has_b else None, eps
        ),
        "group_norm": lambda x, w, b, groups, eps, has_w, has_b: tf.group_norm(
            x, groups, w if has_w else None, b if has_b else None, eps
        ),
        "batch_norm": lambda x, w, b, *st, eps, has_w, has_b, training: tf.batch_norm(
            x,
            *(st or (None, None)),
            w if has_w else None,
            b if has_b else None,
            training,
            eps=eps,
        ),
        "logsigmoid": tf.logsigmoid,
        "softshrink": lambda x, lambd: tf.softshrink(x, lambd),
        "hardshrink": lambda x, lambd: tf.hardshrink(x, lambd),
        "threshold": lambda x, threshold, value: tf.threshold(x, threshold, value),
        "unfold": lambda x, **geo: _torch_unfold(torch, x, **geo),
        "fold": lambda c, size, **geo: _torch_fold(torch, c, size, **geo),
        "conv": lambda x, w, *b, **p: _torch_conv(torch, x, w, b[0] if b else None, **p),
        "conv_tx": lambda g, w, size, **p: _torch_conv_grad(torch, 0, g, w, size, **p),
        "conv_transpose": lambda x, w, *b, size, **p: _torch_conv_t(torch, x, w, b, size, **p),
        "conv_tw": lambda x, g, kernel, **p: _torch_conv_grad(torch, 1, g, x, kernel, **p),
        "conv_db": lambda g, dim: torch.sum(g, dim=tuple(dim)),
        "max_pool": lambda x, **geo: _torch_pool(torch, "max", x, **geo),
        "upsample_interp": lambda x, taps, **p: _torch_interp(torch, x, taps, None),
        "grid_sample": lambda x, grid, mode, padding, align: tf.grid_sample(
            x, grid, mode=mode, padding_mode=padding, align_corners=align
        ),
        "upsample_interp_adjoint": lambda g, btaps, size, **p: _torch_interp(torch, g, btaps, size),
        "avg_pool": lambda x, **geo: _torch_pool(torch, "avg", x, **geo),
        "nll_loss": lambda x, target, weight=None, reduction="mean", ignore_index=-100: tf.nll_loss(
            x,
            torch.as_tensor(target),
            weight=w(weight),
            reduction=reduction,
            ignore_index=ignore_index,
        ),
        "ctc_loss": lambda x, targets, input_lengths, target_lengths, blank=0, zero_infinity=False: (  # noqa: E501
            torch._ctc_loss(
                x,
                torch.as_tensor(targets),
                list(input_lengths),
                list(target_lengths),
                blank,
                zero_infinity,
            )[0]
        ),
        "ctc_loss_backward": _torch_ctc_backward,
        "segment_reduce": lambda x, lengths, reduce, initial=None, axis=0: torch.segment_reduce(
            x, reduce, lengths=torch.tensor(lengths), axis=axis, initial=initial
        ),
        "segment_reduce_backward": lambda g, x, lengths, reduce, initial=None, axis=0: (
            torch.autograd.grad(
                torch.segment_reduce(
                    x, reduce, lengths=torch.tensor(lengths), axis=axis, initial=initial
                ),
                x,
                g,
            )[0]
        ),
        **_torch_linalg(),
    }


# --- the registry is complete ------------------------------------------------------------------


@pytest.mark.parametrize("name", list(ops.REGISTRY))
def test_has_samples(name: str) -> None:
    op = ops.REGISTRY[name]
    assert op.samples, f"ops.REGISTRY[{name!r}] has no samples: give its defop samples=(...)"
    for s in op.samples:
        assert isinstance(s, Sample)
    assert name in REFERENCE, f"add a forward reference for {name!r} to tests/ops/test_ops.py"
    if op.kink is not None:
        assert name in KINKS, f"{name!r} documents a kink; add its exact values to KINKS"


# --- forward -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name, i", CASES)
def test_forward(name: str, i: int) -> None:
    op, s = _case(name, i)
    arrays = gc.make_inputs(s, _seed(name, i))
    out = apply(op, *[Tensor(a) for a in arrays], **s.params)
    with np.errstate(all="ignore"):
        want = np.asarray(REFERENCE[name](*arrays, **s.params))
    want_dtype = np.dtype(s.params["dtype"]) if name == "astype" else np.dtype(np.float64)
    assert out.dtype == want_dtype
    assert out.shape == want.shape
    assert gc.rel_error(out.data, want) <= 1e-12, (out.data, want)


# --- first order -------------------------------------------------------------------------------


@pytest.mark.parametrize("name, i", CASES)
def test_vjp_matches_finite_differences(name: str, i: int) -> None:
    op, s = _case(name, i)
    if name not in BEYOND_DERIVATIVE:
        gc.check_vjp(op, s, seed=_seed(name, i))
        return
    seed = _seed(name, i)
    arrays = gc.make_inputs(s, seed)
    positions = gc.diff_positions(op, s, arrays)
    w = gc.random_like(np.asarray(op.forward(*arrays, **s.params)).shape, seed + 1)
    got = gc.engine_vjp(op, arrays, s.params, w, positions)
    want = gc.numeric_grad(gc.weighted(op, s.params, w, s), arrays, positions, gc.STEP)
    extra = BEYOND_DERIVATIVE[name](arrays, w, s.params)
    want = [a + e for a, e in zip(want, extra, strict=True)]
    gc.compare(f"{op.name} {gc.describe(s)}", got, want, positions, gc.RTOL)


@pytest.mark.parametrize("name, i", CASES)
def test_batched_vjp(name: str, i: int) -> None:
    """One pass with 3 upstream gradients stacked on a leading axis (nb=1) is 3 passes."""
    op, s = _case(name, i)
    seed = _seed(name, i)
    arrays = gc.make_inputs(s, seed)
    positions = gc.diff_positions(op, s, arrays)
    out = np.asarray(op.forward(*arrays, **s.params))
    gs = gc.random_like((3,) + out.shape, seed + 7, out.dtype)
    batched = gc.engine_vjp(op, arrays, s.params, gs, positions, nb=1)
    for k in range(3):
        single = gc.engine_vjp(op, arrays, s.params, gs[k], positions)
        for j, b, a in zip(positions, batched, single, strict=True):
            assert b.shape == (3,) + arrays[j].shape
            assert gc.rel_error(b[k], a) <= 1e-12, (j, k, b[k], a)


# --- links: first-order chains on arrays --------------------------------------------------------

LINKED = [name for name, op in ops.REGISTRY.items() if op.linked() is not None]


@pytest.mark.parametrize("name", LINKED)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_link_is_the_rule_to_the_bit(name: str, dtype: Any) -> None:
    """`Op.link`'s `g * d` is the first-order rule's gradient bit for bit, wherever the link
    applies (each differentiated input alone requiring grad); it applies somewhere."""
    from gradcli.core.tensor import in_pass, no_grad

    op = ops.REGISTRY[name]
    used = 0
    for i, s in enumerate(op.samples):
        arrays = gc.make_inputs(s, _seed(name, i), dtype)
        for j in gc.diff_positions(op, s, arrays):
            ts = [Tensor(a, requires_grad=k == j) for k, a in enumerate(arrays)]
            out = apply(op, *ts, **s.params)
            g = gc.random_like(out.shape, _seed(name, i) + 3, dtype) * 7.3
            r = op.link(out, *ts, **s.params)
            if r is None:
                continue
            k, d = r
            assert k == j and d.dtype == out.dtype and ts[k].shape == out.shape
            with no_grad(), in_pass():
                want = op.vjp(Tensor(g), out, *ts, **s.params)[k].data
                got = np.multiply(g, d)
            assert got.dtype == want.dtype and got.shape == want.shape
            assert got.tobytes() == want.tobytes(), (name, i, got, want)
            used += 1
    assert used, f"{name}: the link applies to none of its samples"


ACCUMULATING = [name for name, op in ops.REGISTRY.items() if op.accumulates() is not None]


@pytest.mark.parametrize("name", ACCUMULATING)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("large", [False, True])
def test_accumulate_is_the_rule_to_the_bit(name: str, dtype: Any, large: bool) -> None:
    """`Op.accumulate` adds the first-order rule's gradient into an array: the bits of
    `acc + rule`, wherever it applies (on the samples, and on arrays larger than a block,
    which it runs block by block); it applies somewhere, and it leaves `acc` alone where not."""
    from gradcli.core.tensor import in_pass, no_grad
    from gradcli.ops import elementwise as E

    op = ops.REGISTRY[name]
    used = 0
    for i, s in enumerate(op.samples):
        arrays = gc.make_inputs(s, _seed(name, i), dtype)
        if len(arrays) != 1:
            continue
        if large:
            rng = np.random.default_rng(_seed(name, i))
            n = 2 * E._BLOCK + 5
            arrays = [(rng.uniform(s.low, s.high, n)).astype(dtype)]
        x = Tensor(arrays[0], requires_grad=True)
        out = apply(op, x, **s.params)
        g = gc.random_like(out.shape, _seed(name, i) + 3, dtype) * 7.3
        acc0 = np.array(gc.random_like(x.shape, _seed(name, i) + 5, dtype) * 3.1, dtype=dtype)
        acc = acc0.copy()
        with no_grad(), in_pass():
            done = op.accumulate(acc, Tensor(g), out, x, **s.params)
            if not done:
                assert acc.tobytes() == acc0.tobytes()
                continue
            want = acc0 + op.vjp(Tensor(g), out, x, **s.params)[0].data
        assert acc.dtype == want.dtype and acc.shape == want.shape
        assert acc.tobytes() == want.tobytes(), (name, i, acc, want)
        used += 1
    assert used, f"{name}: the accumulation applies to none of its samples"


def test_a_used_twice_input_gets_one_gradient_array() -> None:
    """`sum(sigmoid(x) * x ** 2)`: the second rule to reach x adds into the gradient the first
    made (no second array of x's size), with the bits of the rule and the sum; with the
    accumulation switched off (a replaced rule) the result is the same."""
    from gradcli.core import autograd
    from gradcli.ops import elementwise as E

    x = np.random.default_rng(8).standard_normal(3 * E._BLOCK + 7) * 6
    used = []
    real = autograd._accumulated

    def spy(*a: Any) -> bool:
        used.append(real(*a))
        return used[-1]

    def grad() -> np.ndarray:
        t = Tensor(x.copy(), requires_grad=True)
        (t.sigmoid() * t**2).sum().backward()
        assert t.grad is not None
        return t.grad.data

    autograd._accumulated = spy
    try:
        got = grad()
    finally:
        autograd._accumulated = real
    assert used.count(True) == 1
    sig, sq = E.sigmoid, E.pow_scalar
    try:
        E.sigmoid = ops.REGISTRY["sigmoid"] = sig.replace(vjp=sig.vjp)  # no accumulation
        assert ops.REGISTRY["sigmoid"].accumulates() is None
        object.__setattr__(sq, "accumulate", None)
        want = grad()
    finally:
        E.sigmoid = ops.REGISTRY["sigmoid"] = sig
        object.__setattr__(sq, "accumulate", E._pow_accumulate)
    assert got.tobytes() == want.tobytes()
    s = 1 / (1 + np.exp(-x))
    np.testing.assert_allclose(got, s * (1 - s) * x * x + 2 * x * s, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_large_first_order_kernels_are_the_whole_array_ones(dtype: Any) -> None:
    """Sigmoid and `x ** 2` on arrays larger than a block run block by block (in the cache):
    the same operations on the same values as on the whole array, so the same bits."""
    from gradcli.core.tensor import in_pass, no_grad
    from gradcli.ops import elementwise as E

    rng = np.random.default_rng(3)
    # (past the float64 sizes whose sigmoid is ATen's own loop, SLEEF's: `_sigmoid64`)
    n = max(3 * E._BLOCK, E._SIGMOID64_EMULATED) + 17
    x = (rng.standard_normal(n) * 8).astype(dtype)
    g = rng.standard_normal(n).astype(dtype)
    with no_grad(), in_pass():
        out = apply(E.sigmoid, Tensor(x))
        if dtype == np.float64:
            e = np.exp(-x)
            e += 1
            assert out.data.tobytes() == np.reciprocal(e).tobytes()
        (got,) = E.sigmoid.vjp(Tensor(g), out, Tensor(x))
        want = np.subtract(1, out.data, dtype=dtype) * g * out.data
        assert got.data.tobytes() == want.tobytes()
        (got,) = E.pow_scalar.vjp(Tensor(g), apply(E.pow_scalar, Tensor(x), p=2), Tensor(x), p=2)
        assert got.data.tobytes() == (g * (x * dtype(2.0))).tobytes()


# --- second order ------------------------------------------------------------------------------


@pytest.mark.parametrize("name, i", CASES)
def test_second_order(name: str, i: int) -> None:
    op, s = _case(name, i)
    if not s.hessian:
        pytest.skip("sample marked hessian=False")
    if name == "astype" and s.params["dtype"] != np.float64:
        pytest.skip("linear (zero Hessian); float32 differences are too coarse")
    gc.check_hvp(op, s, seed=_seed(name, i))


# --- float32 stays float32 -----------------------------------------------------------------------


@pytest.mark.parametrize("name, i", CASES)
def test_float32(name: str, i: int) -> None:
    op, s = _case(name, i)
    seed = _seed(name, i)
    a64 = gc.make_inputs(s, seed)
    a32 = gc.make_inputs(s, seed, np.float32)
    positions = gc.diff_positions(op, s, a32)
    # Weights come in the input's dtype (from a float32 program's float32 tensors).
    p32 = {
        k: v.astype(np.float32) if isinstance(v, np.ndarray) and v.dtype.kind == "f" else v
        for k, v in s.params.items()
    }
    out32 = apply(op, *[Tensor(a) for a in a32], **p32)
    out64 = apply(op, *[Tensor(a) for a in a64], **s.params)
    want_dtype = np.dtype(s.params["dtype"]) if name == "astype" else np.dtype(np.float32)
    assert out32.dtype == want_dtype
    assert gc.rel_error(out32.data, out64.data) <= 1e-5
    w = gc.random_like(out64.shape, seed + 1)
    g32 = gc.engine_vjp(op, a32, p32, w.astype(out32.dtype), positions)
    g64 = gc.engine_vjp(op, a64, s.params, w, positions)
    for j, a, b in zip(positions, g32, g64, strict=True):
        assert a.dtype == np.float32, f"input {j}: gradient is {a.dtype}"
        assert gc.rel_error(a, b) <= 1e-4


# --- PyTorch -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def torch_ops() -> tuple[Any, dict[str, Callable[..., Any]]]:
    torch = pytest.importorskip("torch")
    return torch, torch_fns()


def test_torch_map_is_complete(torch_ops: Any) -> None:
    _, fns = torch_ops
    assert set(ops.REGISTRY) <= set(fns)


@pytest.mark.parametrize("name, i", CASES)
def test_matches_torch(name: str, i: int, torch_ops: Any) -> None:
    torch, fns = torch_ops
    op, s = _case(name, i)
    seed = _seed(name, i)
    arrays = gc.make_inputs(s, seed)
    positions = gc.diff_positions(op, s, arrays)
    tt = [torch.tensor(a, requires_grad=j in positions) for j, a in enumerate(arrays)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # mse_loss with broadcasting shapes warns
        tout = fns[name](*tt, **s.params)
    out = apply(op, *[Tensor(a) for a in arrays], **s.params)
    want = tout.detach().numpy()
    assert out.shape == tuple(tout.shape)
    assert out.dtype == want.dtype
    assert gc.rel_error(out.data, want) <= 1e-10, (out.data, want)
    if not positions:
        return
    w = gc.random_like(out.shape, seed + 1, out.dtype)
    tg = torch.autograd.grad(tout, [tt[j] for j in positions], torch.tensor(w), allow_unused=True)
    got = gc.engine_vjp(op, arrays, s.params, w, positions)
    for j, a, b in zip(positions, got, tg, strict=True):
        b = np.zeros(arrays[j].shape) if b is None else b.numpy()
        assert gc.rel_error(a, b) <= 1e-10, (j, a, b)


# --- kinks: the exact values PyTorch gives ------------------------------------------------------
# name -> [(inputs, params, expected gradients of sum(out) per input)]

KINKS: dict[str, list[tuple[list, dict, list]]] = {
    "logit": [
        (
            [[0.0, 0.1, 0.2, 0.5, 0.8, 0.9, 1.0]],
            {"eps": 0.2},
            [[0, 0, 1 / (0.2 * (1 - 0.2)), 4, 1 / (0.8 * (1 - 0.8)), 0, 0]],
        ),
    ],
    "i0e": [([[0.0]], {}, [[0.0]])],
    "i1e": [([[0.0]], {}, [[0.5]])],
    "xlogy": [
        (
            [[0.0, 0.0, 2.0], [0.0, 3.0, 0.0]],
            {},
            [[0, math.log(3), -math.inf], [math.nan, 0, math.inf]],
        )
    ],
    "xlog1py": [
        (
            [[0.0, 0.0, 2.0], [-1.0, 3.0, -1.0]],
            {},
            [[0, math.log(4), -math.inf], [math.nan, 0, math.inf]],
        )
    ],
    "copysign": [
        ([[0.0, -0.0, 1.0, -2.0], [-1.0, 2.0, -1.0, 3.0]], {}, [[0, 0, -1, -1], [0, 0, 0, 0]])
    ],
    "nextafter": [([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0]], {}, [[1, 1, 0], [0, 0, 0]])],
    # frexp's mantissa at powers of two (and 0): the exponent np.frexp gives, 1 / 2^exponent
    "frexp": [([[1.0, 2.0, 0.0, -4.0, 0.5]], {}, [[0.5, 0.25, 1.0, 0.125, 1.0]])],
    "relu": [([[-1.0, 0.0, 2.0]], {}, [[0.0, 0.0, 1.0]])],
    # relu's gradient: linear in g (r > threshold chooses), constant in r, also at r == 0
    "threshold_backward": [
        ([[1.0, -2.0, 3.0], [-1.0, 0.0, 2.0]], {"threshold": 0.0}, [[0, 0, 1], [0, 0, 0]]),
        ([[2.0, 2.0], [0.5, 0.7]], {"threshold": 0.5}, [[0, 1], [0, 0]]),
    ],
    "abs": [([[-1.0, 0.0, 2.0]], {}, [[-1.0, 0.0, 1.0]])],
    "sign": [([[-1.0, 0.0, 2.0]], {}, [[0.0, 0.0, 0.0]])],
    "angle": [([[-1.0, 0.0, -0.0, 2.0]], {}, [[0.0, 0.0, 0.0, 0.0]])],
    "leaky_relu": [([[-1.0, 0.0, 2.0]], {"negative_slope": 0.1}, [[0.1, 0.1, 1.0]])],
    "clamp": [
        ([[-1.0, -0.5, 0.0, 0.5, 1.0]], {"min": -0.5, "max": 0.5}, [[0, 1, 1, 1, 0]]),
        ([[-1.0, -0.5, 0.0]], {"min": -0.5, "max": None}, [[0, 1, 1]]),
        ([[0.0, 0.5, 1.0]], {"min": None, "max": 0.5}, [[1, 1, 0]]),
        ([[0.0, 1.0, 2.0]], {"min": 1.0, "max": 1.0}, [[0, 1, 0]]),
    ],
    "prelu_kernel": [
        ([[0.0, -1.0, 2.0], [0.25, 0.25, 0.25]], {}, [[0.25, 0.25, 1.0], [0.0, -1.0, 0.0]]),
    ],
    "maximum": [
        ([[1.0, 2.0, 3.0], [1.0, 0.0, 3.0]], {}, [[0.5, 1, 0.5], [0.5, 0, 0.5]]),
        ([[[1.0, 2.0], [2.0, 2.0]], [2.0]], {}, [[[0, 0.5], [0.5, 0.5]], [2.5]]),
    ],
    "minimum": [
        ([[1.0, 2.0, 3.0], [1.0, 4.0, 3.0]], {}, [[0.5, 1, 0.5], [0.5, 0, 0.5]]),
        ([[[3.0, 2.0], [2.0, 2.0]], [2.0]], {}, [[[0, 0.5], [0.5, 0.5]], [2.5]]),
    ],
    "fmax": [
        ([[1.0, 2.0, 3.0], [1.0, 0.0, 3.0]], {}, [[1, 1, 1], [0, 0, 0]]),
        ([[[1.0, 2.0], [2.0, 2.0]], [2.0]], {}, [[[0, 1], [1, 1]], [1.0]]),
    ],
    "fmin": [
        ([[1.0, 2.0, 3.0], [1.0, 4.0, 3.0]], {}, [[1, 1, 1], [0, 0, 0]]),
        ([[[3.0, 2.0], [2.0, 2.0]], [2.0]], {}, [[[0, 1], [1, 1]], [1.0]]),
    ],
    "max": [
        ([[1.0, 3.0, 3.0]], {"fn": "max"}, [[0, 0.5, 0.5]]),
        ([[[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]]], {"dim": 1, "fn": "max"}, [[[0, 1, 0], [1, 0, 0]]]),
        ([[[2.0, 2.0], [2.0, 1.0]]], {"dim": 0, "keepdim": True, "fn": "max"}, [[[1, 1], [0, 0]]]),
        ([[[2.0, 2.0], [2.0, 1.0]]], {"fn": "max"}, [[[1 / 3, 1 / 3], [1 / 3, 0]]]),
    ],
    "min": [
        ([[3.0, 1.0, 1.0]], {"fn": "min"}, [[0, 0.5, 0.5]]),
        ([[[1.0, 3.0, 1.0], [2.0, 2.0, 0.0]]], {"dim": 1, "fn": "min"}, [[[1, 0, 0], [0, 0, 1]]]),
    ],
    "cumprod": [
        ([[[2.0, 0.0, 3.0, 4.0]]], {"dim": 1}, [[[1, 32, 0, 0]]]),
        (
            [[[0.0, 2.0, 0.0, 5.0], [1.5, 2.0, 3.0, 0.0]]],
            {"dim": 1},
            [[[3, 0, 0, 0], [9, 6, 3, 9]]],
        ),
        ([[[0.0, 2.0], [3.0, 0.0], [2.0, 2.0]]], {"dim": 0}, [[[10, 1], [0, 6], [0, 0]]]),
        ([[[0.0, 0.0, 3.0]]], {"dim": 1}, [[[1, 0, 0]]]),
    ],
    "dist": [
        ([[0.0, 1.0], [0.0, 1.0]], {"p": 2.0}, [[0, 0], [0, 0]]),
        ([[1.0, -3.0, 3.0], [0.0]], {"p": math.inf}, [[0, -0.5, 0.5], [0]]),
        ([[0.0, 2.0], [0.0, 1.0]], {"p": 3.0}, [[0, 1], [0, -1]]),
    ],
    "norm": [
        ([[0.0, 0.0]], {"p": 2.0}, [[0, 0]]),
        ([[0.0, 0.0]], {"p": 3.0}, [[0, 0]]),
        ([[0.0, 1.0]], {"p": 3.0}, [[0, 1]]),
        ([[0.0, 0.0]], {"p": 1.5}, [[0, 0]]),
        ([[0.0, 1.0, -2.0]], {"p": 1.0}, [[0, 1, -1]]),
        ([[1.0, -3.0, 3.0]], {"p": math.inf}, [[0, -0.5, 0.5]]),
        ([[0.0, 0.0]], {"p": math.inf}, [[0, 0]]),
        ([[[0.0, 0.0], [3.0, 4.0]]], {"p": 2.0, "dim": 1}, [[[0, 0], [0.6, 0.8]]]),
    ],
    "floor": [([[-1.0, 0.0, 1.0, 1.5]], {}, [[0, 0, 0, 0]])],
    "ceil": [([[-1.0, 0.0, 1.0, 1.5]], {}, [[0, 0, 0, 0]])],
    "trunc": [([[-1.0, 0.0, 1.0, -1.5]], {}, [[0, 0, 0, 0]])],
    "round": [
        ([[0.5, 1.5, -2.5, 1.0]], {}, [[0, 0, 0, 0]]),
        ([[0.25, 0.35]], {"decimals": 1}, [[0, 0]]),
    ],
    "frac": [([[-1.0, 0.0, 2.0, 1.5]], {}, [[1, 1, 1, 1]])],
    "nan_to_num": [
        (
            [[math.nan, math.inf, -math.inf, 1.0]],
            {"nan": 0.0, "posinf": None, "neginf": None},
            [[0, 0, 0, 1]],
        )
    ],
    "remainder": [
        ([[4.0, -4.0, 3.0, 0.0], [2.0, 2.0, -1.5, 1.0]], {}, [[1, 1, 1, 1], [-2, 2, 2, 0]])
    ],
    "fmod": [([[4.0, -4.0, 3.0, 0.0], [2.0, 2.0, -1.5, 1.0]], {}, [[1, 1, 1, 1], [-2, 2, 2, 0]])],
    "div_mode": [
        ([[4.0, -3.0], [2.0, 2.0]], {"rounding_mode": "floor"}, [[0, 0], [0, 0]]),
        ([[4.0, -3.0], [2.0, 2.0]], {"rounding_mode": "trunc"}, [[0, 0], [0, 0]]),
    ],
    "cdist": [
        (
            [[[0.0, 0.0], [1.0, 1.0]], [[0.0, 0.0]]],
            {"p": 2.0},
            [
                [[0, 0], [1 / math.sqrt(2), 1 / math.sqrt(2)]],
                [[-1 / math.sqrt(2), -1 / math.sqrt(2)]],
            ],
        ),
        ([[[0.0, 0.0], [1.0, -2.0]], [[0.0, 0.0]]], {"p": 1.0}, [[[0, 0], [1, -1]], [[-1, 1]]]),
    ],
    # two equal rows: their pair's distance is 0, its gradient 0 (the other pairs' remain)
    "pdist": [
        ([[[0.0, 0.0], [0.0, 0.0], [1.0, -2.0]]], {"p": 1.0}, [[[-1, 1], [-1, 1], [2, -2]]]),
        (
            [[[0.0, 0.0], [0.0, 0.0], [1.0, -2.0]]],
            {"p": 2.0},
            [
                [
                    [-1 / math.sqrt(5), 2 / math.sqrt(5)],
                    [-1 / math.sqrt(5), 2 / math.sqrt(5)],
                    [2 / math.sqrt(5), -4 / math.sqrt(5)],
                ]
            ],
        ),
    ],
}

KINKS.update(
    {
        "elu": [
            (
                [[-1.0, 0.0, 2.0]],
                {"alpha": 1.0, "scale": 1.0, "input_scale": 1.0},
                [[math.exp(-1.0), 1.0, 1.0]],
            ),
            ([[0.0]], {"alpha": 2.0, "scale": 1.5, "input_scale": 0.5}, [[1.5]]),
        ],
        "hardtanh": [
            ([[-2.0, -1.0, 0.0, 1.0, 2.0]], {"min_val": -1.0, "max_val": 1.0}, [[0, 0, 1, 0, 0]]),
            ([[0.0, 3.0, 6.0]], {"min_val": 0.0, "max_val": 6.0}, [[0, 1, 0]]),
        ],
        "hardswish": [([[-4.0, -3.0, 0.0, 3.0, 4.0]], {}, [[0, 0, 0.5, 1, 1]])],
        "hardsigmoid": [([[-3.0, 0.0, 3.0]], {}, [[0, float(np.float32(1) / np.float32(6)), 0]])],
        "softshrink": [([[-0.5, 0.0, 0.5, 1.0]], {"lambd": 0.5}, [[0, 0, 0, 1]])],
        "hardshrink": [([[-0.5, 0.0, 0.5, 1.0]], {"lambd": 0.5}, [[0, 0, 0, 1]])],
        "threshold": [([[0.5, 0.4, 0.6]], {"threshold": 0.5, "value": -1.0}, [[0, 0, 1]])],
        "max_pool": [
            (
                [[[1.0, 3.0, 3.0, 0.0]]],
                {"kernel": (2,), "stride": (1,), "dilation": (1,), "pad": (0,), "out": (3,)},
                [[[0, 2, 1, 0]]],
            )
        ],
    }
)

# Edge values of ops without a documented kink, also as PyTorch gives them.
EDGES: dict[str, list[tuple[list, dict, list]]] = {
    "pow_scalar": [
        ([[0.0, 1.0]], {"p": 0}, [[0, 0]]),
        ([[0.0, 1.0]], {"p": 1}, [[1, 1]]),
        ([[0.0, 1.0]], {"p": 2.5}, [[0, 2.5]]),
        ([[0.0, 1.0]], {"p": 0.5}, [[math.inf, 0.5]]),
    ],
    "pow": [
        (
            [[0.0, 0.0, 0.0, 2.0], [0.0, 2.0, 0.5, 0.0]],
            {},
            [[0, 0, math.inf, 0], [0, 0, 0, math.log(2)]],
        ),
    ],
    "rpow_scalar": [([[-1.0, 0.0, 2.0]], {"base": 0.0}, [[-math.inf, 0, 0]])],
    "prod": [
        ([[0.0, 2.0, 3.0]], {}, [[6, 0, 0]]),
        ([[0.0, 2.0, 0.0]], {}, [[0, 0, 0]]),
        ([[[0.0, 2.0], [3.0, 4.0]]], {"dim": 1}, [[[2, 0], [4, 3]]]),
    ],
    "sqrt": [([[0.0]], {}, [[math.inf]])],
    "softplus": [([[21.0, 30.0]], {"beta": 1.0, "threshold": 20.0}, [[1.0, 1.0]])],
    "atan2": [([[0.0, 1.0, 0.0], [0.0, 0.0, -2.0]], {}, [[0, 0, -0.5], [0, -1, 0]])],
    "rsqrt": [([[0.0]], {}, [[-math.inf]])],
    "reciprocal": [([[0.0, -0.0]], {}, [[-math.inf, -math.inf]])],
    "asin": [([[1.0, -1.0]], {}, [[math.inf, math.inf]])],
    "acos": [([[1.0, -1.0]], {}, [[-math.inf, -math.inf]])],
    "acosh": [([[1.0]], {}, [[math.inf]])],
    "atanh": [([[1.0, -1.0]], {}, [[math.inf, math.inf]])],
    "log2": [([[0.0]], {}, [[math.inf]])],
    "logit": [
        ([[0.0, 0.5, 1.0, -0.5, 1.5]], {"eps": None}, [[math.inf, 4, math.inf, math.nan, math.nan]])
    ],
    "i1": [([[0.0]], {}, [[0.5]])],
    "entr": [([[0.0, 1.0]], {}, [[math.inf, -1.0]])],
    "logaddexp": [([[-math.inf, 1.0], [-math.inf, 1.0]], {}, [[math.nan, 0.5], [math.nan, 0.5]])],
}


def _kink_cases(table: dict[str, list]) -> list:
    return [
        pytest.param(name, k, id=f"{name}-{k}")
        for name, cases in table.items()
        for k in range(len(cases))
    ]


def _check_exact(name: str, case: tuple[list, dict, list]) -> None:
    inputs, params, expected = case
    op = ops.REGISTRY[name]
    arrays = [np.asarray(a, dtype=np.float64) for a in inputs]
    with np.errstate(all="ignore"):
        out = np.asarray(op.forward(*arrays, **params))
    got = gc.engine_vjp(op, arrays, params, np.ones(out.shape), list(range(len(arrays))))
    for a, e in zip(got, expected, strict=True):
        np.testing.assert_array_equal(a, np.asarray(e, dtype=np.float64))


def _check_torch(name: str, case: tuple[list, dict, list]) -> None:
    torch = pytest.importorskip("torch")
    inputs, params, expected = case
    tt = [torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in inputs]
    out = torch_fns()[name](*tt, **params)
    got = torch.autograd.grad(out, tt, torch.ones_like(out))
    for a, e in zip(got, expected, strict=True):
        np.testing.assert_array_equal(a.numpy(), np.asarray(e, dtype=np.float64))


@pytest.mark.parametrize("name, k", _kink_cases(KINKS))
def test_kink(name: str, k: int) -> None:
    _check_exact(name, KINKS[name][k])


@pytest.mark.parametrize("name, k", _kink_cases(KINKS))
def test_kink_is_torchs(name: str, k: int) -> None:
    _check_torch(name, KINKS[name][k])


@pytest.mark.parametrize("name, k", _kink_cases(EDGES))
def test_edge(name: str, k: int) -> None:
    _check_exact(name, EDGES[name][k])


@pytest.mark.parametrize("name, k", _kink_cases(EDGES))
def test_edge_is_torchs(name: str, k: int) -> None:
    _check_torch(name, EDGES[name][k])


# --- the functional surface: where PyTorch's semantics meet the records ---------------------


def test_amax_dim_splits_ties() -> None:
    x = Tensor(np.array([[1.0, 3.0, 3.0]]), requires_grad=True)
    F.amax(x, 1).sum().backward()
    np.testing.assert_array_equal(x.grad.data, [[0.0, 0.5, 0.5]])


def test_getitem_int_beside_index_array_is_torchs() -> None:
    x = Tensor(np.arange(24.0).reshape(2, 3, 4))
    got = getitem(x, (0, slice(None), [1, 2, 1]))
    np.testing.assert_array_equal(got.data, x.data[0][:, [1, 2, 1]])


def test_sign_of_nan_is_zero_and_bool_is_kept() -> None:
    # PyTorch's kernel is (0 < x) - (x < 0): 0 for nan (NumPy's sign gives nan).
    from gradcli.surface import names as N

    got = N.FUNCTIONS["sign"](Tensor(np.array([np.nan, -0.0, 2.0, -3.0], dtype=np.float32)))
    np.testing.assert_array_equal(got.data, [0.0, 0.0, 1.0, -1.0])
    assert got.dtype == np.float32
    b = N.FUNCTIONS["sign"](Tensor(np.array([True, False])))
    assert b.dtype == np.bool_ and b.data.tolist() == [True, False]


def test_remainder_zero_keeps_the_dividends_sign() -> None:
    # PyTorch: fmod(a, b), plus b where the signs differ; a zero stays fmod's (the sign of a),
    # where NumPy's remainder gives the sign of b.
    a = np.array([-5.5, 5.5, 0.0, -0.0, -1.0])
    got = ops.binary.remainder_values(a, np.array([0.5, -0.5, -0.5, 0.5, np.inf]))
    np.testing.assert_array_equal(np.signbit(got), [True, False, False, True, False])
    assert got[-1] == np.inf  # -1 % inf is inf, as Python's and PyTorch's


def test_integer_division_of_the_smallest_int64_wraps() -> None:
    # INT64_MIN // -1 overflows: NumPy (and PyTorch's scalar path) wrap to INT64_MIN; % is 0.
    lo = np.array([np.iinfo(np.int64).min, 7])
    minus1 = np.array([-1, -1])
    with np.errstate(all="ignore"):
        assert ops.binary.floor_div_values(lo, minus1).tolist() == [lo[0], -7]
        assert ops.binary.remainder_values(lo, minus1).tolist() == [0, 0]
        assert ops.binary.fmod_values(lo, minus1).tolist() == [0, 0]
        assert ops.binary.trunc_div_values(lo, minus1).tolist() == [lo[0], -7]


def test_integer_division_by_zero_is_an_error() -> None:
    from gradcli.base.errors import GradcliError

    for fn in (
        ops.binary.floor_div_values,
        ops.binary.remainder_values,
        ops.binary.fmod_values,
        ops.binary.trunc_div_values,
    ):
        with pytest.raises(GradcliError, match="ZeroDivisionError"):
            fn(np.array([1, 2]), np.array([1, 0]))


# --- the checker catches wrong rules ------------------------------------------------------------


def _patched(monkeypatch: pytest.MonkeyPatch, name: str, vjp: Callable[..., tuple]) -> Any:
    op = ops.REGISTRY[name].replace(vjp=vjp)
    monkeypatch.setitem(ops.REGISTRY, name, op)
    return op


def test_checker_catches_a_rule_off_by_a_tenth_of_a_percent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rule = ops.REGISTRY["tanh"].vjp
    op = _patched(monkeypatch, "tanh", lambda g, out, x: tuple(r * 1.001 for r in rule(g, out, x)))
    for s in op.samples:
        with pytest.raises(gc.GradcheckError, match="relative error"):
            gc.check_vjp(op, s, seed=1)
    # ... and the unpatched rule passes the same check.
    for s in ops.REGISTRY["tanh"].samples:
        gc.check_vjp(ops.elementwise.tanh, s, seed=1)


def test_checker_catches_a_wrong_broadcast_gradient(monkeypatch: pytest.MonkeyPatch) -> None:
    # mul's gradient for y with x and y swapped: right for equal shapes only by accident.
    op = _patched(monkeypatch, "mul", lambda g, out, x, y: (g * y, g * y))
    with pytest.raises(gc.GradcheckError):
        gc.check_vjp(op, Sample(((2, 3), (3,))), seed=3)


def test_checker_catches_a_rule_not_differentiable_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # The right first derivative, computed outside the graph: second order must notice.
    op = _patched(monkeypatch, "tanh", lambda g, out, x: (g * Tensor(1 - out.data * out.data),))
    gc.check_vjp(op, op.samples[2], seed=2)
    with pytest.raises(gc.GradcheckError, match="second order"):
        gc.check_hvp(op, op.samples[2], seed=2)


def test_checker_sees_the_patched_registry_through_functional(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Patching the record in the registry and the module attribute functional reads changes
    what the user-facing function differentiates."""
    rule = ops.REGISTRY["tanh"].vjp
    op = _patched(monkeypatch, "tanh", lambda g, out, x: tuple(r * 1.001 for r in rule(g, out, x)))
    monkeypatch.setattr(ops.elementwise, "tanh", op)
    monkeypatch.setattr(A, "tanh", A.unary(op))
    x = Tensor(np.array([0.3, -0.7]), requires_grad=True)
    A.tanh(x).sum().backward()
    np.testing.assert_allclose(x.grad.data, 1.001 * (1 - np.tanh(x.data) ** 2), rtol=1e-14)


def test_batched_check_catches_a_rule_that_ignores_batch_axes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # softmax with the sum over the first axis instead of the softmax axis: right for nb=0
    # on a 1-D input, wrong once a batch axis comes first.
    op = _patched(
        monkeypatch,
        "softmax",
        lambda g, out, x, dim: (out * (g - (g * out).sum(dim=0, keepdim=True)),),
    )
    s = Sample(((4,),), {"dim": 0})
    gc.check_vjp(op, s, seed=4)
    gs = gc.random_like((3, 4), 5)
    arrays = gc.make_inputs(s, 4)
    batched = gc.engine_vjp(op, arrays, s.params, gs, [0], nb=1)[0]
    single = gc.engine_vjp(op, arrays, s.params, gs[0], [0])[0]
    assert gc.rel_error(batched[0], single) > 1e-3


def test_a_changed_rule_has_no_link() -> None:
    """A link restates its rule: a rule replaced (or patched in place) is used as it is."""
    op = ops.REGISTRY["sin"]
    assert op.linked() is not None
    assert op.replace(vjp=lambda g, out, x: (g,)).linked() is None
    assert ops.REGISTRY["sigmoid"].replace(vjp=lambda g, out, x: (g,)).accumulates() is None
    patched = op.replace()
    object.__setattr__(patched, "vjp", lambda g, out, x: (g,))
    assert patched.linked() is None


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_mul_under_a_sum_is_the_other_factor_to_the_bit(dtype: Any) -> None:
    """Under `.sum()` mul's gradient is the other factor itself (a broadcast of exactly 1
    times it): the bits of `1 * v` (signed zeros, infinities, nan, subnormals), read-only, and
    a leaf's `.grad` is its own array: changing it in place changes no forward value."""
    from gradcli.core.tensor import in_pass, no_grad

    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, np.finfo(dtype).tiny / 4, 3.5, -1e30]
    v = np.array(specials * 3, dtype=dtype)
    a = Tensor(np.linspace(-2, 2, v.size).astype(dtype), requires_grad=True)
    b = Tensor(v.copy(), requires_grad=True)
    out = apply(ops.REGISTRY["mul"], a, b)
    ones = np.broadcast_to(np.ones((), dtype=dtype), v.shape)
    with no_grad(), in_pass():
        ga, gb = ops.REGISTRY["mul"].vjp(Tensor(ones), out, a, b)
        want = ones * v
        assert ga.data.tobytes() == want.tobytes() and not ga.data.flags.writeable
        assert gb.data.tobytes() == (ones * a.data).tobytes()
        # any other gradient is multiplied
        twos = np.broadcast_to(np.full((), 2, dtype=dtype), v.shape)
        assert (
            ops.REGISTRY["mul"].vjp(Tensor(twos), out, a, b)[0].data.tobytes()
            == (twos * v).tobytes()
        )
    (a * b).sum().backward()
    assert a.grad.data.tobytes() == want.tobytes()
    a.grad.zero_()
    assert b.data.tobytes() == v.tobytes()


def test_gradient_that_is_a_forward_value_is_handed_out_as_a_copy() -> None:
    """A hook, a retained `.grad` and `autograd.grad`'s result may change the gradient in
    place, as on PyTorch's fresh ones; the forward value the pass used for it stays."""
    from gradcli.core.autograd import grad

    a = Tensor(np.array([1.0, 2.0, 3.0]), requires_grad=True)
    b = Tensor(np.array([4.0, 5.0, 6.0]), requires_grad=True)
    c = a * b
    c.register_hook(lambda g: g.mul_(2))
    (c * b).sum().backward()  # c's gradient is b itself (doubled by the hook), a's 2 b * b
    assert a.grad.data.tolist() == [32.0, 50.0, 72.0] and b.data.tolist() == [4.0, 5.0, 6.0]
    (ga,) = grad((a * b).sum(), a)
    ga.mul_(0)
    assert ga.data.tolist() == [0.0, 0.0, 0.0] and b.data.tolist() == [4.0, 5.0, 6.0]


def test_defop_refuses_a_name_already_registered() -> None:
    """A second record of one name would replace the first in the registry unseen (Tensor.unfold's
    windows and F.unfold's im2col were both `unfold` once): defop refuses it."""
    from gradcli.core.op import defop
    from gradcli.ops import REGISTRY

    before = REGISTRY["unfold"]
    with pytest.raises(ValueError, match="a record named 'unfold' exists already"):
        defop("unfold", lambda x: x, lambda g, out, x: (g,), "UnfoldBackward0", "g")
    assert REGISTRY["unfold"] is before


def test_sinc_second_derivative_at_zero_is_nan_as_torchs() -> None:
    # PyTorch's sinc rule divides by pi x^2 and hides the 0 / 0 at x = 0 behind a `where`:
    # the first derivative there is 0, the second NaN (0 * inf through the division). Away
    # from 0 the second derivative is the finite-difference slope of the first.
    op = ops.REGISTRY["sinc"]
    x = np.array([0.0, 0.5, -1.25, 3.0])
    first = gc.engine_vjp(op, [x], {}, np.ones(4), [0])[0]
    assert first[0] == 0.0 and not np.signbit(first[0])
    second = gc.engine_hvp(op, [x], {}, np.ones(4), [np.ones(4)], [0])[0]
    assert math.isnan(second[0])
    step = 1e-6

    def d1(v: np.ndarray) -> np.ndarray:
        return gc.engine_vjp(op, [v], {}, np.ones(v.shape), [0])[0]

    fd = (d1(x[1:] + step) - d1(x[1:] - step)) / (2 * step)
    np.testing.assert_allclose(second[1:], fd, rtol=1e-6)
