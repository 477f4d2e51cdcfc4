"""LAPACK's symmetric indefinite factorization (Bunch-Kaufman, `sytrf` with uplo='L') and its
solve (`sytrs`), as PyTorch's `torch.linalg.ldl_factor` / `ldl_solve` compute them on the CPU
with MKL: the unblocked algorithm's operations in its order, in the input's dtype (float32 or
float64). MKL's results are those bits for matrices of up to `FACTOR_EXACT` rows (a larger
one it factors in blocks) and, for the solve, of up to `SOLVE_EXACT[dtype]` rows (above, its
vector kernels sum in another order): beyond, the surface refuses rather than print other
bits. Neither is differentiable in PyTorch (its derivative "is not implemented").

Pivots are LAPACK's, 1-based: k for a 1x1 block whose row k was swapped in, -k on both rows
of a 2x2 block."""

from __future__ import annotations

import numpy as np

FACTOR_EXACT = 96
SOLVE_EXACT = {np.dtype(np.float32): 17, np.dtype(np.float64): 10}


def _argmax_abs(v: np.ndarray) -> int:
    """BLAS's i_amax: the first index of the largest magnitude."""
    return int(np.argmax(np.abs(v)))


def factor(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """(LD with the strict upper triangle zero, pivots, info) of one symmetric matrix, read
    from its lower triangle; info is the first (1-based) all-zero pivot column, else 0."""
    a = np.array(a, copy=True)
    T = a.dtype.type
    alpha = (T(1.0) + np.sqrt(T(17.0))) / T(8.0)
    n = a.shape[0]
    ipiv = np.zeros(n, np.int64)
    info = 0
    k = 0
    while k < n:
        kstep = 1
        absakk = abs(a[k, k])
        imax = k + 1 + _argmax_abs(a[k + 1 :, k]) if k < n - 1 else k
        colmax = abs(a[imax, k]) if k < n - 1 else T(0.0)
        if max(absakk, colmax) == 0 or np.isnan(absakk):
            info = info or k + 1
            kp = k
        else:
            if absakk >= alpha * colmax:
                kp = k
            else:
                jmax = k + _argmax_abs(a[imax, k:imax])
                rowmax = abs(a[imax, jmax])
                if imax < n - 1:
                    jmax = imax + 1 + _argmax_abs(a[imax + 1 :, imax])
                    rowmax = max(rowmax, abs(a[jmax, imax]))
                if absakk >= alpha * colmax * (colmax / rowmax):
                    kp = k
                elif abs(a[imax, imax]) >= alpha * rowmax:
                    kp = imax
                else:
                    kp = imax
                    kstep = 2
            kk = k + kstep - 1
            if kp != kk:  # rows and columns kk and kp of the trailing matrix exchanged
                if kp < n - 1:
                    a[kp + 1 :, [kk, kp]] = a[kp + 1 :, [kp, kk]]
                between = a[kk + 1 : kp, kk].copy()
                a[kk + 1 : kp, kk] = a[kp, kk + 1 : kp]
                a[kp, kk + 1 : kp] = between
                a[kk, kk], a[kp, kp] = a[kp, kp], a[kk, kk]
                if kstep == 2:
                    a[k + 1, k], a[kp, k] = a[kp, k], a[k + 1, k]
            if kstep == 1 and k < n - 1:
                r1 = T(1.0) / a[k, k]
                x = a[k + 1 :, k].copy()
                for j in range(n - k - 1):  # the rank-1 update, column by column (syr)
                    if x[j] != 0:
                        a[k + 1 + j :, k + 1 + j] += x[j:] * (-r1 * x[j])
                a[k + 1 :, k] = a[k + 1 :, k] * r1
            elif kstep == 2 and k < n - 2:
                d21 = a[k + 1, k]
                d11 = a[k + 1, k + 1] / d21
                d22 = a[k, k] / d21
                t = T(1.0) / (d11 * d22 - T(1.0))
                d21 = t / d21
                for j in range(k + 2, n):
                    wk = d21 * (d11 * a[j, k] - a[j, k + 1])
                    wkp1 = d21 * (d22 * a[j, k + 1] - a[j, k])
                    a[j:, j] = a[j:, j] - a[j:, k] * wk - a[j:, k + 1] * wkp1
                    a[j, k] = wk
                    a[j, k + 1] = wkp1
        if kstep == 1:
            ipiv[k] = kp + 1
        else:
            ipiv[k] = ipiv[k + 1] = -(kp + 1)
        k += kstep
    return np.tril(a), ipiv, info


def _dot_down(b: np.ndarray, a: np.ndarray, start: int, col: int) -> np.ndarray:
    """sum over i >= start of b[i] * a[i, col], added one row after another (gemv's loop)."""
    s = np.zeros_like(b[0])
    for i in range(start, a.shape[0]):
        s = s + b[i] * a[i, col]
    return s


def solve(a: np.ndarray, ipiv: np.ndarray, b: np.ndarray) -> np.ndarray:
    """X with A X = B from factor()'s LD and pivots (sytrs, lower): L D then L^T."""
    b = np.array(b, copy=True)
    T = a.dtype.type
    n = a.shape[0]
    k = 0
    while k < n:
        if ipiv[k] > 0:
            kp = ipiv[k] - 1
            if kp != k:
                b[[k, kp]] = b[[kp, k]]
            if k < n - 1:
                b[k + 1 :] = b[k + 1 :] - np.outer(a[k + 1 :, k], b[k])
            b[k] = b[k] * (T(1.0) / a[k, k])
            k += 1
        else:
            kp = -ipiv[k] - 1
            if kp != k + 1:
                b[[k + 1, kp]] = b[[kp, k + 1]]
            if k < n - 2:
                b[k + 2 :] = b[k + 2 :] - np.outer(a[k + 2 :, k], b[k])
                b[k + 2 :] = b[k + 2 :] - np.outer(a[k + 2 :, k + 1], b[k + 1])
            akm1k = a[k + 1, k]
            akm1 = a[k, k] / akm1k
            ak = a[k + 1, k + 1] / akm1k
            denom = akm1 * ak - T(1.0)
            bkm1 = b[k] / akm1k
            bk = b[k + 1] / akm1k
            b[k] = (ak * bkm1 - bk) / denom
            b[k + 1] = (akm1 * bk - bkm1) / denom
            k += 2
    k = n - 1
    while k >= 0:
        block = 1 if ipiv[k] > 0 else 2
        if k < n - 1:
            b[k] = b[k] - _dot_down(b, a, k + 1, k)
            if block == 2:
                b[k - 1] = b[k - 1] - _dot_down(b, a, k + 1, k - 1)
        kp = abs(int(ipiv[k])) - 1
        if kp != k:
            b[[k, kp]] = b[[kp, k]]
        k -= block
    return b
