"""The matrix-function records of torch.linalg: inv, det, slogdet, solve, cholesky, qr, eigh,
svd, svdvals, pinv, cross and cdist.

Their backward rules are PyTorch's (torch/csrc/autograd/FunctionsManual.cpp: linalg_det_backward,
slogdet_backward, linalg_solve_backward, cholesky_backward, linalg_qr_backward,
linalg_eig_backward for the Hermitian case, svd_backward, pinv_backward), written with the
engine's own records so that a gradient is differentiable again. They act on the last two axes
and accept any leading batch axes (the batch axes of a gradient included).

A decomposition with several results (qr, eigh, svd, slogdet) is one record whose value is its
results flattened and concatenated along one last axis (`pack`); the surface takes the results
back out of it as views (`unpack`), so that one node, as in PyTorch, computes them all and its
rule receives the gradients of all of them at once (zeros for the unused ones).

Degenerate inputs behave as in PyTorch: a singular matrix makes inv and solve fail with
PyTorch's message (LAPACK's first zero pivot named), a matrix that is not positive definite makes
cholesky fail naming the leading minor; repeated eigenvalues or singular values give infinite
gradients for the eigenvectors or singular vectors (the formulas divide by their differences);
det's gradient at a singular matrix is 0 in a first-order backward and the adjugate (through the
SVD) when the gradient is itself recorded, as PyTorch computes them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core import primitives as P
from ..core.layout import column_major
from ..core.op import Sample, apply, complex_refusal, defop
from ..core.tensor import Tensor, _GradMode, constant, grad_enabled
from . import binary as B
from . import elementwise as E
from . import lapack32
from . import reduction as R
from . import shape as S
from .linalg import einsum, matmul

# --- helpers: differentiable matrix algebra on the trailing two axes ---------------------------


def mT(t: Tensor) -> Tensor:  # noqa: N802
    return S.transpose_last(t)


def mm(a: Tensor, b: Tensor) -> Tensor:
    return apply(matmul, a, b)


def tsum(t: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    return apply(P.sum, t, dim=dim, keepdim=keepdim)


def eye_like(t: Tensor, n: int) -> Tensor:
    return Tensor(np.eye(n, dtype=t.dtype))


def diag_embed(v: Tensor) -> Tensor:
    """A batch of vectors as a batch of diagonal matrices."""
    return S.unsqueeze(v, -1) * eye_like(v, v.shape[-1])


def diagonal(m: Tensor) -> Tensor:
    """The diagonals of a batch of square matrices."""
    lead = tuple(range(m.ndim - 2))
    k = m.ndim
    return apply(einsum, m, spec=((lead + (k, k),), lead + (k,)))


def tri_mask(t: Tensor, n: int, m: int, k: int = 0, upper: bool = False) -> Tensor:
    ones = np.ones((n, m), dtype=t.dtype)
    return Tensor(np.triu(ones, k) if upper else np.tril(ones, k))


def index_last(t: Tensor, start: int, stop: int, axis: int = -1) -> Tensor:
    """`t[..., start:stop]` (axis -1) or `t[..., start:stop, :]` (axis -2)."""
    tail = (slice(None),) * (-axis - 1)
    return apply(S.index, t, idx=(Ellipsis, slice(start, stop)) + tail)


def safe_divide(num: Tensor, den: Tensor) -> Tensor:
    """num / den, with 0 where both are exactly 0 (an unused gradient over a repeated
    eigenvalue gives 0, as PyTorch's rule does when that gradient is undefined); x / 0 is
    still infinite."""
    both = (num.data == 0) & (den.data == 0)
    if not both.any():
        return num / den
    return num / (den + constant(both.astype(den.dtype)))


def pack(*arrays: np.ndarray, lead: tuple[int, ...]) -> np.ndarray:
    """Results with the same leading axes `lead`, flattened after them and concatenated."""
    k = math.prod(lead)

    def flat(a: np.ndarray) -> np.ndarray:
        # an empty batch (a 0 in lead) leaves -1 undetermined: the trailing size is the shape's
        return np.reshape(a, lead + ((a.size // k) if k else math.prod(a.shape[len(lead) :]),))

    return np.concatenate([flat(a) for a in arrays], axis=-1)


def unpack(t: Tensor, shapes: list[tuple[int, ...]]) -> list[Tensor]:
    """The results of a packed value (or of its gradient, with more leading axes): each a view
    of shape leading axes + its trailing shape."""
    lead = t.shape[:-1]
    out, start = [], 0
    for shape in shapes:
        n = math.prod(shape)
        piece = index_last(t, start, start + n)
        out.append(apply(S.reshape, piece, shape=lead + tuple(shape), label="ViewBackward0"))
        start += n
    return out


# --- singular matrices: PyTorch's messages ------------------------------------------------------


def lu_info(a: np.ndarray) -> int:
    """LAPACK getrf's `info` for one square matrix: the (1-based) index of the first exactly
    zero pivot of its LU factorization with partial pivoting, 0 if there is none. Blocked: a
    panel of columns at a time, the rest updated by one matrix product per panel; it stops at
    the first zero pivot (the columns before it are factored exactly as LAPACK factors them)."""
    cplx = a.dtype.kind == "c"
    a = np.array(a, dtype=np.complex128 if cplx else np.float64)
    n = a.shape[0]
    nb = 32
    for k0 in range(0, n, nb):
        k1 = min(k0 + nb, n)
        for k in range(k0, k1):
            col = a[k:, k]
            # (zgetrf's pivot: the largest |re| + |im|, BLAS izamax's measure)
            size = np.abs(col.real) + np.abs(col.imag) if cplx else np.abs(col)
            p = k + int(np.argmax(size))
            if p != k:
                a[[k, p]] = a[[p, k]]
            piv = a[k, k]
            if piv == 0:
                return k + 1
            a[k + 1 :, k] /= piv
            a[k + 1 :, k + 1 : k1] -= np.outer(a[k + 1 :, k], a[k, k + 1 : k1])
        if k1 < n:
            # U12 = L11^-1 A12 (unit lower triangular), then the trailing update.
            for k in range(k0, k1):
                a[k + 1 : k1, k1:] -= np.outer(a[k + 1 : k1, k], a[k, k1:])
            a[k1:, k1:] -= a[k1:, k0:k1] @ a[k0:k1, k1:]
    return 0


def _batch_prefix(shape: tuple[int, ...], i: int) -> str:
    return f"(Batch element {i}): " if len(shape) > 2 else ""


# torch.linalg.LinAlgError (torch._C._LinAlgError, a RuntimeError): what LAPACK's failures raise
LINALG_ERROR = "_LinAlgError"


def singular_error(a: np.ndarray, fn: str) -> GradcliError:
    """The error PyTorch raises for the first singular matrix of a batch."""
    flat = a.reshape((-1,) + a.shape[-2:])
    for i, m in enumerate(flat):
        info = lu_info(m)
        if info:
            pre = _batch_prefix(a.shape, i)
            if fn == "linalg.solve":
                return GradcliError(
                    f"torch.linalg.solve: {pre}The solver failed because the input matrix is "
                    "singular."
                ).mirror(LINALG_ERROR)
            return GradcliError(
                f"{fn}: {pre}The diagonal element {info} is zero, the inversion could not be "
                "completed because the input matrix is singular."
            ).mirror(LINALG_ERROR)
    return GradcliError(f"{fn}: the input matrix is singular").mirror(LINALG_ERROR)


def np_svd(a: np.ndarray, **kwargs: Any) -> Any:
    """NumPy's SVD, with PyTorch's LinAlgError where LAPACK fails (a NaN in the matrix)."""
    try:
        return np.linalg.svd(a, **kwargs)
    except np.linalg.LinAlgError:
        flat = a.reshape((-1,) + a.shape[-2:])
        bad = [i for i, m in enumerate(flat) if not np.all(np.isfinite(m))]
        pre = _batch_prefix(a.shape, bad[0] if bad else 0)
        why = (
            "the input matrix contained non-finite values."
            if bad
            else "the input matrix is ill-conditioned or has too many repeated singular values."
        )
        raise GradcliError(
            f"linalg.svd: {pre}The algorithm failed to converge because {why}"
        ).mirror(LINALG_ERROR) from None


def _nan_where_singular(f: Any, a: np.ndarray, *rest: np.ndarray) -> np.ndarray:
    """`f` on each matrix of a batch, NaN for the singular ones (inside rules, where PyTorch's
    LU solve gives infinities and NaNs rather than an error)."""
    shape = np.broadcast_shapes(a.shape[:-2], *(r.shape[:-2] for r in rest))
    a = np.broadcast_to(a, shape + a.shape[-2:])
    rest = tuple(np.broadcast_to(r, shape + r.shape[-2:]) for r in rest)
    eye = np.eye(a.shape[-1], dtype=a.dtype)
    out = np.array(f(np.broadcast_to(eye, a.shape), *rest))  # the result's shape and dtype
    for idx in np.ndindex(*shape):
        try:
            out[idx] = f(a[idx], *(r[idx] for r in rest))
        except np.linalg.LinAlgError:
            out[idx] = np.nan
    return out


# --- inv ------------------------------------------------------------------------------------------


def _inv_fwd(a: np.ndarray, strict: bool = True) -> np.ndarray:
    # laid out column-major as LAPACK leaves it (PyTorch's strides, and the order a later
    # float32 matrix product reads it in)
    exact = lapack32.inv(a)  # float32: MKL's order, PyTorch's bits (None where not measured)
    if exact is not None:
        return column_major(exact)
    try:
        return column_major(np.linalg.inv(a))
    except np.linalg.LinAlgError:
        if strict:
            raise singular_error(a, "linalg.inv") from None
        return column_major(_nan_where_singular(np.linalg.inv, a))


def _inv_vjp(g: Tensor, out: Tensor, a: Tensor, strict: bool = True) -> tuple:
    t = mT(out)
    return (-mm(t, mm(g, t)),)


def _inv_jvp(dots: tuple, out: Tensor, a: Tensor, strict: bool = True) -> Tensor:
    return -mm(out, mm(dots[0], out))


def _square_samples(structure: str, shapes: tuple = ((3, 3), (2, 2, 2), (1, 1))) -> tuple:
    return tuple(Sample((s,), structure={0: structure}) for s in shapes)


inv = defop(
    "inv",
    _inv_fwd,
    _inv_vjp,
    "LinalgInvExBackward0",
    "-out^T @ g @ out^T",
    kind="linalg",
    jvp=_inv_jvp,
    signature="linalg.inv(A), inverse(A)",
    samples=_square_samples("invertible"),
    to_torch="torch.linalg.inv",
    to_jax="jnp.linalg.inv",
    complex="holo",  # (holomorphic: the rule written with transposes, conjugated by the engine)
)


def inverse_of(a: Tensor) -> Tensor:
    """A^-1 inside a rule (NaN for a singular matrix rather than an error)."""
    return apply(inv, a, strict=False)


# --- det, slogdet -------------------------------------------------------------------------------


def _prod_others(s: Tensor) -> Tensor:
    """For each i, the product of the s_j with j != i (exact with zeros)."""
    n = s.shape[-1]
    rows = S.unsqueeze(s, -2) * (1 - eye_like(s, n)) + eye_like(s, n)
    return apply(R.prod, rows, dim=-1, keepdim=False)


def _det_svd_grad(g: Tensor, a: Tensor) -> Tensor:
    """det's gradient through the SVD, A = U diag(s) Vh (ATen's form for a singular matrix):
    d det / dA = det(U) det(Vh) U diag(prod_{j != i} s_j) Vh, the products of the others as
    ATen's prod_safe_zeros_backward builds them (those before times those after)."""
    u, s, vh = unpack(apply(svd, a, full_matrices=False, uv_used=True), _svd_shapes(a.shape, False))
    alpha = apply(det, u) * apply(det, vh) * g
    d = S.unsqueeze(alpha, -1) * R.prod_others_recorded(s, (s.ndim - 1,))
    return mm(u * S.unsqueeze(d, -2), vh)


