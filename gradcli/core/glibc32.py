"""The C library's scalar `logf` and `log1pf` (glibc's, what ATen's scalar loops call: the
binary_cross_entropy kernel, element by element) for whole NumPy arrays, bit for bit.

Calling them one element at a time through ctypes costs about 2 us an element, so
`sleef32.libm` did it for at most `LIBM_CALLS` elements and rounded a float64 result for more;
that differs from glibc in a last bit for 0.7% (logf) and 7% (log1pf) of the arguments, so an
MNIST-sized `F.binary_cross_entropy` (a VAE's 64 x 784 pixels) printed another loss than
PyTorch's. Here both are computed in NumPy:

- `log1pf` is the fdlibm algorithm glibc keeps in s_log1pf.c: float arithmetic throughout
  (a baseline build: no fused steps), k from the exponent of 1 + x with a correction term,
  f = u - 1 reduced to [sqrt(2)/2, sqrt(2)), s = f / (2 + f) and a degree-7 polynomial in s^2.
- `logf` is the table algorithm glibc has had since 2.28 (e_logf.c): x = 2^k z, a 16-entry table
  of 1/c and log(c) picked by the top mantissa bits, r = z/c - 1 and a cubic, in float64, rounded
  once. The table and the cubic are not written here: they are read from the C library this
  process loads (found in its read-only data by their shape: 16 pairs (1/c, log c) followed by
  ln 2 and three coefficients). The fused r = fma(z, 1/c, -1) is computed exactly (1/c split in
  halves, Sterbenz's lemma), k ln2 + log c exactly (as a fraction, once per (k, c)); the cubic's
  steps unfused are within two units of the last float64 place of glibc's, so an element whose
  float64 value lies within 2^-44 of a float32 rounding boundary is asked of the C library
  itself (about one in a million).

Nothing is assumed about the machine: before its first use each emulation is compared, element
for element, with the C library's function on a fixed set of about 6,000 arguments (random
mantissas over the exponent range, the boundaries of each branch, zeros, subnormals,
infinities, NaN); if the library cannot be read or called, or one element differs (another
glibc, another libm), `proven` answers False and the caller keeps the scalar calls."""

from __future__ import annotations

import struct
from fractions import Fraction

import numpy as np

_F = np.float32
_LN2 = float.fromhex("0x1.62e42fefa39efp-1")

# fdlibm's constants for log1pf (their float bit patterns)
_LN2_HI = np.array(0x3F317180, np.uint32).view(_F)
_LN2_LO = np.array(0x3717F7D1, np.uint32).view(_F)
_LP = tuple(
    np.array(b, np.uint32).view(_F)
    for b in (0x3F2AAAAB, 0x3ECCCCCD, 0x3E924925, 0x3E638E29, 0x3E3A3325, 0x3E1CD04F, 0x3E178897)
)
_AMBIGUOUS = 2.0**-44  # relative distance from a float32 rounding boundary asked of the library


def _bits(x: np.ndarray) -> np.ndarray:
    return x.view(np.int32)


def _from_bits(b: np.ndarray) -> np.ndarray:
    return np.asarray(b, np.int32).view(_F)


