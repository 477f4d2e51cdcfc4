"""The signs of `torch.linalg.eigh`'s eigenvectors: which of v and -v MKL's ?syevd returns.

An eigenvector is defined up to its sign; LAPACK's answer depends on the path its algorithm
takes, and NumPy's LAPACK (OpenBLAS's) takes another one than MKL's: for random symmetric
3 x 3 matrices about a third of PyTorch's columns come out negated from NumPy's, at 10 x 10
nearly every matrix has one. Measured with ctypes probes of the MKL in PyTorch's wheel (this
machine; the algorithm, not the processor, decides the signs): ?syevd for n <= 25 is exactly
?sytrd (LAPACK's unblocked ?sytd2 for these sizes) + ?stedc, which for these sizes runs
?steqr (implicit QL or QR with Wilkinson shifts), + ?ormtr; its plane rotations follow the
older ?lartg convention (r = +sqrt(f^2 + g^2), c = f / r, s = g / r, all three negated when
|f| > |g| and c < 0), not LAPACK 3.10's (c >= 0 always), which is where the signs part.

This module walks the same path in Python (a few hundred scalar steps: n <= MAX_N): the
caller flips NumPy's eigenvectors to agree with it, and takes its values where NumPy's are
another answer (`mkl_like`: a repeated eigenvalue's eigenvectors, exact zeros, a zero
eigenvalue's rounding noise). float64 walks in float64 (signs equal to PyTorch's for every
one of 100 random matrices of each size 2 to 25, both triangles); float32 walks in float32
with float32's deflation thresholds. ?sytd2's ?symv and ?syr2 are walked in the reference
order, each operation rounded on its own (`_rank2_update`); float32's tridiagonal form still
misses MKL's last bits now and then, which changes ?steqr's path: all signs equal for 100% of
random 3 x 3, 99% of 8 x 8, about 85% of 16 x 16 and 75% of 25 x 25 matrices (NumPy's
before: 62%, 2%, 0%, 0%). Larger matrices go through ?stedc's divide and conquer (not
modelled: NumPy's signs are kept).
"""

from __future__ import annotations

import math

import numpy as np

MAX_N = 25
MAX_ELEMENTS = 8192  # of all the matrices of a batch together


def _lartg(f, g):
    """The plane rotation (c, s, r) with c f + s g = r, -s f + c g = 0, MKL's convention."""
    if g == 0:
        return 1.0, 0.0, f
    if f == 0:
        return 0.0, 1.0, g
    r = math.sqrt(f * f + g * g)
    c, s = f / r, g / r
    if abs(f) > abs(g) and c < 0:
        return -c, -s, -r
    return c, s, r


def _laev2(a, b, c):
    """Eigen-decomposition of [[a, b], [b, c]]: (rt1, rt2, cs, sn), rt1 the eigenvalue of
    larger magnitude and (cs, sn) its unit eigenvector, as LAPACK's ?laev2 picks it."""
    sm, df = a + c, a - c
    adf, tb = abs(df), b + b
    ab = abs(tb)
    acmx, acmn = (a, c) if abs(a) > abs(c) else (c, a)
    if adf > ab:
        rt = adf * math.sqrt(1 + (ab / adf) ** 2)
    elif adf < ab:
        rt = ab * math.sqrt(1 + (adf / ab) ** 2)
    else:
        rt = ab * math.sqrt(2.0)
    if sm < 0:
        rt1, sgn1 = 0.5 * (sm - rt), -1
        rt2 = (acmx / rt1) * acmn - (b / rt1) * b
    elif sm > 0:
        rt1, sgn1 = 0.5 * (sm + rt), 1
        rt2 = (acmx / rt1) * acmn - (b / rt1) * b
    else:
        rt1, rt2, sgn1 = 0.5 * rt, -0.5 * rt, 1
    cs, sgn2 = (df + rt, 1) if df >= 0 else (df - rt, -1)
    if abs(cs) > ab:
        ct = -tb / cs
        sn1 = 1 / math.sqrt(1 + ct * ct)
        cs1 = ct * sn1
    elif ab == 0:
        cs1, sn1 = 1.0, 0.0
    else:
        tn = -cs / tb
        cs1 = 1 / math.sqrt(1 + tn * tn)
        sn1 = tn * cs1
    if sgn1 == sgn2:
        cs1, sn1 = -sn1, cs1
    return rt1, rt2, cs1, sn1


