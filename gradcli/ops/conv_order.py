"""Float32 convolutions in PyTorch's order of summation (PyTorch 2.13 on x86 with AVX-512, one
thread), so that a float32 conv prints PyTorch's last digits.

ATen picks the backend of a float32 CPU convolution by the shape (ConvParams::use_mkldnn in
aten/src/ATen/native/Convolution.cpp; a conv1d is a conv2d of height 1, an unbatched input a
batch of one; one thread as here): its own slow_conv2d (slow_conv_dilated2d when dilated,
one sample and one group at a time) when
- an unstrided, undilated 1x1 kernel with fewer than 16 samples, or
- one sample, one group, at most 20,480 input elements (channels times the spatial sizes)
  and not a kernel larger than 3 along both axes;
oneDNN otherwise (`_onednn_plan`, `onednn_direct`).

slow_conv2d unfolds the input (im2col: rows (channel, kernel row, kernel column), one column an
output position) and calls MKL's sgemm with the output initialised with the bias and beta = 1
(slow_conv_dilated2d the same). Measured (random shapes, every element equal, see
tests/ops/test_conv32_order.py):
- 2 output channels or more and 2 output positions or more: the product is `_mm_float32`'s
  chains (MKL's blocked order, from zero) and the bias is added to each block's sum in order,
  (b + s0) + s1 ... (one block up to an inner size of 384); with an inner size of 1 the bias
  is fused: one rounding of w * x + b;
- one output channel: MKL's column kernel (`_gemv_n`), its sum starting from the bias;
- one output position: the gemv kernel (`_gemv_float32`), then the bias added;
- a single dot product (one channel at one position): not mirrored, the float64 sum.
Gradients: see `slow_backward` and `onednn_backward`.
"""

from __future__ import annotations

import numpy as np

from ..base import limits
from ..core import hooks
from . import linalg as LA
from .arithmetic import size_check

_SLOW_MAX_INPUT = 20480
# multiply-adds of a mirrored oneDNN pass (a forward, an input or a weight gradient), each a
# float32 step of its own in NumPy (about 60 million a second here): past this, the float64
# sum rounded once (a few seconds at most; the time limit binds between kernel offsets)
_MAX_WORK = 1 << 28


# The mirrored order's multiply-adds a run may spend on float32 convs (forwards and gradients
# together), each ~20x the float64 sum's cost: ~5-10 s here (`limits.CONV32_WORK`, 2^28 unless
# GRADCLI_CONV32_WORK says otherwise). Small convs (what tutorials print) always fit; a training
# loop of a CNN goes on in the float64 sum, rounded once, past it, and the run says so once
# (its last bits may differ from PyTorch's from there on). PyTorch itself has no such
# threshold: it is gradcli's time, not a change of PyTorch's kernel.
def run_work() -> int:
    return limits.CONV32_WORK.value


def afford(work: int, x_shape: tuple | None = None, w_shape: tuple | None = None) -> bool:
    """Whether the mirrored order may spend `work` multiply-adds more in this run (a pass
    larger than the whole budget is never mirrored); past it, the run says once which conv
    crossed it and what was spent."""
    cap = run_work()
    spend = getattr(hooks.observer, "spend", None)
    if work <= cap and (spend is None or spend("conv32", work, cap)):
        return True
    spent = getattr(hooks.observer, "spent", {}).get("conv32", 0)
    which = (
        f" (input {list(x_shape)}, weight {list(w_shape)}: {work:,} multiply-adds, after "
        f"{spent:,} in this run)"
        if x_shape is not None and w_shape is not None
        else f" ({work:,} multiply-adds, after {spent:,} in this run)"
    )
    hooks.warn(
        f"this float32 convolution{which} and the run's later ones are summed in float64 and "
        f"rounded once, not in PyTorch's order: gradcli mirrors PyTorch's order at about 60 "
        f"million multiply-adds a second and spends at most {cap:,} on it in a run "
        f"({limits.CONV32_WORK.name}); the last bits of these results can differ from "
        "PyTorch's",
        f"set {limits.CONV32_WORK.env}=N to mirror more (within the time limit), or use "
        "smaller inputs or fewer steps",
        once="conv32",
    )
    return False


def multiply_adds(x_shape: tuple, w_shape: tuple, out) -> int:
    """A conv's multiply-adds (its forward's; each gradient's is about as many)."""
    return int(x_shape[0]) * int(np.prod(out)) * int(np.prod(w_shape))


def backend(x_shape: tuple, w_shape: tuple, stride, dilation, groups: int) -> str:
    """'slow', 'dilated', 'onednn' (or 'other' for conv3d): ATen's choice for a float32 CPU
    conv of these shapes (x batched: (n, c, *spatial)), one thread."""
    n = x_shape[0]
    kernel = tuple(w_shape[2:])
    if len(kernel) == 1:
        kernel = (1,) + kernel
    if len(kernel) != 2:
        return "other"  # conv3d: not measured
    plain = all(s == 1 for s in stride) and all(d == 1 for d in dilation) and kernel == (1, 1)
    small = not (groups > 1 or n > 1 or (kernel[0] > 3 and kernel[1] > 3))
    if (not plain or n >= 16) and not (small and int(np.prod(x_shape)) <= _SLOW_MAX_INPUT):
        return "onednn"
    return "dilated" if any(d != 1 for d in dilation) else "slow"


# --- the canvas: the input with its padding, long enough for every window (conv.py's too) ---


def canvas(size: tuple, kernel: tuple, stride: tuple, dilation: tuple, pad: tuple, out: tuple):
    """The length of the canvas along each axis: the input with `pad` before it, long enough
    for `out` windows."""
    return tuple(
        max(p + s, (o - 1) * st + dl * (k - 1) + 1) if o > 0 else p + s
        for s, k, st, dl, p, o in zip(size, kernel, stride, dilation, pad, out, strict=True)
    )


def _on_canvas(x: np.ndarray, kernel: tuple, stride, dilation, pad, out, fill: float = 0):
    d = len(kernel)
    size = x.shape[-d:]
    full = canvas(size, kernel, stride, dilation, pad, out)
    if full == size:
        return x
    # Padding and dilation reach far beyond the input while the output stays small: the
    # canvas (what np.pad allocates) is sized before it is made.
    size_check(x.shape[: x.ndim - d] + full, "the padded input")
    widths = [(0, 0)] * (x.ndim - d) + [(p, c - s - p) for s, p, c in zip(size, pad, full)]
    return np.pad(x, widths, constant_values=fill)


def _window(koff: tuple, stride: tuple, dilation: tuple, out: tuple) -> tuple:
    """The slice of the canvas that kernel offset `koff` meets in each of the `out` windows."""
    return (Ellipsis,) + tuple(
        slice(k * dl, k * dl + (o - 1) * st + 1, st)
        for k, st, dl, o in zip(koff, stride, dilation, out)
    )


def _columns(x: np.ndarray, kernel, stride, dilation, pad, out, dtype=np.float32) -> np.ndarray:
    """im2col of one sample x (c, *spatial): (c * prod(kernel), prod(out)), float32 (or
    `dtype`)."""
    xc = _on_canvas(x, kernel, stride, dilation, pad, out)
    c = x.shape[0]
    lp = int(np.prod(out))
    cols = np.empty((c,) + tuple(kernel) + (lp,), dtype)
    for koff in np.ndindex(*kernel):
        cols[(slice(None),) + koff] = xc[_window(koff, stride, dilation, out)].reshape(c, lp)
    return cols.reshape(-1, lp)


