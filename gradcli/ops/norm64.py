"""float64 layer_norm as PyTorch's CPU kernel computes it (ATen's layer_norm_kernel.cpp and
moments_utils.h, the AVX2 build an AVX-512 machine runs too): `norm32`'s algorithm on
`Vectorized<double>`, 4 lanes.

- Forward: `RowwiseMoments` (Welford's update on chunks of 16 vectors, their moments merged
  in a binary cascade, the values past the last whole vector one by one, then the 4 lanes
  merged in), fused where the float kernel is; rstd = 1 / sqrt(var + eps);
  y = (x - mean) * rstd, then fma(y, weight, bias) when both are given.
- Backward: ds and db by the vector reductions (whole vectors' products added lane by lane,
  the last partial vector's fused into its lanes), the 4 lanes then added left to right (the
  shuffle reduction is float's only); b, c and dx = fma(b, x, a * dy * w) + c as in `norm32`;
  dweight = the rows' fma(dy, fma(a, x, -a * mean), acc) in order, dbias the rows' dy in order.

The fused steps are `core.fma64`'s correctly rounded emulation (NumPy has no float64
fused multiply-add). Measured against PyTorch 2.13 (one thread) on rows of 1
to 3000 values, with and without weight and bias: y and the three gradients to the bit.
"""

from __future__ import annotations

import numpy as np

from ..core import hooks
from ..core.fma64 import _fma64

_L = 4  # lanes of Vectorized<double> in the AVX2 kernel
_CHUNK = 16  # vectors a chunk (kChunkSize)
_C = [1.0 / (j + 1) for j in range(_CHUNK)]
# dweight's fused sum over the rows is a Python loop: past this many rows, the products are
# rounded and added in order instead (a last-bit difference possible, rare)
_FUSED_ROWS = 16384


def fma(a, b, c) -> np.ndarray:
    """a * b + c of float64 values rounded once (`core.fma64`)."""
    return _fma64(a, b, c)


def _merge_vec(m0_add: int, m1_add, m2_add, m0: int, m1, m2):
    n = m0 + m0_add
    c = 0.0 if n == 0 else m0_add / n
    d = m1_add - m1
    m1 = m1 + c * d
    m2 = fma(d, d * (c * m0), m2 + m2_add)
    return n, m1, m2


def _merge_scalar(m0_add: int, m1_add, m2_add, m0: int, m1, m2):
    n = m0 + m0_add
    c = 0.0 if n == 0 else m0_add / n
    d = m1_add - m1
    m1 = fma(c, d, m1)
    m2 = m2 + fma((d * d) * c, float(m0), m2_add)
    return n, m1, m2


def _chunk_moments(v: np.ndarray):
    """Welford over axis -2 (vectors) of v (..., k, 4), from zero: (m1, m2) of shape (..., 4)."""
    m1 = np.zeros(v.shape[:-2] + (_L,))
    m2 = np.zeros_like(m1)
    for j in range(v.shape[-2]):
        x = v[..., j, :]
        d = x - m1
        m1 = fma(d, _C[j], m1)
        m2 = fma(d, x - m1, m2)
    return m1, m2


