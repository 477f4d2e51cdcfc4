"""float16 arithmetic (and the step of both two-byte floats' kernels): the road `core.op.apply`
takes for an op with a float16 input whose ATen CPU kernel computes in float. Imported by
`apply` the first time such an op meets a float16 input.

ATen's reduced-precision kernels (Half and BFloat16: `convert_to_float`, `convert_from_float`
in aten/src/ATen/native/cpu/) load a vector of two-byte elements, widen it to two float vectors,
run the float32 kernel's vector function on them and narrow the result once; the loop's tail
goes through the scalar function in float, narrowed once too. So their result is gradcli's
float32 kernel (PyTorch's to the bit) on the widened inputs, rounded once, with a vector step
twice float32's: `vecloop.REDUCED`."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import vecloop

_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)

# The ops whose float16 result is their float32 kernel's rounded once (each checked against
# PyTorch 2.13 on both kernel families, sizes 1..1000, contiguous and strided:
# tests/ops/test_half_activations.py). Other ops keep their own float16 forwards.
F16_COMPUTED = frozenset(
    "sigmoid softplus gelu silu mish elu tanh logsigmoid hardswish softmax log_softmax rsqrt "
    "tanh_backward gelu_backward softmax_backward log_softmax_backward "
    "sinc softshrink hardsigmoid leaky_relu softplus_backward logsigmoid_backward elu_backward "
    "elu_backward_result hardswish_backward".split()
)


class F16Inputs(list):
    """The arrays of an op with a float16 input as `f16_arrays` gives them (float32 copies):
    `apply` rounds the result back to float16."""

    __slots__ = ()


def widened(a: np.ndarray) -> np.ndarray:
    """A float32 copy of a two-byte float array laid out as it is (its strides in elements, over
    a buffer of its span): the float32 kernels split their loops by the layout
    (`vecloop.split_loop`: a strided view goes through the scalar function), as ATen's
    reduced kernels do by the input's."""
    strides = a.strides
    if a.flags.c_contiguous or a.size == 0 or any(s < 0 or s % a.itemsize for s in strides):
        return a.astype(_F32)
    span = sum((n - 1) * s for n, s in zip(a.shape, strides)) // a.itemsize + 1
    out = np.lib.stride_tricks.as_strided(
        np.empty(span, _F32), a.shape, tuple(s * (4 // a.itemsize) for s in strides)
    )
    out[...] = a
    return out


def f16_arrays(arrays: Any) -> F16Inputs:
    return F16Inputs(widened(a) if a.dtype == _F16 else a for a in arrays)


def reduced_forward(forward: Any, dtype: np.dtype = _F16) -> Any:
    """`forward` run as the kernel of `dtype` (float16 or bfloat16) on float32 copies:
    `vecloop.REDUCED` (its vector step; a kernel that rounds a value to `dtype` midway reads
    it there)."""

    def run(*arrays: Any, **params: Any) -> Any:
        was = vecloop.REDUCED[0]
        vecloop.REDUCED[0] = dtype
        try:
            return forward(*arrays, **params)
        finally:
            vecloop.REDUCED[0] = was

    return run


def f16_result(data: np.ndarray) -> np.ndarray:
    return data.astype(_F16) if data.dtype == _F32 else data


def narrowed(v: np.ndarray) -> np.ndarray:
    """float32 values rounded to the two-byte dtype whose kernel runs now (`vecloop.REDUCED`),
    as float32: a value ATen's reduced kernel keeps in a buffer of its own dtype midway."""
    dt = vecloop.REDUCED[0]
    if dt is None:
        return v
    if dt == _F16:
        with np.errstate(over="ignore"):
            return v.astype(_F16).astype(_F32)
    from . import dtypes

    return dtypes.round_bf16(v).astype(_F32)


def reduced_kernel(kernel: Any, *arrays: np.ndarray, **params: Any) -> np.ndarray:
    """A float32 kernel (`ops.act32`) run as ATen's float16/bfloat16 one on two-byte arrays of
    one dtype: on their float32 copies with the two-byte step, the result rounded once to the
    dtype (a first-order gradient whose rule is composed of ops for the other dtypes)."""
    dt = arrays[0].dtype
    out = reduced_forward(kernel, dt)(*(widened(a) for a in arrays), **params)
    if dt == _F16:
        with np.errstate(over="ignore"):
            return out.astype(_F16)
    from . import dtypes

    return dtypes.round_bf16(out)
