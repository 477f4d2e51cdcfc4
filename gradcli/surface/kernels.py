"""ATen's CPU pointwise kernels where their rounding is not NumPy's: the fused multiply-adds.

PyTorch's CPU kernels for `add(alpha=)`, `addcmul`, `lerp` (and linspace) are compiled with
floating-point contraction: `self + alpha * other` is one fused multiply-add (one rounding), in
the vectorised loop (`vec::fmadd`) and in the scalar loop for the tail alike. NumPy rounds the
product and the sum separately, which differs in the last bit for most inputs. Measured against
PyTorch 2.13 (AVX512 and AVX2 kernels, sizes 1 to 1000, float32 and float64), each function
here gives PyTorch's bits:

    add(a, b, alpha)           fma(b, alpha, a)
    addcmul(a, t1, t2, value)  fma(value * t1, t2, a)
    addcdiv(a, t1, t2, value)  a + (value * t1) / t2        (no contraction: a quotient)
    lerp(a, b, w)              fma(w, b - a, a) if |w| < 0.5, else fma(w - 1, b - a, b)
    mul(a, s)                  a * s

A Python number joins as c10's `Scalar.to<opmath_t>()` does: rounded once to the float type
the kernel computes in (float32 for float32 and float16 tensors, float64 for float64). float16
tensors are computed in float32 and rounded back, as ATen's reduced-precision kernels do.
Integer tensors compute exactly in their own type.

These are what the optimisers (`optim`) and the in-place methods (`x.add_(g, alpha=-lr)`)
compute with, so that a training loop in float32 follows PyTorch's trajectory bit for bit.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import vmlsqrt
from ..core.dtypes import BF16 as _BF16
from ..core.dtypes import round_bf16
from ..core.fma64 import _fma64
from ..core.powf32 import _FEW, fma32, fma32_few


def _fma(*args: Any) -> Any:
    from .sampling import random_module  # `random`, configured (its clock check)

    return random_module().fma(*args)


_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
# elements up to which `add` calls the float32 fma at once (the general path computes a larger
# one in pieces, the clock checked between them)
_FMA_DIRECT = 1 << 16


_OPMATH: dict[Any, np.dtype] = {}


def opmath(dt: np.dtype) -> np.dtype:
    """The type ATen computes a dtype's pointwise kernels in (`at::opmath_type`)."""
    out = _OPMATH.get(dt)
    if out is None:
        d = np.dtype(dt)
        out = d if d.kind != "f" else _F64 if d == _F64 else _F32
        if len(_OPMATH) < 64:
            _OPMATH[dt] = out
    return out


def scalar(v: Any, dt: np.dtype) -> Any:
    """A Python number (or a 0-d array) as the kernel of dtype `dt` sees it."""
    ct = opmath(dt)
    if type(v) is float and ct.kind == "f":
        return ct.type(v)  # (the float64 rounded once to the kernel's type, as astype)
    return np.asarray(v).astype(ct, copy=False)[()]


def _in(a: Any, dt: np.dtype) -> np.ndarray:
    if type(a) is np.ndarray:
        ct = opmath(dt)
        return a if a.dtype == ct else a.astype(ct)
    return np.asarray(a).astype(opmath(dt), copy=False)


def _out(values: Any, dt: np.dtype) -> np.ndarray:
    if type(values) is np.ndarray and values.dtype == dt:
        return values
    if dt == _BF16:  # float32 values rounded to bfloat16 once, as ATen's kernels
        return round_bf16(values)
    return np.asarray(values).astype(dt, copy=False)


def _result_dtype(a: Any) -> np.dtype:
    return a.dtype if type(a) is np.ndarray else np.asarray(a).dtype