def _det_vjp(g: Tensor, out: Tensor, a: Tensor) -> tuple:
    n = a.shape[-1]
    if a.data.size == 0:
        return (None,)
    if n == 1:
        # d det / dA of a 1 x 1 matrix is 1: PyTorch passes the upstream gradient through,
        # exactly and at any order (nothing of A in it, so no graph beyond g's).
        return (S.unsqueeze(S.unsqueeze(g, -1), -1),)
    if _GradMode.transforms:
        # Inside a torch.func transform PyTorch's tensors are functorch wrappers, which ATen's
        # linalg_det_backward takes as tensor subclasses: the gradient always goes through the
        # SVD there (other last bits than the LU solve; NaN at second order where singular
        # values repeat, e.g. at the identity, as PyTorch's)
        return (_det_svd_grad(g, a),)
    gd = S.unsqueeze(S.unsqueeze(g * out, -1), -1)
    if not grad_enabled():
        # First order: ATen's LU solve of diag(det * g) against the forward's factorisation
        # (of A^T), a singular matrix's zero pivots nudged to epsilon (det is C^1): so 0,
        # signed, at an exactly singular matrix. Float32 and float64 by their measured
        # orders; otherwise g det A^-T.
        c = (out.data * g.data).astype(a.dtype, copy=False)
        exact = lapack32.det_grad(a.data, c, g.data, nudge=True)
        if exact is None and a.dtype == np.float64 and g.data.shape == out.data.shape:
            exact = lapack32.det_grad64(a.data, c)
        if exact is not None:
            return (constant(exact),)
        zero = out.data == 0
        if not zero.any():
            return (gd * mT(inverse_of(a)),)
        safe = np.where(zero[..., None, None], np.eye(n, dtype=a.dtype), a.data)
        return (gd * mT(inverse_of(constant(safe))),)
    eps = np.finfo(a.dtype).eps
    singular = np.abs(out.data) < 100 * eps
    if not singular.any():
        return (gd * mT(inverse_of(a)),)
    if a.data.dtype.kind == "c":
        raise complex_refusal("the recorded gradient of det at a singular complex matrix")
    sing = _det_svd_grad(g, a)
    if singular.all():
        return (sing,)
    mask = constant(np.broadcast_to(singular[..., None, None], sing.shape))
    return (apply(B.where, mask, sing, gd * mT(inverse_of(a))),)


def _det_jvp(dots: tuple, out: Tensor, a: Tensor) -> Tensor:
    # d det = det tr(A^-1 dA)
    return out * tsum(diagonal(mm(inverse_of(a), dots[0])), -1)


def _det_fwd(a: np.ndarray) -> np.ndarray:
    exact = lapack32.det(a)
    if exact is None:
        exact = lapack32.det64(a)
    return np.linalg.det(a) if exact is None else exact


det = defop(
    "det",
    _det_fwd,
    _det_vjp,
    "LinalgDetBackward0",
    "g det(A) A^-T (the adjugate through the SVD where A is singular)",
    kind="linalg",
    jvp=_det_jvp,
    signature="linalg.det(A), det(A)",
    samples=_square_samples("invertible") + _square_samples("any", ((3, 3), (2, 4, 4))),
    to_torch="torch.linalg.det",
    to_jax="jnp.linalg.det",
    complex="holo",  # (holomorphic: the rule written with transposes, conjugated by the engine)
)


def _slogdet_fwd(a: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "c":  # (the sign a unit complex number; log|det| packed as complex)
        sign, logabs = np.linalg.slogdet(a)
        return np.stack([sign, logabs.astype(a.dtype)], axis=-1)
    exact = lapack32.slogdet(a)
    if exact is None:
        exact = lapack32.slogdet64(a)
    if exact is not None:
        return exact
    sign, logabs = np.linalg.slogdet(a)
    return np.stack([sign, logabs], axis=-1).astype(a.dtype, copy=False)


def _slogdet_complex_vjp(g: Tensor, out: Tensor, a: Tensor) -> Tensor:
    """PyTorch's slogdet_backward of a complex matrix: A^-H diag(g_logabsdet + i Im(g_sign
    conj(sign))), as a solve with A^H (measured against PyTorch: its sign's term)."""
    from . import complexnum as CN

    n = a.shape[-1]
    sign = apply(S.index, out, idx=(Ellipsis, 0))
    gs = apply(S.index, g, idx=(Ellipsis, 0))
    gl = apply(CN.real, apply(S.index, g, idx=(Ellipsis, 1)))
    turn = apply(CN.imag, gs * apply(CN.conj, sign))
    total = apply(CN.complex_, gl, turn)
    vec = apply(P.expand, S.unsqueeze(total, -1), shape=total.shape + (n,))
    return apply(solve, _mh(a), diag_embed(vec))


def _slogdet_vjp(g: Tensor, out: Tensor, a: Tensor) -> tuple:
    if a.data.dtype.kind == "c":
        return (_slogdet_complex_vjp(g, out, a),)
    if not grad_enabled():
        exact = lapack32.det_grad(a.data, np.ascontiguousarray(g.data[..., 1]))
        if exact is not None:  # float32: ATen's LU solve of diag(g), its bits
            return (constant(exact),)
    if grad_enabled():
        # ATen's slogdet_backward in grad mode (create_graph, or inside a torch.func
        # transform): solve(A^T, diag(g)), A factored again (its bits, not g A^-T's); a
        # checked linalg.solve, so a singular matrix raises its LinAlgError there (slogdet is
        # not differentiable at one: ATen has no singular branch as det's)
        n = a.shape[-1]
        gl = apply(S.index, g, idx=(Ellipsis, 1))
        vec = apply(P.expand, S.unsqueeze(gl, -1), shape=gl.shape + (n,))
        return (apply(solve, mT(a), diag_embed(vec)),)
    gl = apply(S.index, g, idx=(Ellipsis, 1, None, None))
    return (gl * mT(inverse_of(a)),)


slogdet = defop(
    "slogdet",
    _slogdet_fwd,
    _slogdet_vjp,
    "LinalgSlogdetBackward0",
    "(sign, logabsdet): g_logabsdet A^-T (sign has no gradient)",
    kind="linalg",
    signature="linalg.slogdet(A), slogdet(A), logdet(A)",
    samples=_square_samples("invertible") + _square_samples("any", ((3, 3),)),
    to_torch="torch.stack(torch.linalg.slogdet({0}), dim=-1)",
    to_jax="jnp.stack(jnp.linalg.slogdet({0}), axis=-1)",
    complex="rule",  # (`_slogdet_complex_vjp`)
)


# --- solve ----------------------------------------------------------------------------------------


def _solve_fwd(
    a: np.ndarray,
    b: np.ndarray,
    strict: bool = True,
    adjoint: bool = False,
    vector: bool = False,
) -> np.ndarray:
    # adjoint: `a` is the transpose of the user's A (solve(A, B, left=False)), which ATen
    # solves with A's own factorisation, transposed
    if adjoint:
        exact = lapack32.solve_grad_b(np.swapaxes(a, -1, -2), b)
    else:
        exact = lapack32.solve(a, b)
    if exact is None:
        try:
            exact = np.linalg.solve(a, b)
        except np.linalg.LinAlgError:
            if strict:
                raise singular_error(a, "linalg.solve") from None
            exact = _nan_where_singular(np.linalg.solve, a, b)
    # laid out as ATen allocates it: column-major (transposed back, row-major for left=False);
    # `vector`, B a batch of vectors (a column each here): ATen lays out the result without
    # that column, its last two dimensions (batch, n) as one column-major matrix
    if vector:
        return column_major(exact[..., 0])[..., None]
    return column_major(exact)


def _solve_vjp(
    g: Tensor,
    out: Tensor,
    a: Tensor,
    b: Tensor,
    strict: bool = True,
    adjoint: bool = False,
    vector: bool = False,
) -> tuple:
    exact = None if grad_enabled() or adjoint else lapack32.solve_grad_b(a.data, g.data)
    # float32, first order: ATen's LU solve with A's factorisation, adjoint (its bits)
    gb = apply(solve, mT(a), g, strict=False) if exact is None else constant(exact)
    ga = -mm(gb, mT(out)) if a.requires_grad else None
    return (ga, gb if b.requires_grad else None)


solve = defop(
    "solve",
    _solve_fwd,
    _solve_vjp,
    "LinalgSolveExBackward0",
    "gB = A^-T g, gA = -gB X^T",
    kind="linalg",
    signature="linalg.solve(A, B)",
    samples=(
        Sample(((3, 3), (3, 2)), structure={0: "invertible"}),
        Sample(((2, 3, 3), (3, 1)), structure={0: "invertible"}),
        Sample(((3, 3), (2, 3, 2)), structure={0: "invertible"}),
    ),
    to_torch="torch.linalg.solve",
    to_jax="jnp.linalg.solve",
    complex="holo",  # (holomorphic: the rule written with transposes, conjugated by the engine)
)


# --- solve_triangular -----------------------------------------------------------------------------


def _row_major(a: np.ndarray) -> bool:
    """Each matrix of `a` laid out row by row (a dense 1 x 1 counts)."""
    n, item = a.shape[-1], a.itemsize
    return a.shape[-2] <= 1 or (a.strides[-1] == item or n == 1) and a.strides[-2] == n * item


def _solve_triangular_fwd(
    a: np.ndarray,
    b: np.ndarray,
    upper: bool = False,
    unitriangular: bool = False,
    lapack_layout: bool = True,
) -> np.ndarray:
    """A X = B with A triangular, by substitution as LAPACK's reference trsm orders it (one
    column of A at a time subtracted from the rows still to solve); the other triangle of A is
    never read. A zero on the diagonal gives infinities and NaNs, as trsm (no error). X is
    column-major as ATen returns it (`lapack_layout=False`: row-major, for X A = B, whose
    result is this one transposed)."""
    # float32: MKL's order (None: not measured); ATen hands MKL a row-major A as its transpose
    if lapack_layout:
        exact = lapack32.trsm(a, b, upper, unitriangular, transposed=_row_major(a))
    elif _row_major(np.swapaxes(a, -1, -2)):  # X A = B as A^T X^T = B^T, A row-major
        exact = lapack32.trsm(a, b, upper, unitriangular, right=True)
    else:
        exact = None
    if exact is not None:
        return column_major(exact) if lapack_layout else exact
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, shape + a.shape[-2:])
    x = np.array(np.broadcast_to(b, shape + b.shape[-2:]), dtype=np.result_type(a, b))
    n = a.shape[-1]
    # float64 dtrsm with several right-hand sides multiplies by the diagonal's reciprocal (the
    # nearest order past the measured sizes: lapack32.TRSM64_MULTI_MAX)
    recip = x.dtype == np.float64 and lapack_layout and x.shape[-1] > 1
    order = range(n - 1, -1, -1) if upper else range(n)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for k in order:
            if not unitriangular:
                if recip:
                    x[..., k, :] *= 1.0 / a[..., k, k, None]
                else:
                    x[..., k, :] /= a[..., k, k, None]
            rows = slice(0, k) if upper else slice(k + 1, n)
            x[..., rows, :] -= a[..., rows, k, None] * x[..., k, None, :]
    return column_major(x) if lapack_layout else x


def _solve_triangular_vjp(
    g: Tensor,
    out: Tensor,
    a: Tensor,
    b: Tensor,
    upper: bool = False,
    unitriangular: bool = False,
    lapack_layout: bool = True,
) -> tuple:
    # X = A^-1 B: gB = A^-H g (A^H is triangular the other way), gA = -gB X^H on A's triangle
    # (conjugate transposes: PyTorch's rule, its conjugate Wirtinger gradient of complex ones).
    gb = apply(solve_triangular, _mh(a), g, upper=not upper, unitriangular=unitriangular)
    ga = None
    if a.requires_grad:
        ga = _triangle_grad(gb, out, a.shape[-1], upper, unitriangular)
    return (ga, gb if b.requires_grad else None)


def _triangle_grad(gb: Tensor, out: Tensor, n: int, upper: bool, unitriangular: bool) -> Tensor:
    """A triangular solve's gradient for its matrix, -gB X^T on the triangle it reads: a unit
    diagonal is not read, so no gradient there either; +0 off the triangle (as PyTorch's tril
    of the product: a product with a mask would give -0)."""
    k = (1 if upper else -1) if unitriangular else 0
    keep = tri_mask(out, n, n, k, upper=upper).data.astype(bool)
    zero = Tensor(np.zeros((), dtype=out.dtype))
    return apply(B.where, Tensor(keep), -mm(gb, _mh(out)), zero)


solve_triangular = defop(
    "solve_triangular",
    _solve_triangular_fwd,
    _solve_triangular_vjp,
    "LinalgSolveTriangularBackward0",
    "gB = A^-T g, gA = -gB X^T on A's triangle",
    kind="linalg",
    signature="linalg.solve_triangular(A, B, upper=..., unitriangular=False)",
    samples=(
        Sample(((3, 3), (3, 2)), {"upper": False}, structure={0: "invertible"}),
        Sample(((3, 3), (3, 2)), {"upper": True}, structure={0: "invertible"}),
        Sample(((2, 3, 3), (3, 1)), {"upper": False}, structure={0: "invertible"}),
        Sample(((3, 3), (2, 3, 2)), {"upper": True, "unitriangular": True}, low=-0.5, high=0.5),
    ),
    to_torch=lambda w, args, p: (
        f"torch.linalg.solve_triangular({args[0]}, {args[1]}, upper={bool(p.get('upper'))}, "
        f"unitriangular={bool(p.get('unitriangular'))})"
    ),
    to_jax=lambda w, args, p: (
        f"jax.scipy.linalg.solve_triangular({args[0]}, {args[1]}, "
        f"lower={not p.get('upper')}, unit_diagonal={bool(p.get('unitriangular'))})"
    ),
    complex="rule",  # (`_solve_triangular_vjp`: conjugate transposes, +0 off the triangle)
)


