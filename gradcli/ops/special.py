"""The special functions (torch.special and the torch.X of the same names): logit, the inverse
and scaled error functions, the normal distribution's quantile and log-CDF, log-gamma and its
derivatives (digamma, polygamma, mvlgamma), the Hurwitz zeta function, the modified Bessel
functions i0 / i0e / i1 / i1e, entr, and the products and sums that keep their logarithms
finite (xlogy, xlog1py, logaddexp, logaddexp2) and copysign.

Values in float64 come from `core.specfun` (NumPy only); float32 ones are computed through
float64 and rounded once (`elementwise._precise`); digamma and trigamma in float32 steps, as
PyTorch's float kernels. Each rule is PyTorch's derivatives.yaml formula, written with the
records so that it can be differentiated again (lgamma -> digamma -> polygamma(1) ->
polygamma(2) ...), with PyTorch's values at the edges (logit outside [eps, 1 - eps], xlogy at
x = 0, i1 at 0...).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core import dual
from ..core import specfun as SF
from ..core.op import Sample, apply, binary_samples, defop, unary_samples
from ..core.tensor import Tensor, constant, grad_enabled
from .binary import where
from .elementwise import _libm_loop, _on_avx2, _precise, log, reciprocal, sign

_SQRT_PI_2 = math.sqrt(math.pi) / 2
_2_SQRTPI = 2 / math.sqrt(math.pi)
_SQRT_2PI = math.sqrt(2 * math.pi)
_LN2 = math.log(2)


def _quiet(fn: Any) -> Any:
    def f(*a: Any, **k: Any) -> np.ndarray:
        with np.errstate(all="ignore"):
            return fn(*a, **k)

    f.__name__ = getattr(fn, "__name__", "f")
    return f


# --- logit ----------------------------------------------------------------------------------


def _logit_fwd(x: np.ndarray, eps: float | None = None) -> np.ndarray:
    # PyTorch's kernel: x clamped to [eps, 1 - eps] when eps is given, then log(x / (1 - x))
    # (the quotient in x's dtype, the logarithm rounded once).
    with np.errstate(all="ignore"):
        z = x
        if eps is not None:
            lo = x.dtype.type(eps)
            hi = x.dtype.type(1) - lo
            z = np.where(x < lo, lo, np.where(x > hi, hi, x))
        q = np.asarray(z / (x.dtype.type(1) - z), dtype=x.dtype)
        if q.dtype != np.float32 or not q.size or _one_run(x):
            # the logarithm with torch.log's bits (float32: MKL's VML; measured on 2.13: a
            # float32 logit whose loop is one run of adjacent elements gives those, tail
            # included, not the C library's logf nor the float64 logarithm rounded once,
            # which differ on 7% of inputs)
            return log.forward(q)
        from ..core import cpu, sleef32
        from ..core.vecloop import split_loop

        if cpu.avx2():  # (the AVX2 build's SLEEF logf is not emulated: rounded once)
            return _precise(np.log)(q)

        # rows or strided runs (x[:, 3:], x[:, ::2]): ATen's vector loop, SLEEF's logf on
        # whole steps of each run, the C library's logf on the rest (measured)
        def vec(_: np.ndarray, v: np.ndarray) -> np.ndarray:
            return sleef32.logf(v)

        def tail(_: np.ndarray, v: np.ndarray) -> np.ndarray:
            return sleef32.libm("logf", v, np.log)

        return split_loop(vec, tail, x, q)


def _one_run(x: np.ndarray) -> bool:
    """Whether TensorIterator walks `x` (in its memory order) as one run of adjacent elements."""
    from ..core.vecloop import _inner_run, _loop_order

    if x.ndim > 1 and not x.flags.c_contiguous:
        x = np.transpose(x, _loop_order((x,)))
    run, adjacent = _inner_run((x,))
    return adjacent and run >= x.size


def in_vector_loop_logit(xd: np.ndarray) -> np.ndarray:
    """Which elements logit's backward kernel computes in its vector loop (128-byte steps,
    64 on the avx2 family), the rest in its scalar loop."""
    from .elementwise import in_vector_loop

    return in_vector_loop(xd, 128)


def _logit_vjp(g: Tensor, out: Tensor, x: Tensor, eps: float | None = None) -> tuple:
    # PyTorch's logit_backward: g / (x (1 - x)); outside [0, 1] nan (eps None), outside
    # [eps, 1 - eps] 0 (eps given): a choice (where), so that 1/0 there leaves no nan
    xd = x.data
    if eps is None:
        outside = (xd < 0) | (xd > 1)
        fill = np.nan
    else:
        outside = (xd < eps) | (xd > 1 - eps)
        if xd.dtype.kind == "f":  # NaN: 0 in the vector loop (measured), NaN in the scalar
            from .elementwise import in_vector_loop

            outside = outside | (np.isnan(xd) & in_vector_loop(xd, 128))
        fill = 0.0
    d = g / (x * (1 - x))  # the kernel's dy / (x * (1 - x)), one division
    if not grad_enabled() and out.node is not None and xd.dtype.kind == "f":
        # the kernel's scalar loop (the tail past its vector steps) gives dy * inf at x == 0
        # or 1, where the quotient's sign of zero would make -0.0 give -inf (the vector loop
        # and the recorded rule below divide: -inf; so does forward mode, its tangent rule
        # the recorded one where grad mode is on, as under torch.func; `out` without a node)
        edge = (xd == 0) & ~outside & ~in_vector_loop_logit(xd)
        if np.any(edge):
            d = apply(where, Tensor(edge), g * math.inf, d)
    # recorded (create_graph=True), PyTorch's infinitely_differentiable_logit_backward: the
    # same quotient through where(...) always (WhereBackward0)
    if np.any(outside) or grad_enabled():
        d = apply(where, Tensor(outside), Tensor(np.asarray(fill, dtype=d.dtype)), d)
    return (d,)


logit = defop(
    "logit",
    _logit_fwd,
    _logit_vjp,
    "LogitBackward0",
    "g / (x (1 - x)); 0 outside [eps, 1 - eps] (nan outside [0, 1] without eps)",
    sym=lambda sp, x, eps=None: (
        sp.log(x / (1 - x))
        if eps is None
        else sp.log(sp.Min(sp.Max(x, eps), 1 - eps) / (1 - sp.Min(sp.Max(x, eps), 1 - eps)))
    ),
    kink="with eps, the gradient is 0 outside [eps, 1 - eps] and g / (x (1 - x)) at the "
    "bounds themselves, as PyTorch",
    signature="logit(x, eps=None)",
    samples=unary_samples({"eps": None}, low=0.05, high=0.95)
    + (
        Sample(((2, 3),), {"eps": 0.2}, low=0.02, high=0.98, avoid=(0.2, 0.8), gap=0.05),
        Sample(((4,),), {"eps": 1e-6}, low=0.1, high=0.9),
    ),
    to_torch=lambda w, a, p: f"torch.logit({a[0]}, eps={w.lit(p.get('eps'))})",
    to_jax=lambda w, a, p: (
        f"jax.scipy.special.logit({a[0]})"
        if p.get("eps") is None
        else f"jax.scipy.special.logit(jnp.clip({a[0]}, {w.lit(p['eps'])}, 1 - {w.lit(p['eps'])}))"
    ),
)

# --- error functions ------------------------------------------------------------------------


def _erfinv_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    # PyTorch's: 0.5 sqrt(pi) exp(erfinv(x)^2) * g (erfinv recomputed: differentiable again)
    e = apply(erfinv, x)
    return (e.pow(2).exp() * _SQRT_PI_2 * g,)  # (pow(2): one PowBackward0, as PyTorch)


erfinv = defop(
    "erfinv",
    _precise(SF.erfinv),
    _erfinv_vjp,
    "ErfinvBackward0",
    "g * sqrt(pi)/2 * exp(erfinv(x)^2)",
    sym=lambda sp, x: sp.erfinv(x),
    domain=lambda x: "erfinv outside (-1, 1)" if np.any(np.abs(x) >= 1) else None,
    samples=unary_samples(low=-0.9, high=0.9),
    to_torch="torch.erfinv",
    to_jax="jax.scipy.special.erfinv",
)


def _erfc_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    # derivatives.yaml's order, on every machine: (-2/sqrt(pi) * exp(-x**2)) * grad
    return (((-(x * x)).exp() * -_2_SQRTPI) * g,)


erfc = defop(
    "erfc",
    _on_avx2("erfcf", _precise(SF.erfc)),  # MKL's SSE kernel on AMD (core.mklsse32)
    _erfc_vjp,
    "ErfcBackward0",
    "-g * 2/sqrt(pi) * exp(-x^2)",
    sym=lambda sp, x: sp.erfc(x),
    samples=unary_samples(),
    to_torch="torch.erfc",
    to_jax="jax.scipy.special.erfc",
)


def _erfcx_forward(x: np.ndarray) -> np.ndarray:
    # float32 / float64: ATen's calc_erfcx step by step (core.erfcx); others through float64
    if x.dtype in (np.float32, np.float64):
        from ..core.erfcx import calc_erfcx

        return calc_erfcx(x)
    return _precise(SF.erfcx)(x)


erfcx = defop(
    "erfcx",
    _erfcx_forward,
    lambda g, out, x: (g * (x * out * 2 - _2_SQRTPI),),
    "SpecialErfcxBackward0",
    "g * (2 x out - 2/sqrt(pi))",
    sym=lambda sp, x: sp.exp(x**2) * sp.erfc(x),
    samples=unary_samples(low=-2.0, high=4.0),
    to_torch="torch.special.erfcx",
    to_jax="jax.scipy.special.erfcx",
)


# ATen's calc_ndtri (Math.h, from Cephes' ndtri): rational approximations in the dtype, one for
# |p - 1/2| <= 1/2 - exp(-2) and two in z = 1 / sqrt(-2 log p) beyond, each coefficient rounded to
# the dtype; the denominators' leading 1 is a coefficient too (Horner from zero).
_NDTRI_MID = (
    (
        -5.99633501014107895267e1,
        9.80010754185999661536e1,
        -5.66762857469070293439e1,
        1.39312609387279679503e1,
        -1.23916583867381258016e0,
    ),
    (
        1.0,
        1.95448858338141759834e0,
        4.67627912898881538453e0,
        8.63602421390890590575e1,
        -2.25462687854119370527e2,
        2.00260212380060660359e2,
        -8.20372256168333339912e1,
        1.59056225126211695515e1,
        -1.18331621121330003142e0,
    ),
)
_NDTRI_NEAR = (  # sqrt(-2 log p) below 8
    (
        4.05544892305962419923e0,
        3.15251094599893866154e1,
        5.71628192246421288162e1,
        4.40805073893200834700e1,
        1.46849561928858024014e1,
        2.18663306850790267539e0,
        -1.40256079171354495875e-1,
        -3.50424626827848203418e-2,
        -8.57456785154685413611e-4,
    ),
    (
        1.0,
        1.57799883256466749731e1,
        4.53907635128879210584e1,
        4.13172038254672030440e1,
        1.50425385692907503408e1,
        2.50464946208309415979e0,
        -1.42182922854787788574e-1,
        -3.80806407691578277194e-2,
        -9.33259480895457427372e-4,
    ),
)
_NDTRI_FAR = (  # from 8 on
    (
        3.23774891776946035970e0,
        6.91522889068984211695e0,
        3.93881025292474443415e0,
        1.33303460815807542389e0,
        2.01485389549179081538e-1,
        1.23716634817820021358e-2,
        3.01581553508235416007e-4,
        2.65806974686737550832e-6,
        6.23974539184983293730e-9,
    ),
    (
        1.0,
        6.02427039364742014255e0,
        3.67983563856160859403e0,
        1.37702099489081330271e0,
        2.16236993594496635890e-1,
        1.34204006088543189037e-2,
        3.28014464682127739104e-4,
        2.89247864745380683936e-6,
        6.79019408009981274425e-9,
    ),
)
_EXP_M2 = 0.13533528323661269189  # exp(-2)


def _fused_dt(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """fma(a, b, c) in a's dtype (float32 or float64), one rounding."""
    if a.dtype == np.float32:
        from .linalg import _fma32

        return _fma32(a.astype(np.float64) * b.astype(np.float64), c)
    from ..core.fma64 import _fma64

    return _fma64(a, b, c)


