"""float32 activations as PyTorch's CPU kernels compute them, bit for bit: sigmoid, silu, gelu
(both forms), elu (selu, celu), softplus, logsigmoid, mish, forward and backward.

ATen (aten/src/ATen/native/cpu/Activation.cpp, UnaryOpsKernel.cpp, BinaryOpsKernel.cpp) runs
each through `cpu_kernel_vec`: a contiguous loop's whole steps of 32 elements by a vector
function of `Vectorized<float>` (SLEEF's expf / log1pf / tanhf on 16 lanes, ATen's own erf),
the last n % 32 by a scalar function calling the C library (`core.sleef32.split_loop`); on
AVX2 (`cpu.avx2()`) steps of 16 on 8 lanes, the same vector functions (`sleef32.vec_step`). Each
kernel here is that pair in float32 NumPy arithmetic, each operation rounded where the C++
rounds it.
"""

from __future__ import annotations

import numpy as np

from ..core import sleef32 as S
from ..core.half import narrowed

_F = np.float32
_ONE = _F(1)


# --- sigmoid -------------------------------------------------------------------------------


def _sigmoid_vec(x):
    return _ONE / (S.expf(_F(0) - x) + _ONE)


def _sigmoid_scalar(x):
    return _ONE / (_ONE + S.glibc_expf(-x))


