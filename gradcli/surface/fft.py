"""torch.fft: every function as ATen composes it (SpectralOps.cpp) of the three transforms of
`ops.fft` (c2c, r2c, c2r) and the steps around them that PyTorch records too: integer inputs
made the default float dtype and real ones complex where the function needs it (a
ToCopyBackward0 node), a signal cut (SliceBackward0) or zero-padded (ConstantPadNdBackward0) to
`n` / `s`, the conjugations of ifft / hfft / ihfft, and the `norm=` modes ("backward": the
inverse divides by n; "forward": the forward does; "ortho": both by sqrt(n)). The helpers
fftfreq / rfftfreq / fftshift / ifftshift are arange, a multiplication and roll, as PyTorch's.
PyTorch's errors for a wrong n, s, dim, norm or dtype, in its words."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core import dtypes as D
from ..core.op import apply
from ..core.tensor import Settings, Tensor, typename
from ..ops import arithmetic as A
from ..ops import fft as FT
from ..ops import shape as S
from .declare import declare

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _input(v: Any, fn: str) -> Tensor:
    if not isinstance(v, Tensor):
        raise GradcliError(
            f"fft_{fn}(): argument 'input' (position 1) must be Tensor, not {typename(v)}"
        ).mirror("TypeError")
    return v


def _promote(x: Tensor, require_complex: bool) -> Tensor:
    """ATen's promote_tensor_fft: integers (and bool) to the default float dtype, float32 /
    float64 kept (complex: with `require_complex`), half precision refused."""
    dt = x.dtype
    if dt.kind == "c":
        return x
    new = dt if dt.kind == "f" else Settings.default_dtype
    if new not in _FLOATS:
        raise GradcliError(f"Unsupported dtype {D.scalar_type_name(new)}").mirror("RuntimeError")
    if require_complex:
        new = FT._complex_dtype(new)
    return x if new == dt else apply(S.astype, x, dtype=new)


def _wrap(dim: Any, ndim: int, fn: str) -> int:
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise GradcliError(f"fft_{fn}(): argument 'dim' must be int, not {typename(dim)}").mirror(
            "TypeError"
        )
    if ndim == 0:
        raise GradcliError(f"Dimension specified as {dim} but tensor has no dimensions").mirror(
            "IndexError"
        )
    if not -ndim <= dim < ndim:
        raise GradcliError(
            f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got "
            f"{dim})"
        ).mirror("IndexError")
    return dim % ndim


def _int_or_none(v: Any, name: str, fn: str) -> int | None:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise GradcliError(f"fft_{fn}(): argument '{name}' must be int, not {typename(v)}").mirror(
            "TypeError"
        )
    return v


def _points(n: int) -> None:
    if n < 1:
        raise GradcliError(f"Invalid number of data points ({n}) specified").mirror("RuntimeError")


def _norm(norm: Any, forward: bool, fn: str) -> int:
    """ATen's norm_from_string: 0 no scaling, 1 by sqrt(n), 2 by n."""
    if norm is not None and not isinstance(norm, str):
        raise GradcliError(f"fft_{fn}(): argument 'norm' must be str, not {typename(norm)}").mirror(
            "TypeError"
        )
    if norm is None or norm == "backward":
        return 0 if forward else 2
    if norm == "forward":
        return 2 if forward else 0
    if norm == "ortho":
        return 1
    raise GradcliError(f'Invalid normalization mode: "{norm}"').mirror("RuntimeError")


