"""The reparameterized gradients of gamma-family draws, as ATen's CPU kernels compute them:
`torch._standard_gamma_grad(alpha, x)` (d x / d alpha for a draw x of Gamma(alpha, 1): a
Taylor series for small x, Rice's saddle-point expansion for large alpha, a bivariate rational
approximation otherwise) and `torch._dirichlet_grad(x, alpha, total)` (the same for a Beta /
Dirichlet coordinate, scaled by 1 / (1 - x)).

Both run one element at a time in double (`accscalar_t`), the Dirichlet one in part in the
tensor's own dtype (ATen's small-x series work in `scalar_t`): each step here is written with
NumPy scalars of that type, so that float32 rounds where ATen's float code does. The values are
functions of their inputs only (no drawing): the draws themselves come from
`surface.sampling`. Callers size the work (`MAX_VALUES`) before calling."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

MAX_VALUES = 200_000  # elements one call computes (about 1 s, one Python step each)

_PSI_10 = 2.25175258906672110764
# digamma's asymptotic series in 1/x^2 (Cephes' coefficients, Horner's order; shared with
# the distributions' float64 digamma)
PSI_ASYMPTOTIC = (
    8.33333333333333333333e-2,
    -2.10927960927960927961e-2,
    7.57575757575757575758e-3,
    -4.16666666666666666667e-3,
    3.96825396825396825397e-3,
    -8.33333333333333333333e-3,
    8.33333333333333333333e-2,
)


_LIBM: dict[str, Any] = {}


def _libm_float(name: str, nargs: int) -> Any:
    """The C library's float function `name` (logf, powf: what ATen's float code calls; they
    are not always the correctly rounded value), through ctypes; None where none loads."""
    if name not in _LIBM:
        try:
            import ctypes
            import ctypes.util

            libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
            fn = getattr(libm, name)
            fn.restype = ctypes.c_float
            fn.argtypes = [ctypes.c_float] * nargs
            _LIBM[name] = fn
        except (OSError, AttributeError):
            _LIBM[name] = None
    return _LIBM[name]


def _log_in(x: np.floating) -> np.floating:
    """std::log in x's type: logf for a float32."""
    t = type(x)
    if t is np.float32:
        fn = _libm_float("logf", 1)
        if fn is not None:
            return t(fn(float(x)))
    return t(math.log(float(x))) if x > 0 else t(np.log(np.float64(x)))


def _digamma_one(x: np.floating) -> float:
    """Distributions.h's digamma_one<scalar_t, double>: x keeps its type (float32 steps for a
    float), the sum is a double; the result is rounded back to x's type (a Python float here)."""
    t = type(x)
    if x == 0:
        return math.inf
    extra = 0.0
    if x < 0:
        if x == t(math.floor(x)):
            return math.inf
        pi = t(math.pi)
        extra = float(-pi / t(math.tan(float(pi * x))))
        x = t(1) - x
    result = 0.0
    while x < 10:
        result -= float(t(1) / x)
        x = x + t(1)
    if x == 10:
        return float(t(result + _PSI_10 + extra))
    y = 0.0
    if x < 1.0e17:
        z = 1.0 / float(x * x)
        poly = 0.0
        for a in PSI_ASYMPTOTIC:
            poly = poly * z + a
        y = z * poly
    log_x = float(_log_in(x))
    return float(t(result + log_x - float(t(0.5) / x) - y + extra))


_COEF_UV = (
    (0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089, 0.0014179084),
    (
        0.53487893,
        0.1298071,
        0.065735949,
        -0.0015649758,
        0.16639465,
        0.020070113,
        -0.0035938915,
        -0.00058392623,
    ),
    (
        0.040121004,
        -0.0065914022,
        -0.0026286047,
        -0.0013441777,
        0.017050642,
        -0.0021309326,
        0.00085092367,
        -1.5247877e-07,
    ),
)