def sigmoid(x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return S.split_loop(_sigmoid_vec, _sigmoid_scalar, x)


def glu_jvp(out: np.ndarray, b: np.ndarray, da: np.ndarray, db: np.ndarray) -> np.ndarray:
    """ATen's glu_jvp kernel, da * s + out * (db - s * db) with s = sigmoid(b), as its build
    rounds it (measured): both loops fuse db - s * db into fma(-s, db, db); the vector loop
    then computes fma(out, that, da * s), the scalar one fma(da, s, out * that)."""

    def vec(o, bb, a, d):
        s = _sigmoid_vec(bb)
        return _fma(o, _fma(-s, d, d), a * s)

    def scalar(o, bb, a, d):
        s = _sigmoid_scalar(bb)
        return _fma(a, s, o * _fma(-s, d, d))

    with np.errstate(all="ignore"):
        return S.split_loop(vec, scalar, out, b, da, db)


def sigmoid_backward(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """`g * (1 - y) * y` (ATen's sigmoid_backward, both loops)."""
    with np.errstate(all="ignore"):
        return (g * (_ONE - y)) * y


def _glibc(name, f64):
    return lambda x: S.libm(name, x, f64)


_expf_c = S.glibc_expf
_erff_c = _glibc("erff", np.vectorize(__import__("math").erf, otypes=[np.float64]))
_tanhf_c = _glibc("tanhf", np.tanh)
_log1pf_c = _glibc("log1pf", np.log1p)
_expm1f_c = _glibc("expm1f", np.expm1)
_fma = S._fma


# --- silu: x / (1 + exp(-x)) ----------------------------------------------------------------


def silu(x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return S.split_loop(
            lambda a: a / (S.expf(-a) + _ONE), lambda a: a / (_ONE + _expf_c(-a)), x
        )


def _silu_bwd(exp):
    def k(g, x):
        s = _ONE / (_ONE + exp(-x))
        return (g * s) * _fma(x, _ONE - s, _ONE)

    return k


def silu_backward(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    """dy * s * (1 + x * (1 - s)), s = sigmoid(x) recomputed (ATen's silu_backward)."""
    with np.errstate(all="ignore"):
        return S.split_loop(_silu_bwd(S.expf), _silu_bwd(_expf_c), g, x)


# --- gelu ------------------------------------------------------------------------------------

_SQRT1_2 = _F(0.70710678118654752440)
_GELU_BETA_ERF = _F(1.12837916709551257390 * 0.70710678118654752440 * 0.5)
_GELU_BETA_TANH = _F(1.41421356237309504880 * 1.12837916709551257390 * 0.5)
_KAPPA = _F(0.044715)
_HALF = _F(0.5)


def _gelu_fwd(erf):
    return lambda x: (x * _HALF) * (_ONE + erf(x * _SQRT1_2))


def _gelu_tanh_fwd(tanh):
    def k(x):
        inner = _GELU_BETA_TANH * _fma(_KAPPA, (x * x) * x, x)
        return (_HALF * x) * (_ONE + tanh(inner))

    return k


def gelu(x: np.ndarray, approximate: str = "none") -> np.ndarray:
    with np.errstate(all="ignore"):
        if approximate == "tanh":
            return S.split_loop(_gelu_tanh_fwd(S.tanhf), _gelu_tanh_fwd(_tanhf_c), x)
        return S.split_loop(_gelu_fwd(S.erf_vec), _gelu_fwd(_erff_c), x)


def _gelu_bwd(erf, exp):
    def k(g, x):
        cdf = _HALF * (_ONE + erf(x * _SQRT1_2))
        pdf = _GELU_BETA_ERF * exp((x * x) * _F(-0.5))
        return g * _fma(x, pdf, cdf)

    return k


def _gelu_tanh_bwd(tanh):
    def k(g, x):
        x_sq = x * x
        inner = _GELU_BETA_TANH * _fma(_KAPPA, x_sq * x, x)
        t = tanh(inner)
        left = _HALF * x
        left_d = _HALF * (_ONE + t)
        tanh_d = _fma(-t, t, _ONE)
        inner_d = _GELU_BETA_TANH * _fma(_F(3) * _KAPPA, x_sq, _ONE)
        return g * (left_d + (left * tanh_d) * inner_d)  # 0.5 * (1 + t): its fma is exact

    return k


def gelu_backward(g: np.ndarray, x: np.ndarray, approximate: str = "none") -> np.ndarray:
    with np.errstate(all="ignore"):
        if approximate == "tanh":
            return S.split_loop(_gelu_tanh_bwd(S.tanhf), _gelu_tanh_bwd(_tanhf_c), g, x)
        return S.split_loop(_gelu_bwd(S.erf_vec, S.expf), _gelu_bwd(_erff_c, _expf_c), g, x)


# --- elu (selu, celu) --------------------------------------------------------------------------


def _elu_coefs(alpha, scale, input_scale):
    return _F(alpha) * _F(scale), _F(scale), _F(input_scale)


def elu(x: np.ndarray, alpha=1.0, scale=1.0, input_scale=1.0) -> np.ndarray:
    neg, pos, ipt = _elu_coefs(alpha, scale, input_scale)

    def k(expm1):
        return lambda a: np.where(a > 0, a * pos, expm1(a * ipt) * neg)

    with np.errstate(all="ignore"):
        return S.split_loop(k(S.expm1f), k(_expm1f_c), x)


def elu_backward(g: np.ndarray, x: np.ndarray, alpha=1.0, scale=1.0, input_scale=1.0):
    """From the input (is_result false): g * ipt * neg * exp(x * ipt) where x <= 0."""
    neg, pos, ipt = _elu_coefs(alpha, scale, input_scale)

    def vec(a, b):  # the vector loop: x > 0 picks g * scale, so NaN gives NaN
        return np.where(b > 0, a * pos, ((a * ipt) * neg) * S.expf(b * ipt))

    def scalar(a, b):  # the scalar loop: x <= 0 picks the exponential, so NaN takes g * scale
        return np.where(b <= 0, ((a * ipt) * neg) * _expf_c(b * ipt), a * pos)

    with np.errstate(all="ignore"):
        return S.split_loop(vec, scalar, g, x)


# --- softplus -----------------------------------------------------------------------------------


def softplus(x: np.ndarray, beta=1.0, threshold=20.0) -> np.ndarray:
    b, th = _F(beta), _F(threshold)

    def k(exp, log1p):
        return lambda a: np.where(a * b > th, a, log1p(exp(a * b)) / b)

    with np.errstate(all="ignore"):
        return S.split_loop(k(S.expf, S.log1pf), k(_expf_c, _log1pf_c), x)


def softplus_backward(g: np.ndarray, x: np.ndarray, beta=1.0, threshold=20.0):
    b, th = _F(beta), _F(threshold)

    def k(exp):
        def f(a, v):
            z = exp(v * b)
            return np.where(v * b > th, a, (a * z) / (z + _ONE))

        return f

    with np.errstate(all="ignore"):
        return S.split_loop(k(S.expf), k(_expf_c), g, x)


# --- logsigmoid (every element through the vector code: its loop loads a partial vector) ----


def logsigmoid_buffer(x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return S.expf(-np.abs(x))


def logsigmoid(x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return np.minimum(x, _F(0)) - S.log1pf(logsigmoid_buffer(x))


def logsigmoid_backward(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    """(max_deriv - sign * (buf / (1 + buf))) * g, max_deriv 1 and sign 1 where x < 0,
    else 0 and -1. A float16/bfloat16 kernel (`vecloop.REDUCED`) reads the buffer its forward
    stored in that dtype."""

    def k(g, x):
        buf = narrowed(logsigmoid_buffer(x))
        neg = x < 0
        q = buf / (_ONE + buf)
        return np.where(neg, _ONE - q, _F(0) + q) * g

    with np.errstate(all="ignore"):
        return S.split_loop(k, k, g, x)


# --- mish: x * tanh(log1p(exp(x))) ---------------------------------------------------------------


def mish(x: np.ndarray) -> np.ndarray:
    def k(exp, log1p, tanh):
        return lambda a: a * tanh(log1p(exp(a)))

    with np.errstate(all="ignore"):
        return S.split_loop(k(S.expf, S.log1pf, S.tanhf), k(_expf_c, _log1pf_c, _tanhf_c), x)


def mish_backward(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    def k(exp, log1p, tanh):
        def f(dy, a):
            s = _ONE / (_ONE + exp(-a))
            t = tanh(log1p(exp(a)))
            return dy * _fma(a * s, _fma(-t, t, _ONE), t)

        return f

    with np.errstate(all="ignore"):
        return S.split_loop(k(S.expf, S.log1pf, S.tanhf), k(_expf_c, _log1pf_c, _tanhf_c), g, x)