def _resize(x: Tensor, dims: list[int], sizes: list[int]) -> Tensor:
    """ATen's resize_fft_input: each dim longer than its size cut (a slice per dim, in order),
    then the shorter ones zero-padded at their ends (one pad)."""
    A.size_check(
        tuple(sizes[dims.index(d)] if d in dims else s for d, s in enumerate(x.shape)),
        "the resized signal",
    )
    pad = False
    for d, n in zip(dims, sizes, strict=True):
        if x.shape[d] > n:
            idx = (slice(None),) * d + (slice(0, n),)
            x = apply(S.index, x, idx=idx, label="SliceBackward0")
        elif x.shape[d] < n:
            pad = True
    if not pad:
        return x
    shape = list(x.shape)
    for d, n in zip(dims, sizes, strict=True):
        shape[d] = max(shape[d], n)
    idx = tuple(slice(0, s) for s in x.shape)
    return apply(
        S.index_put,
        x,
        idx=idx,
        shape=tuple(shape),
        out_ndim=x.ndim,
        label="ConstantPadNdBackward0",
    )


def _neg(dims: list[int], ndim: int) -> tuple[int, ...]:
    return tuple(d - ndim for d in dims)


def _conj(x: Tensor, label: str = "ConjBackward0") -> Tensor:
    from ..ops.complexnum import conj

    return apply(conj, x, label=label)


def _no_empty_batch(x: Tensor) -> None:
    """MKL's refusal of a transform of no signals (a batch dim of size 0; a transformed dim of
    size 0 is refused before, as no data points)."""
    if x.data.size == 0:
        raise GradcliError(
            "MKL FFT error: Intel oneMKL DFTI ERROR: Inconsistent configuration parameters"
        ).mirror("RuntimeError")


def _c2c(x: Tensor, dims: list[int], norm: int, forward: bool) -> Tensor:
    _no_empty_batch(x)
    return apply(FT.fft_c2c, x, dims=_neg(dims, x.ndim), norm=norm, forward=forward)


def _r2c(x: Tensor, dims: list[int], norm: int, onesided: bool) -> Tensor:
    _no_empty_batch(x)
    return apply(FT.fft_r2c, x, dims=_neg(dims, x.ndim), norm=norm, onesided=onesided)


def _c2r(x: Tensor, dims: list[int], norm: int, n: int) -> Tensor:
    _no_empty_batch(x)
    A.size_check(x.shape[: dims[-1]] + (n,) + x.shape[dims[-1] + 1 :], "the transform")
    return apply(FT.fft_c2r, x, dims=_neg(dims, x.ndim), norm=norm, last_dim_size=n)


def _real_only(x: Tensor, fn: str) -> None:
    if x.dtype.kind == "c":
        raise GradcliError(
            f"{fn} expects a real input tensor, but got {D.scalar_type_name(x.dtype)}"
        ).mirror("RuntimeError")


# --- one dimension -----------------------------------------------------------------------------


def _one_c2c(fn: str, x: Tensor, n: Any, dim: Any, norm: Any, forward: bool) -> Tensor:
    d = _wrap(dim, x.ndim, fn)
    size = x.shape[d] if n is None else n
    _points(size)
    if n is not None:
        x = _resize(x, [d], [n])
    return _c2c(x, [d], _norm(norm, forward, fn), forward)


def _one_r2c(fn: str, x: Tensor, n: Any, dim: Any, norm: Any, forward: bool, onesided: bool):
    _real_only(x, fn)
    x = _promote(x, False)
    d = _wrap(dim, x.ndim, fn)
    size = x.shape[d] if n is None else n
    _points(size)
    if n is not None:
        x = _resize(x, [d], [n])
    out = _r2c(x, [d], _norm(norm, forward, fn), onesided)
    # (ATen has no inverse r2c: the inverse of a real signal is the conjugate of the forward)
    return out if forward else _conj(out)