def log1pf(x: np.ndarray) -> np.ndarray:
    """glibc's log1pf (fdlibm's s_log1pf.c) on a float32 array."""
    x = np.ascontiguousarray(x, _F)
    hx = _bits(x)
    ax = hx & 0x7FFFFFFF
    with np.errstate(all="ignore"):
        below = hx < 0x3ED413D7  # x < 0.41422 (and every negative x)
        le_m1 = below & (ax >= 0x3F800000)  # x <= -1
        out = np.where(le_m1 & (x == _F(-1)), _F(-np.inf), (x - x) / (x - x))
        done = le_m1.copy()
        tiny = below & ~done & (ax < 0x31000000)  # |x| < 2^-29
        out = np.where(tiny, np.where(ax < 0x24800000, x, x - x * x * _F(0.5)), out)
        done |= tiny
        big = ~done & (hx >= 0x7F800000)  # inf, nan
        out = np.where(big, x + x, out)
        done |= big
        # -0.2929 < x < 0.41422: k = 0, f = x
        k0 = ~done & below & ((hx > 0) | (hx <= np.int32(-0x416A09E1)))
        kp = ~done & ~k0
        small = kp & (hx < 0x5A000000)
        u = np.where(small, _F(1) + x, x)
        hu = _bits(u)
        k = np.where(kp, (hu >> 23) - 127, 0).astype(np.int32)
        c = np.where(k > 0, _F(1) - (u - x), x - (u - _F(1))) / u  # the correction term
        c = np.where(small, c, _F(0))
        hu = hu & 0x007FFFFF
        low = hu < 0x3504F7
        u = np.where(low, _from_bits(hu | 0x3F800000), _from_bits(hu | 0x3F000000))
        k = np.where(kp & ~low, k + 1, k)
        hu = np.where(low, hu, (0x00800000 - hu) >> 2)
        f = np.where(kp, u - _F(1), x)
        hu = np.where(kp, hu, 1)
        hfsq = _F(0.5) * f * f
        kf = k.astype(_F)
        # |f| < 2^-20
        r0 = hfsq * (_F(1) - _F(0.66666666666666666) * f)
        at_zero = np.where(k == 0, _F(0), kf * _LN2_HI + (c + kf * _LN2_LO))
        near = np.where(k == 0, f - r0, kf * _LN2_HI - ((r0 - (kf * _LN2_LO + c)) - f))
        near = np.where(f == 0, at_zero, near)
        s = f / (_F(2) + f)
        z = s * s
        p = _LP[6]
        for coef in _LP[5::-1]:
            p = coef + z * p
        r = z * p
        general = np.where(
            k == 0,
            f - (hfsq - s * (hfsq + r)),
            kf * _LN2_HI - ((hfsq - (s * (hfsq + r) + (kf * _LN2_LO + c))) - f),
        )
        out = np.where(done, out, np.where(hu == 0, near, general))
    return out.astype(_F)


# --- logf ---------------------------------------------------------------------------------

_TABLE: list = []  # [(1/c, log c, the cubic)] or [None] once looked for


def _libm_path() -> str | None:
    """The file of the C math library this process has loaded (as ctypes loads it)."""
    try:
        import ctypes
        import ctypes.util

        name = ctypes.util.find_library("m")
        if not name:
            return None
        ctypes.CDLL(name)
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split()[-1] if len(line.split()) >= 6 else ""
                if "/libm.so" in path or "/libm-" in path:
                    return path
    except OSError:
        return None
    return None


def _read_table() -> tuple | None:
    """glibc's __logf_data from the loaded library's bytes: 16 (1/c, log c) pairs, ln 2, three
    coefficients; exactly one place must have that shape."""
    path = _libm_path()
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    key = struct.pack("<d", _LN2)
    found = []
    at = data.find(key)
    while at >= 0:
        if at >= 256 and at + 32 <= len(data):
            tab = np.frombuffer(data[at - 256 : at], dtype="<f8").reshape(16, 2)
            invc, logc = tab[:, 0], tab[:, 1]
            with np.errstate(all="ignore"):
                shaped = bool(
                    np.all((invc > 0.5) & (invc < 2))
                    and np.all(np.abs(logc + np.log(invc)) < 1e-6)
                    and np.all(np.diff(invc) < 0)
                )
            if shaped:
                poly = np.frombuffer(data[at + 8 : at + 32], dtype="<f8")
                found.append((invc.astype(np.float64), logc.astype(np.float64), poly.copy()))
        at = data.find(key, at + 1)
    return found[0] if len(found) == 1 else None


def _table() -> tuple | None:
    if not _TABLE:
        _TABLE.append(_read_table())
    return _TABLE[0]


