"""The discrete Fourier transforms: PyTorch's three primitives, which every `torch.fft`
function is made of (`surface.fft`):

fft_c2c   complex to complex over `dims`, forward (e^{-2 pi i jk/n}) or inverse (e^{+...})
fft_r2c   real to complex (forward), the last of `dims` one-sided (n // 2 + 1 values) or, not
          `onesided`, filled out by conjugate symmetry (`torch.fft.fft` of a real tensor)
fft_c2r   one-sided complex to real (inverse) over `dims`, the last dim of `last_dim_size`

`norm` is ATen's normalization: 0 none, 1 by sqrt(n), 2 by n (n: the product of the
transformed sizes), applied whichever way the transform goes. `dims` are negative (counted
from the end), so that a gradient with leading batch axes transforms the same axes.

The rules are ATen's (`FunctionsManual.cpp`: fft_r2c_backward, fft_c2r_backward), in PyTorch's
convention for complex gradients (conjugate Wirtinger, `ops.complexnum`): the adjoint of a
c2c transform is the c2c transform the other way with the same normalization; of r2c, the
one-sided gradient zero-filled to the full length, transformed back, its real part; of c2r,
the r2c transform of the gradient with the entries whose mirror image the one-sided input
stands for (1 .. n - (n // 2 + 1) of the last dim) doubled.

The values are NumPy's pocketfft's; PyTorch's CPU build computes them with MKL's DFTI, which
rounds otherwise: the results agree to the last bit or two (README, "Where gradcli differs").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.op import Sample, apply, defop
from ..core.tensor import Tensor, constant
from . import shape as S
from .arithmetic import named
from .complexnum import as_complex, real

_COPY_SLICES = "torch::autograd::CopySlices"

# ATen's normalization of a transform (forward or not) as NumPy's `norm=`
_NP_NORM = {
    (True, 0): "backward",
    (True, 1): "ortho",
    (True, 2): "forward",
    (False, 0): "forward",
    (False, 1): "ortho",
    (False, 2): "backward",
}


def _c2c_fwd(x: np.ndarray, dims: tuple, norm: int, forward: bool) -> np.ndarray:
    x = np.asarray(x)
    if x.dtype.kind != "c":  # (the registry's real samples)
        x = x.astype(np.complex64 if x.dtype == np.float32 else np.complex128)
    f = np.fft.fftn if forward else np.fft.ifftn
    return f(x, axes=dims, norm=_NP_NORM[(forward, norm)]).astype(x.dtype, copy=False)


def _complex_dtype(dt: np.dtype) -> np.dtype:
    return np.dtype(np.complex64 if dt == np.float32 else np.complex128)


def _fill_symmetric(half: np.ndarray, n: int, dims: tuple) -> np.ndarray:
    """The full transform of a real signal from its one-sided part (the last of `dims` of
    length n // 2 + 1): X[k] = conj(X[-k mod n]) for the rest, as ATen fills it."""
    last = dims[-1]
    h = half.shape[last]
    shape = list(half.shape)
    shape[last] = n
    full = np.empty(shape, half.dtype)
    np.copyto(np.moveaxis(full, last, -1)[..., :h], np.moveaxis(half, last, -1))
    if n > h:
        mirror = np.conj(half)
        for d in dims[:-1]:  # index i of another dim -> (-i) mod its size
            mirror = np.roll(np.flip(mirror, d), 1, d)
        src = np.moveaxis(mirror, last, -1)[..., n - np.arange(h, n)]
        np.copyto(np.moveaxis(full, last, -1)[..., h:], src)
    return full


def _r2c_fwd(x: np.ndarray, dims: tuple, norm: int, onesided: bool) -> np.ndarray:
    x = np.asarray(x)
    out = np.fft.rfftn(x, axes=dims, norm=_NP_NORM[(True, norm)]).astype(
        _complex_dtype(x.dtype), copy=False
    )
    if not onesided:
        out = _fill_symmetric(out, x.shape[dims[-1]], dims)
    return out


def _c2r_fwd(x: np.ndarray, dims: tuple, norm: int, last_dim_size: int) -> np.ndarray:
    x = np.asarray(x)
    if x.dtype.kind != "c":
        x = x.astype(np.complex64 if x.dtype == np.float32 else np.complex128)
    s = [x.shape[d] for d in dims[:-1]] + [last_dim_size]
    out = np.fft.irfftn(x, s=s, axes=dims, norm=_NP_NORM[(False, norm)])
    return out.astype(x.real.dtype, copy=False)


def _c2c_vjp(g: Tensor, out: Tensor, x: Tensor, dims: tuple, norm: int, forward: bool) -> tuple:
    return (apply(fft_c2c, as_complex(g), dims=dims, norm=norm, forward=not forward),)


def _r2c_vjp(g: Tensor, out: Tensor, x: Tensor, dims: tuple, norm: int, onesided: bool) -> tuple:
    g = as_complex(g)
    last = dims[-1]
    n, h = x.shape[last], out.shape[last]
    if onesided and n > h:
        # the other half of the spectrum, which the one-sided output left out, is zero
        shape = list(out.shape)
        shape[last] = n
        idx = (Ellipsis, slice(0, h)) + (slice(None),) * (-last - 1)
        g = apply(S.index_put, g, idx=idx, shape=tuple(shape), out_ndim=out.ndim)
    # (at::real: a view PyTorch records as SelectBackward0)
    back = apply(fft_c2c, g, dims=dims, norm=norm, forward=False)
    return (apply(real, back, label="SelectBackward0"),)


def _c2r_vjp(
    g: Tensor, out: Tensor, x: Tensor, dims: tuple, norm: int, last_dim_size: int
) -> tuple:
    gi = apply(fft_r2c, g, dims=dims, norm=norm, onesided=True)
    last = dims[-1]
    double = g.shape[last] - gi.shape[last]
    if double > 0:
        # the entries that also stand for their mirror image (conjugate symmetry) count twice
        w = np.ones(gi.shape[last], gi.data.real.dtype)
        w[1 : 1 + double] = 2
        # (ATen doubles them in place, a narrow's mul_: CopySlices when differentiated again)
        gi = named(gi * constant(w.reshape((-1,) + (1,) * (-last - 1))), _COPY_SLICES)
    return (gi,)


def _c2c_jvp(dots: tuple, out: Tensor, x: Tensor, dims: tuple, norm: int, forward: bool) -> Any:
    d = dots[0]
    return (
        None if d is None else apply(fft_c2c, as_complex(d), dims=dims, norm=norm, forward=forward)
    )


def _r2c_jvp(dots: tuple, out: Tensor, x: Tensor, dims: tuple, norm: int, onesided: bool) -> Any:
    d = dots[0]
    return None if d is None else apply(fft_r2c, d, dims=dims, norm=norm, onesided=onesided)


def _c2r_jvp(
    dots: tuple, out: Tensor, x: Tensor, dims: tuple, norm: int, last_dim_size: int
) -> Any:
    d = dots[0]
    if d is None:
        return None
    return apply(fft_c2r, as_complex(d), dims=dims, norm=norm, last_dim_size=last_dim_size)


def _written(lib: str, kind: str, a: str, p: dict, out: Any) -> str:
    """One transform as the public functions write it (`torch.fft` / `jnp.fft`: NumPy's norm
    names are PyTorch's; a full transform of a real signal is fftn of it)."""
    dims = list(p["dims"])
    axes = "dim" if lib == "torch.fft" else "axes"
    if kind == "c2c":
        f, mode = ("fftn" if p["forward"] else "ifftn"), _NP_NORM[(p["forward"], p["norm"])]
    elif kind == "r2c":
        f, mode = ("rfftn" if p["onesided"] else "fftn"), _NP_NORM[(True, p["norm"])]
    else:
        s = [out.shape[d] for d in dims]
        mode = _NP_NORM[(False, p["norm"])]
        return f"{lib}.irfftn({a}, s={s}, {axes}={dims}, norm='{mode}')"
    return f"{lib}.{f}({a}, {axes}={dims}, norm='{mode}')"


def _writer(lib: str, kind: str) -> Any:
    return lambda w, a, p: _written(lib, kind, a[0], p, w.out)


fft_c2c = defop(
    "fft_c2c",
    _c2c_fwd,
    _c2c_vjp,
    "FftC2CBackward0",
    "fft_c2c(g, dims, norm, not forward)",
    saves=False,
    kind="shape",
    jvp=_c2c_jvp,
    samples=(
        Sample(((5,),), {"dims": (-1,), "norm": 0, "forward": True}),
        Sample(((2, 4),), {"dims": (-1,), "norm": 2, "forward": False}),
        Sample(((3, 2, 4),), {"dims": (-2, -1), "norm": 1, "forward": True}),
    ),
    to_torch=_writer("torch.fft", "c2c"),
    to_jax=_writer("jnp.fft", "c2c"),
    complex="rule",
)
fft_r2c = defop(
    "fft_r2c",
    _r2c_fwd,
    _r2c_vjp,
    "FftR2CBackward0",
    "re fft_c2c(g zero-filled to n, dims, norm, inverse)",
    saves=False,
    kind="shape",
    jvp=_r2c_jvp,
    samples=(
        Sample(((6,),), {"dims": (-1,), "norm": 0, "onesided": True}),
        Sample(((5,),), {"dims": (-1,), "norm": 1, "onesided": False}),
        Sample(((2, 3, 5),), {"dims": (-3, -1), "norm": 2, "onesided": True}),
    ),
    to_torch=_writer("torch.fft", "r2c"),
    to_jax=_writer("jnp.fft", "r2c"),
    complex="rule",
)
fft_c2r = defop(
    "fft_c2r",
    _c2r_fwd,
    _c2r_vjp,
    "FftC2RBackward0",
    "fft_r2c(g, dims, norm, onesided) with the mirrored entries doubled",
    saves=False,
    kind="shape",
    jvp=_c2r_jvp,
    samples=(
        Sample(((4,),), {"dims": (-1,), "norm": 2, "last_dim_size": 6}),
        Sample(((3,),), {"dims": (-1,), "norm": 0, "last_dim_size": 5}),
        Sample(((2, 3, 3),), {"dims": (-2, -1), "norm": 1, "last_dim_size": 4}),
    ),
    to_torch=_writer("torch.fft", "c2r"),
    to_jax=_writer("jnp.fft", "c2r"),
    complex="rule",
)
