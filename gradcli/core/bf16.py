"""bfloat16 arithmetic (`core.dtypes.BF16`): the roads `core.op.apply` takes for an op with a
bfloat16 input. Imported by `apply` the first time one reaches it (a program that never makes a
bfloat16 tensor does not pay for it at start-up)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import NotSupported
from . import dtypes

_BF16 = dtypes.BF16
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_F16 = np.dtype(np.float16)

# The ops whose bfloat16 result is PyTorch's CPU kernel's: the inputs taken as float32, the
# op computed in float32 (gradcli's float32 kernels are PyTorch's to the bit) and the result
# rounded to bfloat16 once -- as those kernels compute bfloat16 (reductions accumulate in
# float32). Each checked against PyTorch 2.13 on random inputs (tests/ops/test_bfloat16.py);
# erfinv, tan, exp2, log1p, expm1, atan, lgamma, digamma, hardtanh, log2, log10, asin, acos,
# asinh, acosh, atanh, erfc and i0 on every bfloat16 value, contiguous and strided, and their
# gradients on random ones (explore125: corpus 2203, 2204; digamma's and i0's gradients take
# polygamma and i1, still refused).
BF16_COMPUTED = frozenset(
    "add sub mul div neg reciprocal exp log sqrt abs sin cos tanh tanh_backward sigmoid "
    "sigmoid_backward relu threshold_backward maximum minimum pow_scalar rsub_scalar "
    "clamp floor ceil trunc sign matmul sum mean softplus gelu silu mish elu logsigmoid "
    "hardswish softmax log_softmax rsqrt gelu_backward softmax_backward log_softmax_backward "
    "sinc softshrink hardsigmoid leaky_relu softplus_backward logsigmoid_backward elu_backward "
    "elu_backward_result hardswish_backward piecewise_backward nan_to_num igamma igammac "
    "prelu_kernel prelu_backward_input prelu_backward_weight einsum erfinv tan exp2 log1p "
    "expm1 atan lgamma digamma hardtanh log2 log10 asin acos asinh acosh atanh erfc i0".split()
)
# The ops that only move or convert values (the result's values are its inputs'): bfloat16
# arrays as they are.
BF16_MOVED = frozenset(
    "reshape permute expand index index_put cat stack astype where max min unique bincount clone "
    "as_strided".split()
)

# The ops whose records compute bfloat16 themselves, as ATen's kernels do (their forwards take
# the bfloat16 arrays and return bfloat16 ones; ops.loss: smooth_l1_loss's kernels compute in
# float and round once, and its 'mean' is that of the rounded elements)
BF16_OWN = frozenset(("smooth_l1_loss", "smooth_l1_loss_backward"))


class _Bf16Inputs(list):
    """The arrays of an op with a bfloat16 input, as `bf16_arrays` gives them (a list: `apply`
    knows its result must come back to bfloat16)."""

    __slots__ = ("moved",)


def bf16_arrays(op: Any, arrays: Any) -> list:
    """The arrays `op` computes on when one of its inputs is bfloat16: float32 copies for the
    ops that compute in float32, the arrays themselves for those that move values; any other
    op is refused (no silent float32 answer)."""
    name = op.name
    moved = name in BF16_MOVED or name in BF16_OWN
    if not moved and name not in BF16_COMPUTED:
        # (the function's name, not its backward node's: a forward with no gradient is refused
        # here too)
        shown = op.to_torch if isinstance(op.to_torch, str) and "{" not in op.to_torch else name
        raise NotSupported(
            f"{shown} of a bfloat16 tensor is not supported by gradcli (it computes bfloat16 "
            "only where its result is PyTorch's to the bit: arithmetic, exp, log, sqrt, sin, "
            "cos, tanh, sigmoid, relu, softplus, gelu, silu, mish, elu, logsigmoid, hardswish, "
            "softmax, log_softmax, rsqrt, sinc, softshrink, hardsigmoid, leaky_relu, abs, "
            "clamp, floor, ceil, trunc, sign, max, min, sum, mean, matmul, nan_to_num, erfinv)",
            hint="convert to float32 first: x.float() (or x.to(torch.float32))",
        )
    from .half import widened  # (a float32 copy laid out as the bfloat16 array)

    out = _Bf16Inputs(a if moved or a.dtype != _BF16 else widened(a) for a in arrays)
    out.moved = moved
    return out


# The number parameters PyTorch's bfloat16 kernels take as bfloat16 (measured, 2.13: `2.5 - x`,
# `x ** 0.3` and `x.clamp(0.1)` read the number as a bfloat16; `x * 0.1` reads it as a float,
# `ops.arithmetic`).
_BF16_PARAMS = {"pow_scalar": ("p",), "rsub_scalar": ("c",), "clamp": ("min", "max")}


_BF16_MAX = 3.3895313892515355e38  # the largest finite bfloat16


def bf16_params(op: Any, params: dict) -> dict:
    if op.name == "nan_to_num":
        # ATen's replacements cast to bfloat16 (a number past its range is inf), by default its
        # own largest finite values, not float32's
        out = dict(params)
        for key, default in (("nan", 0.0), ("posinf", _BF16_MAX), ("neginf", -_BF16_MAX)):
            v = params.get(key)
            out[key] = default if v is None else float(dtypes.round_bf16(float(v)))
        return out
    keys = _BF16_PARAMS.get(op.name)
    if keys is None:
        return params
    out = dict(params)
    for key in keys:
        if type(params.get(key)) is float:
            out[key] = float(dtypes.round_bf16(params[key]))
    return out


def _bf16_pow(x: np.ndarray, p: Any, pow_scalar: Any) -> np.ndarray:
    """x ** p of a bfloat16 x (as float32) as ATen's pow kernel: its special exponents in
    bfloat16 arithmetic (measured, 2.13: x ** 3 is (x * x rounded) * x, x ** -2 is
    1 / (x * x rounded)); x ** -0.5 (ATen's rsqrt, whose bits gradcli does not have) refused;
    any other exponent in float32, rounded once by `apply`."""
    if p == 3:
        return dtypes.round_bf16(x * x).astype(_F32) * x
    if p == -2:
        return np.float32(1) / dtypes.round_bf16(x * x).astype(_F32)
    if p == -0.5:
        raise NotSupported(
            "x ** -0.5 of a bfloat16 tensor is not supported by gradcli (PyTorch computes it "
            "with its rsqrt kernel, whose last bits gradcli does not have); so is the gradient "
            "of x ** 0.5 (PyTorch's formula takes x ** -0.5)",
            hint="use x.sqrt() (its gradient is exact), or convert to float32 first: x.float()",
        )
    return pow_scalar(x, p=p)


def bf16_product(
    x: np.ndarray,
    y: np.ndarray,
    bias: np.ndarray | None = None,
    alpha: float = 1.0,
    beta: float = 1.0,
    dtype: np.dtype = _BF16,
) -> np.ndarray:
    """alpha * (x @ y) (+ beta * bias) of bfloat16 values (float16 ones with `dtype`; as float32
    arrays; alpha and beta as `torch.addmm` takes them), as float32 whose rounding to
    bfloat16 is PyTorch's -- or refused. PyTorch's CPU kernels (oneDNN, by the CPU's bfloat16
    instructions where it has them) add the exact products in float32 in an order of their
    own, which gradcli cannot follow; but every order's float32 sum lies within K * 2**-24 *
    sum|products| of the exact one. Where that whole interval rounds to one bfloat16 value
    (almost always: a small model's products are far from a tie), that value is PyTorch's
    whatever the order; where it does not, no answer is certain, and the product is refused
    in plain words rather than given with a last bit that may differ. (alpha and beta other
    than 1: each a float32 multiplication more, and their own rounding to float32, in the
    bound.)"""
    f64 = np.float64
    x64, y64 = x.astype(f64), y.astype(f64)
    exact = np.matmul(x64, y64)
    mag = np.matmul(np.abs(x64), np.abs(y64))
    k = x.shape[-1] if x.ndim else 1
    scaled = alpha != 1.0 or (bias is not None and beta != 1.0)
    if alpha != 1.0:
        exact, mag = alpha * exact, abs(alpha) * mag
    if bias is not None:
        exact = exact + beta * bias.astype(f64)
        mag = mag + abs(beta) * np.abs(bias.astype(f64))
        k += 1
    if scaled:
        k += 4
    bound = mag * ((k + 1) * 2.0**-24)
    with np.errstate(over="ignore", invalid="ignore"):
        low = _round_to((exact - bound).astype(_F32), dtype)
        high = _round_to((exact + bound).astype(_F32), dtype)
    same = (low == high) | ((low != low) & (high != high))
    if not same.all() and not scaled and dtype == _BF16:
        # (sums that float32 holds exactly in any order: an exact tie rounds to even alike)
        same |= _exact_elements(x, y, bias, mag)
    if not same.all():
        name = "bfloat16" if dtype == _BF16 else "float16"
        raise NotSupported(
            f"this matrix product of {name} tensors is not supported by gradcli: "
            f"{int(same.size - same.sum())} of its {same.size} elements lie so close to halfway "
            f"between two {name} values that their last bit depends on the order PyTorch's "
            "kernel adds the products in, which gradcli does not follow",
            hint="compute the product in float32: (a.float() @ b.float()), or keep the model "
            "in float32",
        )
    return exact.astype(_F32)


# m * k * n up to which ATen's bfloat16 matrix product of two matrices is its own loop
# (`cpublas` gemm); above it oneDNN's kernel, followed up to an inner dimension of
# _ONEDNN_K_MAX (beyond, it splits the sum in blocks of its own choosing) and m, n up to
# _ONEDNN_MN_MAX (as far as measured)
_GEMM_OWN_MAX = 16 * 16 * 16
_ONEDNN_K_MAX = 512
_ONEDNN_MN_MAX = 256


def bf16_gemm(
    a: np.ndarray,
    b: np.ndarray,
    c: np.ndarray | None = None,
    alpha: float = 1.0,
    beta: float = 0.0,
    a_cols: bool = False,
    b_cols: bool = False,
) -> np.ndarray:
    """`torch.addmm(c, a, b, beta=beta, alpha=alpha)` (`a @ b` without c) of bfloat16 matrices
    (as float32 arrays; `a_cols`, `b_cols`: the operand is a transposed view, its columns
    contiguous), as float32 to be rounded to bfloat16 once, PyTorch's CPU kernels followed
    step by step (measured, 2.13). A small product is ATen's own loop (`reduced_gemm`); a
    larger one is oneDNN's (by the CPU's bfloat16 dot-product instruction): one float32 sum,
    the products two by two, the odd one first. Then `beta * c + alpha * dot`, each product
    rounded (alpha and beta as float32; c left out where beta is 0). Beyond the sizes
    measured: `bf16_product`'s certain answer, or its refusal."""
    m, k = a.shape
    n = b.shape[1]
    if m * k * n <= _GEMM_OWN_MAX:
        return reduced_gemm(a, b, c, alpha, beta, a_cols, b_cols, _BF16)
    if k <= _ONEDNN_K_MAX and max(m, n) <= _ONEDNN_MN_MAX:
        return _onednn_scaled(_onednn_dot(a, b), c, alpha, beta)
    if c is None or beta == 0.0:
        return bf16_product(a, b, None, alpha)
    return bf16_product(a, b, np.broadcast_to(c, (m, n)), alpha, beta)


def _onednn_dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b of bfloat16 values (float32 arrays) as oneDNN's bfloat16 kernel sums it: one
    float32 sum, the products two by two, the odd one first."""
    from . import hooks

    (m, k), n = a.shape, b.shape[1]
    a64, b64 = a.astype(_F64), b.astype(_F64)
    dot = np.zeros((m, n), _F32)
    for j in range(0, k, 2):
        if j % 64 == 0:
            hooks.observer.check_clock()
        if j + 1 < k:
            dot = dot + np.multiply.outer(a64[:, j + 1], b64[j + 1]).astype(_F32)
        dot = dot + np.multiply.outer(a64[:, j], b64[j]).astype(_F32)
    return dot


def operand_cols(a: np.ndarray) -> bool:
    """Whether ATen's addmm hands the matrix `a` to its gemm as transposed (its columns
    contiguous: `w.t()`): its test on the strides, rows first; a matrix neither row- nor
    column-major is copied row-major."""
    item = a.itemsize
    st0, st1 = a.strides[0] // item, a.strides[1] // item
    rows, cols = a.shape
    if st1 == 1 and st0 >= max(1, cols):
        return False
    return st0 == 1 and st1 >= max(1, rows)


def reduced_addmm(
    x: np.ndarray,
    y: np.ndarray,
    c: np.ndarray | None = None,
    alpha: float = 1.0,
    beta: float = 0.0,
    dtype: np.dtype | None = None,
) -> np.ndarray | None:
    """`torch.addmm(c, x, y, beta=beta, alpha=alpha)` (`x @ y` without c; `x` may have more
    dimensions, folded into rows as matmul and F.linear fold them, a vector as one row) of
    float16 or bfloat16 arrays (of one dtype), as PyTorch's CPU kernels compute it, rounded
    to the dtype; None where this is not such a product (mv, dot, bmm: other kernels).
    bfloat16 past 16 ** 3 multiply-adds is oneDNN's: its kernel as measured on the zen4
    family, on the avx2 family (no oneDNN bfloat16 road) ATen's own loop, on the avx512
    family (an Intel processor's oneDNN, not measured) `bf16_product`'s certain answer or its
    refusal. `dtype`: the arrays' dtype where they come as float32 copies laid out as the
    two-byte ones."""
    from . import cpu

    dt = x.dtype if dtype is None else dtype
    same = (dt,) if dtype is None else (_F32,)
    if y.dtype not in same or x.dtype not in same or dt not in (_BF16, _F16):
        return None
    if y.ndim != 2 or x.ndim == 0 or (c is not None and (c.dtype not in same or c.ndim > 2)):
        return None
    if x.ndim == 1:
        x = x[None, :]
    elif x.ndim > 2:
        x = np.ascontiguousarray(x).reshape(-1, x.shape[-1])
    (m, k), n = x.shape, y.shape[1]
    if k != y.shape[0] or m * k * n == 0:
        return None
    if c is not None:
        try:
            np.broadcast_to(c, (m, n))
        except ValueError:
            return None
    a_cols, b_cols = operand_cols(x), operand_cols(y)
    from .half import widened

    x32, y32 = (x, y) if dtype is not None else (widened(x), widened(y))
    c32 = None if c is None else c.astype(_F32)
    if dt == _BF16:
        if m * k * n <= _GEMM_OWN_MAX or cpu.family() == "zen4":
            return dtypes.round_bf16(bf16_gemm(x32, y32, c32, alpha, beta, a_cols, b_cols))
        if cpu.avx2():  # (no oneDNN bfloat16 road without AVX-512: ATen's own loop)
            out = reduced_gemm(x32, y32, c32, alpha, beta, a_cols, b_cols, _BF16)
            return dtypes.round_bf16(out)
        # (oneDNN's kernels on an Intel processor: not measured) the certain answer or a refusal
        cc = None if c32 is None or beta == 0 else np.broadcast_to(c32, (m, n))
        exact = bf16_product(x32, y32, cc, alpha, beta if cc is not None else 1.0)
        return dtypes.round_bf16(exact)
    out = reduced_gemm(x32, y32, c32, alpha, beta, a_cols, b_cols, _F16)
    with np.errstate(over="ignore"):
        return out.astype(_F16)


def reduced_bmm(
    x: np.ndarray,
    y: np.ndarray,
    c: np.ndarray | None = None,
    alpha: float = 1.0,
    beta: float = 0.0,
    dtype: np.dtype | None = None,
) -> np.ndarray | None:
    """`torch.baddbmm(c, x, y, beta=beta, alpha=alpha)` (`torch.bmm(x, y)` without c) of
    float16 or bfloat16 batches (x (b, m, k), y (b, k, n), c broadcast to (b, m, n)) as ATen's
    CPU kernels compute it, rounded to the dtype; None for other dtypes (`dtype`: the arrays'
    where they come as float32 copies). Below 400 multiply-adds a matrix, ATen's own loop:
    each element's products summed in order in float32 from zero, then `beta * c + alpha *
    sum` rounded once. From 400, each matrix of the batch its own addmm (`reduced_addmm`, the
    slices' layouts deciding the order) -- except bfloat16 past 16 ** 3 multiply-adds in all,
    one oneDNN product of the batch: on the zen4 family each matrix by oneDNN's kernel as
    `bf16_gemm` models it at every size (measured, 2.13: 66 random batches, every element
    equal), on the avx2 family ATen's own loop (no oneDNN bfloat16 road), on the avx512
    family `bf16_product`'s certain answer or its refusal."""
    from . import cpu, hooks

    dt = x.dtype if dtype is None else dtype
    same = (dt,) if dtype is None else (_F32,)
    if dt not in (_F16, _BF16) or x.dtype not in same or y.dtype not in same:
        return None
    if x.ndim != 3 or y.ndim != 3 or (c is not None and c.dtype not in same):
        return None
    nb, m, k = x.shape
    n = y.shape[2]
    if y.shape[:2] != (nb, k) or nb * m * k * n == 0:
        return None
    cc = None if c is None else np.broadcast_to(c, (nb, m, n))
    al, be = np.float32(alpha), np.float32(beta)
    if m * k * n < 400:
        x64, y64 = x.astype(_F64), y.astype(_F64)
        acc = np.zeros((nb, m, n), _F32)
        with np.errstate(over="ignore", invalid="ignore"):
            for j in range(k):
                acc = acc + (x64[:, :, j, None] * y64[:, None, j, :]).astype(_F32)
            out = al * acc
            if cc is not None and be != 0:
                out = cc.astype(_F32) * be + out
        return _round_to(out, dt)
    out = np.empty((nb, m, n), _F16 if dt == _F16 else _F32)
    onednn = dt == _BF16 and nb * m * k * n > _GEMM_OWN_MAX and not cpu.avx2()
    for i in range(nb):
        hooks.observer.check_clock()
        ci = None if cc is None else cc[i]
        if onednn and cpu.family() == "zen4" and k <= _ONEDNN_K_MAX and max(m, n) <= _ONEDNN_MN_MAX:
            xi, yi = (x[i], y[i]) if dtype is not None else (x[i].astype(_F32), y[i].astype(_F32))
            ci32 = None if ci is None else ci.astype(_F32)
            dot = _onednn_dot(xi, yi)
            out[i] = dtypes.round_bf16(
                _onednn_scaled(dot, ci32, alpha, beta if ci32 is not None else 0.0)
            )
        elif onednn:
            xi, yi = x[i].astype(_F32), y[i].astype(_F32)
            ci32 = None if ci is None or be == 0 else ci.astype(_F32)
            exact = bf16_product(xi, yi, ci32, alpha, beta if ci32 is not None else 1.0)
            out[i] = dtypes.round_bf16(exact)
        else:
            one = reduced_addmm(x[i], y[i], ci, alpha, beta, dtype)
            if one is None:
                return None
            out[i] = one
    return out if dt == _F16 else dtypes.round_bf16(out)


def batched_matmul(x: np.ndarray, y: np.ndarray, dtype: np.dtype | None = None) -> Any:
    """matmul of two float16 or bfloat16 arrays of 3 dimensions or more through `reduced_bmm`,
    as PyTorch's matmul folds them: the batch dimensions broadcast, each operand reshaped to
    one batch dimension (a view where it can be: the layouts kept; a broadcast operand
    copied). None where `reduced_bmm` has no model."""
    import math

    try:
        batch = np.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    except ValueError:
        return None
    nb = math.prod(batch)
    parts = []
    for a in (x, y):
        full = a if a.shape[:-2] == batch else np.broadcast_to(a, (*batch, *a.shape[-2:]))
        if any(st == 0 and size > 1 for st, size in zip(full.strides, full.shape)):
            full = np.ascontiguousarray(full)
        parts.append(full.reshape(nb, *a.shape[-2:]) if full.ndim != 3 else full)
    out = reduced_bmm(parts[0], parts[1], dtype=dtype)
    return None if out is None else out.reshape(*batch, x.shape[-2], y.shape[-1])


def reduced_addmv(
    x: np.ndarray,
    v: np.ndarray,
    c: np.ndarray | None = None,
    alpha: float = 1.0,
    beta: float = 0.0,
    dtype: np.dtype | None = None,
) -> np.ndarray | None:
    """`torch.addmv(c, x, v, beta=beta, alpha=alpha)` (`x @ v` without c) of float16 or
    bfloat16 arrays as ATen's CPU gemv computes it, rounded to the dtype; None where not
    modelled (bfloat16 past 16 ** 3 elements on the avx512 and zen4 families: oneDNN's).
    With alpha 1: each row's dot product as ATen's reduced-precision dot kernel adds it
    (`_dot8_blocks`), then `beta * c + dot` (beta as float32), rounded once (measured on
    PyTorch 2.13, inputs of wide magnitudes: 600 products, and every one of the 4 where one
    float32 sum in order rounds otherwise). Otherwise ATen's plain loop: the products added in
    order in float32, then `alpha * sum` with alpha rounded to the dtype, plus `beta * c`
    computed in the dtype (both rounded), rounded once; found from ATen's source, not
    measured: refused where the dot kernel's order would round an element otherwise."""
    from . import cpu

    dt = x.dtype if dtype is None else dtype  # (`dtype`: float32 copies of such arrays)
    same = (dt,) if dtype is None else (_F32,)
    if dt not in (_BF16, _F16) or v.dtype not in same or x.dtype not in same:
        return None
    if x.ndim != 2 or v.ndim != 1 or (c is not None and c.dtype not in same):
        return None
    m, k = x.shape
    if k != v.shape[0] or m * k == 0 or k == 1:
        # (one column: ATen multiplies and adds elementwise, each step rounded; measured)
        return None
    if dt == _BF16 and not cpu.avx2() and m * k > _GEMM_OWN_MAX:
        return None
    x64, v64 = x.astype(_F64), v.astype(_F64)

    def product(j: int) -> np.ndarray:
        return (x64[:, j] * v64[j]).astype(_F32)[:, None]

    with np.errstate(over="ignore", invalid="ignore"):
        seq = np.zeros(m, _F32)
        for j in range(k):
            seq = seq + product(j)[:, 0]
        lanes = _dot8_blocks(product, m, 1, k)[:, 0]
        cc = None if c is None or beta == 0 else np.broadcast_to(c, (m,)).astype(_F32)
        fast = alpha == 1

        def finish(dot: np.ndarray) -> np.ndarray:
            if fast:
                out = dot if cc is None else np.float32(beta) * cc + dot
            else:
                al = _round_to(np.float32(alpha), dt).astype(_F32)
                out = al * dot
                if cc is not None:
                    be = _round_to(np.float32(beta), dt).astype(_F32)
                    out = _round_to(be * cc, dt).astype(_F32) + out
            return _round_to(out, dt)

        one, other = (finish(lanes), finish(seq)) if fast else (finish(seq), finish(lanes))
    if fast:
        return one
    same = (one == other) | ((one != one) & (other != other))
    if not same.all():
        name = "bfloat16" if dt == _BF16 else "float16"
        raise NotSupported(
            f"this matrix-vector product of {name} tensors is not supported by gradcli: "
            f"{int(same.size - same.sum())} of its {same.size} elements lie so close to halfway "
            f"between two {name} values that their last bit depends on the order PyTorch's "
            "kernel adds the products in, which gradcli has not measured",
            hint="compute the product in float32: (a.float() @ v.float())",
        )
    return one


def reduced_gemm(
    a: np.ndarray,
    b: np.ndarray,
    c: np.ndarray | None,
    alpha: float,
    beta: float,
    a_cols: bool,
    b_cols: bool,
    dtype: np.dtype,
) -> np.ndarray:
    """ATen's own gemm loop for float16 and bfloat16 (`cpublas` gemm, its reduced-precision
    branches: float32 arithmetic, each product of two such values exact in float32), as
    float32 to be rounded to `dtype` once. Its order of the dot products' float32 sums depends
    on the layouts: both rows or both columns contiguous, four partial sums (the j-th product
    into sum j % 4, the last k % 4 ones into sum 0), added 0 + 1, + 2, + 3; `a` by columns
    only, `beta * c` and then each product (its `b` times alpha first) added in order; `b` by
    columns only, `_dot8_blocks`. Then `beta * c + alpha * dot` (alpha and beta as float32; c
    left out where beta is 0). Measured on PyTorch 2.13 (float16: every size, as its CPU kernels
    have no other road without AVX512-FP16; bfloat16: up to 16 ** 3 multiply-adds)."""
    from . import hooks

    m, k = a.shape
    n = b.shape[1]
    a64, b64 = a.astype(_F64), b.astype(_F64)

    def product(j: int) -> np.ndarray:  # (two two-byte floats' product: exact in float32)
        return np.multiply.outer(a64[:, j], b64[j]).astype(_F32)

    al, be = np.float32(alpha), np.float32(beta)
    if a_cols and not b_cols:
        # (the rank-one loop: c scaled by beta, then each product added in order, alpha taken
        # into b's value first. With an alpha of too many significant bits a * (alpha * b) is
        # not exact, and the loop's last bits were not found (measured: neither the fused nor
        # the rounded step holds): the certain answer there, or a refusal)
        bits = 11 if dtype != _BF16 else 8
        if al == 0 or not np.isfinite(al) or _significant_bits(al) + 2 * bits > 24:
            cc = None if c is None or be == 0 else np.broadcast_to(c, (m, n))
            return bf16_product(a, b, cc, alpha, beta if cc is not None else 1.0, dtype)
        acc = np.zeros((m, n), _F32)
        if c is not None and be != 0:
            acc = be * np.broadcast_to(c, (m, n)).astype(_F32)
        with np.errstate(over="ignore", invalid="ignore"):
            for j in range(k):
                if j % 64 == 0:
                    hooks.observer.check_clock()
                scaled = (b[j].astype(_F32) * al).astype(_F64)
                acc = acc + np.multiply.outer(a64[:, j], scaled).astype(_F32)
        return acc
    with np.errstate(over="ignore", invalid="ignore"):
        if a_cols == b_cols:
            partial = np.zeros((4, m, n), _F32)
            whole = k - k % 4
            for j in range(k):
                if j % 64 == 0:
                    hooks.observer.check_clock()
                s = j % 4 if j < whole else 0
                partial[s] = partial[s] + product(j)
            dot = partial[0]
            for s in (1, 2, 3):
                dot = dot + partial[s]
        else:
            dot = _dot8_tiles(a64, b64)
        out = al * dot
        if c is not None and be != 0:
            out = be * np.broadcast_to(c, (m, n)).astype(_F32) + out
    return out


def _significant_bits(v: np.float32) -> int:
    """How many bits a nonzero finite float32 value's significand needs."""
    whole = int(abs(np.frexp(np.float64(v))[0]) * (1 << 24))
    return 24 - ((whole & -whole).bit_length() - 1)


def _round_to(v: np.ndarray, dtype: np.dtype) -> np.ndarray:
    if dtype == _BF16:
        return dtypes.round_bf16(v)
    with np.errstate(over="ignore"):
        return v.astype(dtype)


def _onednn_scaled(dot: np.ndarray, c: Any, alpha: float, beta: float) -> np.ndarray:
    """oneDNN's `beta * c + alpha * dot`: rounded as two products and a sum, or with one
    of the products fused into the sum, as its kernel for the shape has it (measured, 2.13:
    both occur). Where the three round to one bfloat16 value, that value; where they do not
    (a sum within a hair of halfway between two), refused."""
    al, be = np.float32(alpha), np.float32(beta)
    with np.errstate(over="ignore", invalid="ignore"):
        scaled = al * dot
        if c is None or be == 0:
            return scaled  # (one product: one rounding, whichever the kernel)
        cc = np.broadcast_to(c, dot.shape).astype(_F32)
        bc = be * cc
        f64 = np.float64
        ways = [
            bc + scaled,
            (f64(be) * cc.astype(f64) + scaled).astype(_F32),
            (f64(al) * dot.astype(f64) + bc).astype(_F32),
        ]
        first = dtypes.round_bf16(ways[0])
        for other in ways[1:]:
            same = (dtypes.round_bf16(other) == first) | (first != first)
            if not same.all():
                raise NotSupported(
                    "this matrix product of bfloat16 tensors is not supported by gradcli: "
                    f"{int(same.size - same.sum())} of its {same.size} elements lie so close to "
                    "halfway between two bfloat16 values that their last bit depends on how "
                    "PyTorch's kernel rounds beta * input + alpha * (mat1 @ mat2), which "
                    "gradcli does not follow for this shape",
                    hint="compute the product in float32: (a.float() @ b.float()), or keep the "
                    "model in float32",
                )
    return ways[0]


def _lanes_added(v: np.ndarray) -> np.ndarray:
    """The 8 float32 lanes of the last axis added as a vector reduction does: lane i and
    lane i ^ 4, then ^ 2, then ^ 1."""
    for s in (4, 2, 1):
        v = v + v[..., np.arange(8) ^ s]
    return v[..., 0]


_TILE = 1 << 14  # output elements `_dot8_tiles` holds 64 products of at once (4 MB)


def _dot8_tiles(a64: np.ndarray, b64: np.ndarray) -> np.ndarray:
    """`_dot8_blocks` of a @ b (float64 copies of two-byte values), tile by tile of the output:
    64 products of every element of a tile at a time, whatever the size."""
    (m, k), n = a64.shape, b64.shape[1]
    cols = min(n, _TILE)
    rows = max(1, _TILE // cols)
    dot = np.empty((m, n), _F32)
    for lo in range(0, m, rows):
        for co in range(0, n, cols):
            sa, sb = a64[lo : lo + rows], b64[:, co : co + cols]

            def product(j: int, sa: np.ndarray = sa, sb: np.ndarray = sb) -> np.ndarray:
                return np.multiply.outer(sa[:, j], sb[j]).astype(_F32)

            dot[lo : lo + rows, co : co + cols] = _dot8_blocks(product, sa.shape[0], sb.shape[1], k)
    return dot


def _dot8_blocks(product: Any, m: int, n: int, k: int) -> np.ndarray:
    """Sums of float32 products (`product(j)`: the j-th, an (m, n) array) as ATen's
    reduced-precision dot product (`dot_with_fp32_arith`, 8-lane float vectors): eight vector
    sums over whole blocks of 64, added pairwise (i + 4, + 2, + 1) and across lanes; then one
    vector sum over the whole blocks of 16 left, added across lanes; then the rest one by
    one."""
    from . import hooks

    whole, vec = k - k % 64, k - k % 16
    sums = np.zeros((m, n, 8, 8), _F32)
    for j in range(0, whole, 64):
        hooks.observer.check_clock()
        block = np.stack([product(i) for i in range(j, j + 64)], axis=-1)
        sums = sums + block.reshape(m, n, 8, 8)
    for off in (4, 2, 1):
        sums[..., :off, :] = sums[..., :off, :] + sums[..., off : 2 * off, :]
    total = _lanes_added(sums[..., 0, :])
    tail = np.zeros((m, n, 8), _F32)
    for j in range(whole, vec, 8):
        tail = tail + np.stack([product(i) for i in range(j, j + 8)], axis=-1)
    total = total + _lanes_added(tail)
    for j in range(vec, k):
        total = total + product(j)
    return total


def bf16_norm2(x: np.ndarray) -> np.ndarray:
    """The 2-norm of all of a bfloat16 array's values (`x.norm()`), taken in memory order (as
    ATen's iterator visits them: a transposed view's are its base's), as a 0-d bfloat16
    array. ATen's vectorised 2-norm (measured, 2.13): the squares (exact in float32) summed
    into 8 float32 lanes over the whole vectors of 16 values, the lanes added left to right,
    the values left over added one by one; the square root in float32, rounded to bfloat16
    once."""
    flat = np.asarray(x, np.float64).reshape(-1)
    n = flat.size
    full = n - n % 16
    squares = (flat * flat).astype(_F32)
    lanes = np.zeros(8, _F32)
    if full:
        lanes = np.add.accumulate(squares[:full].reshape(-1, 8), axis=0)[-1]
    acc = lanes[0]
    for j in range(1, 8):
        acc = acc + lanes[j]
    for j in range(full, n):
        acc = acc + squares[j]
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(dtypes.round_bf16(np.sqrt(np.float32(acc))))


def _log_lowest_bit(a: np.ndarray) -> np.ndarray:
    """For each bfloat16 value (as float32): log2 of the smallest power of two it is a whole
    multiple of (+inf for a zero, which adds nothing; -inf for inf and nan)."""
    out = np.full(a.shape, -np.inf)
    out[a == 0] = np.inf
    ok = np.isfinite(a) & (a != 0)
    m, e = np.frexp(a[ok].astype(np.float64))
    whole = np.abs(m * 256).astype(np.int64)  # (8 significant bits: a whole number)
    tz = np.zeros(whole.shape, np.int64)
    for _ in range(8):
        even = (whole & 1) == 0
        tz += even
        whole = np.where(even, whole >> 1, whole)
    out[ok] = e - 8 + tz
    return out


def _exact_elements(x: np.ndarray, y: np.ndarray, bias: Any, mag: np.ndarray) -> Any:
    """For each element of x @ y (+ bias): whether float32 sums it exactly in any order (its
    products are whole multiples of one power of two q and their magnitudes sum below
    2**24 q). False everywhere for a product too large to look at element by element."""
    x2 = x[None, :] if x.ndim == 1 else x
    y2 = y[:, None] if y.ndim == 1 else y
    if x2.ndim == 0 or y2.ndim == 0 or x2.size * y2.shape[-1] > 1 << 21:
        return False
    lq = np.min(_log_lowest_bit(x2)[..., :, :, None] + _log_lowest_bit(y2)[..., None, :, :], -2)
    if bias is not None:
        lq = np.minimum(lq, _log_lowest_bit(bias))
    with np.errstate(over="ignore", invalid="ignore"):
        return mag < np.exp2(lq.reshape(mag.shape) + 24)


# bfloat16 forwards that differ from the float32 op's (ATen computes them in steps)
def forward_of(op: Any) -> Any:
    """The forward `apply` runs for `op` on bfloat16 inputs (as float32 arrays)."""
    if op.name == "pow_scalar":
        scalar = op.forward
        return lambda x, p: _bf16_pow(x, p, scalar)
    if op.name == "matmul":
        return _bf16_matmul
    from .half import reduced_forward  # (the vector step of a two-byte float's kernel)

    return reduced_forward(op.forward, _BF16)


def _bf16_matmul(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """matmul of bfloat16 values (as float32 arrays laid out as the bfloat16 ones): a matrix
    product as ATen's kernels compute it (`reduced_addmm`), the others `bf16_product`'s certain
    answer or its refusal."""
    out = None
    if y.ndim == 2 and x.ndim >= 1:
        out = reduced_addmm(x, y, dtype=_BF16)
    elif x.ndim == 2 and y.ndim == 1:
        out = reduced_addmv(x, y, dtype=_BF16)
    elif x.ndim >= 3 and y.ndim >= 3:
        out = batched_matmul(x, y, _BF16)
    return out if out is not None else bf16_product(x, y)


def bf16_result(op: Any, data: np.ndarray) -> np.ndarray:
    """The float result of an op with bfloat16 inputs, as bfloat16: rounded once (a view of a
    bfloat16 input stays that view; a conversion keeps the dtype it asked for, bincount's
    sums of bfloat16 weights are float64 as ATen's)."""
    if data.dtype == _BF16 or op.name == "astype" or op.name == "bincount":
        return data
    return dtypes.round_bf16(data)
