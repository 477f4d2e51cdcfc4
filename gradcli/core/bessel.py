"""The Bessel functions of the first and second kind of orders 0 and 1 (torch.special's
bessel_j0, bessel_j1, bessel_y0, bessel_y1, spherical_bessel_j0, and the modified ones
modified_bessel_i0/i1/k0/k1, scaled_modified_bessel_k0/k1: Cephes' Chebyshev series, each
step `y * q - p + c` with the product and difference fused, K's `x * x - 2` fused too, K0's
logarithm of the double 0.5 * x in double) as ATen's scalar CPU kernels compute them, in the
argument's dtype (float32 or float64): Cephes' rational approximations (in x * x up to 5, in
25 / x^2 beyond, times the cosine and sine of a shifted x over sqrt(x)). The compiled
kernels fuse each Horner step `acc * z + c` and the first product of the final sum or
difference (`fma(a, cos, -(b * sin))`); the C library's cosf / sinf / logf give float32's
trigonometric and logarithm values. Identical to PyTorch 2.13's bits on the 40,000 float32
and float64 arguments measured in [-60, 60]. Also Airy's Ai (airy_ai): Cephes' rational
forms beyond +-2.09 and its power series between, summed until a term is below epsilon.
"""

from __future__ import annotations

import math

import numpy as np

from . import hooks
from .specfun import fma

# Cephes' coefficients (ATen's Math.h, bessel_j0_forward ... bessel_y1_forward).
_J0_PP = (
    0.0007969367292973471,
    0.08283523921074408,
    1.239533716464143,
    5.447250030587687,
    8.74716500199817,
    5.303240382353949,
    1.0,
)
_J0_PQ = (
    0.0009244088105588637,
    0.08562884743544745,
    1.2535274390105895,
    5.470977403304171,
    8.761908832370695,
    5.306052882353947,
    1.0,
)
_J0_QP = (
    -0.011366383889846916,
    -1.2825271867050931,
    -19.553954425773597,
    -93.20601521237683,
    -177.68116798048806,
    -147.07750515495118,
    -51.41053267665993,
    -6.050143506007285,
)
_J0_QQ = (
    64.3178256118178,
    856.4300259769806,
    3882.4018360540163,
    7240.467741956525,
    5930.727011873169,
    2062.0933166032783,
    242.0057402402914,
)
_J0_RP = (-4794432209.782018, 1956174919465.5657, -249248344360967.72, 9708622510473064.0)
_J0_RQ = (
    499.563147152651,
    173785.4016763747,
    48440965.83399621,
    11185553704.535683,
    2112775201154.892,
    310518229857422.56,
    3.1812195594320496e16,
    1.7108629408104315e18,
)
_J1_PP = (
    0.0007621256162081731,
    0.07313970569409176,
    1.1271960812968493,
    5.112079511468076,
    8.424045901417724,
    5.214515986823615,
    1.0,
)
_J1_PQ = (
    0.0005713231280725487,
    0.06884559087544954,
    1.105142326340617,
    5.073863861286015,
    8.399855543276042,
    5.209828486823619,
    1.0,
)
_J1_QP = (
    0.05108625947501766,
    4.982138729512334,
    75.82382841325453,
    366.7796093601508,
    710.8563049989261,
    597.4896124006136,
    211.68875710057213,
    25.207020585802372,
)
_J1_QQ = (
    74.23732770356752,
    1056.4488603826283,
    4986.410583376536,
    9562.318924047562,
    7997.041604473507,
    2826.1927851763908,
    336.0936078106983,
)
_J1_RP = (-899971225.7055594, 452228297998.19403, -72749424522181.83, 3682957328638529.0)
_J1_RQ = (
    620.8364781180543,
    256987.25675774884,
    83514679.14319493,
    22151159547.97925,
    4749141220799.914,
    784369607876235.9,
    8.952223361846274e16,
    5.322786203326801e18,
)
_Y0_PP = (
    0.0007969367292973471,
    0.08283523921074408,
    1.239533716464143,
    5.447250030587687,
    8.74716500199817,
    5.303240382353949,
    1.0,
)
_Y0_PQ = (
    0.0009244088105588637,
    0.08562884743544745,
    1.2535274390105895,
    5.470977403304171,
    8.761908832370695,
    5.306052882353947,
    1.0,
)
_Y0_QP = (
    -0.011366383889846916,
    -1.2825271867050931,
    -19.553954425773597,
    -93.20601521237683,
    -177.68116798048806,
    -147.07750515495118,
    -51.41053267665993,
    -6.050143506007285,
)
_Y0_QQ = (
    64.3178256118178,
    856.4300259769806,
    3882.4018360540163,
    7240.467741956525,
    5930.727011873169,
    2062.0933166032783,
    242.0057402402914,
)
_Y0_YP = (
    15592.436785523574,
    -14663929.59039716,
    5435264770.518765,
    -982136065717.9115,
    87590639439536.7,
    -3466283033847297.0,
    4.4273326857256984e16,
    -1.8495080043698668e16,
)
_Y0_YQ = (
    1041.2835366425984,
    626107.330137135,
    268919633.39381415,
    86400248710.3935,
    20297961275010.555,
    3171577528429750.5,
    2.5059625617265306e17,
)
_Y1_PP = (
    0.0007621256162081731,
    0.07313970569409176,
    1.1271960812968493,
    5.112079511468076,
    8.424045901417724,
    5.214515986823615,
    1.0,
)
_Y1_PQ = (
    0.0005713231280725487,
    0.06884559087544954,
    1.105142326340617,
    5.073863861286015,
    8.399855543276042,
    5.209828486823619,
    1.0,
)
_Y1_QP = (
    0.05108625947501766,
    4.982138729512334,
    75.82382841325453,
    366.7796093601508,
    710.8563049989261,
    597.4896124006136,
    211.68875710057213,
    25.207020585802372,
)
_Y1_QQ = (
    74.23732770356752,
    1056.4488603826283,
    4986.410583376536,
    9562.318924047562,
    7997.041604473507,
    2826.1927851763908,
    336.0936078106983,
)
_Y1_YP = (
    1263204747.9017804,
    -647355876379.1603,
    114509511541823.73,
    -8127702555013251.0,
    2.024394757135949e17,
    -7.788771962659501e17,
)
_Y1_YQ = (
    594.3015923461282,
    235564.09294306856,
    73481194.44597217,
    18760131610.870617,
    3882312774962.3857,
    620557727146953.8,
    6.871410873553005e16,
    3.9727060811656064e18,
)

