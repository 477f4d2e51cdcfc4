"""float64 softmax and log_softmax gradients along a dimension that is not the last one, in
the order and with the exp ATen 2.13's CPU kernel uses (`_vec_softmax_backward`,
`_vec_log_softmax_backward` in aten/src/ATen/native/cpu/SoftMaxKernel.cpp), so that they are
PyTorch's to the last bit (the rule's NumPy form differed in about 1 element in 4).

The (outer, dim, inner) view is reduced column by column, down `dim` from zero:
- softmax: sum = fma(g, y, sum) at each step (the build contracts `sum += g * y`), then
  `y * (g - sum)`;
- log_softmax: sum = sum + g, then fma(-exp(y), sum, g) (`g - exp(y) * sum`, contracted),
  where exp is SLEEF's vector exp (`sleef64.exp_vec`) on the columns taken whole vectors at
  a time and the C library's `exp` (Python's `math.exp`, the same libm) on the last
  `size % lanes` of each chunk of columns. The chunks: ATen's CHUNK_SIZE, at most
  128 KiB / dim_size / 8 columns (at least one vector), a multiple of the vector width (8
  doubles with AVX-512, 4 with AVX2).

Measured against PyTorch 2.13 (Zen 4, one thread) on random inputs of 2-d to 4-d shapes:
no difference, softmax or log_softmax.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.fma64 import _fma64
from ..core.sleef64 import exp_vec

_EXACT_LIBM = 1 << 20  # tail elements given libm's exp one by one; past that NumPy's


def _lanes() -> int:
    from ..core import cpu

    return 4 if cpu.avx2() else 8


def _exp_columns(v: np.ndarray, vec: np.ndarray) -> np.ndarray:
    """exp of the (outer, dim, inner) array `v`: SLEEF's on the columns `vec` marks (whole
    vectors), the C library's on the others (the kernels' scalar tails)."""
    e = np.empty_like(v)
    with np.errstate(over="ignore", invalid="ignore"):
        if vec.any():
            e[..., vec] = exp_vec(v[..., vec])
        if not vec.all():
            tail = v[..., ~vec]
            if tail.size <= _EXACT_LIBM:
                e[..., ~vec] = np.fromiter(
                    map(_libm_exp, tail.ravel()), np.float64, tail.size
                ).reshape(tail.shape)
            else:
                e[..., ~vec] = np.exp(tail)
    return e


def _libm_exp(v: float) -> float:
    try:
        return math.exp(v)
    except OverflowError:
        return math.inf


def softmax64(d: np.ndarray, dim: int) -> np.ndarray:
    """softmax along `dim` (not the last) of float64 `d`, x already less its maximum: ATen's
    `_vec_softmax`: per outer index, the first `inner - inner % lanes` columns by vectors
    (SLEEF's exp), the rest by the scalar loop (the C library's exp); each column's exps summed
    down `dim` from zero, then each divided by its column's sum."""
    shape = d.shape
    outer, n, inner = math.prod(shape[:dim]), shape[dim], math.prod(shape[dim + 1 :])
    d3 = np.ascontiguousarray(d).reshape(outer, n, inner)
    lanes = _lanes()
    vec = np.zeros(inner, bool)
    vec[: inner - inner % lanes] = True
    e = _exp_columns(d3, vec)
    s = np.zeros((outer, 1, inner))
    for k in range(n):
        s = s + e[:, k : k + 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        return (e / s).reshape(shape)


def softmax_last64(d: np.ndarray) -> np.ndarray:
    """softmax along the last dim of float64 `d`, x already less its maximum: ATen's
    `_vec_softmax_lastdim`: every exp SLEEF's (`vec::map` takes the tail as a partial
    vector); the row's sum by `vec::reduce_all` (whole vectors added lane by lane, the tail
    into its lanes, then the lanes left to right: the shuffle reduction is float's only;
    fewer values than lanes: left to right); then each exp times 1 / sum."""
    shape = d.shape
    n = shape[-1]
    rows = np.ascontiguousarray(d).reshape(-1, n)
    with np.errstate(over="ignore", invalid="ignore"):
        e = exp_vec(rows)
        lanes = _lanes()
        if n < lanes:
            total = e[:, 0].copy()
            for i in range(1, n):
                total = total + e[:, i]
        else:
            full = n - n % lanes
            acc = e[:, :lanes].copy()
            for j in range(lanes, full, lanes):
                acc = acc + e[:, j : j + lanes]
            if full < n:
                acc[:, : n - full] = acc[:, : n - full] + e[:, full:]
            total = acc[:, 0]
            for i in range(1, lanes):
                total = total + acc[:, i]
        with np.errstate(divide="ignore"):
            inv = 1.0 / total
        return (e * inv[:, None]).reshape(shape)


def softmax_backward64(g: np.ndarray, y: np.ndarray, dim: int, log: bool) -> np.ndarray:
    """The gradient of softmax (log_softmax) along `dim` (not the last) from float64 `g`, `y`."""
    shape = y.shape
    outer, n, inner = math.prod(shape[:dim]), shape[dim], math.prod(shape[dim + 1 :])
    y3 = np.ascontiguousarray(y).reshape(outer, n, inner)
    g3 = np.ascontiguousarray(g).reshape(outer, n, inner)
    s = np.zeros((outer, 1, inner))
    for d in range(n):
        if log:
            s = s + g3[:, d : d + 1]
        else:
            s = _fma64(g3[:, d : d + 1], y3[:, d : d + 1], s)
    if not log:
        return (y3 * (g3 - s)).reshape(shape)
    lanes = _lanes()
    chunk = min(max(131072 // max(n, 1) // 8, lanes) // lanes * lanes, inner)
    vec = np.zeros(inner, bool)
    for b in range(0, inner, max(chunk, 1)):
        size = min(chunk, inner - b)
        vec[b : b + size - size % lanes] = True
    e = _exp_columns(y3, vec)
    return _fma64(-e, np.broadcast_to(s, e.shape).copy(), g3).reshape(shape)
