"""Elementwise records of one tensor input: the unary functions (exp, log, sin, relu, erf,
gelu, clamp...) and the powers with a number, `x ** p` and `c ** x`.

Inside rules: `g` is the upstream gradient (it may carry `nb` leading batch axes,
`nb = g.ndim - out.ndim`), `out` the op's result, `x` its input. Rules use the records' own
differentiable operations (`ops.arithmetic`), so gradients can be differentiated again.
"""

from __future__ import annotations

import builtins
import math
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core import cpu, fma64, hooks, mkl32, onednn32, powf32, sleef32, vecloop, vmlsqrt
from ..core import saved as V
from ..core.dtypes import BF16
from ..core.half import narrowed
from ..core.op import Sample, apply, defop, unary_samples
from ..core.tensor import Tensor, _GradMode, constant, grad_enabled, mask_like
from . import act32
from .binary import sym_trunc, where, zero_slope

# NumPy's float64 dtype: an array's `dtype` is this one object for native float64 data (an
# identity test, the cheapest; any other dtype object takes the general path).
_F64 = np.dtype(np.float64)


def _precise(fn: Any) -> Any:
    """`fn` for float32 and float16 arrays through float64, rounded once.

    PyTorch's float32 tan, atan, erf, erfc, log2, log10 (and exp, log, tanh, asin, acos, sin,
    cos) run MKL's VML in its high-accuracy mode (vmsTan... with VML_HA, for every size,
    contiguous or not: ATen's `vml::vtan`). Its results are correctly rounded for most inputs;
    measured on 10**6 float32 normals, PyTorch differs from the correctly rounded value on:
    tan 0.6%, atan 0.04%, erf 2.6%; computing in float64 and rounding agrees with PyTorch
    everywhere else. exp, log, tanh, asin and acos are MKL's bit for bit (the
    float32 algorithms Intel publishes in its SVML sources, `core.mkl32`), sin and cos too (a
    measured model); the functions whose float32 kernels are open (SLEEF's, the C library's)
    are emulated bit for bit: `_float32`."""

    def precise(x: np.ndarray, *args: Any, **kwargs: Any) -> np.ndarray:
        if x.dtype is _F64:  # the common case, first: `fn` as it is
            return fn(x, *args, **kwargs)
        if x.dtype.kind == "f" and x.dtype.itemsize < 8:
            with np.errstate(over="ignore"):
                return fn(x.astype(np.float64), *args, **kwargs).astype(x.dtype)
        return fn(x, *args, **kwargs)

    precise.__name__ = getattr(fn, "__name__", "precise")
    return precise


def _native64(x: np.ndarray) -> np.ndarray | None:
    """x as a native float64 array when it holds float64 values (of either byte order: the
    other order takes the same kernel), else None."""
    if x.dtype is _F64:
        return x
    if x.dtype.kind == "f" and x.dtype.itemsize == 8:
        return x.astype(_F64)
    return None


def _float32(kernel: Any, fn: Any) -> Any:
    """`kernel` (PyTorch's float32 CPU kernel, bit for bit) for float32 arrays, `_precise(fn)`
    for the other dtypes."""
    through = _precise(fn)

    def run(x: np.ndarray) -> np.ndarray:
        if x.dtype is _F64:  # the common case, first: `fn` as it is (`through` would call it)
            return fn(x)
        if x.dtype == np.float32:
            with np.errstate(all="ignore"):
                return np.asarray(kernel(x), dtype=np.float32).reshape(x.shape)
        return through(x)

    run.__name__ = getattr(fn, "__name__", "float32")
    return run


def _vec_loop(vec: Any, name: str, fn: Any, fn64: Any = None) -> Any:
    """A `cpu_kernel_vec` loop: SLEEF's vector function `vec` on the whole steps of 32 elements
    (16 on AVX2), the C library's float function `name` on the rest (`sleef32.split_loop`);
    `fn64` for float64 (`_vec_loop64`), else `fn`."""
    return _float32(
        lambda x: sleef32.split_loop(vec, lambda t: sleef32.libm(name, t, fn), x),
        fn if fn64 is None else fn64,
    )


def _vec_loop64(name: str, fn: Any) -> Any:
    """`_vec_loop` for float64 too: SLEEF's double function (`core.sleef64.<name>`) on the
    whole steps of 16 elements (8 on AVX2), the C library's double `name` on the rest (NumPy's
    `fn` where it cannot be called)."""

    def tail(t: np.ndarray) -> np.ndarray:
        from ..core.glibc32 import c_double_function

        f = c_double_function(name)
        if f is None:
            return fn(t)
        return np.fromiter((f(v) for v in t.reshape(-1).tolist()), np.float64, t.size)

    def run(x: np.ndarray) -> np.ndarray:
        x64 = _native64(x)
        if x64 is not None:
            from ..core import sleef64

            with np.errstate(all="ignore"):
                out = sleef32.split_loop(getattr(sleef64, name), tail, x64, dtype=np.float64)
            return out.reshape(x.shape)
        return fn(x)

    run.__name__ = name
    return run


def _libm_loop(name: str, fn: Any) -> Any:
    """A scalar `cpu_kernel` loop: the C library's float function `name` on every element."""
    return _float32(lambda x: sleef32.libm(name, x, fn), fn)


def _on_avx2(kernel: str, other: Any) -> Any:
    """`core.mklsse32`'s `kernel` (PyTorch's float32 kernel on an AVX2 processor, bit for bit)
    for float32 arrays when the emulations follow the avx2 family (`core.cpu`, read on every
    call), `other` otherwise. (mklsse32 is imported at the first such call: its tables are
    not read at start-up.)"""

    def run(x: np.ndarray) -> np.ndarray:
        if x.dtype == np.float32 and cpu.mkl_avx2():
            from ..core import mklsse32

            with np.errstate(all="ignore"):
                return np.asarray(getattr(mklsse32, kernel)(x), np.float32).reshape(x.shape)
        return other(x)

    run.__name__ = getattr(other, "__name__", "float32")
    return run


neg = defop(
    "neg",
    np.negative,
    lambda g, out, x: (-g,),
    "NegBackward0",
    "-g",
    sym=lambda sp, x: -x,
    saves=False,
    samples=unary_samples(),
    to_torch="-{0}",
    to_jax="-{0}",
    complex="holo",
)


def _atan64(x: np.ndarray) -> np.ndarray:
    """float64 atan: MKL's generic vdAtan on an AMD processor (`core.amd64`: NumPy's arctan
    differs from it on 6.4% of normal*3 inputs); other dtypes and machines `_precise`'s."""
    x64 = _native64(x)
    if x64 is not None and cpu.mkl_avx2():
        from ..core import amd64

        return amd64.atan(x64)
    return _precise(np.arctan)(x)


def _sleef64(name: str, fallback: Any) -> Any:
    """A float64 kernel ATen runs through SLEEF on every element (`core.sleef64.<name>`), bit
    for bit; `fallback` (NumPy's) for the other dtypes `_float32` hands it."""

    def run(x: np.ndarray) -> np.ndarray:
        x64 = _native64(x)
        if x64 is not None:
            from ..core import sleef64

            return getattr(sleef64, name)(x64)
        return fallback(x)

    run.__name__ = name
    return run


def _exp64(x: np.ndarray) -> np.ndarray:
    """float64 exp: MKL's generic vdExp on an AMD processor (`core.amd64`: NumPy's exp differs
    from it on 0.55% of normal*3 inputs), NumPy's elsewhere."""
    x64 = _native64(x)
    if x64 is not None and cpu.mkl_avx2():
        from ..core import amd64

        return amd64.exp(x64)
    return np.exp(x)


exp = defop(
    "exp",
    _float32(mkl32.expf, _exp64),  # MKL VML: its float32 (core.mkl32), float64 (core.amd64)
    lambda g, out, x: (g * out,),
    "ExpBackward0",
    "g * out",
    saved=V.saves(result=V.RESULT),
    link=lambda out, x: (0, out.data),
    sym=lambda sp, x: sp.exp(x),
    samples=unary_samples(),
    to_torch="torch.exp",
    to_jax="jnp.exp",
    complex="holo",
)
log = defop(
    "log",
    _float32(mkl32.logf, np.log),  # MKL VML: its float32 algorithm (core.mkl32)
    lambda g, out, x: (g / x,),
    "LogBackward0",
    "g / x",
    saved=V.saves(self=V.SELF),
    sym=lambda sp, x: sp.log(x),
    domain=lambda x: "log of a value <= 0" if np.any(x <= 0) else None,
    samples=unary_samples(low=0.1, high=3.0),
    to_torch="torch.log",
    to_jax="jnp.log",
    complex="holo",
)
log1p = defop(
    "log1p",
    _float32(sleef32.log1pf, _sleef64("log1p", np.log1p)),  # vml::vlog1p: SLEEF on every element
    lambda g, out, x: (g / (x + 1),),
    "Log1PBackward0",
    "g / (1 + x)",
    sym=lambda sp, x: sp.log(1 + x),
    domain=lambda x: "log1p of a value <= -1" if np.any(x <= -1) else None,
    samples=unary_samples(low=-0.9, high=3.0),
    to_torch="torch.log1p",
    to_jax="jnp.log1p",
    complex="holo",
)
sqrt = defop(
    "sqrt",
    vmlsqrt.sqrt,  # MKL's float32/float64 bits (0.55% one ulp below the correctly rounded root)
    lambda g, out, x: (g / (out * 2),),
    "SqrtBackward0",
    "g / (2 * out)",
    saved=V.saves(result=V.RESULT),
    sym=lambda sp, x: sp.sqrt(x),
    domain=lambda x: (
        "sqrt of a value <= 0 (its derivative is infinite or nan)" if np.any(x <= 0) else None
    ),
    samples=unary_samples(low=0.1, high=3.0),
    to_torch="torch.sqrt",
    to_jax="jnp.sqrt",
    complex="holo",
)


def _sgn(x: Tensor) -> Tensor:
    """sign(x) for abs's rule: of a real x a constant; of a complex z, z / |z| (0 at 0), as
    differentiable operations (its derivative is not 0: second order needs it)."""
    if x.data.dtype.kind != "c":  # (in the input's dtype: bfloat16's stays bfloat16)
        # ATen's sgn kernel, (0 < x) - (x < 0): 0 at NaN (abs'(NaN) = 0, as PyTorch)
        # Recorded (when x requires grad under create_graph) as PyTorch's SgnBackward0, whose
        # derivative is 0: abs's gradient then has a grad_fn and a zero second derivative.
        if grad_enabled() and x.requires_grad:
            return apply(sign, x, label="SgnBackward0")
        d = x.data
        return constant(((d > 0).astype(d.dtype) - (d < 0).astype(d.dtype)).astype(d.dtype))
    r = x.abs()
    return x / (r + constant((r.data == 0).astype(r.data.dtype)))