_PIO4 = 0.785398163397448309615660845819875721
_3PIO4 = 2.356194490192344928846982537459627163
_SQ2OPI = 0.797884560802865355879892119868763737
_TWOOPI = 0.636619772367581343075535053490057448
_LIBM: list = []


def _libm_f32(name: str) -> object:
    """The C library's float function `name` (cosf, sinf, logf, acosf), or None without one."""
    if not _LIBM:
        lib = None
        try:
            import ctypes
            import ctypes.util

            found = ctypes.util.find_library("m")
            if found:
                lib = ctypes.CDLL(found)
                for fn in ("cosf", "sinf", "logf", "acosf"):
                    getattr(lib, fn).restype = ctypes.c_float
                    getattr(lib, fn).argtypes = [ctypes.c_float]
        except (OSError, AttributeError):
            lib = None
        _LIBM.append(lib)
    lib = _LIBM[0]
    return None if lib is None else getattr(lib, name)


def _libm(v: np.ndarray, name: str) -> np.ndarray:
    if v.dtype == np.float32:
        fn = _libm_f32(name)
        if fn is not None:
            return np.array([fn(t) for t in v.tolist()], np.float32)  # type: ignore[operator]
        ref = getattr(math, name[:-1])
        return np.array([ref(t) if t > 0 or name != "logf" else math.nan for t in v.tolist()])
    ref = getattr(math, name[:-1])
    with np.errstate(all="ignore"):
        return np.array([_safe(ref, t) for t in v.tolist()], np.float64)


def _safe(fn: object, t: float) -> float:
    try:
        return fn(t)  # type: ignore[operator]
    except ValueError:
        return -math.inf if t == 0 else math.nan


def _horner(z: np.ndarray, table: tuple[float, ...]) -> np.ndarray:
    dt = z.dtype.type
    acc = np.zeros_like(z)
    for c in table:
        acc = fma(acc, z, np.full_like(z, dt(c)))
    return acc