def _rotate(z: np.ndarray, j: int, c, s) -> None:
    """Columns j and j + 1 of z turned by (c, s), as ?lasr applies one plane rotation."""
    t = z[:, j + 1].copy()
    z[:, j + 1] = c * t - s * z[:, j]
    z[:, j] = s * t + c * z[:, j]


def _steqr(d: list, e: list, fl: type, eps: float, safmin: float, imag: bool = False) -> np.ndarray:
    """?steqr with compz 'I' on the tridiagonal (d, e): the eigenvectors, columns in the
    order of ascending eigenvalues. Scalars are `fl` (float or np.float32). `imag`: as the
    complex ?steqr turns a complex identity, the imaginary parts (zeros, whose signs the
    rotations set) as n more rows below."""
    n = len(d)
    e = list(e) + [fl(0)]
    z = np.eye(n, dtype=np.float64 if fl is float else np.float32)
    if imag:
        z = np.concatenate([z, np.zeros_like(z)])
    eps2 = eps * eps
    two = fl(2)
    sq = (lambda x: fl(math.sqrt(x))) if fl is not float else math.sqrt
    maxit, it = 30 * n, 0
    l1 = 0
    while l1 <= n - 1 and it < maxit:
        if l1 > 0:
            e[l1 - 1] = fl(0)
        m = n - 1
        for k in range(l1, n - 1):
            t = abs(e[k])
            if t == 0 or t <= sq(abs(d[k])) * sq(abs(d[k + 1])) * eps:
                e[k] = fl(0)
                m = k
                break
        lo, hi = l1, m
        l1 = m + 1
        if hi == lo:
            continue
        if max(max(abs(x) for x in d[lo : hi + 1]), max(abs(x) for x in e[lo:hi])) == 0:
            continue
        l, lend = (hi, lo) if abs(d[hi]) < abs(d[lo]) else (lo, hi)
        if lend > l:  # QL: from the top
            while l <= lend and it < maxit:
                m = lend
                for k in range(l, lend):
                    if abs(e[k]) ** 2 <= (eps2 * abs(d[k])) * abs(d[k + 1]) + safmin:
                        m = k
                        break
                if m < lend:
                    e[m] = fl(0)
                p = d[l]
                if m == l:
                    l += 1
                    continue
                if m == l + 1:
                    rt1, rt2, c, s = _laev2(d[l], e[l], d[l + 1])
                    _rotate(z, l, c, s)
                    d[l], d[l + 1], e[l] = rt1, rt2, fl(0)
                    l += 2
                    continue
                it += 1
                g = (d[l + 1] - p) / (two * e[l])
                r = fl(math.hypot(g, 1.0))
                g = d[m] - p + (e[l] / (g + fl(math.copysign(r, g))))
                s, c, p = fl(1), fl(1), fl(0)
                rots = []
                for i in range(m - 1, l - 1, -1):
                    f, b = s * e[i], c * e[i]
                    c, s, r = (fl(x) for x in _lartg(g, f))
                    if i != m - 1:
                        e[i + 1] = r
                    g = d[i + 1] - p
                    r = (d[i] - g) * s + two * c * b
                    p = s * r
                    d[i + 1] = g + p
                    g = c * r - b
                    rots.append((i, c, -s))
                for i, c_, s_ in rots:
                    _rotate(z, i, c_, s_)
                d[l] = d[l] - p
                e[l] = g
        else:  # QR: from the bottom
            while l >= lend and it < maxit:
                m = lend
                for k in range(l, lend, -1):
                    if abs(e[k - 1]) ** 2 <= (eps2 * abs(d[k])) * abs(d[k - 1]) + safmin:
                        m = k
                        break
                if m > lend:
                    e[m - 1] = fl(0)
                p = d[l]
                if m == l:
                    l -= 1
                    continue
                if m == l - 1:
                    rt1, rt2, c, s = _laev2(d[l - 1], e[l - 1], d[l])
                    _rotate(z, l - 1, c, s)
                    d[l - 1], d[l], e[l - 1] = rt1, rt2, fl(0)
                    l -= 2
                    continue
                it += 1
                g = (d[l - 1] - p) / (two * e[l - 1])
                r = fl(math.hypot(g, 1.0))
                g = d[m] - p + (e[l - 1] / (g + fl(math.copysign(r, g))))
                s, c, p = fl(1), fl(1), fl(0)
                rots = []
                for i in range(m, l):
                    f, b = s * e[i], c * e[i]
                    c, s, r = (fl(x) for x in _lartg(g, f))
                    if i != m:
                        e[i - 1] = r
                    g = d[i] - p
                    r = (d[i + 1] - g) * s + two * c * b
                    p = s * r
                    d[i] = g + p
                    g = c * r - b
                    rots.append((i, c, s))
                for i, c_, s_ in rots:
                    _rotate(z, i, c_, s_)
                d[l] = d[l] - p
                e[l - 1] = g
    # ascending order by selection, columns swapped along
    for i in range(n - 1):
        k = i
        for j in range(i + 1, n):
            if d[j] < d[k]:
                k = j
        if k != i:
            d[i], d[k] = d[k], d[i]
            z[:, [i, k]] = z[:, [k, i]]
    return z


