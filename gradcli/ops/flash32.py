"""float32 `scaled_dot_product_attention` as PyTorch 2.13's fused CPU kernel computes it
(aten/src/ATen/native/cpu/FlashAttentionKernel.cpp, `cpu_flash_attention`, AVX512 build, one
thread), bit for bit, in NumPy: the values of the steps `surface.attention` composes.

For each (batch, head) and block of query rows (32 rows for fewer than 192 queries, 64 below
768, 256 beyond) and one block of keys (512: gradcli computes one block, so the kernel's
rescaling between blocks is not reproduced past 512 keys):

- qk = q_block @ k^T (an MKL sgemm, the same call as `x @ w.t()`: `linalg._matmul_fwd` on the
  block's rows); with is_causal, the keys after each query's position set to -inf;
- s = qk * scale, or qk * scale + mask (one fused multiply-add: the compiler contracts the
  kernel's multiply and add; measured);
- each row: m = max(s); e = exp(s - m), the first 16 * (n // 16) elements by ATen's
  `Vectorized<float>::exp_u20` (a degree-5 polynomial after a reduction by ln 2, fused
  multiply-adds, described in vec512_float.h), the rest by the double `exp` rounded; their sum
  in 16 lanes (each lane adding its elements in order), the lanes folded as a butterfly
  (i with i ^ 8, ^ 4, ^ 2, ^ 1), then the rest added in order;
- dst = e_block @ v (MKL, as `x @ y`), out = dst * (1 / sum).

Measured against PyTorch 2.13 on random inputs (batch 1-4, heads 1-8, 4-64 queries and keys,
head sizes 8-64, with and without masks and is_causal): every output element equal.

The backward (`flash32_backward`, `cpu_flash_attention_backward`) recomputes the weights from the
row's logsumexp the forward saved (max + the C library's logf of the sum) and, for each (batch,
head) in order and each block of query rows (the forward's split), calls sgemm five times:

- attn = scale * q_block @ k^T (+ mask), then exp(attn - lse) by SLEEF's expf (`sleef32.expf`,
  every element: the vector loop takes the tail too), the causal keys set to 0;
- grad_v += attn^T @ grad_out_block; grad_attn = grad_out_block @ v^T;
- grad_attn = attn * (grad_attn - dsum), dsum the row's dot product of grad_out and out in 16
  lanes (the first 16 products, then vector adds, the tail's lanes added to theirs, the lanes
  folded i ^ 8, ^ 4, ^ 2, ^ 1; fewer than 16 products added in order);
- grad_q += scale * grad_attn @ k; grad_k += scale * grad_attn^T @ q_block.

A key/value head shared by a group of query heads (enable_gqa) takes its gradients summed in
the same loop, head after head (the kernel's beta = 1). How sgemm applies alpha and beta
(measured on PyTorch 2.13 with torch.addmm, every element equal): the rounded product times
alpha, rounded, then plus C, rounded -- except that `x @ w.t()` of 2 rows or more with n >= k
columns, more than max(m, 11), not MKL's few-row "quads" kernel (m < 16, k >= 24 m), scales
w by alpha first (rounded) and multiplies; a first operand of one row (`x @ w`), or an inner
size of 1, is scaled first, and with an inner size of 1 the product is fused with C (one
rounding); an output of one row or column (one key, or a head size of 1: grad_k, grad_v) is
MKL's column kernel summing into C (`linalg._gemv_n_from`), the vector scaled first; the
blocked chains past 384 inner (`linalg._k_blocks`) take alpha block by block, each block's
scaled sum added in order (tests/surface/data/attention/record_flash32_sgemm.py calls MKL's
sgemm_ as the kernel does). Not mirrored (a few ulps): a head size of 1 with several heads
(the kernel's gradients are laid out (batch, length, heads, head size): its one-column
outputs are strided, MKL's strided column kernel, measured to be `linalg._gemv_n_strided`'s
order from zero but not from an accumulated C), and one query row with a head size of 1.

On the avx2 family (`cpu.avx2()`: an AMD EPYC without AVX-512, measured there) the same kernel
runs with 8-float vectors: exp_u20 (the same arithmetic lane by lane) on the first 8 * (n // 8)
elements of a row, the sum in 8 lanes folded ^4, ^2, ^1, and the dot products of grad_out and
out likewise; MKL's generic sgemm (`gemm_avx2`) scales by alpha where `_alpha_avx2` says, and
its small kernels split by the alignment of the kernel's buffers (the forward's dst after qk
and the rows' maxima and sums; the gradients laid out (batch, length, heads, size); grad_out
read as a contiguous (batch, length, heads, size) copy). Measured: 58 of 60 random shapes
(batch 1-2, heads 1-3, 1-39 queries, 1-69 keys, head sizes 1-64, causal or not) equal in
every element of the output and the three gradients (the AVX-512 rules: 0 of 60); not
exact: a last block of one query row off a 16-byte boundary (MKL's gemv of an unaligned
row), one key, a head size of 1 with several heads.
"""