def _pieces(fn: object, x: np.ndarray) -> np.ndarray:
    """fn over x in pieces of 4096 (the clock checked between them), in x's dtype."""
    x = np.asarray(x, order="C")  # (a transposed view: out.reshape(-1) must be a view)
    out = np.empty_like(x)
    flat, res = x.reshape(-1), out.reshape(-1)
    for start in range(0, flat.size, 4096):
        hooks.observer.tick()
        with np.errstate(all="ignore"):
            res[start : start + 4096] = fn(flat[start : start + 4096])  # type: ignore[operator]
    return out


def _far(v: np.ndarray, key: str, shift: float, z: np.ndarray, second: bool) -> np.ndarray:
    """The form beyond 5: (pp / pq * cos(v - shift) - 5 / v * (qp / qq) * sin(v - shift))
    * sqrt(2 / pi) / sqrt(v) (the first kind), or with sin and cos swapped and a sum (the
    second kind)."""
    dt = v.dtype.type
    t = _TABLES[key]
    pp, pq = _horner(z, t["PP"]), _horner(z, t["PQ"])
    qp, qq = _horner(z, t["QP"]), _horner(z, t["QQ"])
    s = v - dt(shift)
    c, sn = _libm(s, "cosf"), _libm(s, "sinf")
    a = pp / pq
    b = dt(5.0) / v * (qp / qq)
    mixed = fma(a, sn, b * c) if second else fma(a, c, -(b * sn))
    return mixed * dt(_SQ2OPI) / np.sqrt(v)


def _j0(x: np.ndarray) -> np.ndarray:
    dt = x.dtype.type
    v = np.abs(x)
    out = np.full_like(x, np.nan)
    near = v <= dt(5.0)
    w = v[near]
    xx = w * w
    r = (xx - dt(5.78318596294678452118)) * (xx - dt(30.4712623436620863991))
    r = r * _horner(xx, _J0_RP) / _horner(xx, _J0_RQ)
    out[near] = np.where(w < dt(0.00001), dt(1.0) - w * w / dt(4.0), r)
    far = v > dt(5.0)
    w = v[far]
    out[far] = _far(w, "J0", _PIO4, dt(25.0) / (w * w), False)
    return out


def _j1(x: np.ndarray) -> np.ndarray:
    dt = x.dtype.type
    v = np.abs(x)
    out = np.full_like(x, np.nan)
    near = v <= dt(5.0)
    w = v[near]
    xx = w * w
    r = _horner(xx, _J1_RP) / _horner(xx, _J1_RQ) * w
    out[near] = r * (xx - dt(14.6819706421238932572)) * (xx - dt(49.2184563216946036703))
    far = v > dt(5.0)
    w = v[far]
    out[far] = _far(w, "J1", _3PIO4, dt(5.0) / w * (dt(5.0) / w), False)
    return np.where(x < 0, -out, out)


def _y0(x: np.ndarray) -> np.ndarray:
    dt = x.dtype.type
    out = np.full_like(x, np.nan)
    near = (x <= dt(5.0)) & (x > 0)
    w = x[near]
    xx = w * w
    ratio = _horner(xx, _Y0_YP) / _horner(xx, _Y0_YQ)
    out[near] = fma(dt(_TWOOPI) * _libm(w, "logf"), _j0(w), ratio)
    out[x == 0] = -np.inf
    far = x > dt(5.0)
    w = x[far]
    out[far] = _far(w, "Y0", _PIO4, dt(25.0) / (w * w), True)
    return out


def _y1(x: np.ndarray) -> np.ndarray:
    dt = x.dtype.type
    out = np.full_like(x, np.nan)
    near = (x <= dt(5.0)) & (x > 0)
    w = x[near]
    xx = w * w
    ratio = _horner(xx, _Y1_YP) / _horner(xx, _Y1_YQ)
    inner = fma(_j1(w), _libm(w, "logf"), -(dt(1.0) / w))
    out[near] = fma(w, ratio, dt(_TWOOPI) * inner)
    out[x == 0] = -np.inf
    far = x > dt(5.0)
    w = x[far]
    out[far] = _far(w, "Y1", _3PIO4, dt(5.0) / w * (dt(5.0) / w), True)
    return out


_TABLES = {
    key: {part: globals()[f"_{key}_{part}"] for part in ("PP", "PQ", "QP", "QQ")}
    for key in ("J0", "J1", "Y0", "Y1")
}