def _lapy2(x, y, dt):
    """?lapy2: sqrt(x^2 + y^2) as LAPACK computes it, w sqrt(1 + (z / w)^2) with w the larger
    magnitude, in the dtype `dt` (not a correctly rounded hypot: a last bit apart now and then,
    which a zero eigenvalue's noise shows: 3.2556e-15 where hypot gives 1.4630e-16)."""
    xa, ya = abs(x), abs(y)
    w, z = (xa, ya) if xa >= ya else (ya, xa)
    if z == 0:
        return w
    one = dt(1)
    q = dt(z / w)
    return dt(w * dt(math.sqrt(dt(one + dt(q * q)))))


def _reflector(alpha, x: np.ndarray):
    """?larfg: (beta, tau, v) with (I - tau [1; v] [1; v]^T) [alpha; x] = [beta; 0]."""
    dt = x.dtype.type
    xnorm = dt(np.sqrt(np.sum(x.astype(np.float64) ** 2))) if x.size else dt(0)
    if xnorm == 0:
        return alpha, dt(0), x
    beta = dt(-math.copysign(_lapy2(alpha, xnorm, dt), alpha))
    return beta, (beta - alpha) / beta, x * (dt(1) / (alpha - beta))


def _rank2_update(blk: np.ndarray, v: np.ndarray, tau, half, dt, lower: bool = True) -> np.ndarray:
    """?sytd2's step on the trailing block: w = tau A v by ?symv (the lower triangle read,
    column by column: each column's products added to the entries below as it goes, the
    column's own dot product added to its entry last), w += (-tau/2 (w . v)) v, then ?syr2's
    A - v w^T - w v^T, every operation rounded on its own in the reference order. (NumPy's
    products summed otherwise: measured on 2,000 small symmetric matrices against torch 2.13,
    eigenvalues printed alike 1636 -> 1716, their bits 659 -> 797, eigenvectors 1644 -> 1735.)"""
    m = len(v)
    a = blk.tolist() if dt is np.float64 else blk
    vv = v.tolist() if dt is np.float64 else list(v)
    t = float(tau) if dt is np.float64 else tau
    y = [dt(0)] * m
    for j in range(m):
        t1, t2 = t * vv[j], dt(0)
        if lower:
            y[j] = y[j] + t1 * a[j][j]
            for i in range(j + 1, m):
                y[i] = y[i] + t1 * a[i][j]
                t2 = t2 + a[i][j] * vv[i]
            y[j] = y[j] + t * t2
        else:  # (the upper triangle: the entries above, then the diagonal, then the dot)
            for i in range(j):
                y[i] = y[i] + t1 * a[i][j]
                t2 = t2 + a[i][j] * vv[i]
            y[j] = (y[j] + t1 * a[j][j]) + t * t2
    s = dt(0)
    for k in range(m):
        s = s + y[k] * vv[k]
    alpha = half * t * s
    w = [y[k] + alpha * vv[k] for k in range(m)]
    out = np.array(blk, copy=True)
    for j in range(m):
        t1, t2 = -w[j], -vv[j]
        for i in range(j, m) if lower else range(j + 1):
            val = (a[i][j] + vv[i] * t1) + w[i] * t2
            out[i, j] = out[j, i] = val
    return out