def _one_c2r(fn: str, x: Tensor, n: Any, dim: Any, norm: Any, forward: bool) -> Tensor:
    x = _promote(x, True)
    d = _wrap(dim, x.ndim, fn)
    size = 2 * (x.shape[d] - 1) if n is None else n
    _points(size)
    if n is not None:
        x = _resize(x, [d], [size // 2 + 1])
    mode = _norm(norm, forward, fn)
    if forward:
        x = _conj(x)
    return _c2r(x, [d], mode, size)


def _args(fn: str, input: Any, n: Any, dim: Any, out: Any) -> tuple[Tensor, Any]:
    x = _input(input, fn)
    n = _int_or_none(n, "n", fn)
    if out is not None:
        raise GradcliError(
            f"torch.fft.{fn}(..., out=) is not supported by gradcli",
            hint=f"assign the result: y = torch.fft.{fn}(x)",
        )
    return x, n


def fft(input: Any, n: Any = None, dim: Any = -1, norm: Any = None, *, out: Any = None):  # noqa: A002
    x, n = _args("fft", input, n, dim, out)
    if x.dtype.kind == "c":
        return _one_c2c("fft", x, n, dim, norm, True)
    return _one_r2c("fft", x, n, dim, norm, True, False)


def ifft(input: Any, n: Any = None, dim: Any = -1, norm: Any = None, *, out: Any = None):  # noqa: A002
    x, n = _args("ifft", input, n, dim, out)
    if x.dtype.kind == "c":
        return _one_c2c("ifft", x, n, dim, norm, False)
    return _one_r2c("ifft", x, n, dim, norm, False, False)


def rfft(input: Any, n: Any = None, dim: Any = -1, norm: Any = None, *, out: Any = None):  # noqa: A002
    x, n = _args("rfft", input, n, dim, out)
    return _one_r2c("rfft", x, n, dim, norm, True, True)


def ihfft(input: Any, n: Any = None, dim: Any = -1, norm: Any = None, *, out: Any = None):  # noqa: A002
    x, n = _args("ihfft", input, n, dim, out)
    return _one_r2c("ihfft", x, n, dim, norm, False, True)


def irfft(input: Any, n: Any = None, dim: Any = -1, norm: Any = None, *, out: Any = None):  # noqa: A002
    x, n = _args("irfft", input, n, dim, out)
    return _one_c2r("irfft", x, n, dim, norm, False)


def hfft(input: Any, n: Any = None, dim: Any = -1, norm: Any = None, *, out: Any = None):  # noqa: A002
    x, n = _args("hfft", input, n, dim, out)
    return _one_c2r("hfft", x, n, dim, norm, True)


# --- several dimensions --------------------------------------------------------------------------


def _int_seq(v: Any, name: str, fn: str) -> list[int] | None:
    if v is None:
        return None
    seq = list(v) if isinstance(v, (list, tuple)) else [v]
    for e in seq:
        if isinstance(e, bool) or not isinstance(e, int):
            # (the parser's words for a keyword argument, as s= and dim= are mostly given)
            raise GradcliError(
                f"fft_{fn}(): argument '{name}' must be tuple of ints, not {typename(v)}"
            ).mirror("TypeError")
    return seq


def _shape_dims(x: Tensor, s: Any, dim: Any, fn: str) -> tuple[list[int], list[int]]:
    """ATen's canonicalize_fft_shape_and_dim_args: (the sizes, the wrapped dims)."""
    s = _int_seq(s, "s", fn)
    dims = _int_seq(dim, "dim", fn)
    if dims is not None:
        dims = [_wrap(d, x.ndim, fn) for d in dims]
        if len(set(dims)) != len(dims):
            raise GradcliError("FFT dims must be unique").mirror("RuntimeError")
    if s is not None:
        if dims is not None and len(dims) != len(s):
            raise GradcliError(
                "When given, dim and shape arguments must have the same length"
            ).mirror("RuntimeError")
        if len(s) > x.ndim:
            raise GradcliError(
                f"Got shape with {len(s)} values but input tensor only has {x.ndim} dimensions."
            ).mirror("RuntimeError")
        if dims is None:
            dims = list(range(x.ndim - len(s), x.ndim))
        sizes = [x.shape[d] if n == -1 else n for d, n in zip(dims, s, strict=True)]
    elif dims is None:
        dims, sizes = list(range(x.ndim)), list(x.shape)
    else:
        sizes = [x.shape[d] for d in dims]
    for n in sizes:
        _points(n)
    return sizes, dims


def _at_least_one(dims: list[int], fn: str) -> None:
    if not dims:
        raise GradcliError(f"{fn} must transform at least one axis").mirror("RuntimeError")


def _n_c2c(fn: str, input: Any, s: Any, dim: Any, norm: Any, forward: bool, out: Any) -> Tensor:
    x, _ = _args(fn, input, None, None, out)
    sizes, dims = _shape_dims(x, s, dim, fn)
    x = _promote(x, True)
    x = _resize(x, dims, sizes)
    mode = _norm(norm, forward, fn)
    if not dims:
        return x
    return _c2c(x, dims, mode, forward)


def _n_r2c(fn: str, input: Any, s: Any, dim: Any, norm: Any, out: Any) -> Tensor:
    x, _ = _args(fn, input, None, None, out)
    if x.dtype.kind == "c":
        raise GradcliError(
            f"rfftn expects a real-valued input tensor, but got {D.scalar_type_name(x.dtype)}"
        ).mirror("RuntimeError")
    sizes, dims = _shape_dims(x, s, dim, fn)
    _at_least_one(dims, "rfftn")
    x = _resize(_promote(x, False), dims, sizes)
    return _r2c(x, dims, _norm(norm, True, fn), True)


def _c2r_shape(x: Tensor, s: Any, dim: Any, fn: str, name: str) -> tuple[list, list, int]:
    sizes, dims = _shape_dims(x, s, dim, fn)
    _at_least_one(dims, name)
    given = _int_seq(s, "s", fn)
    last = 2 * (x.shape[dims[-1]] - 1) if given is None or given[-1] == -1 else sizes[-1]
    _points(last)
    sizes[-1] = last // 2 + 1
    return sizes, dims, last


def _n_c2r(fn: str, input: Any, s: Any, dim: Any, norm: Any, out: Any) -> Tensor:
    x, _ = _args(fn, input, None, None, out)
    sizes, dims, last = _c2r_shape(x, s, dim, fn, "irfftn")
    x = _resize(_promote(x, True), dims, sizes)
    return _c2r(x, dims, _norm(norm, False, fn), last)


def _n_hfft(fn: str, input: Any, s: Any, dim: Any, norm: Any, out: Any) -> Tensor:
    x, _ = _args(fn, input, None, None, out)
    sizes, dims, last = _c2r_shape(x, s, dim, fn, "hfftn")
    x = _resize(_promote(x, True), dims, sizes)
    mode = _norm(norm, True, fn)
    if len(dims) > 1:
        x = _c2c(x, dims[:-1], mode, True)
    return _c2r(_conj(x), dims[-1:], mode, last)


def _n_ihfft(fn: str, input: Any, s: Any, dim: Any, norm: Any, out: Any) -> Tensor:
    x, _ = _args(fn, input, None, None, out)
    sizes, dims = _shape_dims(x, s, dim, fn)
    _at_least_one(dims, "ihfftn")
    x = _resize(_promote(x, False), dims, sizes)
    if x.dtype.kind == "c":
        raise GradcliError(
            f"Only supports floating-point dtypes, but found: {D.scalar_type_name(x.dtype)}"
        ).mirror("RuntimeError")
    mode = _norm(norm, False, fn)
    half = _r2c(x, dims[-1:], mode, True)
    if len(dims) == 1:
        return _conj(half)
    return _c2c(_conj(half, "ConjPhysicalBackward0"), dims[:-1], mode, False)


_TWO = (-2, -1)


def fft2(input: Any, s: Any = None, dim: Any = _TWO, norm: Any = None, *, out: Any = None):  # noqa: A002
    return _n_c2c("fft2", input, s, dim, norm, True, out)


def ifft2(input: Any, s: Any = None, dim: Any = _TWO, norm: Any = None, *, out: Any = None):  # noqa: A002
    return _n_c2c("ifft2", input, s, dim, norm, False, out)


def fftn(input: Any, s: Any = None, dim: Any = None, norm: Any = None, *, out: Any = None):  # noqa: A002
    return _n_c2c("fftn", input, s, dim, norm, True, out)


def ifftn(input: Any, s: Any = None, dim: Any = None, norm: Any = None, *, out: Any = None):  # noqa: A002
    return _n_c2c("ifftn", input, s, dim, norm, False, out)


def rfft2(input: Any, s: Any = None, dim: Any = _TWO, norm: Any = None, *, out: Any = None):  # noqa: A002
    return _n_r2c("rfft2", input, s, dim, norm, out)


def rfftn(input: Any, s: Any = None, dim: Any = None, norm: Any = None, *, out: Any = None):  # noqa: A002
    return _n_r2c("rfftn", input, s, dim, norm, out)


def irfft2(input: Any, s: Any = None, dim: Any = _TWO, norm: Any = None, *, out: Any = None):  # noqa: A002
    return _n_c2r("irfft2", input, s, dim, norm, out)


def irfftn(input: Any, s: Any = None, dim: Any = None, norm: Any = None, *, out: Any = None):  # noqa: A002
    return _n_c2r("irfftn", input, s, dim, norm, out)


def hfft2(input: Any, s: Any = None, dim: Any = _TWO, norm: Any = None, *, out: Any = None):  # noqa: A002
    return _n_hfft("hfft2", input, s, dim, norm, out)


def hfftn(input: Any, s: Any = None, dim: Any = None, norm: Any = None, *, out: Any = None):  # noqa: A002
    return _n_hfft("hfftn", input, s, dim, norm, out)


def ihfft2(input: Any, s: Any = None, dim: Any = _TWO, norm: Any = None, *, out: Any = None):  # noqa: A002
    return _n_ihfft("ihfft2", input, s, dim, norm, out)


def ihfftn(input: Any, s: Any = None, dim: Any = None, norm: Any = None, *, out: Any = None):  # noqa: A002
    return _n_ihfft("ihfftn", input, s, dim, norm, out)


# --- the helpers ------------------------------------------------------------------------------


def _freq_dtype(dtype: Any, fn: str) -> np.dtype:
    dt = Settings.default_dtype if dtype is None else D.check_dtype(dtype, fn=fn)
    if dt.kind == "c":  # (ATen's arange first)
        raise GradcliError(f"\"arange_cpu\" not implemented for '{D.scalar_type_name(dt)}'").mirror(
            "NotImplementedError"
        )
    if dt.kind != "f":
        raise GradcliError(f"{fn} requires a floating point or complex dtype").mirror(
            "RuntimeError"
        )
    return dt


def _scaled(values: np.ndarray, scale: float, dt: np.dtype, requires_grad: bool) -> Tensor:
    # ATen's arange, then `mul_(1.0 / (n * d))`: the scale a double, the product in the
    # tensor's dtype (float32 for the half-precision ones, rounded once)
    if dt == D.BF16:
        f32 = np.float32
        data = D.round_bf16(values.astype(f32) * np.asarray(scale).astype(f32))
    else:
        work = dt if dt.itemsize >= 4 else np.dtype(np.float32)
        data = (values.astype(work) * np.asarray(scale).astype(work)).astype(dt)
    return Tensor(data, requires_grad=requires_grad)


def _freq_args(n: Any, d: Any, fn: str) -> tuple[int, float]:
    if isinstance(n, bool) or not isinstance(n, int):
        raise GradcliError(
            f"fft_{fn}(): argument 'n' (position 1) must be int, not {typename(n)}"
        ).mirror("TypeError")
    if isinstance(d, bool) or not isinstance(d, (int, float)):
        raise GradcliError(f"fft_{fn}(): argument 'd' must be float, not {typename(d)}").mirror(
            "TypeError"
        )
    if n < 0:
        raise GradcliError(f"Trying to create tensor with negative dimension {n}: [{n}]").mirror(
            "RuntimeError"
        )
    A.size_check((n,), f"{fn}'s frequencies")
    return n, float(d)


def fftfreq(
    n: Any,
    d: Any = 1.0,
    *,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    out: Any = None,
) -> Tensor:
    n, d = _freq_args(n, d, "fftfreq")
    dt = _freq_dtype(dtype, "fftfreq")
    k = np.arange(n, dtype=np.int64)
    k[(n + 1) // 2 :] -= n
    scale = 1.0 / (n * d) if n * d else np.inf
    return _scaled(k, scale, dt, requires_grad)


def rfftfreq(
    n: Any,
    d: Any = 1.0,
    *,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    out: Any = None,
) -> Tensor:
    n, d = _freq_args(n, d, "rfftfreq")
    dt = _freq_dtype(dtype, "rfftfreq")
    scale = 1.0 / (n * d) if n * d else np.inf
    return _scaled(np.arange(n // 2 + 1, dtype=np.int64), scale, dt, requires_grad)


def _shift(fn: str, input: Any, dim: Any, extra: int) -> Tensor:
    from . import names

    x = _input(input, fn)
    if dim is None:
        dims = list(range(x.ndim))
    else:
        seq = _int_seq(dim, "dim", fn)
        dims = [_wrap(d, x.ndim, fn) for d in seq]
    if not dims:
        return x
    shifts = [(x.shape[d] + extra) // 2 for d in dims]
    return names.FUNCTIONS["roll"](x, shifts, dims)


def fftshift(input: Any, dim: Any = None) -> Tensor:  # noqa: A002
    return _shift("fftshift", input, dim, 0)


def ifftshift(input: Any, dim: Any = None) -> Tensor:  # noqa: A002
    return _shift("ifftshift", input, dim, 1)


NAMES = declare(
    # names        where  function   records
    ("fft", "fft", fft, "fft_r2c fft_c2c index index_put"),
    ("ifft", "fft", ifft, "fft_r2c conj fft_c2c index index_put"),
    ("rfft", "fft", rfft, "fft_r2c index index_put"),
    ("ihfft", "fft", ihfft, "fft_r2c conj index index_put"),
    ("irfft", "fft", irfft, "fft_c2r astype index index_put"),
    ("hfft", "fft", hfft, "fft_c2r conj astype index index_put"),
    ("fft2", "fft", fft2, "fft_c2c astype index index_put"),
    ("fftn", "fft", fftn, "fft_c2c astype index index_put"),
    ("ifft2", "fft", ifft2, "fft_c2c astype index index_put"),
    ("ifftn", "fft", ifftn, "fft_c2c astype index index_put"),
    ("rfft2", "fft", rfft2, "fft_r2c index index_put"),
    ("rfftn", "fft", rfftn, "fft_r2c index index_put"),
    ("irfft2", "fft", irfft2, "fft_c2r astype index index_put"),
    ("irfftn", "fft", irfftn, "fft_c2r astype index index_put"),
    ("hfft2", "fft", hfft2, "fft_c2r fft_c2c conj astype index index_put"),
    ("hfftn", "fft", hfftn, "fft_c2r fft_c2c conj astype index index_put"),
    ("ihfft2", "fft", ihfft2, "fft_r2c fft_c2c conj index index_put"),
    ("ihfftn", "fft", ihfftn, "fft_r2c fft_c2c conj index index_put"),
    ("fftfreq", "fft", fftfreq, ""),
    ("rfftfreq", "fft", rfftfreq, ""),
    ("fftshift", "fft", fftshift, "composition of index"),
    ("ifftshift", "fft", ifftshift, "composition of index"),
)
