"""NumPy's own matrix products of arrays in programs (`np.dot`, `np.matmul`, `a @ b`,
`a.dot(b)`): NumPy's BLAS, not torch's (their float32 sums differ in the last bits), the
result's size and the multiply-adds bounded before NumPy runs."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError
from ..ops.arithmetic import size_check
from .values import numpy_number


def matmul_work(x: np.ndarray, y: np.ndarray, dot: bool) -> tuple[tuple[int, ...], int] | None:
    """The shape of NumPy's `np.dot(x, y)` (dot) or `x @ y` and its multiply-adds, or None when
    NumPy refuses the shapes (it does so before any work)."""
    k = int(x.shape[-1])
    if dot:
        if k != int(y.shape[0] if y.ndim == 1 else y.shape[-2]):
            return None
        shape = x.shape[:-1] + (y.shape[:-2] + y.shape[-1:] if y.ndim >= 2 else ())
    else:
        xs = x.shape if x.ndim >= 2 else (1, *x.shape)
        ys = y.shape if y.ndim >= 2 else (*y.shape, 1)
        if xs[-1] != ys[-2]:
            return None
        try:
            batch = np.broadcast_shapes(xs[:-2], ys[:-2])
        except ValueError:
            return None
        shape = tuple(batch) + xs[-2:-1] * (x.ndim >= 2) + ys[-1:] * (y.ndim >= 2)
    size = 1
    for n in shape:
        size *= int(n)
    return tuple(int(n) for n in shape), size * k


def numpy_matmul(x: np.ndarray, y: np.ndarray, name: str) -> Any:
    """NumPy's own matrix product of two arrays (`np.dot`, `np.matmul`, `a @ b`): its result
    (NumPy's BLAS, not torch's: the float32 sums differ in the last bits) and its words for
    mismatched shapes, the result's size and the multiply-adds bounded before NumPy runs."""
    planned = None if x.ndim == 0 or y.ndim == 0 else matmul_work(x, y, dot=name == "dot")
    if planned is not None:
        size_check(planned[0], f"the result of numpy.{name}()")
        limits.MULTIPLY_ADDS.check(planned[1], f"the multiply-adds of numpy.{name}()")
    from .hostnumpy import compute  # the host's own BLAS kernels (a program's own product)

    try:
        with np.errstate(all="ignore"):
            out = compute("dot" if name == "dot" else "matmul", x, y)
    except ValueError as e:
        raise GradcliError(str(e)).mirror("ValueError") from None
    return numpy_number(np.asarray(out))