def _gamma_grad_one(alpha: float, x: float) -> float:
    """standard_gamma_grad_one<scalar_t, double>: -(d/dalpha cdf(x; alpha)) / pdf(x; alpha)."""
    if x < 0.8:
        numer, denom = 1.0, alpha
        series1 = numer / denom
        series2 = numer / (denom * denom)
        for i in range(1, 6):
            numer *= -x / i
            denom += 1
            series1 += numer / denom
            series2 += numer / (denom * denom)
        with np.errstate(all="ignore"):
            pow_x_alpha = float(np.power(x, alpha))
            pdf = float(np.power(x, alpha - 1)) * math.exp(-x)
            cdf = pow_x_alpha * series1
            log_x = math.log(x) if x > 0 else -math.inf
            cdf_alpha = (log_x - _digamma_one(np.float64(alpha))) * cdf - pow_x_alpha * series2
            result = float(np.divide(-cdf_alpha, pdf))
        return 0.0 if math.isnan(result) else result
    if alpha > 8.0:
        if 0.9 * alpha <= x <= 1.1 * alpha:
            numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
            numer_2 = (
                1440 * (alpha * alpha)
                + 6 * x * (53 - 120 * x)
                - 65 * x * x / alpha
                + alpha * (107 + 3600 * x)
            )
            denom = 1244160 * (alpha * alpha) * (alpha * alpha)
            return numer_1 * numer_2 / denom
        denom = math.sqrt(8 * alpha)
        term2 = denom / (alpha - x)
        term3 = (x - alpha - alpha * math.log(x / alpha)) ** -1.5
        term23 = term2 - term3 if x < alpha else term2 + term3
        term1 = math.log(x / alpha) * term23 - math.sqrt(2 / alpha) * (alpha + x) / (
            (alpha - x) * (alpha - x)
        )
        stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
        return -stirling * (x * term1) / denom
    u = math.log(x / alpha)
    v = math.log(alpha)
    c = [_COEF_UV[0][i] + u * (_COEF_UV[1][i] + u * _COEF_UV[2][i]) for i in range(8)]
    p = c[0] + v * (c[1] + v * (c[2] + v * c[3]))
    q = c[4] + v * (c[5] + v * (c[6] + v * c[7]))
    return math.exp(p / q)


def standard_gamma_grad(alpha: np.ndarray, x: np.ndarray) -> np.ndarray:
    """torch._standard_gamma_grad(alpha, x): one double computation per element, rounded to
    the dtype."""
    a64 = np.asarray(alpha, dtype=np.float64).ravel()
    x64 = np.asarray(x, dtype=np.float64).ravel()
    out = np.array([_gamma_grad_one(float(a), float(v)) for a, v in zip(a64, x64)])
    return out.astype(alpha.dtype).reshape(alpha.shape)


def _powf(base: np.floating, exponent: np.floating) -> np.floating:
    """compat_pow in the dtype: glibc's powf (correctly rounded: the double power rounded
    once) for a float, pow for a double."""
    t = type(base)
    if t is np.float32:
        fn = _libm_float("powf", 2)
        if fn is not None:
            return t(fn(float(base), float(exponent)))
    try:
        return t(math.pow(float(base), float(exponent)))
    except (OverflowError, ValueError):
        with np.errstate(all="ignore"):
            return t(np.power(np.float64(base), np.float64(exponent)))


def _beta_grad_alpha_small(x: np.floating, alpha: np.floating, beta: np.floating) -> float:
    t = type(x)
    factor = t(_digamma_one(alpha)) - t(_digamma_one(alpha + beta)) - _log_in(x)
    numer = t(1)
    series = numer / alpha * (factor + t(1) / alpha)
    for i in range(1, 11):
        ci = t(i)
        numer = numer * ((ci - beta) * x / ci)
        denom = alpha + ci
        series = series + numer / denom * (factor + t(1) / denom)
    with np.errstate(all="ignore"):
        result = x * _powf(t(1) - x, -beta) * series
    return 0.0 if np.isnan(result) else float(result)


def _beta_grad_beta_small(x: np.floating, alpha: np.floating, beta: np.floating) -> float:
    t = type(x)
    factor = t(_digamma_one(alpha + beta)) - t(_digamma_one(beta))
    numer, betas, dbetas, series = t(1), t(1), t(0), factor / alpha
    for i in range(1, 9):
        ci = t(i)
        numer = numer * (-x / ci)
        dbetas = dbetas * (beta - ci) + betas
        betas = betas * (beta - ci)
        series = series + numer / (alpha + ci) * (dbetas + factor * betas)
    with np.errstate(all="ignore"):
        result = -_powf(t(1) - x, t(1) - beta) * series
    return 0.0 if np.isnan(result) else float(result)