def _tridiagonal(a: np.ndarray, lower: bool):
    """?sytd2: (d, e, reflectors) with Q^T A Q tridiagonal; each reflector (index of its
    first row, tau, v) where Q = H(first) H(second) ... in the order they were made."""
    a = np.array(a, copy=True)
    n = a.shape[0]
    dt = a.dtype.type
    d, e, refl = [dt(0)] * n, [dt(0)] * (n - 1), []
    half = dt(-0.5)
    steps = range(n - 1) if lower else range(n - 2, -1, -1)
    for i in steps:
        if lower:
            beta, tau, x = _reflector(a[i + 1, i], a[i + 2 :, i])
            v = np.concatenate([np.ones(1, a.dtype), x])
            span = slice(i + 1, n)
        else:
            beta, tau, x = _reflector(a[i, i + 1], a[:i, i + 1])
            v = np.concatenate([x, np.ones(1, a.dtype)])
            span = slice(0, i + 1)
        e[i] = beta
        if tau != 0:
            a[span, span] = _rank2_update(a[span, span], v, tau, half, dt, lower)
        refl.append((span.start, tau, v))
        d[i if lower else i + 1] = a[i, i] if lower else a[i + 1, i + 1]
    d[n - 1 if lower else 0] = a[n - 1, n - 1] if lower else a[0, 0]
    return d, e, refl


def mkl_vectors(a: np.ndarray, uplo: str = "L") -> np.ndarray | None:
    """The eigenvectors of the symmetric float32 or float64 matrix `a` (the triangle `uplo`
    read) along the path MKL's ?syevd takes, columns by ascending eigenvalue; None where it
    is not modelled (n > MAX_N, values that are not finite)."""
    got = mkl_eigh(a, uplo)
    return None if got is None else got[1]


def mkl_eigh(a: np.ndarray, uplo: str = "L") -> tuple[np.ndarray, np.ndarray] | None:
    """(eigenvalues ascending, eigenvectors) of the symmetric float32 or float64 matrix `a`
    along ?syevd's path (`mkl_vectors`); None where it is not modelled."""
    n = a.shape[-1]
    if not 2 <= n <= MAX_N or not np.all(np.isfinite(a)):
        return None
    f32 = a.dtype == np.float32
    fl = np.float32 if f32 else float
    fi = np.finfo(a.dtype)
    lower = uplo.upper() == "L"
    tri = np.tril(a) if lower else np.triu(a)
    sym = tri + np.swapaxes(np.tril(tri, -1) if lower else np.triu(tri, 1), -1, -2)
    d, e, refl = _tridiagonal(sym.astype(np.float32 if f32 else np.float64), lower)
    vals = [fl(x) for x in d]
    z = _steqr(vals, [fl(x) for x in e], fl, float(fi.eps) / 2, float(fi.tiny))
    # Z := Q Z, Q the product of the reflectors in the order made (the last applied first);
    # a reflector with tau = 0 is the identity, not applied (?larf: the signs of zeros kept)
    for start, tau, v in reversed(refl):
        if tau == 0:
            continue
        rows = slice(start, start + v.size)
        z[rows] -= tau * np.outer(v, v @ z[rows])
    return np.array(vals, dtype=z.dtype), z


