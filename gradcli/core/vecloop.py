"""The split of ATen's elementwise float32 loops (`cpu_kernel_vec`): which elements a kernel's
vector function computes and which its scalar tail does, by the kernel family's step and
TensorIterator's walk over strided views. Shared by the SLEEF, pow and activation emulations
(sleef32, powf32, ops.act32), so it depends on none of them."""

from __future__ import annotations

import numpy as np

from . import cpu

_F = np.float32

VEC_STEP = 32  # ATen's `vectorized_loop` takes two 16-float vectors a step (AVX512 build)
VEC_STEP_AVX2 = 16  # two 8-float vectors a step (AVX2 build, `cpu.avx2()`)

# The two-byte float dtype (float16 or bfloat16) whose kernel the float32 loops run now stand
# for: ATen's Half and BFloat16 kernels load 16 (AVX2) or 32 two-byte elements a vector,
# convert them to two float vectors and run the float function on those, so a step takes
# twice as many elements as float32's (`core.half.reduced_forward` sets it around a reduced
# input's forward; None: float32's own kernels).
REDUCED: list = [None]
_TWO_BYTES = np.dtype(np.float16)


def vec_step(avx2_only: bool = False) -> int:
    """The float32 elements one step of ATen's `vectorized_loop` takes on this kernel family:
    two `Vectorized<float>`, 32 on AVX-512, 16 on AVX2 (measured on the AMD EPYC: sigmoid,
    silu, elu, softplus, mish, gelu(tanh) and pow agree with torch bit for bit at every size
    1..69, 100, 200, 333 with a step of 16, and differ from n = 16 on with 32).

    `avx2_only`: a kernel ATen builds for AVX2 only (no AVX-512 registration), which runs its
    AVX2 code on an AMD processor with AVX-512 too (the zen4 family; measured: addr, every
    element of 3 x 1 to 5 x 69, where the step of 32 missed 7%); the avx512 family keeps 32."""
    return VEC_STEP_AVX2 if (cpu.amd() if avx2_only else cpu.avx2()) else VEC_STEP


def vector_count(n: int, step: int | None = None) -> int:
    """How many of a contiguous n-element loop's elements `cpu_kernel_vec` computes with its
    vector function (whole steps of `vec_step()` from the start: 32, or 16 on AVX2; `step`
    another's, float64's half); the rest go through the scalar one."""
    return n - n % (vec_step() if step is None else step)


def split_loop(
    vec,
    scalar,
    *arrays: np.ndarray,
    dtype: type = _F,
    step_of: type | None = None,
    avx2_only: bool = False,
) -> np.ndarray:
    """An elementwise float32 kernel over equally shaped arrays as `cpu_kernel_vec` runs it:
    `vec` on the whole steps of a contiguous run, `scalar` on its tail (`dtype` float16: a
    half kernel, on `Vectorized<Half>`, twice as many elements a step).

    The loop is TensorIterator's: the dimensions in the arrays' memory order (a transposed
    array is walked column by column; `_loop_order`), then merged from the innermost while every
    array steps through them as one run (the result, C-contiguous in that order, always does).
    A contiguous array is one run of all its elements; a strided view (a column slice, a
    `chunk`, an `expand`) is a run per row of its inner dimensions, each split on its own, and
    a row whose elements are not adjacent goes through the scalar function whole.

    `dtype` float64: the arrays and the result in float64, whose vectors hold half as many
    elements (a step of 16 on AVX-512, 8 on AVX2). `step_of`: the dtype whose vectors set the
    step when it is not `dtype` (a reduced-precision kernel that converts its half or bfloat16
    vectors to float and computes in float: float32 arrays, the step of float16's). `avx2_only`:
    a kernel built for AVX2 only (`vec_step`)."""
    a0 = arrays[0]
    if a0.ndim > 1 and not all(a.flags.c_contiguous for a in arrays):
        order = _loop_order(arrays)
        if order != tuple(range(a0.ndim)):
            moved = [np.transpose(a, order) for a in arrays]
            moved_out = _split_in_order(vec, scalar, moved, dtype, step_of, avx2_only)
            return np.transpose(moved_out, np.argsort(order))
    return _split_in_order(vec, scalar, arrays, dtype, step_of, avx2_only)


def _split_in_order(
    vec, scalar, arrays, dtype: type = _F, step_of: type | None = None, avx2_only: bool = False
):
    a0 = arrays[0]
    shape = a0.shape
    run, adjacent = _inner_run(arrays)
    flat = [np.ascontiguousarray(a, dtype=dtype).reshape(-1) for a in arrays]
    n = flat[0].size
    out = np.empty(n, dtype)
    if step_of is None and dtype is _F and REDUCED[0] is not None:
        step_of = _TWO_BYTES
    step = vec_step(avx2_only) * 4 // np.dtype(dtype if step_of is None else step_of).itemsize
    if run >= n:
        nv = vector_count(n, step) if adjacent else 0
        if nv:
            out[:nv] = vec(*(a[:nv] for a in flat))
        if nv < n:
            out[nv:] = scalar(*(a[nv:] for a in flat))
        return out.reshape(shape)
    nv = vector_count(run, step) if adjacent else 0
    if not nv:  # (rows shorter than a vector step: every element by the scalar function)
        out[:] = scalar(*flat)
        return out.reshape(shape)
    on_vec = np.arange(n) % run < nv
    if nv:
        out[on_vec] = vec(*(a[on_vec] for a in flat))
    if nv < run:
        tail = ~on_vec
        out[tail] = scalar(*(a[tail] for a in flat))
    return out.reshape(shape)


def _loop_order(arrays) -> tuple[int, ...]:
    """The dimensions outermost first as TensorIterator orders them (`reorder_dimensions`):
    an insertion sort of the dimensions by stride, the first array whose strides tell two
    apart deciding (a stride of 0 tells nothing; of equal strides the smaller dimension goes
    inner), a tie left in the written order."""
    shape = arrays[0].shape

    def swap(d0: int, d1: int) -> int:
        for a in arrays:
            s0, s1 = a.strides[d0], a.strides[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return 1 if s0 > s1 else -1
            if shape[d0] > shape[d1]:  # equal strides: the smaller dimension inner
                return 1
        return 0

    perm = list(range(arrays[0].ndim - 1, -1, -1))  # innermost first
    for i in range(1, len(perm)):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    return tuple(reversed(perm))


def _inner_run(arrays: tuple[np.ndarray, ...]) -> tuple[int, bool]:
    """The length of the innermost loop TensorIterator makes of these arrays (C order), and
    whether its elements are adjacent in every array (or one repeated element, a broadcast):
    the loop `cpu_kernel_vec` vectorises."""
    a0 = arrays[0]
    if a0.ndim == 0 or all(a.flags.c_contiguous for a in arrays):
        return a0.size, True
    shape = a0.shape
    strides = [a.strides for a in arrays]
    size = [a.itemsize for a in arrays]
    d = a0.ndim - 1
    run = shape[d]
    inner = [s[d] for s in strides]
    d -= 1
    while d >= 0:
        if shape[d] == 1:
            d -= 1
            continue
        if run == 1:
            run, inner = shape[d], [s[d] for s in strides]
        elif all(s[d] == i * run for s, i in zip(strides, inner)):
            run *= shape[d]
        else:
            break
        d -= 1
    # (`cpu_kernel_vec` vectorises a loop whose operands are contiguous in it, one of them
    # perhaps a repeated element; with two or more repeated, its scalar loop takes it whole)
    adjacent = all(i in (0, z) for i, z in zip(inner, size)) and inner.count(0) <= 1
    return max(run, 1), adjacent
