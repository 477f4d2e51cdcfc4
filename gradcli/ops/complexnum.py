"""Complex records: the parts of a complex tensor (`real`, `imag`: views, as PyTorch's),
`conj`, `angle`, and the ways between real and complex tensors (`complex(re, im)`,
`view_as_real`, `view_as_complex`).

The gradient of a complex tensor is PyTorch's: the conjugate Wirtinger derivative, so that
for a real loss L, z.grad = dL/d(re z) + i dL/d(im z). A rule here gets `g` in that
convention and gives its inputs' gradients in it (these records are `complex="rule"`: the
engine passes them `g` as it is, see `core.op.Op.complex`).
"""

from __future__ import annotations

import numpy as np

from ..core.autograd import COMPLEX_RECORDS
from ..core.op import Sample, apply, defop, unary_samples
from ..core.tensor import Tensor, constant


def _complex_of(dt: np.dtype) -> np.dtype:
    return np.dtype(np.complex128 if dt == np.float64 else np.complex64)


def as_complex(g: Tensor) -> Tensor:
    """A real gradient as the complex tensor of the same values (imaginary parts 0)."""
    if g.data.dtype.kind == "c":
        return g
    return apply(complex_, g, constant(np.zeros((), g.data.dtype)))


def _real_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    # L depends on re z only: dL/d(re) = g, dL/d(im) = 0
    return (as_complex(g) if x.data.dtype.kind == "c" else g,)


def _imag_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    # L depends on im z only: dL/d(re) = 0, dL/d(im) = g, so the gradient is i g
    if x.data.dtype.kind != "c":
        # (a real input: the registry's real samples; a program's x.imag of one is PyTorch's
        # error before this) zeros
        return (constant(np.zeros(g.shape, dtype=g.dtype)),)
    return (apply(complex_, constant(np.zeros((), g.data.dtype)), g),)


real = defop(
    "real",
    np.real,  # a view of the real parts, as PyTorch's
    _real_vjp,
    "RealBackward0",
    "g + 0i",
    saves=False,
    kind="shape",
    samples=unary_samples(),
    to_torch="torch.real",
    to_jax="jnp.real",
    complex="rule",
)
imag = defop(
    "imag",
    np.imag,  # a view of the imaginary parts, as PyTorch's
    _imag_vjp,
    "ImagBackward0",
    "i g",
    saves=False,
    kind="shape",
    samples=unary_samples(),
    to_torch="torch.imag",
    to_jax="jnp.imag",
    complex="rule",
)
conj = defop(
    "conj",
    np.conjugate,
    lambda g, out, x: (apply(conj, g),),
    "ConjBackward0",
    "conj(g)",
    saves=False,
    samples=unary_samples(),
    to_torch="torch.conj",
    to_jax="jnp.conj",
    complex="rule",
)


def _angle_fwd(x: np.ndarray) -> np.ndarray:
    if x.dtype == np.complex64:
        # atan2(im, re) in float64, rounded once: PyTorch's (SLEEF's atan2f u10 on vectors)
        # on 983 of 1000 random values, NumPy's float32 angle on 627
        re, im = x.real.astype(np.float64), x.imag.astype(np.float64)
        return np.arctan2(im, re).astype(np.float32)
    if x.dtype.kind == "c":
        return np.arctan2(x.imag, x.real)
    # of a real number: 0, or pi for a negative one (nan stays nan), as PyTorch
    return np.where(x < 0, np.asarray(np.pi, x.dtype), np.where(np.isnan(x), x, 0)).astype(x.dtype)


def _angle_vjp(g: Tensor, out: Tensor, x: Tensor) -> tuple:
    if x.data.dtype.kind != "c":
        # PyTorch's AngleBackward0 of a real tensor: zeros (an inf or nan gradient does not
        # leak through, as g * 0 would let it)
        return (constant(np.zeros(g.shape, dtype=g.dtype)),)
    # theta = atan2(y, x): d/dx = -y/r^2, d/dy = x/r^2, so the gradient is g i z / |z|^2
    # (0 at z = 0, as PyTorch's angle_backward), as differentiable operations
    r = x.abs()
    r2 = r * r + constant((r.data == 0).astype(r.data.dtype))
    return (g * x / r2 * 1j,)  # (in angle_backward's order: the signs of its zeros)


angle = defop(
    "angle",
    _angle_fwd,
    _angle_vjp,
    "AngleBackward0",
    "g i z / |z|^2",
    saved=None,
    sym=lambda sp, x: sp.Piecewise((sp.pi, x < 0), (0, True)),  # (of a real x)
    kink="angle'(0) = 0, as PyTorch",
    samples=unary_samples(avoid=(0.0,)),
    to_torch="torch.angle",
    to_jax="jnp.angle",
    complex="rule",
)


def _complex_fwd(re: np.ndarray, im: np.ndarray) -> np.ndarray:
    out = np.empty(np.broadcast_shapes(re.shape, im.shape), _complex_of(re.dtype))
    out.real = re
    out.imag = im
    return out


def _complex_vjp(g: Tensor, out: Tensor, re: Tensor, im: Tensor) -> tuple:
    return (apply(real, g), apply(imag, g))


complex_ = defop(
    "complex",
    _complex_fwd,
    _complex_vjp,
    "ComplexBackward0",
    "re g, im g",
    saves=False,
    kind="binary",
    samples=(Sample(((2, 3), (2, 3))), Sample(((), (3,)))),
    to_torch="torch.complex",
    to_jax="jax.lax.complex",
    complex="rule",
)


def _view_as_real_fwd(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind != "c":  # (a real array as complex numbers of imaginary part 0)
        return np.stack([x, np.zeros_like(x)], axis=-1)
    if x.ndim == 0 or not x.flags.c_contiguous:
        return np.stack([x.real, x.imag], axis=-1)  # (a copy: NumPy has no strided view)
    return x.view(x.real.dtype).reshape(*x.shape, 2)


def _view_as_complex_fwd(x: np.ndarray) -> np.ndarray:
    c = np.ascontiguousarray(x).view(_complex_of(x.dtype))
    return c.reshape(x.shape[:-1])


view_as_real = defop(
    "view_as_real",
    _view_as_real_fwd,
    lambda g, out, x: (apply(view_as_complex, g),),
    "ViewAsRealBackward0",
    "view_as_complex(g)",
    saves=False,
    kind="shape",
    samples=(Sample(((3,),)), Sample(((2, 2),))),
    to_torch="torch.view_as_real",
    to_jax=lambda w, a, p: f"jnp.stack([jnp.real({a[0]}), jnp.imag({a[0]})], -1)",
    complex="rule",
)
view_as_complex = defop(
    "view_as_complex",
    _view_as_complex_fwd,
    lambda g, out, x: (apply(view_as_real, g),),
    "ViewAsComplexBackward0",
    "view_as_real(g)",
    saves=False,
    kind="shape",
    samples=(Sample(((3, 2),)), Sample(((2, 2, 2),))),
    to_torch="torch.view_as_complex",
    to_jax=lambda w, a, p: f"jax.lax.complex({a[0]}[..., 0], {a[0]}[..., 1])",
    complex="rule",
)

# the engine's conjugations and real parts of complex gradients
COMPLEX_RECORDS.update(conj=conj, real=real)