# --- triangular_solve (the deprecated torch.triangular_solve) ----------------------------------
# The solution X of op(A) X = B (op(A) = A^T with transpose): linalg.solve_triangular's forward
# and reverse rule on op(A), but PyTorch's own forward-mode formula (triangular_solve_jvp, the
# generic solve rule): dX = op(A)^-1 (dB - dA X) with the tangent dA as given, neither
# restricted to A's triangle (nor its diagonal with unitriangular) nor transposed. That is not
# the derivative where the tangent reaches what the solve never reads, or with transpose; it is
# what PyTorch prints (jvp, jacfwd, a Hessian's outer pass).


def _triangular_solve_fwd(
    b: np.ndarray,
    a: np.ndarray,
    upper: bool = True,
    transpose: bool = False,
    unitriangular: bool = False,
) -> np.ndarray:
    # ATen copies A column-major for trsm: 'N' on that copy, or 'T' (A^T, row-major), whose
    # layout decides MKL's order (float32)
    a = column_major(np.array(a))
    coef = np.swapaxes(a, -1, -2) if transpose else a
    return _solve_triangular_fwd(coef, b, upper != transpose, unitriangular)


def _triangular_solve_vjp(
    g: Tensor,
    out: Tensor,
    b: Tensor,
    a: Tensor,
    upper: bool = True,
    transpose: bool = False,
    unitriangular: bool = False,
) -> tuple:
    # linalg.solve_triangular's rule on op(A) (its gradient on op(A)'s triangle, transposed
    # back onto A's)
    coef = mT(a) if transpose else a
    up = upper != transpose
    gb = apply(solve_triangular, mT(coef), g, upper=not up, unitriangular=unitriangular)
    ga = None
    if a.requires_grad:
        ga = _triangle_grad(gb, out, a.shape[-1], up, unitriangular)
        if transpose:
            ga = mT(ga)
    return (gb if b.requires_grad else None, ga)


def _triangular_solve_jvp(
    dots: tuple,
    out: Tensor,
    b: Tensor,
    a: Tensor,
    upper: bool = True,
    transpose: bool = False,
    unitriangular: bool = False,
) -> Tensor | None:
    db, da = dots
    if db is None and da is None:
        return None
    rhs = db if da is None else (-mm(da, out) if db is None else db - mm(da, out))
    coef = mT(a) if transpose else a
    return apply(solve_triangular, coef, rhs, upper=upper != transpose, unitriangular=unitriangular)


triangular_solve = defop(
    "triangular_solve",
    _triangular_solve_fwd,
    _triangular_solve_vjp,
    "TriangularSolveBackward0",
    "gB = op(A)^-T g, gA = -gB X^T on A's triangle; forward mode PyTorch's dX = "
    "op(A)^-1 (dB - dA X), dA as given",
    kind="linalg",
    jvp=_triangular_solve_jvp,
    signature="triangular_solve(b, A, upper=True, transpose=False, unitriangular=False)",
    samples=(
        Sample(((3, 2), (3, 3)), {"upper": True}, structure={1: "invertible"}),
        Sample(((3, 2), (3, 3)), {"upper": False, "transpose": True}, structure={1: "invertible"}),
        Sample(
            ((2, 3, 1), (3, 3)),
            {"upper": True, "transpose": True, "unitriangular": True},
            low=-0.5,
            high=0.5,
        ),
    ),
    to_torch=lambda w, args, p: (
        f"torch.triangular_solve({args[0]}, {args[1]}, upper={bool(p.get('upper', True))}, "
        f"transpose={bool(p.get('transpose'))}, "
        f"unitriangular={bool(p.get('unitriangular'))}).solution"
    ),
    to_jax=lambda w, args, p: (
        f"jax.scipy.linalg.solve_triangular({args[1]}, {args[0]}, "
        f"trans={1 if p.get('transpose') else 0}, lower={not p.get('upper', True)}, "
        f"unit_diagonal={bool(p.get('unitriangular'))})"
    ),
)


# --- cholesky -----------------------------------------------------------------------------------


def not_positive_definite(a: np.ndarray) -> GradcliError:
    """PyTorch's error for the first matrix of a batch that is not positive definite, naming
    the order of its first leading minor that is not (found by bisection: LAPACK's potrf
    fails on a leading block exactly when it fails on the whole matrix at that order)."""
    flat = a.reshape((-1,) + a.shape[-2:])
    for i, m in enumerate(flat):
        try:
            np.linalg.cholesky(m)
            continue
        except np.linalg.LinAlgError:
            pass
        lo, hi = 1, m.shape[-1]  # the order is in [lo, hi]
        while lo < hi:
            mid = (lo + hi) // 2
            try:
                np.linalg.cholesky(m[:mid, :mid])
                lo = mid + 1
            except np.linalg.LinAlgError:
                hi = mid
        return GradcliError(
            f"linalg.cholesky: {_batch_prefix(a.shape, i)}The factorization could not be "
            "completed because the input is not positive-definite (the leading minor of order "
            f"{lo} is not positive-definite)."
        ).mirror(LINALG_ERROR)
    return GradcliError("linalg.cholesky: the input is not positive-definite").mirror(LINALG_ERROR)


def _cholesky_fwd(a: np.ndarray, upper: bool = False) -> np.ndarray:
    """L, or U = L(A^H)^H (LAPACK's upper factor reads A's upper triangle), column-major as
    ATen returns either."""
    if not upper:
        return column_major(_cholesky_lower(a))
    low = _cholesky_lower(np.conj(np.swapaxes(a, -1, -2)))
    up = np.conj(np.swapaxes(low, -1, -2))
    if up.dtype.kind == "c":
        up.imag += 0.0  # (LAPACK's upper factor: +0 imaginary parts where conj gave -0)
    return column_major(up)


def _cholesky_lower(a: np.ndarray) -> np.ndarray:
    if not np.all(np.isfinite(a)):
        raise GradcliError(
            "linalg.cholesky: The factorization could not be completed because the input is "
            "not positive-definite (the leading minor of order 1 is not positive-definite)."
        ).mirror(LINALG_ERROR)
    try:
        return np.linalg.cholesky(a)
    except np.linalg.LinAlgError:
        raise not_positive_definite(a) from None


def _cholesky_vjp(g: Tensor, out: Tensor, a: Tensor, upper: bool = False) -> tuple:
    # gA = L^-H Phi L^-1 with Phi = tril(L^H gL) with its diagonal halved, made Hermitian
    # (upper: the same with L = U^H, gL = gU^H); of complex matrices PyTorch's conjugate
    # Wirtinger gradient (the record's complex="rule"), of real ones the transposes
    if upper:
        out, g = _mh(out), _mh(g)
    n = a.shape[-1]
    lh = _mh(out)
    p = mm(lh, g) * tri_mask(out, n, n)
    phi = (p + _mh(p * tri_mask(out, n, n, -1))) * 0.5
    x = apply(solve, lh, phi, strict=False)  # L^-H Phi
    return (mT(apply(solve, mT(out), mT(x), strict=False)),)  # (x L^-1)


def _cholesky_jvp(dots: tuple, out: Tensor, a: Tensor, upper: bool = False) -> Tensor:
    # PyTorch's cholesky_jvp: X = L^-1 dA L^-H with the tangent dA as given (its formula
    # assumes dA Hermitian and reads all of it; the VJP's transpose symmetrized it, which
    # differs for a tangent that is not: jacfwd's basis, a Hessian's outer pass), then
    # dL = L (tril(X) - diag(X) / 2): a tril (+0 above) less the halved diagonal; upper:
    # L = U^H, the tangent dL^H
    if upper:
        return _mh(_cholesky_jvp(dots, _mh(out), a))
    n = out.shape[-1]
    x = apply(solve_triangular, out, dots[0], upper=False)
    x = _mh(apply(solve_triangular, out, _mh(x), upper=False))
    low = Tensor(np.tril(np.ones((n, n), dtype=bool)))
    x = apply(B.where, low, x, Tensor(np.zeros((), dtype=x.dtype))) - diag_embed(diagonal(x) * 0.5)
    return mm(out, x)


cholesky = defop(
    "cholesky",
    _cholesky_fwd,
    _cholesky_vjp,
    "LinalgCholeskyExBackward0",
    "L^-T Phi(L^T g) L^-1 (Phi: lower triangle, diagonal halved, symmetrized)",
    kind="linalg",
    jvp=_cholesky_jvp,
    signature="linalg.cholesky(A, upper=False)",
    samples=_square_samples("spd"),
    to_torch="torch.linalg.cholesky",
    to_jax="jnp.linalg.cholesky",
    complex="rule",  # (`_cholesky_vjp`: conjugate transposes, PyTorch's formula)
)


# --- cholesky_inverse ----------------------------------------------------------------------------


def _cholesky_inverse_fwd(a: np.ndarray, upper: bool = False) -> np.ndarray:
    """(L L^H)^-1 from a Cholesky factor, reading only its triangle (LAPACK's potri: the
    triangle inverted, then L^-H L^-1, the result symmetric)."""
    f = np.triu(a) if upper else np.tril(a)
    lower = np.conj(np.swapaxes(f, -1, -2)) if upper else f
    try:
        linv = np.linalg.inv(lower)
    except np.linalg.LinAlgError:
        raise GradcliError(
            "cholesky_inverse: The diagonal element of the input is zero, the inverse could not "
            "be computed."
        ).mirror("RuntimeError") from None
    x = np.conj(np.swapaxes(linv, -1, -2)) @ linv
    low = np.tril(x)
    out = low + np.conj(np.swapaxes(np.tril(x, -1), -1, -2))
    if out.dtype.kind == "c":
        # (zpotri's lauum computes each diagonal entry as a real number: imaginary part 0)
        d = np.diagonal(out, axis1=-2, axis2=-1).real
        idx = np.arange(out.shape[-1])
        out[..., idx, idx] = d
    return column_major(out)


def _mh(t: Tensor) -> Tensor:
    return mT(t.conj()) if t.data.dtype.kind == "c" else mT(t)


def _cholesky_inverse_vjp(g: Tensor, out: Tensor, a: Tensor, upper: bool = False) -> tuple:
    # PyTorch's cholesky_inverse_backward: X (g + g^H) X, then -L that (upper: L on the left)
    common = mm(out, mm(g + _mh(g), out))
    return (-mm(a, common) if upper else -mm(common, a),)


def _cholesky_inverse_jvp(dots: tuple, out: Tensor, a: Tensor, upper: bool = False) -> Tensor:
    # PyTorch's cholesky_inverse_jvp: P = -X dCF X CF (CF = F or F^H, dCF = dF^H or dF), P + P^H
    df = dots[0]
    cf = a if upper else _mh(a)
    dcf = _mh(df) if upper else df
    p = mm(mm(mm(-out, dcf), out), cf)
    return p + _mh(p)


cholesky_inverse = defop(
    "cholesky_inverse",
    _cholesky_inverse_fwd,
    _cholesky_inverse_vjp,
    "CholeskyInverseBackward0",
    "-(X (g + g^T) X) L (upper: -L (X (g + g^T) X))",
    kind="linalg",
    jvp=_cholesky_inverse_jvp,
    signature="cholesky_inverse(L, upper=False)",
    # a Cholesky factor (its other triangle zero); PyTorch's gradient is the derivative of
    # (F F^H)^-1 in every entry of F, which the forward does not read outside the triangle
    # (tests/ops: BEYOND_DERIVATIVE), so no second order
    samples=tuple(
        Sample((s,), {"upper": up}, structure={0: "upper" if up else "lower"}, hessian=False)
        for s, up in (((3, 3), False), ((2, 2, 2), False), ((1, 1), False), ((3, 3), True))
    ),
    to_torch=lambda w, a, p: f"torch.cholesky_inverse({a[0]}, upper={p.get('upper', False)})",
    to_jax=lambda w, a, p: (
        f"jnp.linalg.inv(jnp.swapaxes(jnp.triu({a[0]}), -1, -2) @ jnp.triu({a[0]}))"
        if p.get("upper", False)
        else f"jnp.linalg.inv(jnp.tril({a[0]}) @ jnp.swapaxes(jnp.tril({a[0]}), -1, -2))"
    ),
    complex="rule",  # (PyTorch's formulas with conjugate transposes, `_mh`)
)


# --- qr -------------------------------------------------------------------------------------------


def _qr_shapes(shape: tuple[int, ...], mode: str) -> list[tuple[int, ...]]:
    m, n = shape[-2:]
    k = min(m, n)
    if mode == "r":
        return [(0,), (k, n)]
    if mode == "complete":
        return [(m, m), (m, n)]
    return [(m, k), (k, n)]