def bessel_j0(x: np.ndarray) -> np.ndarray:
    return _pieces(_j0, x)


def bessel_j1(x: np.ndarray) -> np.ndarray:
    return _pieces(_j1, x)


def bessel_y0(x: np.ndarray) -> np.ndarray:
    return _pieces(_y0, x)


def bessel_y1(x: np.ndarray) -> np.ndarray:
    return _pieces(_y1, x)


# spherical_bessel_j0's series below 0.5: 1 + x^2 (-1/6 + x^2 (1/120 + ...)), the quotients
# rounded in the dtype, each step fused.
_SPHERICAL = (6227020800.0, -39916800.0, 362880.0, -5040.0, 120.0, -6.0)


def _spherical_j0(x: np.ndarray) -> np.ndarray:
    dt = x.dtype.type
    xx = x * x
    acc = np.full_like(x, dt(1.0) / dt(_SPHERICAL[0]))
    for d in _SPHERICAL[1:]:
        c = dt(-1.0) / dt(-d) if d < 0 else dt(1.0) / dt(d)
        acc = fma(xx, acc, np.full_like(x, c))
    series = fma(xx, acc, np.full_like(x, dt(1.0)))
    quotient = _libm(x, "sinf") / x
    out = np.where(np.abs(x) < dt(0.5), series, quotient)
    return np.where(np.isinf(x), dt(0.0), out)


def spherical_bessel_j0(x: np.ndarray) -> np.ndarray:
    return _pieces(_spherical_j0, x)


# The modified Bessel functions' Chebyshev coefficients of K0 and K1 (Cephes; I0's and I1's
# are specfun's).
_K0_A = (
    1.374465435613523e-16,
    4.25981614279661e-14,
    1.0349695257633842e-11,
    1.904516377220209e-09,
    2.5347910790261494e-07,
    2.286212103119452e-05,
    0.001264615411446926,
    0.0359799365153615,
    0.3442898999246285,
    -0.5353273932339028,
)
_K0_B = (
    5.300433772686263e-18,
    -1.6475804301524212e-17,
    5.2103915050390274e-17,
    -1.678231096805412e-16,
    5.512055978524319e-16,
    -1.848593377343779e-15,
    6.3400764774050706e-15,
    -2.2275133269916698e-14,
    8.032890775363575e-14,
    -2.9800969231727303e-13,
    1.140340588208475e-12,
    -4.514597883373944e-12,
    1.8559491149547177e-11,
    -7.957489244477107e-11,
    3.577397281400301e-10,
    -1.69753450938906e-09,
    8.574034017414225e-09,
    -4.660489897687948e-08,
    2.766813639445015e-07,
    -1.8317555227191195e-06,
    1.39498137188765e-05,
    -0.00012849549581627802,
    0.0015698838857300533,
    -0.0314481013119645,
    2.4403030820659555,
)
_K1_A = (
    -7.023863479386288e-18,
    -2.427449850519366e-15,
    -6.666901694199329e-13,
    -1.4114883926335278e-10,
    -2.213387630734726e-08,
    -2.4334061415659684e-06,
    -0.0001730288957513052,
    -0.006975723859639864,
    -0.12261118082265715,
    -0.3531559607765449,
    1.5253002273389478,
)
_K1_B = (
    -5.756744483665017e-18,
    1.7940508731475592e-17,
    -5.689462558442859e-17,
    1.838093544366639e-16,
    -6.057047248373319e-16,
    2.038703165624334e-15,
    -7.019837090418314e-15,
    2.4771544244813043e-14,
    -8.976705182324994e-14,
    3.3484196660784293e-13,
    -1.2891739609510289e-12,
    5.13963967348173e-12,
    -2.1299678384275683e-11,
    9.218315187605006e-11,
    -4.1903547593418965e-10,
    2.015049755197033e-09,
    -1.0345762465678097e-08,
    5.7410841254500495e-08,
    -3.5019606030878126e-07,
    2.406484947837217e-06,
    -1.936197974166083e-05,
    0.00019521551847135162,
    -0.002857816859622779,
    0.10392373657681724,
    2.7206261904844427,
)