def _abs_fwd(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind != "c":
        return np.abs(x)
    # |z| of a complex z as PyTorch's CPU kernels compute it: hypot (SLEEF's hypot u05 on
    # vectors, the C library's on the rest), correctly rounded but in rare cases. For
    # complex64, the float64 hypot rounded to float32 (measured: PyTorch's on 1158 of 1158
    # random values; NumPy's own |z| differs on a third); for complex128 the C library's
    # hypot (PyTorch's on 998 of 1000; NumPy's |z| on 654)
    if x.dtype == np.complex64:
        return np.hypot(x.real.astype(np.float64), x.imag.astype(np.float64)).astype(np.float32)
    return np.hypot(x.real, x.imag)


abs = defop(  # noqa: A001 - the record of torch.abs
    "abs",
    _abs_fwd,
    lambda g, out, x: (g * _sgn(x),),
    "AbsBackward0",
    "g * sign(x)",
    saved=V.saves(self=V.SELF),
    sym=lambda sp, x: sp.Abs(x),
    kink="abs'(0) = 0, as PyTorch (sign(0) = 0)",
    samples=unary_samples(avoid=(0.0,)),
    to_torch="torch.abs",
    to_jax="jnp.abs",
    jvp_reads_primal=True,
    complex="rule",
)
sin = defop(
    "sin",
    _float32(mkl32.sinf, np.sin),  # MKL VML, as measured (core.mkl32)
    lambda g, out, x: (g * x.cos(),),
    "SinBackward0",
    "g * cos(x)",
    saved=V.saves(self=V.SELF),
    link=lambda out, x: (0, np.asarray(cos.forward(x.data))),  # x.cos(), as the rule
    sym=lambda sp, x: sp.sin(x),
    samples=unary_samples(),
    to_torch="torch.sin",
    to_jax="jnp.sin",
    complex="holo",
)
cos = defop(
    "cos",
    _float32(mkl32.cosf, np.cos),
    # derivatives.yaml's `grad * -self.sin()`: the same values as -g * sin(x), with the nodes
    # a create_graph pass records in PyTorch's order (sin, neg, mul)
    lambda g, out, x: (g * -x.sin(),),
    "CosBackward0",
    "-g * sin(x)",
    saved=V.saves(self=V.SELF),
    sym=lambda sp, x: sp.cos(x),
    samples=unary_samples(),
    to_torch="torch.cos",
    to_jax="jnp.cos",
    complex="holo",
)
tan = defop(
    "tan",
    _on_avx2("tanf", _precise(np.tan)),  # MKL's SSE kernel on AMD (core.mklsse32)
    lambda g, out, x: (g * (out * out + 1),),
    "TanBackward0",
    "g * (1 + out^2)",
    sym=lambda sp, x: sp.tan(x),
    samples=unary_samples(low=-1.2, high=1.2),
    to_torch="torch.tan",
    to_jax="jnp.tan",
    complex="holo",
)


def _one_minus_square(o: np.ndarray) -> np.ndarray:
    """1 - o*o as ATen's tanh_backward computes it: for float32 and float64 one fused
    multiply-add (rounded once; measured: PyTorch 2.13's tanh gradients are these, in the
    vector loop and in its scalar tail), else plain."""
    if o.dtype == np.float32:
        from ..core.powf32 import fma32  # (a correctly rounded fma, as linalg's _fma32)

        return fma32(np.negative(o), o, np.ones(o.shape, dtype=np.float32))
    if o.dtype is _F64:
        return np.asarray(fma64._fma64(np.negative(o), o, np.ones(o.shape)))
    return np.subtract(np.asarray(1, o.dtype), o * o)


def _tanh_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    if grad_enabled() or g.dtype != out.dtype or not g.dtype.isnative or g.dtype == np.float16:
        # recorded (create_graph=True): PyTorch's own node, TanhBackwardBackward0 (and
        # bfloat16 and float16, which `core.op.apply` computes in float32)
        return (apply(tanh_backward, g, out),)
    return (Tensor(g.data * _one_minus_square(out.data)),)


def _tanh_backward_fwd(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    # ATen's tanh_backward, g * (1 - y*y), the same kernel with or without create_graph
    with np.errstate(all="ignore"):
        if g.dtype == y.dtype:
            return g * _one_minus_square(y)
        return g * (1 - y * y)


def _tanh_backward_vjp(h: Tensor, out: Tensor, g: Tensor, y: Tensor) -> tuple:
    # derivatives.yaml: grad_output: tanh_backward(grad, output); output: grad * (-2 * output *
    # grad_output), PyTorch's operations in its order (-2 * y is exact)
    return (apply(tanh_backward, h, y), h * ((y * -2) * g))


# tanh's gradient as PyTorch computes it, also under create_graph=True: one fused kernel of the
# incoming gradient and tanh's result, recorded as TanhBackwardBackward0 (next_functions: g's
# node and TanhBackward0), differentiated by PyTorch's formulas.
tanh_backward = defop(
    "tanh_backward",
    _tanh_backward_fwd,
    _tanh_backward_vjp,
    "TanhBackwardBackward0",
    "tanh_backward(h, y), h * (-2 * y * g)",
    kind="internal",
    jvp_zeros=(0,),  # (forward mode: `tanh_backward(grad_output_t, output_p) + ...`)
    saves=False,
    sym=lambda sp, g, y: g * (1 - y * y),
    samples=(
        Sample(((2, 3), (2, 3)), {}, low=-0.9, high=0.9),
        Sample(((4, 2, 3), (2, 3)), {}, low=-0.9, high=0.9),
        Sample(((3,), (3,)), {}, low=-0.9, high=0.9),
    ),
    complex="holo",
)


def _tanh64(x: np.ndarray) -> np.ndarray:
    """float64 tanh: MKL's generic vdTanh on an AMD processor (`core.amd64`: NumPy's tanh
    differs from it on 21% of normal*3 inputs), NumPy's elsewhere."""
    x64 = _native64(x)
    if x64 is not None and cpu.mkl_avx2():
        from ..core import amd64

        return amd64.tanh(x64)
    return np.tanh(x)


tanh = defop(
    "tanh",
    _float32(mkl32.tanhf, _tanh64),  # MKL VML: its float32 (core.mkl32), float64 (core.amd64)
    _tanh_vjp,
    "TanhBackward0",
    "g * (1 - out^2)",
    saved=V.saves(result=V.RESULT),
    # (not for float16: ATen's kernel computes g * (1 - y * y) in float, the rule's road)
    link=lambda out, x: None if out.dtype == np.float16 else (0, _one_minus_square(out.data)),
    sym=lambda sp, x: sp.tanh(x),
    samples=unary_samples(),
    to_torch="torch.tanh",
    to_jax="jnp.tanh",
    complex="holo",
)


# --- inverse trigonometric and hyperbolic functions --------------------------------------------
# Rules follow PyTorch's derivatives.yaml operation by operation, so that float32 gradients round
# as PyTorch's do; its rsqrt(v) is 1 / sqrt(v) (two roundings), as written here.


def _rsqrt(v: Tensor) -> Tensor:
    # PyTorch's formulas call rsqrt (1 / the correctly rounded root), not sqrt (MKL's root)
    return apply(rsqrt, v)


asin = defop(
    "asin",
    # MKL VML: its float32 algorithm (core.mkl32); on AMD its SSE kernel (core.mklsse32)
    _on_avx2("asinf", _float32(mkl32.asinf, np.arcsin)),
    lambda g, out, x: (g * _rsqrt(-x * x + 1),),
    "AsinBackward0",
    "g / sqrt(1 - x^2)",
    sym=lambda sp, x: sp.asin(x),
    samples=unary_samples(low=-0.9, high=0.9),
    to_torch="torch.asin",
    to_jax="jnp.arcsin",
    complex="holo",
)
acos = defop(
    "acos",
    # MKL VML: its float32 algorithm (core.mkl32); on AMD its SSE kernel (core.mklsse32)
    _on_avx2("acosf", _float32(mkl32.acosf, np.arccos)),
    lambda g, out, x: (g * -_rsqrt(-x * x + 1),),
    "AcosBackward0",
    "-g / sqrt(1 - x^2)",
    sym=lambda sp, x: sp.acos(x),
    samples=unary_samples(low=-0.9, high=0.9),
    to_torch="torch.acos",
    to_jax="jnp.arccos",
    complex="holo",
)
atan = defop(
    "atan",
    _on_avx2("atanf", _atan64),  # MKL's SSE kernels on AMD (core.mklsse32, core.amd64)
    lambda g, out, x: (g / (x * x + 1),),
    "AtanBackward0",
    "g / (1 + x^2)",
    sym=lambda sp, x: sp.atan(x),
    samples=unary_samples(low=-3.0, high=3.0),
    to_torch="torch.atan",
    to_jax="jnp.arctan",
    complex="holo",
)
sinh = defop(
    "sinh",
    _vec_loop(sleef32.sinhf, "sinhf", np.sinh, _vec_loop64("sinh", np.sinh)),
    lambda g, out, x: (g * apply(cosh, x),),
    "SinhBackward0",
    "g * cosh(x)",
    sym=lambda sp, x: sp.sinh(x),
    samples=unary_samples(),
    to_torch="torch.sinh",
    to_jax="jnp.sinh",
    complex="holo",
)
cosh = defop(
    "cosh",
    _vec_loop(sleef32.coshf, "coshf", np.cosh, _vec_loop64("cosh", np.cosh)),
    lambda g, out, x: (g * apply(sinh, x),),
    "CoshBackward0",
    "g * sinh(x)",
    sym=lambda sp, x: sp.cosh(x),
    samples=unary_samples(),
    to_torch="torch.cosh",
    to_jax="jnp.cosh",
    complex="holo",
)
asinh = defop(
    "asinh",
    _libm_loop("asinhf", np.arcsinh),
    lambda g, out, x: (g * _rsqrt(x * x + 1),),
    "AsinhBackward0",
    "g / sqrt(x^2 + 1)",
    sym=lambda sp, x: sp.asinh(x),
    samples=unary_samples(low=-3.0, high=3.0),
    to_torch="torch.asinh",
    to_jax="jnp.arcsinh",
)
acosh = defop(
    "acosh",
    _libm_loop("acoshf", np.arccosh),
    lambda g, out, x: (g * _rsqrt(x * x - 1),),
    "AcoshBackward0",
    "g / sqrt(x^2 - 1)",
    sym=lambda sp, x: sp.acosh(x),
    samples=unary_samples(low=1.1, high=4.0),
    to_torch="torch.acosh",
    to_jax="jnp.arccosh",
)
atanh = defop(
    "atanh",
    _vec_loop(sleef32.atanhf, "atanhf", np.arctanh, _vec_loop64("atanh", np.arctanh)),
    lambda g, out, x: (g * 1 / (1 - x * x),),
    "AtanhBackward0",
    "g / (1 - x^2)",
    sym=lambda sp, x: sp.atanh(x),
    samples=unary_samples(low=-0.9, high=0.9),
    to_torch="torch.atanh",
    to_jax="jnp.arctanh",
)


def _sinc_fwd(x: np.ndarray) -> np.ndarray:
    """sin(pi x) / (pi x), and 1 at 0, in PyTorch's steps in x's precision: pi x rounded, its
    sine (ATen's scalar kernel: std::sin, for float the C library's sinf, which 1% of inputs
    have a last bit off the correctly rounded sine; up to `sleef32.LIBM_CALLS` elements, more
    rounded from float64), the quotient rounded."""
    p = x * x.dtype.type(math.pi)
    if p.dtype == np.float32:
        from ..core import sleef32

        s = sleef32.libm("sinf", p, np.sin)
    else:
        s = _precise(np.sin)(p)
    return np.where(x == 0, x.dtype.type(1), s / p)


def _sinc_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    # PyTorch's formula in its steps (its float32 rounding): g * ((pi x cos(pi x) - sin(pi x)) /
    # (x x pi)), and where(x x pi == 0, 0, that) (x = 0, the limit; and x x underflowing). The
    # quotient is taken as it is (0 / 0 at x = 0, a NaN the `where` hides), as PyTorch's is: its
    # second derivative at 0 is NaN (0 * inf through the division), and so is this one's.
    # (`grad * (a - b) / sq` is (grad * (a - b)) / sq; an operator's right operand first)
    px = x * math.pi
    sq = x * x * math.pi
    if x.dtype in (np.float32, np.float64):
        b = apply(sin, px)
        a = px * apply(cos, px)
        q = g * (a - b) / sq
    else:  # float16, bfloat16 (their measured kernels' roundings)
        q = g * ((px * apply(cos, px) - apply(sin, px)) / sq)
    zero = Tensor(np.broadcast_to(sq.data == 0, q.shape))
    return (apply(where, zero, Tensor(np.zeros((), dtype=q.dtype)), q),)


sinc = defop(
    "sinc",
    _sinc_fwd,
    _sinc_vjp,
    "SincBackward0",
    "g * (pi x cos(pi x) - sin(pi x)) / (pi x^2), 0 at x = 0",
    sym=lambda sp, x: sp.sin(sp.pi * x) / (sp.pi * x),
    samples=unary_samples(low=-3.0, high=3.0, avoid=(0.0,), gap=0.1),
    to_torch="torch.sinc",
    to_jax="jnp.sinc",
)

# --- exponentials and logarithms in other bases, reciprocals ----------------------------------

_LN2 = 0.6931471805599453
_LN10 = 2.3025850929940456

exp2 = defop(
    "exp2",
    _vec_loop(sleef32.exp2f, "exp2f", np.exp2, _vec_loop64("exp2", np.exp2)),
    lambda g, out, x: (g * out * _LN2,),
    "Exp2Backward0",
    "g * out * log(2)",
    sym=lambda sp, x: 2**x,
    samples=unary_samples(),
    to_torch="torch.exp2",
    to_jax="jnp.exp2",
)
expm1 = defop(
    "expm1",
    _float32(sleef32.expm1f, _sleef64("expm1", np.expm1)),  # vml::vexpm1: SLEEF on every element
    lambda g, out, x: (g * (out + 1),),
    "Expm1Backward0",
    "g * (out + 1)",
    sym=lambda sp, x: sp.exp(x) - 1,
    samples=unary_samples(),
    to_torch="torch.expm1",
    to_jax="jnp.expm1",
    complex="holo",
)
log2 = defop(
    "log2",
    _on_avx2("log2f", _precise(np.log2)),  # MKL's SSE kernel on AMD (core.mklsse32)
    lambda g, out, x: (g / (x * _LN2),),
    "Log2Backward0",
    "g / (x * log(2))",
    sym=lambda sp, x: sp.log(x) / sp.log(2),
    domain=lambda x: "log2 of a value <= 0" if np.any(x <= 0) else None,
    samples=unary_samples(low=0.1, high=3.0),
    to_torch="torch.log2",
    to_jax="jnp.log2",
    complex="holo",
)
log10 = defop(
    "log10",
    _on_avx2("log10f", _precise(np.log10)),  # MKL's SSE kernel on AMD (core.mklsse32)
    lambda g, out, x: (g / (x * _LN10),),
    "Log10Backward0",
    "g / (x * log(10))",
    sym=lambda sp, x: sp.log(x) / sp.log(10),
    domain=lambda x: "log10 of a value <= 0" if np.any(x <= 0) else None,
    samples=unary_samples(low=0.1, high=3.0),
    to_torch="torch.log10",
    to_jax="jnp.log10",
    complex="holo",
)


def _rsqrt_reduced(x: np.ndarray) -> np.ndarray:
    """A float16 or bfloat16 rsqrt (its values as float32, `core.half`) as ATen's kernel: its
    vector function takes 1 / sqrt(x) in float (each rounded to float32), its scalar tail
    computes in the tensor's dtype, sqrt rounded to it before the quotient (measured, 2.13:
    the contiguous run's last n % 32 elements on AVX2, and a strided view's all; a Zen 4 runs
    this AVX2 code too: every element of float16 and bfloat16 sizes 1 to 100 equal)."""
    with np.errstate(all="ignore"):
        return vecloop.split_loop(
            lambda a: _F32_ONE / np.sqrt(a),
            lambda a: narrowed(_F32_ONE / narrowed(np.sqrt(a))),
            x,
            avx2_only=True,  # (built for AVX2 only: a Zen 4 runs its steps too)
        )


_F32_ONE = np.float32(1)


def _rsqrt_fwd(x: np.ndarray) -> np.ndarray:
    # PyTorch's kernel: 1 / sqrt(x) in the tensor's dtype (two roundings, its float32 bits).
    if vecloop.REDUCED[0] is not None and x.dtype == np.float32:
        return _rsqrt_reduced(x)
    r = np.sqrt(x)
    return np.divide(1, r, out=r) if isinstance(r, np.ndarray) else 1 / r


def _rsqrt_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    # derivatives.yaml: `-0.5 * grad * result.pow(3)`, the right operand first as compiled
    # (under create_graph: one PowBackward0 node, whose derivative is PyTorch's)
    if out.dtype not in (np.float32, np.float64):  # (complex, half: the products)
        return (-0.5 * g * (out * out * out),)
    cube = out.pow(3)
    return ((-0.5 * g) * cube,)


rsqrt = defop(
    "rsqrt",
    _rsqrt_fwd,
    _rsqrt_vjp,
    "RsqrtBackward0",
    "-g * out^3 / 2",
    sym=lambda sp, x: 1 / sp.sqrt(x),
    domain=lambda x: "rsqrt of a value <= 0" if np.any(x <= 0) else None,
    samples=unary_samples(low=0.1, high=3.0),
    to_torch="torch.rsqrt",
    to_jax="jax.lax.rsqrt",
    complex="holo",
)


def _complex_reciprocal(x: np.ndarray) -> np.ndarray:
    from .binary import complex_divide  # (ATen's kernel: 1 / x, c10::complex's division)

    return complex_divide(np.ones((), x.dtype), x)


reciprocal = defop(
    "reciprocal",
    lambda x: np.divide(1, x, dtype=x.dtype) if x.dtype.kind != "c" else _complex_reciprocal(x),
    lambda g, out, x: (-g * (out * out),),
    "ReciprocalBackward0",
    "-g * out^2",
    sym=lambda sp, x: 1 / x,
    samples=unary_samples(avoid=(0.0,), gap=0.3),
    to_torch="torch.reciprocal",
    to_jax="jnp.reciprocal",
    complex="holo",
)

# --- rounding: piecewise constant, so their gradient is 0 (PyTorch's zeros_like(grad)) ---------


def _zero_vjp(g: Tensor, out: Tensor, x: Tensor, **params: Any) -> tuple:
    return (constant(np.zeros(g.shape, dtype=g.dtype)),)


def _steps(name: str) -> str:
    return f"{name}' = 0 everywhere, also at the jumps (the integers), as PyTorch"


floor = defop(
    "floor",
    np.floor,
    _zero_vjp,
    "FloorBackward0",
    "0",
    sym=lambda sp, x: zero_slope(sp, "floor")(x),
    saves=False,
    kink=_steps("floor"),
    samples=unary_samples(low=-3.0, high=3.0, avoid=(-2.0, -1.0, 0.0, 1.0, 2.0)),
    to_torch="torch.floor",
    to_jax="jnp.floor",
)
ceil = defop(
    "ceil",
    np.ceil,
    _zero_vjp,
    "CeilBackward0",
    "0",
    sym=lambda sp, x: zero_slope(sp, "ceiling")(x),
    saves=False,
    kink=_steps("ceil"),
    samples=unary_samples(low=-3.0, high=3.0, avoid=(-2.0, -1.0, 0.0, 1.0, 2.0)),
    to_torch="torch.ceil",
    to_jax="jnp.ceil",
)
trunc = defop(
    "trunc",
    np.trunc,
    _zero_vjp,
    "TruncBackward0",
    "0",
    sym=sym_trunc,
    saves=False,
    kink=_steps("trunc"),
    samples=unary_samples(low=-3.0, high=3.0, avoid=(-2.0, -1.0, 0.0, 1.0, 2.0)),
    to_torch="torch.trunc",
    to_jax="jnp.trunc",
)


def _round_fwd(x: np.ndarray, decimals: int = 0) -> np.ndarray:
    """Halves to even; with `decimals`, PyTorch's kernel in the tensor's dtype: rint(x * 10^d)
    / 10^d, or rint(x / 10^-d) * 10^-d for d < 0 (10^d beyond the dtype's range is inf, and
    the result nan, as PyTorch's)."""
    if decimals == 0:
        return np.rint(x)
    d = builtins.abs(decimals)
    p = x.dtype.type(np.power(10.0, d) if d < 400 else np.inf)
    if decimals > 0:
        return np.rint(x * p) / p
    return np.rint(x / p) * p


round = defop(  # noqa: A001 - the record of torch.round
    "round",
    _round_fwd,
    _zero_vjp,
    "RoundBackward0",
    "0",
    # Halves up, not to even: the same function but at the halves (where it jumps).
    sym=lambda sp, x, decimals=0: (
        zero_slope(sp, "floor")(x * sp.Integer(10) ** decimals + sp.Rational(1, 2))
        / sp.Integer(10) ** decimals
    ),
    saves=False,
    kink="round' = 0 everywhere, also at the halves, as PyTorch",
    signature="round(x, decimals=0)",
    samples=unary_samples(low=-3.0, high=3.0, avoid=(-2.5, -1.5, -0.5, 0.5, 1.5, 2.5))
    + (
        Sample(((2, 3),), {"decimals": 1}, low=0.11, high=0.14),
        Sample(((4,),), {"decimals": -1}, low=-4.0, high=4.0),
    ),
    to_torch=lambda w, a, p: (
        f"torch.round({a[0]}, decimals={p['decimals']})"
        if p.get("decimals")
        else f"torch.round({a[0]})"
    ),
    to_jax=lambda w, a, p: f"jnp.round({a[0]}, {int(p.get('decimals', 0))})",
)
frac = defop(
    "frac",
    lambda x: x - np.trunc(x),
    lambda g, out, x: (g,),
    "FracBackward0",
    "g",
    sym=lambda sp, x: x - sym_trunc(sp, x),
    saves=False,
    kink="frac' = 1 everywhere, also at the jumps (the integers), as PyTorch",
    samples=unary_samples(low=-3.0, high=3.0, avoid=(-2.0, -1.0, 0.0, 1.0, 2.0)),
    to_torch="torch.frac",
    to_jax="({0} - jnp.trunc({0}))",
)


def _nan_to_num_fwd(
    x: np.ndarray, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None
) -> np.ndarray:
    if x.dtype.kind != "f":
        return x.copy()
    info = np.finfo(x.dtype)
    with np.errstate(over="ignore"):  # a number beyond the dtype's range is +-inf, as ATen's cast
        big = x.dtype.type(info.max if posinf is None else posinf)
        small = x.dtype.type(info.min if neginf is None else neginf)
        fill = x.dtype.type(nan)
    # each element by its own value (a NaN made inf by `nan` is not then replaced by `posinf`)
    out = np.where(x == np.inf, big, np.where(x == -np.inf, small, x))
    return np.where(np.isnan(x), fill, out)


nan_to_num = defop(
    "nan_to_num",
    _nan_to_num_fwd,
    lambda g, out, x, **params: (g * mask_like(np.isfinite(x.data), x),),
    "NanToNumBackward0",
    "g * isfinite(x)",
    sym=lambda sp, x, **params: x,
    kink="the gradient is 0 where x is nan or +-inf (the replaced values), as PyTorch",
    signature="nan_to_num(x, nan=0.0, posinf=None, neginf=None)",
    samples=unary_samples({"nan": 0.0, "posinf": None, "neginf": None})
    + (Sample(((2, 3),), {"nan": 1.0, "posinf": 5.0, "neginf": -5.0}),),
    to_torch=lambda w, a, p: (
        f"torch.nan_to_num({a[0]}, nan={w.lit(p.get('nan', 0.0))}, "
        f"posinf={w.lit(p.get('posinf'))}, neginf={w.lit(p.get('neginf'))})"
    ),
    to_jax=lambda w, a, p: (
        f"jnp.nan_to_num({a[0]}, nan={w.lit(p.get('nan', 0.0))}, "
        f"posinf={w.lit(p.get('posinf'))}, neginf={w.lit(p.get('neginf'))})"
    ),
)


_BLOCK = 1 << 14  # elements per block of a fused elementwise loop (128 KB of float64)


def _flat_blocks(*arrays: np.ndarray) -> Any:
    """Flat views of C-contiguous arrays of one size, block by block (`(view, ...)` per block),
    so that a few NumPy passes over one block run in the cache instead of over memory: the
    same elementwise operations on the same values (each element's result is unchanged)."""
    flats = [a.reshape(-1) for a in arrays]
    n = flats[0].size
    for i in range(0, n, _BLOCK):
        yield tuple(f[i : i + _BLOCK] for f in flats)


def _contiguous(*arrays: np.ndarray) -> bool:
    return all(a.flags.c_contiguous for a in arrays)


# float64 sigmoid as ATen's cpu_kernel_vec loop computes it, up to this many elements (the SLEEF
# emulation costs some 2 microseconds an element; past it, NumPy's exp, a last bit off in 0.5%)
_SIGMOID64_EMULATED = 1 << 16


def _sigmoid64(x: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-x)): SLEEF's exp on whole vectors of 16 (`core.sleef64`), the C library's
    on the loop's tail."""
    from ..core import sleef64
    from ..core.glibc32 import c_double_function

    def tail(t: np.ndarray) -> np.ndarray:
        f = c_double_function("exp")
        e = np.exp(-t) if f is None else np.fromiter((f(-v) for v in t.tolist()), _F64, t.size)
        return 1.0 / (1.0 + e)

    with np.errstate(all="ignore"):
        out = sleef32.split_loop(sleef64.sigmoid_vec, tail, x, dtype=np.float64)
    return out.reshape(x.shape)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    # PyTorch's kernel: 1 / (1 + exp(-x)) in the tensor's dtype, in place on one buffer (a
    # quarter of the two-branch form's time). exp(-x) overflows to inf for x < -88 in float32
    # (-709 in float64) and the result is exactly 0, as PyTorch's (the caller holds an errstate
    # that ignores it); float32's exp is rounded once from float64 (see `_precise`).
    if x.dtype.kind != "f":
        return 1 / (1 + np.exp(-x))
    if x.dtype == np.float32:
        return act32.sigmoid(x)  # ATen's kernel: SLEEF's expf, glibc's on the loop's tail
    if x.dtype.kind == "f" and x.dtype.itemsize == 8 and x.size <= _SIGMOID64_EMULATED:
        return _sigmoid64(_native64(x))
    if x.dtype.itemsize < 8:
        e = np.array(_precise(np.exp)(np.negative(x)), dtype=x.dtype)  # an array for 0-d too
    elif x.size > _BLOCK and _contiguous(x):
        out = np.empty_like(x)
        for xb, e in _flat_blocks(x, out):
            np.negative(xb, out=e)
            np.exp(e, out=e)
            e += 1
            np.reciprocal(e, out=e)
        return out
    else:
        e = np.negative(x, out=np.empty_like(x))  # an array also for a 0-d x
        np.exp(e, out=e)
    e += 1
    np.reciprocal(e, out=e)
    return e


def _sigmoid_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    if grad_enabled() or g.shape != out.shape or g.dtype != out.dtype or not g.dtype.isnative:
        # recorded (create_graph=True: SigmoidBackwardBackward0), or batched, or bfloat16
        # (`core.op.apply` computes it in float32): PyTorch's kernel
        return (apply(sigmoid_backward, g, out),)
    # A first-order pass: the products on one buffer, no temporaries, in PyTorch's order
    # (its CPU kernel computes g * (1 - out) * out).
    o = out.data
    s = np.empty_like(o) if o.flags.c_contiguous else np.empty(o.shape, o.dtype)
    _sigmoid_grad(o, g.data, s, None)
    return (Tensor(s),)


def _sigmoid_grad(o: np.ndarray, gd: np.ndarray, s: Any, acc: np.ndarray | None) -> None:
    """`g * (1 - out) * out` into `s` (C-contiguous, out's shape), or, with `acc` (and `s`
    None), added into `acc`: the same operations element by element."""
    if o.size > _BLOCK and _contiguous(o, gd):
        scratch = np.empty(_BLOCK, dtype=o.dtype) if acc is not None else None
        for ob, gb, sb in _flat_blocks(o, gd, s if acc is None else acc):
            tb = sb if scratch is None else scratch[: ob.size]
            np.subtract(1, ob, out=tb, dtype=o.dtype)
            tb *= gb
            tb *= ob
            if scratch is not None:
                np.add(sb, tb, out=sb)
        return
    if s is None:
        s = np.empty(o.shape, o.dtype)
    np.subtract(1, o, out=s, dtype=o.dtype)
    s *= gd
    s *= o
    if acc is not None:
        np.add(acc, s, out=acc)


def _sigmoid_accumulate(acc: np.ndarray, g: Any, out: Tensor, x: Tensor) -> bool:
    gd, o = (g.data if type(g) is Tensor else g), out.data
    if grad_enabled() or gd.shape != o.shape or gd.dtype != o.dtype or acc.shape != o.shape:
        return False
    if acc.dtype != o.dtype or not acc.flags.c_contiguous:
        return False
    _sigmoid_grad(o, gd, None, acc)
    return True


def _sigmoid_backward_fwd(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    # ATen's sigmoid_backward, (g * (1 - y)) * y, the same kernel with or without create_graph
    with np.errstate(all="ignore"):
        if y.dtype == np.float32 and g.dtype == np.float32:
            return act32.sigmoid_backward(g, y)
        return (g * (1 - y)) * y


def _sigmoid_backward_vjp(h: Tensor, out: Tensor, g: Tensor, y: Tensor) -> tuple:
    # derivatives.yaml: grad_output: sigmoid_backward(grad, output); output: grad * grad_output
    # * (-2 * output + 1), in PyTorch's order (-2 * y is exact). Recorded (create_graph=True)
    # as PyTorch's apply makes them (measured): grad_output's, then output's, its right factor
    # first
    first = apply(sigmoid_backward, h, y)
    right = y * -2 + 1
    return (first, (h * g) * right)


def _sigmoid_backward_jvp(dots: tuple, out: Tensor, g: Tensor, y: Tensor) -> Tensor | None:
    # PyTorch's forward formula: sigmoid_backward(g', y) + y' * g * (-2 * y + 1), products
    # left to right (the transposed rule multiplies y' by the right factor first: another last
    # bit; torch.func.hessian of a sigmoid runs through it). A missing g' is a zero tensor
    # that the kernel materializes: its term is +0, added first (a -0 product becomes +0).
    from .binary import tangent_at_rank

    tg, ty = (None if d is None else tangent_at_rank(d, t, out) for d, t in zip(dots, (g, y)))
    if ty is None:
        return None if tg is None else apply(sigmoid_backward, tg, y)
    first = constant(np.zeros((), out.dtype)) if tg is None else apply(sigmoid_backward, tg, y)
    return first + ty * g * (y * -2 + 1)


# sigmoid's gradient as PyTorch computes it, also under create_graph=True: one fused kernel of
# the incoming gradient and sigmoid's result, recorded as SigmoidBackwardBackward0.
sigmoid_backward = defop(
    "sigmoid_backward",
    _sigmoid_backward_fwd,
    _sigmoid_backward_vjp,
    "SigmoidBackwardBackward0",
    "sigmoid_backward(h, y), h * g * (1 - 2 * y)",
    jvp=_sigmoid_backward_jvp,
    kind="internal",
    saves=False,
    sym=lambda sp, g, y: g * (1 - y) * y,
    samples=(
        Sample(((2, 3), (2, 3)), {}, low=0.05, high=0.95),
        Sample(((4, 2, 3), (2, 3)), {}, low=0.05, high=0.95),
        Sample(((3,), (3,)), {}, low=0.05, high=0.95),
    ),
    complex="holo",
)


sigmoid = defop(
    "sigmoid",
    _sigmoid,
    _sigmoid_vjp,
    "SigmoidBackward0",
    "g * out * (1 - out)",
    saved=V.saves(result=V.RESULT),
    accumulate=_sigmoid_accumulate,
    sym=lambda sp, x: 1 / (1 + sp.exp(-x)),
    samples=unary_samples(low=-5.0, high=5.0),
    to_torch="torch.sigmoid",
    to_jax="jax.nn.sigmoid",
    complex="holo",
)


def _threshold_backward_fwd(g: np.ndarray, r: np.ndarray, *, threshold: float) -> np.ndarray:
    # ATen's threshold_backward: 0 where r <= threshold, else g; the zeros are +0 where g is
    # negative (g * mask would give -0, and print so) and nan/inf in g stay out of them; a nan
    # r keeps g (nan <= threshold is false), as PyTorch.
    return np.where(r <= threshold, np.zeros((), dtype=g.dtype), g)


def _threshold_backward_vjp(
    h: Tensor, out: Tensor, g: Tensor, r: Tensor, *, threshold: float
) -> tuple:
    # Linear in g (the same mask again); r only chooses where: its derivative is 0, given as
    # zeros (PyTorch's zeros_like), so a gradient reaching r through here is a zero tensor.
    zeros = Tensor(np.zeros(h.shape, dtype=r.dtype))
    return (apply(threshold_backward, h, r, threshold=threshold), zeros)


def _threshold_backward_jvp(
    dots: tuple, out: Tensor, g: Tensor, r: Tensor, *, threshold: float
) -> Tensor | None:
    # PyTorch's forward formula: zeros_like(r') + threshold_backward(g', r): zeros first, so a
    # -0 tangent where r > threshold is +0; a missing g' is a zero tensor the kernel
    # materializes (+0 everywhere)
    from .binary import tangent_at_rank

    dg, dr = dots
    some = dg if dg is not None else dr
    lead = some.shape[: some.ndim - (g.ndim if dg is not None else r.ndim)]
    if dg is None:
        tg = Tensor(np.zeros(lead + out.shape, out.dtype))
    else:
        tg = tangent_at_rank(dg, g, out)
    t = apply(threshold_backward, tg, r, threshold=threshold)
    return constant(np.zeros((), out.dtype)) + t


# relu's gradient, a function of the incoming gradient and of relu's result, as PyTorch's
# `threshold_backward(grad, result, 0)`: recorded under create_graph=True, it depends on the
# result too (grad_fn ThresholdBackwardBackward0, next_functions (g's, ReluBackward0)), so a
# gradient taken through a relu requires grad whenever the relu's input does, as in PyTorch.
threshold_backward = defop(
    "threshold_backward",
    _threshold_backward_fwd,
    _threshold_backward_vjp,
    "ThresholdBackwardBackward0",
    "threshold_backward(h, r), 0",
    jvp=_threshold_backward_jvp,
    kind="internal",
    saves=False,
    kink="0 in r everywhere, also at r == threshold (r only chooses), as PyTorch",
    # elementwise, on whole (broadcast) arrays as internal records are evaluated
    sym=lambda sp, g, r, threshold: np.frompyfunc(
        lambda gv, rv: sp.Piecewise((gv, rv > threshold), (0, True)), 2, 1
    )(g, r),
    samples=(
        Sample(((2, 3), (2, 3)), {"threshold": 0.0}, avoid=(0.0,)),
        Sample(((4, 2, 3), (2, 3)), {"threshold": 0.0}, avoid=(0.0,)),
        Sample(((3,), (3,)), {"threshold": 0.5}, avoid=(0.5,)),
    ),
)


def _relu_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    return (apply(threshold_backward, g, out, threshold=0.0),)


relu = defop(
    "relu",
    # (ATen's x < 0 ? 0 : x keeps a -0.0, which np.maximum made +0.0: 1 / relu(-0.) is -inf)
    lambda x: np.where(x < 0, x.dtype.type(0), x).astype(x.dtype),
    _relu_vjp,
    "ReluBackward0",
    "g * (x > 0)",
    saved=V.saves(result=V.RESULT),
    sym=lambda sp, x: sp.Max(x, 0),
    kink="relu'(0) = 0, as PyTorch",
    samples=unary_samples(avoid=(0.0,)),
    to_torch="torch.relu",
    to_jax="jax.nn.relu",
    jvp_reads_primal=True,
)


def _sign_fwd(x: np.ndarray) -> np.ndarray:
    # PyTorch's kernel, (0 < x) - (x < 0): 0 for nan too (NumPy's sign gives nan).
    if x.dtype == np.bool_:
        return x.copy()
    if x.dtype.kind != "f":
        return np.sign(x)
    return np.subtract(x > 0, x < 0, dtype=x.dtype)


sign = defop(
    "sign",
    _sign_fwd,
    _zero_vjp,  # zeros, not g * 0: an inf or nan gradient does not leak through (PyTorch's)
    "SignBackward0",
    "0",
    sym=lambda sp, x: sp.sign(x),
    saves=False,
    kink="sign' = 0 everywhere, 0 at 0",
    samples=unary_samples(avoid=(0.0,)),
    to_torch="torch.sign",
    to_jax="jnp.sign",
)


_ERF_PIECE = 1 << 16  # elements between two reads of the clock (math.erf: ~0.3 us each)


def _erf(x: np.ndarray) -> np.ndarray:
    # NumPy has no erf; math.erf is exact to double precision. One call per element: a large
    # array takes seconds, so the time limit binds between pieces.
    f = np.vectorize(math.erf, otypes=[x.dtype])
    if x.size <= _ERF_PIECE:
        return f(x) if x.size else x.copy()
    flat = np.ascontiguousarray(x).reshape(-1)
    out = np.empty(flat.size, x.dtype)
    for i in range(0, flat.size, _ERF_PIECE):
        hooks.observer.check_clock()
        out[i : i + _ERF_PIECE] = f(flat[i : i + _ERF_PIECE])
    return out.reshape(x.shape)


def _erf_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    # derivatives.yaml's order, on every machine: (2/sqrt(pi) * exp(-x**2)) * grad
    return (((-(x * x)).exp() * _2_SQRTPI) * g,)


_2_SQRTPI = 2 / math.sqrt(math.pi)
erf = defop(
    "erf",
    _on_avx2("erff", _erf),  # MKL's SSE kernel on AMD (core.mklsse32)
    _erf_vjp,
    "ErfBackward0",
    "g * 2/sqrt(pi) * exp(-x^2)",
    sym=lambda sp, x: sp.erf(x),
    samples=unary_samples(),
    to_torch="torch.erf",
    to_jax="jax.scipy.special.erf",
)


def _leaky_fwd(
    x: np.ndarray, negative_slope: float = 0.01, is_result: bool = False, rrelu: bool = False
) -> np.ndarray:
    return np.where(x > 0, x, x * negative_slope).astype(x.dtype)


def _leaky_vjp(
    g: Tensor,
    out: Tensor,
    x: Tensor,
    negative_slope: float = 0.01,
    is_result: bool = False,
    rrelu: bool = False,
) -> tuple:
    # ATen's leaky_relu_backward (LeakyReluBackwardBackward0 when recorded); the in-place
    # kernel (leaky_relu_, LeakyReluBackward1) reads the result it saves (is_result=True),
    # whose sign is the input's for the positive slopes it takes
    if is_result and negative_slope < 0:
        raise GradcliError(LEAKY_NEGATIVE_INPLACE).mirror("RuntimeError").pytorch()
    # (rrelu=True: an evaluation-mode rrelu, whose recorded kernel is rrelu_with_noise_backward)
    kernel = "rrelu" if rrelu else "leaky_relu"
    return (piecewise_grad(g, out if is_result else x, kernel, negative_slope),)


LEAKY_NEGATIVE_INPLACE = (
    "In-place leakyReLu backward calculation is triggered with a negative slope which is not "
    "supported. This is caused by calling in-place forward function with a negative slope, "
    "please call out-of-place version instead. File an issue at "
    "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu "
    "backward calculation with negative slope"
)


def in_vector_loop(x: np.ndarray, step_bytes: int = 64) -> np.ndarray:
    """Which elements PyTorch's kernels compute in their vector loop (whole steps from the
    start, in memory order: 64 bytes for the shrink and hardtanh kernels, 16 floats or 8
    doubles; 128 bytes, two AVX512 vectors, for elu, hardswish and logit, as measured); the
    rest, the tail, go through the scalar loop. The two differ only at signs of zero and at
    NaN. On the avx2 family (`cpu.avx2()`) the two-vector steps are 64 bytes (two AVX2
    vectors; measured for hardswish and logit at NaN, loops of 7 to 40); the 64-byte ones stay."""
    if step_bytes > 64:
        from ..core import cpu

        if cpu.avx2():
            step_bytes //= 2
    # a float16/bfloat16 tensor's kernel on its float32 copy: the lanes of its two-byte vectors
    size = 2 if vecloop.REDUCED[0] is not None and x.dtype == np.float32 else x.dtype.itemsize
    lanes = max(1, step_bytes // size)
    n = x.size
    if (
        x.ndim
        and x.shape[-1] > 1
        and x.strides[-1] != x.itemsize
        and not (x.flags.c_contiguous or x.flags.f_contiguous)
    ):  # a view whose rows' elements are not adjacent (x[::2]): the scalar loop, whole
        return np.zeros(x.shape, bool)
    flat = np.zeros(n, bool)
    flat[: n - n % lanes] = True
    if x.ndim > 1 and x.flags.f_contiguous and not x.flags.c_contiguous:
        return flat.reshape(x.shape[::-1]).T
    return flat.reshape(x.shape)


def _piecewise_fwd(g: np.ndarray, x: np.ndarray, *, fn: str, a: float, b: float) -> np.ndarray:
    """The backward kernels of the piecewise-linear activations, g where the slope is 1 and
    +0 where it is 0 (leaky_relu: g * slope below 0)."""
    if fn == "rrelu":  # evaluation mode: leaky_relu_backward with the mean slope
        fn = "leaky_relu"
    if vecloop.REDUCED[0] is not None and fn != "leaky_relu":
        # a bfloat16 kernel (on float32 copies): its bounds are taken in the dtype
        a, b = (float(narrowed(np.asarray(v, np.float32))) for v in (a, b))
    if fn == "leaky_relu":
        with np.errstate(all="ignore"):
            if g.dtype == np.float16:  # ATen's reduced kernel: g * slope in float, rounded once
                return np.where(x > 0, g, (g.astype(np.float32) * np.float32(a)).astype(g.dtype))
            return np.where(x > 0, g, g * np.asarray(a, dtype=g.dtype))
    if fn == "hardtanh":
        # the scalar loop: x <= min or x >= max gives 0 (NaN passes g); the vector loop
        # keeps g where min < x < max (NaN gives 0)
        with np.errstate(invalid="ignore"):
            keep = np.where(in_vector_loop(x), (x > a) & (x < b), ~((x <= a) | (x >= b)))
    else:  # softshrink, hardshrink: at NaN the scalar loop passes g, the vector loop does not
        with np.errstate(invalid="ignore"):
            outside = ~((x >= -a) & (x <= a))
            keep = np.where(in_vector_loop(x), np.abs(x) > a, outside)
    return np.where(keep, g, np.zeros((), dtype=g.dtype))


_PIECEWISE_NAMES = {
    "leaky_relu": "LeakyReluBackwardBackward0",
    "rrelu": "RreluWithNoiseBackwardBackward0",
    "hardtanh": "HardtanhBackwardBackward0",
    "softshrink": "SoftshrinkBackwardBackward0",
    "hardshrink": "HardshrinkBackwardBackward0",
}


def piecewise_grad(g: Tensor, x: Tensor, fn: str, a: float, b: float = 0.0) -> Tensor:
    """The gradient of a piecewise-linear activation: PyTorch's backward kernel, recorded
    under create_graph=True as its own node (LeakyReluBackwardBackward0...), which depends on
    x (its derivative there is zero), so the gradient requires grad whenever x does."""
    return apply(piecewise_backward, g, x, fn=fn, a=a, b=b, label=_PIECEWISE_NAMES[fn])


def _piecewise_vjp(h: Tensor, out: Tensor, g: Tensor, x: Tensor, *, fn: str, a: float, b: float):
    # derivatives.yaml: grad_output: the same kernel of h; self: zeros_like(grad)
    return (piecewise_grad(h, x, fn, a, b), Tensor(np.zeros(h.shape, dtype=x.dtype)))


piecewise_backward = defop(
    "piecewise_backward",
    _piecewise_fwd,
    _piecewise_vjp,
    "HardtanhBackwardBackward0",
    "the same kernel of h, 0",
    kind="internal",
    saves=False,
    sym=lambda sp, g, x, fn, a, b: np.frompyfunc(
        lambda gv, xv: sp.Piecewise(
            *(
                ((gv, xv > 0), (gv * a, True))
                if fn in ("leaky_relu", "rrelu")
                else ((gv, (xv > a) & (xv < b)), (0, True))
                if fn == "hardtanh"
                else ((gv, (xv > a) | (xv < -a)), (0, True))
            )
        ),
        2,
        1,
    )(g, x),
    samples=(
        Sample(((2, 3), (2, 3)), {"fn": "hardtanh", "a": -1.0, "b": 1.0}, avoid=(-1.0, 1.0)),
        Sample(((4, 2, 3), (2, 3)), {"fn": "leaky_relu", "a": 0.2, "b": 0.0}, avoid=(0.0,)),
        Sample(((3,), (3,)), {"fn": "softshrink", "a": 0.5, "b": 0.0}, avoid=(-0.5, 0.5)),
        Sample(((3,), (3,)), {"fn": "hardshrink", "a": 0.5, "b": 0.0}, avoid=(-0.5, 0.5)),
    ),
)


leaky_relu = defop(
    "leaky_relu",
    _leaky_fwd,
    _leaky_vjp,
    "LeakyReluBackward0",
    "g * (1 if x > 0 else negative_slope)",
    sym=lambda sp, x, negative_slope=0.01, **_: sp.Piecewise(
        (x, x > 0), (negative_slope * x, True)
    ),
    # the in-place kernel's rule reads its result (a change of it since is PyTorch's error)
    reads=lambda p: (True, frozenset()) if p.get("is_result") else (False, frozenset({0})),
    kink="leaky_relu'(0) = negative_slope, as PyTorch",
    signature="leaky_relu(x, negative_slope=0.01)",
    samples=unary_samples({"negative_slope": 0.01}, avoid=(0.0,))
    + (
        Sample(((2, 3),), {"negative_slope": 0.2}, avoid=(0.0,)),
        Sample(((4,),), {"negative_slope": -1.5}, avoid=(0.0,)),
    ),
    to_torch=lambda w, a, p: f"F.leaky_relu({a[0]}, {w.lit(p.get('negative_slope', 0.01))})",
    to_jax=lambda w, a, p: (
        f"jax.nn.leaky_relu({a[0]}, {w.lit(float(p.get('negative_slope', 0.01)))})"
    ),
    jvp_reads_primal=True,
)


def _first_order32(g: Tensor, x: Tensor) -> bool:
    """A first-order backward pass of a float32 elementwise op: its gradient is computed by
    the bit-exact kernel of `ops.act32` (a recorded one, create_graph=True, by the rule's
    differentiable form)."""
    return (
        not grad_enabled()
        and x.dtype == np.float32
        and g.dtype == np.float32
        and g.shape == x.shape
    )


def _first_order_reduced(g: Tensor, x: Tensor) -> bool:
    """A first-order backward pass of a float16 or bfloat16 elementwise op: ATen's reduced
    backward kernel, the float32 one on widened values rounded once (`core.half`)."""
    return not grad_enabled() and g.dtype == x.dtype and g.dtype in _REDUCED and g.shape == x.shape


def _softplus_fwd(x: np.ndarray, beta: float = 1.0, threshold: float = 20.0) -> np.ndarray:
    if x.dtype == np.float32:
        return act32.softplus(x, beta, threshold)
    bx = x * beta
    soft = (np.maximum(bx, 0) + np.log1p(np.exp(-np.abs(bx)))) / beta
    return np.where(bx > threshold, x, soft).astype(x.dtype)


def _softplus_vjp(
    g: Tensor, out: Tensor, x: Tensor, beta: float = 1.0, threshold: float = 20.0
) -> tuple:
    if _first_order32(g, x):
        return (Tensor(act32.softplus_backward(g.data, x.data, beta, threshold)),)
    # PyTorch's kernel, also recorded (create_graph=True: SoftplusBackwardBackward0)
    return (apply(softplus_backward, g, x, beta=beta, threshold=threshold),)


def _softplus_backward_fwd(
    g: np.ndarray, x: np.ndarray, *, beta: float, threshold: float
) -> np.ndarray:
    # ATen's softplus_backward: g where beta * x > threshold, else g * z / (z + 1), z =
    # exp(beta * x)
    if g.dtype == np.float32 and x.dtype == np.float32:
        if g.shape != x.shape:  # a batched pass: the kernel on the broadcast operands
            g, x = (np.ascontiguousarray(a) for a in np.broadcast_arrays(g, x))
        return act32.softplus_backward(g, x, beta, threshold)
    with np.errstate(all="ignore"):
        bx = x * beta
        z = np.exp(bx)
        return np.where(bx > threshold, g, (g * z) / (z + 1))


def _softplus_backward_vjp(
    h: Tensor, out: Tensor, g: Tensor, x: Tensor, *, beta: float, threshold: float
) -> tuple:
    # derivatives.yaml: grad_output: softplus_backward(grad, self, beta, threshold); self:
    # softplus_double_backward(grad * grad_output, self, beta, threshold), which is
    # sigmoid_backward(hg, sigmoid(x * beta)) * (x * beta < threshold) * beta
    bx = x * beta
    below = mask_like(bx.data < threshold, h)
    second = apply(sigmoid_backward, h * g, bx.sigmoid()) * below * beta
    if second.node is not None:  # `* beta`, a Scalar in C++: PyTorch's mul.Scalar node
        second.node.label = "MulBackward1"
    return (apply(softplus_backward, h, x, beta=beta, threshold=threshold), second)


# softplus's gradient as PyTorch computes it, also under create_graph=True
softplus_backward = defop(
    "softplus_backward",
    _softplus_backward_fwd,
    _softplus_backward_vjp,
    "SoftplusBackwardBackward0",
    "softplus_backward(h, x), sigmoid'(beta x) * beta * h * g  (0 where beta * x >= threshold)",
    kind="internal",
    jvp_zeros=(0, 1),  # (PyTorch's forward formula materializes a missing tangent)
    saves=False,
    sym=lambda sp, g, x, beta, threshold: np.frompyfunc(
        lambda gv, xv: sp.Piecewise(
            (gv, beta * xv > threshold), (gv / (1 + sp.exp(-beta * xv)), True)
        ),
        2,
        1,
    )(g, x),
    samples=(
        Sample(((2, 3), (2, 3)), {"beta": 1.0, "threshold": 20.0}),
        Sample(((4, 2, 3), (2, 3)), {"beta": 1.0, "threshold": 20.0}),
        Sample(((3, 4), (3, 4)), {"beta": 2.0, "threshold": 1.0}, avoid=(0.5,)),
    ),
)


def _jax_softplus(w: Any, a: list[str], p: dict[str, Any]) -> str:
    beta, threshold = w.lit(float(p.get("beta", 1.0))), w.lit(float(p.get("threshold", 20.0)))
    # PyTorch's: log(1 + exp(beta x)) / beta, and x itself past the threshold.
    return (
        f"jnp.where({a[0]} * {beta} > {threshold}, {a[0]}, "
        f"jnp.logaddexp(0.0, {a[0]} * {beta}) / {beta})"
    )


softplus = defop(
    "softplus",
    _softplus_fwd,
    _softplus_vjp,
    "SoftplusBackward0",
    "g * sigmoid(beta * x)  (g where beta * x > threshold)",
    sym=lambda sp, x, beta=1.0, threshold=20.0: sp.Piecewise(
        (x, beta * x > threshold), (sp.log(1 + sp.exp(beta * x)) / beta, True)
    ),
    signature="softplus(x, beta=1, threshold=20)",
    samples=unary_samples({"beta": 1.0, "threshold": 20.0}, low=-4.0, high=4.0)
    + (
        Sample(((2, 3),), {"beta": 2.0, "threshold": 20.0}),
        Sample(((3, 4),), {"beta": 2.0, "threshold": 1.0}, avoid=(0.5,)),
        Sample(((2, 3),), {"beta": 0.5, "threshold": 0.5}, avoid=(1.0,)),
    ),
    to_torch=lambda w, a, p: (
        f"F.softplus({a[0]}, beta={w.lit(p.get('beta', 1.0))}, "
        f"threshold={w.lit(p.get('threshold', 20.0))})"
    ),
    to_jax=_jax_softplus,
)

_SQRT1_2 = math.sqrt(0.5)  # M_SQRT1_2, correctly rounded (1 / sqrt(2) is an ulp below)
_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)
_GELU_K = math.sqrt(2 / math.pi)
_GELU_C = 0.044715


def _gelu_onednn(x: np.ndarray, approximate: str) -> bool:
    """PyTorch computes an exact gelu of a contiguous float32 tensor of two elements or more
    with oneDNN's kernel (`core.onednn32`), others with ATen's (`ops.act32`; also a float16
    or bfloat16 tensor's, computed in float32: `vecloop.REDUCED`)."""
    return (
        approximate != "tanh"
        and x.size > 1
        and x.flags.c_contiguous
        and vecloop.REDUCED[0] is None
        and not _GradMode.rows_expanded
    )


def _gelu_fwd(x: np.ndarray, approximate: str = "none") -> np.ndarray:
    if x.dtype == np.float32:
        if _gelu_onednn(x, approximate):
            # oneDNN's JIT kernel: its AVX512 form (a minimax polynomial) or its AVX2 one
            return onednn32.gelu_fwd_avx2(x) if cpu.avx2() else onednn32.gelu_fwd(x)
        return act32.gelu(x, approximate)
    if approximate == "tanh":
        return 0.5 * x * (1 + np.tanh(_GELU_K * (x + _GELU_C * x**3)))
    return 0.5 * x * (1 + _erf(x * _SQRT1_2))


_REDUCED = (np.dtype(np.float16), BF16)


def _gelu_vjp(g: Tensor, out: Tensor, x: Tensor, approximate: str = "none") -> tuple:
    if _first_order32(g, x):
        if _gelu_onednn(x.data, approximate):
            return (Tensor(onednn32.gelu_bwd(g.data, x.data)),)
        return (Tensor(act32.gelu_backward(g.data, x.data, approximate)),)
    if (
        g.dtype == x.dtype
        and g.shape[g.ndim - x.ndim :] == x.shape
        and (
            g.dtype in _REDUCED
            or g.dtype == np.float32
            or (g.dtype == np.float64 and grad_enabled())
        )
    ):
        # (g with leading batch axes: torch.func's vmapped backward, the kernel broadcasting x)
        # recorded (create_graph=True, any dtype): PyTorch's kernel as its own node,
        # GeluBackwardBackward0, differentiated by gelu_double_backward; float16 and bfloat16:
        # that kernel in float32, rounded once (`core.half`)
        return (apply(gelu_backward, g, x, approximate=approximate),)
    if approximate == "tanh":
        t = ((x + x * x * x * _GELU_C) * _GELU_K).tanh()
        return (
            g * ((t + 1) * 0.5 + x * (1 - t * t) * (x * x * (3 * _GELU_C) + 1) * (0.5 * _GELU_K)),
        )
    cdf = ((x * _SQRT1_2).erf() + 1) * 0.5
    pdf = (x * x * -0.5).exp() * _INV_SQRT_2PI
    return (g * (cdf + x * pdf),)


def _gelu_backward_fwd(g: np.ndarray, x: np.ndarray, *, approximate: str) -> np.ndarray:
    """The first pass's kernels for float32 (oneDNN's or ATen's, as without create_graph);
    the formula for other dtypes (the rule's own path does not reach this record with them)."""
    if g.dtype == x.dtype == np.float32 and g.shape[g.ndim - x.ndim :] == x.shape:
        if g.shape != x.shape:
            x = np.ascontiguousarray(np.broadcast_to(x, g.shape))
        if _gelu_onednn(x, approximate):
            return onednn32.gelu_bwd(g, x)
        return act32.gelu_backward(g, x, approximate)
    if g.dtype == x.dtype == np.float64:
        return _gelu_backward64(g, x, approximate)
    with np.errstate(all="ignore"):
        if approximate == "tanh":
            t = np.tanh(_GELU_K * (x + _GELU_C * x**3))
            return g * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _GELU_K * (1 + 3 * _GELU_C * x * x))
        return g * (0.5 * (1 + _erf(x * _SQRT1_2)) + x * np.exp(-0.5 * x * x) * _INV_SQRT_2PI)


def _gelu_backward64(g: np.ndarray, x: np.ndarray, approximate: str) -> np.ndarray:
    """float64 gelu's gradient with the numbers of the unrecorded pass (`_gelu_vjp`'s
    formula, each operation by its op's float64 kernel), so that create_graph=True records a
    GeluBackwardBackward0 node without changing the first derivative's value."""
    with np.errstate(all="ignore"):
        if approximate == "tanh":
            t = _tanh64((x + x * x * x * _GELU_C) * _GELU_K)
            d = (t + 1) * 0.5 + x * (1 - t * t) * (x * x * (3 * _GELU_C) + 1) * (0.5 * _GELU_K)
            return g * d
        cdf = (_erf(x * _SQRT1_2) + 1) * 0.5
        pdf = _exp64(x * x * -0.5) * _INV_SQRT_2PI
        return g * (cdf + x * pdf)


_GELU_KBETA = math.sqrt(2) * (2 / math.sqrt(math.pi)) * 0.5
_GELU_KBETA_ERF = (2 / math.sqrt(math.pi)) * math.sqrt(0.5) * 0.5


def _gelu_backward_vjp(h: Tensor, out: Tensor, g: Tensor, x: Tensor, *, approximate: str):
    # derivatives.yaml: grad_output: gelu_backward(grad, self); self: gelu_double_backward,
    # PyTorch's operations in its order
    first = apply(gelu_backward, h, x, approximate=approximate)
    if approximate == "tanh":
        inner = (x + x.pow(3) * 0.044715) * _GELU_KBETA
        t = inner.tanh()
        sech = 1 / inner.cosh()
        f = x * 0.5
        gg = 1 - t * t
        hh = (x * (3 * 0.044715) * x + 1) * _GELU_KBETA  # C++: (3 * kKappa) a double
        f_prime_gh = gg * 0.5 * hh
        g_prime = (sech * 2) * (-sech * t) * hh
        g_prime_fh = f * hh * g_prime
        h_prime = x * (6 * 0.044715) * _GELU_KBETA
        h_prime_fg = f * gg * h_prime
        return (first, h * g * (f_prime_gh + f_prime_gh + g_prime_fh + h_prime_fg))
    sq = x * x
    pdf = (sq * -0.5).exp() * _GELU_KBETA_ERF
    # `ggI * grad * (pdf * 2 - input_sq * pdf)` as compiled: each operator's right operand
    # first (measured order: input_sq * pdf, pdf * 2, the difference, ggI * grad, the product)
    right = sq * pdf
    diff = pdf * 2 - right
    return (first, h * g * diff)


# gelu's gradient as PyTorch computes it under create_graph=True (float32): its kernel, its
# own node, differentiated by gelu_double_backward
gelu_backward = defop(
    "gelu_backward",
    _gelu_backward_fwd,
    _gelu_backward_vjp,
    "GeluBackwardBackward0",
    "gelu_backward(h, x), h * g * gelu''(x)",
    kind="internal",
    jvp_zeros=(0,),  # (PyTorch's forward formula materializes a missing tangent)
    saves=False,
    sym=lambda sp, g, x, approximate: np.frompyfunc(
        lambda gv, xv: (
            gv
            * sp.diff(
                (
                    sp.Symbol("u") * (1 + sp.erf(sp.Symbol("u") / sp.sqrt(2))) / 2
                    if approximate == "none"
                    else sp.Symbol("u")
                    * (
                        1
                        + sp.tanh(
                            sp.sqrt(2 / sp.pi)
                            * (sp.Symbol("u") + sp.Rational(44715, 1000000) * sp.Symbol("u") ** 3)
                        )
                    )
                    / 2
                ),
                sp.Symbol("u"),
            ).subs(sp.Symbol("u"), xv)
        ),
        2,
        1,
    )(g, x),
    samples=(
        Sample(((2, 3), (2, 3)), {"approximate": "none"}, low=-3.0, high=3.0),
        Sample(((2, 3), (2, 3)), {"approximate": "tanh"}, low=-3.0, high=3.0),
    ),
)


gelu = defop(
    "gelu",
    _gelu_fwd,
    _gelu_vjp,
    "GeluBackward0",
    "g * (Phi(x) + x * phi(x))",
    sym=lambda sp, x, approximate="none": (
        x * (1 + sp.erf(x / sp.sqrt(2))) / 2
        if approximate == "none"
        else x * (1 + sp.tanh(sp.sqrt(2 / sp.pi) * (x + sp.Rational(44715, 1000000) * x**3))) / 2
    ),
    signature="gelu(x, approximate='none')",
    samples=unary_samples({"approximate": "none"}, low=-3.0, high=3.0)
    + unary_samples({"approximate": "tanh"}, low=-3.0, high=3.0),
    to_torch=lambda w, a, p: f"F.gelu({a[0]}, approximate={w.lit(p.get('approximate', 'none'))})",
    to_jax=lambda w, a, p: (
        f"jax.nn.gelu({a[0]}, approximate={p.get('approximate', 'none') == 'tanh'})"
    ),
)


def _clamp_fwd(x: np.ndarray, min: float | None = None, max: float | None = None) -> np.ndarray:
    # ATen's clamp keeps x where it ties with a bound (x < min ? min : x, then x > max ? max :
    # x, its vector kernel's operand order too): a -0.0 stays -0.0 at min=0; NaN stays NaN
    out = x
    if min is not None:
        out = np.where(out < min, np.asarray(min).astype(out.dtype, copy=False), out)
    if max is not None:
        out = np.where(out > max, np.asarray(max).astype(out.dtype, copy=False), out)
    return np.asarray(out, dtype=x.dtype)


def _clamp_vjp(
    g: Tensor, out: Tensor, x: Tensor, min: float | None = None, max: float | None = None
) -> tuple:
    keep = np.ones(x.shape, dtype=bool)
    if min is not None:
        keep &= x.data >= min
    if max is not None:
        keep &= x.data <= max
    # As PyTorch: where(min <= x <= max, g, 0), so the zeros are +0 (g * mask gave -0 where g
    # is negative, and printed so: tensor([-0., -1.]) for PyTorch's tensor([ 0., -1.])).
    return (apply(where, Tensor(keep), g, Tensor(np.zeros((), dtype=g.dtype))),)


clamp = defop(
    "clamp",
    _clamp_fwd,
    _clamp_vjp,
    "ClampBackward1",
    "g * (min <= x <= max)",
    sym=lambda sp, x, min=None, max=None: (
        sp.Min(sp.Max(x, min), max)
        if min is not None and max is not None
        else sp.Max(x, min)
        if min is not None
        else sp.Min(x, max)
        if max is not None
        else x
    ),
    kink="clamp passes the gradient at the bounds (min <= x <= max), as PyTorch",
    signature="clamp(x, min=None, max=None)",
    samples=unary_samples({"min": -0.5, "max": 0.5}, avoid=(-0.5, 0.5))
    + (
        Sample(((2, 3),), {"min": 0.25, "max": None}, avoid=(0.25,)),
        Sample(((2, 3),), {"min": None, "max": -0.25}, avoid=(-0.25,)),
        Sample(((4,),), {"min": 1.0, "max": 1.0}, avoid=(1.0,)),
    ),
    to_torch=lambda w, a, p: (
        f"torch.clamp({a[0]}, min={w.lit(p.get('min'))}, max={w.lit(p.get('max'))})"
    ),
    to_jax=lambda w, a, p: f"jnp.clip({a[0]}, {w.lit(p.get('min'))}, {w.lit(p.get('max'))})",
)


def _pow_fwd(x: np.ndarray, p: float) -> np.ndarray:
    """`x ** p` as ATen's CPU kernel computes it for float32 and float64 (`pow_tensor_scalar`):
    exponents 2, 3 and -2 as products (`x * x * x`, `1 / (x * x)`, each rounded), -1 and -0.5
    as a quotient (`1 / sqrt(x)`, the root correctly rounded), 0.5 as `sqrt` (MKL's bits,
    `core.vmlsqrt`), 0 and 1 exactly; other float32 exponents as ATen's loop: SLEEF's `powf`
    with p rounded to float32 on the vectorised elements, the double-precision `pow` rounded
    once on the rest (`core.powf32`)."""
    if x.dtype.kind != "f" or x.dtype.itemsize < 4:
        return np.power(x, p)
    one = x.dtype.type(1)
    with np.errstate(all="ignore"):
        if p == 0:
            return np.ones_like(x)
        if p == 1:
            return x.copy()
        if p == 2:
            return x * x
        if p == 3:
            return x * x * x
        if p == -2:
            return one / (x * x)
        if p == -1:
            return one / x
        if p == 0.5:
            return vmlsqrt.sqrt(x)
        if p == -0.5:
            return one / np.sqrt(x)
        if x.dtype == np.float32:
            return powf32.pow_tensor_scalar(x, float(p))
        return np.power(x, float(p))


def _pow_vjp(g: Tensor, out: Tensor, x: Tensor, p: float) -> tuple:
    if p == 0:
        # PyTorch's zeros_like(x): no graph, and zeros even where g is nan or inf.
        return (Tensor(np.zeros(g.shape, dtype=g.dtype)),)
    # PyTorch's `grad * (p * x.pow(p - 1))`, in that order; x ** 1 keeps `x.pow(0)`, so the
    # derivative still depends on x (a higher derivative through it is zeros, not an error).
    if p == 2 and not grad_enabled() and g.shape == x.shape and g.dtype == x.dtype:
        # A first-order pass: the same two products, `x * 2.0` then `g * that`, on one
        # buffer (block by block when large); x ** 1 is x, so 2.0 * x ** 1 is x * 2.0.
        xd = x.data
        d = np.empty_like(xd) if xd.flags.c_contiguous else np.empty(xd.shape, xd.dtype)
        _square_grad(xd, g.data, d, None)
        return (Tensor(d),)
    # (`p *` a Scalar times a tensor in C++: mul.Scalar, MulBackward1 under create_graph)
    if x.dtype in (np.float32, np.float64):
        return (g * scale(x ** (p - 1), float(p)),)
    return (g * (float(p) * x ** (p - 1)),)


def _square_grad(xd: np.ndarray, gd: np.ndarray, d: Any, acc: np.ndarray | None) -> None:
    """`g * (x * 2.0)` into `d` (C-contiguous, x's shape), or, with `acc` (and `d` None),
    added into `acc`: the same operations element by element."""
    two = np.asarray(2.0, dtype=xd.dtype)
    if xd.size > _BLOCK and _contiguous(xd, gd):
        scratch = np.empty(_BLOCK, dtype=xd.dtype) if acc is not None else None
        for xb, gb, db in _flat_blocks(xd, gd, d if acc is None else acc):
            tb = db if scratch is None else scratch[: xb.size]
            np.multiply(xb, two, out=tb)
            np.multiply(gb, tb, out=tb)
            if scratch is not None:
                np.add(db, tb, out=db)
        return
    if d is None:
        d = np.empty(xd.shape, xd.dtype)
    np.multiply(xd, two, out=d)
    np.multiply(gd, d, out=d)
    if acc is not None:
        np.add(acc, d, out=acc)


def _pow_accumulate(acc: np.ndarray, g: Any, out: Tensor, x: Tensor, p: float) -> bool:
    gd, xd = (g.data if type(g) is Tensor else g), x.data
    if p != 2 or grad_enabled() or gd.shape != xd.shape or gd.dtype != xd.dtype:
        return False
    if acc.shape != xd.shape or acc.dtype != xd.dtype or not acc.flags.c_contiguous:
        return False
    _square_grad(xd, gd, None, acc)
    return True


pow_scalar = defop(
    "pow_scalar",
    _pow_fwd,
    _pow_vjp,
    "PowBackward0",
    "g * p * x^(p-1)",
    saved=V.saves(self=V.SELF, exponent=V.param("p")),
    accumulate=_pow_accumulate,
    sym=lambda sp, x, p: x**p,
    signature="x ** p, pow(x, p)",
    samples=unary_samples({"p": 2})
    + unary_samples({"p": 3})
    + unary_samples({"p": 0.5}, low=0.1)
    + (
        Sample(((2, 3),), {"p": -1.5}, low=0.2),
        Sample(((2, 3),), {"p": 0}),
        Sample(((2, 3),), {"p": 1}),
        Sample(((2, 3),), {"p": -2}, avoid=(0.0,), gap=0.3),
        Sample(((2, 3),), {"p": 2.5}, low=0.1),
    ),
    to_torch="{0} ** {p}",
    to_jax="{0} ** {p}",
    complex="holo",
)


def scale(t: Tensor, c: Any) -> Tensor:
    """`t * c` for a real number `c` as PyTorch's C++ rules multiply a gradient by a Scalar
    (mul.Scalar: a MulBackward1 node whose one edge is t's; `maybe_multiply`, add's alpha),
    where the operator `*` of a program records mul.Tensor (MulBackward0, an edge for the
    number too). The number in t's dtype, as ATen's kernel."""
    return apply(times_scalar, t, c=c)


def _mul_scalar_fwd(x: np.ndarray, c: Any) -> np.ndarray:
    if x.dtype == np.float16:  # (computed in float32, ATen's opmath, then rounded once)
        return np.multiply(x.astype(np.float32), np.float32(c)).astype(np.float16)
    return np.multiply(x, np.asarray(c, dtype=x.dtype))


times_scalar = defop(
    "times_scalar",
    _mul_scalar_fwd,
    lambda g, out, x, c: (scale(g, c),),
    "MulBackward1",
    "g * c",
    sym=lambda sp, x, c: x * sp.sympify(c),
    saves=False,
    jvp=lambda dots, out, x, c: scale(dots[0], c),
    signature="x * c (a Scalar)",
    samples=unary_samples({"c": 1.5}) + (Sample(((2, 3),), {"c": -0.25}),),
    to_torch="torch.mul({0}, {c})",
    to_jax="{0} * {c}",
)


# --- addcmul, addcdiv, lerp of a tensor weight: their rules as derivatives.yaml writes them -----
# (the operands of one float dtype and one shape, the caller's expand before; the values ATen's
# kernels': addcmul's last step fused, addcdiv's not, lerp's by the weight's size)


def _number(c: Any, like: Tensor) -> Tensor:
    """A Python number as PyTorch's wrapped-number tensor in an expression of its rules (no
    edge; in the tensor's dtype, as the kernel casts it)."""
    return constant(np.asarray(c, dtype=like.dtype))


def _addcmul_vjp(g: Tensor, out: Tensor, x: Tensor, t1: Tensor, t2: Tensor, value: Any) -> tuple:
    """self: g; tensor1: g * (tensor2 * value); tensor2: g * (tensor1 * value)."""
    return (
        g if x.requires_grad else None,
        g * scale(t2, value) if t1.requires_grad else None,
        g * scale(t1, value) if t2.requires_grad else None,
    )


def _addcmul_jvp(dots: tuple, out: Tensor, x: Tensor, t1: Tensor, t2: Tensor, value: Any):
    """self' + (tensor1' * tensor2) * value + (tensor2' * tensor1) * value, in that order."""
    dx, d1, d2 = dots
    terms = [] if dx is None else [dx]
    if d1 is not None:
        terms.append(_maybe_scale(d1 * t2, value))
    if d2 is not None:
        terms.append(_maybe_scale(d2 * t1, value))
    return _summed(terms)


def _maybe_scale(t: Tensor, c: Any) -> Tensor:
    return t if c == 1 else scale(t, c)


def _summed(terms: list) -> Tensor:
    acc = terms[0]
    for t in terms[1:]:
        acc = acc + t
    return acc


addcmul = defop(
    "addcmul",
    lambda x, t1, t2, value: _fused(np.multiply(t1, np.asarray(value, t1.dtype)), t2, x),
    _addcmul_vjp,
    "AddcmulBackward0",
    "g, g * (t2 * value), g * (t1 * value)",
    sym=lambda sp, x, t1, t2, value: x + sp.sympify(value) * t1 * t2,
    jvp=_addcmul_jvp,
    jvp_reads_primal=True,
    signature="x + value * t1 * t2 (one shape, one float dtype)",
    samples=(Sample(((2, 3), (2, 3), (2, 3)), {"value": 0.5}),),
    to_torch="torch.addcmul({0}, {1}, {2}, value={value})",
    to_jax="{0} + {value} * {1} * {2}",
)


def _addcdiv_vjp(g: Tensor, out: Tensor, x: Tensor, t1: Tensor, t2: Tensor, value: Any) -> tuple:
    """self: g; tensor1: g * (value / tensor2); tensor2: -g * (value * tensor1 / (tensor2 *
    tensor2))."""
    return (
        g if x.requires_grad else None,
        g * (_number(value, t2) / t2) if t1.requires_grad else None,
        -g * (scale(t1, value) / (t2 * t2)) if t2.requires_grad else None,
    )


def _addcdiv_jvp(dots: tuple, out: Tensor, x: Tensor, t1: Tensor, t2: Tensor, value: Any):
    """self' + (tensor1' / tensor2) * value - (tensor2' * (tensor1 / tensor2) / tensor2) *
    value, in that order."""
    dx, d1, d2 = dots
    acc = dx
    if d1 is not None:
        t = _maybe_scale(d1 / t2, value)
        acc = t if acc is None else acc + t
    if d2 is not None:
        t = _maybe_scale(d2 * (t1 / t2) / t2, value)
        acc = -t if acc is None else acc - t
    return acc


addcdiv = defop(
    "addcdiv",
    lambda x, t1, t2, value: x + np.multiply(np.asarray(value, t1.dtype), t1) / t2,
    _addcdiv_vjp,
    "AddcdivBackward0",
    "g, g * (value / t2), -g * (value * t1 / (t2 * t2))",
    sym=lambda sp, x, t1, t2, value: x + sp.sympify(value) * t1 / t2,
    jvp=_addcdiv_jvp,
    jvp_reads_primal=True,
    domain=lambda x, t1, t2, value: None if np.all(t2 != 0) else "t2 = 0",
    signature="x + value * t1 / t2 (one shape, one float dtype)",
    samples=(Sample(((2, 3), (2, 3), (2, 3)), {"value": -1.5}, avoid=(0.0,), gap=0.3),),
    to_torch="torch.addcdiv({0}, {1}, {2}, value={value})",
    to_jax="{0} + {value} * {1} / {2}",
)


def _fused(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a * b + c rounded once (float32 or float64 arrays of one shape)."""
    if a.dtype == np.float32:
        return powf32.fma32(a, b, c)
    return np.asarray(fma64._fma64(a, b, c))


def _lerp_fwd(s: np.ndarray, e: np.ndarray, w: np.ndarray) -> np.ndarray:
    """ATen's lerp of a tensor weight: fma(w, end - start, start) where |w| < 0.5, else
    fma(w - 1, end - start, end), element by element."""
    small = np.abs(w) < 0.5
    d = e - s
    return _fused(np.where(small, w, w - w.dtype.type(1)), d, np.where(small, s, e))


def _lerp_vjp(g: Tensor, out: Tensor, s: Tensor, e: Tensor, w: Tensor) -> tuple:
    """self: g * (1 - weight); end: g * weight; weight: g * (end - self)."""
    return (
        g * (_number(1, w) - w) if s.requires_grad else None,
        g * w if e.requires_grad else None,
        g * (e - s) if w.requires_grad else None,
    )


def _lerp_jvp(dots: tuple, out: Tensor, s: Tensor, e: Tensor, w: Tensor) -> Tensor:
    """lerp(self', end', weight) + weight' * (end - self)."""
    ds, de, dw = dots
    acc = None
    if ds is not None or de is not None:
        zero = constant(np.zeros(s.shape, s.dtype))
        acc = apply(lerp_tensor, zero if ds is None else ds, zero if de is None else de, w)
    if dw is not None:
        t = dw * (e - s)
        acc = t if acc is None else acc + t
    return acc


lerp_tensor = defop(
    "lerp_tensor",
    _lerp_fwd,
    _lerp_vjp,
    "LerpBackward1",
    "g * (1 - w), g * w, g * (end - start)",
    sym=lambda sp, s, e, w: s + w * (e - s),
    jvp=_lerp_jvp,
    jvp_reads_primal=True,
    signature="lerp(start, end, weight), a tensor weight (one shape, one float dtype)",
    samples=(Sample(((2, 3), (2, 3), (2, 3))),),
    to_torch="torch.lerp({0}, {1}, {2})",
    to_jax="{0} + {2} * ({1} - {0})",
)


rsub_scalar = defop(
    "rsub_scalar",
    lambda x, c: np.subtract(x.dtype.type(c), x, dtype=x.dtype),
    lambda g, out, x, c: (-g,),
    "RsubBackward1",
    "-g",
    sym=lambda sp, x, c: sp.sympify(c) - x,
    saves=False,
    signature="c - x",
    samples=unary_samples({"c": 2.0}) + (Sample(((2, 3),), {"c": -0.5}),),
    to_torch="{c} - {0}",
    to_jax="{c} - {0}",
)


def _rpow_vjp(g: Tensor, out: Tensor, x: Tensor, base: float) -> tuple:
    if base == 0:
        # out * log(0) is nan / -inf; PyTorch takes 0 where x >= 0 (and -inf where x < 0).
        return (g * constant(np.where(x.data >= 0, 0.0, -np.inf).astype(x.dtype)),)
    # PyTorch's pow_backward_exponent: grad * (result * log(base)), the scalar product first
    return (g * (out * (math.log(base) if base > 0 else float("nan"))),)


rpow_scalar = defop(
    "rpow_scalar",
    lambda x, base: (
        powf32.pow_tensor_tensor(np.float32(base), x)
        if x.dtype == np.float32
        else np.power(base, x)
    ),
    _rpow_vjp,
    "PowBackward2",
    "g * (out * log(c))",
    sym=lambda sp, x, base: sp.sympify(base) ** x,
    signature="c ** x, pow(c, x)",
    samples=unary_samples({"base": 2.0})
    + (
        Sample(((2, 3),), {"base": 0.5}),
        Sample(((2, 3),), {"base": math.e}),
        Sample(((2, 3),), {"base": 1.0}),
        Sample(((2, 3),), {"base": 0.0}, low=0.1),
    ),
    to_torch="{base} ** {0}",
    to_jax="{base} ** {0}",
)