def _qr_mkl(a: np.ndarray, mode: str) -> np.ndarray | None:
    """On the avx2 kernel family, MKL's Q and R for small matrices (`core.mklgels.qr`), packed;
    None where that model does not hold for every matrix of the batch."""
    from ..core import cpu, mklgels

    if not cpu.mkl_avx2() or a.size == 0 or a.dtype.kind == "c":
        return None
    if not mklgels.qr_fits(a.shape[-2], a.shape[-1], a.dtype, mode):
        return None
    # per-matrix loops: a large batch keeps NumPy's (its last bits differ)
    if a.size > mklgels.MAX_ELEMENTS or a.size // (a.shape[-2] * a.shape[-1]) > 2048:
        return None
    lead = a.shape[:-2]
    mats = a.reshape((-1,) + a.shape[-2:])
    qs, rs = [], []
    for mat in mats:
        got = mklgels.qr(np.ascontiguousarray(mat), mode)
        if got is None:
            return None
        qs.append(got[0])
        rs.append(got[1])
    q = np.stack(qs).reshape(lead + qs[0].shape) if mode != "r" else np.zeros(lead + (0,), a.dtype)
    return pack(q, np.stack(rs).reshape(lead + rs[0].shape), lead=lead)


def _qr_fwd(a: np.ndarray, mode: str = "reduced") -> np.ndarray:
    lead = a.shape[:-2]
    mkl = _qr_mkl(a, mode)
    if mkl is not None:
        return mkl
    if mode == "r":
        r = np.linalg.qr(a, mode="r")
        return pack(np.zeros(lead + (0,), a.dtype), r, lead=lead)
    q, r = np.linalg.qr(a, mode=mode)
    return pack(q, r, lead=lead)


def _qr_vjp(g: Tensor, out: Tensor, a: Tensor, mode: str = "reduced") -> tuple:
    m, n = a.shape[-2:]
    if mode == "r":
        raise GradcliError(
            "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
            "Please use linalg.qr(A, mode='reduced') if you are going to differentiate "
            "through linalg.qr."
        )
    if mode == "complete" and m > n:
        raise GradcliError(
            "The QR decomposition is not differentiable when mode='complete' and nrows > ncols."
        )
    shapes = _qr_shapes(a.shape, mode)
    q, r = unpack(out, shapes)
    gq, gr = unpack(g, shapes)
    # (complex: conjugate transposes, PyTorch's formula; real: transposes)
    ga = mm(gr, _mh(r)) - mm(_mh(q), gq)
    if m >= n:
        k = n
        x = ga * tri_mask(ga, k, k, upper=True)
        # x + x^H with the diagonal's real part halved (the imaginary parts cancel)
        eye = eye_like(ga, k)
        sym = x + _mh(x) - (x * eye + _mh(x) * eye) * 0.5
        ga = mm(q, sym) + gq
        # gA R^-H: the conjugate transpose of R^-1 gA^H
        return (_mh(apply(solve, r, _mh(ga), strict=False)),)
    xs = -ga
    ret = (xs - _mh(xs)) * tri_mask(ga, m, m)
    if ga.data.dtype.kind == "c":  # (the diagonal's imaginary part halved)
        eye = eye_like(ga, m)
        ret = ret - ret * eye * 0.5
    ga = mm(q, ret)
    r1 = index_last(r, 0, m)
    ga = _mh(apply(solve, r1, _mh(ga), strict=False))
    zeros = Tensor(np.zeros(ga.shape[:-1] + (n - m,), dtype=ga.dtype))
    ga = apply(S.cat, ga, zeros, dim=-1)
    return (ga + mm(q, gr),)


def _torch_packed(call: str, a: str, n: int) -> str:
    """Export text: a decomposition's `n` results flattened and concatenated, as the record
    packs them (each result by its index: the script holds no comprehension)."""
    parts = ", ".join(f"{call}[{i}].reshape(*{a}.shape[:-2], -1)" for i in range(n))
    return f"torch.cat([{parts}], dim=-1)"


def _jax_packed(call: str, a: str) -> str:
    return f"jnp.concatenate([t.reshape(*{a}.shape[:-2], -1) for t in {call}], axis=-1)"


qr = defop(
    "qr",
    _qr_fwd,
    _qr_vjp,
    "LinalgQrBackward0",
    "(Q, R): Q syminv*(triu(gR R^T - Q^T gQ)) + gQ, times R^-T (m >= n)",
    kind="linalg",
    signature="linalg.qr(A, mode='reduced')",
    samples=(
        Sample(((3, 3),), {"mode": "reduced"}, structure={0: "invertible"}),
        Sample(((4, 2),), {"mode": "reduced"}),
        Sample(((2, 4),), {"mode": "reduced"}, structure={0: "wide"}),
        Sample(((2, 3, 2),), {"mode": "reduced"}),
        Sample(((2, 3),), {"mode": "complete"}, structure={0: "wide"}),
    ),
    to_torch=lambda w, a, p: _torch_packed(
        f"torch.linalg.qr({a[0]}, mode={w.lit(p.get('mode', 'reduced'))})", a[0], 2
    ),
    to_jax=lambda w, a, p: _jax_packed(
        f"jnp.linalg.qr({a[0]}, mode={w.lit(p.get('mode', 'reduced'))})", a[0]
    ),
    complex="rule",  # (`_qr_vjp`: conjugate transposes for complex matrices)
)


# --- geqrf ----------------------------------------------------------------------------------------


