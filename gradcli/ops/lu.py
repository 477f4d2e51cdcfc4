"""The LU records of torch.linalg: `lu_factor` (LAPACK's packed factors, `linalg.lu_factor`,
`lu_factor_ex`, `torch.lu`), `lu` (L and U apart, `linalg.lu`) and `lu_solve`
(`linalg.lu_solve`, `torch.lu_solve`).

The factorisation is getrf's: partial pivoting (the first entry of largest magnitude), the
column below the pivot scaled by its reciprocal, an exactly zero pivot leaving its column alone
(LAPACK's info then names it). Float32 and float64 square matrices take the orders measured
for det and solve (`lapack32`: PyTorch's bits); other shapes the plain right-looking order.
Pivots are LAPACK's, 0-based here (the surface adds 1 and makes them int32).

Complex matrices (zgetrf, cgetrf) are factored in MKL's order, measured against torch 2.13 (on
an AMD Zen 4: MKL's AVX2 code; the avx512 family's not measured, the same order kept) on
200 random matrices per size (2 to 16, both layouts, complex128 and complex64: every bit; from
17 on MKL works in panels, not mirrored: the same order, within a few ulps): the pivot is the
first entry of largest |re| + |im| (izamax), the column below it is multiplied by the pivot's
reciprocal, which MKL computes in a wider type (1 / (a^2 + b^2) in x87 extended precision for
complex128, in double for complex64; a and -b times it, each rounded once: 200,000 of 200,000
reciprocals), and each complex product is the plain one (re = ac - bd, im = ad + bc, every
product rounded on its own). zgetrs: column sweeps of such products, the diagonal dividing as
NumPy's complex division; PyTorch's bits at n = 2 and 8, within an ulp or two elsewhere.

The rules are PyTorch's (FunctionsManual.cpp: linalg_lu_backward for square, wide and tall
matrices, lu_factor_ex_backward, linalg_lu_solve_LU and the adjoint solve for B), written with
the engine's records so that a gradient is differentiable again.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.layout import column_major
from ..core.op import Sample, apply, defop
from ..core.tensor import Tensor, constant
from . import binary as B
from . import lapack32
from . import shape as S
from .matrices import index_last, mm, mT, pack, solve_triangular, unpack


def _no_closed_form(name: str) -> Any:
    def sym(sp: Any, *args: Any, **params: Any) -> Any:
        # (the pivots are the numbers' comparisons: no formula of the symbols)
        raise TypeError(f"{name} has no closed form (its row exchanges depend on the values)")

    return sym


# --- arrays -------------------------------------------------------------------------------------


def cmul(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x * y of complex arrays as MKL's complex kernels multiply: each product rounded on its
    own, re = ac - bd, im = ad + bc (NumPy's own product may fuse them); real: x * y."""
    if x.dtype.kind != "c" and y.dtype.kind != "c":
        return x * y
    x, y = np.broadcast_arrays(x, y)
    out = np.empty(x.shape, dtype=np.result_type(x, y))
    out.real = x.real * y.real - x.imag * y.imag
    out.imag = x.real * y.imag + x.imag * y.real
    return out


def creciprocal(z: np.ndarray) -> np.ndarray:
    """1 / z as zgetrf's (cgetrf's) scaling computes it: 1 / (a^2 + b^2) in a wider type
    (x87 extended precision, NumPy's longdouble, for complex128; double for complex64), then
    a and -b times it, each rounded once to z's precision."""
    wide = np.longdouble if z.dtype == np.complex128 else np.float64
    a, b = z.real.astype(wide), z.imag.astype(wide)
    with np.errstate(all="ignore"):
        inv = wide(1) / (a * a + b * b)
        out = np.empty(z.shape, dtype=z.dtype)
        out.real = a * inv
        out.imag = -b * inv
    return out