def _beta_grad_alpha_mid(x: float, alpha: float, beta: float) -> float:
    total = alpha + beta
    mean = alpha / total
    std = math.sqrt(alpha * beta / (total + 1)) / total
    if mean - 0.1 * std <= x <= mean + 0.1 * std:
        bb = beta * beta
        poly = 47 * x * bb * bb + alpha * (
            (43 + 20 * (16 + 27 * beta) * x) * bb * beta
            + alpha
            * (
                3 * (59 + 180 * beta - 90 * x) * bb
                + alpha
                * (
                    (453 + 1620 * beta * (1 - x) - 455 * x) * beta
                    + alpha * (8 * (1 - x) * (135 * beta - 11))
                )
            )
        )
        prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
        prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
        return prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / math.sqrt(2 * alpha * beta / total)
    stirling = (
        (1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
        * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
        / (1 + 1 / (12 * total) + 1 / (288 * total * total))
    )
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1_den = math.sqrt(2 * alpha / beta) * total**1.5 * axbx * axbx
    term1 = term1_num / term1_den
    term2 = 0.5 * math.log(alpha / (total * x))
    term3 = math.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4_base = beta * math.log(beta / (total * (1 - x))) + alpha * math.log(alpha / (total * x))
    term4 = term4_base**-1.5
    term1234 = term1 + term2 * (term3 + (term4 if x < mean else -term4))
    return stirling * prefactor * term1234


_C = (
    (
        (
            (1.003668233, -0.01061107488, -0.0657888334, 0.01201642863),
            (0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033),
            (-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013),
        ),
        (
            (0.221950385, -0.3187676331, 0.01799915743, 0.01074823814),
            (-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057),
            (0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05),
        ),
        (
            (-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565),
            (0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181),
            (0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05),
        ),
    ),
    (
        (
            (1, -0.02924021934, -0.04438342661, 0.007285809825),
            (0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521),
            (-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149),
        ),
        (
            (0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273),
            (0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956),
            (-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05),
        ),
        (
            (0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05),
            (0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05),
            (-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06),
        ),
    ),
)


def _dirichlet_grad_one(x: np.floating, alpha: np.floating, total: np.floating) -> float:
    """dirichlet_grad_one<scalar_t, double>."""
    t = type(x)
    beta = total - alpha
    boundary = total * x * (t(1) - x)
    if x <= 0.5 and boundary < 2.5:
        return _beta_grad_alpha_small(x, alpha, beta)
    if x >= 0.5 and boundary < 0.75:
        return -_beta_grad_beta_small(t(1) - x, beta, alpha)
    x_, alpha_, total_ = float(x), float(alpha), float(total)
    beta_ = total_ - alpha_
    if alpha > 6 and beta > 6:
        return _beta_grad_alpha_mid(x_, alpha_, beta_)
    u = math.log(x_)
    a = math.log(alpha_) - u
    b = math.log(total_) - a
    pow_u = (1.0, u, u * u)
    pow_a = (1.0, a, a * a)
    p = q = 0.0
    for i in range(3):
        for j in range(3):
            ua = pow_u[i] * pow_a[j]
            cp, cq = _C[0][i][j], _C[1][i][j]
            p += ua * (cp[0] + b * (cp[1] + b * (cp[2] + b * cp[3])))
            q += ua * (cq[0] + b * (cq[1] + b * (cq[2] + b * cq[3])))
    # digamma_one<scalar_t, double> takes its argument as scalar_t
    # (and returns it as scalar_t: the difference is a float32 one for a float)
    approx = x_ * float(t(_digamma_one(t(total_))) - t(_digamma_one(t(alpha_)))) / beta_
    return p / q * approx


def dirichlet_grad(x: np.ndarray, alpha: np.ndarray, total: np.ndarray) -> np.ndarray:
    """torch._dirichlet_grad(x, alpha, total), elementwise over arrays of one shape."""
    t = x.dtype.type
    out = np.empty(x.shape, dtype=x.dtype)
    flat = out.reshape(-1)
    for i, (xv, av, tv) in enumerate(zip(x.ravel(), alpha.ravel(), total.ravel())):
        flat[i] = _dirichlet_grad_one(t(xv), t(av), t(tv))
    return out