def _geqrf_one(mat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """LAPACK's ?geqrf of one matrix: R on and above the diagonal, the Householder vectors
    below it, and tau (min(m, n)). On the avx2 kernel family MKL's own arithmetic where it is
    measured (`core.mklgels._geqrf`: up to 20 rows and 8 columns, wide ones up to 5 rows and
    12 columns); else NumPy's LAPACK (float32 through float64: last bits may differ)."""
    from ..core import cpu, mklgels

    m, n = mat.shape
    k = min(m, n)
    if (
        cpu.mkl_avx2()
        and mat.dtype.kind == "f"
        and mat.dtype.itemsize in (4, 8)
        and ((1 <= m <= 20 and 1 <= n <= 8) or (1 <= m <= 5 and 1 <= n <= 12))
        and np.all(np.isfinite(mat))
        and (not np.any(mat) or mklgels.in_range(mat))
    ):
        r, taus = mklgels._geqrf(np.ascontiguousarray(mat))
        return r, taus[:k]
    h, tau = np.linalg.qr(mat, mode="raw")
    return np.asarray(h.T, dtype=mat.dtype), np.asarray(tau[:k], dtype=mat.dtype)


def _geqrf_fwd(a: np.ndarray) -> np.ndarray:
    lead = a.shape[:-2]
    m, n = a.shape[-2:]
    mats = a.reshape((-1, m, n))
    if not mats.shape[0] or not a.size:
        return pack(np.zeros(a.shape, a.dtype), np.zeros(lead + (min(m, n),), a.dtype), lead=lead)
    got = [_geqrf_one(mat) for mat in mats]
    rs = np.stack([r for r, _ in got]).reshape(a.shape)
    taus = np.stack([t for _, t in got]).reshape(lead + (min(m, n),))
    return pack(rs, taus, lead=lead)


def _geqrf_vjp(g: Tensor, out: Tensor, a: Tensor) -> tuple:
    # PyTorch's derivatives.yaml: not_implemented("geqrf")
    raise GradcliError("the derivative for 'geqrf' is not implemented.").mirror(
        "NotImplementedError"
    )


def geqrf_shapes(shape: tuple[int, ...]) -> list[tuple[int, ...]]:
    m, n = shape[-2:]
    return [(m, n), (min(m, n),)]


geqrf = defop(
    "geqrf",
    _geqrf_fwd,
    _geqrf_vjp,
    "GeqrfBackward0",
    "(a, tau): LAPACK's Householder QR; no derivative (PyTorch's not_implemented)",
    kind="linalg",
    signature="geqrf(input)",
    # (fixed inputs: PyTorch gives geqrf no derivative, so no gradient is checked)
    samples=(
        Sample(
            ((4, 3),),
            fixed={0: np.array([[2.0, 1, 0.5], [1, 3, 1], [0, 1, 4], [1, 2, 3]])},
            hessian=False,
        ),
        Sample(((2, 4),), fixed={0: np.array([[1.0, 2, 3, 4], [2, 0, 1, 5]])}, hessian=False),
        Sample(
            ((2, 2, 2),),
            fixed={0: np.array([[[3.0, -1], [0.5, 2]], [[-1.0, 4], [2, 0.25]]])},
            hessian=False,
        ),
    ),
    to_torch=lambda w, a, p: _torch_packed(f"torch.geqrf({a[0]})", a[0], 2),
    to_jax=lambda w, a, p: "None",
    complex="rule",  # (zgeqrf's values; the rule is PyTorch's refusal, as for real ones)
)


# --- eigh -----------------------------------------------------------------------------------------


def _eigh_fwd(a: np.ndarray, uplo: str = "L") -> np.ndarray:
    from ..core import symeig

    w, v = np.linalg.eigh(a, UPLO=uplo)
    if a.dtype.kind == "c":
        # each eigenvector's phase as MKL's ?heevd's (the real eigenvalues packed as complex
        # numbers: the caller takes their real parts)
        return pack(w.astype(a.dtype), symeig.match_phases(v, a, uplo), lead=a.shape[:-2])
    # each eigenvector's sign as MKL's ?syevd picks it (NumPy's LAPACK picks others), a
    # repeated eigenvalue's eigenvectors and the noise of a zero eigenvalue as MKL's path
    w, v = symeig.mkl_like(w, v, a, uplo)
    return pack(w, v, lead=a.shape[:-2])


EIG_PHASE = (
    "{fn}: The eigenvectors in the complex case are specified up to multiplication by "
    "e^{{i phi}}. The specified loss function depends on this quantity, so it is ill-defined."
)


def _eigh_complex_vjp(w: Tensor, v: Tensor, gw: Tensor, gv: Tensor, n: int) -> Tensor:
    """PyTorch's linalg_eig_backward of a Hermitian matrix: V (skew(V^H gV) / (L_j - L_i),
    its diagonal replaced by gL) V^H; refused as PyTorch does where the loss depends on the
    eigenvectors' phases (an imaginary part on the diagonal of V^H gV)."""
    vhgv = mm(_mh(v), gv)
    im = np.diagonal(vhgv.data, axis1=-2, axis2=-1).imag
    if not np.allclose(im, 0, rtol=1e-2, atol=1e-2):
        raise GradcliError(EIG_PHASE.format(fn="linalg_eigh_backward")).pytorch()
    vhgv = (vhgv - _mh(vhgv)) * 0.5
    e = S.unsqueeze(w, -2) - S.unsqueeze(w, -1) + eye_like(w, n)  # (w real, packed complex)
    off = Tensor(1 - np.eye(n, dtype=vhgv.dtype))
    ret = safe_divide(vhgv, e) * off + diag_embed(gw)
    return mm(v, mm(ret, _mh(v)))


def _eigh_vjp(g: Tensor, out: Tensor, a: Tensor, uplo: str = "L") -> tuple:
    n = a.shape[-1]
    w, v = unpack(out, [(n,), (n, n)])
    gw, gv = unpack(g, [(n,), (n, n)])
    if v.data.dtype.kind == "c":
        return (_eigh_complex_vjp(w, v, gw, gv, n),)
    vtgv = mm(mT(v), gv)
    vtgv = (vtgv - mT(vtgv)) * 0.5
    e = S.unsqueeze(w, -2) - S.unsqueeze(w, -1) + eye_like(w, n)
    ret = safe_divide(vtgv, e) + diag_embed(gw)
    return (mm(v, mm(ret, mT(v))),)


eigh = defop(
    "eigh",
    _eigh_fwd,
    _eigh_vjp,
    "LinalgEighBackward0",
    "(L, V): V (diag(gL) + skew(V^T gV) / (L_j - L_i)) V^T",
    kind="linalg",
    signature="linalg.eigh(A, UPLO='L'), linalg.eigvalsh",
    samples=_square_samples("symmetric")
    + (Sample(((3, 3),), {"uplo": "U"}, structure={0: "symmetric"}),),
    to_torch=lambda w, a, p: _torch_packed(
        f"torch.linalg.eigh({a[0]}, UPLO={w.lit(p.get('uplo', 'L'))})", a[0], 2
    ),
    to_jax=lambda w, a, p: _jax_packed(
        f"jnp.linalg.eigh({a[0]}, UPLO={w.lit(p.get('uplo', 'L'))})", a[0]
    ),
    complex="rule",  # (`_eigh_complex_vjp`, PyTorch's conjugate Wirtinger gradient)
)


# --- eig (complex matrices) -----------------------------------------------------------------


def _eig_fwd(a: np.ndarray) -> np.ndarray:
    """LAPACK's zgeev of complex matrices (each eigenvector of unit norm, its largest
    component real): NumPy's values are MKL's (measured to 1e-13, complex128), packed."""
    w, v = np.linalg.eig(a)
    return pack(w, v, lead=a.shape[:-2])


def _eig_vjp(g: Tensor, out: Tensor, a: Tensor) -> tuple:
    # PyTorch's linalg_eig_backward: V^H gV less V^H V Re(diag(V^H gV)) (the tangent space of
    # unit columns), over conj(L_j - L_i), its diagonal replaced by gL, then V^-H (.) V^H;
    # refused where the loss depends on the eigenvectors' phases
    n = a.shape[-1]
    w, v = unpack(out, [(n,), (n, n)])
    gw, gv = unpack(g, [(n,), (n, n)])
    vh = _mh(v)
    vhgv = mm(vh, gv)
    eye = eye_like(vhgv, n)
    dg = tsum(vhgv * eye, -1)
    if not np.allclose(dg.data.imag, 0, rtol=1e-2, atol=1e-2):
        raise GradcliError(EIG_PHASE.format(fn="linalg_eig_backward")).pytorch()
    from . import complexnum as CN

    re = apply(CN.complex_, apply(CN.real, dg), Tensor(np.zeros((), dg.data.real.dtype)))
    vhgv = vhgv - mm(vh, v * S.unsqueeze(re, -2))
    wc = apply(CN.conj, w)
    e = S.unsqueeze(wc, -2) - S.unsqueeze(wc, -1) + eye
    off = Tensor(1 - np.eye(n, dtype=vhgv.dtype))
    ret = (vhgv / e) * off + diag_embed(gw)
    return (apply(solve, vh, mm(ret, vh)),)


eig = defop(
    "eig",
    _eig_fwd,
    _eig_vjp,
    "LinalgEigBackward0",
    "(L, V): V^-H ((V^H gV - V^H V Re diag(V^H gV)) / conj(L_j - L_i) + diag(gL)) V^H",
    kind="linalg",
    signature="linalg.eig(A) (complex A)",
    # (complex matrices only: its gradients are checked by finite differences in
    # tests/ops/test_complex.py; here a fixed one, its values)
    samples=(
        Sample(
            ((2, 2),),
            fixed={0: np.array([[1.0 + 0.5j, 2.0 - 1j], [0.25j, -1.5 + 0.2j]])},
            hessian=False,
        ),
    ),
    to_torch=lambda w, a, p: _torch_packed(f"torch.linalg.eig({a[0]})", a[0], 2),
    to_jax=lambda w, a, p: _jax_packed(f"jnp.linalg.eig({a[0]})", a[0]),
    complex="rule",
)


# --- svd, svdvals -------------------------------------------------------------------------------


def _svd_shapes(shape: tuple[int, ...], full_matrices: bool) -> list[tuple[int, ...]]:
    m, n = shape[-2:]
    k = min(m, n)
    if full_matrices:
        return [(m, m), (k,), (n, n)]
    return [(m, k), (k,), (k, n)]


def _svd_fwd(a: np.ndarray, full_matrices: bool = True, uv_used: bool = False) -> np.ndarray:
    u, s, vh = np_svd(a, full_matrices=full_matrices)
    return pack(u, s.astype(a.dtype, copy=False), vh, lead=a.shape[:-2])


def _svdvals_grad(u: Tensor, gs: Tensor, vh: Tensor, m: int, n: int) -> Tensor:
    if m >= n:
        return mm(u, S.unsqueeze(gs, -1) * vh)
    return mm(u * S.unsqueeze(gs, -2), vh)


def _svd_vjp(
    g: Tensor, out: Tensor, a: Tensor, full_matrices: bool = True, uv_used: bool = False
) -> tuple:
    m, n = a.shape[-2:]
    k = min(m, n)
    shapes = _svd_shapes(a.shape, full_matrices)
    u, s, vh = unpack(out, shapes)
    gu, gs, gvh = unpack(g, shapes)
    if full_matrices:
        u, gu = index_last(u, 0, k), index_last(gu, 0, k)
        vh, gvh = index_last(vh, 0, k, -2), index_last(gvh, 0, k, -2)
    if not uv_used and not g.requires_grad and not gu.data.any() and not gvh.data.any():
        # Only the singular values are used (a gradient that is a function of the tangent,
        # in forward mode or create_graph, takes the full formula; so does the SVD inside
        # det's and svdvals' backward, whose U and Vh get PyTorch's defined gradients even
        # when they are exactly zero: NaN where singular values repeat, e.g. a second
        # derivative of det at the zero matrix).
        return (_svdvals_grad(u, gs, vh, m, n),)
    # (complex: conjugate transposes, PyTorch's conjugate Wirtinger formula; real: transposes)
    uhgu = mm(_mh(u), gu)
    vhgv = mm(vh, _mh(gvh))
    cplx = u.data.dtype.kind == "c"
    if cplx:
        # PyTorch's check that the loss does not depend on the singular vectors' phases
        im_u = np.diagonal(uhgu.data, axis1=-2, axis2=-1).imag
        im_v = np.diagonal(vhgv.data, axis1=-2, axis2=-1).imag
        if not np.allclose(im_u, -im_v, rtol=1e-2, atol=1e-2):
            raise GradcliError(SVD_PHASE).pytorch()
    uhgu = uhgu - _mh(uhgu)
    vhgv = vhgv - _mh(vhgv)
    s2 = s * s
    e = S.unsqueeze(s2, -2) - S.unsqueeze(s2, -1) + eye_like(s, k)
    num = uhgu * S.unsqueeze(s, -2) + S.unsqueeze(s, -1) * vhgv
    # Where U or Vh received a gradient, PyTorch's gU / gVh are defined and a repeated singular
    # value divides 0 by 0 (NaN, as PyTorch's, e.g. a second derivative of det at the
    # identity), as in forward mode (PyTorch's svd_jvp computes dU and dVh always) and for the
    # SVD inside det's and svdvals' backward, which uses U and Vh (`uv_used`); otherwise (only
    # S used: PyTorch's gU, gVh undefined) those terms are 0.
    used = uv_used or _GradMode.transposing or bool(gu.data.any() or gvh.data.any())
    ret = (num / e if used else safe_divide(num, e)) + diag_embed(gs)
    if cplx:  # (+ i Im(diag(U^H gU)) / S: the skew part's diagonal over 2S, measured)
        ret = ret + diag_embed(tsum(uhgu * eye_like(uhgu, k), -1) / (s * 2))
    if m > n:
        ga = mm(u, ret)
        gusinv = gu / S.unsqueeze(s, -2)
        ga = ga + gusinv - mm(u, mm(_mh(u), gusinv))
        return (mm(ga, vh),)
    if m < n:
        ga = mm(ret, vh)
        sinvgvh = gvh / S.unsqueeze(s, -1)
        ga = ga + sinvgvh - mm(mm(sinvgvh, _mh(vh)), vh)
        return (mm(u, ga),)
    return (mm(u, mm(ret, vh)),)


SVD_PHASE = (
    "svd_backward: The singular vectors in the complex case are specified up to multiplication "
    "by e^{i phi}. The specified loss function depends on this phase term, making it "
    "ill-defined."
)


svd = defop(
    "svd",
    _svd_fwd,
    _svd_vjp,
    "LinalgSvdBackward0",
    "(U, S, Vh): U [(skew(U^T gU) S + S skew(V^T gV)) / E + diag(gS)] Vh (+ the rectangular terms)",
    kind="linalg",
    signature="linalg.svd(A, full_matrices=True), svd(A)",
    samples=(
        Sample(((3, 3),), {"full_matrices": False}),
        Sample(((4, 2),), {"full_matrices": False}),
        Sample(((2, 4),), {"full_matrices": False}),
        Sample(((2, 3, 2),), {"full_matrices": False}),
        # full_matrices with m != n: the extra columns of U are not functions of A that the
        # rule differentiates (PyTorch's neither), so only a square one is checked here.
        Sample(((3, 3),), {"full_matrices": True}),
    ),
    to_torch=lambda w, a, p: _torch_packed(
        f"torch.linalg.svd({a[0]}, full_matrices={bool(p.get('full_matrices', True))})",
        a[0],
        3,
    ),
    to_jax=lambda w, a, p: _jax_packed(
        f"jnp.linalg.svd({a[0]}, full_matrices={bool(p.get('full_matrices', True))})", a[0]
    ),
    complex="rule",  # (`_svd_vjp`: conjugate transposes for complex matrices)
)


def _svdvals_vjp(g: Tensor, out: Tensor, a: Tensor) -> tuple:
    m, n = a.shape[-2:]
    if a.data.dtype.kind == "c":
        # PyTorch's svd_backward with only gS: U diag(gS) V^H, the conjugate Wirtinger
        # gradient of the real singular values. First order only: the complex SVD has no
        # record here to differentiate again.
        if grad_enabled():
            raise complex_refusal("the recorded gradient of svdvals of a complex matrix")
        u, _, vh = np.linalg.svd(a.data, full_matrices=False)
        gs = g.data.astype(u.dtype)
        if m >= n:
            return (constant(u @ (gs[..., :, None] * vh)),)
        return (constant((u * gs[..., None, :]) @ vh),)
    u, _, vh = unpack(apply(svd, a, full_matrices=False, uv_used=True), _svd_shapes(a.shape, False))
    return (_svdvals_grad(u, g, vh, m, n),)


svdvals = defop(
    "svdvals",
    # (real singular values of a complex matrix too)
    lambda a: np_svd(a, compute_uv=False).astype(a.real.dtype, copy=False),
    _svdvals_vjp,
    "LinalgSvdBackward0",
    "U diag(g) Vh",
    kind="linalg",
    signature="linalg.svdvals(A), linalg.matrix_norm(A, 'nuc' / 2 / -2)",
    samples=(
        Sample(((3, 3),)),
        Sample(((4, 2),)),
        Sample(((2, 2, 3),)),
    ),
    to_torch="torch.linalg.svdvals",
    to_jax="jnp.linalg.svd({0}, compute_uv=False)",
    complex="rule",  # (`_svdvals_vjp`: U diag(g) V^H for a complex matrix)
)


# --- pinv -----------------------------------------------------------------------------------------


def _pinv_fwd(a: np.ndarray, atol: float = 0.0, rtol: float = 0.0, hermitian: bool = False):
    if hermitian:
        w, v = np.linalg.eigh(a)
        mag = np.abs(w)
        tol = np.maximum(atol, rtol * mag.max(axis=-1, keepdims=True, initial=0.0))
        winv = np.where(mag > tol, 1 / np.where(mag > tol, w, 1), 0).astype(a.dtype)
        return (v * winv[..., None, :]) @ _ah(v)
    u, s, vh = np_svd(a, full_matrices=False)
    tol = np.maximum(atol, rtol * s.max(axis=-1, keepdims=True, initial=0.0))
    sinv = np.where(s > tol, 1 / np.where(s > tol, s, 1), 0).astype(a.dtype)
    return (_ah(vh) * sinv[..., None, :]) @ _ah(u)


def _ah(x: np.ndarray) -> np.ndarray:
    """The conjugate transpose of a batch of matrices (of real ones, the transpose)."""
    t = np.swapaxes(x, -1, -2)
    return np.conj(t) if x.dtype.kind == "c" else t


def _pinv_vjp(
    g: Tensor, out: Tensor, a: Tensor, atol: float = 0.0, rtol: float = 0.0, hermitian: bool = False
) -> tuple:
    # (PyTorch's pinv_backward, its conjugate transposes: transposes of real matrices)
    m, n = a.shape[-2:]
    p = out
    pt = _mh(p)
    gt = _mh(g)
    if m <= n:
        k = mm(gt, p)
        kpt = mm(k, pt)
        return (-_mh(mm(p, k)) + kpt - mm(mm(a, p), kpt) + mm(mm(pt, p), gt - mm(k, a)),)
    k = mm(p, gt)
    ptk = mm(pt, k)
    return (-_mh(mm(k, p)) + mm(mm(gt - mm(a, k), p), pt) + ptk - mm(mm(ptk, p), a),)


pinv = defop(
    "pinv",
    _pinv_fwd,
    _pinv_vjp,
    "LinalgPinvBackward0",
    "PyTorch's pinv_backward (the derivative of the pseudo-inverse at a matrix of constant rank)",
    kind="linalg",
    signature="linalg.pinv(A, atol=None, rtol=None, hermitian=False), pinverse",
    samples=(
        Sample(((3, 2),), {"rtol": 1e-15}),
        Sample(((2, 3),), {"rtol": 1e-15}),
        Sample(((3, 3),), {"rtol": 1e-15}, structure={0: "invertible"}),
        Sample(((2, 2, 3),), {"rtol": 1e-15}),
    ),
    to_torch=lambda w, a, p: (
        f"torch.linalg.pinv({a[0]}, atol={w.lit(float(p.get('atol', 0.0)))}, "
        f"rtol={w.lit(float(p.get('rtol', 0.0)))}, hermitian={bool(p.get('hermitian'))})"
    ),
    to_jax=lambda w, a, p: (
        f"jnp.linalg.pinv({a[0]}, rtol={w.lit(float(p.get('rtol', 0.0)))}, "
        f"hermitian={bool(p.get('hermitian'))})"
    ),
    complex="rule",  # (`_pinv_vjp`: conjugate transposes)
)


# --- matrix_exp ---------------------------------------------------------------------------------
#
# ATen's linalg_matrix_exp (LinearAlgebra.cpp: mexp) for two rows or more: the Taylor polynomial
# of degree 1, 2, 4, 8, 12 or 18 picked by the matrix's 1-norm (one degree per interval of
# thetas, each dtype its own), each but the first two evaluated as Bader, Blanes and Casas'
# optimised products; a 1-norm past the degree-12 interval (or any matrix of a batch of two or
# more) is scaled by 2^-s, given degree 18, and squared s times. Every step here is ATen's in
# its order: the powers {I, A, A^2, A^3, A^6} by bmm (`_mexp_mm`: gradcli's emulation of
# PyTorch's products, so the kernel family's, each written where ATen writes it in its buffer of
# matrices, whose address picks some of MKL's small kernels), the linear combinations as
# `_compute_linear_combination` sums them (from zero, each coefficient, rounded to the dtype,
# times a matrix, product and sum rounded apart, in the order of the matrices), the 1-norm as a
# column sum in row order. Measured on PyTorch 2.13 (avx2 family: float32 and float64, sizes 2
# to 8, then 9 to 23, 1-norms 0.01 to 30, single matrices and batches of 1 to 4, values and
# gradients): every element equal.

_MEXP_THETAS = {
    "float32": (
        1.192092800768788e-07,
        5.978858893805233e-04,
        5.116619363445086e-02,
        5.800524627688768e-01,
        1.461661507209034e00,
        3.010066362817634e00,
    ),
    "float64": (
        2.220446049250313e-16,
        2.580956802971767e-08,
        3.397168839976962e-04,
        4.991228871115323e-02,
        2.996158913811580e-01,
        1.090863719290036e00,
    ),
}
# The degree-12 and degree-18 polynomials: row i is B_i's coefficients of I, A, A^2, A^3(, A^6)
# (Bader, Blanes and Casas 2019, as ATen tabulates them)
_MEXP_B12 = (
    (9.0198e-16, 0.46932117595418237389, -0.20099424927047284052, -0.04623946134063071740),
    (
        5.31597895759871264183,
        1.19926790417132231573,
        0.01179296240992997031,
        0.01108844528519167989,
    ),
    (
        0.18188869982170434744,
        0.05502798439925399070,
        0.09351590770535414968,
        0.00610700528898058230,
    ),
    (-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079, -0.00675951846863086359),
)
_MEXP_B18 = (
    (
        0.0,
        -1.00365581030144618291e-01,
        -8.02924648241156932449e-03,
        -8.92138498045729985177e-04,
        0.0,
    ),
    (
        0.0,
        3.97849749499645077844e-01,
        1.36783778460411720168e00,
        4.98289622525382669416e-01,
        -6.37898194594723280150e-04,
    ),
    (
        -1.09676396052962061844e01,
        1.68015813878906206114e00,
        5.71779846478865511061e-02,
        -6.98210122488052056106e-03,
        3.34975017086070470649e-05,
    ),
    (
        -9.04316832390810593223e-02,
        -6.76404519071381882256e-02,
        6.75961301770459654925e-02,
        2.95552570429315521194e-02,
        -1.39180257516060693404e-05,
    ),
    (
        0.0,
        0.0,
        -9.23364619367118555360e-02,
        -1.69364939002081722752e-02,
        -1.40086798182036094347e-05,
    ),
)


def _mexp_mm(x: np.ndarray, y: np.ndarray, slot: int = 0) -> np.ndarray:
    """bmm of two (batch, n, n) arrays into ATen's buffer matrix `slot` (the output's address
    picks some of MKL's kernels: `linalg._bmm_fwd`)."""
    from .linalg import _bmm_fwd, _matmul_record

    out = _bmm_fwd(x, y, out_at=slot * x[0].size) if slot else None
    return _matmul_record(x, y) if out is None else out


def _real_kind(dt: np.dtype) -> type:
    """The real type of a dtype's values (float64 for complex128): ATen's matrix_exp picks its
    degrees and constants by it."""
    return np.empty(0, dt).real.dtype.type


def _mexp_combine(mats: list, coeffs: tuple) -> np.ndarray:
    """sum_j coeffs[j] * mats[j] as `_compute_linear_combination` adds it up."""
    kind = _real_kind(mats[0].dtype)
    out = np.zeros_like(mats[0])
    for m, c in zip(mats, coeffs):
        out = out + m * kind(c)
    return out


def _mexp_t8_coefficients(kind: type) -> tuple:
    """The degree-8 constants: ATen derives them from sqrt(177) and 2/3, each first rounded to
    the dtype, in double, and rounds each result to the dtype when it is used."""
    r = float(kind(0.1330413469565007072504e2))
    x3 = float(kind(2.0 / 3.0))
    return (
        x3 * ((1.0 + r) / 88.0),
        x3 * ((1.0 + r) / 352.0),
        x3,
        (-271.0 + 29.0 * r) / (315.0 * x3),
        (-11.0 + 11.0 * r) / (1260.0 * x3),
        (-99.0 + 11.0 * r) / (5040.0 * x3),
        (89.0 - r) / (5040.0 * x3),
        (857.0 - 58.0 * r) / 630.0,
    )


def _mexp_powers(a: np.ndarray, count: int) -> list:
    """The first `count` of I, A, A^2, A^3, A^6."""
    out = [np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape).copy(), a]
    if count > 2:
        out.append(_mexp_mm(a, a, 2 * len(a)))
    if count > 3:
        out.append(_mexp_mm(a, out[2], 3 * len(a)))
    if count > 4:
        out.append(_mexp_mm(out[3], out[3], 4 * len(a)))
    return out