def _horner_fused(x: np.ndarray, coeffs: tuple) -> np.ndarray:
    """Cephes' polevl as ATen's AVX2 build compiles it: acc = fma(acc, x, c) from zero."""
    kind = x.dtype.type
    acc = np.zeros_like(x)
    for c in coeffs:
        acc = _fused_dt(acc, x, np.full_like(x, kind(c)))
    return acc


def _ndtri_aten(p: np.ndarray) -> np.ndarray:
    """calc_ndtri of a float32 or float64 array, step by step in its dtype (fused Horner and
    y + y q fused, as compiled; the logarithms and the square root of the tails are the C
    library's double ones even for float32: `::log`, then the expression rounded to float)."""
    kind = p.dtype.type
    one, edge = kind(1), kind(_EXP_M2)
    with np.errstate(all="ignore"):
        low = ~(p > one - edge)  # (the sign is flipped back for these: `code`)
        y = np.where(low, p, one - p)
        mid = y > edge
        ym = y - kind(0.5)
        y2 = ym * ym
        q = y2 * _horner_fused(y2, _NDTRI_MID[0]) / _horner_fused(y2, _NDTRI_MID[1])
        central = _fused_dt(ym, q, ym) * kind(2.50662827463100050242e0)
        yt = np.where(mid, kind(0.5), y).astype(np.float64)
        x = np.sqrt(-2.0 * np.log(yt)).astype(p.dtype)
        xd = x.astype(np.float64)
        x0 = (xd - np.log(xd) / xd).astype(p.dtype)
        z = one / x
        near = z * _horner_fused(z, _NDTRI_NEAR[0]) / _horner_fused(z, _NDTRI_NEAR[1])
        far = z * _horner_fused(z, _NDTRI_FAR[0]) / _horner_fused(z, _NDTRI_FAR[1])
        tail = x0 - np.where(x < kind(8), near, far)
        out = np.where(mid, central, np.where(low, -tail, tail))
        out = np.where(p == 0, -np.inf, np.where(p == 1, np.inf, out))
        return np.where((p < 0) | (p > 1) | np.isnan(p), np.nan, out).astype(p.dtype)