def match_signs(v: np.ndarray, a: np.ndarray, uplo: str = "L") -> np.ndarray:
    """NumPy's eigenvectors `v` (..., n, n) of `a` with each column's sign chosen as MKL's
    ?syevd chooses it, where the model runs and tells clearly (a column whose model vector is
    not near +-v, e.g. for a repeated eigenvalue, keeps NumPy's sign)."""
    n = v.shape[-1]
    # (about 0.06 n^2 ms a matrix: a larger batch keeps NumPy's signs)
    if n < 2 or n > MAX_N or v.size > MAX_ELEMENTS:
        return v
    out = np.array(v, copy=True)
    flat_a = a.reshape((-1,) + a.shape[-2:])
    flat_v = out.reshape((-1,) + v.shape[-2:])
    for k in range(flat_a.shape[0]):
        z = mkl_vectors(flat_a[k], uplo)
        if z is None:
            continue
        dots = np.sum(z.astype(np.float64) * flat_v[k], axis=0)
        flip = dots < -0.5
        flat_v[k][:, flip] = -flat_v[k][:, flip]
    return out


def _sterf(d: list, e: list, fl: type, eps: float) -> list:
    """?sterf (the eigenvalues alone: Pal, Walker and Kahan's root-free QL or QR on the
    squares of the off-diagonal), as LAPACK writes it; ascending."""
    n = len(d)
    d = list(d)
    e = list(e) + [fl(0)]
    eps2 = eps * eps
    two = fl(2)
    sq = (lambda x: fl(math.sqrt(x))) if fl is not float else math.sqrt
    nmaxit, jtot = 30 * n, 0
    l1 = 0
    while l1 <= n - 1:
        if l1 > 0:
            e[l1 - 1] = fl(0)
        m = n - 1
        for k in range(l1, n - 1):
            if abs(e[k]) <= (sq(abs(d[k])) * sq(abs(d[k + 1]))) * eps:
                e[k] = fl(0)
                m = k
                break
        l, lend = l1, m
        lsv, lendsv = l, lend
        l1 = m + 1
        if lend == l:
            continue
        anorm = max(max(abs(x) for x in d[l : lend + 1]), max(abs(x) for x in e[l:lend]))
        if anorm == 0:
            continue
        for i in range(l, lend):
            e[i] = e[i] * e[i]
        if abs(d[lend]) < abs(d[l]):
            lend, l = lsv, lendsv
        if lend >= l:  # QL
            while True:
                m = lend
                if l != lend:
                    for k in range(l, lend):
                        if abs(e[k]) <= eps2 * abs(d[k] * d[k + 1]):
                            m = k
                            break
                if m < lend:
                    e[m] = fl(0)
                p = d[l]
                if m == l:
                    d[l] = p
                    l += 1
                    if l <= lend:
                        continue
                    break
                if m == l + 1:
                    rte = sq(e[l])
                    rt1, rt2, _, _ = _laev2(d[l], rte, d[l + 1])
                    d[l], d[l + 1], e[l] = rt1, rt2, fl(0)
                    l += 2
                    if l <= lend:
                        continue
                    break
                if jtot == nmaxit:
                    break
                jtot += 1
                rte = sq(e[l])
                sigma = (d[l + 1] - p) / (two * rte)
                r = fl(math.hypot(sigma, 1.0))
                sigma = p - (rte / (sigma + fl(math.copysign(r, sigma))))
                c, s = fl(1), fl(0)
                gamma = d[m] - sigma
                p = gamma * gamma
                for i in range(m - 1, l - 1, -1):
                    bb = e[i]
                    r = p + bb
                    if i != m - 1:
                        e[i + 1] = s * r
                    oldc = c
                    c = p / r
                    s = bb / r
                    oldgam = gamma
                    alpha = d[i]
                    gamma = c * (alpha - sigma) - s * oldgam
                    d[i + 1] = oldgam + (alpha - gamma)
                    p = (gamma * gamma) / c if c != 0 else oldc * bb
                e[l] = s * p
                d[l] = sigma + gamma
        else:  # QR
            while True:
                m = lend
                for k in range(l, lend, -1):
                    if abs(e[k - 1]) <= eps2 * abs(d[k] * d[k - 1]):
                        m = k
                        break
                if m > lend:
                    e[m - 1] = fl(0)
                p = d[l]
                if m == l:
                    d[l] = p
                    l -= 1
                    if l >= lend:
                        continue
                    break
                if m == l - 1:
                    rte = sq(e[l - 1])
                    rt1, rt2, _, _ = _laev2(d[l], rte, d[l - 1])
                    d[l], d[l - 1], e[l - 1] = rt1, rt2, fl(0)
                    l -= 2
                    if l >= lend:
                        continue
                    break
                if jtot == nmaxit:
                    break
                jtot += 1
                rte = sq(e[l - 1])
                sigma = (d[l - 1] - p) / (two * rte)
                r = fl(math.hypot(sigma, 1.0))
                sigma = p - (rte / (sigma + fl(math.copysign(r, sigma))))
                c, s = fl(1), fl(0)
                gamma = d[m] - sigma
                p = gamma * gamma
                for i in range(m, l):
                    bb = e[i]
                    r = p + bb
                    if i != m:
                        e[i - 1] = s * r
                    oldc = c
                    c = p / r
                    s = bb / r
                    oldgam = gamma
                    alpha = d[i + 1]
                    gamma = c * (alpha - sigma) - s * oldgam
                    d[i] = oldgam + (alpha - gamma)
                    p = (gamma * gamma) / c if c != 0 else oldc * bb
                e[l - 1] = s * p
                d[l] = sigma + gamma
        if jtot >= nmaxit:
            break
    return sorted(d)


