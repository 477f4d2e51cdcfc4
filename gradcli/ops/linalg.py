"""The linear-algebra record: matmul (with its forward-mode rule), which `@`, mm, mv, dot, bmm
and linear all reach."""

from __future__ import annotations

import numpy as np

from ..core.op import Sample, defop
from ..core.tensor import Tensor
from .shape import reshape_to, squeeze, transpose_last, unsqueeze


def _matmul_vjp(g: Tensor, out: Tensor, x: Tensor, y: Tensor) -> tuple:
    # Only the gradients that are wanted (an outer product for a constant weight matrix can be
    # far larger than everything else), and one matrix product, not a stack of vector ones,
    # where an operand is a matrix.
    nx, ny = x.requires_grad, y.requires_grad
    if x.ndim == 1 and y.ndim == 1:
        gu = unsqueeze(g, -1)
        return (gu * y if nx else None, gu * x if ny else None)
    if x.ndim == 1:
        if not nx:
            gx = None
        elif y.ndim == 2:
            gx = g @ transpose_last(y)
        else:
            gx = squeeze(unsqueeze(g, -2) @ transpose_last(y), -2)
        gy = unsqueeze(x, -1) * unsqueeze(g, -2) if ny else None
        return (gx, gy)
    if y.ndim == 1:
        gx = unsqueeze(g, -1) * y if nx else None
        if not ny:
            gy = None
        elif x.ndim == 2:
            gy = g @ x
        else:
            gy = squeeze(unsqueeze(g, -2) @ x, -2)
        return (gx, gy)
    return (g @ transpose_last(y) if nx else None, transpose_last(x) @ g if ny else None)


def _matmul_jvp(dots: tuple, out: Tensor, x: Tensor, y: Tensor) -> Tensor:
    """dx @ y + x @ dy, the tangents `dx`, `dy` (either may be None) with leading batch axes."""
    dx, dy = dots
    nb = dx.ndim - x.ndim if dx is not None else dy.ndim - y.ndim
    total = None
    if dx is not None:
        lead = dx.shape[:nb]
        if x.ndim == 1 and y.ndim > 2:
            total = squeeze(reshape_to(dx, lead + (1,) * (y.ndim - 1) + x.shape) @ y, -2)
        elif x.ndim == 1 or y.ndim == 1:
            total = dx @ y
        else:
            total = reshape_to(dx, lead + (1,) * (out.ndim - x.ndim) + x.shape) @ y
    if dy is not None:
        lead = dy.shape[:nb]
        if y.ndim == 1 and x.ndim == 1:
            t = dy @ x
        elif y.ndim == 1 and x.ndim == 2:
            t = dy @ transpose_last(x)
        elif y.ndim == 1:
            t = squeeze(
                reshape_to(dy, lead + (1,) * (x.ndim - 1) + y.shape) @ transpose_last(x), -2
            )
        else:
            t = x @ reshape_to(dy, lead + (1,) * (out.ndim - y.ndim) + y.shape)
        total = t if total is None else total + t
    return total


def _matmul_fwd(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError("both arguments to matmul need to be at least 1D")
    if (
        x.ndim == 2
        and y.ndim == 2
        and x.dtype == np.float32
        and y.dtype == np.float32
        and y.flags.c_contiguous
        and x.shape[0] >= 2
        and y.shape[1] >= 2
        and 0 < x.shape[1] <= _FMA_MAX_K
        and x.shape[0] * x.shape[1] * y.shape[1] <= _FMA_MAX_WORK
    ):
        return _mm_float32(x, y)
    return np.matmul(x, y)


# Float32 matrix products as PyTorch's (MKL's sgemm, one thread) adds them, measured on PyTorch
# 2.13 for matrices of 2 rows and columns or more whose second operand is row-major, the first
# transposed or not (tens of thousands of shapes, every element tested equal): each element is
# a chain of fused multiply-adds in the order of k, from zero, when the inner size is 384 or
# less; from 385 to 768 the two halves (the first one the larger) are chained apart and then
# added. Elsewhere (a vector operand, a transposed second operand as in `x @ w.t()` and
# `F.linear`, larger inner sizes, float64, batches) MKL's order depends on the shape and the
# CPU, and NumPy's BLAS computes, which differs from MKL in the last bit of some elements.
_FMA_MAX_K = 768
_FMA_MAX_WORK = 1 << 24  # multiply-adds: beyond this, BLAS (a chain costs a pass per k)
_U64 = np.uint64


def _mm_float32(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    k = x.shape[1]
    if k <= 384:
        return _fma_chain(x, y)
    half = (k + 1) // 2
    return _fma_chain(x[:, :half], y[:half]) + _fma_chain(x[:, half:], y[half:])


def _fma_chain(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """acc = fma(x[:, k], y[k], acc) for k in order, from zero, each correctly rounded to
    float32: the product is exact in float64 and the sum is rounded to float64 and then to
    float32, which is wrong only when the first rounding lands on a float32 midpoint; those
    elements are rounded again from the sum's exact error."""
    xs, ys = x.astype(np.float64), y.astype(np.float64)
    acc = np.zeros((x.shape[0], y.shape[1]), np.float32)
    with np.errstate(all="ignore"):
        for k in range(x.shape[1]):
            p = np.multiply.outer(xs[:, k], ys[k])
            c = acc.astype(np.float64)
            s = p + c
            acc = s.astype(np.float32)
            mid = (s.view(_U64) & _U64(0x1FFFFFFF)) == _U64(0x10000000)
            if mid.any():
                sm, pm, cm = s[mid], p[mid], c[mid]
                bb = sm - pm
                err = (pm - (sm - bb)) + (cm - bb)
                acc[mid] = np.where(
                    err != 0, np.nextafter(sm, np.copysign(np.inf, err)), sm
                ).astype(np.float32)
    return acc


matmul = defop(
    "matmul",
    _matmul_fwd,
    _matmul_vjp,
    "MmBackward0",
    "g @ y^T, x^T @ g",
    kind="linalg",
    jvp=_matmul_jvp,
    signature="x @ y, matmul(x, y), mm, mv, dot, bmm",
    samples=tuple(
        Sample(s)
        for s in (
            ((3,), (3,)),
            ((2, 3), (3,)),
            ((3,), (3, 4)),
            ((2, 3), (3, 4)),
            ((2, 2, 3), (3, 4)),
            ((2, 3), (2, 3, 4)),
            ((3,), (2, 3, 4)),
            ((2, 2, 3), (3,)),
            ((2, 1, 2, 3), (3, 3, 2)),
            ((1, 2, 3), (2, 3, 2)),
        )
    ),
)