def _ndtri_fwd(x: np.ndarray) -> np.ndarray:
    if x.dtype in (np.float32, np.float64):
        return _ndtri_aten(x)
    return _precise(SF.ndtri)(x)


def _ndtri_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    # PyTorch's: g * sqrt(2 pi) * exp(out^2 / 2)
    return (g * _SQRT_2PI * (out * out / 2).exp(),)


ndtri = defop(
    "ndtri",
    _ndtri_fwd,
    _ndtri_vjp,
    "SpecialNdtriBackward0",
    "g * sqrt(2 pi) * exp(out^2 / 2)",
    sym=lambda sp, x: sp.sqrt(2) * sp.erfinv(2 * x - 1),
    domain=lambda x: "ndtri outside (0, 1)" if np.any((x <= 0) | (x >= 1)) else None,
    samples=unary_samples(low=0.05, high=0.95),
    to_torch="torch.special.ndtri",
    to_jax="jax.scipy.special.ndtri",
)


def _log_ndtr_fwd(x: np.ndarray) -> np.ndarray:
    # PyTorch's two branches: log(erfcx(-x / sqrt 2) / 2) - x^2 / 2 below -1 (no underflow),
    # log1p(-erfc(x / sqrt 2) / 2) above.
    with np.errstate(all="ignore"):
        t = x * math.sqrt(0.5)  # c10::frac_sqrt_2 (1 / sqrt(2) is an ulp below)
        left = np.log(SF.erfcx(-t) / 2) - x * x / 2
        right = np.log1p(-SF.erfc(t) / 2)
        return np.where(x < -1, left, right)


_ERFC_CHUNK = 1 << 16


def _c_log1p(v: float) -> float:
    """C's log1p (Python's math.log1p raises where C gives -inf or NaN)."""
    try:
        return math.log1p(v)
    except ValueError:
        return -math.inf if v == -1 else math.nan


def _log_ndtr_aten(x: np.ndarray) -> np.ndarray:
    """calc_log_ndtr of a float32 or float64 array in its dtype: t = x / sqrt 2 (the dtype's
    frac_sqrt_2); from -1 up, log1p(-erfc(t) / 2) with the C library's erfc and log1p (float32:
    erfcf and log1pf, `sleef32.libm`; PyTorch's bits measured on every argument tried); below,
    log(erfcx(-t) / 2) - t t with ATen's erfcx in the dtype (`core.erfcx`)."""
    from ..core import hooks, sleef32
    from ..core.erfcx import calc_erfcx

    kind = x.dtype.type
    with np.errstate(all="ignore"):
        t = x * kind(0.70710678118654752440)
        if x.dtype == np.float32:
            erfc = sleef32.libm("erfcf", t, SF.erfc)
            right = sleef32.libm("log1pf", -erfc / kind(2), np.log1p)
            part = calc_erfcx(-t) / kind(2)
            left = sleef32.libm("logf", part, np.log) - t * t
        else:
            flat, erfc = t.reshape(-1), np.empty(t.size)
            for i in range(0, t.size, _ERFC_CHUNK):  # glibc's erfc, element by element
                hooks.observer.check_clock()
                erfc[i : i + _ERFC_CHUNK] = list(map(math.erfc, flat[i : i + _ERFC_CHUNK].tolist()))
            # (the C library's log1p, as ATen's std::log1p: NumPy's may round otherwise)
            half = (-erfc / 2).tolist()
            right = np.array(list(map(_c_log1p, half)), np.float64).reshape(t.shape)
            left = np.log(calc_erfcx(-t) / 2) - t * t
        return np.where(x < kind(-1), left, right).astype(x.dtype)