def fma(a: Any, b: Any, c: Any, dt: np.dtype) -> np.ndarray:
    """a * b + c rounded once, in the type dtype `dt` computes in, returned in `dt`."""
    ct = opmath(dt)
    if ct.kind != "f":
        return _out(np.asarray(a) * np.asarray(b) + np.asarray(c), dt)
    a, b, c = _in(a, dt), _in(b, dt), _in(c, dt)
    if ct == _F32 and a.size <= _FMA_DIRECT and b.size <= _FMA_DIRECT:
        # small float32 (an optimiser's step, lerp, addcmul): straight to the exact fma, with
        # the operand of the result's shape first (fma32 computes in its shape; the others
        # broadcast into it). The same bits: both are the correctly rounded fma.
        shape = np.broadcast_shapes(a.shape, b.shape, c.shape)
        if a.shape == shape and a.ndim:
            return _out(fma32(a, b, c), dt)
        if b.shape == shape and b.ndim:
            return _out(fma32(b, a, c), dt)
    elif (
        ct == _F64
        and (a.ndim or b.ndim or c.ndim)
        and max(a.size, b.size, c.size) <= _FMA_DIRECT
        and math.prod(np.broadcast_shapes(a.shape, b.shape, c.shape)) <= _FMA_DIRECT
    ):
        # small float64 (Adam's step on a float64 model): the emulated fma the general path
        # reaches too, without its flattening and pieces (it broadcasts the operands itself;
        # 0-d ones only: NumPy's arithmetic would give scalars)
        return _out(_fma64(a, b, c), dt)
    return _fma_general(a, b, c, dt)


def _fma_general(a: np.ndarray, b: np.ndarray, c: np.ndarray, dt: np.dtype) -> np.ndarray:
    """`fma` of float operands of any size: broadcast, flattened, by the random module's fma
    (in pieces when large, the clock checked between them)."""
    ct = opmath(dt)
    a, b, c = np.broadcast_arrays(a, b, c)
    shape = a.shape
    flat = (np.reshape(v, -1) for v in (a, b, c))  # the emulation indexes: no 0-d arrays
    return _out(_fma(*flat, ct).reshape(shape), dt)


def add(a: Any, b: Any, alpha: Any = 1) -> np.ndarray:
    """`a.add(b, alpha=alpha)`: a + alpha * b, one rounding (ATen's ufunc add)."""
    dt = _result_dtype(a)
    if opmath(dt).kind != "f":
        return _out(np.asarray(a) + np.asarray(alpha) * np.asarray(b), dt)
    if alpha == 1:
        if dt == _F32 and type(b) is np.ndarray and b.dtype == _F32:
            return _out(a + b, dt)  # (both float32 already: what `_in` gives)
        return _out(_in(a, dt) + _in(b, dt), dt)
    if dt == _F16:
        return _add_half(np.asarray(a), np.asarray(b), np.float16(alpha))
    if dt == _BF16:
        return _add_bf16(np.asarray(a), np.asarray(b), np.float32(round_bf16(alpha)))
    if (
        dt == _F32
        and type(a) is np.ndarray
        and type(b) is np.ndarray
        and b.dtype == _F32
        and a.shape == b.shape
        and a.size <= _FMA_DIRECT
    ):
        # An optimiser's step (p + alpha * grad, both float32 of one shape): straight to the
        # exact fma, without the general path's broadcasting and reshapes (the same bits:
        # both are the correctly rounded fma); a few elements in Python floats
        al = scalar(alpha, dt)
        if a.size <= _FEW:
            got = fma32_few(b, float(al), a)
            if got is not None:
                return got
        return fma32(b, al, a)
    return fma(b, scalar(alpha, dt), a, dt)


# elements of float16 ATen's vectorised loop takes at a time (2 vectors of 16 halves, AVX2)
_HALF_STEP = 32