def _split(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """a = hi + lo exactly, hi with at most 26 significant bits (Veltkamp's split)."""
    c = a * 134217729.0
    hi = c - (c - a)
    return hi, a - hi


_Y0: dict[tuple[int, int], float] = {}  # fma(k, ln 2, log c) for the (k, i) met so far


def _k_ln2_plus_logc(k: np.ndarray, i: np.ndarray, logc: np.ndarray) -> np.ndarray:
    """fma(k, ln 2, log c) rounded once: exactly, as a fraction, once per (k, i) (k is the
    exponent: a few hundred values at most), then looked up."""
    key = k * 16 + i
    lo, hi = int(key.min()), int(key.max())
    dense = np.empty(hi - lo + 1)
    for kv in range(lo, hi + 1):
        kk, ii = divmod(kv, 16)
        v = _Y0.get((kk, ii))
        if v is None:
            v = _Y0[(kk, ii)] = float(Fraction(kk) * Fraction(_LN2) + Fraction(float(logc[ii])))
        dense[kv - lo] = v
    return dense[key - lo]


def _logf_double(x: np.ndarray, table: tuple) -> np.ndarray:
    """logf's float64 value before its rounding, for positive finite normal-or-subnormal x."""
    invc, logc, poly = table
    ix = x.view(np.uint32).astype(np.int64)
    sub = ix < 0x00800000
    if sub.any():  # subnormal: scaled by 2^23 first
        scaled = (x * _F(2.0**23)).view(np.uint32).astype(np.int64) - (23 << 23)
        ix = np.where(sub, scaled, ix)
    tmp = ix - 0x3F330000
    i = (tmp >> 19) % 16
    k = tmp >> 23  # (tmp is exact in int64: an arithmetic shift as glibc's int32 one)
    iz = ix - (tmp & -0x800000)
    z = iz.astype(np.uint32).view(_F).astype(np.float64)
    ih, il = _split(invc)
    r = (z * ih[i] - 1.0) + z * il[i]  # fma(z, invc, -1), exactly rounded
    y0 = _k_ln2_plus_logc(k, i, logc)
    r2 = r * r
    y = poly[1] * r + poly[2]
    y = poly[0] * r2 + y
    return y * r2 + (y0 + r)


def logf(x: np.ndarray, call=None) -> np.ndarray:
    """glibc's logf on a float32 array (`call`: the library's logf, for the elements whose
    float64 value is too near a float32 rounding boundary to round without it)."""
    table = _table()
    x = np.ascontiguousarray(x, _F)
    out = np.empty(x.shape, _F)
    with np.errstate(all="ignore"):
        plain = (x > 0) & np.isfinite(x) & (x != _F(1))
        out[~plain] = np.log(x[~plain].astype(np.float64)).astype(_F)  # 0, 1, inf, nan, < 0
        if table is None:
            raise RuntimeError("glibc's logf table is not readable here")
        xs = x[plain]
        y = _logf_double(xs, table)
        got = y.astype(_F)
        near = (y - np.abs(y) * _AMBIGUOUS).astype(_F) != (y + np.abs(y) * _AMBIGUOUS).astype(_F)
        if near.any():
            if call is None:
                raise RuntimeError("an element needs the C library's logf")
            got[near] = [call(v) for v in xs[near].tolist()]
        out[plain] = got
    return out


# --- the C library's scalar functions -------------------------------------------------------

_LIBM: dict = {}


def c_function(name: str):
    """The C library's float function `name` (float to float) through ctypes, or None where it
    cannot be loaded; loaded once."""
    if name not in _LIBM:
        _LIBM[name] = None
        try:
            import ctypes
            import ctypes.util

            lib = ctypes.util.find_library("m")
            if lib:
                f = getattr(ctypes.CDLL(lib), name)
                f.restype = ctypes.c_float
                f.argtypes = [ctypes.c_float]
                _LIBM[name] = f
        except (OSError, AttributeError):
            pass
    return _LIBM[name]


def c_double_function(name: str):
    """The C library's double function `name` (double to double) through ctypes, or None."""
    key = name + ":double"
    if key not in _LIBM:
        _LIBM[key] = None
        try:
            import ctypes
            import ctypes.util

            lib = ctypes.util.find_library("m")
            if lib:
                f = getattr(ctypes.CDLL(lib), name)
                f.restype = ctypes.c_double
                f.argtypes = [ctypes.c_double]
                _LIBM[key] = f
        except (OSError, AttributeError):
            pass
    return _LIBM[key]


# --- asinhf and acoshf ----------------------------------------------------------------------

_LN2_F = np.array(0x3F317218, np.uint32).view(_F)


def _inner_logf(x: np.ndarray) -> np.ndarray:
    """glibc's logf as asinhf and acoshf call it (the same function as the exported one)."""
    return logf(x, c_function("logf"))


def asinhf(x: np.ndarray) -> np.ndarray:
    """glibc's asinhf (fdlibm's s_asinhf.c, float arithmetic without fused steps) on a float32
    array: x itself below 2**-14 in magnitude; past 2**14, logf(|x|) + ln2; past 2, logf(2|x| +
    1/(sqrt(x*x + 1) + |x|)); else log1pf(|x| + x*x/(1 + sqrt(1 + x*x))); the sign of x put
    back."""
    x = np.ascontiguousarray(x, _F)
    ix = _bits(x) & 0x7FFFFFFF
    a = np.abs(x)
    one = _F(1)
    with np.errstate(all="ignore"):
        out = x + x  # inf and nan
        big = (ix > 0x47000000) & (ix < 0x7F800000)
        mid = (ix > 0x40000000) & (ix <= 0x47000000)
        small = (ix >= 0x38000000) & (ix <= 0x40000000)
        if big.any():
            out[big] = _inner_logf(a[big]) + _LN2_F
        if mid.any():
            m = a[mid]
            out[mid] = _inner_logf(_F(2) * m + one / (np.sqrt(m * m + one) + m))
        if small.any():
            m = a[small]
            t = m * m
            out[small] = log1pf(m + t / (one + np.sqrt(one + t)))
        out = np.where(ix < 0x38000000, x, np.copysign(out, x))
    return out.astype(_F)


def acoshf(x: np.ndarray) -> np.ndarray:
    """glibc's acoshf (fdlibm's e_acoshf.c): nan below 1; from 2**28, logf(x) + ln2; 0 at 1;
    past 2, logf(2x - 1/(x + sqrt(x*x - 1))); else log1pf(t + sqrt(2t + t*t)), t = x - 1."""
    x = np.ascontiguousarray(x, _F)
    hx = _bits(x)
    one = _F(1)
    with np.errstate(all="ignore"):
        out = np.where(hx < 0x3F800000, (x - x) / (x - x), x + x)  # x < 1; inf and nan
        big = (hx >= 0x4D800000) & (hx < 0x7F800000)
        mid = (hx > 0x40000000) & (hx < 0x4D800000)
        low = (hx > 0x3F800000) & (hx <= 0x40000000)
        if big.any():
            out[big] = _inner_logf(x[big]) + _LN2_F
        if mid.any():
            m = x[mid]
            out[mid] = _inner_logf(_F(2) * m - one / (m + np.sqrt(m * m - one)))
        if low.any():
            t = x[low] - one
            out[low] = log1pf(t + np.sqrt(_F(2) * t + t * t))
        out[hx == 0x3F800000] = 0
    return out.astype(_F)


# --- the proof -------------------------------------------------------------------------------

_PROVEN: dict[str, bool] = {}
_EMULATIONS = {"log1pf": log1pf, "logf": logf, "asinhf": asinhf, "acoshf": acoshf}


def _probe() -> np.ndarray:
    rng = np.random.default_rng(2026)
    mant = rng.integers(0, 1 << 23, 4096, dtype=np.int64)
    expo = rng.integers(0, 255, 4096, dtype=np.int64)
    sign = rng.integers(0, 2, 4096, dtype=np.int64) << 31
    spread = ((sign | (expo << 23) | mant) & 0xFFFFFFFF).astype(np.uint32).view(_F)
    near_one = (1 + rng.uniform(-0.05, 0.05, 1024)).astype(_F)
    unit = rng.random(1024).astype(_F)
    edges = np.array(
        [
            0,
            -0.0,
            1,
            -1,
            2,
            0.5,
            np.inf,
            -np.inf,
            np.nan,
            1e-45,
            1e-40,
            1.1754944e-38,
            3e38,
            0.41421,
            0.41422,
            0.414213,
            -0.29289,
            -0.2929,
            -0.29290,
            2**-29,
            -(2**-29),
            2**-54,
            3e-8,
            -3e-8,
            0.999999,
            1.000001,
            0.7,
            0.69999,
            1.4,
            1.41421,
            9.5367e-7,
            -0.99999994,
            float(2**23),
            float(2**60),
        ],
        _F,
    )
    return np.concatenate([spread, near_one, unit, -unit, edges])


def proven(name: str, call) -> bool:
    """Whether the emulation of the C library's `name` equals `call` (the library's function)
    on every probe argument (once a process)."""
    if name not in _PROVEN:
        ok = False
        emulate = _EMULATIONS.get(name)
        if emulate is not None and call is not None:
            try:
                x = _probe()
                with np.errstate(all="ignore"):
                    got = emulate(x, call) if name == "logf" else emulate(x)
                want = np.array([call(v) for v in x.tolist()], _F)
                same = got.view(np.int32) == want.view(np.int32)
                ok = bool(np.all(same | (np.isnan(got) & np.isnan(want))))
            except (RuntimeError, ValueError, OverflowError):
                ok = False
        _PROVEN[name] = ok
    return _PROVEN[name]


def emulated(name: str, x: np.ndarray, call) -> np.ndarray:
    """`name` (a proven emulation) on the float32 array x."""
    return logf(x, call) if name == "logf" else _EMULATIONS[name](x)
