"""float32 layer_norm as PyTorch's CPU kernel computes it, bit for bit (ATen's
layer_norm_kernel.cpp and moments_utils.h; registered for AVX2 only, so an AVX512 machine runs
it on 8-float vectors: measured).

Forward, each row of N values (`RowwiseMoments`, Welford's algorithm with a cascade):
- the row's whole vectors of 8 are taken in chunks of 16 vectors; each chunk's lanes run
  Welford's update from zero (m1 += d / (j + 1), m2 += d * (x - m1), both fused);
- the chunks' moments are merged into a binary cascade of partial moments (chunk i + 1 merges
  level j into level j + 1 while the bits of i + 1 are zero), the levels merged at the end;
  a merge is m1 += c * d (c = count_added / count, not fused), m2 = (m2 + m2_added) +
  d * (d * (c * count)) (fused);
- the values past the last whole vector run Welford's update one by one (not fused), then the
  8 lanes are merged into it one by one (the merge fused: m1 = fma(c, d, m1), m2 += fma(d*d*c,
  count, m2_added));
- mean = m1, var = m2 / N, rstd = 1 / sqrt(var + eps) in float32;
- y = (x - mean) * rstd, then fma(y, weight, bias) when both are given (the vector loop),
  else y * weight + bias unfused (the scalar loop).
Backward: ds = sum(dy * x * w), db = sum(dy * w) by the vector reductions (whole vectors'
products added lane by lane unfused, the last partial vector's fused into its lanes, the 8
lanes folded as a butterfly; fewer than 8 values: folded left to right); b = (fma(db, mean,
-ds) * a * a * a) / N with a = rstd, c = fma(-b, mean, -(db * a / N)); dx = fma(b, x, a * dy * w)
+ c; dweight = the rows' fma(dy, fma(a, x, -a * mean), acc) in order (past `_FUSED_ROWS`
rows: the products rounded, then added); dbias = the rows' dy added in order.

Measured against PyTorch 2.13 (one thread) on rows of 1 to 9000 values (4,000 rows, with and
without weight and bias): mean, rstd, y and the three gradients all PyTorch's to the bit.
"""

from __future__ import annotations

import numpy as np

from ..core import hooks
from ..core.sleef32 import _fma
from .linalg import _fma32

_F = np.float32
_L = 8  # lanes of Vectorized<float> in the AVX2 kernel
_CHUNK = 16  # vectors a chunk (kChunkSize)
_C = [_F(1) / _F(j + 1) for j in range(_CHUNK)]
# dweight's fused sum over the rows is a Python loop: past this many rows, the products are
# rounded and added in order instead (a last-bit difference possible, rare)
_FUSED_ROWS = 16384