def _cheb(y: np.ndarray, table: tuple[float, ...]) -> np.ndarray:
    """0.5 * (a - p) of Cephes' chbevl, as ATen's loops write it (`y * q - p + c`, the product
    and difference fused)."""
    dt = y.dtype.type
    p, q, a = np.zeros_like(y), np.zeros_like(y), np.full_like(y, dt(table[0]))
    for c in table[1:]:
        p, q = q, a
        a = fma(y, q, -p) + dt(c)
    return dt(0.5) * (a - p)


def _exp(v: np.ndarray) -> np.ndarray:
    from .specfun import _exp_c

    return _exp_c(v)


def _mi0(x: np.ndarray) -> np.ndarray:
    from .specfun import _I0_A, _I0_B

    dt = x.dtype.type
    v = np.abs(x)
    out = np.full_like(x, np.nan)
    near = v <= dt(8.0)
    w = v[near]
    out[near] = _exp(w) * _cheb(w / dt(2.0) - dt(2.0), _I0_A)
    far = v > dt(8.0)
    w = v[far]
    out[far] = _exp(w) * _cheb(dt(32.0) / w - dt(2.0), _I0_B) / np.sqrt(w)
    return out


def _mi1(x: np.ndarray) -> np.ndarray:
    from .specfun import _I1_A, _I1_B

    dt = x.dtype.type
    v = np.abs(x)
    out = np.full_like(x, np.nan)
    near = v <= dt(8.0)
    w = v[near]
    out[near] = _cheb(w / dt(2.0) - dt(2.0), _I1_A) * w * _exp(w)
    far = v > dt(8.0)
    w = v[far]
    out[far] = _exp(w) * _cheb(dt(32.0) / w - dt(2.0), _I1_B) / np.sqrt(w)
    return np.where(x < 0, -out, out)


def _k(x: np.ndarray, order: int, scaled: bool) -> np.ndarray:
    dt = x.dtype.type
    out = np.full_like(x, np.nan)
    out[x == 0] = np.inf
    near = (x > 0) & (x <= dt(2.0))
    w = x[near]
    cheb = _cheb(fma(w, w, np.full_like(w, -dt(2.0))), _K0_A if order == 0 else _K1_A)
    if order == 0 and not scaled:
        # std::log(0.5 * x): of a double (0.5 is one), the difference taken in double
        lg = _libm(np.float64(0.5) * w.astype(np.float64), "logf")
        r = fma(-lg, _mi0(w).astype(np.float64), cheb.astype(np.float64)).astype(dt)
    elif order == 0:  # (the scaled form's log is of T(0.5) * x, in the dtype)
        r = fma(-_libm(dt(0.5) * w, "logf"), _mi0(w), cheb)
    else:
        r = fma(_libm(dt(0.5) * w, "logf"), _mi1(w), cheb / w)
    out[near] = r * _exp(w) if scaled else r
    far = x > dt(2.0)
    w = x[far]
    cheb = _cheb(dt(8.0) / w - dt(2.0), _K0_B if order == 0 else _K1_B)
    out[far] = cheb / np.sqrt(w) if scaled else _exp(-w) * cheb / np.sqrt(w)
    return out


def modified_bessel_i0(x: np.ndarray) -> np.ndarray:
    return _pieces(_mi0, x)


def modified_bessel_i1(x: np.ndarray) -> np.ndarray:
    return _pieces(_mi1, x)


def modified_bessel_k0(x: np.ndarray) -> np.ndarray:
    return _pieces(lambda v: _k(v, 0, False), x)


def modified_bessel_k1(x: np.ndarray) -> np.ndarray:
    return _pieces(lambda v: _k(v, 1, False), x)


def scaled_modified_bessel_k0(x: np.ndarray) -> np.ndarray:
    return _pieces(lambda v: _k(v, 0, True), x)


def scaled_modified_bessel_k1(x: np.ndarray) -> np.ndarray:
    return _pieces(lambda v: _k(v, 1, True), x)