def _log_ndtr_forward(x: np.ndarray) -> np.ndarray:
    if x.dtype in (np.float32, np.float64):
        return _log_ndtr_aten(x)
    return _precise(_log_ndtr_fwd)(x)


def _log_ndtr_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    # PyTorch's: g / sqrt(2 pi) * exp(-(out + x^2 / 2))
    return (g / _SQRT_2PI * (-(out + x * x / 2)).exp(),)


log_ndtr = defop(
    "log_ndtr",
    _log_ndtr_forward,
    _log_ndtr_vjp,
    "SpecialLogNdtrBackward0",
    "g / sqrt(2 pi) * exp(-(out + x^2/2))",
    sym=lambda sp, x: sp.log((1 + sp.erf(x / sp.sqrt(2))) / 2),
    samples=unary_samples(low=-3.0, high=3.0),
    to_torch="torch.special.log_ndtr",
    to_jax="jax.scipy.special.log_ndtr",
)

# --- log-gamma and its derivatives ------------------------------------------------------------


_lgamma_rounded = _precise(SF.lgamma)


def _lgamma_fwd(x: np.ndarray) -> np.ndarray:
    """float64 and float32: SLEEF's lgamma, as ATen's kernel on every element
    (`core.sleef64`, `core.sleef32.lgammaf`); other dtypes through the C library's float64
    lgamma, rounded once."""
    if x.dtype.kind == "f" and x.dtype.itemsize == 8:  # (either byte order)
        from ..core import sleef64

        return sleef64.lgamma(x.astype(np.float64))
    if x.dtype.kind == "f" and x.dtype.itemsize == 4:
        from ..core import sleef32

        return sleef32.lgammaf(x.astype(np.float32))
    return _lgamma_rounded(x)


lgamma = defop(
    "lgamma",
    _lgamma_fwd,
    lambda g, out, x: (g * apply(digamma, x),),
    "LgammaBackward0",
    "g * digamma(x)",
    sym=lambda sp, x: sp.loggamma(x),
    samples=unary_samples(low=0.2, high=5.0),
    to_torch="torch.lgamma",
    to_jax="jax.scipy.special.gammaln",
)
digamma = defop(
    "digamma",
    SF.digamma,
    lambda g, out, x: (g * apply(polygamma, x, n=1),),
    "DigammaBackward0",
    "g * polygamma(1, x)",
    sym=lambda sp, x: sp.polygamma(0, x),
    samples=unary_samples(low=0.2, high=5.0) + (Sample(((4,),), low=-2.9, high=-2.1),),
    to_torch="torch.digamma",
    to_jax="jax.scipy.special.digamma",
)


def _polygamma32(x: np.ndarray, n: int) -> np.ndarray:
    """ATen's float polygamma for n >= 2: the Hurwitz zeta in double (its CPU accumulate type,
    the first term powf's) rounded to float, times n! as float computes it (expf(lgammaf(n +
    1))), in float."""
    from ..core.glibc32 import c_function

    lgammaf, expf = c_function("lgammaf"), c_function("expf")
    if lgammaf is None or expf is None:  # no C library: n! rounded once (an ulp at most off)
        fac = np.float32(SF._factorial(n))
    else:
        fac = np.float32(expf(lgammaf(float(np.float32(n) + np.float32(1)))))
    sign = np.float32(1.0 if n % 2 else -1.0)
    with np.errstate(all="ignore"):
        z = SF.zeta(np.float64(n + 1), x.astype(np.float64), float_first=True)
        z = z.astype(np.float32)
        return ((sign * fac) * z).astype(np.float32)


def _polygamma_fwd(x: np.ndarray, n: int) -> np.ndarray:
    if x.dtype == np.float32:  # PyTorch's float kernels' steps
        return SF.polygamma(n, x) if n <= 1 else _polygamma32(x, n)
    return _precise(lambda v: SF.polygamma(n, v))(x)


polygamma = defop(
    "polygamma",
    _polygamma_fwd,
    lambda g, out, x, n: (g * apply(polygamma, x, n=n + 1),),
    "PolygammaBackward0",
    "g * polygamma(n + 1, x)",
    sym=lambda sp, x, n: sp.polygamma(n, x),
    signature="polygamma(n, x)",
    samples=unary_samples({"n": 1}, low=0.2, high=5.0)
    + (
        Sample(((2, 3),), {"n": 0}, low=0.3, high=4.0),
        Sample(((2, 3),), {"n": 2}, low=0.3, high=4.0),
        Sample(((4,),), {"n": 3}, low=0.5, high=3.0),
        Sample(((3,),), {"n": 1}, low=-1.9, high=-1.1),
    ),
    to_torch=lambda w, a, p: f"torch.polygamma({p['n']}, {a[0]})",
    to_jax=lambda w, a, p: f"jax.scipy.special.polygamma({p['n']}, {a[0]})",
)


