"""float32 GELU (the exact, erf form) as PyTorch computes it on an AVX512 CPU (and on an AVX2
one: `gelu_fwd_avx2`): through oneDNN's eltwise primitive (ATen's gelu and gelu_backward
hand a contiguous float32 tensor of two elements or more to oneDNN), whose JIT kernel
(oneDNN 3.x, jit_uni_eltwise_injector) computes, on every element alike:

- forward: erf(x / sqrt 2) by a piecewise minimax polynomial of degree 5 in |x|, one of 24
  picked from the bits of |x| (two mantissa bits and the exponent), Horner's steps fused;
  the sign of x put back, then (x * (1 + erf)) * 0.5;
- backward: the Abramowitz-Stegun form of erf with oneDNN's own exp (floor(x log2 e + 1/2),
  a degree-5 polynomial, the power of two in two halves), then 0.5 + R/sqrt(pi) * exp(-R*R)
  + 0.5 * erf(R) with R = x / sqrt 2, times the upstream gradient.

The polynomial coefficients are oneDNN's (bit patterns, public, Apache-2.0 licensed data);
the steps are float32 NumPy arithmetic with exact fused multiply-adds (`powf32.fma32`).
"""

from __future__ import annotations

import numpy as np

from .powf32 import fma32
from .sleef32 import in_pieces

_F = np.float32
_U = np.uint32


def _f(bits: int) -> np.float32:
    return np.array([bits], _U).view(_F)[0]


def _fma(a, b, c):
    a, b, c = np.broadcast_arrays(np.asarray(a, _F), np.asarray(b, _F), np.asarray(c, _F))
    return fma32(a, b, c)


# the coefficients of the 25 polynomials, degree 0 to 5 (oneDNN's gelu_erf minimax table)
_MINIMAX = (
    np.array(
        [
            # degree 0
            0xA6F2CB94,
            0x32827792,
            0x3381CC0C,
            0x34523D4A,
            0x351AC44D,
            0x35F36D88,
            0x36EE8229,
            0x37B8A3BB,
            0x3867A213,
            0x3940033B,
            0x3A2A5A1D,
            0x3AE35863,
            0x3B7828F2,
            0x3C08B14B,
            0x3C515ED3,
            0xBB503236,
            0xBD8D8E5E,
            0xBE8ABCD9,
            0xBF0C19A2,
            0xBECCB328,
            0x3E176CED,
            0x3F470D99,
            0x3F7ABB28,
            0x3F800000,
            0x00000000,
            # degree 1
            0x3F4C422A,
            0x3F4C421F,
            0x3F4C4207,
            0x3F4C41CB,
            0x3F4C413B,
            0x3F4C3FAD,
            0x3F4C3A2F,
            0x3F4C2D40,
            0x3F4C146A,
            0x3F4BC341,
            0x3F4AD08C,
            0x3F48F8CF,
            0x3F45FAC7,
            0x3F404E07,
            0x3F3B980F,
            0x3F48DFF3,
            0x3F78B21B,
            0x3FBB0704,
            0x40019C32,
            0x3FE536D6,
            0x3F81331E,
            0x3E6C8684,
            0x3C98F936,
            0x00000000,
            0x3F800000,
            # degree 2
            0xB62173F4,
            0x3735E4CF,
            0x37F2FF89,
            0x388C23BE,
            0x3917535C,
            0x39AB2AB0,
            0x3A60FADB,
            0x3AF9B960,
            0x3B6E5491,
            0x3C0A4EC5,
            0x3CA5AA8C,
            0x3D2138D9,
            0x3D8737D4,
            0x3DDFB660,
            0x3E0F27AB,
            0x3D94004B,
            0xBE0EFDEB,
            0xBF1D96C3,
            0xBF89DB58,
            0xBF6D9897,
            0xBEF69FB8,
            0xBDC4F8A8,
            0xBBDE6422,
            0x00000000,
            0x00000000,
            # degree 3
            0xBE081A19,
            0xBE084570,
            0xBE08639B,
            0xBE089837,
            0xBE08F409,
            0xBE09AB95,
            0xBE0B66D0,
            0xBE0E400A,
            0xBE124DF8,
            0xBE1BDE02,
            0xBE2F19C9,
            0xBE4931BF,
            0xBE685FBC,
            0xBE89C95F,
            0xBE96CBCA,
            0xBE8044AA,
            0xBE0550F2,
            0x3DCFD6A1,
            0x3E94C826,
            0x3E79345F,
            0x3DECEC91,
            0x3CA46568,
            0x3AA1E00A,
            0x00000000,
            0x00000000,
            # degree 4
            0xBA3D61DB,
            0x39F097A3,
            0x3A5845DC,
            0x3AB1FA35,
            0x3B0CEFB8,
            0x3B653AB6,
            0x3BCAE527,
            0x3C221712,
            0x3C6C5840,
            0x3CC0A703,
            0x3D1DCC19,
            0x3D63656D,
            0x3D955907,
            0x3DBF9910,
            0x3DD53F69,
            0x3DB7DCEF,
            0x3D639EBE,
            0xBA6EDE48,
            0xBD22BE69,
            0xBD041CF1,
            0xBC64F5AB,
            0xBB097A32,
            0xB8EBF380,
            0x00000000,
            0x00000000,
            # degree 5
            0x3CB7D80C,
            0x3C9B6050,
            0x3C978D11,
            0x3C92E850,
            0x3C8D058B,
            0x3C848454,
            0x3C6CD623,
            0x3C4C824B,
            0x3C2A7935,
            0x3BE0B390,
            0x3B0651AC,
            0xBB232F53,
            0xBBD42FA0,
            0xBC2C5366,
            0xBC492C9E,
            0xBC2A7AA6,
            0xBBD55D04,
            0xBA823A76,
            0x3B102AA8,
            0x3AE25A7E,
            0x3A31F792,
            0x38B84375,
            0x3689BB5A,
            0x00000000,
            0x00000000,
        ],
        _U,
    )
    .view(_F)
    .reshape(6, 25)
)

