"""`torch.linalg.lstsq` of a tall or square matrix of full rank (drivers 'gelsy', the default
on CPU, and 'gels') as PyTorch computes it on an AVX2 processor without AVX-512 (the `avx2`
kernel family of `core.cpu`, measured on AMD EPYC, Zen 3, PyTorch 2.13 with MKL 2024.2), in
NumPy, bit for bit where said below.

What PyTorch runs. ATen copies A into a column-major buffer (one matrix after the other, the
first at a 64-byte boundary) and calls LAPACK's ?gelsy (or ?gels) on each matrix in turn. For
?gelsy it passes a `jpvt` array it never sets (PyTorch 2.13 allocates it empty): a non-zero
entry fixes that column in front, outside the column pivoting. The first matrix of a call sees
whatever the allocator left there (fresh memory: zeros, pivoting; reused memory: mostly
non-zero, no pivoting), so PyTorch's own result for one system changes from call to call
(the line through (1, 1), (2, 2), (3, 3): `-0.` in one call, `-7.2155e-16` in the next);
every later matrix of a batch sees the permutation ?gelsy wrote back, all non-zero, and is
factored without pivoting. Without pivoting ?gelsy computes exactly what ?gels computes for a
matrix of full rank (300 of 300 random systems, float32 and float64): Householder QR (?geqrf),
Q^T B (?ormqr), then R X = Q^T B (?trsm). That is the model here, for both drivers; it is
what tutorial programs printed in two trials (`tensor([-0., 1.])`).

MKL's kernels on this processor: MKL does not take an AMD processor for an Intel one and runs
its generic SSE code (calling each variant PyTorch's library carries showed that only that
one gives its bits): no fused multiply-adds, float64 in two lanes, float32 in four.

- ?geqrf, max(m, n) <= 20 (MKL's small-matrix path): column by column, the reflector of the
  part below the diagonal: xnorm by the scaled sum of squares (scale, ssq = 1; a larger |x|
  makes ssq = ssq (scale/|x|)^2 + 1, float64 as ssq * t^2, float32 as (ssq t) t; else ssq +=
  (|x|/scale)^2; xnorm = scale sqrt(ssq)); beta = -sign(alpha) lapy2(alpha, xnorm); tau =
  (beta - alpha) / beta; v = x * (1 / (alpha - beta)) in float64 (x / (alpha - beta) for a
  2 x 2 matrix), x / (alpha - beta) in float32. The columns to the right: w = v . c (float64:
  two lanes over pairs of rows from the diagonal, added hi + lo, an odd last row after;
  float32: in order), c -= v (tau w). Measured: 1,500 random float64 matrices (2 to 20 rows,
  up to 8 columns) and 300 of each dtype, every bit of R and tau equal.
- ?geqrf, more than 20 rows and at most 8 columns (MKL's `pfnr` panel; to 12,000 rows for
  3 columns, 6,000 for 8): one ?gemv (below) per column gives x . x and x . c for each
  column c to its right; xnorm = sqrt(x . x), w = c0 + (x . c) (1 / (alpha - beta)). Every
  bit for 21 to 150 rows. Other sizes get the small path's arithmetic: last bits differ.
- ?ormqr (Q^T B, through ?larf1 one reflector at a time): w = c0 + v' . c' (v' the stored
  part of the reflector, c' the rows below c0) by ?gemv 'T', then c0 += -tau w, c' += v'
  (-tau w).
- ?gemv 'T' (x . c for the columns c of a matrix): its sum depends on where x lies in memory
  (its distance from a 16-byte boundary; the buffer of A starts on one): x[0] c[0] first;
  fewer than 8 more terms in order; else (float64) one term more if x[1] is not 16-byte
  aligned, then 8 terms at a time into four two-lane sums, added (s0 + s1) + (s2 + s3), then
  hi + lo, then the rest in order; (float32) up to 3 terms more to reach a 16-byte boundary
  (none if fewer than 8 would be left), 8 at a time into two four-lane sums, added, lanes
  (0 + 2) + (1 + 3), the rest in order. Columns two at a time while 2 or 3 are left: the
  first as alone, but float64 in two alternating two-lane sums; the second in one sum
  (float64 two lanes, float32 four). Four columns at a time while 4 or more are left, each
  in one sum (float64: two lanes over pairs of terms, after one more term if the fourth
  column's second element is not 16-byte aligned; float32: four lanes over groups of four,
  after up to 3 terms that bring the fourth column to a 16-byte boundary; the columns'
  alignment, not x's), folded as above, the last terms after.
- ?trsm (upper, not transposed): one right-hand side by columns from the last: x_j = b_j /
  r_jj, then b_i -= x_j r_ij above it; more right-hand sides in blocks of two rows from the
  bottom, each solved by rows with the reciprocal, x_j = (b_j - r_jk x_k ...) * (1 / r_jj):
  float64 first takes from each row of the block the terms of the rows solved before it, in
  order (every bit for up to 5 unknowns); float32 takes the block's two terms, summed first,
  from the rows above it (every bit for up to 3). MKL blocks more unknowns otherwise (last
  bits differ).

Measured end to end against MKL's ?gels (ctypes, this machine): every bit for 1 to 3
right-hand sides and 1 to 3 unknowns (2 to 150 rows; to 6 right-hand sides tried), and for
1 right-hand side up to 8 unknowns (to 100 rows), float32 and float64. Against
`torch.linalg.lstsq` (gelsy): batch elements after the first 100% equal; the first one as
far as PyTorch's chance pivoting lets it (85% float32, 90% float64 on random systems).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

_F32 = np.dtype(np.float32)

# beyond these the per-element loops below would cost more than a few tens of milliseconds:
# the caller computes the solution another way (its last bits differ)
MAX_ELEMENTS = 1 << 16
MAX_RHS = 64


def _nrm2(x: np.ndarray) -> np.floating:
    """The small ?geqrf path's scaled 2-norm (float64: ssq * t^2; float32: (ssq t) t)."""
    if x.dtype != _F32:
        # (Python's floats are IEEE doubles, rounded as NumPy's: the same arithmetic, faster)
        fscale, fssq = 0.0, 1.0
        for v in x.tolist():
            if v == 0:
                continue
            a = abs(v)
            if a > fscale:
                t = fscale / a
                fssq = fssq * (t * t) + 1.0
                fscale = a
            else:
                t = a / fscale
                fssq = fssq + t * t
        return np.float64(fscale) * np.sqrt(np.float64(fssq))
    dt = x.dtype.type
    f32 = True
    scale = dt(0)
    ssq = dt(1)
    one = dt(1)
    for v in x.tolist():
        if v == 0:
            continue
        a = dt(abs(v))
        if a > scale:
            t = scale / a
            ssq = ((ssq * t) * t if f32 else ssq * (t * t)) + one
            scale = a
        else:
            t = a / scale
            ssq = ssq + t * t
    return scale * np.sqrt(ssq)