def _getrf_complex(st: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """zgetrf / cgetrf of a stack (N, m, n) in MKL's order (the module's note): the pivot the
    first largest |re| + |im|, the column scaled by the reciprocal, right-looking updates."""
    lu = np.array(st)
    count, m, n = lu.shape
    k = min(m, n)
    piv = np.zeros((count, k), dtype=np.intp)
    rows = np.arange(count)
    with np.errstate(all="ignore"):
        for j in range(k):
            col = lu[:, j:, j]
            p = j + np.argmax(np.abs(col.real) + np.abs(col.imag), axis=1)
            piv[:, j] = p
            swap = p != j
            if swap.any():
                r, q = rows[swap], p[swap]
                top = lu[r, j].copy()
                lu[r, j] = lu[r, q]
                lu[r, q] = top
            if j + 1 == m:
                continue
            d = lu[:, j, j]
            zero = (d == 0)[:, None]  # (a zero pivot leaves its column alone, as LAPACK)
            scaled = cmul(lu[:, j + 1 :, j], creciprocal(np.where(d == 0, 1, d))[:, None])
            lu[:, j + 1 :, j] = np.where(zero, lu[:, j + 1 :, j], scaled)
            if j + 1 < n:
                lu[:, j + 1 :, j + 1 :] -= cmul(lu[:, j + 1 :, j, None], lu[:, j, None, j + 1 :])
    return lu, piv


def _getrf_plain(st: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """getrf of a stack (N, m, n) in its dtype: (LU, 0-based pivot rows (N, min(m, n)))."""
    lu = np.array(st)
    count, m, n = lu.shape
    k = min(m, n)
    piv = np.zeros((count, k), dtype=np.intp)
    rows = np.arange(count)
    one = lu.dtype.type(1)
    with np.errstate(all="ignore"):
        for j in range(k):
            lapack32._pivot(lu, piv, rows, j)  # (the measured kernels' partial pivoting)
            if j + 1 == m:
                continue
            d = lu[:, j, j]
            zero = (d == 0)[:, None]
            scaled = lu[:, j + 1 :, j] * (one / np.where(d == 0, one, d))[:, None]
            lu[:, j + 1 :, j] = np.where(zero, lu[:, j + 1 :, j], scaled)
            if j + 1 < n:
                lu[:, j + 1 :, j + 1 :] -= lu[:, j + 1 :, j, None] * lu[:, j, None, j + 1 :]
    return lu, piv


def factor(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """getrf of each matrix of `a` (..., m, n): (LU (..., m, n), 0-based pivots
    (..., min(m, n)), info (...) int32: the 1-based index of the first zero pivot, or 0)."""
    batch, (m, n) = a.shape[:-2], a.shape[-2:]
    k = min(m, n)
    if a.size == 0:
        return np.array(a), np.zeros(batch + (k,), np.intp), np.zeros(batch, np.int32)
    st = np.ascontiguousarray(a).reshape((-1, m, n))
    got = None
    if st.dtype.kind == "c":
        got = _getrf_complex(st)
    elif m == n and lapack32._usable(st):
        got = lapack32._getrf(st)
    elif m == n and lapack32._usable64(st):
        got = lapack32._getrf64(st)
    lu, piv = got if got is not None else _getrf_plain(st)
    zero = np.diagonal(lu, axis1=1, axis2=2)[:, :k] == 0
    info = np.where(zero.any(axis=1), np.argmax(zero, axis=1) + 1, 0).astype(np.int32)
    return lu.reshape(a.shape), piv.reshape(batch + (k,)), info.reshape(batch)


def permutation(piv: np.ndarray, m: int, dtype: Any) -> np.ndarray:
    """P of A = P L U from 0-based pivots (..., k): row i of P^T A is row perm[i] of A."""
    batch, k = piv.shape[:-1], piv.shape[-1]
    flat = piv.reshape((-1, k))
    count = len(flat)
    rows = np.arange(count)
    perm = np.broadcast_to(np.arange(m), (count, m)).copy()
    for j in range(k):
        q = flat[:, j]
        top = perm[:, j].copy()
        perm[:, j] = perm[rows, q]
        perm[rows, q] = top
    p = np.zeros((count, m, m), dtype=dtype)
    p[rows[:, None], perm, np.arange(m)[None, :]] = 1
    return p.reshape(batch + (m, m))


def _getrs_plain(lu: np.ndarray, piv: np.ndarray, b: np.ndarray, adjoint: bool) -> np.ndarray:
    """getrs of stacks (N, n, n), (N, n), (N, n, k) in their dtype, by column sweeps (a zero
    pivot gives infinities and NaNs, as LAPACK); `adjoint`: with A^H (A^T of a real A)."""
    x = np.array(b, dtype=lu.dtype)
    n = lu.shape[-1]
    with np.errstate(all="ignore"):
        if not adjoint:
            lapack32.swap_rows(x, piv, range(n))
            for j in range(n - 1):  # L, unit
                x[:, j + 1 :] -= cmul(lu[:, j + 1 :, j, None], x[:, j, None, :])
            for j in range(n - 1, -1, -1):  # U
                x[:, j] = x[:, j] / lu[:, j, j, None]
                x[:, :j] -= cmul(lu[:, :j, j, None], x[:, j, None, :])
            return x
        lu = np.conj(lu)
        for j in range(n):  # U^H, lower
            x[:, j] = x[:, j] / lu[:, j, j, None]
            x[:, j + 1 :] -= cmul(lu[:, j, j + 1 :, None], x[:, j, None, :])
        for j in range(n - 1, 0, -1):  # L^H, upper, unit
            x[:, :j] -= cmul(lu[:, j, :j, None], x[:, j, None, :])
        lapack32.swap_rows(x, piv, range(n - 1, -1, -1))
    return x


def solve_arrays(lu: np.ndarray, piv: np.ndarray, b: np.ndarray, adjoint: bool) -> np.ndarray:
    """X with A X = B (A^H X = B: `adjoint`) from A's LU (..., n, n) and 0-based pivots
    (..., n), batch axes broadcast with B's (..., n, k); float32 in MKL's measured orders."""
    shape = np.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    n = lu.shape[-1]
    if lu.size == 0 or b.size == 0:
        return np.zeros(shape + b.shape[-2:], dtype=lu.dtype)
    ll = np.broadcast_to(lu, shape + lu.shape[-2:]).reshape((-1, n, n))
    pp = np.broadcast_to(piv, shape + piv.shape[-1:]).reshape((-1, n))
    bb = np.broadcast_to(b, shape + b.shape[-2:]).reshape((-1,) + b.shape[-2:])
    x = None
    if ll.size and bb.size and lapack32._usable(ll, bb.shape[-1]) and b.dtype == np.float32:
        if np.isfinite(bb).all():
            with np.errstate(all="ignore"):
                x = lapack32._getrs_adjoint(ll, pp, bb) if adjoint else lapack32._getrs(ll, pp, bb)
    if x is None:
        x = _getrs_plain(ll, pp, bb, adjoint)
    return np.asarray(x, dtype=lu.dtype).reshape(shape + b.shape[-2:])


# --- masks and the shared rule ------------------------------------------------------------------


def mH(t: Tensor) -> Tensor:  # noqa: N802
    """The conjugate transpose of the last two axes (the transpose of a real matrix): PyTorch's
    rules are written with it, so that they are its conjugate Wirtinger gradients."""
    if t.dtype.kind == "c":
        from ..core.autograd import complex_record

        t = apply(complex_record("conj"), t)
    return mT(t)


def _tri(t: Tensor, k: int, upper: bool) -> Tensor:
    """t.triu(k) / t.tril(k) of the last two axes: +0 off the triangle, as ATen's."""
    m, n = t.shape[-2:]
    ones = np.ones((m, n), dtype=bool)
    keep = np.triu(ones, k) if upper else np.tril(ones, k)
    return apply(B.where, Tensor(keep), t, Tensor(np.zeros((), dtype=t.dtype)))


def unpacked_factors(lu: Tensor) -> tuple[Tensor, Tensor]:
    """L (unit lower, m x k) and U (upper, k x n) of a packed LU, recorded (lu_unpack)."""
    m, n = lu.shape[-2:]
    k = min(m, n)
    low = index_last(lu, 0, k) if n > k else lu
    lower = np.tril(np.ones((m, k), dtype=bool), -1)
    eye = Tensor(np.eye(m, k, dtype=lu.dtype))
    big_l = apply(B.where, Tensor(lower), low, eye)
    up = index_last(lu, 0, k, axis=-2) if m > k else lu
    return big_l, _tri(up, 0, True)


def _right_solve(m: Tensor, c: Tensor, upper: bool, unit: bool = False) -> Tensor:
    """X with X M = C, M triangular (`upper`): M^T X^T = C^T."""
    x = apply(solve_triangular, mT(m), mT(c), upper=not upper, unitriangular=unit)
    return mT(x)


def _plus(a: Tensor | None, b: Tensor) -> Tensor:
    return b if a is None else a + b


def _zeros_beside(t: Tensor, count: int, axis: int) -> Tensor:
    shape = list(t.shape)
    shape[axis] = count
    return Tensor(np.zeros(tuple(shape), dtype=t.dtype))


def lu_backward(
    gl: Tensor | None, gu: Tensor | None, p: np.ndarray, low: Tensor, up: Tensor
) -> Tensor:
    """A's gradient from those of L and U (A = P L U), PyTorch's linalg_lu_backward (conjugate
    transposes: of a complex A, its conjugate Wirtinger gradient)."""
    m, n = low.shape[-2], up.shape[-1]
    k = min(m, n)
    ga: Tensor | None = None
    if m == n:
        if gl is not None:
            ga = _tri(mm(mH(low), gl), -1, False)
        if gu is not None:
            ga = _plus(ga, _tri(mm(gu, mH(up)), 0, True))
        assert ga is not None
        ga = _right_solve(mH(up), ga, upper=False)
        ga = apply(solve_triangular, mH(low), ga, upper=True, unitriangular=True)
    elif m < n:
        u1 = index_last(up, 0, k)
        if gl is not None:
            ga = mm(mH(low), gl)
        if gu is not None:
            ga = _plus(ga, -mm(_tri(gu, 0, True), mH(up)))
        assert ga is not None
        ga = _right_solve(mH(u1), _tri(ga, -1, False), upper=False)
        if gu is not None:
            head = ga + _tri(index_last(gu, 0, k), 0, True)
            ga = apply(S.cat, head, index_last(gu, k, n), dim=-1)
        ga = apply(solve_triangular, mH(low), ga, upper=True, unitriangular=True)
        if gu is None:
            ga = apply(S.cat, ga, _zeros_beside(ga, n - k, -1), dim=-1)
    else:
        l1 = index_last(low, 0, k, axis=-2)
        if gu is not None:
            ga = mm(gu, mH(up))
        if gl is not None:
            ga = _plus(ga, -mm(mH(low), _tri(gl, -1, False)))
        assert ga is not None
        ga = apply(solve_triangular, mH(l1), _tri(ga, 0, True), upper=True, unitriangular=True)
        if gl is not None:
            head = ga + _tri(index_last(gl, 0, k, axis=-2), -1, False)
            ga = apply(S.cat, head, index_last(gl, k, m, axis=-2), dim=-2)
        ga = _right_solve(mH(up), ga, upper=False)
        if gl is None:
            ga = apply(S.cat, ga, _zeros_beside(ga, m - k, -2), dim=-2)
    return mm(constant(p), ga)


def _factor_samples() -> tuple:
    return (
        Sample(((3, 3),), structure={0: "invertible"}),
        Sample(((2, 3, 3),), structure={0: "invertible"}),
        Sample(((2, 4),), structure={0: "wide"}),
        Sample(((4, 2),)),
    )


# --- lu_factor: the packed factors --------------------------------------------------------------


def _lu_factor_fwd(a: np.ndarray) -> np.ndarray:
    return column_major(factor(a)[0])


def _lu_factor_vjp(g: Tensor, out: Tensor, a: Tensor) -> tuple:
    m, n = a.shape[-2:]
    k = min(m, n)
    p = permutation(factor(a.data)[1], m, a.dtype)
    low, up = unpacked_factors(out)
    gl = _tri(index_last(g, 0, k) if n > k else g, -1, False)
    gu = _tri(index_last(g, 0, k, axis=-2) if m > k else g, 0, True)
    return (lu_backward(gl, gu, p, low, up),)


lu_factor = defop(
    "lu_factor",
    _lu_factor_fwd,
    _lu_factor_vjp,
    "LinalgLuFactorExBackward0",
    "P L^-H (tril(L^H gL, -1) + triu(gU U^H)) U^-H (square; wide and tall as PyTorch's)",
    kind="linalg",
    signature="linalg.lu_factor(A), lu_factor_ex, torch.lu",
    samples=_factor_samples(),
    to_torch="torch.linalg.lu_factor_ex({0}).LU",
    to_jax="jax.scipy.linalg.lu_factor({0})[0]",
    sym=_no_closed_form("lu_factor"),
    complex="rule",  # (zgetrf's order; the rule's conjugate transposes, PyTorch's)
)


# --- lu: P, L and U apart (L and U packed in one record) -----------------------------------------


def lu_shapes(shape: tuple[int, ...]) -> list[tuple[int, ...]]:
    m, n = shape[-2:]
    k = min(m, n)
    return [(m, k), (k, n)]


def _lu_fwd(a: np.ndarray) -> np.ndarray:
    lu = factor(a)[0]
    m, n = a.shape[-2:]
    k = min(m, n)
    # (the strict lower part kept as is, -0. included, the diagonal filled with ones: ATen's
    # lu_unpack; adding the identity would turn -0. into 0.)
    low = np.where(
        np.tril(np.ones((m, k), dtype=bool), -1), lu[..., :, :k], np.eye(m, k, dtype=a.dtype)
    )
    return pack(low, np.triu(lu[..., :k, :]), lead=a.shape[:-2])


def _lu_vjp(g: Tensor, out: Tensor, a: Tensor) -> tuple:
    shapes = lu_shapes(a.shape)
    low, up = unpack(out, shapes)
    gl, gu = unpack(g, shapes)
    p = permutation(factor(a.data)[1], a.shape[-2], a.dtype)
    return (lu_backward(gl, gu, p, low, up),)


lu = defop(
    "lu",
    _lu_fwd,
    _lu_vjp,
    "LinalgLuBackward0",
    "(L, U): P L^-H (tril(L^H gL, -1) + triu(gU U^H)) U^-H (square)",
    kind="linalg",
    signature="linalg.lu(A)",
    samples=_factor_samples(),
    to_torch=lambda w, a, p: (
        f"torch.cat([t.reshape(*{a[0]}.shape[:-2], -1) for t in torch.linalg.lu({a[0]})[1:]], "
        "dim=-1)"
    ),
    to_jax=lambda w, a, p: (
        f"jnp.concatenate([t.reshape(*{a[0]}.shape[:-2], -1) for t in "
        f"jax.scipy.linalg.lu({a[0]})[1:]], axis=-1)"
    ),
    sym=_no_closed_form("lu"),
    complex="rule",  # (zgetrf's order; the rule's conjugate transposes, PyTorch's)
)


# --- lu_solve -------------------------------------------------------------------------------------


def _lu_solve_fwd(
    lu: np.ndarray, b: np.ndarray, pivots: Any = None, left: bool = True, adjoint: bool = False
) -> np.ndarray:
    piv = np.asarray(pivots)
    if left:
        return column_major(solve_arrays(lu, piv, b, adjoint))
    # X A = B is A^H X^H = B^H (X A^H = B: A X^H = B^H), the result X^H column-major
    x = solve_arrays(lu, piv, np.conj(np.swapaxes(b, -1, -2)), not adjoint)
    return np.conj(np.swapaxes(column_major(x), -1, -2))


def _lu_solve_vjp(
    g: Tensor,
    out: Tensor,
    lu: Tensor,
    b: Tensor,
    pivots: Any = None,
    left: bool = True,
    adjoint: bool = False,
) -> tuple:
    gb = None
    if b.requires_grad:
        gb = apply(lu_solve, lu, g, pivots=pivots, left=left, adjoint=not adjoint)
    if not lu.requires_grad:
        return (None, gb)
    low, up = unpacked_factors(lu)
    if left != adjoint:
        rhs = -(mm(g, mH(out)) if left else mm(mH(g), out))
        gr = apply(solve_triangular, mH(up), rhs, upper=False)
        gl = apply(solve_triangular, mH(low), mm(gr, mH(up)), upper=True, unitriangular=True)
        return (_tri(gl, -1, False) + _tri(gr, 0, True), gb)
    p = constant(permutation(np.asarray(pivots), lu.shape[-1], lu.dtype))
    inner = mm(mm(mH(p), out if left else mH(out)), mH(g) if left else g)
    gr = -mm(inner, p)
    gr = _right_solve(mH(low), gr, upper=True, unit=True)
    gu = _tri(_right_solve(mH(up), mm(mH(low), gr), upper=False), 0, True)
    return (_tri(gr, -1, False) + gu, gb)


def _torch_lu_solve(w: Any, a: list[str], p: dict) -> str:
    piv = w.lit(np.asarray(p["pivots"]) + 1)
    return (
        f"torch.linalg.lu_solve({a[0]}, torch.as_tensor({piv}, dtype=torch.int32), {a[1]}, "
        f"left={bool(p.get('left', True))}, adjoint={bool(p.get('adjoint', False))})"
    )


def _jax_lu_solve(w: Any, a: list[str], p: dict) -> str:
    """jax.scipy.linalg.lu_solve (0-based pivots, as the record's): trans=2 solves with A^H;
    a right-hand solve X A = B is A^T X^T = B^T (X A^H = B: A X^H = B^H)."""
    piv = f"jnp.asarray({w.lit(np.asarray(p['pivots']))}, dtype=jnp.int32)"
    left, adjoint = bool(p.get("left", True)), bool(p.get("adjoint", False))
    lup = f"({a[0]}, {piv})"
    if left:
        return f"jax.scipy.linalg.lu_solve({lup}, {a[1]}, trans={2 if adjoint else 0})"
    bt = f"jnp.swapaxes({a[1]}, -1, -2)"
    if adjoint:
        solved = f"jax.scipy.linalg.lu_solve({lup}, jnp.conj({bt}), trans=0)"
        return f"jnp.conj(jnp.swapaxes({solved}, -1, -2))"
    return f"jnp.swapaxes(jax.scipy.linalg.lu_solve({lup}, {bt}, trans=1), -1, -2)"


lu_solve = defop(
    "lu_solve",
    _lu_solve_fwd,
    _lu_solve_vjp,
    "LinalgLuSolveBackward0",
    "gB = lu_solve(LU, g, adjoint=not adjoint); gLU: PyTorch's linalg_lu_solve_LU",
    kind="linalg",
    signature="linalg.lu_solve(LU, pivots, B, left=True, adjoint=False)",
    samples=(
        Sample(((3, 3), (3, 2)), {"pivots": np.array([2, 1, 2])}, structure={0: "invertible"}),
        Sample(
            ((3, 3), (3, 2)),
            {"pivots": np.array([1, 2, 2]), "adjoint": True},
            structure={0: "invertible"},
        ),
        Sample(
            ((3, 3), (2, 3)),
            {"pivots": np.array([2, 2, 2]), "left": False},
            structure={0: "invertible"},
        ),
        Sample(
            ((3, 3), (2, 3)),
            {"pivots": np.array([0, 2, 2]), "left": False, "adjoint": True},
            structure={0: "invertible"},
        ),
        Sample(
            ((2, 3, 3), (3, 1)),
            {"pivots": np.array([[2, 1, 2], [0, 1, 2]])},
            structure={0: "invertible"},
        ),
    ),
    to_torch=_torch_lu_solve,
    to_jax=_jax_lu_solve,
    complex="rule",  # (A^H for adjoint; the rule's conjugate transposes, PyTorch's)
)