from __future__ import annotations

import numpy as np

from ..core import cpu, hooks
from ..core import sleef32 as S
from .linalg import (
    _FMA_MAX_WORK,
    _KC,
    _blocked,
    _chain_blocks,
    _fma32,
    _gemv_n_from,
    _k_blocks,
    _matmul_fwd,
    _plain_blocks,
)

_F = np.float32
_LANES = 16
_LANES_AVX2 = 8
_KV_BLOCK = 512


def _lanes() -> int:
    """`Vectorized<float>`'s lanes: 16 (AVX512 build), 8 on the avx2 family (`cpu.avx2()`)."""
    return _LANES_AVX2 if cpu.avx2() else _LANES


def _bits(v: int) -> np.float32:
    return np.array([v], np.uint32).view(_F)[0]


_LOG2E = _bits(0x3FB8AA3B)
_LN2 = _bits(0x3F317218)
_LO = _bits(0xC2AEAC50)
_HI = _bits(0x42B17218)
_COEF = tuple(_F(c) for c in (0.999999701, 0.499991506, 0.166676521, 0.0418978221, 0.00828929059))


def _fma(a: np.ndarray, b: np.ndarray | np.float32, c: np.ndarray | np.float32) -> np.ndarray:
    """a * b + c rounded once to float32 (float32 a, b, c)."""
    p = a.astype(np.float64) * np.float64(b) if np.ndim(b) == 0 else a.astype(np.float64) * b
    return _fma32(p, np.broadcast_to(np.asarray(c, _F), a.shape))


def exp_u20(x: np.ndarray) -> np.ndarray:
    """ATen's `Vectorized<float>::exp_u20` (AVX512), lane by lane."""
    x = np.asarray(x, _F)
    small = x < _LO
    src = np.where(x < _HI, x, _HI)  # _mm512_min_ps: the second operand unless x < it
    src = np.where(src > _LO, src, _LO).astype(_F)
    fx = np.floor(_fma(src, _LOG2E, _F(0.5))).astype(_F)
    r = _fma(-fx, _LN2, src)
    res = _fma(r, _COEF[4], _COEF[3])
    for c in (_COEF[2], _COEF[1], _COEF[0], _F(1)):
        res = _fma(r, res, c)
    n = (fx - _F(1)).astype(np.int64) + 127
    pow2 = ((n & 0xFFFFFFFF).astype(np.uint32) << np.uint32(23)).view(_F)
    pow2 = np.where(small, _F(0), pow2)
    with np.errstate(over="ignore", invalid="ignore"):
        return (res * pow2 * _F(2)).astype(_F)