def _mvlgamma_fwd(x: np.ndarray, p: int) -> np.ndarray:
    # PyTorch's: lgamma(x + (-(p - 1)/2, ..., -1/2, 0)) summed, plus p (p - 1) / 4 log(pi)
    with np.errstate(all="ignore"):
        shifts = (np.arange(p, dtype=np.float64) - (p - 1)) / 2
        terms = _lgamma_fwd(np.asarray(x[..., None] + shifts.astype(x.dtype), dtype=x.dtype))
        return np.asarray(terms.sum(axis=-1) + x.dtype.type(p * (p - 1) / 4 * math.log(math.pi)))


def _mvlgamma_vjp(g: Tensor, out: Tensor, x: Tensor, p: int) -> tuple:
    # g * sum_i digamma(x - i/2), the p terms side by side on a last axis (one record each)
    from .reduction import sum as sum_op
    from .shape import reshape

    halves = constant((np.arange(p, dtype=np.float64) / 2).astype(x.dtype))
    terms = apply(digamma, apply(reshape, x, shape=x.shape + (1,)) - halves)
    return (g * apply(sum_op, terms, dim=x.ndim),)


mvlgamma = defop(
    "mvlgamma",
    _mvlgamma_fwd,
    _mvlgamma_vjp,
    "MvlgammaBackward0",
    "g * sum_i digamma(x - i/2), i < p",
    sym=lambda sp, x, p: (
        sp.Rational(p * (p - 1), 4) * sp.log(sp.pi)
        + sp.Add(*[sp.loggamma(x - sp.Rational(i, 2)) for i in range(p)])
    ),
    signature="mvlgamma(x, p)",
    samples=unary_samples({"p": 2}, low=1.0, high=4.0)
    + (Sample(((2, 3),), {"p": 1}, low=0.3, high=3.0), Sample(((4,),), {"p": 3}, low=1.5, high=4)),
    to_torch=lambda w, a, p: f"torch.mvlgamma({a[0]}, p={p['p']})",
    to_jax=lambda w, a, p: f"jax.scipy.special.multigammaln({a[0]}, {p['p']})",
)

# --- modified Bessel functions of the first kind ----------------------------------------------


def _bessel(order: int, scaled: bool) -> Any:
    return _precise(lambda x: SF.bessel_i(x, order, scaled))


def _i1_grad(x: Tensor, out: Tensor, scaled: bool) -> Tensor:
    """dI1/dx as PyTorch's i1_backward / i1e_backward compute it: i0(x) - out * (1 / x)
    (scaled: i0e(x) - out * (sgn(x) + 1 / x)), and 1/2 (the limit) where |x| is at most the
    dtype's epsilon, x replaced by epsilon there; the same roundings as its kernels."""
    dt = x.dtype
    if dt not in (np.float32, np.float64):  # ATen dispatches i1_backward for float / double
        raise GradcliError(
            f"\"{'i1e' if scaled else 'i1'}_backward\" not implemented for 'Half'",
            hint="compute it in float32: torch.special.i1(x.float())",
        ).mirror("NotImplementedError")
    eps = np.finfo(dt).eps
    # PyTorch's mask is `abs(x) > eps` negated: NaN counts as tiny (its gradient 1/2)
    with np.errstate(invalid="ignore"):
        tiny = ~(np.abs(x.data) > eps)
    safe = x
    if np.any(tiny):
        safe = apply(where, Tensor(~tiny), x, Tensor(np.asarray(eps, dtype=dt)))
    inv = apply(reciprocal, safe)
    if scaled:
        gradx = apply(i0e, safe) - out * (apply(sign, safe) + inv)
    else:
        gradx = apply(i0, safe) - out * inv
    if np.any(tiny):
        gradx = apply(where, Tensor(~tiny), gradx, Tensor(np.asarray(0.5, dtype=dt)))
    return gradx


def _cephes_i(order: int, scaled: bool) -> Any:
    """torch.i0 / special.i0e / i1 / i1e: ATen's calc_i0 / calc_i0e / calc_i1 / calc_i1e
    (Cephes' Chebyshev series, its steps fused as the AVX2 / AVX512 builds compile them) for
    float32 and float64, identical to PyTorch's bits (its float32 i1 is a few ulps from the
    precise value); other dtypes (float16, via float64) rounded once from the precise value."""
    precise = _bessel(order, scaled)

    def fwd(x: Any) -> Any:
        if isinstance(x, np.ndarray) and x.dtype in (np.float32, np.float64):
            return SF.calc_bessel_i(x, order, scaled)
        return precise(x)

    return fwd


_i0_fwd = _cephes_i(0, False)


i0 = defop(
    "i0",
    _i0_fwd,
    lambda g, out, x: (g * apply(i1, x),),
    "I0Backward0",
    "g * i1(x)",
    sym=lambda sp, x: sp.besseli(0, x),
    samples=unary_samples(low=-4.0, high=4.0),
    to_torch="torch.i0",
    to_jax="jax.scipy.special.i0",
)
i0e = defop(
    "i0e",
    _cephes_i(0, True),
    lambda g, out, x: (g * (apply(i1e, x) - apply(sign, x) * out),),
    "SpecialI0EBackward0",
    "g * (i1e(x) - sgn(x) * out)",
    sym=lambda sp, x: sp.besseli(0, x) * sp.exp(-sp.Abs(x)),
    kink="i0e'(0) = 0 (sgn(0) = 0), as PyTorch",
    samples=unary_samples(low=-4.0, high=4.0, avoid=(0.0,)),
    to_torch="torch.special.i0e",
    to_jax="jax.scipy.special.i0e",
)
i1 = defop(
    "i1",
    _cephes_i(1, False),
    lambda g, out, x: (g * _i1_grad(x, out, False),),
    "SpecialI1Backward0",
    "g * (i0(x) - out * (1 / x)), g / 2 where |x| <= eps (or x is NaN)",
    sym=lambda sp, x: sp.besseli(1, x),
    samples=unary_samples(low=-4.0, high=4.0, avoid=(0.0,), gap=0.05),
    to_torch="torch.special.i1",
    to_jax="jax.scipy.special.i1",
)
i1e = defop(
    "i1e",
    _cephes_i(1, True),
    lambda g, out, x: (g * _i1_grad(x, out, True),),
    "SpecialI1EBackward0",
    "g * (i0e(x) - out * (sgn(x) + 1 / x)), g / 2 where |x| <= eps (or x is NaN)",
    sym=lambda sp, x: sp.besseli(1, x) * sp.exp(-sp.Abs(x)),
    kink="i1e'(0) = 1/2 (the limit), as PyTorch",
    samples=unary_samples(low=-4.0, high=4.0, avoid=(0.0,), gap=0.05),
    to_torch="torch.special.i1e",
    to_jax="jax.scipy.special.i1e",
)