# Airy's Ai (Cephes' airy): rational forms in 1 / zeta beyond 2.09, in z^2 below -2.09, its
# power series between.
_AIRY_AN = (
    0.346538101525629,
    12.007595273964581,
    76.27960536152345,
    168.08922493463058,
    159.75639135016442,
    70.53609068404442,
    14.026469116338967,
    1.0,
)
_AIRY_AD = (
    0.5675945326387702,
    14.75625625848472,
    84.51389701414746,
    177.31808814540045,
    164.2346928715297,
    71.47784008255756,
    14.095913560783403,
    1.0,
)
_AIRY_AFN = (
    -0.1316963234183318,
    -0.6264565444319123,
    -0.6931580360369335,
    -0.2797799815451191,
    -0.04919001326095003,
    -0.004062659235948854,
    -0.0001592764962392621,
    -2.776491081552329e-06,
    -1.6778769848911465e-08,
)
_AIRY_AFD = (
    13.356042070655324,
    32.682503279522464,
    26.736704094149957,
    9.187074029072596,
    1.4752914677166642,
    0.11568717379518804,
    0.004402916416152112,
    7.547203482874142e-05,
    4.5185009297058035e-07,
)
_AIRY_AGN = (
    0.01973399320916857,
    0.39110302961568827,
    1.0657989759959559,
    0.9391692298166502,
    0.35146565610554764,
    0.06338889196289255,
    0.005858041130483885,
    0.000282851600836737,
    6.98793669997261e-06,
    8.117892395543892e-08,
    3.415517847659236e-10,
)
_AIRY_AGD = (
    9.30892908077442,
    19.835292871831214,
    15.564662893286462,
    5.476860694229755,
    0.9542936116189619,
    0.08645808263523921,
    0.004126565238242226,
    0.00010125908511650914,
    1.1716673321441352e-06,
    4.9183457006293e-09,
)


def _airy(x: np.ndarray) -> np.ndarray:
    dt = x.dtype.type
    out = np.zeros_like(x)
    out[np.isnan(x)] = np.nan
    out[np.isinf(x)] = np.nan
    low = x < dt(-2.09)
    if low.any():
        w = x[low]
        root = np.sqrt(-w)
        z = dt(1.0) / (dt(-2.0) * w * root / dt(3.0))
        zz = z * z
        afn, afd = _horner(zz, _AIRY_AFN), _horner(zz, _AIRY_AFD)
        agn, agd = _horner(zz, _AIRY_AGN), _horner(zz, _AIRY_AGD)
        t = dt(-2.0) * w * root / dt(3.0) + dt(0.25) * dt(np.pi)
        first = dt(1.0) + zz * afn / afd
        second = z * agn / agd
        s, c = _libm(t, "sinf"), _libm(t, "cosf")
        mixed = fma(s, first, -(c * second))
        out[low] = dt(0.564189583547756286948) / np.sqrt(root) * mixed
    high = (x >= dt(2.09)) & (x <= dt(103.892))
    if high.any():
        w = x[high]
        zeta = dt(2.0) * w * np.sqrt(w) / dt(3.0)
        inv = dt(1.0) / zeta
        an, ad = _horner(inv, _AIRY_AN), _horner(inv, _AIRY_AD)
        e = _exp(zeta)
        out[high] = dt(0.564189583547756286948) * (an / ad) / (dt(2.0) * np.sqrt(np.sqrt(w)) * e)
    mid = (x >= dt(-2.09)) & (x < dt(2.09))
    if mid.any():
        w = x[mid]
        f, g, k = np.ones_like(w), w.copy(), np.ones_like(w)
        m, n, t = np.ones_like(w), w.copy(), np.ones_like(w)
        z = w * w * w
        eps = dt(np.finfo(x.dtype).eps)
        on = t > eps
        while on.any():
            hooks.observer.tick()
            m2 = m * z
            k2 = k + dt(1)
            m2 = m2 / k2
            n2 = n * z
            k2 = k2 + dt(1)
            n2 = n2 / k2
            m2 = m2 / k2
            f2 = f + m2
            k2 = k2 + dt(1)
            n2 = n2 / k2
            g2 = g + n2
            t2 = np.abs(m2 / f2)
            m, n, k = np.where(on, m2, m), np.where(on, n2, n), np.where(on, k2, k)
            f, g, t = np.where(on, f2, f), np.where(on, g2, g), np.where(on, t2, t)
            on = t > eps
        out[mid] = fma(
            np.full_like(f, dt(0.355028053887817239260)), f, -(dt(0.258819403792806798405) * g)
        )
    return out


def airy_ai(x: np.ndarray) -> np.ndarray:
    return _pieces(_airy, x)