def _exp_sum(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """exp of each row of x (rows, n) and its sum, as `_exp_reduce_sum_fusion_kernel`."""
    rows, n = x.shape
    lanes = _lanes()
    m = lanes * (n // lanes)
    e = np.empty_like(x)
    with np.errstate(invalid="ignore", over="ignore"):
        acc = np.zeros((rows, lanes), _F)
        if m:
            e[:, :m] = exp_u20(x[:, :m])
            for j in range(0, m, lanes):
                acc = (acc + e[:, j : j + lanes]).astype(_F)
            width = lanes
            while width > 1:
                width //= 2
                acc = (acc[:, :width] + acc[:, width : 2 * width]).astype(_F)
        total = acc[:, 0].copy()
        if m < n:
            # the scalar loop's exp: the double exp of the float, rounded (measured: not
            # the C library's expf, which differs from it in about 6 results in 10,000)
            e[:, m:] = np.exp(x[:, m:].astype(np.float64)).astype(_F)
            for j in range(m, n):
                total = (total + e[:, j]).astype(_F)
    return e, total


def _q_split(q_len: int) -> int:
    return 256 if q_len >= 768 else 64 if q_len >= 192 else 32


def fits(q_shape: tuple[int, ...], k_shape: tuple[int, ...]) -> bool:
    """Whether `flash32` reproduces the kernel for these shapes (one block of keys, products
    within the exact-chain bound) and is worth its cost."""
    b, h, lq, e = q_shape
    s = k_shape[2]
    return 0 < s <= _KV_BLOCK and b * h * lq * s * e <= _FMA_MAX_WORK and e > 0 and lq > 0


def flash32(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    mask: np.ndarray | None,
    causal: bool,
    scale: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's s (scaled scores, masked), e = exp(s - rowmax), the row sums of e and
    dst = e @ v for float32 q (B, H, L, E), k and v (B, H, S, E) and a float32 mask that
    broadcasts to (B, H, L, S)."""
    b, h, lq, _ = q.shape
    s_len = k.shape[2]
    sc = _F(scale)
    split = _q_split(lq)
    qk = np.empty((b, h, lq, s_len), _F)
    for i in range(b):
        for j in range(h):
            hooks.observer.check_clock()  # (b * h small products: seconds for many heads)
            kt = np.ascontiguousarray(k[i, j]).T
            for lo in range(0, lq, split):
                qk[i, j, lo : lo + split] = _matmul_fwd(
                    np.ascontiguousarray(q[i, j, lo : lo + split]), kt
                )
    if causal:
        qk[..., np.triu(np.ones((lq, s_len), bool), 1)] = -np.inf
    with np.errstate(invalid="ignore", over="ignore"):
        if mask is None:
            s = (qk * sc).astype(_F)
        else:
            # qk * scale + mask, contracted by the compiler into one fused multiply-add
            s = _fma32(
                qk.astype(np.float64) * np.float64(sc), np.broadcast_to(mask, qk.shape).astype(_F)
            )
        top = s.max(axis=-1, keepdims=True)
        dead = np.isneginf(top)
        shifted = (s - np.where(dead, _F(0), top)).astype(_F)
    e, total = _exp_sum(shifted.reshape(-1, s_len))
    e = e.reshape(s.shape)
    total = total.reshape(*s.shape[:-1], 1)
    dead_rows = np.broadcast_to(dead, s.shape)
    e[dead_rows] = 0
    total[dead] = 0
    dst = np.empty((b, h, lq, v.shape[-1]), _F)
    # (avx2: MKL's small kernel peels the rows of its output, the kernel's buffer, by their
    # alignment: the buffer holds qk (q_split x kv_split floats), the rows' maxima and sums,
    # then dst; q_split and kv_split clamped to the lengths)
    dst_at = min(split, lq) * min(_KV_BLOCK, s_len) + 2 * min(split, lq) if cpu.mkl_avx2() else None
    for i in range(b):
        for j in range(h):
            hooks.observer.check_clock()
            vv = np.ascontiguousarray(v[i, j])
            for lo in range(0, lq, split):
                eb = np.ascontiguousarray(e[i, j, lo : lo + split])
                r = None if dst_at is None else _gemm_avx2().mm(eb, vv, out_at=dst_at)
                dst[i, j, lo : lo + split] = _matmul_fwd(eb, vv) if r is None else r
    return s, e, total, dst


# --- backward ------------------------------------------------------------------------------


_LOGF_CALLS = 1 << 16  # rows whose logf the C library computes (about 1 us a call)


def logsumexp(s: np.ndarray, total: np.ndarray) -> np.ndarray:
    """The row's max + logf(sum) the forward saves (a row with every key masked: 0), from
    `flash32`'s s and total; logf is the C library's (called in pieces: `sleef32.libm`) for up
    to `_LOGF_CALLS` rows, past them the double log rounded (which differs from it in a last
    bit for a few inputs in 10,000)."""
    top = s.max(axis=-1, keepdims=True) if s.shape[-1] else np.zeros((*s.shape[:-1], 1), _F)
    top = np.where(np.isneginf(top), _F(0), top).astype(_F)
    tot = np.where(total == 0, _F(1), total).astype(_F).reshape(-1)
    logs = np.empty_like(tot)
    step = S.LIBM_CALLS if tot.size <= _LOGF_CALLS else tot.size
    for lo in range(0, tot.size, step):
        logs[lo : lo + step] = S.libm("logf", tot[lo : lo + step], np.log)
    with np.errstate(all="ignore"):
        return (top + logs.reshape(top.shape)).astype(_F)


def _times(x: np.ndarray, y: np.ndarray, sc: np.float32) -> np.ndarray:
    """sgemm's alpha * x @ y, C = 0, where alpha is applied to the product: to each block's
    sum of MKL's blocked chains (more than 384 inner: `linalg._k_blocks`), added in order."""
    if x.shape[1] > _KC and _blocked(x, y):
        acc = None
        for part in _chain_blocks(x, y, _k_blocks(x.shape[1], _plain_blocks(x, y))):
            part = (part * sc).astype(_F)
            acc = part if acc is None else (acc + part).astype(_F)
        return acc
    return (_matmul_fwd(x, y) * sc).astype(_F)


def _gemm_avx2():
    from . import gemm_avx2

    return gemm_avx2


def _alpha_avx2(
    x: np.ndarray,
    y: np.ndarray,
    sc: np.float32,
    c: np.ndarray | None,
    at: tuple[int, int | None] = (0, None),
) -> np.ndarray:
    """sgemm's C + alpha * x @ y (C = None: beta = 0) on the avx2 family (MKL's generic kernels,
    `gemm_avx2`), as measured there with MKL's sgemm_ called as the kernel calls it (400
    random shapes, 1-39 query rows, 1-69 keys, head sizes 1-64, the four calls: every element
    equal): an inner size of 1, x scaled first (each product rounded, then C added); the
    chains (4 rows or more, 12 columns or more) and a single output column of x @ y
    (y row-major), y scaled first; the other products of a row-major y, x scaled first; of
    y = w^T (the dot-product kernels), the product scaled after, rounded, then C added.
    `at`: where the output lies in the kernel's buffer (floats from an aligned start, floats
    between rows), which the small kernel's peeling follows (`gemm_avx2._small`)."""
    G = _gemm_avx2()
    (m, k), n = x.shape, y.shape[1]
    out_at, out_ld = at
    with np.errstate(all="ignore"):
        if k == 1:
            return G.mm((x * sc).astype(_F), y, c, out_at=out_at, out_ld=out_ld)
        if m >= 4 and n >= 12:
            return G.mm(x, (y * sc).astype(_F), c)
        if G._layout(x, y) == "nn" and not (n == 1 and x.flags.c_contiguous):  # (not gemv)
            if n == 1:
                return G.mm(x, (y * sc).astype(_F), c, out_at=out_at, out_ld=out_ld)
            return G.mm((x * sc).astype(_F), y, c, out_at=out_at, out_ld=out_ld)
        p = (G.mm(x, y) * sc).astype(_F)
        return p if c is None else (p + c).astype(_F)


def _scaled_nt(x: np.ndarray, w: np.ndarray, sc: np.float32, at=(0, None)) -> np.ndarray:
    """sgemm's alpha * x @ w^T (x (m, k), w (n, k) row-major), C = 0 (see the docstring)."""
    if cpu.mkl_avx2():
        return _alpha_avx2(x, w.T, sc, None, at)
    m, k = x.shape
    n = w.shape[0]
    with np.errstate(all="ignore"):
        if k == 1 and n >= 2 and m >= 2:
            return _matmul_fwd((x * sc).astype(_F), w.T)
        if m >= 2 and n >= k and n > max(m, 11) and not (m < 16 and k >= 24 * m):
            return _matmul_fwd(x, (w * sc).astype(_F).T)
        return _times(x, w.T, sc)


def _scaled_nn(a: np.ndarray, b: np.ndarray, sc: np.float32, at=(0, None)) -> np.ndarray:
    """sgemm's alpha * a @ b (both row-major), C = 0."""
    if cpu.mkl_avx2():
        return _alpha_avx2(a, b, sc, None, at)
    with np.errstate(all="ignore"):
        if a.shape[0] == 1 or (a.shape[1] == 1 and b.shape[1] >= 2):
            return _matmul_fwd((a * sc).astype(_F), b)
        return _times(a, b, sc)


def _add_tn(
    c: np.ndarray, a: np.ndarray, b: np.ndarray, sc: np.float32, at=(0, None)
) -> np.ndarray:
    """sgemm's C + alpha * a^T @ b (a (k, m), b (k, n) row-major; beta = 1)."""
    if cpu.mkl_avx2():
        return _alpha_avx2(a.T, b, sc, c, at)
    with np.errstate(all="ignore"):
        if a.shape[0] == 1:
            p = (a[0] * sc).astype(_F).astype(np.float64)[:, None] * b[0].astype(np.float64)
            return _fma32(p, c)
        if a.shape[1] == 1:
            return _gemv_n_from((a[:, 0] * sc).astype(_F), b, c[0])[None, :]
        if b.shape[1] == 1:
            return _gemv_n_from((b[:, 0] * sc).astype(_F), a, c[:, 0])[:, None]
        return (c + _times(a.T, b, sc)).astype(_F)


def _dots(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Each row's sum of a * b as ATen's vectorised map2_reduce_all (see the docstring)."""
    rows, n = a.shape
    lanes = _lanes()
    p = (a * b).astype(_F)
    if n < lanes:
        acc = p[:, 0].copy()
        for j in range(1, n):
            acc = (acc + p[:, j]).astype(_F)
        return acc
    acc = p[:, :lanes].copy()
    m = lanes * (n // lanes)
    for j in range(lanes, m, lanes):
        acc = (acc + p[:, j : j + lanes]).astype(_F)
    if m < n:
        acc[:, : n - m] = (acc[:, : n - m] + p[:, m:]).astype(_F)
    width = lanes
    while width > 1:
        width //= 2
        acc = (acc[:, :width] + acc[:, width : 2 * width]).astype(_F)
    return acc[:, 0]


_MAX_BLOCKS = 4096  # (batch, head, query block)s the backward loops over (~0.2 ms each)


def backward_fits(q_shape: tuple[int, ...]) -> bool:
    """Whether `flash32_backward` is worth its loop for q of this shape (a Python iteration per
    block of query rows of every head: many tiny heads take the composed nodes' few passes)."""
    b, h, lq, _ = q_shape
    split = _q_split(lq)
    return b * h * -(-lq // split) <= _MAX_BLOCKS


def flash32_backward(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    mask: np.ndarray | None,
    causal: bool,
    scale: float,
    out: np.ndarray,
    lse: np.ndarray,
    g: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's gradients of q (B, H, L, E), k and v (B, Hk, S, E: Hk divides H, a group
    of H // Hk query heads to each) for the upstream gradient g of out (B, H, L, E), from the
    forward's out and logsumexp (B, H, L, 1), all float32."""
    # (contiguous: MKL's order does not depend on the rows' distance, NumPy's routes do)
    q, k, v, out, g = (np.ascontiguousarray(a, _F) for a in (q, k, v, out, g))
    b, h, lq, e_len = q.shape
    hk, s_len = k.shape[1], k.shape[2]
    group = h // hk
    sc = _F(scale)
    split = _q_split(lq)
    full = None if mask is None else np.broadcast_to(mask, (b, h, lq, s_len))
    upper = np.triu(np.ones((lq, s_len), bool), 1) if causal else None
    dq = np.zeros(q.shape, _F)
    dk = np.zeros(k.shape, _F)
    dv = np.zeros(v.shape, _F)
    with np.errstate(all="ignore"):
        for i in range(b):
            for j in range(h):
                kk, vv = k[i, j // group], v[i, j // group]
                gk, gv = dk[i, j // group], dv[i, j // group]
                for lo in range(0, lq, split):
                    hooks.observer.check_clock()
                    hi = min(lq, lo + split)
                    qb, gb = q[i, j, lo:hi], g[i, j, lo:hi]
                    dsum = _dots(gb, out[i, j, lo:hi])
                    attn = _scaled_nt(qb, kk, sc)
                    if full is not None:
                        attn = (attn + full[i, j, lo:hi]).astype(_F)
                    attn = S.expf((attn - lse[i, j, lo:hi]).astype(_F))
                    if upper is not None:
                        attn[upper[lo:hi]] = 0
                    # (where the outputs lie: the gradients (batch, length, heads, size))
                    kv_at = ((i * s_len * hk + j // group) * e_len, hk * e_len)
                    gv[...] = _add_tn(gv, attn, gb, _F(1), kv_at)
                    ga = None
                    if cpu.mkl_avx2():  # (the buffer's second block: qk's size past its start;
                        # grad_out made contiguous as (batch, length, heads, size))
                        ga = _gemm_avx2().mm(
                            gb,
                            vv.T,
                            out_at=min(split, lq) * s_len,
                            x_at=((i * lq + lo) * h + j) * e_len,
                            x_ld=h * e_len,
                        )
                    ga = _matmul_fwd(gb, vv.T) if ga is None else ga
                    ga = (attn * (ga - dsum[:, None]).astype(_F)).astype(_F)
                    q_at = (((i * lq + lo) * h + j) * e_len, h * e_len)
                    dq[i, j, lo:hi] = _scaled_nn(ga, kk, sc, q_at)
                    gk[...] = _add_tn(gk, ga, qb, sc, kv_at)
    return dq, dk, dv
