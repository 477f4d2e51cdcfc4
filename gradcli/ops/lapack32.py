"""Float32 LU factorisation and LU solves in the order of MKL's LAPACK, as PyTorch 2.13 on the
CPU calls it (sgetrf for det, slogdet, solve and inv; sgetrs for solve and inv, and for the
first-order gradients of det, slogdet and solve), so that float32 `linalg.det`, `slogdet`,
`solve` and `inv` and those gradients give PyTorch's bits.

The orders were measured against torch 2.13 (one thread, AVX-512) with `torch.linalg.lu_factor`
and `lu_solve` on thousands of random matrices per size, element by element (see
`tests/ops/data/lapack32.json`, `tests/ops/test_lapack32.py` and
`benchmarks/lapack32_vs_torch.py`):

- sgetrf for n <= 16 is right-looking: for each column, the first largest |entry| is the pivot
  (its whole row swapped), the column below it is multiplied by the float32 reciprocal of the
  pivot (divided by it instead in column n-2 when n <= 4; an exactly zero pivot leaves its
  zero column alone, as LAPACK does), and every entry of the trailing matrix takes one fused
  multiply-add `a - l * u`, column after column. From 17 to 23 it works in panels of 16
  columns (`_getrf_blocked`); from 24 on it is blocked otherwise (not mirrored here).
- sgetrs swaps B's rows, then solves L (unit) and U. With one right-hand side, or n = 8 or 16,
  both are column sweeps of fused multiply-adds (U's diagonal divides, except with several
  right-hand sides and n = 16, where its reciprocal multiplies). Below 8 rows a row's sum is a
  chain of fused multiply-adds from zero in the order k = 1, 0, 2, 3, ... (L; U mirrored, from
  the bottom), added to B at the end (the second row: fused into B), then multiplied by the
  reciprocal of U's diagonal (n = 3: the last column of an odd count divides). From 9 to 13
  rows with several right-hand sides, 8 rows are a block and the rest are solved around it
  (`_forward_blocked`, `_backward_blocked`); 14 and 15 rows are blocked otherwise, not
  mirrored here. The transposed solve (sgetrs 'T': solve's gradient of B, and solve with
  left=False) sums in vector registers folded half onto half (`_getrs_adjoint`, n <= 8).
- det is the product of U's diagonal in order, times the permutation's sign; slogdet sums MKL's
  float32 log of |U's diagonal| as ATen sums a row. Both factor the matrix as its memory reads
  column-major: A^T for a row-major (contiguous) A, A itself for a transposed one; solve and
  inv factor A.

On the avx2 kernel family (MKL's generic code on an AMD EPYC, measured against torch 2.13
there with ctypes probes of its sgetrf and end to end): the same orders, but each product is
rounded before it is added (`_fma32`), and n = 3's U solve multiplies by the reciprocal for
every right-hand side. Exact there: det, slogdet and solve with one right-hand side for
n = 2 to 16, inv and solve with several for n <= 8, det's gradient for n <= 8, solve's
gradients for n <= 3 (from 4 on sgetrs 'T' sums otherwise: partly); not: the blocked sizes
(sgetrf from 17, sgetrs with several right-hand sides from 9).

Each function returns None where the order is not measured (other sizes, dtypes, a zero pivot
for a solve, a non-finite entry): the caller keeps NumPy's LAPACK there."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import cpu, mkl32
from ..core.summation import sum_float
from .linalg import _FMA_MAX_WORK
from .linalg import _fma32 as _fused

_F32 = np.float32
_F64 = np.float64
GETRF_MAX = 23  # the sizes whose factorisation order is measured bit for bit


def _fma32(prod: np.ndarray, c: np.ndarray) -> np.ndarray:
    """prod + c rounded once to float32 (prod: exact float64 products of float32 values), as
    MKL's AVX-512 code adds; on the avx2 family (MKL's generic code on an AMD processor: no
    fused multiply-add) the product is rounded first."""
    if cpu.mkl_avx2():
        return prod.astype(_F32) + c
    return _fused(prod, c)


def _usable(a: np.ndarray, rhs: int = 0) -> bool:
    """A float32 stack of square matrices whose order is measured, finite, and small enough
    in all: the emulated fused multiply-adds cost about a pass over the data per step, so
    past _FMA_MAX_WORK multiply-adds (about 2,000 16 x 16 inverses) NumPy's LAPACK is kept."""
    n = a.shape[-1]
    return (
        a.dtype == _F32
        and a.ndim >= 2
        and a.shape[-2] == n
        and 1 <= n <= GETRF_MAX
        and a.size > 0
        and a.size * (n + rhs) <= _FMA_MAX_WORK
        and bool(np.isfinite(a).all())
    )