def slow_conv(x, w, b, stride, dilation, pad, out, at: int = 0) -> np.ndarray | None:
    """slow_conv2d's result for one sample x (1, c, *spatial) (see above), or None where its
    order is not mirrored. `at`: the floats before its first in the whole output (the avx2
    family's small kernel splits its rows by their alignment)."""
    o = w.shape[0]
    lp = int(np.prod(out))
    k = int(np.prod(w.shape[1:]))
    if lp * o < 2 or k < 1:
        return None
    wm = np.ascontiguousarray(w.reshape(o, k))
    if o * k * max(lp, LA._LANES) > LA._FMA_MAX_WORK:
        return None
    cols = _columns(x[0], tuple(w.shape[2:]), stride, dilation, pad, out)
    bias = np.zeros(o, np.float32) if b is None else b.astype(np.float32)
    hooks.observer.tick()
    from ..core import cpu

    if cpu.mkl_avx2():  # MKL's generic sgemm (`gemm_avx2`): C = the bias, beta = 1
        from . import gemm_avx2

        with np.errstate(all="ignore"):
            y = gemm_avx2.mm(wm, cols, np.broadcast_to(bias[:, None], (o, lp)), out_at=at)
        return None if y is None else y.reshape((1, o) + tuple(out))
    with np.errstate(all="ignore"):
        if lp == 1:
            if not LA._gemv_mirrored(wm, cols[:, 0]):
                return None
            y = (LA._gemv_float32(wm, cols[:, 0]) + bias)[:, None]
        elif o == 1:
            y = LA._gemv_n_from(wm[0], cols, np.full(lp, bias[0], np.float32))[None]
        elif k == 1:
            full = np.broadcast_to(bias[:, None], (o, lp)).copy()  # (_fma32 indexes it)
            y = LA._fma32(wm.astype(np.float64) * cols.astype(np.float64), full)
        elif LA._blocked(wm, cols):
            y = np.broadcast_to(bias[:, None], (o, lp)).astype(np.float32)
            for part in LA._chain_blocks(wm, cols, LA._k_blocks(k)):
                y = y + part
        else:
            return None
    return y.reshape((1, o) + tuple(out))


def slow_conv64(x, w, b, stride, dilation, pad, out) -> np.ndarray | None:
    """A float64 conv1d / conv2d of one group (x (n, c, *spatial), w, b None or float64) as
    PyTorch computes it on the avx2 family: slow_conv2d (slow_conv_dilated2d), per sample the
    weights (o, c * prod(kernel)) times the im2col columns by MKL's dgemm, the output set to
    the bias first (beta = 1) (`gemm_avx2.mm64_onto`); one output channel: dgemv's column
    kernel, the products in the order of k from the bias; one output position: dgemv (`A @
    v`), the bias added after. None where not modelled (a single dot product; past
    `gemm_avx2.models64`). Measured on AMD Zen 4: 140 random shapes (conv1d, conv2d, strided,
    padded, dilated, with and without a bias, 1 to 3 samples), 139 equal in every element
    (the other a single dot product, not modelled); 14 before."""
    from . import gemm_avx2

    n, o = x.shape[0], w.shape[0]
    lp = int(np.prod(out))
    k = int(np.prod(w.shape[1:]))
    if o * k * max(lp, LA._LANES) > LA._FMA_MAX_WORK:
        return None
    wm = np.ascontiguousarray(w.reshape(o, k))
    c = np.zeros((o, lp)) if b is None else np.broadcast_to(b.reshape(o, 1), (o, lp))
    res = np.empty((n, o, lp))
    for t in range(n):
        hooks.observer.tick()
        cols = _columns(x[t], tuple(w.shape[2:]), stride, dilation, pad, out, np.float64)
        if o == 1 and lp >= 2:
            # dgemv's column kernel (`v @ A`): products in the order of k, from the bias; an
            # output that starts off a 16-byte boundary peels its first element, added by
            # eights as the small kernel's (`gemm_avx2._peel64`; measured: 9 shapes)
            with np.errstate(all="ignore"):
                p = cols * wm[0][:, None]
                y = gemm_avx2._in_order(c[0].copy(), p.T)[None]
                if t * lp % 2:
                    y[0, 0] = gemm_avx2._peel64(p[:, :1].T, c[0, :1].copy())[0]
        elif lp == 1 and o >= 2:
            # one output position: dgemv (`A @ v`), the bias added after
            with np.errstate(all="ignore"):
                y = (gemm_avx2.gemv64(wm, cols[:, 0]) + c[:, 0])[:, None]
        elif b is None:
            y = gemm_avx2.mm64(wm, cols, out_at=t * o * lp)
        else:
            y = gemm_avx2.mm64_onto(wm, cols, c, out_at=t * o * lp)
        if y is None:
            return None
        res[t] = y
    return res.reshape((n, o) + tuple(out))