def _mexp_taylor(a: np.ndarray, degree: int) -> np.ndarray:
    """ATen's degree-`degree` polynomial of a batch of matrices (batch, n, n)."""
    kind = _real_kind(a.dtype)
    if degree == 1:
        one, x = _mexp_powers(a, 2)
        return one + x
    if degree == 2:
        one, x, x2 = _mexp_powers(a, 3)
        return (one + x) + x2 / kind(2)
    if degree == 4:
        p = _mexp_powers(a, 3)
        tail = _mexp_mm(p[2], _mexp_combine(p, (1 / 2.0, 1 / 6.0, 1 / 24.0)), 3 * len(a))
        return _mexp_combine([*p, tail], (1.0, 1.0, 0.0, 1.0))
    if degree == 8:
        x1, x2, x3, x4, x5, x6, x7, y2 = _mexp_t8_coefficients(kind)
        p = _mexp_powers(a, 3)
        a4 = _mexp_mm(p[2], _mexp_combine(p[1:], (x1, x2)), 3 * len(a))
        a8 = _mexp_mm(
            _mexp_combine([p[2], a4], (x3, 1.0)),
            _mexp_combine([*p, a4], (x4, x5, x6, x7)),
            4 * len(a),
        )
        return _mexp_combine([*p, a4, a8], (1.0, 1.0, y2, 0.0, 1.0))
    table = _MEXP_B12 if degree == 12 else _MEXP_B18
    p = _mexp_powers(a, len(table))
    b = [_mexp_combine(p, row) for row in table]
    if degree == 12:
        b[2] = b[2] + _mexp_mm(b[3], b[3])
        b[1] = b[1] + b[2]
        return b[0] + _mexp_mm(b[1], b[2])
    b[3] = b[3] + _mexp_mm(b[0], b[4])
    b[2] = b[2] + b[3]
    return b[1] + _mexp_mm(b[2], b[3])


def _mexp_norm(a: np.ndarray) -> np.ndarray:
    """max over columns of the column sums of |a|, each column summed in row order."""
    mag = np.abs(a)
    total = mag[..., 0, :]
    for i in range(1, a.shape[-2]):
        total = total + mag[..., i, :]
    return total.max(-1)