def _fold(lanes: list[np.ndarray | None]) -> np.ndarray:
    """The horizontal sum of a vector register's lanes (None: empty): the upper half added to
    the lower half until one lane is left."""
    while len(lanes) > 1:
        half = len(lanes) // 2
        lanes = [
            x if y is None else y if x is None else x + y
            for x, y in zip(lanes[:half], lanes[half:], strict=True)
        ]
    return lanes[0]


def _panel_row(a: np.ndarray, low: np.ndarray, up: np.ndarray) -> np.ndarray:
    """A row of U inside a panel of the blocked sgetrf: a (N, c) plus the sum of the K
    products -low[:, k] * up[:, k, :] (low (N, K), up (N, K, c)), the rounded products in 8
    lanes by k mod 8 folded half onto half. The first c - c % 4 columns (MKL's 8- and
    4-column kernels) start lane 1 with fma(p1, round(p0)) and add the sum to a; the last
    c % 4 put p1 in lane 1 as the others and add round(p0) + sum to a."""
    count = low.shape[1]
    if count == 0:
        return a
    c = a.shape[1]
    p = [-(low[:, k, None].astype(_F64) * up[:, k, :]) for k in range(count)]
    r = [q.astype(_F32) for q in p]
    out = np.empty_like(a)
    split = c - c % 4
    for cols, fused in ((slice(0, split), True), (slice(split, c), False)):
        if cols.start == cols.stop:
            continue
        lanes: list[np.ndarray | None] = [None] * 8
        if count == 1:
            head = r[0][:, cols]
        elif fused:
            head = _fma32(p[1][:, cols], r[0][:, cols])
        else:
            head = r[1][:, cols]
        lanes[1] = head
        for k in range(2, count):
            q = k % 8
            lanes[q] = r[k][:, cols] if lanes[q] is None else lanes[q] + r[k][:, cols]
        total = _fold(lanes)
        if not fused and count > 1:
            total = r[0][:, cols] + total
        out[:, cols] = a[:, cols] + total
    return out


def _pivot(lu: np.ndarray, piv: np.ndarray, rows: np.ndarray, k: int) -> None:
    """Column k's partial pivoting, in place: the first row of largest magnitude from k down
    (recorded in `piv`) swapped with row k, matrix by matrix."""
    p = k + np.argmax(np.abs(lu[:, k:, k]), axis=1)
    piv[:, k] = p
    swap = p != k
    if swap.any():
        r, q = rows[swap], p[swap]
        top = lu[r, k].copy()
        lu[r, k] = lu[r, q]
        lu[r, q] = top


