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
    return np.matmul(x, y)


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
