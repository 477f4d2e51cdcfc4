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
from ..core.sleef64 import exp_vec, log_vec

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


def _chunk_columns(n: int, inner: int) -> np.ndarray:
    """Which of the `inner` columns ATen's chunked kernels take by whole vectors: chunks of
    CHUNK_SIZE columns (at most 128 KiB / n / 8, at least a vector, a multiple of the vector
    width), each but its last `size % lanes` columns."""
    lanes = _lanes()
    chunk = min(max(131072 // max(n, 1) // 8, lanes) // lanes * lanes, inner)
    vec = np.zeros(inner, bool)
    for b in range(0, inner, max(chunk, 1)):
        size = min(chunk, inner - b)
        vec[b : b + size - size % lanes] = True
    return vec


def log_softmax64(x: np.ndarray, dim: int) -> np.ndarray:
    """log_softmax along `dim` (not the last) of float64 `x`: ATen's
    `serial_vec_logsoftmax_range`, per chunk of columns: each column's maximum, then its
    exps of x - max (SLEEF's on whole vectors, the C library's on the chunk's tail) summed down
    `dim` from zero, the log of each sum SLEEF's (`vec::map` takes the tail as a partial
    vector), and x - max - log(sum) in that order (x - max as it is: a column holding +inf is
    NaN throughout)."""
    shape = x.shape
    outer, n, inner = math.prod(shape[:dim]), shape[dim], math.prod(shape[dim + 1 :])
    x3 = np.ascontiguousarray(x).reshape(outer, n, inner)
    with np.errstate(invalid="ignore"):
        d = x3 - np.max(x3, axis=1, keepdims=True)
    e = _exp_columns(d, _chunk_columns(n, inner))
    s = np.zeros((outer, 1, inner))
    for k in range(n):
        s = s + e[:, k : k + 1]
    with np.errstate(invalid="ignore"):
        return (d - log_vec(s)).reshape(shape)


def _lane_sum(e: np.ndarray) -> np.ndarray:
    """The sum of each row of the 2-d `e` as ATen's `vec::reduce_all` / `map_reduce_all` adds
    it: lane j of one accumulator vector takes e[j], e[j + lanes], ... in turn (a row's tail,
    its last `n % lanes`, into the first lanes last), then the lanes are added in order from
    lane 0 (a row shorter than a vector: its elements in order)."""
    lanes = _lanes()
    rows, n = e.shape
    full = n - n % lanes
    acc = np.zeros((rows, lanes))
    if full:
        acc = e[:, :lanes].copy()
        if full > lanes:  # (a sum down the middle axis of a C-ordered array: in order)
            rest = e[:, lanes:full].reshape(rows, -1, lanes)
            for k in range(rest.shape[1]):
                acc = acc + rest[:, k]
    if n - full:
        acc[:, : n - full] = acc[:, : n - full] + e[:, full:]
    total = acc[:, 0]
    for j in range(1, lanes):
        total = total + acc[:, j]
    return total


def log_softmax64_last(x: np.ndarray) -> np.ndarray:
    """log_softmax along the last dimension of float64 `x`: ATen's
    `_vec_log_softmax_lastdim`: each row's maximum, the exps of x - max all SLEEF's (a row's
    tail through a partial vector) summed by `_lane_sum`, the log SLEEF's, then x - max - log."""
    shape = x.shape
    x2 = np.ascontiguousarray(x).reshape(-1, shape[-1])
    with np.errstate(invalid="ignore"):
        d = x2 - np.max(x2, axis=1, keepdims=True)
        e = exp_vec(d)
        return (d - log_vec(_lane_sum(e))[:, None]).reshape(shape)


def softmax64_last(x: np.ndarray) -> np.ndarray:
    """softmax along the last dimension of float64 `x`: ATen's `_vec_softmax_lastdim`: each
    row's maximum, the exps of x - max SLEEF's, their sum by `_lane_sum`, then each exp times
    the reciprocal 1 / sum (a product: another last bit than a quotient)."""
    shape = x.shape
    x2 = np.ascontiguousarray(x).reshape(-1, shape[-1])
    with np.errstate(invalid="ignore", divide="ignore"):
        e = exp_vec(x2 - np.max(x2, axis=1, keepdims=True))
        return (e * (1.0 / _lane_sum(e))[:, None]).reshape(shape)


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
    e = _exp_columns(y3, _chunk_columns(n, inner))
    return _fma64(-e, np.broadcast_to(s, e.shape).copy(), g3).reshape(shape)


def _lane_dot(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The sum of g * y along each row of the 2-d arrays as ATen's `vec::map2_reduce_all`
    adds it (not contracted: each product rounded): lane j starts from the product of the
    first vector's lane j and adds each later vector's (a row's tail into the first lanes
    last); the lanes then added in order from lane 0. A row shorter than a vector: its
    products added in order."""
    lanes = _lanes()
    rows, n = g.shape
    if n < lanes:
        total = g[:, 0] * y[:, 0]
        for j in range(1, n):
            total = total + g[:, j] * y[:, j]
        return total
    full = n - n % lanes
    acc = g[:, :lanes] * y[:, :lanes]
    for k in range(lanes, full, lanes):
        acc = acc + g[:, k : k + lanes] * y[:, k : k + lanes]  # (measured: not fused)
    if n - full:
        t = n - full
        acc[:, :t] = acc[:, :t] + g[:, full:] * y[:, full:]
    total = acc[:, 0]
    for j in range(1, lanes):
        total = total + acc[:, j]
    return total


def softmax_backward64_last(g: np.ndarray, y: np.ndarray, log: bool) -> np.ndarray:
    """The gradient of softmax (log_softmax) along the last dimension from float64 `g`, `y`:
    ATen's `_vec_host_softmax_backward_lastdim`: per row, softmax's sum of g * y
    (`_lane_dot`), then (g - sum) * y; log_softmax's sum of g (`_lane_sum`), then
    g - exp(y) * sum, fused (the exp SLEEF's on every element)."""
    shape = y.shape
    n = shape[-1]
    g2 = np.ascontiguousarray(g).reshape(-1, n)
    y2 = np.ascontiguousarray(y).reshape(-1, n)
    with np.errstate(over="ignore", invalid="ignore"):
        if not log:
            return ((g2 - _lane_dot(g2, y2)[:, None]) * y2).reshape(shape)
        s = np.broadcast_to(_lane_sum(g2)[:, None], g2.shape).copy()
        return _fma64(-exp_vec(y2), s, g2).reshape(shape)