def mkl_eigvalsh(w: np.ndarray, a: np.ndarray, uplo: str = "L") -> np.ndarray:
    """NumPy's eigenvalues `w` (..., n) of the symmetric float32 or float64 `a`, as MKL's
    ?syevd without eigenvectors gives them (torch.linalg.eigvalsh of a matrix that does not
    require grad): ?sytd2's tridiagonal form (`_tridiagonal`) and ?sterf, walked where the
    model runs (measured against torch 2.13 on 2,000 small symmetric matrices: printed alike
    1585 -> 1731 of 2000, bits 480 -> 1041)."""
    n = a.shape[-1]
    w = np.array(w, copy=True)
    if n < 2 or n > MAX_N or a.size > MAX_ELEMENTS or a.dtype not in (np.float32, np.float64):
        return w
    if not np.all(np.isfinite(a)):
        return w
    f32 = a.dtype == np.float32
    fl = np.float32 if f32 else float
    eps = float(np.finfo(a.dtype).eps) / 2
    lower = uplo.upper() == "L"
    flat_a = a.reshape((-1, n, n))
    flat_w = w.reshape((-1, n))
    for k in range(flat_a.shape[0]):
        m = flat_a[k]
        tri = np.tril(m) if lower else np.triu(m)
        sym = tri + (np.tril(tri, -1) if lower else np.triu(tri, 1)).T
        d, e, _ = _tridiagonal(sym.astype(a.dtype), lower)
        flat_w[k] = _sterf([fl(x) for x in d], [fl(x) for x in e], fl, eps)
    return w