def conv_float32(x, w, b, stride, dilation, pad, out, groups) -> np.ndarray | None:
    """A float32 conv (x (n, c, *spatial), w, b None or float32) in PyTorch's order, or None
    where that order is not mirrored (the caller's float64 sum, rounded once)."""
    if b is not None and b.dtype != np.float32:
        return None
    if x.size == 0 or w.size == 0 or not all(out):
        return None
    kind = backend(x.shape, w.shape, stride, dilation, groups)
    if kind == "other" or not afford(multiply_adds(x.shape, w.shape, out), x.shape, w.shape):
        return None
    if kind in ("slow", "dilated"):
        # one sample and one group at a time (ATen's loops), each its own product
        o, cg = w.shape[:2]
        og = o // groups
        parts = []
        for i in range(len(x)):
            for g in range(groups):
                part = slow_conv(
                    x[i : i + 1, g * cg : (g + 1) * cg],
                    w[g * og : (g + 1) * og],
                    None if b is None else b[g * og : (g + 1) * og],
                    stride,
                    dilation,
                    pad,
                    out,
                    (i * o + g * og) * int(np.prod(out)),
                )
                if part is None:
                    return None
                parts.append(part)
        return np.concatenate(parts, axis=1).reshape((len(x), o) + tuple(out))
    plan = _onednn_plan(x.shape, w.shape, stride, pad, dilation, groups, out)
    carry = False
    if _avx2_direct(x.shape, w.shape, pad, dilation, groups):
        plan, carry = (_AVX2_BLOCK, True), True  # jit:avx2's direct kernel (`onednn_direct`)
    if plan is None or multiply_adds(x.shape, w.shape, out) > max(_MAX_WORK, run_work()):
        return None
    # a few samples at a time: the chains' arrays stay in the cache
    step = max(1, _CACHE_ELEMENTS // max(1, w.shape[0] * int(np.prod(out))))
    parts = [
        onednn_direct(x[i : i + step], w, b, stride, dilation, pad, out, groups, *plan, carry)
        for i in range(0, len(x), step)
    ]
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


_CACHE_ELEMENTS = 1 << 14
_AVX2_BLOCK = 8  # input channels a block of jit:avx2's direct kernel (nChw8c)


_ONEDNN_MAX_1X1 = 256  # input channels of a 1x1 kernel measured up to here


def _avx2_direct(x_shape: tuple, w_shape: tuple, pad, dilation, groups: int) -> bool:
    """Whether the avx2 family runs this float32 conv through jit:avx2's direct kernel as
    `onednn_direct` mirrors it (8 channels a block, one chain from the bias): one group and a
    kernel other than 1x1; or groups of 8k input and 8k output channels (measured: 60 random
    grouped convs, 2 and 4 groups of 4, 8 or 16 channels, kernels 3 and 5, strides 1 and 2,
    every forward element equal where both are multiples of 8; groups of 4 channels run
    another kernel, not mirrored)."""
    from ..core import cpu

    kernel = tuple(w_shape[2:])
    if not cpu.avx2() or all(k == 1 for k in kernel):
        return False
    if any(p > dl * (k - 1) for p, dl, k in zip(pad, dilation, kernel)):
        return False  # (as `_onednn_plan`: oneDNN's gemm-based convolution)
    if any(s < dl * (k - 1) + 1 for s, dl, k in zip(x_shape[2:], dilation, kernel)):
        return False
    cg, og = w_shape[1], w_shape[0] // groups
    return groups == 1 or (cg % _AVX2_BLOCK == 0 and og % _AVX2_BLOCK == 0)


def _onednn_plan(x_shape: tuple, w_shape: tuple, stride, pad, dilation, groups, out):
    """(the input channels summed apart, whether the sum starts from the bias) of oneDNN's
    kernel for this float32 conv (see `onednn_direct`), or None where not mirrored. Measured
    (ONEDNN_VERBOSE names the kernel; random shapes, every element equal): a 1x1 kernel whose
    stride divides each input size exactly is jit_1x1 (one chain over every input channel,
    from the bias; measured to 256 channels), other strided 1x1 kernels the direct kernel;
    depthwise (one channel a group) jit_dw (a chain over the kernel offsets from the bias);
    groups of 4k channels with as many outputs or more the direct kernel; other groups and
    padding past the kernel's reach oneDNN's gemm-based convolution (not mirrored)."""
    o, cg = w_shape[:2]
    og = o // groups
    kernel = tuple(w_shape[2:])
    if any(p > dl * (k - 1) for p, dl, k in zip(pad, dilation, kernel)):
        return None  # padding past the kernel's reach: oneDNN's gemm-based convolution
    if any(s < dl * (k - 1) + 1 for s, dl, k in zip(x_shape[2:], dilation, kernel)):
        return None  # an input shorter than the kernel: not measured
    unit = all(st == 1 or s == q * st for s, q, st in zip(x_shape[2:], out, stride))
    if groups == 1 and all(k == 1 for k in kernel) and unit:
        return (cg, True) if cg <= _ONEDNN_MAX_1X1 else None  # jit_1x1
    if groups == 1:
        return (min(cg, 16), False)
    if cg == 1 and og == 1:
        return (1, True)  # jit_dw: depthwise
    if cg % 4 == 0 and og % 4 == 0 and og >= cg and (cg <= 16 or og % 16 == cg % 16 == 0):
        return (16, False)
    return None


_MASK, _MID = np.uint32(0x1FFFFFFF), np.uint32(0x10000000)


def _fma_step(p: np.ndarray, acc: np.ndarray, s: np.ndarray) -> None:
    """acc = fma(p, acc) in place (p exact float64 products, acc float32; `s` scratch): the sum
    rounded through float64, which is right unless that sum is inexact and lands on a float32
    midpoint (the low 29 bits, in its low 32-bit word); then the step is `LA._fma32`'s."""
    np.add(p, acc, out=s)
    low = s.view(np.uint32)[..., ::2] if _LITTLE else s.view(np.uint32)[..., 1::2]
    mid = np.bitwise_and(low, _MASK) == _MID
    if mid.any():
        # an exact sum (a tie of its own: sums of few bits, gradients of ones) rounds right
        sv, pv, cv = s[mid], p[mid], acc[mid].astype(np.float64)
        bb = sv - pv
        if ((pv - (sv - bb)) + (cv - bb) != 0).any():
            acc[...] = LA._fma32(p, acc)
            return
    acc[...] = s


_LITTLE = np.little_endian


def onednn_direct(
    x, w, b, stride, dilation, pad, out, groups, chunk, from_bias, carry=False
) -> np.ndarray:
    """oneDNN's direct convolution (jit:avx512_core): the input channels of a group in chunks
    of `chunk`; each output is, for each chunk, the chain of fused multiply-adds over the
    kernel rows, the kernel columns and the chunk's channels, in that order (the channel
    fastest), from zero; the bias is added to the first chunk's sum, and the later chunks'
    sums are added in order: ((s0 + b) + s1) + ...

    With `carry` (jit:avx2's direct kernel, the avx2 family: `chunk` 8, `from_bias`), the
    chunks continue one chain: it starts from the bias (or zero), each chunk's kernel call
    loads the sum the previous one stored and goes on with its own multiply-adds over the
    kernel rows, columns and the chunk's channels. Measured on AMD EPYC (Zen 3) against
    PyTorch 2.13 (ONEDNN_VERBOSE: jit:avx2, convolution_direct): every element of 150 random
    conv1d / conv2d (1 to 24 input channels, kernels 3 and 5, padded, strided, with and
    without bias, batches of 2 and 3) is PyTorch's; the AVX-512 model missed every one."""
    n, c = x.shape[:2]
    o = w.shape[0]
    cg, og = c // groups, o // groups
    kernel = tuple(w.shape[2:])
    d = len(out)
    xc = _on_canvas(x, kernel, stride, dilation, pad, out)
    xg = xc.reshape((n, groups, cg) + xc.shape[2:])
    wg = w.reshape((groups, og, cg) + kernel).astype(np.float64)
    lift = (slice(None),) * 3 + (None,) * d  # (1, G, og) -> (1, G, og, 1, ...)
    if b is not None:
        bias = b.astype(np.float32).reshape((1, groups, og) + (1,) * d)
    total = None
    with np.errstate(all="ignore"):
        for lo in range(0, cg, chunk):
            hi = min(lo + chunk, cg)
            if carry and total is not None:
                acc = total
            else:
                acc = np.zeros((n, groups, og) + tuple(out), np.float32)
            p = np.empty(acc.shape, np.float64)
            s = np.empty(acc.shape, np.float64)
            if from_bias and lo == 0 and b is not None:
                acc = acc + bias
            for koff in np.ndindex(*kernel):
                hooks.observer.tick()
                win = xg[
                    (slice(None), slice(None), slice(lo, hi))
                    + _window(koff, stride, dilation, out)[1:]
                ]
                for j in range(hi - lo):
                    np.multiply(
                        win[:, :, j : j + 1], wg[(Ellipsis, lo + j) + koff][None][lift], out=p
                    )
                    _fma_step(p, acc, s)
            if carry:
                total = acc
            elif total is None:
                if b is not None and not from_bias:
                    acc = acc + bias
                total = acc
            else:
                total = total + acc
    return total.reshape((n, o) + tuple(out))


def deconv_avx2(x, w, b, pad, out) -> np.ndarray | None:
    """A batched, unstrided, undilated float32 conv_transpose of one group (x (n, Cin, ...),
    w (Cin, Cout, *k)) as oneDNN's avx2 deconvolution computes it (the avx2 family;
    ONEDNN_VERBOSE: a forward jit:avx2 convolution over the input padded by k - 1 - pad with
    the kernel turned over): each output one chain of fused multiply-adds from zero, blocks of
    8 input channels one after another, within a block over the kernel offsets of w in order
    (rows, then columns: the turned kernel's last first) and the block's channels; the bias
    added after. Measured on AMD EPYC (Zen 3) against PyTorch 2.13: every element of 90 random
    batched conv_transpose1d / 2d (1 to 17 input, 1 to 33 output channels, kernels 2 to 4,
    padded, with and without bias) is PyTorch's. None where the padding passes the kernel (not
    measured). Strided ones (brgconv_strided) and one sample (slow_conv_transpose) are not
    mirrored, nor the weight gradient."""
    n, c = x.shape[:2]
    o = w.shape[1]
    kernel = tuple(w.shape[2:])
    d = len(kernel)
    if any(p > k - 1 for p, k in zip(pad, kernel)) or not all(out) or x.size == 0:
        return None
    ones = (1,) * d
    turned = np.swapaxes(w, 0, 1)[(slice(None), slice(None)) + (slice(None, None, -1),) * d]
    w64 = turned.astype(np.float64)
    xc = _on_canvas(x, kernel, ones, ones, tuple(k - 1 - p for k, p in zip(kernel, pad)), out)
    shape = (n, o) + tuple(out)
    acc = np.zeros(shape, np.float32)
    p = np.empty(shape, np.float64)
    s = np.empty(shape, np.float64)
    offsets = list(np.ndindex(*kernel))[::-1]
    with np.errstate(all="ignore"):
        for lo in range(0, c, _AVX2_BLOCK):
            for koff in offsets:
                hooks.observer.tick()
                x_win = xc[
                    (slice(None), slice(lo, lo + _AVX2_BLOCK)) + _window(koff, ones, ones, out)[1:]
                ]
                for j in range(x_win.shape[1]):
                    wj = w64[(slice(None), lo + j) + koff].reshape((1, o) + ones)
                    np.multiply(x_win[:, j : j + 1], wj, out=p)
                    _fma_step(p, acc, s)
    if b is not None:
        acc = acc + b.astype(np.float32).reshape((1, o) + ones)
    return acc


def deconv_strided_avx2(x, w, b, stride, pad, size) -> np.ndarray | None:
    """A strided (or one-sample), undilated float32 conv_transpose of one group (x (n, Cin,
    *in), w (Cin, Cout, *k), `size` the output's) as PyTorch computes it on the avx2 family, or
    None where not mirrored (an unstrided oneDNN one: `deconv_avx2`). oneDNN's
    brgconv_strided:avx2 (ONEDNN_VERBOSE) in the order of the strided input gradient
    (`_grad_input_strided`), then the bias; one small sample with a kernel of 3 or less along
    an axis (ATen's choice of slow_conv_transpose2d, as `backend`'s for a conv): the columns
    w^T @ x by MKL's generic sgemm (`gemm_avx2`), added into the output kernel offset after
    offset (col2im), then the bias. Measured on AMD EPYC (Zen 3) against PyTorch 2.13: every
    element of 60 batched conv_transpose1d / 2d (1 to 24 input, 1 to 16 output channels,
    kernels 2 to 4, strides 2 and 3, padded), of 40 strided conv_transpose2d with a bias (16
    of them one sample) and of 16 unstrided ones of one sample is PyTorch's."""
    n, c = x.shape[:2]
    kernel = tuple(w.shape[2:])
    size = tuple(size)
    d = len(kernel)
    if backend(x.shape, w.shape, stride, (1,) * d, 1) == "onednn":
        if all(st == 1 for st in stride):
            return deconv_avx2(x, w, b, tuple(pad), size)
        res = _grad_input_strided(x, w, size, tuple(stride), tuple(pad))
    else:
        from . import gemm_avx2

        o, spatial = w.shape[1], tuple(x.shape[2:])
        w2 = w.reshape(c, -1)
        reach = tuple((i - 1) * st + k for i, st, k in zip(spatial, stride, kernel))
        res = np.zeros((n, o) + reach, np.float32)
        for i in range(n):
            cols = gemm_avx2.mm(w2.T, np.ascontiguousarray(x[i].reshape(c, -1)))
            if cols is None:
                return None
            cols = cols.reshape((o,) + kernel + spatial)
            for koff in np.ndindex(*kernel):
                win = tuple(
                    slice(k0, k0 + st * (m - 1) + 1, st) for k0, st, m in zip(koff, stride, spatial)
                )
                res[(i, slice(None)) + win] += cols[(slice(None),) + koff]
        res = res[(slice(None), slice(None)) + tuple(slice(p, p + q) for p, q in zip(pad, size))]
        if res.shape[2:] != size:
            return None  # (an output_padding past the reach: not measured)
    if b is not None:
        res = res + b.astype(np.float32).reshape((1, -1) + (1,) * d)
    return res


_PASS = 32  # steps of `_chain` taken at once


def _chain(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The chains of fused multiply-adds acc = fma(a[:, k], b[k], acc) over k in order, from
    zero: a (m, K), b (K, n) float32; float32 (m, n) (see `_chain_steps`)."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    m, k, n = a.shape[0], a.shape[1], b.shape[1]

    def products(lo: int, hi: int) -> np.ndarray:
        return (a64[:, lo:hi, None] * b64[None, lo:hi]).transpose(1, 0, 2)

    return _chain_steps(products, k, (m, n))


def _chain_steps(products, k: int, shape: tuple) -> np.ndarray:
    """The chains of fused multiply-adds acc = fma(p[j], acc) over the steps j < k in order,
    from zero, float32 of `shape`; `products(lo, hi)` gives steps lo..hi-1's exact float64
    products, (hi - lo, *shape). A pass of `_PASS` steps rounds each sum through float64 and
    keeps the sums; where one is inexact and lands on a float32 midpoint (see `_fma_step`),
    the pass is done again step by step."""
    acc = np.zeros(shape, np.float64)  # float32 values
    with np.errstate(all="ignore"):
        for lo in range(0, k, _PASS):
            hooks.observer.check_clock()
            hi = min(lo + _PASS, k)
            p = products(lo, hi)
            sums = np.empty((hi - lo,) + tuple(shape), np.float64)
            start = acc
            for j in range(hi - lo):
                np.add(p[j], acc, out=sums[j])
                acc = sums[j].astype(np.float32).astype(np.float64)
            low = sums.view(np.uint32)[..., ::2] if _LITTLE else sums.view(np.uint32)[..., 1::2]
            mid = np.bitwise_and(low, _MASK) == _MID
            if not mid.any():
                continue
            # the sums' exact errors (TwoSum) tell an exact tie from an inexact one
            prev = np.empty_like(sums)
            prev[0] = start
            prev[1:] = sums[:-1].astype(np.float32)
            bb = sums - p
            err = (p - (sums - bb)) + (prev - bb)
            if (mid & (err != 0)).any():
                acc32 = start.astype(np.float32)
                for j in range(hi - lo):
                    acc32 = LA._fma32(p[j], acc32)
                acc = acc32.astype(np.float64)
    return acc.astype(np.float32)


# The backward of oneDNN's direct kernel (jit:avx512_core backward_data and backward_weights,
# which PyTorch's mkldnn_convolution_backward calls), measured on PyTorch 2.13 (random shapes,
# every element equal, see tests/ops/test_conv32_order.py), where the forward is `onednn_direct`
# with one group (not 1x1), unstrided and undilated:
# - the input gradient: output channels in chunks of 16, each the chain of fused
#   multiply-adds over the kernel rows, the kernel columns and the chunk's channels (the
#   channel fastest), from zero; the chunks' sums added in order (strided: see
#   `_grad_input_strided`);
# - the weight gradient: for each weight, the chain of fused multiply-adds over the samples,
#   then the output rows, then the output columns, from zero (a strided 1x1 kernel whose
#   stride divides the input, jit_1x1's backward_weights: one such chain a sample, the
#   samples' sums added in order; its input gradient is `_grad_input_strided`'s, unstrided
#   one chain over every output channel, to 256 of them);
# - the bias gradient: the plain float32 sum over the samples, rows and columns in that order.
_MAX_GRAD_ELEMENTS = 1 << 22
_MAX_GRAD_STEPS = 1 << 15  # the weight gradient's chain: a few NumPy calls per output position


def onednn_backward(x_shape: tuple, w_shape: tuple, stride, dilation, pad, out, groups) -> bool:
    """Whether the float32 gradients of this conv are mirrored (see above)."""
    if backend(x_shape, w_shape, stride, dilation, groups) != "onednn" or groups != 1:
        return False
    if any(dl != 1 for dl in dilation):
        return False  # other kernels (the bias gradient too)
    plan = _onednn_plan(x_shape, w_shape, stride, pad, dilation, groups, out)
    if plan is None or multiply_adds(x_shape, w_shape, out) > max(_MAX_WORK, run_work()):
        return False
    # jit_1x1 (a 1x1 kernel whose stride divides the input): unstrided, its input gradient is
    # one chain over the output channels, measured to 256 of them
    return not plan[1] or any(st != 1 for st in stride) or w_shape[0] <= _ONEDNN_MAX_1X1


def grad_input(g: np.ndarray, w: np.ndarray, size: tuple, stride, dilation, pad) -> np.ndarray:
    """oneDNN's input gradient (see above): g (n, o, *out), float32 (n, c, *size)."""
    step = max(1, _CACHE_ELEMENTS // max(1, w.shape[1] * int(np.prod(size))))
    geo = (tuple(size), tuple(stride), tuple(dilation), tuple(pad))
    # an unstrided 1x1 kernel (jit_1x1): one chain over every output channel
    one = all(k == 1 for k in w.shape[2:]) and all(st == 1 for st in stride)
    chunk = max(1, w.shape[0]) if one else 16
    fn = _grad_input
    if not one and all(st == 1 for st in stride):
        from ..core import cpu

        if cpu.avx2():
            fn = _grad_input_avx2
    if len(g) > step:  # a few samples at a time, as the forward
        parts = [fn(g[i : i + step], w, *geo, chunk) for i in range(0, len(g), step)]
        return np.concatenate(parts)
    return fn(g, w, *geo, chunk)


_AVX2_GROUP = 32  # output channels of one chain in jit:avx2's backward_data (4 blocks of 8)


def _grad_input_avx2(g: np.ndarray, w: np.ndarray, size, stride, dilation, pad, chunk=0):
    """jit:avx2's unstrided input gradient (the avx2 family; `chunk` unused): the output
    channels in groups of 32, each group one chain of fused multiply-adds from zero, block of 8
    channels after block, within a block over the kernel rows, the kernel columns and the
    block's channels; the groups' sums added in order. Measured on AMD EPYC (Zen 3) against
    PyTorch 2.13: every element of 120 random conv1d / conv2d gradients (1 to 72 output
    channels, kernels 2 to 5, padded, batches of 2 and 3) is PyTorch's; the AVX-512 model
    (chunks of 16 added) missed every one past 8 output channels."""
    total = None
    for lo in range(0, w.shape[0], _AVX2_GROUP):
        hi = lo + _AVX2_GROUP
        part = _grad_input(
            g[:, lo:hi], w[lo:hi], size, stride, dilation, pad, _AVX2_BLOCK, False, True
        )
        total = part if total is None else total + part
    return total


def _grad_input(
    g: np.ndarray, w: np.ndarray, size, stride, dilation, pad, chunk=16, brgemm=True, carry=False
) -> np.ndarray:
    """(`brgemm`: a strided conv's is `_grad_input_strided`'s; else the chain below, the
    output gradient spread out by the stride, as oneDNN's direct kernel of a grouped conv.)"""
    if brgemm and any(st != 1 for st in stride):
        return _grad_input_strided(g, w, size, stride, pad)
    n, o = g.shape[:2]
    c = w.shape[1]
    kernel = tuple(w.shape[2:])
    d = len(kernel)
    out = g.shape[2:]
    # g spread out by the stride (zeros between: their products add nothing) on a canvas where
    # kernel offset k meets input position i at i + dl (K - 1) - dl k
    spread = np.zeros((n, o) + tuple((q - 1) * st + 1 for q, st in zip(out, stride)), g.dtype)
    spread[(Ellipsis,) + tuple(slice(None, None, st) for st in stride)] = g
    widths = [(0, 0), (0, 0)] + [
        (dl * (k - 1) - p, sz + p - (q - 1) * st - 1)
        for k, p, dl, st, sz, q in zip(kernel, pad, dilation, stride, size, out)
    ]
    gc = np.pad(spread, widths)
    w64 = w.astype(np.float64)
    total = None
    shape = (n, c) + tuple(size)
    with np.errstate(all="ignore"):
        for lo in range(0, o, chunk):
            acc = total if carry and total is not None else np.zeros(shape, np.float32)
            p = np.empty(shape, np.float64)
            s = np.empty(shape, np.float64)
            for koff in np.ndindex(*kernel):
                hooks.observer.tick()
                sl = tuple(
                    slice(dl * (k - 1 - a), dl * (k - 1 - a) + sz)
                    for k, a, dl, sz in zip(kernel, koff, dilation, size)
                )
                for j in range(lo, min(lo + chunk, o)):
                    gs = gc[(slice(None), slice(j, j + 1)) + sl]  # (n, 1, *size)
                    wj = w64[(j, slice(None)) + koff][(None, slice(None)) + (None,) * d]
                    np.multiply(gs, wj, out=p)
                    _fma_step(p, acc, s)
            total = acc if total is None or carry else total + acc
    return total


def _spread(g: np.ndarray, kernel, size, stride, pad) -> np.ndarray:
    """g spread out by the stride (zeros between: their products add nothing) on a canvas where
    kernel offset k meets input position i at i + (K - 1) - k (undilated)."""
    n, o = g.shape[:2]
    out = g.shape[2:]
    spread = np.zeros((n, o) + tuple((q - 1) * st + 1 for q, st in zip(out, stride)), g.dtype)
    spread[(Ellipsis,) + tuple(slice(None, None, st) for st in stride)] = g
    widths = [(0, 0), (0, 0)] + [
        (k - 1 - p, sz + p - (q - 1) * st - 1)
        for k, p, st, sz, q in zip(kernel, pad, stride, size, out)
    ]
    return np.pad(spread, widths)


def _column_calls(r: int, k: int, st: int, p: int, size: int, out: int) -> list[list[int]]:
    """The kernel columns of oneDNN's calls for the input columns r, r + st, ... (see
    `_grad_input_strided`): each list one chain, the lists' sums added in order."""
    rows = range(r, size, st)
    taps = []  # (kernel column, whether it meets every column of the class)
    for kw in range((r + p) % st, k, st):
        hits = [0 <= (i + p - kw) // st < out for i in rows]
        if any(hits):
            taps.append((kw, all(hits)))
    if size % st:  # an uneven width: one call over every kernel column
        return [[kw for kw, _ in taps]] if taps else []
    full = [kw for kw, whole in taps if whole]
    if not full:
        return [[kw] for kw, _ in taps]
    return (
        [[kw] for kw, _ in taps if kw < full[0]]
        + [full]
        + [[kw] for kw, _ in taps if kw > full[-1]]
    )


def _grad_input_strided(g: np.ndarray, w: np.ndarray, size, stride, pad) -> np.ndarray:
    """The input gradient of a strided (undilated, one group) oneDNN conv: PyTorch 2.13 runs
    oneDNN's brgemm-based strided backward (brgconv_strided:avx512_core in ONEDNN_VERBOSE),
    measured (random shapes to 128 output channels and widths to 256, every element equal):
    the input columns of one class r (r, r + s, r + 2s, ...; s the stride along the width)
    meet the kernel columns kw = r + pad (mod s). When the width is not a multiple of s, one
    chain of fused multiply-adds over the kernel rows, those kernel columns and every output
    channel (the channel fastest), from zero. Otherwise a kernel column that reaches past the
    output for some columns of the class is a chain of its own, one that meets all of them
    joins the others of its kind in one chain, and the chains' sums are added in the order of
    their kernel columns. Along the height, only the kernel rows that meet an output row."""
    n, o = g.shape[:2]
    c = w.shape[1]
    kernel = tuple(w.shape[2:])
    size = tuple(size)
    gc = _spread(g, kernel, size, stride, pad)
    w64 = w.astype(np.float64)
    res = np.zeros((n, c) + size, np.float32)
    width = size[-1]
    with np.errstate(all="ignore"):
        for r in range(min(stride[-1], width)):
            cols = slice(r, width, stride[-1])
            shape = res[..., cols].shape
            total = None
            calls = _column_calls(r, kernel[-1], stride[-1], pad[-1], width, g.shape[-1])
            for call in calls:
                acc = np.zeros(shape, np.float32)
                p = np.empty(shape, np.float64)
                s = np.empty(shape, np.float64)
                for rows in np.ndindex(*kernel[:-1]):
                    for kw in call:
                        koff = rows + (kw,)
                        hooks.observer.tick()
                        sl = tuple(
                            slice(k - 1 - a, k - 1 - a + sz) for k, a, sz in zip(kernel, koff, size)
                        )
                        win = gc[(slice(None), slice(None)) + sl][..., cols]
                        for j in range(o):
                            wj = w64[(j, slice(None)) + koff][
                                (None, slice(None)) + (None,) * (len(kernel))
                            ]
                            np.multiply(win[:, j : j + 1], wj, out=p)
                            _fma_step(p, acc, s)
                total = acc if total is None else total + acc
            if total is not None:
                res[..., cols] = total
    return res


def grad_weight(x: np.ndarray, g: np.ndarray, kernel: tuple, stride, dilation, pad):
    """oneDNN's weight gradient (see above), or None past the bound on its steps."""
    n, c = x.shape[:2]
    o = g.shape[1]
    out = tuple(g.shape[2:])
    lp = int(np.prod(out))
    taps = int(np.prod(kernel))
    if n * lp > _MAX_GRAD_STEPS or c * taps * max(n * lp, o * _PASS) > _MAX_GRAD_ELEMENTS:
        return None  # (the unfolded input, and a pass's products, stay within 32 MB)
    cols = np.concatenate(
        [_columns(x[i], kernel, stride, dilation, pad, out) for i in range(n)], axis=1
    )  # (c * taps, n * positions): the chain's order, sample by sample
    gm = np.ascontiguousarray(np.moveaxis(g, 1, 0)).reshape(o, n * lp)
    sizes = x.shape[2:]
    if taps == 1 and all(s == q * st for s, q, st in zip(sizes, out, stride)):
        # jit_1x1 (see `onednn_backward`): a chain a sample, the sums added in order
        res = None
        with np.errstate(all="ignore"):
            for i in range(n):
                part = _chain(gm[:, i * lp : (i + 1) * lp], cols[:, i * lp : (i + 1) * lp].T)
                res = part if res is None else res + part
        return res.reshape((o, c) + tuple(kernel))
    with np.errstate(all="ignore"):
        res = _chain(gm, np.ascontiguousarray(cols.T))
    return res.reshape((o, c) + tuple(kernel))


def grad_bias(g: np.ndarray) -> np.ndarray:
    """oneDNN's bias gradient: the float32 sum over samples, rows and columns in order (a
    running sum: NumPy's accumulate adds one element at a time)."""
    o = g.shape[1]
    flat = np.moveaxis(g, 1, 0).reshape(o, -1)
    if flat.shape[1] == 0:
        return np.zeros(o, np.float32)
    return np.add.accumulate(flat, axis=1, dtype=np.float32)[:, -1]


# Grouped and dilated convs whose backward passes are oneDNN's direct kernels (jit:avx512_core,
# or jit:avx2 for the weights of groups of 8 channels), measured on PyTorch 2.13 (grids of
# shapes with ONEDNN_VERBOSE naming the kernel, every element equal; other shapes take its
# gemm-based kernels, not mirrored):
# - the input gradient of an unstrided grouped conv whose groups have a multiple of 4 input and
#   output channels: `_grad_input`'s order per group, the output channels in blocks of 16, 8
#   or 4 (the largest that divides both counts of a group);
# - the input gradient of an unstrided dilated conv of one group: `_grad_input`'s;
# - the weight gradient (`grad_weight`'s chain, per group) of a grouped conv whose groups have
#   a multiple of 8 input and output channels, and of an unstrided dilated conv of one group
#   with 1-3 or 16 or more input channels within oneDNN's padding conditions; the bias
#   gradient then `grad_bias`'s running sum.
def direct_backward(x_shape: tuple, w_shape: tuple, stride, dilation, pad, out, groups) -> str:
    """'direct:B:w' (B: the input gradient's block of output channels, '' where not mirrored;
    w: the weight gradient mirrored, '' where not), or '' where neither is."""
    if backend(x_shape, w_shape, stride, dilation, groups) != "onednn" or len(w_shape) not in (
        3,
        4,
    ):
        return ""
    if (
        multiply_adds(x_shape, w_shape, out) > max(_MAX_WORK, run_work())
        or int(np.prod(w_shape[2:])) == 1
    ):
        return ""
    o, cg = w_shape[:2]
    og = o // groups
    unstrided = all(st == 1 for st in stride)
    dilated = any(dl != 1 for dl in dilation)
    if any(p > dl * (k - 1) for p, dl, k in zip(pad, dilation, w_shape[2:])):
        return ""  # padding past the kernel's reach
    if any(s < dl * (k - 1) + 1 for s, dl, k in zip(x_shape[2:], dilation, w_shape[2:])):
        return ""  # an input shorter than the kernel
    block, weights = "", False
    direct = _direct_data(x_shape, w_shape, stride, dilation, pad, out, groups)
    if groups > 1 and not dilated:
        if not unstrided and (og > 16 or og > 8 and not direct):
            # oneDNN's brgemm strided kernel (its avx512 one past 16 output channels a group,
            # its avx2 one where the direct kernel refuses the shape): `_grad_input_strided`'s
            block = "S"
        elif direct:
            block = str(direct)
        if _avx2_direct_data(w_shape, stride, groups):
            block = str(_AVX2_BLOCK)  # (jit:avx2's kernel: `direct_grad_input`)
        weights = cg % 8 == 0 and og % 8 == 0
    elif groups == 1 and dilated and unstrided:
        block = str(direct) if direct else ""
        weights = (cg <= 3 or cg >= 16) and _dilated_weights(x_shape, w_shape, dilation, pad, out)
    if not (block or weights):
        return ""
    return f"direct:{block}:{'w' if weights else ''}"


def _direct_data(x_shape: tuple, w_shape: tuple, stride, dilation, pad, out, groups) -> int:
    """The block of output channels of oneDNN's direct backward-data kernel (jit:avx512_core)
    for this shape, or 0 where it refuses the shape: channels in blocks of 16 (one group: padded
    to 16), of 8 or 4 for groups of fewer; then its register blocking along the width must
    fit the kernel's reach past the padding and the stride (its init_conf's conditions)."""
    o, cg = w_shape[:2]
    og = o // groups
    if groups == 1:
        block, ic = 16, -(-cg // 16) * 16
    else:
        block = next((b for b in (16, 8, 4) if cg % b == og % b == 0), 0)
        ic = cg
    if not block:
        return 0
    (ih, iw), (kh, kw) = _as2d(x_shape[2:], 1), _as2d(w_shape[2:], 1)
    (sh, sw), (dh, dw) = _as2d(stride, 1), _as2d(dilation, 1)
    (th, lw), (oh, ow) = _as2d(pad, 0), _as2d(out, 1)
    ekh, ekw = dh * (kh - 1) + 1, dw * (kw - 1) + 1
    rw, bh = (ow - 1) * sw + ekw - iw - lw, (oh - 1) * sh + ekh - ih - th
    if ekw <= max(lw, rw) or ekh <= max(th, bh) or kw >= 14:
        return 0
    # the kernel's working set against the L1 cache: refused where machines differ (32-48 KB)
    if 4 * (iw * block * 2 * kh + ow * block + kh * kw * block * block * 2) > 32768:
        return 0
    nb_ic = ic // block
    small = kw == 1 or (kw == 5 and iw < 8) or (kw < 5 and (iw <= 5 or 8 < iw <= 13))
    if not small or sh > 1:
        ur = min(iw, 28)
        if not (kw > 3 or (kw == 3 and ow > 8)) and sh == 1 and nb_ic % 2 == 0:
            ur = min(iw, 10)
    else:
        blocking = min(4, nb_ic)
        while nb_ic % blocking:
            blocking -= 1
        ur = min(iw, 31 // (blocking + 1))
    tail = iw % ur
    left = max(0, (ekw - 1 - lw) // sw)
    right = max(0, (ekw - 1 - max(0, rw + tail)) // sw)
    if left * sw > ur or right * sw > ur:
        return 0
    if iw > ur and (ur % sw or rw + tail < 0):
        return 0
    return block


def _dilated_weights(x_shape: tuple, w_shape: tuple, dilation, pad, out) -> bool:
    """oneDNN's padding conditions on its direct weight-gradient kernel (unstrided)."""
    (ih, iw), (kh, kw) = _as2d(x_shape[2:], 1), _as2d(w_shape[2:], 1)
    (dh, dw), (th, lw), (oh, ow) = _as2d(dilation, 1), _as2d(pad, 0), _as2d(out, 1)
    eh, ew = dh * (kh - 1) + 1, dw * (kw - 1) + 1
    bh, rw = max(0, oh - 1 + eh - ih - th), max(0, ow - 1 + ew - iw - lw)
    return max(th, bh) <= eh // 2 and max(lw, rw) < ew and max(lw, rw) <= 28 and kw <= 14


def _avx2_direct_data(w_shape: tuple, stride, groups: int) -> bool:
    """Whether the avx2 family's input gradient of this grouped conv is jit:avx2's unstrided
    kernel per group (`_grad_input_avx2`): groups of 8k input and output channels, unstrided
    (measured with the forward's shapes of `_avx2_direct`)."""
    from ..core import cpu

    og = w_shape[0] // groups
    return (
        cpu.avx2()
        and groups > 1
        and all(st == 1 for st in stride)
        and w_shape[1] % _AVX2_BLOCK == 0
        and og % _AVX2_BLOCK == 0
    )


def direct_grad_input(g, w, size, stride, dilation, pad, groups: int, block: str) -> np.ndarray:
    """The input gradient of `direct_backward`: `_grad_input`'s per group."""
    o = w.shape[0]
    og = o // groups
    geo = (tuple(size), tuple(stride), tuple(dilation), tuple(pad))
    chunk = 16 if block == "S" else int(block)
    step = max(1, _CACHE_ELEMENTS // max(1, w.shape[1] * int(np.prod(size))))
    fn = lambda gg, ww: _grad_input(gg, ww, *geo, chunk, block == "S")  # noqa: E731
    if _avx2_direct_data(w.shape, stride, groups) and block != "S":
        fn = lambda gg, ww: _grad_input_avx2(gg, ww, *geo)  # noqa: E731
    groups_ = []
    for i in range(groups):
        gi, wi = g[:, i * og : (i + 1) * og], w[i * og : (i + 1) * og]
        # a few samples at a time, as the forward
        parts = [fn(gi[lo : lo + step], wi) for lo in range(0, len(g), step)]
        groups_.append(parts[0] if len(parts) == 1 else np.concatenate(parts))
    return groups_[0] if groups == 1 else np.concatenate(groups_, axis=1)


def direct_grad_weight(x, g, kernel, stride, dilation, pad, groups: int) -> np.ndarray | None:
    """The weight gradient of `direct_backward`: `grad_weight`'s chain per group."""
    cg = x.shape[1] // groups
    og = g.shape[1] // groups
    parts = []
    for i in range(groups):
        part = grad_weight(
            x[:, i * cg : (i + 1) * cg], g[:, i * og : (i + 1) * og], kernel, stride, dilation, pad
        )
        if part is None:
            return None
        parts.append(part)
    return parts[0] if groups == 1 else np.concatenate(parts)


# The backward of oneDNN's depthwise kernel (jit_dw:avx512_core backward_data and
# backward_weights; a conv1d is a conv2d of height 1), measured on PyTorch 2.13 (random shapes,
# every element equal, see tests/ops/test_conv32_order.py), where the forward is jit_dw (one
# input and one output channel a group, `_onednn_plan`):
# - the input gradient, when undilated: for each input element, the chain of fused
#   multiply-adds over the kernel rows and then the kernel columns that meet an output, from
#   zero;
# - the weight gradient, when undilated, the kernel at most 3 wide and not narrower than the
#   stride along the width, the padding within half the kernel and the input as tall as the
#   kernel (oneDNN's conditions, `_dw_weights`; other shapes take its gemm-based kernel, not
#   mirrored): for each weight, the chain over the samples, the output rows and the output
#   columns, from zero; the bias gradient then `grad_bias`'s running sum.
def dw_backward(x_shape: tuple, w_shape: tuple, stride, dilation, pad, out, groups) -> str:
    """'dw' (both gradients jit_dw's, mirrored), 'dw-data' (the input gradient only) or ''."""
    if backend(x_shape, w_shape, stride, dilation, groups) != "onednn" or groups == 1:
        return ""
    if any(dl != 1 for dl in dilation) or len(w_shape) not in (3, 4):
        return ""
    plan = _onednn_plan(x_shape, w_shape, stride, pad, dilation, groups, out)
    if plan != (1, True) or w_shape[0] != groups:
        return ""
    if multiply_adds(x_shape, w_shape, out) > max(_MAX_WORK, run_work()):
        return ""
    return "dw" if _dw_weights(x_shape, w_shape, stride, pad, out) else "dw-data"


def _dw_weights(x_shape: tuple, w_shape: tuple, stride, pad, out) -> bool:
    """Whether oneDNN takes jit_dw's backward_weights for this (undilated) depthwise conv."""
    n = x_shape[0]
    # as a conv2d: a conv1d has height 1
    (ih, iw), (kh, kw) = _as2d(x_shape[2:], 1), _as2d(w_shape[2:], 1)
    (sh, sw), (th, lw), (oh, ow) = _as2d(stride, 1), _as2d(pad, 0), _as2d(out, 1)
    bh = max(0, (oh - 1) * sh + kh - ih - th)
    rw = max(0, (ow - 1) * sw + kw - iw - lw)
    if kw > 3 or sw > kw or max(th, bh) > kh // 2 or max(lw, rw) > kw // 2:
        return False
    if ih < kh + (-th) % sh or (th > 1 and th % sh) or (bh > 1 and bh % sh):
        return False
    steps = n * oh * ow
    return steps <= _MAX_GRAD_STEPS and x_shape[1] * kh * kw * steps <= _MAX_GRAD_ELEMENTS


def _as2d(t, fill: int) -> tuple:
    return (fill,) + tuple(t) if len(t) == 1 else tuple(t)


def dw_grad_input(g: np.ndarray, w: np.ndarray, size: tuple, stride, pad) -> np.ndarray:
    """jit_dw's input gradient (see above): g (n, c, *out), w (c, 1, *kernel); float32."""
    n, c = g.shape[:2]
    kernel = tuple(w.shape[2:])
    size = tuple(size)
    # the output gradient spread out by the stride: an offset that meets no output adds a zero
    # product, which leaves the chain as it is
    gc = _spread(g, kernel, size, stride, pad)
    w64 = w.astype(np.float64)
    shape = (n, c) + size
    acc = np.zeros(shape, np.float32)
    p = np.empty(shape, np.float64)
    s = np.empty(shape, np.float64)
    with np.errstate(all="ignore"):
        for koff in np.ndindex(*kernel):
            hooks.observer.tick()
            sl = tuple(slice(k - 1 - a, k - 1 - a + sz) for k, a, sz in zip(kernel, koff, size))
            wk = w64[(slice(None), 0) + koff][(None, slice(None)) + (None,) * len(kernel)]
            np.multiply(gc[(slice(None), slice(None)) + sl], wk, out=p)
            _fma_step(p, acc, s)
    return acc


def dw_grad_weight(x: np.ndarray, g: np.ndarray, kernel: tuple, stride, pad) -> np.ndarray:
    """jit_dw's weight gradient (see above): x (n, c, *size), g (n, c, *out); (c, 1, *kernel)."""
    n, c = x.shape[:2]
    out = tuple(g.shape[2:])
    kernel = tuple(kernel)
    ones = (1,) * len(kernel)
    xc = _on_canvas(x, kernel, stride, ones, pad, out)
    taps = int(np.prod(kernel))
    # each step one output position (sample, row, column), each chain one (channel, offset)
    cols = np.empty((n,) + out + (c, taps), np.float64)
    for t, koff in enumerate(np.ndindex(*kernel)):
        win = xc[_window(koff, stride, ones, out)]  # (n, c, *out)
        cols[..., t] = np.moveaxis(win, 1, -1)
    cols = cols.reshape(-1, c, taps)
    g64 = np.moveaxis(g, 1, -1).reshape(-1, c, 1).astype(np.float64)
    res = _chain_steps(lambda lo, hi: cols[lo:hi] * g64[lo:hi], len(cols), (c, taps))
    return res.reshape((c, 1) + kernel)


# The backward of slow_conv2d for one sample (one group, undilated), measured on PyTorch 2.13
# (random shapes, every element equal): the weight gradient is MKL's product of the output
# gradient (o, positions) and the transposed unfolded input (`LA._matmul_fwd`'s order for
# `g @ cols.T`), the input gradient the product of the transposed weight and the output
# gradient (`w.T @ g`) folded back (col2im: the kernel offsets added in order, in float32), the
# bias gradient the sum of the output gradient (as torch.sum).
# Several samples (an unstrided 1x1 kernel with fewer than 16 samples): ATen's loop over the
# samples, each sample's input gradient as above, the weight gradient each sample's product
# added to the sum of those before it, in float32 (one output position: fused, `_chain` over
# the samples), measured the same way.
def slow_backward(x_shape: tuple, w_shape: tuple, stride, dilation, groups: int) -> bool:
    """Whether the float32 gradients of this conv are slow_conv2d's, mirrored (see above)."""
    if groups != 1:
        return False
    return backend(x_shape, w_shape, stride, dilation, groups) in ("slow", "dilated")


def slow_grad_weight(x, g, kernel, stride, dilation, pad) -> np.ndarray | None:
    if len(x) == 1:
        return _slow_grad_weight(x, g, kernel, stride, dilation, pad)
    o = g.shape[1]
    out = tuple(g.shape[2:])
    if int(np.prod(out)) == 1:
        if o == 1:
            return None  # (not the chain below: not measured)
        # one output position: each sample's product is one multiply, fused with the sum
        # (MKL's beta = 1): the chain of fused multiply-adds over the samples
        cols = np.stack([_columns(xi, tuple(kernel), stride, dilation, pad, out)[:, 0] for xi in x])
        res = _chain(np.ascontiguousarray(g.reshape(len(g), -1).T), cols)
        return res.reshape((o, x.shape[1]) + tuple(kernel))
    total = None
    with np.errstate(all="ignore"):
        for i in range(len(x)):
            cols = _columns(x[i], tuple(kernel), stride, dilation, pad, out)
            gm = np.ascontiguousarray(g[i].reshape(o, -1))
            if not _mm_mirrored(gm, cols.T):
                return None
            if total is None:
                total = LA._matmul_fwd(gm, cols.T)
                continue
            # MKL's beta = 1: the blocks' sums added to the sum so far in order (`linear_sum`),
            # else the product added
            same = LA.linear_sum(gm, cols.T, total)
            total = same if same is not None else total + LA._matmul_fwd(gm, cols.T)
    return total.reshape((o, x.shape[1]) + tuple(kernel))


def _slow_grad_weight(x, g, kernel, stride, dilation, pad) -> np.ndarray | None:
    o = g.shape[1]
    out = tuple(g.shape[2:])
    cols = _columns(x[0], tuple(kernel), stride, dilation, pad, out)  # (c * taps, positions)
    gm = np.ascontiguousarray(g[0].reshape(o, -1))
    if not _mm_mirrored(gm, cols.T):
        return None
    with np.errstate(all="ignore"):
        res = LA._matmul_fwd(gm, cols.T)
    return res.reshape((o, x.shape[1]) + tuple(kernel))


def slow_grad_input(g, w, size, stride, dilation, pad) -> np.ndarray | None:
    parts = []
    for i in range(len(g)):
        part = _slow_grad_input(g[i : i + 1], w, size, stride, dilation, pad)
        if part is None:
            return None
        parts.append(part)
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def _slow_grad_input(g, w, size, stride, dilation, pad) -> np.ndarray | None:
    o, c = w.shape[:2]
    kernel = tuple(w.shape[2:])
    out = tuple(g.shape[2:])
    wm = np.ascontiguousarray(w.reshape(o, -1))
    gm = np.ascontiguousarray(g[0].reshape(o, -1))
    if not _mm_mirrored(wm.T, gm):
        return None
    with np.errstate(all="ignore"):
        cols = LA._matmul_fwd(wm.T, gm)  # (c * taps, positions)
    # col2im: each kernel offset's values added back where they were read, in float32
    cols = cols.reshape((1, c) + kernel + out)
    z = np.zeros((1, c) + canvas(tuple(size), kernel, stride, dilation, pad, out), np.float32)
    for koff in np.ndindex(*kernel):
        z[_window(koff, stride, dilation, out)] += cols[(slice(None), slice(None)) + koff]
    crop = (Ellipsis,) + tuple(slice(p, p + s) for p, s in zip(pad, size))
    return np.ascontiguousarray(z[crop])


def _mm_mirrored(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether `LA._matmul_fwd(a, b)` (2-d float32) takes one of MKL's mirrored orders."""
    m, k = a.shape
    n = b.shape[1]
    if LA._blocked(a, b) or LA._gemv_mirrored(a, b) or LA._narrow_chain(a, b):
        return True
    if LA._one_dot(a, b) is not None:
        return True
    return b.flags.f_contiguous and a.flags.c_contiguous and n >= 2 and LA._few_rows_t(m, k, n)


# --- float64 gradients on the avx2 and zen4 families (slow_conv2d's backward with MKL's dgemm) ---


def slow_grad_input64(g, w, size, stride, dilation, pad) -> np.ndarray | None:
    """The input gradient of a float64 conv1d / conv2d of one group (g (n, o, *out), w (o, c,
    *kernel)) as slow_conv2d's backward computes it on the avx2 and zen4 families: per sample
    the columns w2d^T @ g_t by MKL's dgemm (`gemm_avx2.mm64` of the transposed weights, into
    a buffer of its own: aligned), then col2im adds each kernel offset's values back where
    they were read, offsets in order, from zero. None where the product is not modelled."""
    from . import gemm_avx2

    o, c = w.shape[:2]
    kernel = tuple(w.shape[2:])
    out = tuple(g.shape[2:])
    if o * int(np.prod(w.shape[1:])) * max(int(np.prod(out)), LA._LANES) > LA._FMA_MAX_WORK:
        return None  # (past the forward's bound, `slow_conv64`: NumPy's order)
    wt = np.ascontiguousarray(w.reshape(o, -1)).T  # (c * taps, o), column-major
    full = canvas(tuple(size), kernel, stride, dilation, pad, out)
    z = np.zeros((len(g), c) + full)
    with np.errstate(all="ignore"):
        for t in range(len(g)):
            hooks.observer.tick()
            gm = np.ascontiguousarray(g[t].reshape(o, -1))
            # one input channel and tap, or one output position: dgemv's column kernel
            # (`column64`: each output's products in the order of k)
            if wt.shape[0] == 1:
                cols = gemm_avx2.column64(wt[0], gm)[None]
            elif gm.shape[1] == 1:
                cols = gemm_avx2.column64(gm[:, 0], wt.T)[:, None]
            else:
                cols = gemm_avx2.mm64(wt, gm)
            if cols is None:
                return None
            cols = cols.reshape((c,) + kernel + out)
            for koff in np.ndindex(*kernel):
                z[(t, slice(None)) + _window(koff, stride, dilation, out)[1:]] += cols[
                    (slice(None),) + koff
                ]
    crop = (Ellipsis,) + tuple(slice(p, p + s) for p, s in zip(pad, size))
    return np.ascontiguousarray(z[crop])


def slow_grad_weight64(x, g, kernel, stride, dilation, pad, x_at=0, g_at=0) -> np.ndarray | None:
    """The weight gradient of a float64 conv1d / conv2d of one group as slow_conv2d's backward
    computes it on the avx2 and zen4 families: from zero, per sample in order, the gradient
    += g_t @ columns_t^T by MKL's dgemm with beta = 1 (`gemm_avx2.mm64`, the sum so far its
    C). None where the product is not modelled. `x_at`, `g_at`: the doubles before x's and g's
    first in their storage (a group of a one-sample conv is a view, not a copy), which the
    products' splits follow; the im2col columns are a buffer of their own unless the kernel
    is 1 x 1, unstrided and unpadded (then x itself)."""
    from . import gemm_avx2

    o = g.shape[1]
    out = tuple(g.shape[2:])
    if o * x.shape[1] * int(np.prod(kernel)) * max(int(np.prod(out)), LA._LANES) > (
        LA._FMA_MAX_WORK
    ):
        return None  # (past the forward's bound, `slow_conv64`: NumPy's order)
    plain = all(k == 1 for k in kernel) and all(s == 1 for s in stride) and not any(pad)
    total = None
    with np.errstate(all="ignore"):
        for t in range(len(x)):
            hooks.observer.tick()
            cols = _columns(x[t], tuple(kernel), stride, dilation, pad, out, np.float64)
            gm = np.ascontiguousarray(g[t].reshape(o, -1))
            c0 = np.zeros((o, cols.shape[0])) if total is None else total
            cols_at = (x_at if plain else 0) + t * cols.size
            if o == 1:
                # one output channel: dgemv of the columns and the gradient, C added after
                v = gemm_avx2.gemv64(cols, gm[0], cols_at, g_at + t * gm.size)
                total = (v + c0[0])[None]
            elif cols.shape[0] == 1:
                # one input channel and tap: dgemv of the gradient and the column
                v = gemm_avx2.gemv64(gm, cols[0], g_at + t * gm.size, cols_at)
                total = (v + c0[:, 0])[:, None]
            else:
                total = gemm_avx2.mm64(gm, cols.T, c0, x_at=g_at + t * gm.size)
            if total is None:
                return None
    return total.reshape((o, x.shape[1]) + tuple(kernel))


def by_groups64(kernel, groups: int, a: np.ndarray, b: np.ndarray, *rest) -> np.ndarray | None:
    """`kernel(a_g, b_g, *rest)` for each group of a grouped float64 conv, the results joined
    along the channels: ATen's slow path runs a grouped conv (and its gradients) as one conv
    per group, of each operand's group made contiguous (`subtensor`). `a` (the input, or the
    output's gradient) is split along dim 1, `b` along `_SPLIT_AXIS[kernel]`, slow_conv64's
    bias (`rest[0]`) along its one dim; None where a group's result is not modelled."""
    if groups == 1:
        return kernel(a, b, *rest)
    parts = []
    for g in range(groups):
        ag = np.ascontiguousarray(np.split(a, groups, axis=1)[g])
        bg = np.ascontiguousarray(np.split(b, groups, axis=_SPLIT_AXIS[kernel.__name__])[g])
        more, at = rest, {}
        if kernel is slow_conv64 and rest[0] is not None:
            more = (np.split(rest[0], groups)[g],) + rest[1:]
        if kernel is slow_grad_weight64 and len(a) == 1:
            # one sample: each group of the input and of the output's gradient is a view
            at = {"x_at": g * ag.size, "g_at": g * bg.size}
        part = kernel(ag, bg, *more, **at)
        if part is None:
            return None
        parts.append(part)
    return np.concatenate(parts, axis=_JOIN_AXIS[kernel.__name__])


# how by_groups64 splits the second operand and joins the results, by kernel
_SPLIT_AXIS = {"slow_conv64": 0, "slow_grad_input64": 0, "slow_grad_weight64": 1}
_JOIN_AXIS = {"slow_conv64": 1, "slow_grad_input64": 1, "slow_grad_weight64": 0}