def _add_half(a: np.ndarray, b: np.ndarray, alpha: np.float16) -> np.ndarray:
    """a + alpha * b of float16 tensors as ATen's reduced-precision add (measured, 2.13):
    alpha taken as a half; the vectorised loop computes in float32, product and sum not
    fused, then rounds to half; the tail of two tensors of one shape (the last n % 32
    elements, past its whole steps) is its scalar loop's, in half arithmetic (the product
    rounded to half, then the sum)."""
    wide = a.astype(_F32) + np.float32(alpha) * b.astype(_F32)
    out = wide.astype(_F16)
    if a.shape == b.shape and a.size % _HALF_STEP:
        flat = out.reshape(-1)
        tail = slice(a.size - a.size % _HALF_STEP, None)
        prod = (np.float32(alpha) * b.reshape(-1)[tail].astype(_F32)).astype(_F16)
        flat[tail] = (a.reshape(-1)[tail].astype(_F32) + prod.astype(_F32)).astype(_F16)
    return out


def _add_bf16(a: np.ndarray, b: np.ndarray, alpha: np.float32) -> np.ndarray:
    """a + alpha * b of bfloat16 tensors as ATen's reduced-precision add, as `_add_half`
    (measured, 2.13): alpha a bfloat16; the vectorised loop in float32, rounded once (the
    product of two bfloat16 values is exact in float32); the tail of two tensors of one shape
    (the last n % 32 elements) in bfloat16 arithmetic, the product rounded, then the sum."""
    out = round_bf16(a.astype(_F32) + alpha * b.astype(_F32))
    if a.shape == b.shape and a.size % _HALF_STEP:
        flat = out.reshape(-1)
        tail = slice(a.size - a.size % _HALF_STEP, None)
        prod = round_bf16(alpha * b.reshape(-1)[tail].astype(_F32)).astype(_F32)
        flat[tail] = round_bf16(a.reshape(-1)[tail].astype(_F32) + prod)
    return out


def mul(a: Any, s: Any) -> np.ndarray:
    """`a.mul(s)` for a Python number s."""
    dt = _result_dtype(a)
    return _out(_in(a, dt) * scalar(s, dt), dt)


def div(a: Any, s: Any) -> np.ndarray:
    """`a / s` for a Python number s (a true division by the rounded number)."""
    dt = _result_dtype(a)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _out(_in(a, dt) / scalar(s, dt), dt)


def sqrt(a: Any) -> np.ndarray:
    """`a.sqrt()`: MKL's bits for float32 and float64 (`core.vmlsqrt`); float16 through
    float32, correctly rounded, as ATen."""
    dt = _result_dtype(a)
    with np.errstate(invalid="ignore"):
        return _out(vmlsqrt.sqrt(_in(a, dt)), dt)


def addcmul(a: Any, t1: Any, t2: Any, value: Any = 1) -> np.ndarray:
    """`a.addcmul(t1, t2, value=value)`: a + (value * t1) * t2, the last step fused."""
    dt = _result_dtype(a)
    return fma(_in(t1, dt) * scalar(value, dt), _in(t2, dt), a, dt)


def addcdiv(a: Any, t1: Any, t2: Any, value: Any = 1) -> np.ndarray:
    """`a.addcdiv(t1, t2, value=value)`: a + (value * t1) / t2."""
    dt = _result_dtype(a)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _out(_in(a, dt) + (scalar(value, dt) * _in(t1, dt)) / _in(t2, dt), dt)


def lerp(a: Any, b: Any, weight: Any) -> np.ndarray:
    """`a.lerp(b, weight)` for a Python number weight (ATen's lerp_kernel_scalar_weight)."""
    dt = _result_dtype(a)
    w = scalar(weight, dt)
    a_, b_ = _in(a, dt), _in(b, dt)
    diff = b_ - a_
    if abs(w) < 0.5:
        return fma(w, diff, a_, dt)
    return fma(w - w.dtype.type(1), diff, b_, dt)


# MKL's ?dot lives in core.mkldot (the ops layer's matmul of two vectors computes it too).
from ..core.mkldot import DOT_EXACT_MAX, dot  # noqa: E402, F401