def _running(terms: np.ndarray) -> np.ndarray:
    """The terms (along the first axis) added one after the other, each sum rounded: a
    running sum's last row (NumPy's accumulate adds in order, unlike its sum)."""
    return np.add.accumulate(terms, axis=0)[-1]


def _lapy2(x: np.floating, y: np.floating) -> np.floating:
    xa, ya = abs(x), abs(y)
    w, z = max(xa, ya), min(xa, ya)
    if z == 0:
        return w
    return w * np.sqrt(type(w)(1) + (z / w) ** 2)


def _geqrf(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Householder QR of an m x n matrix (m >= n): R on and above the diagonal, the
    reflectors' vectors below it, and tau."""
    m, n = a.shape
    f32 = a.dtype == _F32

    def sums(v: np.ndarray, c: np.ndarray, i: int) -> np.ndarray:
        if f32:
            return _running(np.concatenate([c[:1], v[1:, None] * c[1:]]))
        rows = c.shape[0]
        h = rows // 2 * 2
        if not h:
            return v[0] * c[0]
        w = _running(v[1:h:2, None] * c[1:h:2]) + _running(v[0:h:2, None] * c[0:h:2])
        return w + v[rows - 1] * c[rows - 1] if rows % 2 else w

    return _householder(a, n, _nrm2, not (f32 or m == n == 2), sums)


def _householder(
    a: np.ndarray,
    ntau: int,
    nrm: Callable[[np.ndarray], Any],
    reciprocal: bool,
    sums: Callable[[np.ndarray, np.ndarray, int], np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """The unblocked Householder QR both of MKL's small paths walk (LAPACK's ?geqr2): each
    column's reflector (?larfg: xnorm = nrm(x) of the part below the diagonal, beta =
    -sign(alpha) lapy2(alpha, xnorm), x scaled by 1 / (alpha - beta) when `reciprocal`, else
    divided by it), then applied to the columns to its right, c -= v (tau w), w = v . c as
    `sums(v, c, i)` adds it. R on and above the diagonal, the vectors below it; `ntau` taus."""
    r = np.array(a, copy=True)
    m, n = r.shape
    dt = r.dtype.type
    taus = np.zeros(ntau, r.dtype)
    for i in range(min(m, n)):
        alpha = r[i, i]
        x = r[i + 1 :, i]
        if x.size == 0:
            continue
        xnorm = nrm(x)
        if xnorm == 0:
            continue
        beta = dt(-np.copysign(_lapy2(alpha, xnorm), alpha))
        taus[i] = tau = dt((beta - alpha) / beta)
        d = dt(alpha - beta)
        r[i + 1 :, i] = x * (dt(1) / d) if reciprocal else x / d
        r[i, i] = beta
        if i == n - 1:
            continue
        v = r[i:, i].copy()
        v[0] = 1
        c = r[i:, i + 1 :]
        r[i:, i + 1 :] = c - np.outer(v, tau * sums(v, c, i))
    return r, taus


def _geqrf_panel(a: np.ndarray, offset: int) -> tuple[np.ndarray, np.ndarray]:
    """MKL's ?geqrf for more than 20 rows and at most 3 columns (its `pfnr` panel): one ?gemv
    per column gives x . x and x . c for the columns c to its right (x: the part below the
    diagonal), so xnorm = sqrt(x . x), and w = c0 + (x . c) * (1 / (alpha - beta))."""
    r = np.array(a, copy=True)
    m, n = r.shape
    dt = r.dtype.type
    taus = np.zeros(n, r.dtype)
    for i in range(n):
        alpha = r[i, i]
        x = r[i + 1 :, i]
        if x.size == 0:
            continue
        at = offset + (i + 2) + i * m
        g = _gemv_sums(x, r[i + 1 :, i:], at, at, m)
        if g[0] == 0:
            continue
        beta = dt(-np.copysign(_lapy2(alpha, np.sqrt(g[0])), alpha))
        tau = dt((beta - alpha) / beta)
        sc = dt(1) / (alpha - beta)
        v = x * sc
        r[i + 1 :, i] = v
        r[i, i] = beta
        taus[i] = tau
        if i < n - 1:
            w = r[i, i + 1 :] + g[1:] * sc
            r[i, i + 1 :] = r[i, i + 1 :] - tau * w
            r[i + 1 :, i + 1 :] = r[i + 1 :, i + 1 :] - np.outer(v, tau * w)
    return r, taus


def _gemv_sums(x: np.ndarray, cols: np.ndarray, start: int, cstart: int, ld: int) -> np.ndarray:
    """MKL's ?gemv 'T' sums x . c for each column c of `cols`; `start`: x[1]'s element offset
    in its buffer (from a 16-byte boundary), `cstart`: the first column's second element's,
    `ld`: the columns' distance (four columns at a time go by the fourth one's alignment)."""
    f32 = x.dtype == _F32
    where = start % 4 if f32 else start % 2 == 0
    one, two = (_gemv_dot32, _gemv_dot32_pair) if f32 else (_gemv_dot64, _gemv_dot64_pair)
    nr = cols.shape[1]
    parts = []
    j = 0
    while j < nr:
        if nr - j >= 4:
            fourth = cstart + (j + 3) * ld
            if f32:
                parts.append(_gemv_dot32_quad(x, cols[:, j : j + 4], fourth % 4))
            else:
                parts.append(_gemv_dot64_quad(x, cols[:, j : j + 4], fourth % 2 == 0))
            j += 4
        elif nr - j in (2, 3):
            parts.append(two(x, cols[:, j : j + 2], where))
            j += 2
        else:
            parts.append(one(x, cols[:, j : j + 1], where))
            j += 1
    return np.concatenate(parts)


def _gemv_dot64(x: np.ndarray, cols: np.ndarray, aligned1: bool) -> np.ndarray:
    """MKL's float64 ?gemv 'T' sum x . c for one column (cols: rows x 1)."""
    m = x.size
    c = cols[:, 0]
    s = x[0] * c[0]
    if m - 1 < 8:
        for p in range(1, m):
            s = s + x[p] * c[p]
        return np.array([s])
    st = 1
    if not aligned1:
        s = s + x[1] * c[1]
        st = 2
    nb = (m - st) // 8
    acc = np.zeros((1, 4, 2), x.dtype)
    acc[0, 0, 0] = s
    acc = _running(
        np.concatenate([acc, (x[st : st + nb * 8] * c[st : st + nb * 8]).reshape(nb, 4, 2)])
    )
    v = (acc[0] + acc[1]) + (acc[2] + acc[3])
    s = v[0] + v[1]
    for p in range(st + nb * 8, m):
        s = s + x[p] * c[p]
    return np.array([s])


def _gemv_dot64_quad(x: np.ndarray, cols: np.ndarray, aligned1: bool) -> np.ndarray:
    """MKL's float64 ?gemv 'T' sums for four columns taken together: each in one two-lane
    sum over pairs of terms (after x[0] c[0], and x[1] c[1] if x[1] is not 16-byte aligned),
    hi + lo, then the last term if one is left."""
    m = x.size
    s = x[0] * cols[0]
    peel = 0 if aligned1 else 1
    if m - 1 < 2 + peel:
        for p in range(1, m):
            s = s + x[p] * cols[p]
        return s
    if peel:
        s = s + x[1] * cols[1]
    st = 1 + peel
    npairs = (m - st) // 2
    span = slice(st, st + 2 * npairs)
    terms = (x[span, None] * cols[span]).reshape(npairs, 2, cols.shape[1])
    start = np.zeros((1, 2, cols.shape[1]), x.dtype)
    start[0, 0] = s
    acc = _running(np.concatenate([start, terms]))
    s = acc[0] + acc[1]
    for p in range(st + 2 * npairs, m):
        s = s + x[p] * cols[p]
    return s


def _gemv_dot32_quad(x: np.ndarray, cols: np.ndarray, lane1: int) -> np.ndarray:
    """MKL's float32 ?gemv 'T' sums for four columns taken together: each in one four-lane
    sum over groups of four terms (after x[0] c[0] and up to 3 terms that bring the fourth
    column to a 16-byte boundary: `lane1` is its second element's float32 offset), lanes
    (0 + 2) + (1 + 3), then the rest in order."""
    m = x.size
    s = x[0] * cols[0]
    peel = (4 - lane1 % 4) % 4
    if m - 1 < 4 or peel + 4 > m - 1:
        for p in range(1, m):
            s = s + x[p] * cols[p]
        return s
    for p in range(1, 1 + peel):
        s = s + x[p] * cols[p]
    st = 1 + peel
    groups = (m - st) // 4
    span = slice(st, st + 4 * groups)
    terms = (cols[span] * x[span, None]).reshape(groups, 4, cols.shape[1])
    start = np.zeros((1, 4, cols.shape[1]), x.dtype)
    start[0, 0] = s
    acc = _running(np.concatenate([start, terms]))
    half = acc[:2] + acc[2:]
    s = half[0] + half[1]
    for p in range(st + 4 * groups, m):
        s = s + x[p] * cols[p]
    return s


def _gemv_dot64_pair(x: np.ndarray, cols: np.ndarray, aligned1: bool) -> np.ndarray:
    """MKL's float64 ?gemv 'T' sums for two columns taken together."""
    m = x.size
    c1, c2 = cols[:, 0], cols[:, 1]
    s1 = x[0] * c1[0]
    s2 = x[0] * c2[0]
    if m - 1 < 8:
        for p in range(1, m):
            s1 = s1 + x[p] * c1[p]
            s2 = s2 + x[p] * c2[p]
        return np.array([s1, s2])
    st = 1
    if not aligned1:
        s1 = s1 + x[1] * c1[1]
        s2 = s2 + x[1] * c2[1]
        st = 2
    nb = (m - st) // 8
    span = slice(st, st + nb * 8)
    p1 = (x[span] * c1[span]).reshape(nb, 4, 2)
    p2 = (x[span] * c2[span]).reshape(nb * 4, 2)
    zero = np.zeros((1, 2), x.dtype)
    first = zero.copy()
    first[0, 0] = s1
    start2 = zero.copy()
    start2[0, 0] = s2
    even = _running(np.concatenate([first, p1[:, 0::2].reshape(-1, 2)]))
    odd = _running(np.concatenate([zero, p1[:, 1::2].reshape(-1, 2)]))
    second = _running(np.concatenate([start2, p2]))
    even = even + odd
    s1 = even[0] + even[1]
    s2 = second[0] + second[1]
    for p in range(st + nb * 8, m):
        s1 = s1 + x[p] * c1[p]
        s2 = s2 + x[p] * c2[p]
    return np.array([s1, s2])


def _gemv_dot32(x: np.ndarray, cols: np.ndarray, lane1: int) -> np.ndarray:
    """MKL's float32 ?gemv 'T' sums, column by column; lane1: x[1]'s float32 offset from a
    16-byte boundary."""
    m = x.size
    out = np.zeros(cols.shape[1], x.dtype)
    peel = (4 - lane1 % 4) % 4
    for j in range(cols.shape[1]):
        c = cols[:, j]
        s = x[0] * c[0]
        r = m - 1
        if r < 8 or peel + 8 > r:
            for p in range(1, m):
                s = s + x[p] * c[p]
            out[j] = s
            continue
        for p in range(1, 1 + peel):
            s = s + x[p] * c[p]
        st = 1 + peel
        nb = (m - st) // 8
        acc = np.zeros((1, 2, 4), x.dtype)
        acc[0, 0, 0] = s
        blk = (x[st : st + nb * 8] * c[st : st + nb * 8]).reshape(nb, 2, 4)
        acc = _running(np.concatenate([acc, blk]))
        v = acc[0] + acc[1]
        v2 = v[:2] + v[2:]
        s = v2[0] + v2[1]
        for p in range(st + nb * 8, m):
            s = s + x[p] * c[p]
        out[j] = s
    return out


def _gemv_dot32_pair(x: np.ndarray, cols: np.ndarray, lane1: int) -> np.ndarray:
    """MKL's float32 ?gemv 'T' sums for two columns taken together: the first in two
    four-lane sums (as one column alone), the second in one."""
    m = x.size
    c1, c2 = cols[:, 0], cols[:, 1]
    s1 = x[0] * c1[0]
    s2 = x[0] * c2[0]
    peel = (4 - lane1 % 4) % 4
    r = m - 1
    if r < 8 or peel + 8 > r:
        for p in range(1, m):
            s1 = s1 + x[p] * c1[p]
            s2 = s2 + x[p] * c2[p]
        return np.array([s1, s2])
    for p in range(1, 1 + peel):
        s1 = s1 + x[p] * c1[p]
        s2 = s2 + x[p] * c2[p]
    st = 1 + peel
    nb = (m - st) // 8
    span = slice(st, st + nb * 8)
    p1 = (c1[span] * x[span]).reshape(nb, 2, 4)
    p2 = (c2[span] * x[span]).reshape(nb * 2, 4)
    zero = np.zeros((1, 4), x.dtype)
    first = zero.copy()
    first[0, 0] = s1
    start2 = zero.copy()
    start2[0, 0] = s2
    lo = _running(np.concatenate([first, p1[:, 0]]))
    hi = _running(np.concatenate([zero, p1[:, 1]]))
    one = _running(np.concatenate([start2, p2]))
    lo = lo + hi
    f1 = lo[:2] + lo[2:]
    f2 = one[:2] + one[2:]
    s1 = f1[0] + f1[1]
    s2 = f2[0] + f2[1]
    for p in range(st + nb * 8, m):
        s1 = s1 + x[p] * c1[p]
        s2 = s2 + x[p] * c2[p]
    return np.array([s1, s2])


def _ormqr_t(
    r: np.ndarray, taus: np.ndarray, b: np.ndarray, offset: int, b_offset: int
) -> np.ndarray:
    """Q^T B, the reflectors applied in order; `offset`, `b_offset`: where A's and B's
    buffers start, in elements past a 16-byte boundary."""
    c = np.array(b, copy=True)
    m, n = r.shape
    for i in range(n):
        tau = taus[i]
        if tau == 0:
            continue
        v = r[i + 1 :, i]
        below = c[i + 1 :]
        w = c[i] + _gemv_sums(v, below, offset + (i + 2) + i * m, b_offset + i + 2, m)
        t = -tau * w
        c[i] = c[i] + t
        c[i + 1 :] = below + np.outer(v, t)
    return c


def _trsm_upper(r: np.ndarray, b: np.ndarray) -> np.ndarray:
    n = r.shape[1]
    x = np.array(b[:n], copy=True)
    dt = x.dtype.type
    if x.shape[1] == 1:
        for j in range(n - 1, -1, -1):
            x[j] = x[j] / r[j, j]
            if j:
                x[:j] = x[:j] - x[j] * r[:j, j][:, None]
        return x
    if x.dtype == _F32:
        # float32: blocks of two rows from the bottom, each solved by rows, the rows above
        # it then less the block's two terms summed first
        for e in range(n, 0, -2):
            s0 = max(e - 2, 0)
            for j in range(e - 1, s0 - 1, -1):
                s = x[j].copy()
                for k in range(j + 1, e):
                    s = s - r[j, k] * x[k]
                x[j] = s * (dt(1) / r[j, j])
            if s0:
                d = r[:s0, s0][:, None] * x[s0]
                for q in range(s0 + 1, e):
                    d = d + r[:s0, q][:, None] * x[q]
                x[:s0] = x[:s0] - d
        return x
    # float64: blocks of two rows from the bottom; each row first less the terms of the rows
    # solved before the block, in order, then the block solved by rows
    for e in range(n, 0, -2):
        s0 = max(e - 2, 0)
        for j in range(e - 1, s0 - 1, -1):
            s = x[j].copy()
            for k in range(e, n):
                s = s - r[j, k] * x[k]
            x[j] = s
        for j in range(e - 1, s0 - 1, -1):
            s = x[j].copy()
            for k in range(j + 1, e):
                s = s - r[j, k] * x[k]
            x[j] = s * (dt(1) / r[j, j])
    return x


def in_range(a: np.ndarray) -> bool:
    """Whether ?gels would leave these values unscaled (the largest magnitude between
    safmin/eps and its reciprocal, and not 0): the model holds only there."""
    if a.size == 0:
        return False
    big = float(np.max(np.abs(a)))
    fi = np.finfo(a.dtype)
    small = float(fi.tiny) / float(fi.eps)
    return small <= big <= 1.0 / small


def gels(
    a: np.ndarray, b: np.ndarray, offset: int = 0, b_offset: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """(X, Q^T B): X (n x k) minimising ||A X - B|| for one m x n matrix A of full rank,
    m >= n, and an m x k B, as MKL's ?gels computes it here, and Q^T B (m x k: its rows
    below n give ATen's residuals); `offset`, `b_offset`: A's and B's first elements'
    distances from a 16-byte boundary in their column-major buffers, in elements (the batch
    index times m n, and times m k)."""
    m, n = a.shape
    if m > 20 and (n <= 3 and m <= 12000 or n <= 8 and m <= 6000):
        r, taus = _geqrf_panel(a, offset)
    else:
        r, taus = _geqrf(a)
    c = _ormqr_t(r, taus, b, offset, b_offset)
    return _trsm_upper(r, c), c


def fits(m: int, n: int, k: int) -> bool:
    """Whether the model runs for an m x n system with k right-hand sides (a tall or square
    matrix, small enough for the loops above)."""
    return 0 < n <= m and m * n <= MAX_ELEMENTS and 0 < k <= MAX_RHS


# `torch.linalg.qr` (?geqrf, then ?orgqr for Q) on the avx2 family. float32: every bit of Q
# and R equal to PyTorch's for the sizes `qr_fits` admits (tall matrices up to 64 x 64 and
# beyond, see there); float64: up to QR_MAX_ROWS rows. MKL's ?geqrf of a float32 matrix of more
# than 20 rows picks one of three paths:
# - its `pfnr` panel (`_geqrf_panel`): most tall matrices (measured to 2,000 x 12, 256 x 96);
# - ?geqr2 (`_geqr2`, LAPACK's unblocked loop): square matrices of 21 to 150 rows, and any
#   matrix of 51 to 64 rows with 21 columns or more;
# - a blocked factorisation (not modelled): square from about 160 rows, 256 x 100, 200 x 128.
# ?orgqr forms Q by ?org2r (`_orgqr`) when it has at most 32 reflectors, else blocked (?larft,
# ?larfb: not modelled).
QR_MAX_ROWS = 5
QR32_MAX_REFLECTORS = 32
_PANEL_MAX_ELEMENTS = 24576


def _nrm2_larfg(x: np.ndarray) -> np.floating:
    """The scaled 2-norm ?larfg takes (MKL's ?nrm20): as `_nrm2`, but a larger |x| makes
    ssq = ssq * t^2 + 1 in both dtypes (measured: float32, 300 of 300 vectors of each length
    2 to 63; the small path's (ssq t) t only 270 of 300)."""
    dt = x.dtype.type
    fscale, fssq = dt(0), dt(1)
    one = dt(1)
    for v in x.tolist():
        if v == 0:
            continue
        a = dt(abs(v))
        if a > fscale:
            t = fscale / a
            fssq = fssq * (t * t) + one
            fscale = a
        else:
            t = a / fscale
            fssq = fssq + t * t
    return fscale * np.sqrt(fssq)


def _geqr2(a: np.ndarray, offset: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """LAPACK's unblocked ?geqr2 as MKL runs it here: each column's reflector by ?larfg (norm
    `_nrm2_larfg`, beta = -sign(alpha) lapy2(alpha, xnorm), v = x (1 / (alpha - beta))), then
    ?larf on the columns to its right: w = ?gemv 'T' over the whole reflector (its first
    element 1, in the buffer at the diagonal), c -= v (tau w). Measured float32: every bit
    of R and tau for 21 x 21 to 64 x 64 (geqr2 called alone, and ?geqrf where it takes this
    path)."""
    m, n = a.shape

    def sums(v: np.ndarray, c: np.ndarray, i: int) -> np.ndarray:
        at = offset + (i + 1) + i * m
        return _gemv_sums(v, c, at, at + m, m)

    return _householder(a, min(m, n), _nrm2_larfg, True, sums)


def _geqrf32(a: np.ndarray, offset: int = 0) -> tuple[np.ndarray, np.ndarray] | None:
    """MKL's float32 ?geqrf by the path it takes for this shape (m >= n), or None where that
    path is not modelled."""
    m, n = a.shape
    if m <= 20:
        return _geqrf(a)
    if m == n and m <= 150 or 51 <= m <= 64 and n >= 21:
        return _geqr2(a, offset)
    if n <= 3 and m <= 12000 or n <= 8 and m <= 6000 or m * n <= _PANEL_MAX_ELEMENTS:
        return _geqrf_panel(a, offset)
    return None


def _orgqr(r: np.ndarray, taus: np.ndarray, ncols: int, offset: int = 0) -> np.ndarray:
    """The first `ncols` columns of H_1 ... H_k from ?geqrf's reflectors (below the diagonal
    of `r`) and `taus`, as MKL's ?org2r forms them in place: the last reflector first, each
    applied to the columns on its right by ?larf (w = ?gemv 'T' over the whole reflector, its
    first element 1 at the diagonal; c -= v (tau w)), then its own column set to -tau v below
    the diagonal, 1 - tau on it, zeros above. Measured float32 and float64: every bit for
    6 x 6 to 32 x 32 and 64 x 32 (?org2r and ?orgqr alike); for up to 5 rows the sums are
    in order, as before."""
    m = r.shape[0]
    dt = r.dtype.type
    q = np.zeros((m, ncols), r.dtype)
    q[:ncols, :ncols] = np.eye(ncols, dtype=r.dtype)
    for i in range(len(taus) - 1, -1, -1):
        tau = taus[i]
        v = np.concatenate([np.ones(1, r.dtype), r[i + 1 :, i]])
        if i < ncols - 1:
            c = q[i:, i + 1 :]
            at = offset + (i + 1) + i * m
            w = _gemv_sums(v, c, at, at + m, m)
            q[i:, i + 1 :] = c - np.outer(v, tau * w)
        q[i + 1 :, i] = -tau * v[1:]
        q[i, i] = dt(1) - tau
        q[:i, i] = 0
    return q


def qr_fits(m: int, n: int, dtype: np.dtype, mode: str) -> bool:
    """Whether `qr` models an m x n matrix of this dtype in this mode (before its values)."""
    if np.dtype(dtype).itemsize == 8 or m < n:
        # float64 (and wide float32 matrices) measured only up to QR_MAX_ROWS rows
        return 0 < m <= QR_MAX_ROWS and 0 < n <= 12
    if n == 0 or m * n > MAX_ELEMENTS or mode == "complete" and m * m > MAX_ELEMENTS:
        return False
    # Q from more reflectors: MKL's blocked ?orgqr
    return mode == "r" or n <= QR32_MAX_REFLECTORS


def qr(a: np.ndarray, mode: str) -> tuple[np.ndarray, np.ndarray] | None:
    """(Q, R) of one float32 or float64 matrix as MKL's ?geqrf and ?orgqr give them here
    (Q empty for mode 'r'), or None outside the measured sizes or for values LAPACK would
    rescale (the caller keeps NumPy's)."""
    m, n = a.shape
    if a.dtype.kind != "f" or a.dtype.itemsize not in (4, 8):
        return None
    if not qr_fits(m, n, a.dtype, mode) or not np.all(np.isfinite(a)):
        return None
    if np.any(a) and not in_range(a):
        return None
    k = min(m, n)
    got = _geqrf(a) if m <= 20 else _geqrf32(a)
    if got is None:
        return None
    r, taus = got
    rows = m if mode == "complete" else k
    rr = np.triu(r[:rows])
    if mode == "r":
        return np.zeros((0,), a.dtype), rr
    return _orgqr(r, taus[:k], rows), rr