_IDX_BIAS = np.int32(-0x3DE00001)  # 0xc21fffff as a signed 32-bit addend
_RBOUND = _f(0x40B15CEE)


@in_pieces
def gelu_fwd(x: np.ndarray) -> np.ndarray:
    """oneDNN's gelu_erf forward (AVX512 minimax form) of a float32 array."""
    x = np.asarray(x, _F)
    with np.errstate(all="ignore"):
        ax = np.abs(x)
        idx = (ax.view(np.int32) + _IDX_BIAS) >> 21  # int32 arithmetic, wrapping as vpaddd
        idx = np.clip(idx, 1, 24)
        idx = np.where(ax > _RBOUND, 23, idx)
        pol = _MINIMAX[5][idx]
        for d in range(4, -1, -1):
            pol = _fma(pol, ax, _MINIMAX[d][idx])
        pol = (pol.view(_U) ^ (x.view(_U) & _U(0x80000000))).view(_F)
        return ((x * (pol + _F(1))) * _F(0.5)).astype(_F)


_LN_FLT_MIN, _LN_FLT_MAX = _f(0xC2AEAC50), _f(0x42B17218)
_LOG2E, _LN2 = _f(0x3FB8AA3B), _f(0x3F317218)
_EXP_POL = [_f(b) for b in (0x3F7FFFFB, 0x3EFFFEE3, 0x3E2AAD40, 0x3D2B9D0D, 0x3C07CFCE)]


@in_pieces
def exp_fwd(x: np.ndarray) -> np.ndarray:
    """oneDNN's JIT exp: n = floor(x log2 e + 0.5), r = x - n ln2 (fused), a degree-5
    polynomial in r, times 2**(n - 1) and 2; 0 below log(FLT_MIN)."""
    with np.errstate(all="ignore"):
        under = x < _LN_FLT_MIN
        x = np.maximum(np.minimum(x, _LN_FLT_MAX), _LN_FLT_MIN)
        fx = x * _LOG2E + _F(0.5)
        n = np.floor(fx)
        r = _fma(-n, _LN2, x)
        e = (n - _F(1)).astype(np.int32) + 127
        p2 = np.where(under, 0, e << 23).astype(np.int32).view(_F)
        p = np.full(x.shape, _EXP_POL[4], _F)
        for c in _EXP_POL[3::-1]:
            p = _fma(p, r, c)
        p = _fma(p, r, _F(1))
        return ((p * p2) * _F(2)).astype(_F)


_SQRT1_2, _RSQRT_PI = _f(0x3F3504F3), _f(0x3F106EBA)
_AS_P = _f(0x3EA7BA05)
_AS_POL = [_f(b) for b in (0x3E827906, 0xBE91A98E, 0x3FB5F0E3, 0xBFBA00E3, 0x3F87DC22)]


@in_pieces
def gelu_fwd_avx2(x: np.ndarray) -> np.ndarray:
    """oneDNN's gelu_erf forward on an AVX2 processor (no AVX-512: the minimax form needs its
    permutes, so the JIT kernel takes the Abramowitz-Stegun form, as the backward does): with
    r = x / sqrt 2 and t = 1 / (p |r| + 1) (fused), erf = 1 - t pol(t) exp(-r*r) (fused, the
    sign of x put back), then S + S erf (fused) with S = x / 2. Measured on AMD EPYC (Zen 3)
    against PyTorch 2.13: bit for bit on 10**6 normal(0, 3) inputs and the specials (+-0,
    +-inf, NaN, subnormals, +-100), where the AVX512 form differs on about 68% of inputs."""
    x = np.asarray(x, _F)
    with np.errstate(all="ignore"):
        r = x * _SQRT1_2
        t = _F(1) / _fma(_AS_P, np.abs(r), _F(1))
        u = -exp_fwd(-(r * r)) * t
        pol = np.full(x.shape, _AS_POL[4], _F)
        for c in _AS_POL[3::-1]:
            pol = _fma(pol, t, c)
        erf = _fma(u, pol, _F(1))
        erf = (erf.view(_U) ^ (x.view(_U) & _U(0x80000000))).view(_F)
        half = x * _F(0.5)
        return _fma(erf, half, half).astype(_F)


@in_pieces
def gelu_bwd(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    """oneDNN's gelu_erf backward: the derivative at x (Abramowitz-Stegun erf, oneDNN's exp)
    times the upstream gradient."""
    x = np.asarray(x, _F)
    with np.errstate(all="ignore"):
        r = x * _SQRT1_2
        q = exp_fwd(-(r * r))
        t = (r * _RSQRT_PI) * q
        w = _F(1) / _fma(_AS_P, np.abs(r), _F(1))
        qw = -q * w
        pol = np.full(x.shape, _AS_POL[4], _F)
        for c in _AS_POL[3::-1]:
            pol = _fma(pol, w, c)
        erf = _fma(qw, pol, _F(1))
        erf = (erf.view(_U) ^ (r.view(_U) & _U(0x80000000))).view(_F)
        res = _fma(erf, _F(0.5), t + _F(0.5))
        return (res * np.asarray(g, _F)).astype(_F)