def mkl_like(w: np.ndarray, v: np.ndarray, a: np.ndarray, uplo: str = "L"):
    """NumPy's eigenvalues `w` and eigenvectors `v` of the symmetric `a`, brought to what MKL's
    ?syevd returns where the model (`mkl_eigh`) runs: each column's sign as MKL's; a column
    the model does not find near +-NumPy's (a repeated eigenvalue, whose eigenvectors any
    basis of its eigenspace can be) and the exact zeros (the signs the rotations give them)
    the model's; float64 eigenvalues the model's (the rounding noise of a zero eigenvalue,
    1e-16, as MKL's more often: 1634 of 2000 small random, integer, block and rank-one
    matrices printed alike against 1543, measured with torch 2.13), and of a (nearly)
    singular float32 matrix both (807 of 1000 eigenvalue sets printed alike against 728)."""
    n = v.shape[-1]
    w, v = np.array(w, copy=True), np.array(v, copy=True)
    if n < 2 or n > MAX_N or v.size > MAX_ELEMENTS:
        return w, v
    flat_a = a.reshape((-1,) + a.shape[-2:])
    flat_v = v.reshape((-1,) + v.shape[-2:])
    flat_w = w.reshape((-1, n))
    for k in range(flat_a.shape[0]):
        got = mkl_eigh(flat_a[k], uplo)
        if got is None:
            continue
        wz, z = got
        z = z.astype(flat_v.dtype)
        if flat_w.dtype == np.float32:
            # float32: a (nearly) singular matrix's eigenvalue noise and eigenvectors are the
            # model's (its float32 walk), the rest NumPy's with MKL's signs
            top = np.abs(flat_w[k]).max()
            if np.abs(flat_w[k]).min() <= 10 * n * np.finfo(np.float32).eps * top:
                flat_w[k], flat_v[k] = wz, z
                continue
        dots = np.sum(z.astype(np.float64) * flat_v[k], axis=0)
        flip = dots < -0.5
        flat_v[k][:, flip] = -flat_v[k][:, flip]
        unclear = np.abs(dots) < 0.9999
        flat_v[k][:, unclear] = z[:, unclear]
        zero = z == 0
        flat_v[k][zero] = z[zero]
        if flat_w.dtype == np.float64:
            flat_w[k] = wz
    return w, v


# --- complex Hermitian matrices (?heevd) ------------------------------------------------------
#
# ?heevd for n <= 25 is ?hetrd (unblocked ?hetd2: complex reflectors whose beta is real, so
# that the tridiagonal form T is real), the real ?steqr of T (the walk above, MKL's rotation
# convention) and ?unmtr: the eigenvector is Q z with z real. An eigenvector is defined up to
# a complex phase; this one fixes it (with the lower triangle Q's first row is e_1, so the
# first row of the eigenvectors is real; with the upper one, the last row).


def _reflector_complex(alpha: complex, x: np.ndarray):
    """?larfg for complex values: (beta real, tau, v) with H^H [alpha; x] = [beta; 0],
    H = I - tau [1; v] [1; v]^H."""
    xnorm = float(np.sqrt(np.sum(np.abs(x) ** 2))) if x.size else 0.0
    ar, ai = alpha.real, alpha.imag
    if xnorm == 0 and ai == 0:
        return ar, 0j, x
    beta = -math.copysign(math.sqrt(ar * ar + ai * ai + xnorm * xnorm), ar)
    tau = complex((beta - ar) / beta, -ai / beta)
    return beta, tau, x * (1 / (alpha - beta))