def _getrf_blocked(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sgetrf for 17 <= n <= 23: panels of 16 columns. In a panel, each column below the
    diagonal takes its fused updates from the panel's earlier columns in order, is pivoted
    and scaled by the reciprocal; the pivot row's U entries in the panel are `_panel_row`.
    Then U12 = L11^-1 A12 by fused column sweeps, and A22 less L21 U12 (each entry's dot
    product a chain of fused multiply-adds from zero, subtracted once)."""
    lu = np.array(a, dtype=_F32)
    count, n, _ = lu.shape
    piv = np.zeros((count, n), dtype=np.intp)
    rows = np.arange(count)
    with np.errstate(all="ignore"):
        for k0 in range(0, n, 16):
            k1 = min(k0 + 16, n)
            for k in range(k0, k1):
                col = lu[:, k:, k]
                for m in range(k0, k):
                    col = _fma32(-(lu[:, k:, m].astype(_F64) * lu[:, m, k, None]), col)
                lu[:, k:, k] = col
                _pivot(lu, piv, rows, k)
                d = lu[:, k, k][:, None]
                lu[:, k + 1 :, k] = lu[:, k + 1 :, k] * (_F32(1) / np.where(d == 0, _F32(1), d))
                if k + 1 < k1:
                    lu[:, k, k + 1 : k1] = _panel_row(
                        lu[:, k, k + 1 : k1], lu[:, k, k0:k], lu[:, k0:k, k + 1 : k1]
                    )
            if k1 < n:
                for m in range(k0, k1 - 1):
                    prod = lu[:, m + 1 : k1, m, None].astype(_F64) * lu[:, m, None, k1:]
                    lu[:, m + 1 : k1, k1:] = _fma32(-prod, lu[:, m + 1 : k1, k1:])
                low, up = lu[:, k1:, k0:k1], lu[:, k0:k1, k1:]
                s = low[:, :, 0, None] * up[:, None, 0, :]
                for m in range(1, k1 - k0):
                    s = _fma32(low[:, :, m, None].astype(_F64) * up[:, None, m, :], s)
                lu[:, k1:, k1:] = lu[:, k1:, k1:] - s
    return lu, piv


def _getrf(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """LU of a stack (N, n, n) of float32 matrices: (LU, 0-based pivot rows (N, n))."""
    if a.shape[-1] > 16:
        return _getrf_blocked(a)
    lu = np.array(a, dtype=_F32)
    count, n, _ = lu.shape
    piv = np.zeros((count, n), dtype=np.intp)
    rows = np.arange(count)
    with np.errstate(all="ignore"):
        for k in range(n):
            _pivot(lu, piv, rows, k)
            if k + 1 == n:
                break
            d = lu[:, k, k][:, None]
            zero = d == 0
            if n <= 4 and k == n - 2:
                scaled = lu[:, k + 1 :, k] / np.where(zero, _F32(1), d)
            else:
                scaled = lu[:, k + 1 :, k] * (_F32(1) / np.where(zero, _F32(1), d))
            lu[:, k + 1 :, k] = scaled
            prod = lu[:, k + 1 :, k, None].astype(_F64) * lu[:, k, None, k + 1 :]
            lu[:, k + 1 :, k + 1 :] = _fma32(-prod, lu[:, k + 1 :, k + 1 :])
    return lu, piv


def _dot(m: np.ndarray, x: np.ndarray, i: int, order: list[int]) -> np.ndarray:
    """-sum_k m[:, i, k] x[:, k, :] as a chain of fused multiply-adds from zero, in `order`."""
    s = None
    for k in order:
        p = -(m[:, i, k, None].astype(_F64) * x[:, k, :])
        s = p.astype(_F32) if s is None else _fma32(p, s)
    return s


def _trsm_lower(m: np.ndarray, x: np.ndarray, diag: str | None) -> np.ndarray:
    """m X = x for a stack of lower-triangular m, in place on x (N, n, nrhs): diag None (unit),
    'div' or 'rcp' (the reciprocal of the diagonal multiplies), or 'small-n3' (n = 3: the
    reciprocal for column pairs, a division for the last column of an odd count)."""
    n, nrhs = m.shape[-1], x.shape[-1]

    def scale(i: int) -> None:
        if diag is None:
            return
        d = m[:, i, i, None]
        if diag == "div":
            x[:, i] = x[:, i] / d
            return
        r = x[:, i] * (_F32(1) / d)
        if diag == "small-n3" and nrhs % 2 == 1:
            r[:, -1] = x[:, i, -1] / d[:, 0]
        x[:, i] = r

    if n >= 8:  # a column sweep (the caller checked the shape)
        for k in range(n):
            scale(k)
            if k + 1 < n:
                prod = m[:, k + 1 :, k, None].astype(_F64) * x[:, k, None, :]
                x[:, k + 1 :, :] = _fma32(-prod, x[:, k + 1 :, :])
        return x
    for i in range(n):
        if i == 1:
            x[:, 1] = _fma32(-(m[:, 1, 0, None].astype(_F64) * x[:, 0, :]), x[:, 1])
        elif i >= 2:
            x[:, i] = x[:, i] + _dot(m, x, i, [1, 0, *range(2, i)])
        scale(i)
    return x


def _fma_row(m: np.ndarray, x: np.ndarray, i: int, ks: Any) -> None:
    for k in ks:
        x[:, i] = _fma32(-(m[:, i, k, None].astype(_F64) * x[:, k, :]), x[:, i])


def _forward_blocked(lu: np.ndarray, x: np.ndarray) -> np.ndarray:
    """L Y = B for 9 <= n <= 13 with several right-hand sides: the first 8 rows by a column
    sweep, then each remaining row less its dot product (from zero) with those 8, then the
    remaining rows' own products as fused multiply-adds; the last row, when an odd number
    remain, is one dot product from zero over all its products instead."""
    n = lu.shape[-1]
    _trsm_lower(lu[:, :8, :8], x[:, :8], None)
    for i in range(8, n):
        if i == n - 1 and (n - 8) % 2 == 1 and i > 8:
            x[:, i] = x[:, i] + _dot(lu, x, i, list(range(i)))
        else:
            x[:, i] = x[:, i] + _dot(lu, x, i, list(range(8)))
            _fma_row(lu, x, i, range(8, i))
    return x


def _backward_blocked(lu: np.ndarray, x: np.ndarray) -> np.ndarray:
    """U X = Y for 9 <= n <= 13 with several right-hand sides: the rows below the first 8
    first (with an odd number of them, each row's bottom product rounded and added to Y, the
    others fused in from the bottom; with an even number, all fused in from the bottom), then
    the first 8 rows less their dot products (from zero) with those, by a column sweep from
    the bottom; the reciprocal of the diagonal multiplies."""
    n = lu.shape[-1]
    odd = (n - 8) % 2 == 1
    for i in range(n - 1, 7, -1):
        ks = list(range(n - 1, i, -1))
        if odd and ks:
            p = -(lu[:, i, ks[0], None].astype(_F64) * x[:, ks[0], :])
            x[:, i] = x[:, i] + p.astype(_F32)
            ks = ks[1:]
        _fma_row(lu, x, i, ks)
        x[:, i] = x[:, i] * (_F32(1) / lu[:, i, i, None])
    for i in range(8):
        x[:, i] = x[:, i] + _dot(lu, x, i, list(range(8, n)))
    top = lu[:, :8, :8][:, ::-1, ::-1]
    x[:, :8] = _trsm_lower(top, x[:, :8][:, ::-1].copy(), "rcp")[:, ::-1]
    return x


def swap_rows(x: np.ndarray, piv: np.ndarray, order: Any) -> None:
    """LAPACK's laswp over a batch, in place: row j of each x (batch, n, ...) exchanged with
    row piv[:, j] (0-based), for j in `order` (forward to apply P^T, backward to apply P)."""
    rows = np.arange(len(x))
    for j in order:
        q = piv[:, j]
        swap = q != j
        if swap.any():
            r, s = rows[swap], q[swap]
            top = x[r, j].copy()
            x[r, j] = x[r, s]
            x[r, s] = top


def _getrs(lu: np.ndarray, piv: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """X with A X = B from A's LU (N, n, n), pivots (N, n) and B (N, n, nrhs); None where the
    order is not measured."""
    n, nrhs = lu.shape[-1], b.shape[-1]
    if not (n <= 13 or n == 16 or nrhs == 1):
        return None
    blocked = 9 <= n <= 13 and nrhs > 1
    x = np.array(b, dtype=_F32)
    swap_rows(x, piv, range(n))
    with np.errstate(all="ignore"):
        if blocked:
            return np.ascontiguousarray(_backward_blocked(lu, _forward_blocked(lu, x)))
        x = _trsm_lower(lu, x, None)
        if n >= 8:
            diag = "rcp" if (nrhs > 1 and n == 16) else "div"
        else:
            # (the avx2 family's n = 3 multiplies by the reciprocal throughout)
            diag = "small-n3" if n == 3 and not cpu.mkl_avx2() else "rcp"
        # U X = Y is the lower solve of the matrix and rows reversed
        up = lu[:, ::-1, ::-1]
        x = _trsm_lower(up, x[:, ::-1].copy(), diag)[:, ::-1]
    return np.ascontiguousarray(x)


def _stack(a: np.ndarray) -> np.ndarray:
    return a.reshape((-1,) + a.shape[-2:])


def solve(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """torch.linalg.solve(A, B) for float32 (..., n, n) and (..., n, k) (batch axes broadcast),
    or None (not measured, or a zero pivot: the caller's path gives the error or NaNs)."""
    if not _usable(a) or b.dtype != _F32 or b.ndim < 2 or not np.isfinite(b).all():
        return None
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    aa = _stack(np.broadcast_to(a, shape + a.shape[-2:]))
    bb = _stack(np.broadcast_to(b, shape + b.shape[-2:]))
    if not _usable(aa, bb.shape[-1]):
        return None
    if bb.shape[-1] == 0 or len(aa) == 0:
        return None
    lu, piv = _getrf(aa)
    if (np.diagonal(lu, axis1=1, axis2=2) == 0).any():
        return None
    x = _getrs(lu, piv, bb)
    return None if x is None else x.reshape(shape + b.shape[-2:])


def inv(a: np.ndarray) -> np.ndarray | None:
    """torch.linalg.inv(A): ATen solves A X = I."""
    if not _usable(a, a.shape[-1]):
        return None
    eye = np.broadcast_to(np.eye(a.shape[-1], dtype=_F32), a.shape)
    return solve(a, eye)


def _det_lu(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The LU that ATen's det and slogdet take: of the matrices as their memory reads
    column-major (A^T for a contiguous A; det A^T = det A)."""
    m = _stack(a)
    if a.flags.c_contiguous:
        m = np.swapaxes(m, -1, -2)
    return _getrf(m)


def _perm_sign(piv: np.ndarray) -> np.ndarray:
    odd = (piv != np.arange(piv.shape[-1])).sum(-1) % 2 == 1
    return np.where(odd, _F32(-1), _F32(1))


def det(a: np.ndarray) -> np.ndarray | None:
    if not _usable(a):
        return None
    lu, piv = _det_lu(a)
    d = np.diagonal(lu, axis1=1, axis2=2)
    out = d[:, 0].copy()
    with np.errstate(all="ignore"):
        for k in range(1, d.shape[1]):
            out = out * d[:, k]
    return (out * _perm_sign(piv)).reshape(a.shape[:-2])


def slogdet(a: np.ndarray) -> np.ndarray | None:
    """(sign, log|det|) stacked on a last axis, as the record's value."""
    if not _usable(a):
        return None
    lu, piv = _det_lu(a)
    d = np.ascontiguousarray(np.diagonal(lu, axis1=1, axis2=2))
    sign = np.prod(np.sign(d), axis=-1) * _perm_sign(piv)
    with np.errstate(all="ignore"):
        logabs = sum_float(mkl32.logf(np.abs(d)), (1,), False).astype(_F32)
    out = np.stack([sign.astype(_F32), logabs], axis=-1)
    return out.reshape(a.shape[:-2] + (2,))


def _nudge_zero_pivots(lu: np.ndarray) -> None:
    """A singular matrix's zero pivots replaced by the dtype's epsilon, in place: ATen's
    first-order det gradient solves against this nudged LU (det being C^1), so a singular
    matrix's gradient is det * grad (0, signed) times the nudged inverse."""
    n = lu.shape[-1]
    diag = lu[:, np.arange(n), np.arange(n)]
    lu[:, np.arange(n), np.arange(n)] = np.where(diag == 0, np.finfo(lu.dtype).eps, diag)


def det_grad(
    a: np.ndarray, c: np.ndarray, g: np.ndarray | None = None, nudge: bool = False
) -> np.ndarray | None:
    """c A^-T as ATen's first-order det and slogdet backward compute it: an LU solve of the
    forward's factorisation (of A^T for a contiguous A) against diag(c), c = det * grad for
    det and the logabsdet gradient for slogdet. None where not measured, or singular; with
    `nudge` (det's) a singular matrix's zero pivots are nudged to epsilon, as ATen does for
    det. det's gradient of a 1 x 1 matrix is its upstream gradient `g` itself (measured)."""
    if not _usable(a, a.shape[-1]) or c.dtype != _F32 or c.size != int(np.prod(a.shape[:-2])):
        return None  # (a gradient with more leading axes than A: the rule's general path)
    if g is not None and a.shape[-1] == 1:
        return np.asarray(g, dtype=_F32).reshape(a.shape)
    lu, piv = _det_lu(a)
    if nudge:
        _nudge_zero_pivots(lu)
    elif (np.diagonal(lu, axis1=1, axis2=2) == 0).any():
        return None
    n = a.shape[-1]
    cc = c.reshape(-1)
    rhs = np.zeros((len(cc), n, n), dtype=_F32)
    rhs[:, np.arange(n), np.arange(n)] = cc[:, None]
    x = _getrs(lu, piv, rhs)
    if x is None:
        return None
    if not a.flags.c_contiguous:  # A's own LU: A^T X = D is the transposed solve, not measured
        return None
    return x.reshape(a.shape)


def _fold_register(r: list[np.ndarray], width: int) -> np.ndarray:
    """The horizontal sum of a register of `width` lanes holding r (the rest empty)."""
    return _fold(list(r) + [None] * (width - len(r)))


def _getrs_adjoint(lu: np.ndarray, piv: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """X with A^T X = B from A's LU (sgetrs 'T'): U^T Y = B, L^T Z = Y, then the row swaps in
    reverse. Measured for n <= 8. U^T's row i sums its i products in a vector register (2
    lanes up to n = 4, 4 up to 6, 8 beyond; folded half onto half) added to B, the products
    a register does not hold following as fused multiply-adds; below n = 7 a sum shorter than
    the register, and the one product of the first row at n = 7, is a chain of fused
    multiply-adds into B instead. Then the reciprocal of the diagonal multiplies (at n = 8 the
    diagonal divides). L^T's rows, from the bottom: a chain from zero in the order i+2, i+1,
    i+3, ... added to B (one product: fused into B); at n = 8 a register's sum, added."""
    n = lu.shape[-1]
    if n > 8:
        return None
    x = np.array(b, dtype=_F32)
    width = 2 if n <= 4 else 4 if n <= 6 else 8

    def prod(i: int, k: int) -> np.ndarray:
        coef = lu[:, k, i]  # (U^T)[i, k] = U[k, i] and (L^T)[i, k] = L[k, i]
        return -(coef[:, None].astype(_F64) * x[:, k, :])

    with np.errstate(all="ignore"):
        for i in range(n):  # U^T, lower, non-unit
            if width == 8:
                used = i if (n == 8 or i >= 2) else 0
            else:
                used = width if i >= width else 0
            v = x[:, i]
            if used:
                v = v + _fold_register([prod(i, k).astype(_F32) for k in range(used)], width)
            for k in range(used, i):
                v = _fma32(prod(i, k), v)
            d = lu[:, i, i, None]
            x[:, i] = v / d if n == 8 else v * (_F32(1) / d)
        for i in range(n - 2, -1, -1):  # L^T, upper, unit
            ks = list(range(i + 1, n))
            if n == 8:
                x[:, i] = x[:, i] + _fold_register([prod(i, k).astype(_F32) for k in ks], 8)
            elif len(ks) == 1:
                x[:, i] = _fma32(prod(i, ks[0]), x[:, i])
            else:
                s = None
                for k in [i + 2, i + 1, *range(i + 3, n)]:
                    p = prod(i, k)
                    s = p.astype(_F32) if s is None else _fma32(p, s)
                x[:, i] = x[:, i] + s
    rows = np.arange(len(x))
    for k in range(n - 1, -1, -1):
        p = piv[:, k]
        swap = p != k
        if swap.any():
            r, q = rows[swap], p[swap]
            top = x[r, k].copy()
            x[r, k] = x[r, q]
            x[r, q] = top
    return x


def solve_grad_b(a: np.ndarray, g: np.ndarray) -> np.ndarray | None:
    """A^-T g as ATen's first-order solve backward computes it: lu_solve of the forward's LU of
    A with adjoint=True (sgetrs 'T'); g has the solution's shape (..., n, k). None where not
    measured (n > 8) or singular."""
    if not _usable(a) or a.shape[-1] > 8 or g.dtype != _F32 or g.ndim < 2:
        return None
    if not np.isfinite(g).all():
        return None
    try:
        shape = np.broadcast_shapes(a.shape[:-2], g.shape[:-2])
    except ValueError:
        return None
    if shape != g.shape[:-2] or g.shape[-2] != a.shape[-1] or g.size == 0:
        return None
    aa = _stack(np.broadcast_to(a, shape + a.shape[-2:]))
    if not _usable(aa, g.shape[-1]):
        return None
    lu, piv = _getrf(aa)
    if (np.diagonal(lu, axis1=1, axis2=2) == 0).any():
        return None
    x = _getrs_adjoint(lu, piv, _stack(g))
    return None if x is None else x.reshape(g.shape)


# --- float64 det: the LU ATen takes, measured against PyTorch 2.13 for n <= 16 ---------------

GETRF64_MAX = 16


def _getrf64(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """dgetrf of a stack (N, n, n), n <= 16, as ATen's LAPACK computes it: partial pivoting
    (the first largest magnitude), the column below the pivot scaled by the pivot's reciprocal
    (divided at k = n - 2 for n <= 4) and the trailing block updated by fused multiply-adds;
    on the avx2 and zen4 families (MKL's AVX2 code on an AMD processor) each product rounded
    before it is subtracted (measured on Zen 4 against torch 2.13: lu_factor of 300 random
    matrices per size 2 to 16, both layouts, and det, every bit)."""
    from ..core.fma64 import _fma64

    plain = cpu.mkl_avx2()

    lu = np.array(m, dtype=_F64)
    count, n, _ = lu.shape
    piv = np.zeros((count, n), dtype=np.intp)
    rows = np.arange(count)
    with np.errstate(all="ignore"):
        for k in range(n):
            _pivot(lu, piv, rows, k)
            if k + 1 == n:
                break
            d = lu[:, k, k][:, None]
            safe = np.where(d == 0, 1.0, d)
            if n <= 4 and k == n - 2:
                scaled = lu[:, k + 1 :, k] / safe
            else:
                scaled = lu[:, k + 1 :, k] * (1.0 / safe)
            lu[:, k + 1 :, k] = np.where(d == 0, lu[:, k + 1 :, k], scaled)
            if plain:
                lu[:, k + 1 :, k + 1 :] -= lu[:, k + 1 :, k, None] * lu[:, k, None, k + 1 :]
            else:
                lu[:, k + 1 :, k + 1 :] = _fma64(
                    -lu[:, k + 1 :, k, None], lu[:, k, None, k + 1 :], lu[:, k + 1 :, k + 1 :]
                )
    return lu, piv


def _usable64(a: np.ndarray) -> bool:
    n = a.shape[-1]
    return (
        a.dtype == _F64
        and a.ndim >= 2
        and a.shape[-2] == n
        and 1 <= n <= GETRF64_MAX
        and a.size > 0
        and a.size * n <= _FMA_MAX_WORK
        and bool(np.isfinite(a).all())
    )


def det64(a: np.ndarray) -> np.ndarray | None:
    """torch.linalg.det of float64 matrices: the product of the LU's diagonal (of A^T for a
    contiguous A), in order, signed by the row swaps (NumPy's det goes through a logarithm
    and misses PyTorch's last bits, 5.000000000000001 for [[2, 1], [1, 3]])."""
    if not _usable64(a):
        return None
    m = _stack(a)
    lu, piv = _getrf64(np.swapaxes(m, -1, -2) if a.flags.c_contiguous else m)
    d = np.diagonal(lu, axis1=1, axis2=2)
    out = d[:, 0].copy()
    with np.errstate(all="ignore"):
        for k in range(1, d.shape[1]):
            out = out * d[:, k]
    odd = (piv != np.arange(piv.shape[-1])).sum(-1) % 2 == 1
    return (out * np.where(odd, -1.0, 1.0)).reshape(a.shape[:-2])


def _plain_madd(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    return a * b + c


def slogdet64(a: np.ndarray) -> np.ndarray | None:
    """torch.linalg.slogdet of float64 matrices, (sign, log|det|) stacked on a last axis: from
    det64's LU, the sign the product of the signs of U's diagonal in order times the
    permutation's (a singular matrix's sign is then 0 with the sign of that product: -0. as
    PyTorch prints it where NumPy's slogdet gives +0.), log|det| the sum of the logarithms."""
    if not _usable64(a):
        return None
    m = _stack(a)
    lu, piv = _getrf64(np.swapaxes(m, -1, -2) if a.flags.c_contiguous else m)
    d = np.ascontiguousarray(np.diagonal(lu, axis1=1, axis2=2))
    sign = np.sign(d[:, 0])
    for k in range(1, d.shape[1]):
        sign = sign * np.sign(d[:, k])
    sign = sign * _perm_sign(piv).astype(_F64)
    with np.errstate(all="ignore"):
        logabs = sum_float(np.log(np.abs(d)), (1,), False)
    return np.stack([sign, logabs], axis=-1).reshape(a.shape[:-2] + (2,))


def det_grad64(a: np.ndarray, c: np.ndarray) -> np.ndarray | None:
    """det's first-order gradient of float64 matrices, c A^-T with c = det * grad: ATen's LU
    solve of diag(c) against the forward's factorisation (of A^T). The row swaps, then the
    unit lower and the upper triangle by chains of fused multiply-adds, the upper's rows
    scaled by the reciprocal of the diagonal. Bit for bit at n = 2 and on the small integer
    matrices tutorials use; within an ulp or two of PyTorch beyond. On the avx2 and zen4
    families each product is rounded before it is added (Zen 4: every bit at n = 2, 72% of
    random 3 x 3, from 4 on MKL's row order differs, not mirrored)."""
    from ..core.fma64 import _fma64

    if cpu.mkl_avx2():
        _fma64 = _plain_madd  # noqa: N806
    if not _usable64(a) or not a.flags.c_contiguous or c.size != int(np.prod(a.shape[:-2])):
        return None
    lu, piv = _getrf64(np.swapaxes(_stack(a), -1, -2))
    _nudge_zero_pivots(lu)
    count, n, _ = lu.shape
    x = np.zeros((count, n, n))
    x[:, np.arange(n), np.arange(n)] = np.asarray(c, dtype=_F64).reshape(-1)[:, None]
    rows = np.arange(count)
    with np.errstate(all="ignore"):
        for k in range(n):
            p = piv[:, k]
            xk, xp = x[rows, k].copy(), x[rows, p].copy()
            x[rows, k], x[rows, p] = xp, xk
        for i in range(n):
            v = x[:, i]
            for k in range(i):
                v = _fma64(-lu[:, i, k, None], x[:, k], v)
            x[:, i] = v
        for i in range(n - 1, -1, -1):
            v = x[:, i]
            for k in range(i + 1, n):
                v = _fma64(-lu[:, i, k, None], x[:, k], v)
            x[:, i] = v * (1.0 / lu[:, i, i, None])
    return x.reshape(a.shape)


# --- strsm as linalg.solve_triangular calls it ---------------------------------------------------
#
# ATen hands MKL a row-major A as its transpose read column-major (strsm with 'T'), B copied
# column-major. Measured against torch 2.13 (one thread, AVX-512) on 40 random systems per size
# n = 1..7, upper and lower, unit and not, 1, 2, 3, 5 and 8 right-hand sides, row by row
# (torch's own solved entries fed in): every product is rounded to float32 on its own (no fused
# multiply-add) and the rows are solved in pairs (lower: rows 0-1, 2-3, ... from the top;
# upper: rows n-1 - n-2, n-3 - n-4, ... from the bottom).
# - One right-hand side: each product is subtracted from B's entry in turn, the other pair
#   row's last (upper) or in column order (lower); the diagonal divides.
# - Several: the products are summed first, in the same order, and the sum subtracted; not
#   unit, the pair row's product is subtracted on its own before the sum of the rest (and upper
#   row n-3, n >= 4, subtracts its two products one by one); the reciprocal of the diagonal
#   multiplies.
# A column-major A (given as is, strsm 'N'; ATen copies any other layout so): one right-hand
# side is a column sweep (each solved entry's products subtracted from the rows below in
# turn); several follow the orders above up to n = 4 (from 5 on MKL sums a row's four or more
# products otherwise, not mirrored: those orders are kept, the nearest measured).
# solve_triangular(left=False), X A = B (strsm 'R' on a row-major A): each row of X by a
# column sweep, the reciprocal of the diagonal multiplying when X has several rows.
# From 8 rows on MKL sums some products otherwise (in blocks of 8, not mirrored); the same order
# is kept up to 16 rows (float32), the nearest measured: against torch 2.13 here, a
# column-major A with one right-hand side is exact to 16 rows, a row-major one to 10 (but 2% of
# the systems at 9; 72-84% of the entries at 12 and 16), several right-hand sides 61% to 97%
# of the entries (NumPy's sweep, kept before: 32% to 51%). Past 16, NumPy's sweep.
TRSM_EXACT_MAX = 7
TRSM_MAX = 16
# float64 (dtrsm): A row-major ('T'): the one-right-hand-side order for any number of them (the
# reciprocal multiplying for several), exact for n <= 7 with one, n <= 4 with several (from 5
# on it sums some products in pairs, not mirrored). A column-major ('N', torch.triangular_solve
# without transpose): one right-hand side a column sweep dividing (NumPy's order, exact to 8
# rows at least); several the same row pairs and order as 'T', the reciprocal multiplying,
# exact to n = 5 (measured on Zen 4, 120 random systems per n, 2, 3 and 5 right-hand sides,
# upper and lower; from 6 rows 0% to 48%); past that the column sweep, the reciprocal
# multiplying (nearer than dividing).
TRSM64_MULTI_MAX = 4


def trsm64_multi_max(transposed: bool) -> int:
    """The largest n whose float64 order with several right-hand sides is MKL's: 'T' on the
    avx512 family TRSM64_MULTI_MAX; on the AMD families (MKL's AVX2 dtrsm, measured on Zen 4,
    30 random systems per n, 2 to 8 right-hand sides, unit or not) and for 'N', 5."""
    return TRSM64_MULTI_MAX if transposed and not cpu.mkl_avx2() else 5


def _trsm_groups(
    n: int, i: int, upper: bool, multi: bool, unit: bool, transposed: bool = True
) -> list[list[int]]:
    """The columns whose products row i subtracts: a list of groups, each summed in order and
    the sum subtracted (groups of one: the product itself)."""
    if not transposed and not multi:  # a column sweep: the solved rows in their order
        return [[k] for k in (range(n - 1, i, -1) if upper else range(i))]
    if upper:
        order = list(range(i + 1, n))
        partner = (n - 1 - i) % 2 == 1
        if partner:
            order = order[1:] + order[:1]
    else:
        order = list(range(i))
        partner = i % 2 == 1
    if not multi:
        return [[k] for k in order]
    if unit:
        return [order] if order else []
    if upper and i == n - 3 and i >= 1:
        return [[n - 2], [n - 1]]
    if partner:
        near = i + 1 if upper else i - 1
        rest = [k for k in order if k != near]
        return [[near]] + ([rest] if rest else [])
    return [order] if order else []


def trsm(
    a: np.ndarray,
    b: np.ndarray,
    upper: bool,
    unit: bool,
    transposed: bool = True,
    right: bool = False,
) -> np.ndarray | None:
    """X with A X = B for float32 (or float64) triangular A (..., n, n) and B (..., n, k),
    batch axes broadcast, in MKL's order as torch.linalg.solve_triangular gives it (exact to
    TRSM_EXACT_MAX rows, the nearest measured order to TRSM_MAX: see there); None where the
    order is not measured (other dtypes, n > TRSM_MAX; float64: see TRSM64_MULTI_MAX). A
    float32 A given column-major (`transposed=False`) with several right-hand sides is exact
    up to n = 4 only (then 85% to 95% of the entries). `right`: the system X A^T = B^T that
    solve_triangular(left=False) hands MKL (strsm 'R'), given here transposed as A X = B:
    float32 only, a column sweep whatever the number of right-hand sides."""
    dt = a.dtype
    if dt not in (_F32, _F64) or b.dtype != dt or a.shape[-1] > TRSM_MAX or a.ndim < 2:
        return None
    if dt == _F64 and (
        right
        or a.shape[-1] > TRSM_EXACT_MAX
        or (b.shape[-1] > 1 and a.shape[-1] > trsm64_multi_max(transposed))
        or (not transposed and b.shape[-1] == 1)  # (NumPy's column sweep is MKL's order)
    ):
        return None
    if right and a.shape[-1] > TRSM_EXACT_MAX:  # (strsm 'R' measured to 7 rows only)
        return None
    n, k = a.shape[-1], b.shape[-1]
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    aa = _stack(np.broadcast_to(a, shape + a.shape[-2:]))
    x = np.array(_stack(np.broadcast_to(b, shape + b.shape[-2:])), dtype=dt)
    rows = range(n - 1, -1, -1) if upper else range(n)
    with np.errstate(all="ignore"):
        for i in rows:
            v = x[:, i, :]
            # (dtrsm: one product at a time for any number of right-hand sides)
            multi = k > 1 and dt == _F32 and not right
            # (dtrsm 'N' with several right-hand sides: the rows in pairs as 'T' takes them)
            paired = (transposed or dt == _F64) and not right
            for group in _trsm_groups(n, i, upper, multi, unit, paired):
                s = aa[:, i, group[0], None] * x[:, group[0], :]
                for c in group[1:]:
                    s = s + aa[:, i, c, None] * x[:, c, :]
                v = v - s
            if not unit:
                d = aa[:, i, i, None]
                v = v / d if k == 1 else v * (dt.type(1) / d)
            x[:, i, :] = v
    return x.reshape(shape + b.shape[-2:])