# --- entropy, logarithms of products and sums -----------------------------------------------


def _entr_fwd(x: np.ndarray) -> np.ndarray:
    # -x log x, 0 at 0, -inf below 0, nan for nan (PyTorch's; its scalar kernel's std::log:
    # for float the C library's logf, `sleef32.libm`, not the float64 log rounded once)
    with np.errstate(all="ignore"):
        if x.dtype == np.float32:
            from ..core import sleef32

            v = -x * sleef32.libm("logf", np.where(x > 0, x, np.float32(1)), np.log)
        else:
            v = -x * _precise(np.log)(x)
        v = np.where(x == 0, x.dtype.type(0), v)
        return np.asarray(np.where(x < 0, x.dtype.type(-np.inf), v), dtype=x.dtype)


entr = defop(
    "entr",
    _entr_fwd,
    lambda g, out, x: (g * -(apply(log, x) + 1),),
    "SpecialEntrBackward0",
    "-g * (1 + log(x))",
    sym=lambda sp, x: -x * sp.log(x),
    samples=unary_samples(low=0.1, high=3.0),
    to_torch="torch.special.entr",
    to_jax="jax.scipy.special.entr",
)


# ATen's xlogy and xlog1py are scalar `cpu_kernel` loops: x * std::log(y), x * std::log1p(y),
# the C library's logf / log1pf for float32 (not the vectorised log that torch.log runs: the
# two differ in a last bit for some arguments), float64 rounded once for the other dtypes
_LOGF = _libm_loop("logf", np.log)
_LOG1PF = _libm_loop("log1pf", np.log1p)