def mexp_squarings(norm: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """s of ATen's scaling, ceil(log2(norm / theta_18)) and at least 0, in the dtype (NaN for
    a matrix whose 1-norm is not finite)."""
    kind = _real_kind(dtype)
    theta = kind(_MEXP_THETAS[np.dtype(kind).name][-1])
    with np.errstate(all="ignore"):
        return np.maximum(np.ceil(np.log2(norm / theta)), kind(0))


def _mexp_scaled(a: np.ndarray, norm: np.ndarray) -> np.ndarray:
    """Degree 18 of A / 2^s, squared s times; the matrices in the order of their s (a stable
    sort, ATen's), each group squared on from the previous one's result. A non-finite s (a
    1-norm that is infinite or NaN) squares nothing: its matrix is all NaN already."""
    kind = _real_kind(a.dtype)
    s = mexp_squarings(norm, a.dtype)
    with np.errstate(all="ignore"):
        scaled = a * np.power(kind(2), -s).astype(a.dtype)[:, None, None]
        base = _mexp_taylor(scaled, 18)
    order = np.argsort(s, kind="stable")
    acc, steps = base[order], s[order]
    out = np.empty_like(base)
    done, start = 0, 0
    while start < len(steps):
        stop = start + 1
        while stop < len(steps) and (
            steps[stop] == steps[start] or (np.isnan(steps[stop]) and np.isnan(steps[start]))
        ):
            stop += 1
        target = int(steps[start]) if np.isfinite(steps[start]) else 0
        with np.errstate(all="ignore"):
            for _ in range(target - done):
                acc = _mexp_mm(acc, acc)
        done = max(done, target)
        out[order[start:stop]] = acc[: stop - start]
        acc = acc[stop - start :]
        start = stop
    return out


def _matrix_exp_fwd(a: np.ndarray) -> np.ndarray:
    n = a.shape[-1]
    if a.size == 0:
        return a.copy()
    if n == 1:
        return E.exp.forward(a)
    flat = np.ascontiguousarray(a).reshape(-1, n, n)
    kind = _real_kind(a.dtype)
    thetas = [kind(t) for t in _MEXP_THETAS[np.dtype(kind).name]]
    norm = _mexp_norm(flat)
    if flat.shape[0] > 1:
        return _mexp_scaled(flat, norm).reshape(a.shape)
    out = np.full_like(flat, np.nan)
    low = kind(-1)
    for degree, high in zip((1, 2, 4, 8, 12), thetas):
        pick = (low < norm) & (norm <= high)
        if pick.any():
            with np.errstate(all="ignore"):
                out[pick] = _mexp_taylor(flat[pick], degree)
        low = high
    pick = norm >= thetas[4]
    if pick.any():
        out[pick] = _mexp_scaled(flat[pick], norm[pick])
    return out.reshape(a.shape)


def _mexp_block(a: Tensor, d: Tensor) -> Tensor:
    """[[a, d], [0, a]] on the last two axes (batch axes broadcast, as ATen's copies into a
    zero matrix of d's shape doubled)."""
    lead = np.broadcast_shapes(a.shape[:-2], d.shape[:-2])
    n = a.shape[-1]
    if a.shape[:-2] != lead:
        a = apply(S.expand, a, shape=(*lead, n, n))
    if d.shape[:-2] != lead:
        d = apply(S.expand, d, shape=(*lead, n, n))
    zero = Tensor(np.zeros((*lead, n, n), dtype=d.dtype))
    top = apply(S.cat, a, d, dim=-1)
    bottom = apply(S.cat, zero, a, dim=-1)
    return apply(S.cat, top, bottom, dim=-2)


def _mexp_corner(t: Tensor, n: int) -> Tensor:
    """The upper right n x n block (ATen's two narrows: SliceBackward0 nodes)."""
    top = apply(S.index, t, idx=(Ellipsis, slice(0, n), slice(None)), label="SliceBackward0")
    return apply(S.index, top, idx=(Ellipsis, slice(n, 2 * n)), label="SliceBackward0")


def _matrix_exp_vjp(g: Tensor, out: Tensor, a: Tensor) -> tuple:
    # PyTorch's linalg_matrix_exp_differential, adjoint: exp([[A^T, G], [0, A^T]])'s upper
    # right block
    n = a.shape[-1]
    return (_mexp_corner(apply(matrix_exp, _mexp_block(mT(a), g)), n),)


def _matrix_exp_jvp(dots: tuple, out: Tensor, a: Tensor) -> Tensor:
    n = a.shape[-1]
    return _mexp_corner(apply(matrix_exp, _mexp_block(a, dots[0])), n)


matrix_exp = defop(
    "matrix_exp",
    _matrix_exp_fwd,
    _matrix_exp_vjp,
    "LinalgMatrixExpBackward0",
    "exp([[A^T, g], [0, A^T]])[:n, n:]",
    kind="linalg",
    jvp=_matrix_exp_jvp,
    signature="linalg.matrix_exp(A), matrix_exp(A)",
    samples=_square_samples("any", ((3, 3), (2, 2, 2), (1, 1), (4, 4))),
    to_torch="torch.linalg.matrix_exp",
    to_jax="jax.scipy.linalg.expm",
    complex="holo",  # (the rule's A^T is PyTorch's A^H once the engine conjugates)
)


# --- cross ----------------------------------------------------------------------------------------


# each component of a x b: (i, j, k, l) for a_i b_j - a_k b_l
_CROSS_TERMS = ((1, 2, 2, 1), (2, 0, 0, 2), (0, 1, 1, 0))


def _cross_fwd(a: np.ndarray, b: np.ndarray, dim: int = -1) -> np.ndarray:
    """a x b along `dim`. ATen's CPU kernel writes each component as `a_i*b_j - a_k*b_l`,
    which the compiler contracts to one fused multiply-add, fma(a_i, b_j, -(a_k*b_l)), in
    float32 and float64 alike (measured against torch 2.13: every component of 1,000 random
    pairs; the plain difference of products matched 76%): so `cross(v, v)` is not all zeros.
    Other dtypes: NumPy's products and difference."""
    if a.dtype != b.dtype or a.dtype not in (np.float32, np.float64):
        return np.ascontiguousarray(np.cross(a, b, axis=dim))
    from ..core.fma64 import _fma64
    from ..core.powf32 import fma32

    fma = _fma64 if a.dtype == np.float64 else fma32
    am, bm = np.broadcast_arrays(np.moveaxis(a, dim, -1), np.moveaxis(b, dim, -1))
    out = np.empty(am.shape, a.dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        for c, (i, j, k, m) in enumerate(_CROSS_TERMS):
            out[..., c] = fma(am[..., i], bm[..., j], -(am[..., k] * bm[..., m]))
    return np.ascontiguousarray(np.moveaxis(out, -1, dim))  # (a fresh row-major result)


def _cross_vjp(g: Tensor, out: Tensor, a: Tensor, b: Tensor, dim: int = -1) -> tuple:
    return (
        apply(cross, b, g, dim=dim) if a.requires_grad else None,
        apply(cross, g, a, dim=dim) if b.requires_grad else None,
    )


cross = defop(
    "cross",
    _cross_fwd,
    _cross_vjp,
    "LinalgCrossBackward0",
    "b x g, g x a",
    kind="linalg",
    jvp=lambda dots, out, a, b, dim=-1: _cross_jvp(dots, a, b, dim),
    signature="linalg.cross(a, b, dim=-1), cross(a, b, dim)",
    samples=(
        Sample(((3,), (3,))),
        Sample(((2, 3), (1, 3))),
        Sample(((3, 2), (3, 2)), {"dim": -2}),
        Sample(((2, 1, 3), (1, 4, 3))),
    ),
    to_torch=lambda w, a, p: f"torch.linalg.cross({a[0]}, {a[1]}, dim={p.get('dim', -1)})",
    to_jax=lambda w, a, p: f"jnp.cross({a[0]}, {a[1]}, axis={p.get('dim', -1)})",
)


def _cross_jvp(dots: tuple, a: Tensor, b: Tensor, dim: int) -> Tensor:
    da, db = dots
    total = None
    if da is not None:
        total = apply(cross, da, b, dim=dim)
    if db is not None:
        t = apply(cross, a, db, dim=dim)
        total = t if total is None else total + t
    return total


# --- cdist ----------------------------------------------------------------------------------------


def _cdist_fwd(x1: np.ndarray, x2: np.ndarray, p: float = 2.0) -> np.ndarray:
    if p == 2 and x1.dtype == x2.dtype and x1.dtype in (np.float32, np.float64) and x1.shape[-1]:
        from ..core import cpu

        if cpu.amd():
            return _cdist2_avx2(x1, x2)
    d = np.abs(x1[..., :, None, :] - x2[..., None, :, :])
    if p == 0:
        return np.sum(d != 0, axis=-1).astype(x1.dtype)
    if p == math.inf:
        return np.max(d, axis=-1, initial=0.0).astype(x1.dtype)
    if p == 1:
        # ATen's kernel adds the differences of each pair in order, from zero
        acc = np.zeros(d.shape[:-1], x1.dtype)
        for k in range(d.shape[-1]):
            acc = acc + d[..., k]
        return acc
    if p == 2:
        return np.sqrt(np.sum(d * d, axis=-1))
    return np.sum(d**p, axis=-1) ** (1.0 / p)


def _cdist2_avx2(x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    """float32 Euclidean cdist by ATen's direct kernel as its AVX2 build computes it (the avx2
    family): for each pair, the squared differences |a - b|^2 of the first 4 * (m // 4)
    features rounded and added in order from zero, the last m % 4 in fused multiply-adds,
    then the square root. (The compiler turned the kernel's scalar loop into 4-float vector
    products and an in-order sum, the remainder a fused chain.) Measured on AMD EPYC against
    PyTorch 2.13: every distance of 25 shapes (20 x 20 pairs, 1 to 25 features) equal; the
    float64 sum rounded once, or an in-order sum alone, missed 5-15% of them. float64: the
    same with vectors of 2 (the last feature of an odd count fused), equal on 8 shapes where
    vectors of 1 or 4 missed."""
    from ..core.fma64 import _fma64
    from ..core.powf32 import fma32

    dt = x1.dtype
    d = np.abs(x1[..., :, None, :] - x2[..., None, :, :]).astype(dt)
    m = d.shape[-1]
    head = m - m % (4 if dt == np.float32 else 2)
    fused = fma32 if dt == np.float32 else _fma64
    acc = np.zeros(d.shape[:-1], dt)
    with np.errstate(all="ignore"):
        for k in range(m):
            dk = np.ascontiguousarray(d[..., k])
            if k < head:
                acc = acc + dk * dk
            else:
                acc = fused(dk, dk, acc)
        return np.sqrt(acc)


def _cdist2_grads_fit(g, d, x1, x2) -> bool:
    return (
        g.dtype == d.dtype == x1.dtype == x2.dtype
        and x1.dtype in (np.float32, np.float64)
        and g.shape == d.shape
        and x1.ndim == x2.ndim == d.ndim
        and x1.shape[:-2] == x2.shape[:-2] == d.shape[:-2]
        and x1.shape[-1] > 0
    )


def _cdist2_grad_avx2(
    g: np.ndarray, d: np.ndarray, x1: np.ndarray, x2: np.ndarray, p: float = 2.0
) -> np.ndarray:
    """The gradient of x1 in cdist as ATen's _cdist_backward computes it: for each row of x1,
    the terms of the rows j of x2 in order added from zero (x2's: the same with the roles
    swapped), from diff = x1 - x2_j: p = 2, (g * diff) / d (0 where d is 0); p = 1,
    g * sign(diff); p = inf, g * sign(diff) where |diff| is the distance. Measured on AMD EPYC
    (the avx2 family) against PyTorch 2.13: both gradients of 60 random float32 Euclidean
    cdists (1 to 25 rows, 1 to 29 features, some zero distances) equal in every element; so
    are p = 1 and inf, float32 and float64 (the kernel has no sum across lanes)."""
    acc = np.zeros(x1.shape, x1.dtype)
    zero = x1.dtype.type(0)
    with np.errstate(all="ignore"):
        for j in range(x2.shape[-2]):
            dj = d[..., :, j, None]
            diff = x1 - x2[..., j, None, :]
            gj = g[..., :, j, None]
            if p == 2:
                term = np.where(dj == 0, zero, (gj * diff) / dj)
            elif p == 1:
                term = gj * np.sign(diff)
            else:
                term = np.where(np.abs(diff) == dj, gj * np.sign(diff), zero)
            acc = acc + term
    return acc


def _cdist_vjp(g: Tensor, out: Tensor, x1: Tensor, x2: Tensor, p: float = 2.0) -> tuple:
    if p == 0:
        lead = g.shape[: g.ndim - out.ndim]
        return (
            Tensor(np.zeros(lead + x1.shape, x1.dtype)),
            Tensor(np.zeros(lead + x2.shape, x2.dtype)),
        )
    if p in (1, 2, math.inf) and not grad_enabled():
        from ..core import cpu

        # (p = 2 on the avx512 family: the composed rule below, as recorded there)
        fits = _cdist2_grads_fit(g.data, out.data, x1.data, x2.data)
        if fits and (p != 2 or cpu.amd()):
            d = out.data
            return (
                Tensor(_cdist2_grad_avx2(g.data, d, x1.data, x2.data, p)),
                Tensor(
                    _cdist2_grad_avx2(
                        np.swapaxes(g.data, -1, -2), np.swapaxes(d, -1, -2), x2.data, x1.data, p
                    )
                ),
            )
    zero = constant((out.data == 0).astype(out.dtype))
    if p == 2:
        ratio = g / (out + zero) * (1 - zero)
        g1 = x1 * tsum(ratio, -1, keepdim=True) - mm(ratio, x2)
        g2 = x2 * S.unsqueeze(tsum(ratio, -2), -1) - mm(mT(ratio), x1)
        return (g1, g2)
    diff = S.unsqueeze(x1, -2) - S.unsqueeze(x2, -3)
    sgn = constant(np.sign(diff.data))
    gg = S.unsqueeze(g, -1)
    if p == 1:
        term = gg * sgn
    elif p == math.inf:
        hit = np.abs(diff.data) == out.data[..., None]
        term = gg * sgn * constant(hit.astype(diff.dtype))
    else:
        o = S.unsqueeze(out + zero, -1)
        nz = constant((diff.data != 0).astype(diff.dtype))
        absd = apply(E.abs, diff) + (1 - nz)
        term = gg * sgn * apply(E.pow_scalar, absd, p=p - 1) * nz
        term = term / apply(E.pow_scalar, o, p=p - 1) * (1 - S.unsqueeze(zero, -1))
    return (tsum(term, -2), -tsum(term, -3))


cdist = defop(
    "cdist",
    _cdist_fwd,
    _cdist_vjp,
    "CdistBackward0",
    "g (x1_i - x2_j) / d_ij summed (p = 2; 0 where d = 0)",
    kind="linalg",
    kink="a zero distance has the zero gradient, as PyTorch",
    signature="cdist(x1, x2, p=2.0)",
    samples=(
        Sample(((3, 2), (4, 2))),
        Sample(((2, 3, 2), (2, 4, 2))),
        Sample(((3, 2), (4, 2)), {"p": 1.0}, distinct=True),
        Sample(((3, 2), (2, 2)), {"p": 3.0}, distinct=True),
        Sample(((3, 2), (2, 2)), {"p": 1.5}, distinct=True),
        Sample(((3, 3), (2, 3)), {"p": math.inf}, distinct=True),
    ),
    to_torch=lambda w, a, p: (
        f"torch.cdist({a[0]}, {a[1]}, p={w.lit(float(p.get('p', 2.0)))}, "
        "compute_mode='donot_use_mm_for_euclid_dist')"
    ),
    to_jax=lambda w, a, p: (
        f"jnp.linalg.vector_norm({a[0]}[..., :, None, :] - {a[1]}[..., None, :, :], "
        f"ord={w.lit(float(p.get('p', 2.0)))}, axis=-1)"
    ),
)
# derivatives.yaml gives _cdist_forward no forward derivative: forward AD refuses it (its entry
# in core.dual.NO_FORWARD_AD).


# --- pdist (p = 1, 2, inf): ATen's _pdist_forward and _pdist_backward kernels ----------------


def _pdist_lanes(dtype: np.dtype) -> int:
    """Lanes of ATen's Vectorized<float/double> on the kernel family (AVX2: 256 bits)."""
    from ..core import cpu

    return (32 if cpu.amd() else 64) // np.dtype(dtype).itemsize


def _pdist_pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    return np.triu_indices(n, 1)


def _vec_reduce(v: np.ndarray, red: Any) -> np.ndarray:
    """`vec::map2_reduce_all(map, red)` of each row of the mapped values v (K, m), as ATen's
    vector functional folds them: fewer values than lanes, left to right; else whole vectors
    lane by lane in order, the last partial one into its first lanes, then the lanes folded:
    float's as a butterfly of shuffles (lane i with i ^ L/2, ..., i ^ 1), double's left to
    right."""
    m = v.shape[-1]
    lanes = _pdist_lanes(v.dtype)
    if m < lanes:
        acc = v[:, 0]
        for k in range(1, m):
            acc = red(acc, v[:, k])
        return acc
    full = m - m % lanes
    acc = v[:, :lanes].copy()
    for k in range(lanes, full, lanes):
        acc = red(acc, v[:, k : k + lanes])
    if full < m:
        acc[:, : m - full] = red(acc[:, : m - full], v[:, full:])
    if v.dtype == np.float32:
        w = lanes // 2
        while w:
            acc = red(acc, acc[:, np.arange(lanes) ^ w])
            w //= 2
        return acc[:, 0]
    out = acc[:, 0]
    for k in range(1, lanes):
        out = red(out, acc[:, k])
    return out


def _pdist_fwd(x: np.ndarray, p: float = 2.0) -> np.ndarray:
    """The distances of the rows i < j in row order: ATen's map2_reduce_all of |x_i - x_j|
    (p = 1: added; p = inf: their maximum) or of its squares (p = 2, then the square root)."""
    n, m = x.shape
    i, j = _pdist_pairs(n)
    if not len(i):
        return np.zeros(0, x.dtype)
    if m == 0:
        return np.zeros(len(i), x.dtype)
    with np.errstate(all="ignore"):
        d = np.abs(x[i] - x[j])
        if p == 1:
            return _vec_reduce(d, np.add)
        if p == 2:
            return np.sqrt(_vec_reduce(d * d, np.add))
        return _vec_reduce(d, np.maximum)


def _pdist_terms(g: np.ndarray, x: np.ndarray, dist: np.ndarray, p: float) -> np.ndarray:
    """Each pair's term of the gradient, from diff = x_i - x_j: p = 2, g diff / dist (0 where
    dist is 0); p = 1, g sign(diff); p = inf, g sign(diff) where |diff| is the distance."""
    i, j = _pdist_pairs(x.shape[0])
    diff = x[i] - x[j]
    gk, dk = g[:, None], dist[:, None]
    if p == 2:
        return np.where(dk == 0, x.dtype.type(0), (gk * diff) / dk)
    sign = np.sign(diff)
    if p == 1:
        return gk * sign
    return np.where(np.abs(diff) == dk, gk * sign, x.dtype.type(0))


def _pdist_backward_fwd(g: np.ndarray, x: np.ndarray, dist: np.ndarray, p: float = 2.0):
    """ATen's _pdist_backward: row i's gradient starts at 0, takes away the terms of the
    pairs (i', i), i' < i, in order, then adds those of (i, j), j > i, in order (upstream
    gradients stacked on leading axes: one gradient each)."""
    g = np.asarray(g)
    if g.ndim > 1:
        return np.stack([_pdist_backward_fwd(gk, x, dist, p) for gk in g])
    n, m = x.shape
    out = np.zeros(x.shape, x.dtype)
    if n < 2 or m == 0:
        return out
    with np.errstate(all="ignore"):
        t = _pdist_terms(np.asarray(g, x.dtype), x, np.asarray(dist, x.dtype), p)
        rows = np.arange(n)
        for s in range(n - 1):
            # step s of every row: (s, i) subtracted where s < i, else (i, s + 1) added
            first = s < rows
            a = np.where(first, s, rows)
            b = np.where(first, rows, s + 1)
            k = a * n - a * (a + 1) // 2 + (b - a - 1)
            term = t[k]
            out = np.where(first[:, None], out - term, out + term)
    return out


def _pdist_vjp(g: Tensor, out: Tensor, x: Tensor, p: float = 2.0) -> tuple:
    return (apply(pdist_backward, g, x, out, p=p),)


def _pdist_no_double(h: Tensor, out: Tensor, *inputs: Tensor, **params: Any) -> tuple:
    raise GradcliError("the derivative for '_pdist_backward' is not implemented.").mirror(
        "RuntimeError"
    )


def _sym_pdist(sp: Any, x: np.ndarray, p: float = 2.0) -> np.ndarray:
    i, j = _pdist_pairs(x.shape[0])
    return _sym_cdist(sp, x[i][:, None, :], x[j][:, None, :], p).reshape(-1)


pdist = defop(
    "pdist",
    _pdist_fwd,
    _pdist_vjp,
    "PdistBackward0",
    "pdist_backward(g, x, d): the pairs' terms (g diff / d, g sign(diff), ...) in ATen's order",
    kind="linalg",
    kink="a zero distance has the zero gradient, as PyTorch",
    signature="pdist(input, p=2.0)",
    sym=_sym_pdist,
    samples=(
        Sample(((4, 3),), distinct=True, hessian=False),
        Sample(((5, 10),), {"p": 1.0}, distinct=True, hessian=False),
        Sample(((3, 18),), {"p": math.inf}, distinct=True, hessian=False),
    ),
    to_torch=lambda w, a, p: f"F.pdist({a[0]}, p={w.lit(float(p.get('p', 2.0)))})",
    to_jax=lambda w, a, p: (
        f"jnp.linalg.vector_norm({a[0]}[jnp.triu_indices({a[0]}.shape[0], 1)[0]] - "
        f"{a[0]}[jnp.triu_indices({a[0]}.shape[0], 1)[1]], "
        f"ord={w.lit(float(p.get('p', 2.0)))}, axis=-1)"
    ),
)

pdist_backward = defop(
    "pdist_backward",
    _pdist_backward_fwd,
    _pdist_no_double,
    "PdistBackwardBackward0",
    "pdist's gradient (PyTorch has no derivative of it)",
    kind="internal",
    saves=False,
    samples=tuple(
        Sample(
            ((3,), (3, 5), (3,)),
            {"p": p},
            fixed={
                0: np.array([0.5, -1.25, 2.0]),
                1: np.linspace(-1.0, 2.0, 15).reshape(3, 5) ** 2,
                2: _pdist_fwd(np.linspace(-1.0, 2.0, 15).reshape(3, 5) ** 2, p),
            },
            hessian=False,
        )
        for p in (1.0, 2.0, math.inf)
    ),
    to_torch=lambda w, a, p: (
        f"torch._pdist_backward({a[0]}, {a[1]}, {w.lit(float(p.get('p', 2.0)))}, {a[2]})"
    ),
)


# --- symbolic forms (sympy, on object arrays; `analysis.symbolic`) -----------------------------
#
# Closed forms where there is one: determinants, inverses (adjugate over determinant), solves,
# Cholesky factors, the pseudo-inverse of a full-rank matrix, distances. QR, the symmetric
# eigendecomposition and the SVD have none gradcli can write (their factors are LAPACK's
# choices of sign), so `gradcli symbolic` says so for programs that use them.


def _per_matrix(sp: Any, a: np.ndarray, f: Any) -> np.ndarray:
    lead = a.shape[:-2]
    outs = {}
    for idx in np.ndindex(*lead):
        outs[idx] = np.asarray(f(sp.Matrix(a[idx].tolist())), dtype=object)
    first = next(iter(outs.values()))
    res = np.empty(lead + first.shape, dtype=object)
    for idx, v in outs.items():
        res[idx] = v
    return res


def _matrix_array(m: Any) -> np.ndarray:
    out = np.empty((m.rows, m.cols), dtype=object)
    for i in range(m.rows):
        for j in range(m.cols):
            out[i, j] = m[i, j]
    return out


def _sym_inv(sp: Any, a: np.ndarray, strict: bool = True) -> np.ndarray:
    return _per_matrix(sp, a, lambda m: _matrix_array(m.adjugate() / m.det()))


def _sym_cholesky_inverse(sp: Any, a: np.ndarray, upper: bool = False) -> np.ndarray:
    # (F F^T)^-1 of the whole F, as PyTorch's gradient takes it (in every entry: for a factor,
    # whose other triangle is zero, the forward's value)
    def one(m: Any) -> np.ndarray:
        lower = m.T if upper else m
        p = lower * lower.T
        return _matrix_array(p.adjugate() / p.det())

    return _per_matrix(sp, a, one)


def _sym_det(sp: Any, a: np.ndarray) -> np.ndarray:
    return _per_matrix(sp, a, lambda m: np.asarray(m.det(), dtype=object))


def _sym_slogdet(sp: Any, a: np.ndarray) -> np.ndarray:
    def one(m: Any) -> np.ndarray:
        d = m.det()
        out = np.empty(2, dtype=object)
        out[0], out[1] = sp.sign(d), sp.log(sp.Abs(d))
        return out

    return _per_matrix(sp, a, one)


def _sym_solve(sp: Any, a: np.ndarray, b: np.ndarray, strict: bool = True) -> np.ndarray:
    inv_a = _sym_inv(sp, a)
    return np.matmul(inv_a, b)


def _sym_cholesky(sp: Any, a: np.ndarray) -> np.ndarray:
    # Of the symmetric part: the rule's gradient is that of a function of symmetric matrices.
    def one(m: Any) -> np.ndarray:
        n = m.rows
        low = [[sp.Integer(0)] * n for _ in range(n)]
        for i in range(n):
            for j in range(i + 1):
                s = (m[i, j] + m[j, i]) / 2 - sum((low[i][k] * low[j][k] for k in range(j)), 0)
                low[i][j] = sp.sqrt(s) if i == j else s / low[j][j]
        return _matrix_array(sp.Matrix(low))

    return _per_matrix(sp, a, one)


def _sym_pinv(sp: Any, a: np.ndarray, **kw: Any) -> np.ndarray:
    def one(m: Any) -> np.ndarray:
        if m.rows >= m.cols:
            g = m.T * m
            return _matrix_array(g.adjugate() / g.det() * m.T)
        g = m * m.T
        return _matrix_array(m.T * g.adjugate() / g.det())

    return _per_matrix(sp, a, one)


def _sym_cdist(sp: Any, x1: np.ndarray, x2: np.ndarray, p: float = 2.0) -> np.ndarray:
    lead = np.broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
    x1 = np.broadcast_to(x1, lead + x1.shape[-2:])
    x2 = np.broadcast_to(x2, lead + x2.shape[-2:])
    out = np.empty(lead + (x1.shape[-2], x2.shape[-2]), dtype=object)
    q = sp.nsimplify(p, rational=True) if p not in (0, math.inf) else None
    for idx in np.ndindex(*out.shape):
        d = [a - b for a, b in zip(x1[idx[:-1]], x2[idx[:-2] + idx[-1:]])]
        if p == math.inf:
            out[idx] = sp.Max(*[sp.Abs(e) for e in d])
        elif p == 2:
            out[idx] = sp.sqrt(sp.Add(*[e**2 for e in d]))
        elif p == 0:
            out[idx] = sp.Add(*[sp.Ne(e, 0) for e in d])
        else:
            out[idx] = sp.Add(*[sp.Abs(e) ** q for e in d]) ** (1 / q)
    return out


def _sym_einsum(sp: Any, *xs: np.ndarray, spec: tuple) -> np.ndarray:
    ins, outl = spec
    sizes: dict[int, int] = {}
    for x, ls in zip(xs, ins):
        for n, lab in zip(np.shape(x), ls):
            sizes[lab] = n
    labels = sorted(sizes)
    res = np.empty(tuple(sizes[lab] for lab in outl), dtype=object)
    terms: dict[tuple, list] = {idx: [] for idx in np.ndindex(*res.shape)}
    for combo in np.ndindex(*(sizes[lab] for lab in labels)):
        val = dict(zip(labels, combo))
        term = 1
        for x, ls in zip(xs, ins):
            term = term * np.asarray(x, dtype=object)[tuple(val[lab] for lab in ls)]
        terms[tuple(val[lab] for lab in outl)].append(term)
    for idx, ts in terms.items():
        res[idx] = sp.Add(*ts)
    return res


def _no_closed_form(name: str) -> Any:
    def sym(sp: Any, *args: Any, **params: Any) -> Any:
        raise TypeError(f"{name} has no closed form (its factors are LAPACK's choices)")

    return sym


def _sym_matrix_exp(sp: Any, a: np.ndarray) -> Any:
    raise TypeError(
        "matrix_exp has no closed form (the exponential of a matrix of symbols is a series; "
        "PyTorch's value is a polynomial whose degree depends on the numbers)"
    )


def _attach() -> None:
    """Give the records above their symbolic forms (declared after them, as they use the
    records' helpers); the module names and the registry then hold the completed records."""
    from ..core.op import register
    from . import linalg as L

    forms = {
        "inv": _sym_inv,
        "det": _sym_det,
        "slogdet": _sym_slogdet,
        "solve": _sym_solve,
        "cholesky": _sym_cholesky,
        "cholesky_inverse": _sym_cholesky_inverse,
        "pinv": _sym_pinv,
        "cdist": _sym_cdist,
        "qr": _no_closed_form("qr"),
        "eigh": _no_closed_form("eigh"),
        "svd": _no_closed_form("svd"),
        "svdvals": _no_closed_form("svdvals"),
        "matrix_exp": _sym_matrix_exp,
    }
    g = globals()
    for name, f in forms.items():
        g[name] = register(g[name].replace(sym=f))
    L.einsum = register(L.einsum.replace(sym=_sym_einsum))


_attach()
