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
  2-row matrix), x / (alpha - beta) in float32. The columns to the right: w = v . c (float64:
  two lanes over pairs of rows from the diagonal, added hi + lo, an odd last row after;
  float32: in order), c -= v (tau w). Measured: 1,500 random float64 matrices (2 to 20 rows,
  up to 8 columns) and 300 of each dtype, every bit of R and tau equal.
- ?ormqr (Q^T B, through ?larf1 one reflector at a time): w = c0 + v' . c' (v' the stored
  part of the reflector, c' the rows below c0) by ?gemv 'T', then c0 += -tau w, c' += v'
  (-tau w). ?gemv's sum depends on where v' lies in memory (its distance from a 16-byte
  boundary; the buffer of A starts on one): v'[0] c'[0] first; fewer than 8 more terms in
  order; else (float64) one term more if v'[1] is not 16-byte aligned, then 8 terms at a time
  into four two-lane sums, added (s0 + s1) + (s2 + s3), then hi + lo, then the rest in
  order; (float32) up to 3 terms more to reach a 16-byte boundary (none if fewer than 8 would
  be left), 8 at a time into two four-lane sums, added, lanes (0 + 2) + (1 + 3), the rest in
  order. Two float64 right-hand sides are summed together: the first in two alternating
  two-lane sums, the second in one. Measured: every bit for 1 to 3 right-hand sides (float64)
  and 1 (float32) on 300 random systems each.
- ?trsm (upper, not transposed): one right-hand side by columns from the last: x_j = b_j /
  r_jj, then b_i -= x_j r_ij above it (every bit, 300 systems each dtype); more right-hand
  sides by rows with the reciprocal: x_j = (b_j - sum_k r_jk x_k) * (1 / r_jj) (every bit
  for up to 3 unknowns; MKL blocks larger ones otherwise: last bits differ).

Measured end to end against `torch.linalg.lstsq` here (gelsy, batches of 3, 2 to 20 rows, 1
to 5 columns, one right-hand side): every batch element after the first 100% equal, the
first 85% (float32) and 90% (float64): the rest is PyTorch's own pivoting by chance. Not
exact (last bits): more than 20 rows or columns (MKL's other ?geqrf paths: this model's
arithmetic is used there too), 4 or more float64 right-hand sides, 2 or more float32 ones,
and more than 3 unknowns with several right-hand sides.
"""

from __future__ import annotations

import numpy as np

_F32 = np.dtype(np.float32)

# beyond these the per-element loops below would cost more than a few tens of milliseconds:
# the caller computes the solution another way (its last bits differ)
MAX_ELEMENTS = 1 << 16
MAX_RHS = 64


def _nrm2(x: np.ndarray) -> np.floating:
    """The small ?geqrf path's scaled 2-norm (float64: ssq * t^2; float32: (ssq t) t)."""
    dt = x.dtype.type
    f32 = x.dtype == _F32
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


def _lapy2(x: np.floating, y: np.floating) -> np.floating:
    xa, ya = abs(x), abs(y)
    w, z = max(xa, ya), min(xa, ya)
    if z == 0:
        return w
    return w * np.sqrt(type(w)(1) + (z / w) ** 2)


def _geqrf(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Householder QR of an m x n matrix (m >= n): R on and above the diagonal, the
    reflectors' vectors below it, and tau."""
    r = np.array(a, copy=True)
    m, n = r.shape
    dt = r.dtype.type
    f32 = r.dtype == _F32
    taus = np.zeros(n, r.dtype)
    for i in range(n):
        alpha = r[i, i]
        x = r[i + 1 :, i]
        if x.size == 0:
            continue
        xnorm = _nrm2(x)
        if xnorm == 0:
            continue
        beta = dt(-np.copysign(_lapy2(alpha, xnorm), alpha))
        tau = dt((beta - alpha) / beta)
        d = dt(alpha - beta)
        r[i + 1 :, i] = x / d if (f32 or m == 2) else x * (dt(1) / d)
        r[i, i] = beta
        taus[i] = tau
        if i == n - 1:
            continue
        v = r[i:, i].copy()
        v[0] = 1
        c = r[i:, i + 1 :]
        rows = c.shape[0]
        if f32:
            w = c[0].copy()
            for p in range(1, rows):
                w = w + v[p] * c[p]
        else:
            h = rows // 2 * 2
            if h:
                l0 = v[0] * c[0]
                l1 = v[1] * c[1]
                for p in range(2, h, 2):
                    l0 = l0 + v[p] * c[p]
                    l1 = l1 + v[p + 1] * c[p + 1]
                w = l1 + l0
                if rows % 2:
                    w = w + v[rows - 1] * c[rows - 1]
            else:
                w = v[0] * c[0]
        r[i:, i + 1 :] = c - np.outer(v, tau * w)
    return r, taus


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
    acc = np.zeros((4, 2), x.dtype)
    acc[0, 0] = s
    blk = (x[st : st + nb * 8] * c[st : st + nb * 8]).reshape(nb, 4, 2)
    for b in range(nb):
        acc = acc + blk[b]
    v = (acc[0] + acc[1]) + (acc[2] + acc[3])
    s = v[0] + v[1]
    for p in range(st + nb * 8, m):
        s = s + x[p] * c[p]
    return np.array([s])


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
    even = np.zeros(2, x.dtype)
    odd = np.zeros(2, x.dtype)
    second = np.zeros(2, x.dtype)
    even[0] = s1
    second[0] = s2
    for b in range(nb):
        p = st + 8 * b
        for q in range(4):
            sl = slice(p + 2 * q, p + 2 * q + 2)
            if q % 2 == 0:
                even = even + x[sl] * c1[sl]
            else:
                odd = odd + x[sl] * c1[sl]
            second = second + x[sl] * c2[sl]
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
        acc = np.zeros((2, 4), x.dtype)
        acc[0, 0] = s
        blk = (x[st : st + nb * 8] * c[st : st + nb * 8]).reshape(nb, 2, 4)
        for b in range(nb):
            acc = acc + blk[b]
        v = acc[0] + acc[1]
        v2 = v[:2] + v[2:]
        s = v2[0] + v2[1]
        for p in range(st + nb * 8, m):
            s = s + x[p] * c[p]
        out[j] = s
    return out


def _ormqr_t(r: np.ndarray, taus: np.ndarray, b: np.ndarray, offset: int) -> np.ndarray:
    """Q^T B, the reflectors applied in order; `offset`: where A's buffer starts, in elements
    past a 16-byte boundary."""
    c = np.array(b, copy=True)
    m, n = r.shape
    f32 = c.dtype == _F32
    nr = c.shape[1]
    for i in range(n):
        tau = taus[i]
        if tau == 0:
            continue
        v = r[i + 1 :, i]
        below = c[i + 1 :]
        start = offset + (i + 2) + i * m  # v[1]'s element offset in the buffer
        if f32:
            w = _gemv_dot32(v, below, start % 4)
        else:
            aligned1 = start % 2 == 0
            parts = []
            j = 0
            while j < nr:
                if nr - j in (2, 3):
                    parts.append(_gemv_dot64_pair(v, below[:, j : j + 2], aligned1))
                    j += 2
                else:
                    parts.append(_gemv_dot64(v, below[:, j : j + 1], aligned1))
                    j += 1
            w = np.concatenate(parts)
        w = c[i] + w
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
    for j in range(n - 1, -1, -1):
        s = x[j].copy()
        for k in range(j + 1, n):
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


def gels(a: np.ndarray, b: np.ndarray, offset: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(X, Q^T B): X (n x k) minimising ||A X - B|| for one m x n matrix A of full rank,
    m >= n, and an m x k B, as MKL's ?gels computes it here, and Q^T B (m x k: its rows
    below n give ATen's residuals); `offset`: A's first element's distance from a 16-byte
    boundary in the column-major buffer, in elements (the batch index times m n)."""
    r, taus = _geqrf(a)
    c = _ormqr_t(r, taus, b, offset)
    return _trsm_upper(r, c), c


def fits(m: int, n: int, k: int) -> bool:
    """Whether the model runs for an m x n system with k right-hand sides (a tall or square
    matrix, small enough for the loops above)."""
    return 0 < n <= m and m * n <= MAX_ELEMENTS and 0 < k <= MAX_RHS