def moments(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`RowwiseMoments` of each row of a float64 matrix: (mean, population variance)."""
    rows, n_all = x.shape
    n = n_all // _L
    m = -(-n // _CHUNK)
    depth = int(m - 1).bit_length() if m > 1 else 0
    vecs = x[:, : n * _L].reshape(rows, n, _L)
    full = n // _CHUNK
    chunks = []
    with np.errstate(all="ignore"):
        if full:
            c1, c2 = _chunk_moments(vecs[:, : full * _CHUNK].reshape(rows, full, _CHUNK, _L))
            chunks = [(_CHUNK, c1[:, i], c2[:, i]) for i in range(full)]
        if full < m:
            c1, c2 = _chunk_moments(vecs[:, full * _CHUNK :])
            chunks.append((n - full * _CHUNK, c1, c2))
        zero = np.zeros((rows, _L))
        stack = [(0, zero, zero) for _ in range(max(depth, 1))]
        for i, (k, c1, c2) in enumerate(chunks):
            if i % 1024 == 1023:
                hooks.observer.check_clock()  # a row of millions: the time limit
            stack[0] = _merge_vec(k, c1, c2, *stack[0])
            mask, j = i + 1, 1
            while j < depth and (mask & 1) == 0:
                stack[j] = _merge_vec(*stack[j - 1], *stack[j])
                stack[j - 1] = (0, zero, zero)
                mask >>= 1
                j += 1
        for j in range(1, depth):
            stack[0] = _merge_vec(*stack[j], *stack[0])
        lanes1, lanes2 = stack[0][1], stack[0][2]
        m0, m1, m2 = 0, np.zeros(rows), np.zeros(rows)
        for i in range(n * _L, n_all):
            v = x[:, i]
            d = v - m1
            m0 += 1
            m1 = m1 + d / m0
            m2 = m2 + d * (v - m1)
        for lane in range(_L):
            m0, m1, m2 = _merge_scalar(n, lanes1[:, lane], lanes2[:, lane], m0, m1, m2)
        return m1, m2 / n_all


def layer_norm(
    x: np.ndarray, weight: np.ndarray | None, bias: np.ndarray | None, eps: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(y, mean, rstd) of a float64 (M, N) matrix normalised row by row (weight, bias: (N,)
    or None)."""
    x = np.ascontiguousarray(x, np.float64)
    mean, var = moments(x)
    with np.errstate(all="ignore"):
        rstd = 1.0 / np.sqrt(var + eps)
        y = (x - mean[:, None]) * rstd[:, None]
        if weight is not None and bias is not None:
            y = fma(y, weight, bias)
        else:
            if weight is not None:
                y = y * weight
            if bias is not None:
                y = y + bias
    return y, mean, rstd


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`map2_reduce_all(a * b, +)` of each row (4 lanes, the lanes added left to right)."""
    rows, n = a.shape
    p = a * b
    if n < _L:
        acc = p[:, 0]
        for i in range(1, n):
            acc = acc + p[:, i]
        return acc
    full = n - n % _L
    acc = np.add.accumulate(p[:, :full].reshape(rows, -1, _L), axis=1)[:, -1].copy()
    if full < n:
        k = n - full
        acc[:, :k] = fma(a[:, full:], b[:, full:], acc[:, :k])
    out = acc[:, 0]
    for i in range(1, _L):
        out = out + acc[:, i]
    return out


def layer_norm_backward(
    dy: np.ndarray,
    x: np.ndarray,
    mean: np.ndarray,
    rstd: np.ndarray,
    weight: np.ndarray | None,
    need_weight_grads: bool,
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """(dx, dweight, dbias) of `layer_norm` from the upstream gradient (all float64, (M, N))."""
    dy = np.ascontiguousarray(dy, np.float64)
    x = np.ascontiguousarray(x, np.float64)
    rows, n = x.shape
    scale = 1.0 / n
    with np.errstate(all="ignore"):
        if weight is None:
            ds = _dot(dy, x)
            db = _dot(dy, np.ones_like(dy))
        else:
            w = np.broadcast_to(weight, x.shape)
            ds = _dot(dy * x, w)
            db = _dot(dy, w)
        a = rstd
        b = (((fma(db, mean, -ds) * a) * a) * a) * scale
        c = fma(-b, mean, -((db * a) * scale))
        ady = a[:, None] * dy if weight is None else (a[:, None] * dy) * weight
        dx = fma(b[:, None], x, ady) + c[:, None]
        gw = gb = None
        if need_weight_grads:
            inner = fma(a[:, None], x, (-a * mean)[:, None])
            gb = np.add.accumulate(dy, axis=0)[-1]
            if rows > _FUSED_ROWS:  # the products rounded, then added in order
                gw = np.add.accumulate(dy * inner, axis=0)[-1]
            else:
                gw = np.zeros(n)
                for i in range(rows):
                    if i % 1024 == 1023:
                        hooks.observer.check_clock()
                    gw = fma(dy[i], inner[i], gw)
    return dx, gw, gb