def _tridiagonal_complex(a: np.ndarray, lower: bool):
    """?hetd2: (d, e, reflectors) with Q^H A Q real tridiagonal (reflectors as in
    `_tridiagonal`, each (first row, tau, v), Q = H(first) H(second) ...)."""
    a = np.array(a, dtype=np.complex128, copy=True)
    n = a.shape[0]
    d, e, refl = [0.0] * n, [0.0] * (n - 1), []
    steps = range(n - 1) if lower else range(n - 2, -1, -1)
    for i in steps:
        if lower:
            beta, tau, x = _reflector_complex(complex(a[i + 1, i]), a[i + 2 :, i])
            v = np.concatenate([np.ones(1, a.dtype), x])
            span = slice(i + 1, n)
        else:
            beta, tau, x = _reflector_complex(complex(a[i, i + 1]), a[:i, i + 1])
            v = np.concatenate([x, np.ones(1, a.dtype)])
            span = slice(0, i + 1)
        e[i] = beta
        if tau != 0:
            blk = a[span, span]
            w = tau * (blk @ v)
            w = w - (0.5 * tau * np.vdot(w, v)) * v
            a[span, span] = blk - np.outer(v, np.conj(w)) - np.outer(w, np.conj(v))
        refl.append((span.start, tau, v))
        d[i if lower else i + 1] = (a[i, i] if lower else a[i + 1, i + 1]).real
    d[n - 1 if lower else 0] = (a[n - 1, n - 1] if lower else a[0, 0]).real
    return d, e, refl


def mkl_vectors_complex(a: np.ndarray, uplo: str = "L") -> np.ndarray | None:
    """The eigenvectors of the Hermitian complex128 matrix `a` along ?heevd's path (n <=
    MAX_N), columns by ascending eigenvalue; None where not modelled."""
    n = a.shape[-1]
    if not 2 <= n <= MAX_N or not np.all(np.isfinite(a)):
        return None
    lower = uplo.upper() == "L"
    tri = np.tril(a) if lower else np.triu(a)
    off = np.tril(tri, -1) if lower else np.triu(tri, 1)
    herm = tri + np.conj(np.swapaxes(off, -1, -2))
    herm[np.diag_indices(n)] = herm.diagonal().real
    d, e, refl = _tridiagonal_complex(herm, lower)
    fi = np.finfo(np.float64)
    parts = _steqr(
        [float(x) for x in d], [float(x) for x in e], float, fi.eps / 2, fi.tiny, imag=True
    )
    q = np.empty((n, n), np.complex128)
    q.real, q.imag = parts[:n], parts[n:]
    for start, tau, v in reversed(refl):
        if tau == 0:  # (?larf: the identity, not applied)
            continue
        rows = slice(start, start + v.size)
        q[rows] -= tau * np.outer(v, np.conj(v) @ q[rows])
    return q


def match_phases(v: np.ndarray, a: np.ndarray, uplo: str = "L") -> np.ndarray:
    """NumPy's eigenvectors `v` (..., n, n) of the Hermitian `a`, each column turned by the
    unit complex number that brings it to MKL's ?heevd's (`mkl_vectors_complex`: equal to
    PyTorch's on 20 random matrices of each size 2 to 25, both triangles); a column the model
    does not tell clearly (a repeated eigenvalue), or a matrix past MAX_N, keeps NumPy's."""
    n = v.shape[-1]
    out = np.array(v, copy=True)
    if n < 1 or v.size > MAX_ELEMENTS:
        return out
    flat_a = a.reshape((-1,) + a.shape[-2:])
    flat_v = out.reshape((-1,) + v.shape[-2:])
    for k in range(flat_a.shape[0]):
        z = mkl_vectors_complex(flat_a[k].astype(np.complex128), uplo) if n > 1 else None
        if z is None:
            continue
        dots = np.sum(np.conj(z) * flat_v[k].astype(np.complex128), axis=0)
        mag = np.abs(dots)
        clear = mag > 0.5
        turn = np.where(clear, np.conj(dots) / np.where(mag > 0, mag, 1), 1)
        flat_v[k] *= turn.astype(flat_v.dtype)
        # the row the reflections leave alone (the first with the lower triangle) is the
        # tridiagonal solver's: real, with the signed zero imaginary parts of its rotations
        row = 0 if uplo.upper() == "L" else n - 1
        flat_v[k][row, clear] = z[row, clear]
    return out
