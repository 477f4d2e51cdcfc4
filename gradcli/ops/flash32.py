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
"""

from __future__ import annotations

import numpy as np

from .linalg import _FMA_MAX_WORK, _fma32, _matmul_fwd

_F = np.float32
_LANES = 16
_KV_BLOCK = 512


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
    m = _LANES * (n // _LANES)
    e = np.empty_like(x)
    with np.errstate(invalid="ignore", over="ignore"):
        acc = np.zeros((rows, _LANES), _F)
        if m:
            e[:, :m] = exp_u20(x[:, :m])
            for j in range(0, m, _LANES):
                acc = (acc + e[:, j : j + _LANES]).astype(_F)
            width = _LANES
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
    for i in range(b):
        for j in range(h):
            vv = np.ascontiguousarray(v[i, j])
            for lo in range(0, lq, split):
                dst[i, j, lo : lo + split] = _matmul_fwd(
                    np.ascontiguousarray(e[i, j, lo : lo + split]), vv
                )
    return s, e, total, dst