def _xlogy_fwd(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    # 0 where x == 0 (unless y is nan), else x * log(y)
    with np.errstate(all="ignore"):
        v = x * _LOGF(y)
        v = np.where((x == 0) & ~np.isnan(y), x.dtype.type(0), v)
        return np.asarray(np.where(np.isnan(y), y, v), dtype=x.dtype)


def _xlog1py_fwd(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        v = x * _LOG1PF(y)
        v = np.where((x == 0) & ~np.isnan(y), x.dtype.type(0), v)
        return np.asarray(np.where(np.isnan(y), y, v), dtype=x.dtype)


def _masked_log_grad(g: Tensor, x: Tensor, y: Tensor, op: Any, edge: float) -> Tensor:
    # PyTorch's: xlogy(g, y) (xlog1py for xlog1py), 0 where x == 0 and y <= edge (there the
    # logarithm is -inf or nan, and the function is 0 on a neighbourhood's x = 0 line)
    d = apply(op, g, y)
    off = (x.data == 0) & (y.data <= edge)
    if np.any(off):
        d = apply(where, Tensor(np.broadcast_to(off, d.shape)), Tensor(np.zeros((), d.dtype)), d)
    return d


def _xlogy_vjp(g: Tensor, out: Tensor, x: Tensor, y: Tensor) -> tuple:
    # x: g log(y) (0 where x = 0 and y <= 0); y: g * x / y
    return (
        _masked_log_grad(g, x, y, xlogy, 0.0) if x.requires_grad else None,
        g * x / y if y.requires_grad else None,
    )


def _xlog1py_vjp(g: Tensor, out: Tensor, x: Tensor, y: Tensor) -> tuple:
    return (
        _masked_log_grad(g, x, y, xlog1py, -1.0) if x.requires_grad else None,
        g * x / (y + 1) if y.requires_grad else None,
    )


_XLOG_KINK = (
    "the value is 0 at x = 0 (unless y is nan); there the gradient in x is log(y), 0 where "
    "y <= 0, and the gradient in y is x / y (nan at 0 / 0), as PyTorch"
)

xlogy = defop(
    "xlogy",
    _xlogy_fwd,
    _xlogy_vjp,
    "XlogyBackward0",
    "g * log(y) (0 where x = 0 and y <= 0), g * x / y",
    sym=lambda sp, x, y: x * sp.log(y),
    kind="binary",
    kink=_XLOG_KINK,
    signature="xlogy(x, y)",
    samples=tuple(Sample(s.shapes, low=0.2, high=3.0) for s in binary_samples()),
    to_torch="torch.xlogy",
    to_jax="jax.scipy.special.xlogy",
)
xlog1py = defop(
    "xlog1py",
    _xlog1py_fwd,
    _xlog1py_vjp,
    "SpecialXlog1PyBackward0",
    "g * log1p(y) (0 where x = 0 and y <= -1), g * x / (1 + y)",
    sym=lambda sp, x, y: x * sp.log(1 + y),
    kind="binary",
    kink=_XLOG_KINK.replace("log(y)", "log1p(y)")
    .replace("y <= 0", "y <= -1")
    .replace("x / y (", "x / (1 + y) ("),
    signature="xlog1py(x, y)",
    samples=tuple(Sample(s.shapes, low=-0.5, high=2.0) for s in binary_samples()),
    to_torch="torch.special.xlog1py",
    to_jax="jax.scipy.special.xlog1py",
)


def _logaddexp_fwd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    # PyTorch's: a where a == b is infinite, else max + log1p(exp(-|a - b|))
    with np.errstate(all="ignore"):
        m = np.maximum(a, b)
        v = m + _precise(np.log1p)(_precise(np.exp)(np.asarray(-np.abs(a - b))))
        return np.asarray(np.where(np.isinf(a) & (a == b), a, v), dtype=a.dtype)


def _logaddexp2_fwd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        m = np.maximum(a, b)
        r = _precise(np.log1p)(_precise(np.exp2)(np.asarray(-np.abs(a - b))))
        v = m + r * a.dtype.type(1 / _LN2)
        return np.asarray(np.where(np.isinf(a) & (a == b), a, v), dtype=a.dtype)


def _logaddexp_vjp(g: Tensor, out: Tensor, a: Tensor, b: Tensor) -> tuple:
    # PyTorch's: g / (1 + exp(b - a)), g / (1 + exp(a - b))
    return (
        g / ((b - a).exp() + 1) if a.requires_grad else None,
        g / ((a - b).exp() + 1) if b.requires_grad else None,
    )


def _logaddexp2_vjp(g: Tensor, out: Tensor, a: Tensor, b: Tensor) -> tuple:
    # PyTorch's: g / (1 + 2^(b - a)), g / (1 + 2^(a - b))
    return (
        g / (2 ** (b - a) + 1) if a.requires_grad else None,
        g / (2 ** (a - b) + 1) if b.requires_grad else None,
    )


logaddexp = defop(
    "logaddexp",
    _logaddexp_fwd,
    _logaddexp_vjp,
    "LogaddexpBackward0",
    "g / (1 + exp(b - a)), g / (1 + exp(a - b))",
    sym=lambda sp, a, b: sp.log(sp.exp(a) + sp.exp(b)),
    kind="binary",
    signature="logaddexp(a, b)",
    samples=binary_samples(),
    to_torch="torch.logaddexp",
    to_jax="jnp.logaddexp",
)
logaddexp2 = defop(
    "logaddexp2",
    _logaddexp2_fwd,
    _logaddexp2_vjp,
    "Logaddexp2Backward0",
    "g / (1 + 2^(b - a)), g / (1 + 2^(a - b))",
    sym=lambda sp, a, b: sp.log(2**a + 2**b) / sp.log(2),
    kind="binary",
    signature="logaddexp2(a, b)",
    samples=binary_samples(),
    to_torch="torch.logaddexp2",
    to_jax="jnp.logaddexp2",
)


def _copysign_vjp(g: Tensor, out: Tensor, a: Tensor, b: Tensor) -> tuple:
    # PyTorch's copysign_tensor_self_backward: ratio = out / a, masked_fill_(a == 0, 0), then
    # g * ratio; nothing flows to b (zeros). The fill is +0 (a product with a 0/1 mask kept
    # out's sign there: -0 printed where b < 0), and, recorded (create_graph), the division's
    # gradients at a == 0 are 0/0, NaN, as PyTorch's second derivative there.
    ga = None
    if a.requires_grad:
        ratio = out / a
        zero = a.data == 0
        if np.any(zero) or grad_enabled():
            cond = Tensor(np.broadcast_to(zero, ratio.shape))
            fill = Tensor(np.zeros((), dtype=g.dtype))
            ratio = apply(where, cond, fill, ratio, label="MaskedFillBackward0")
        ga = g * ratio
    return (ga, constant(np.zeros(g.shape, g.dtype)) if b.requires_grad else None)


copysign = defop(
    "copysign",
    lambda a, b: np.copysign(a, b).astype(np.result_type(a, b)),
    _copysign_vjp,
    "CopysignBackward0",
    "g * sign(a) * sign(b) (0 where a = 0), 0",
    sym=lambda sp, a, b: sp.Abs(a) * sp.sign(b),
    kind="binary",
    kink="the gradient is 0 where a = 0 and 0 for b everywhere, as PyTorch",
    signature="copysign(a, b)",
    samples=binary_samples(avoid=(0.0,), gap=0.1),
    to_torch="torch.copysign",
    to_jax="jnp.copysign",
)


def _nextafter_vjp(g: Tensor, out: Tensor, a: Tensor, b: Tensor) -> tuple:
    # PyTorch 2.13's: the step to the next float is the identity in a where a != b (g
    # passes) and 0 where a == b (nextafter(a, a) is a; a +0 there whatever g, inf and nan
    # included: a `where`, measured); nothing flows to b (zeros). Forward mode takes the
    # same rule with the tangent as g.
    if a.requires_grad:
        moved = Tensor(np.broadcast_to(a.data != b.data, out.shape))
        ga = apply(where, moved, g, Tensor(np.zeros((), g.dtype)))
    else:
        ga = None
    return (ga, constant(np.zeros(g.shape, g.dtype)) if b.requires_grad else None)


def _nextafter_sym(sp: Any, a: Any, b: Any) -> Any:
    raise TypeError("nextafter has no closed form (one float step of a towards b)")


nextafter = defop(
    "nextafter",
    lambda a, b: np.nextafter(a, b).astype(np.result_type(a, b)),
    _nextafter_vjp,
    "NextafterBackward0",
    "g where a != b, 0",
    sym=_nextafter_sym,
    kind="binary",
    kink="a step of one float: its gradient is g in a (0 where a == b) and 0 in b, as PyTorch",
    signature="nextafter(a, b)",
    samples=binary_samples(),
    to_torch="torch.nextafter",
    to_jax="jnp.nextafter",
)


def _frexp_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    # PyTorch's: g / exponent.exp2() (the exponent is piecewise constant: no second term)
    _, e = np.frexp(x.data)
    return (g / constant(np.exp2(e).astype(x.dtype)),)


def _frexp_sym(sp: Any, x: Any) -> Any:
    # x / 2^e with e = floor(log2|x|) + 1: the exponent is a step function of x, which
    # sympy's derivative cannot evaluate
    raise TypeError("frexp has no closed form (its exponent is a step function of x)")


frexp = defop(
    "frexp",
    lambda x: np.frexp(x)[0].astype(x.dtype),
    _frexp_vjp,
    "FrexpBackward0",
    "g / 2^exponent",
    kink="the mantissa jumps at each power of two; its gradient there is the exponent's side "
    "np.frexp gives (PyTorch's)",
    signature="torch.frexp(x).mantissa",
    sym=_frexp_sym,
    samples=(Sample(((2, 3),), low=1.1, high=1.9), Sample(((4,),), low=-7.0, high=-4.5)),
    to_torch="lambda v: torch.frexp(v).mantissa",
    to_jax="lambda v: jnp.frexp(v)[0]",
)


def _zeta_vjp(g: Tensor, out: Tensor, s: Tensor, q: Tensor) -> tuple:
    if s.requires_grad:
        raise GradcliError("the derivative for 'zeta' is not implemented.").mirror(
            "NotImplementedError"
        )
    # PyTorch's for q: -g * s * zeta(s + 1, q)
    return (None, g * -s * apply(zeta, s + 1, q))


def _zeta_jvp(dots: tuple, out: Tensor, s: Tensor, q: Tensor) -> Tensor | None:
    # The tangent in q (gradcli's forward-mode Jacobians); a program's dual tensors through
    # zeta fail in PyTorch's words (`dual.NO_FORWARD_AD`: PyTorch has no formula for it).
    ds, dq = dots
    if ds is not None:
        raise GradcliError("the derivative for 'zeta' is not implemented.").mirror(
            "NotImplementedError"
        )
    return None if dq is None else dq * (-s * apply(zeta, s + 1, q))


def _zeta_fwd(s: np.ndarray, q: np.ndarray) -> np.ndarray:
    if s.dtype == np.float32:  # ATen's float instantiation: its first term powf's
        with np.errstate(all="ignore"):
            return SF.zeta(s, q, float_first=True).astype(np.float32)
    return _precise(_quiet(SF.zeta))(s, q)


zeta = defop(
    "zeta",
    _zeta_fwd,
    _zeta_vjp,
    "SpecialZetaBackward0",
    "not differentiable in s (as PyTorch); -g * s * zeta(s + 1, q) in q",
    sym=lambda sp, s, q: sp.zeta(s, q),
    jvp=_zeta_jvp,
    kind="binary",
    signature="zeta(s, q)",
    samples=(
        Sample(((2, 3), (2, 3)), low=0.5, high=4.0, fixed={0: np.array([[1.5, 2.0, 3.0]] * 2)}),
        Sample(((3,), (2, 1)), low=0.5, high=4.0, fixed={0: np.array([2.5, 4.0, 1.25])}),
    ),
    to_torch="torch.special.zeta",
    to_jax="jax.scipy.special.zeta",
)
dual.NO_FORWARD_AD["zeta"] = "special_zeta"


def _igamma_grad(which: str, sign: float) -> Any:
    def vjp(g: Tensor, out: Tensor, a: Tensor, x: Tensor) -> tuple:
        if a.requires_grad:
            raise GradcliError(f"the derivative for '{which}: input' is not implemented.").mirror(
                "NotImplementedError"
            )
        # PyTorch's for x: +-g * exp((a - 1) * log(x) - x - lgamma(a)), the density of Gamma(a)
        dens = ((a - 1) * apply(log, x) - x - apply(lgamma, a)).exp()
        return (None, g * dens if sign > 0 else g * -dens)

    return vjp


def _igamma_fwd(fn: Any) -> Any:
    def f(a: np.ndarray, x: np.ndarray) -> np.ndarray:
        from ..core import igamma as IG

        with np.errstate(all="ignore"):
            return getattr(IG, fn)(a, x)

    return f


igamma = defop(
    "igamma",
    _igamma_fwd("igamma"),
    _igamma_grad("igamma", 1.0),
    "IgammaBackward0",
    "not differentiable in a (as PyTorch); g * x**(a-1) exp(-x) / Gamma(a) in x",
    sym=lambda sp, a, x: sp.lowergamma(a, x) / sp.gamma(a),
    kind="binary",
    signature="igamma(a, x)",
    samples=(
        Sample(((2, 3), (2, 3)), low=0.2, high=4.0, fixed={0: np.array([[0.5, 1.5, 3.0]] * 2)}),
        Sample(((3,), (2, 1)), low=0.2, high=3.0, fixed={0: np.array([2.5, 0.75, 1.25])}),
    ),
    to_torch="torch.special.gammainc",
    to_jax="jax.scipy.special.gammainc",
)
igammac = defop(
    "igammac",
    _igamma_fwd("igammac"),
    _igamma_grad("igammac", -1.0),
    "IgammacBackward0",
    "not differentiable in a (as PyTorch); -g * x**(a-1) exp(-x) / Gamma(a) in x",
    sym=lambda sp, a, x: sp.uppergamma(a, x) / sp.gamma(a),
    kind="binary",
    signature="igammac(a, x)",
    samples=(
        Sample(((2, 3), (2, 3)), low=0.2, high=4.0, fixed={0: np.array([[0.5, 1.5, 3.0]] * 2)}),
        Sample(((3,), (2, 1)), low=0.2, high=3.0, fixed={0: np.array([2.5, 0.75, 1.25])}),
    ),
    to_torch="torch.special.gammaincc",
    to_jax="jax.scipy.special.gammaincc",
)
dual.NO_FORWARD_AD["igamma"] = "igamma"
dual.NO_FORWARD_AD["igammac"] = "igammac"
