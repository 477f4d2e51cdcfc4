"""The linear-algebra record: matmul (with its forward-mode rule), which `@`, mm, mv, dot, bmm
and linear all reach."""

from __future__ import annotations

import math

import numpy as np

from ..core import hooks
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


# Multiply-adds one NumPy call may do. A float product runs at BLAS speed (a few billion a
# second), an integer one in NumPy's plain loops (under a billion: a 2500 x 2500 product takes
# half a minute): a larger product is computed in pieces, the clock read between them, so that
# the time limit binds within a fraction of a second of being spent.
FLOAT_PIECE = 1 << 29
INT_PIECE = 1 << 25
EXACT = 1 << 53  # every integer up to this is a float64


def _matmul_fwd(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError("both arguments to matmul need to be at least 1D")
    k = x.shape[-1]
    x2 = x[None, :] if x.ndim == 1 else x
    y2 = y[:, None] if y.ndim == 1 else y
    try:
        batch = np.broadcast_shapes(x2.shape[:-2], y2.shape[:-2])
    except ValueError:
        return np.matmul(x, y)  # NumPy's own error, which `apply` reports
    shape = (*batch, x2.shape[-2], y2.shape[-1])
    work = math.prod(shape) * k
    integer = x.dtype.kind in "iu" and y.dtype.kind in "iu"
    if work <= (INT_PIECE if integer else FLOAT_PIECE):
        return np.matmul(x, y)
    dtype = np.result_type(x, y)
    if integer and _bound(x) * _bound(y) * k <= EXACT:
        # Every partial sum is an integer within float64's exact range: BLAS in float64 gives
        # the exact product (in any order of summation), then NumPy's integer type (wrapping,
        # as an integer product would, for a narrower one).
        out = _in_pieces(x2.astype(np.float64), y2.astype(np.float64), shape, FLOAT_PIECE, work)
        out = out.astype(np.int64).astype(dtype, copy=False)
    else:
        piece = INT_PIECE if integer else FLOAT_PIECE
        out = _in_pieces(x2, y2, shape, piece, work)
    if x.ndim == 1:
        out = out.reshape(out.shape[:-2] + out.shape[-1:])
    if y.ndim == 1:
        out = out.reshape(out.shape[:-1])
    return out


def _bound(a: np.ndarray) -> int:
    """The largest magnitude in an integer array (exactly, as a Python int)."""
    return max(int(a.max()), -int(a.min())) if a.size else 0


def _in_pieces(
    x: np.ndarray, y: np.ndarray, shape: tuple[int, ...], piece: int, work: int
) -> np.ndarray:
    """`x @ y` (both at least 2-D; `shape` the result's) in slices along the result's longest
    axis, each about `piece` multiply-adds, the clock read before each. Along the longest axis
    one slice of the result is at most as much work as the size of an operand, so the pieces
    can always be made small."""
    out = np.empty(shape, dtype=np.result_type(x, y))
    axis = max(range(len(shape)), key=lambda i: shape[i])
    length = shape[axis]
    step = max(1, length // max(1, -(-work // piece)))
    nb = len(shape) - 2
    for start in range(0, length, step):
        hooks.observer.check_clock()
        part = slice(start, start + step)
        xs, ys = x, y
        if axis == nb:
            xs = x[..., part, :]
        elif axis == nb + 1:
            ys = y[..., part]
        else:
            xs = _batch_slice(x, axis, nb, part)
            ys = _batch_slice(y, axis, nb, part)
        out[(slice(None),) * axis + (part,)] = np.matmul(xs, ys)
    return out


def _batch_slice(a: np.ndarray, axis: int, nb: int, part: slice) -> np.ndarray:
    """`a` sliced along the result's batch axis `axis` (of `nb`), where it has that axis with
    more than one element (else it broadcasts, as it is)."""
    i = axis - (nb - (a.ndim - 2))
    if i < 0 or a.shape[i] == 1:
        return a
    return a[(slice(None),) * i + (part,)]


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