def sym_normalized(
    sp: object,
    x: np.ndarray,
    axes: tuple[int, ...],
    eps: float,
    stats: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """The sympy form the norms share (layer, group and batch norm's `sym`), on object arrays
    of expressions: (x - mean) / sqrt(var + eps), the mean and the biased variance over
    `axes`, or the given (mean, var) broadcastable to x (batch norm in evaluation)."""
    if stats is None:
        n = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
        c = x - np.sum(x, axis=axes, keepdims=True) / n
        var = np.sum(c * c, axis=axes, keepdims=True) / n
    else:
        c, var = x - stats[0], stats[1]
    return c / np.frompyfunc(lambda v: sp.sqrt(v + sp.Float(eps)), 1, 1)(var)  # type: ignore[attr-defined]


def sym_affine(y: np.ndarray, w: np.ndarray, b: np.ndarray, has_w: bool, has_b: bool) -> np.ndarray:
    """`y * w + b` of the norms' sympy forms, each only where the record has it."""
    if has_w:
        y = y * w
    if has_b:
        y = y + b
    return y


def _merge_vec(m0_add: int, m1_add, m2_add, m0: int, m1, m2):
    n = m0 + m0_add
    c = _F(0) if n == 0 else _F(m0_add) / _F(n)
    d = m1_add - m1
    m1 = m1 + c * d
    m2 = _fma(d, d * (c * _F(m0)), m2 + m2_add)
    return n, m1, m2


def _merge_scalar(m0_add: int, m1_add, m2_add, m0: int, m1, m2):
    n = m0 + m0_add
    c = _F(0) if n == 0 else _F(m0_add) / _F(n)
    d = m1_add - m1
    m1 = _fma(c, d, m1)
    m2 = m2 + _fma((d * d) * c, _F(m0), m2_add)
    return n, m1, m2


def _chunk_moments(v: np.ndarray):
    """Welford over axis -2 (vectors) of v (..., k, 8), from zero: (m1, m2) of shape (..., 8)."""
    m1 = np.zeros(v.shape[:-2] + (_L,), _F)
    m2 = np.zeros_like(m1)
    for j in range(v.shape[-2]):
        x = v[..., j, :]
        d = x - m1
        m1 = _fma(d, _C[j], m1)
        m2 = _fma(d, x - m1, m2)
    return m1, m2


def moments(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`RowwiseMoments` of each row of a float32 matrix: (mean, population variance)."""
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
            last = n - full * _CHUNK
            c1, c2 = _chunk_moments(vecs[:, full * _CHUNK :])
            chunks.append((last, c1, c2))
        zero = np.zeros((rows, _L), _F)
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
        m0, m1, m2 = 0, np.zeros(rows, _F), np.zeros(rows, _F)
        for i in range(n * _L, n_all):
            v = x[:, i]
            d = v - m1
            m0 += 1
            m1 = m1 + d / _F(m0)
            m2 = m2 + d * (v - m1)
        for lane in range(_L):
            m0, m1, m2 = _merge_scalar(n, lanes1[:, lane], lanes2[:, lane], m0, m1, m2)
        return m1, m2 / _F(n_all)


def layer_norm(
    x: np.ndarray, weight: np.ndarray | None, bias: np.ndarray | None, eps: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(y, mean, rstd) of a float32 (M, N) matrix normalised row by row (weight, bias: (N,)
    or None)."""
    x = np.ascontiguousarray(x, _F)
    mean, var = moments(x)
    with np.errstate(all="ignore"):
        rstd = _F(1) / np.sqrt(var + _F(eps))
        y = (x - mean[:, None]) * rstd[:, None]
        if weight is not None and bias is not None:
            y = _fma(y, weight, bias)
        else:
            if weight is not None:
                y = y * weight
            if bias is not None:
                y = y + bias
    return y.astype(_F), mean, rstd


def _butterfly(acc: np.ndarray) -> np.ndarray:
    w = _L // 2
    while w:
        acc = acc + acc[:, np.arange(_L) ^ w]
        w //= 2
    return acc[:, 0]


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`map2_reduce_all(a * b, +)` of each row (ATen's vec functional, 8 lanes)."""
    rows, n = a.shape
    if n < _L:
        p = a * b
        acc = p[:, 0]
        for i in range(1, n):
            acc = acc + p[:, i]
        return acc
    full = n - n % _L
    p = (a[:, :full] * b[:, :full]).reshape(rows, -1, _L)
    acc = np.add.accumulate(p, axis=1)[:, -1].copy()
    if full < n:
        k = n - full
        acc[:, :k] = _fma(a[:, full:], b[:, full:], acc[:, :k])
    return _butterfly(acc)


def layer_norm_backward(
    dy: np.ndarray,
    x: np.ndarray,
    mean: np.ndarray,
    rstd: np.ndarray,
    weight: np.ndarray | None,
    need_weight_grads: bool,
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """(dx, dweight, dbias) of `layer_norm` from the upstream gradient (all float32, (M, N))."""
    dy = np.ascontiguousarray(dy, _F)
    x = np.ascontiguousarray(x, _F)
    rows, n = x.shape
    scale = _F(1) / _F(n)
    with np.errstate(all="ignore"):
        if weight is None:
            ds = _dot(dy, x)
            db = _dot(dy, np.ones_like(dy))
        else:
            w = np.broadcast_to(weight, x.shape)
            ds = _dot(dy * x, w)
            db = _dot(dy, w)
        a = rstd
        b = (((_fma(db, mean, -ds) * a) * a) * a) * scale
        c = _fma(-b, mean, -((db * a) * scale))
        ady = a[:, None] * dy if weight is None else (a[:, None] * dy) * weight
        dx = _fma(b[:, None], x, ady) + c[:, None]
        gw = gb = None
        if need_weight_grads:
            inner = _fma(a[:, None], x, (-a * mean)[:, None])
            gb = np.add.accumulate(dy, axis=0)[-1]
            if rows > _FUSED_ROWS:  # the products rounded, then added in order
                gw = np.add.accumulate(dy * inner, axis=0)[-1]
            else:
                gw = np.zeros(n, _F)
                dy64 = dy.astype(np.float64)
                for i in range(rows):
                    if i % 1024 == 1023:
                        hooks.observer.check_clock()
                    gw = _fma32(dy64[i] * inner[i], gw)  # the product exact in float64
    return dx.astype(_F), gw, gb


# --- batch_norm's backward (ATen's batch_norm_kernel.cpp, registered for AVX2 too: 8 lanes) ---

# The channels-last kernel's fused sum over the rows is a Python loop: past this many rows its
# products are rounded before they are added (a last-bit difference possible, rare).
_BN_FUSED_ROWS = 4096


def _lanes_sum(v: np.ndarray) -> np.ndarray:
    """`vec::reduce_all(+)` over the last axis (float32): whole vectors added lane by lane in
    order, the last partial vector into its lanes, the lanes folded as a butterfly; fewer
    than 8 values: added left to right."""
    n = v.shape[-1]
    if n < _L:
        return np.add.accumulate(v, axis=-1)[..., -1]
    full = n - n % _L
    acc = np.add.accumulate(v[..., :full].reshape(v.shape[:-1] + (-1, _L)), axis=-2)[..., -1, :]
    if full < n:
        acc[..., : n - full] += v[..., full:]
    w = _L // 2
    while w:
        acc = acc + acc[..., np.arange(_L) ^ w]
        w //= 2
    return acc[..., 0]


def _lanes_dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`vec::map2_reduce_all(a * b, +)` over the last axis: as `_lanes_sum` of the products,
    except that the last partial vector's products are fused into its lanes."""
    n = a.shape[-1]
    if n < _L or n % _L == 0:
        return _lanes_sum(a * b)
    full = n - n % _L
    acc = np.add.accumulate(
        (a[..., :full] * b[..., :full]).reshape(a.shape[:-1] + (-1, _L)), axis=-2
    )[..., -1, :]
    acc[..., : n - full] = _fma(a[..., full:], b[..., full:], acc[..., : n - full])
    w = _L // 2
    while w:
        acc = acc + acc[..., np.arange(_L) ^ w]
        w //= 2
    return acc[..., 0]


def batch_norm_backward(
    dy: np.ndarray,
    x: np.ndarray,
    mean: np.ndarray,
    invstd: np.ndarray,
    weight: np.ndarray | None,
    contiguous: bool,
    train: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(dx, dweight, dbias) of `batch_norm` (float32; x and dy (N, C, ...), the
    saved per-channel mean and invstd), in the order of PyTorch's CPU kernel with one thread:

    - `contiguous` (x and dy both contiguous, PyTorch's usual case) with one value per channel
      and sample ((N, C), the channels-last kernel): the sums over the samples in order in
      float32, (x - mean) * dy fused into its sum; dx = ((dy - sum/N) - (x - mean) * k) *
      invstd * w with k = dotp * invstd * invstd / N, the product fused into the difference on
      the channels in whole vectors of 8 and rounded apart on the others;
    - `contiguous` with several values (N, C, H, W): each sample's plane summed by the vector
      reductions, the planes' sums added in double; k in float from the double dotp, sum/N in
      double; dx with the product fused;
    - otherwise (an expanded upstream gradient, as `bn(x).sum()` hands back): ATen's generic
      loop, the channel sums by `sum` (its cascade), dotp in double, every step rounded.
    dweight = dotp * invstd, dbias = the sum. In evaluation (`train` False; mean and invstd
    the running ones) the sums are the same and dx = dy * invstd * w, each product rounded."""
    from ..core.summation import sum_float

    n, c = x.shape[0], x.shape[1]
    count = x.size // c if c else 0
    w = np.ones(c, _F) if weight is None else np.asarray(weight, _F).reshape(c)
    per = (1, c) + (1,) * (x.ndim - 2)
    m, inv = mean.reshape(per), invstd.reshape(per)
    with np.errstate(all="ignore"):
        xm = x - m
        if not contiguous:
            dims = (0,) + tuple(range(2, x.ndim))
            s = sum_float(np.asarray(dy, _F), dims, False).astype(_F)
            d = np.sum((xm * dy).astype(np.float64), axis=dims)
            k = ((d.astype(_F) * invstd) * invstd) / _F(count)
            gm = s / _F(count)
            part = xm * k.reshape(per)
            dx = ((dy - gm.reshape(per)) - part) * inv * w.reshape(per)
            if not train:
                dx = (dy * inv) * w.reshape(per)
            return dx.astype(_F), (d * invstd).astype(_F), s
        if x.ndim == 2:
            s = np.add.accumulate(dy, axis=0)[-1] if n else np.zeros(c, _F)
            if n > _BN_FUSED_ROWS:
                d = np.add.accumulate(xm * dy, axis=0)[-1]
            else:
                d = np.zeros(c, _F)
                for i in range(n):
                    if i % 1024 == 1023:
                        hooks.observer.check_clock()
                    d = _fma(xm[i], dy[i], d)
            if not train:
                return ((dy * invstd) * w).astype(_F), d * invstd, s
            k = ((d * invstd) * invstd) / _F(count)
            gm = s / _F(count)
            t = (dy - gm) - xm * k
            full = c - c % _L
            if full:
                t[:, :full] = _fma(-xm[:, :full], k[:full], (dy - gm)[:, :full])
            return ((t * invstd) * w).astype(_F), d * invstd, s
        planes = (n, c, -1)
        s64 = np.add.accumulate(_lanes_sum(dy.reshape(planes)).astype(np.float64), axis=0)[-1]
        d64 = np.add.accumulate(
            _lanes_dot(xm.reshape(planes), dy.reshape(planes)).astype(np.float64), axis=0
        )[-1]
        k = ((d64.astype(_F) * invstd) * invstd) / _F(count)
        gm = (s64 / count).astype(_F)
        if train:
            t = _fma(-xm, k.reshape(per), dy - gm.reshape(per))
            dx = (t * inv) * w.reshape(per)
        else:
            dx = (dy * inv) * w.reshape(per)
        return dx.astype(_F), (d64 * invstd.astype(np.float64)).astype(_F), s64.astype(_F)


# --- group_norm's backward (ATen's group_norm_kernel.cpp, contiguous input, one thread) ---


def _channel_sum(v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """sum(v * w) over the last axis (a group's channels) as GroupNormInputBackward adds it:
    whole vectors of 8 fused into 8 lanes, the lanes added from lane 0 in order, then the
    channels past the last whole vector one by one: the first four (when there are four or
    more) as rounded products added in order, the rest fused into the sum (measured: the
    compiled tail loop runs four products at a time, then one at a time)."""
    d = v.shape[-1]
    full = d - d % _L
    acc = np.zeros(v.shape[:-1] + (_L,), _F)
    for k in range(0, full, _L):
        acc = _fma(v[..., k : k + _L], w[..., k : k + _L], acc)
    total = np.zeros(v.shape[:-1], _F)
    for lane in range(_L):
        total = total + acc[..., lane]
    k = full
    if d - k >= 4:
        for j in range(k, k + 4):
            total = total + v[..., j] * w[..., j]
        k += 4
    for j in range(k, d):
        total = _fma(v[..., j], w[..., j], total)
    return total


def group_stats(x: np.ndarray, groups: int, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """(mean, rstd) of each (sample, group) of a float32 (N, C, ...) array, as the forward
    kernel saves them: layer norm's moments, the reciprocal root in double rounded once."""
    rows = np.ascontiguousarray(x, _F).reshape(x.shape[0] * groups, -1)
    mean, var = moments(rows)
    with np.errstate(all="ignore"):
        rstd = (1.0 / np.sqrt(np.maximum(var, _F(0)).astype(np.float64) + eps)).astype(_F)
    return mean, rstd


def group_norm_backward(
    dy: np.ndarray,
    x: np.ndarray,
    mean: np.ndarray,
    rstd: np.ndarray,
    weight: np.ndarray | None,
    groups: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(dx, dweight, dbias) of group_norm (float32; dy and x (N, C, ...), mean and rstd the
    forward's per (sample, group), weight (C,) or None), in the order of PyTorch's CPU
    kernel with one thread:

    - per (sample, channel): ds = sum(dy * x), db = sum(dy) by the vector reductions (the
      products rounded, whole vectors added lane by lane, the last partial vector into its
      lanes, the lanes folded as a butterfly);
    - per (sample, group): S = sum(ds * w), B = sum(db * w) over its channels (`_channel_sum`);
      c2 = (fma(B, mean, -S) * rstd * rstd * rstd) * s with s = 1 / (channels * positions),
      c3 = fma(-(B * rstd), s, -(c2 * mean)); dx = fma(rstd * w[c], dy, c2 * x) + c3;
    - dweight[c] = fma(fma(-db, mean, ds), rstd, acc) over the samples in order, dbias[c] =
      db added over the samples in order."""
    n, c = x.shape[0], x.shape[1]
    d = c // groups
    hw = x.size // (n * c) if n * c else 0
    xs = np.ascontiguousarray(x, _F).reshape(n, groups, d, hw)
    gs = np.ascontiguousarray(dy, _F).reshape(n, groups, d, hw)
    w = np.ones((groups, d), _F) if weight is None else np.asarray(weight, _F).reshape(groups, d)
    m = mean.reshape(n, groups)
    r = rstd.reshape(n, groups)
    with np.errstate(all="ignore"):
        ds = _lanes_sum(gs * xs)  # (n, groups, d)
        db = _lanes_sum(gs)
        wb = np.broadcast_to(w, ds.shape)
        s_ds, s_db = _channel_sum(ds, wb), _channel_sum(db, wb)
        s = _F(1) / _F(d * hw)
        c2 = (((_fma(s_db, m, -s_ds) * r) * r) * r) * s
        c3 = _fma(-(s_db * r), s, -(c2 * m))
        shape = gs.shape
        c1 = np.ascontiguousarray(np.broadcast_to((r[:, :, None] * w)[..., None], shape))
        dx = _fma(c1, gs, c2[:, :, None, None] * xs) + c3[:, :, None, None]
        gw = np.zeros((groups, d), _F)
        gb = np.zeros((groups, d), _F)
        for i in range(n):
            if i % 1024 == 1023:
                hooks.observer.check_clock()
            mi, ri = m[i][:, None], r[i][:, None]
            gw = _fma(_fma(-db[i], mi, ds[i]), ri, gw)
            gb = gb + db[i]
    return dx.astype(_F).reshape(x.shape), gw.reshape(c), gb.reshape(c)
