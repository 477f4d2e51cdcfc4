"""Convolution and pooling records: `conv` (conv1d / conv2d, with stride, padding, dilation and
groups), `max_pool`, `avg_pool`, and the two linear maps their rules are written with,
`unfold` (the sliding windows of the last d axes: im2col) and `fold` (its transpose: each
window added back in place, col2im).

Geometry is explicit in the params: `kernel`, `stride`, `dilation`, `pad` (zeros, or -inf for
max_pool, added before the first element of each axis) and `out` (the number of windows along
each axis). The windows run over a canvas that starts `pad` before the input and is long
enough for every window; the surface computes `out` as PyTorch does (its padding, 'same',
ceil_mode) and checks every size before a record allocates anything.

Rules: conv's gradients are a `fold` of `w^T @ g` (the input) and `g @ unfold(x)^T` (the
weight), so they are differentiable again; max_pool's gradient is an `index_put` of g at the
maxima (the first maximum of a window, as PyTorch's kernel); avg_pool's is a `fold` of g over
each window's divisor.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core import hooks
from ..core import primitives as P
from ..core.op import Sample, apply, defop
from ..core.tensor import Tensor, constant, grad_enabled
from . import conv_order
from .conv_order import _on_canvas, _window, canvas
from .shape import index_put


def _windows(c: np.ndarray, kernel: tuple, stride, dilation, out) -> np.ndarray:
    """A view (..., *out, *kernel) of the windows of canvas `c`."""
    d = len(kernel)
    span = tuple(dl * (k - 1) + 1 for k, dl in zip(kernel, dilation))
    v = np.lib.stride_tricks.sliding_window_view(c, span, axis=tuple(range(c.ndim - d, c.ndim)))
    sl = (
        (Ellipsis,)
        + tuple(slice(0, (o - 1) * st + 1, st) for o, st in zip(out, stride))
        + tuple(slice(None, None, dl) for dl in dilation)
    )
    return v[sl]


# --- unfold / fold: the windows of the last d axes and their transpose ------------------------


def _unfold_fwd(x: np.ndarray, kernel, stride, dilation, pad, out) -> np.ndarray:
    d = len(kernel)
    if not all(out):
        return np.zeros(x.shape[:-d] + tuple(kernel) + tuple(out), dtype=x.dtype)
    v = _windows(_on_canvas(x, kernel, stride, dilation, pad, out), kernel, stride, dilation, out)
    nl = x.ndim - d
    perm = tuple(range(nl)) + tuple(nl + d + i for i in range(d)) + tuple(nl + i for i in range(d))
    return np.ascontiguousarray(v.transpose(perm))


def _fold_fwd(c: np.ndarray, size, kernel, stride, dilation, pad, out) -> np.ndarray:
    d = len(kernel)
    lead = c.shape[: c.ndim - 2 * d]
    full = canvas(tuple(size), kernel, stride, dilation, pad, out)
    z = np.zeros(lead + full, dtype=c.dtype)
    if all(out):
        for koff in np.ndindex(*kernel):
            hooks.observer.tick()
            # a kernel axis of size 1 is broadcast over the window (avg_pool's rule)
            at = tuple(k if n > 1 else 0 for k, n in zip(koff, c.shape[c.ndim - 2 * d :]))
            z[_window(koff, stride, dilation, out)] += c[(Ellipsis,) + at + (slice(None),) * d]
    crop = (Ellipsis,) + tuple(slice(p, p + s) for p, s in zip(pad, size))
    return np.ascontiguousarray(z[crop])


def _geometry(kernel, stride, dilation, pad, out) -> dict[str, Any]:
    return {"kernel": kernel, "stride": stride, "dilation": dilation, "pad": pad, "out": out}


def _unfold_vjp(g: Tensor, out_t: Tensor, x: Tensor, **geo: Any) -> tuple:
    d = len(geo["kernel"])
    return (apply(fold, g, size=tuple(x.shape[-d:]), **geo),)


def _fold_vjp(g: Tensor, out_t: Tensor, c: Tensor, size: tuple, **geo: Any) -> tuple:
    return (apply(unfold, g, **geo),)


_UNFOLD_CASES = (
    ((2, 5), _geometry((3,), (1,), (1,), (0,), (3,))),
    ((1, 2, 7), _geometry((3,), (2,), (1,), (1,), (4,))),
    ((2, 4, 5), _geometry((2, 3), (1, 2), (1, 1), (1, 0), (4, 2))),
    ((1, 5, 5), _geometry((2, 2), (2, 2), (2, 1), (1, 1), (2, 3))),
    ((3, 4), _geometry((2,), (3,), (1,), (0,), (2,))),
)


def _cols_shape(size: tuple, geo: dict) -> tuple:
    d = len(geo["kernel"])
    return tuple(size[: len(size) - d]) + tuple(geo["kernel"]) + tuple(geo["out"])


# --- export text (`Op.to_torch`, `Op.to_jax`) of the window records ------------------------


def _canvas(w: Any, x: str, p: dict[str, Any], kernel: Any, value: str = "0.0") -> str:
    """`x` on the records' canvas in PyTorch: `pad` before each of the last d axes, and after
    them as far as the `out` windows reach (a negative width cuts), as F.pad writes it."""
    widths = []
    for i in reversed(range(len(kernel))):
        k, st, dl, lo, o = kernel[i], p["stride"][i], p["dilation"][i], p["pad"][i], p["out"][i]
        reach = (o - 1) * st + dl * (k - 1) + 1 - lo
        widths.append(f"{lo}, {reach} - {x}.shape[{i - len(kernel)}]")
    return f"F.pad({x}, [{', '.join(widths)}], value={value})"


def _torch_conv(w: Any, a: list[str], p: dict[str, Any]) -> str:
    d = len(p["out"])
    bias = a[2] if len(a) > 2 else "None"
    k = f"{a[1]}.shape[2:]"
    widths = []
    for i in reversed(range(d)):
        st, dl, lo, o = p["stride"][i], p["dilation"][i], p["pad"][i], p["out"][i]
        widths.append(
            f"{lo}, {(o - 1) * st + 1 - lo} + {dl} * ({k}[{i}] - 1) - {a[0]}.shape[{i - d}]"
        )
    return (
        f"F.conv{d}d(F.pad({a[0]}, [{', '.join(widths)}]), {a[1]}, {bias}, "
        f"stride={w.lit(tuple(p['stride']))}, dilation={w.lit(tuple(p['dilation']))}, "
        f"groups={p.get('groups', 1)})"
    )


def _torch_max_pool(w: Any, a: list[str], p: dict[str, Any]) -> str:
    k = tuple(p["kernel"])
    d = len(k)
    padded = _canvas(w, a[0], p, k, "-torch.inf")
    return (
        f"F.max_pool{d}d({padded}, {w.lit(k)}, "
        f"{w.lit(tuple(p['stride']))}, 0, {w.lit(tuple(p['dilation']))})"
    )


def _torch_avg_pool(w: Any, a: list[str], p: dict[str, Any]) -> str:
    k, st, pad, out = (tuple(p[n]) for n in ("kernel", "stride", "pad", "out"))
    d = len(k)
    # ceil_mode: whether some axis has more windows than floor division gives (written out
    # axis by axis: the script holds no comprehension).
    ceil = " or ".join(
        f"({a[0]}.shape[{i - d}] + {2 * pad[i] - k[i]}) // {st[i]} + 1 != {out[i]}"
        for i in range(d)
    )
    div = p.get("divisor")
    return (
        f"F.avg_pool{d}d({a[0]}, {w.lit(k)}, {w.lit(st)}, {w.lit(pad)}, ceil_mode={ceil}, "
        f"count_include_pad={bool(p.get('count_include_pad', True))}, "
        f"divisor_override={w.lit(None if div is None else int(div))})"
    )


def _torch_unfold(w: Any, a: list[str], p: dict[str, Any]) -> str:
    k, out = tuple(p["kernel"]), tuple(p["out"])
    return (
        f"F.unfold({a[0]}, {w.lit(k)}, dilation={w.lit(tuple(p['dilation']))}, "
        f"padding={w.lit(tuple(p['pad']))}, stride={w.lit(tuple(p['stride']))})"
        f".reshape({a[0]}.shape[:-2] + {w.lit(k + out)})"
    )


def _torch_fold(w: Any, a: list[str], p: dict[str, Any]) -> str:
    k, out = tuple(p["kernel"]), tuple(p["out"])
    cols = f"{a[0]}.expand({a[0]}.shape[:-4] + {w.lit(k + out)})"
    return (
        f"F.fold({cols}.reshape({a[0]}.shape[:-5] + (-1, {math.prod(out)})), "
        f"{w.lit(tuple(p['size']))}, {w.lit(k)}, dilation={w.lit(tuple(p['dilation']))}, "
        f"padding={w.lit(tuple(p['pad']))}, stride={w.lit(tuple(p['stride']))})"
    )


def _window_padding(w: Any, p: dict[str, Any], lead: int) -> str:
    """The (low, high) padding of each axis for jax.lax: none on the `lead` axes, the
    records' canvas (`pad` before, as far as the windows reach after) on the others."""
    x = w.inputs[0]
    kernel = p.get("kernel") or tuple(w.inputs[1].shape[2:])
    d = len(kernel)
    size = x.shape[x.ndim - d :]
    pairs = [(0, 0)] * lead
    for i in range(d):
        reach = (
            (p["out"][i] - 1) * p["stride"][i]
            + p.get("dilation", (1,) * d)[i] * (kernel[i] - 1)
            + 1
        )
        pairs.append((p["pad"][i], reach - p["pad"][i] - size[i]))
    return w.lit(tuple(pairs))


def _jax_conv(w: Any, a: list[str], p: dict[str, Any]) -> str:
    d = len(p["out"])
    pad = _window_padding(w, p, 0)
    code = (
        f"jax.lax.conv_general_dilated({a[0]}, {a[1]}, "
        f"window_strides={w.lit(tuple(p['stride']))}, "
        f"padding={pad}, rhs_dilation={w.lit(tuple(p['dilation']))}, "
        f"feature_group_count={p.get('groups', 1)})"
    )
    if len(a) > 2:
        code = f"{code} + {a[2]}.reshape((-1,) + {w.lit((1,) * d)})"
    return code


def _jax_max_pool(w: Any, a: list[str], p: dict[str, Any]) -> str:
    x = w.inputs[0]
    d = len(p["kernel"])
    lead = x.ndim - d
    ones = (1,) * lead
    return (
        f"jax.lax.reduce_window({a[0]}, -jnp.inf, jax.lax.max, "
        f"{w.lit(ones + tuple(p['kernel']))}, {w.lit(ones + tuple(p['stride']))}, "
        f"{_window_padding(w, p, lead)}, "
        f"window_dilation={w.lit(ones + tuple(p['dilation']))})"
    )


def _jax_avg_pool(w: Any, a: list[str], p: dict[str, Any]) -> str:
    x = w.inputs[0]
    d = len(p["kernel"])
    lead = x.ndim - d
    ones = (1,) * lead
    div = p.get("divisor")
    if div is None:
        div = avg_divisor(
            x.shape[lead:],
            p["kernel"],
            p["stride"],
            p["pad"],
            p["out"],
            p.get("count_include_pad", True),
        )
    return (
        f"jax.lax.reduce_window({a[0]}, 0.0, jax.lax.add, {w.lit(ones + tuple(p['kernel']))}, "
        f"{w.lit(ones + tuple(p['stride']))}, {_window_padding(w, p, lead)}) / {w.array(div)}"
    )


def _jax_windows(fold: bool) -> Callable[..., str]:
    """unfold / fold in JAX as the linear maps they are: a constant 0/1 matrix between the
    flattened spatial axes (the script's constant), applied with jnp.tensordot."""

    def text(w: Any, a: list[str], p: dict[str, Any]) -> str:
        k = tuple(p["kernel"])
        d = len(k)
        size = tuple(p["size"]) if fold else tuple(w.inputs[0].shape[-d:])
        eye = np.eye(math.prod(size)).reshape((-1,) + size)
        geo = {n: p[n] for n in ("kernel", "stride", "dilation", "pad", "out")}
        m = _unfold_fwd(eye, **geo).reshape(math.prod(size), -1)  # (S, K*L)
        if fold:
            x = w.inputs[0]
            cols = x.shape[: x.ndim - 2 * d] + k + tuple(p["out"])
            full = f"jnp.broadcast_to({a[0]}, {w.lit(cols)})"
            flat = f"{full}.reshape({full}.shape[: -{2 * d}] + (-1,))"
            shape = f"{flat}.shape[:-1] + {w.lit(size)}"
            return f"jnp.tensordot({flat}, {w.array(m.T)}, axes=1).reshape({shape})"
        flat = f"{a[0]}.reshape({a[0]}.shape[: -{d}] + (-1,))"
        shape = f"{flat}.shape[:-1] + {w.lit(k + tuple(p['out']))}"
        return f"jnp.tensordot({flat}, {w.array(m)}, axes=1).reshape({shape})"

    return text


unfold = defop(
    "unfold",
    _unfold_fwd,
    _unfold_vjp,
    "Im2ColBackward0",
    "fold(g): each window's gradient added back in place",
    kind="shape",
    saves=False,
    signature="unfold(input, kernel_size, dilation=1, padding=0, stride=1)",
    samples=tuple(Sample((s,), dict(geo)) for s, geo in _UNFOLD_CASES),
    to_torch=_torch_unfold,
    to_jax=_jax_windows(fold=False),
)
fold = defop(
    "fold",
    _fold_fwd,
    _fold_vjp,
    "Col2ImBackward0",
    "unfold(g): the windows of g",
    kind="shape",
    saves=False,
    signature="fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1)",
    samples=tuple(
        Sample((_cols_shape(s, geo),), {"size": s[len(s) - len(geo["kernel"]) :], **geo})
        for s, geo in _UNFOLD_CASES
    )
    + (  # kernel axes of size 1: broadcast over the window
        Sample(((2, 1, 3),), {"size": (5,), **_UNFOLD_CASES[0][1]}),
        Sample(((1, 1, 4, 2),), {"size": (4, 5), **_UNFOLD_CASES[2][1]}),
    ),
    to_torch=_torch_fold,
    to_jax=_jax_windows(fold=True),
)


# --- conv --------------------------------------------------------------------------------------


def _acc_type(dt: np.dtype) -> Any:
    # float32 and float16 accumulate in float64 (one rounding at the end)
    return np.float64 if dt.kind == "f" else dt


def _leading(core: Any, a: np.ndarray, b: np.ndarray, na: int, nb: int) -> np.ndarray:
    """`core(a, b)` where either operand may carry leading batch axes beyond its own `na` /
    `nb` dims (an upstream gradient of a batched pass): once per batch element."""
    la, lb = a.shape[: a.ndim - na], b.shape[: b.ndim - nb]
    if not la and not lb:
        return core(a, b)
    lead = np.broadcast_shapes(la, lb)
    m = int(np.prod(lead))
    a2 = np.broadcast_to(a, lead + a.shape[len(la) :]).reshape((m,) + a.shape[len(la) :])
    b2 = np.broadcast_to(b, lead + b.shape[len(lb) :]).reshape((m,) + b.shape[len(lb) :])
    if m == 0:
        one = core(np.zeros(a.shape[len(la) :], a.dtype), np.zeros(b.shape[len(lb) :], b.dtype))
        return np.zeros(lead + one.shape, dtype=one.dtype)
    parts = [core(a2[i], b2[i]) for i in range(m)]
    return np.stack(parts).reshape(lead + parts[0].shape)


def _conv_core(x, w, stride, dilation, pad, out, groups) -> np.ndarray:
    """y[n, o, l] = sum_{c, k} w[o, c, k] x[n, g(o) c, l * stride + k * dilation - pad]."""
    kernel = w.shape[2:]
    n, c = x.shape[:2]
    o, cg = w.shape[:2]
    og = o // groups
    acc_t = _acc_type(x.dtype)
    lp = int(np.prod(out)) if out else 1
    acc = np.zeros((n, groups, og, lp), dtype=acc_t)
    if acc.size and c and all(out):
        xc = _on_canvas(x, kernel, stride, dilation, pad, out)
        xg = xc.reshape((n, groups, cg) + xc.shape[2:])
        wg = w.reshape((groups, og, cg) + tuple(kernel)).astype(acc_t, copy=False)
        for koff in np.ndindex(*kernel):
            hooks.observer.tick()
            xs = xg[_window(koff, stride, dilation, out)].reshape(n, groups, cg, lp)
            acc += np.matmul(wg[(Ellipsis,) + koff], xs.astype(acc_t, copy=False))
    return acc.reshape((n, o) + tuple(out)).astype(x.dtype, copy=False)


def _conv_fwd(
    x: np.ndarray,
    w: np.ndarray,
    b: np.ndarray | None = None,
    *,
    stride: tuple,
    dilation: tuple,
    pad: tuple,
    out: tuple,
    groups: int = 1,
) -> np.ndarray:
    d = len(out)
    nd = d + 2
    if x.ndim == nd and w.ndim == nd and x.dtype == w.dtype == np.float32:
        # PyTorch's backend and its order of summation, where mirrored (see conv_order)
        same = conv_order.conv_float32(x, w, b, stride, dilation, pad, out, groups)
        if same is not None:
            return same

    if (
        x.ndim == nd == w.ndim
        and (d in (1, 2) or d == 3 and (groups == 1 or any(v != 1 for v in dilation)))
        and x.dtype == w.dtype == np.float64
        and (b is None or b.dtype == np.float64)
        and x.shape[0]
        and all(out)
    ):
        from ..core import cpu

        if cpu.mkl_avx2():  # MKL's dgemm on an AVX2 processor (see conv_order.slow_conv64)
            same = conv_order.by_groups64(
                conv_order.slow_conv64, groups, x, w, b, stride, dilation, pad, out
            )
            if same is not None:
                return same

    if (
        x.ndim == nd == w.ndim
        and d in (1, 2, 3)
        and x.dtype == w.dtype == np.float16
        and (b is None or b.dtype == np.float16)
        and x.shape[0]
        and all(out)
    ):
        return _conv_half(x, w, b, stride, dilation, pad, out, groups)

    def core(xx: np.ndarray, ww: np.ndarray) -> np.ndarray:
        return _conv_core(xx, ww, stride, dilation, pad, out, groups)

    res = _leading(core, x, w, nd, nd)
    if b is not None:
        acc_t = _acc_type(res.dtype)
        bias = b.astype(acc_t).reshape((b.shape[-1],) + (1,) * d)
        res = (res.astype(acc_t) + bias).astype(res.dtype)
    return res


def _conv_half(x, w, b, stride, dilation, pad, out, groups) -> np.ndarray:
    """A float16 conv1d / conv2d as ATen's CPU computes it without AVX512-FP16 (its slow
    convolution: conv1d as a conv2d of height 1): for each sample and group, the unfolded
    input (channel, then kernel offset, by output position) multiplied by the weight's rows in
    ATen's own gemm loop, the bias the input of its sum (`core.bf16.reduced_gemm`: four
    float32 partial sums, the bias added with the dot product and rounded once)."""
    from ..core.bf16 import reduced_gemm

    n = x.shape[0]
    o, cg = w.shape[:2]
    og = o // groups
    kernel = tuple(w.shape[2:])
    cols = _unfold_fwd(x, kernel, stride, dilation, pad, out).astype(np.float32)
    lp = int(np.prod(out))
    cols = cols.reshape(n, groups, cg * int(np.prod(kernel)), lp)
    wf = w.reshape(groups, og, -1).astype(np.float32)
    res = np.empty((n, groups, og, lp), np.float16)
    bias = None if b is None else b.astype(np.float32).reshape(groups, og, 1)
    for i in range(n):
        for g in range(groups):
            hooks.observer.tick()
            c = None if bias is None else bias[g]
            one = reduced_gemm(
                wf[g], cols[i, g], c, 1.0, 1.0 if c is not None else 0.0, False, False, _F16
            )
            with np.errstate(over="ignore"):
                res[i, g] = one.astype(np.float16)
    return res.reshape((n, o) + tuple(out))


_F16 = np.dtype(np.float16)


def _half_conv(a: np.ndarray, b: np.ndarray, out: tuple, nd: int) -> bool:
    """Whether a conv gradient's operands are float16 arrays of ATen's slow convolution
    (conv1d, conv2d; no leading batch axes; a nonempty output)."""
    return (
        a.ndim == b.ndim == nd
        and nd in (3, 4, 5)
        and a.dtype == b.dtype == _F16
        and bool(a.shape[0])
        and all(out)
    )


def _half_grad_input(g, w, size, stride, dilation, pad, out, groups) -> np.ndarray:
    """The input gradient of a float16 conv as ATen's slow convolution computes it: for each
    sample and group the columns w^T @ g in ATen's own gemm loop (w transposed: its rank-one
    order), rounded to float16; then folded back (col2im) into a float16 canvas, channel by
    channel, each kernel offset in turn added with a float16 rounding."""
    from ..core.bf16 import reduced_gemm

    n = g.shape[0]
    o, cg = w.shape[:2]
    og = o // groups
    kernel = tuple(w.shape[2:])
    kp = int(np.prod(kernel))
    lp = int(np.prod(out))
    full = canvas(size, kernel, stride, dilation, pad, out)
    z = np.zeros((n, groups, cg) + full, _F16)
    gf = g.reshape(n, groups, og, lp).astype(np.float32)
    wt = np.swapaxes(w.reshape(groups, og, cg * kp).astype(np.float32), 1, 2)
    for i in range(n):
        for gi in range(groups):
            hooks.observer.tick()
            cols = reduced_gemm(wt[gi], gf[i, gi], None, 1.0, 0.0, True, False, _F16)
            with np.errstate(over="ignore"):
                cols = cols.astype(_F16).astype(np.float32).reshape((cg,) + kernel + out)
            canvas_i = z[i, gi]
            for koff in np.ndindex(*kernel):
                at = (slice(None),) + _window(koff, stride, dilation, out)[1:]
                with np.errstate(over="ignore"):
                    canvas_i[at] = (
                        canvas_i[at].astype(np.float32) + cols[(slice(None),) + koff]
                    ).astype(_F16)
    crop = (Ellipsis,) + tuple(slice(p, p + s) for p, s in zip(pad, size))
    return np.ascontiguousarray(z[crop].reshape((n, groups * cg) + size))


def _half_grad_weight(x, g, kernel, stride, dilation, pad, out, groups) -> np.ndarray:
    """The weight gradient of a float16 conv as ATen's slow convolution computes it: sample
    after sample, g @ columns^T added into the float16 gradient by ATen's own gemm loop (the
    columns transposed: its 8-lane dot order; the gradient so far the input of the float32
    sum), rounded to float16 each time."""
    from ..core.bf16 import reduced_gemm

    n, c = x.shape[:2]
    o = g.shape[1]
    og, cg = o // groups, c // groups
    kp = int(np.prod(kernel))
    lp = int(np.prod(out))
    cols = _unfold_fwd(x, kernel, stride, dilation, pad, out).astype(np.float32)
    cols = cols.reshape(n, groups, cg * kp, lp)
    gf = g.reshape(n, groups, og, lp).astype(np.float32)
    acc = np.zeros((groups, og, cg * kp), _F16)
    for i in range(n):
        for gi in range(groups):
            hooks.observer.tick()
            one = reduced_gemm(
                gf[i, gi], cols[i, gi].T, acc[gi].astype(np.float32), 1.0, 1.0, False, True, _F16
            )
            with np.errstate(over="ignore"):
                acc[gi] = one.astype(_F16)
    return acc.reshape((o, cg) + kernel)


def _conv_tx_core(g, w, size, stride, dilation, pad, out, groups) -> np.ndarray:
    """The input gradient of conv (a transposed convolution): each kernel offset's w^T @ g
    added back where that offset read the input."""
    kernel = tuple(w.shape[2:])
    n = g.shape[0]
    o, cg = w.shape[:2]
    og = o // groups
    acc_t = _acc_type(g.dtype)
    full = canvas(tuple(size), kernel, stride, dilation, pad, out)
    z = np.zeros((n, groups, cg) + full, dtype=acc_t)
    lp = int(np.prod(out)) if out else 1
    if z.size and o and all(out):
        gg = g.reshape(n, groups, og, lp).astype(acc_t, copy=False)
        wt = np.swapaxes(w.reshape((groups, og, cg) + kernel), 1, 2).astype(acc_t, copy=False)
        for koff in np.ndindex(*kernel):
            hooks.observer.tick()
            part = np.matmul(wt[(Ellipsis,) + koff], gg)  # (n, G, cg, L)
            z[_window(koff, stride, dilation, out)] += part.reshape((n, groups, cg) + tuple(out))
    crop = (Ellipsis,) + tuple(slice(p, p + s) for p, s in zip(pad, size))
    res = z[crop].reshape((n, groups * cg) + tuple(size))
    return np.ascontiguousarray(res).astype(g.dtype, copy=False)


def _conv_tw_core(x, g, kernel, stride, dilation, pad, out, groups) -> np.ndarray:
    """The weight gradient of conv: for each kernel offset, sum_n g @ (what it read of x)^T."""
    n, c = x.shape[:2]
    o = g.shape[1]
    og, cg = o // groups, c // groups
    acc_t = _acc_type(x.dtype)
    res = np.zeros((groups, og, cg) + tuple(kernel), dtype=acc_t)
    lp = int(np.prod(out)) if out else 1
    if res.size and n and all(out):
        xc = _on_canvas(x, kernel, stride, dilation, pad, out)
        xg = xc.reshape((n, groups, cg) + xc.shape[2:])
        gg = g.reshape(n, groups, og, lp).astype(acc_t, copy=False)
        for koff in np.ndindex(*kernel):
            hooks.observer.tick()
            xs = xg[_window(koff, stride, dilation, out)].reshape(n, groups, cg, lp)
            part = np.matmul(gg, np.swapaxes(xs.astype(acc_t, copy=False), -1, -2))
            res[(Ellipsis,) + koff] = part.sum(axis=0)
    return res.reshape((o, cg) + tuple(kernel)).astype(x.dtype, copy=False)


def _conv_tx_fwd(
    g: np.ndarray, w: np.ndarray, *, size, stride, dilation, pad, out, groups, order=None
):
    nd = len(out) + 2
    if order == "slow64" and g.ndim == w.ndim == nd and g.dtype == w.dtype == np.float64:
        same = conv_order.by_groups64(
            conv_order.slow_grad_input64, groups, g, w, tuple(size), stride, dilation, pad
        )
        if same is not None:
            return same
    elif order and g.ndim == w.ndim == nd and g.dtype == w.dtype == np.float32:
        if order == "slow":
            same = conv_order.slow_grad_input(g, w, tuple(size), stride, dilation, pad)
            if same is not None:
                return same
        elif order in ("dw", "dw-data"):
            return conv_order.dw_grad_input(g, w, tuple(size), stride, pad)
        elif order.startswith("direct:"):
            block = order.split(":")[1]
            if block:
                return conv_order.direct_grad_input(
                    g, w, size, stride, dilation, pad, groups, block
                )
        else:
            return conv_order.grad_input(g, w, tuple(size), stride, dilation, pad)
    if _half_conv(g, w, out, nd):
        return _half_grad_input(g, w, tuple(size), stride, dilation, pad, out, groups)
    return _leading(
        lambda gg, ww: _conv_tx_core(gg, ww, size, stride, dilation, pad, out, groups),
        g,
        w,
        nd,
        nd,
    )


def _conv_tw_fwd(
    x: np.ndarray, g: np.ndarray, *, kernel, stride, dilation, pad, out, groups, order=None
):
    nd = len(out) + 2
    if order == "slow64" and x.ndim == g.ndim == nd and x.dtype == g.dtype == np.float64:
        same = conv_order.by_groups64(
            conv_order.slow_grad_weight64, groups, x, g, tuple(kernel), stride, dilation, pad
        )
        if same is not None:
            return same
    elif order and x.ndim == g.ndim == nd and x.dtype == g.dtype == np.float32:
        if order == "dw":
            return conv_order.dw_grad_weight(x, g, tuple(kernel), stride, pad)
        if order.startswith("direct:"):
            if order.endswith(":w"):
                same = conv_order.direct_grad_weight(
                    x, g, tuple(kernel), stride, dilation, pad, groups
                )
                if same is not None:
                    return same
        elif order != "dw-data":  # (jit_dw's input gradient; its weight gradient is not mirrored)
            grad = conv_order.slow_grad_weight if order == "slow" else conv_order.grad_weight
            same = grad(x, g, tuple(kernel), stride, dilation, pad)
            if same is not None:
                return same
    if _half_conv(x, g, out, nd):
        return _half_grad_weight(x, g, tuple(kernel), stride, dilation, pad, out, groups)
    return _leading(
        lambda xx, gg: _conv_tw_core(xx, gg, kernel, stride, dilation, pad, out, groups),
        x,
        g,
        nd,
        nd,
    )


def _geo(p: dict) -> dict[str, Any]:
    keys = ("stride", "dilation", "pad", "out", "groups")
    return {k: p[k] for k in keys}


def _own(t: Tensor, nd: int) -> tuple:
    """A tensor's own shape (without the leading batch axes of a batched pass)."""
    return tuple(t.shape[t.ndim - nd :])


def _own_grads(g: Tensor, x: Tensor, w: Tensor, p: dict) -> bool:
    """Whether this conv's gradients are of its own shapes (no batched pass), the operands of
    one dtype."""
    nd = len(p["out"]) + 2
    if not (g.ndim == x.ndim == w.ndim == nd):
        return False
    return g.dtype == x.dtype == w.dtype


def _slow64(p: dict) -> bool:
    """Whether a float64 conv of these parameters runs ATen's slow path one group at a time
    (slow_conv2d, slow_conv_dilated2d / 3d; slow_conv3d of one group): MKL's dgemm per sample
    (`conv_order.slow_conv64`)."""
    d = len(p["out"])
    return d in (1, 2) or d == 3 and (p["groups"] == 1 or any(v != 1 for v in p["dilation"]))


def backward_order(
    x_shape: tuple, w_shape: tuple, dtype: Any, nd_of_all: bool, p: dict
) -> dict[str, Any]:
    """The order PyTorch's CPU kernels add a float32 convolution's gradients in (`order` of
    conv_tx / conv_tw: oneDNN's or the slow path's), a float64 one's on the avx2 and zen4
    families ("slow64": slow_conv2d's, MKL's dgemm), or {} (NumPy's: the rest). `nd_of_all`:
    every operand is of the convolution's own rank (no batched pass), of one dtype."""
    if nd_of_all and dtype == np.float64 and _slow64(p):
        from ..core import cpu

        if cpu.mkl_avx2():
            return {"order": "slow64"}
        return {}
    if not (nd_of_all and dtype == np.float32):
        return {}
    shapes = (tuple(x_shape), tuple(w_shape), p["stride"], p["dilation"])
    mirror = {}
    if conv_order.onednn_backward(*shapes, p["pad"], p["out"], p["groups"]):
        mirror = {"order": "onednn"}
    elif conv_order.slow_backward(*shapes, p["groups"]):
        mirror = {"order": "slow"}
    elif kind := conv_order.dw_backward(*shapes, p["pad"], p["out"], p["groups"]):
        mirror = {"order": kind}  # oneDNN's depthwise kernel: 'dw' or 'dw-data'
    elif kind := conv_order.direct_backward(*shapes, p["pad"], p["out"], p["groups"]):
        mirror = {"order": kind}  # grouped or dilated: 'direct:<block>:<w>'
    # the input's and the weight's gradients: about twice the forward's work
    if mirror and not conv_order.afford(
        2 * conv_order.multiply_adds(shapes[0], shapes[1], p["out"]), shapes[0], shapes[1]
    ):
        mirror = {}
    return mirror


def _conv_vjp(g: Tensor, out_t: Tensor, x: Tensor, w: Tensor, *rest: Tensor, **p: Any) -> tuple:
    nd = len(p["out"]) + 2
    geo = _geo(p)
    mirror = backward_order(x.shape, w.shape, x.dtype, _own_grads(g, x, w, p), p)
    gx = apply(conv_tx, g, w, size=_own(x, nd)[2:], **geo, **mirror) if x.requires_grad else None
    gw = apply(conv_tw, x, g, kernel=_own(w, nd)[2:], **geo, **mirror) if w.requires_grad else None
    gb = None
    if rest and rest[0].requires_grad:
        lead = g.ndim - nd
        dims = (lead,) + tuple(range(lead + 2, g.ndim))
        order = mirror.get("order", "")
        if order in ("onednn", "dw") or order.startswith("direct:") and order.endswith(":w"):
            gb = apply(conv_db, g, dim=dims)
        elif (
            any(d != 1 for d in p["dilation"])
            and g.dtype in (np.float16, np.float64)
            and _own_grads(g, x, w, p)
        ):  # ATen's slow_conv_dilated (no oneDNN for these dtypes here): sample by sample
            gb = apply(conv_db, g, dim=dims, samples=True)
        else:
            gb = apply(P.sum, g, dim=dims, keepdim=False)
    return (gx, gw) + ((gb,) if rest else ())


def _conv_db_fwd(
    g: np.ndarray, *, dim: tuple, samples: bool = False, groups: int = 1
) -> np.ndarray:
    """The bias gradient of a conv whose float32 gradients are oneDNN's (see conv_order); with
    `samples`, ATen's slow_conv_dilated's (a dilated float16 / float64 conv): sample after
    sample, `grad_bias += grad_output[n].sum(positions)`, each sum and each addition rounded
    to g's dtype; with `groups`, ATen's slow paths' of a grouped float16 / float64
    conv_transpose (one conv a group): each group's sum over its own contiguous copy of g's
    channels (a group of one channel: one sum over samples and positions together)."""
    whole = tuple(dim) == (0,) + tuple(range(2, g.ndim))
    if groups > 1 and whole and not samples:
        from ..core.summation import sum_float

        parts = np.split(g, groups, axis=1)
        return np.concatenate([sum_float(np.ascontiguousarray(q), dim, False) for q in parts])
    if samples and whole:
        from ..core.summation import sum_float

        acc = np.zeros(g.shape[1], g.dtype)
        for n in range(g.shape[0]):
            hooks.observer.tick()
            with np.errstate(over="ignore", invalid="ignore"):
                acc = acc + sum_float(g[n], tuple(range(1, g.ndim - 1)), False)
        return acc
    if g.dtype == np.float32 and whole:
        return conv_order.grad_bias(g)
    return np.sum(g, axis=tuple(dim))


def _conv_db_vjp(
    h: Tensor, out_t: Tensor, g: Tensor, dim: tuple, samples: bool = False, groups: int = 1
) -> tuple:
    return P.sum_vjp(h, out_t, g, dim=dim, keepdim=False)


def _conv_tx_vjp(h: Tensor, out_t: Tensor, g: Tensor, w: Tensor, size: tuple, **p: Any) -> tuple:
    # gx = T(g, w) is bilinear: d/dg is conv(h, w), d/dw is the weight gradient of (h, g)
    p.pop("order", None)  # (PyTorch's double backward runs other kernels)
    nd = len(p["out"]) + 2
    dg = apply(conv, h, w, **p) if g.requires_grad else None
    dw = apply(conv_tw, h, g, kernel=_own(w, nd)[2:], **p) if w.requires_grad else None
    return (dg, dw)


def _conv_tw_vjp(h: Tensor, out_t: Tensor, x: Tensor, g: Tensor, kernel: tuple, **p: Any) -> tuple:
    # gw = W(x, g) is bilinear: d/dx is the input gradient of (g, h), d/dg is conv(x, h)
    p.pop("order", None)
    nd = len(p["out"]) + 2
    dx = apply(conv_tx, g, h, size=_own(x, nd)[2:], **p) if x.requires_grad else None
    dg = apply(conv, x, h, **p) if g.requires_grad else None
    return (dx, dg)


def _conv_params(stride, dilation, pad, out, groups=1) -> dict[str, Any]:
    return {"stride": stride, "dilation": dilation, "pad": pad, "out": out, "groups": groups}


_CONV_CASES = (
    ((1, 1, 5), (1, 1, 3), _conv_params((1,), (1,), (0,), (3,))),
    ((2, 2, 6), (3, 2, 2), _conv_params((2,), (1,), (1,), (4,))),
    ((1, 2, 5, 4), (2, 2, 3, 2), _conv_params((1, 1), (1, 1), (1, 0), (5, 3))),
    ((2, 4, 5, 5), (4, 2, 2, 2), _conv_params((2, 1), (1, 2), (1, 1), (3, 5), 2)),
    ((1, 2, 4, 4), (2, 2, 2, 2), _conv_params((1, 1), (1, 1), (0, 0), (4, 4))),
    ((1, 2, 3, 4, 3), (2, 2, 2, 2, 2), _conv_params((1, 2, 1), (1, 1, 1), (0, 1, 1), (2, 3, 4))),
)

conv = defop(
    "conv",
    _conv_fwd,
    _conv_vjp,
    "ConvolutionBackward0",
    "conv_tx(g, w), conv_tw(x, g), sum g",
    # the input and the weight (PyTorch saves them), never the result
    reads=lambda p: (False, None),
    kind="linalg",
    signature="conv1d / conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, "
    "groups=1)",
    samples=tuple(Sample((xs, ws), p) for xs, ws, p in _CONV_CASES)
    + (
        Sample(((2, 2, 6), (3, 2, 2), (3,)), _conv_params((2,), (1,), (1,), (4,))),
        Sample(((1, 2, 5, 4), (2, 2, 3, 2), (2,)), _conv_params((1, 1), (1, 1), (1, 0), (5, 3))),
    ),
    to_torch=_torch_conv,
    to_jax=_jax_conv,
)
conv_db = defop(
    "conv_db",
    _conv_db_fwd,
    _conv_db_vjp,
    "ConvolutionBackwardBackward0",
    "g (broadcast back)",
    kind="internal",
    samples=(
        Sample(((2, 3, 4),), {"dim": (0, 2)}),
        Sample(((2, 3, 4, 2),), {"dim": (0, 2, 3)}),
    ),
)
conv_tx = defop(
    "conv_tx",
    _conv_tx_fwd,
    _conv_tx_vjp,
    "ConvolutionBackwardBackward0",
    "conv(h, w), conv_tw(h, g)",
    kind="internal",
    samples=tuple(
        Sample(((xs[0], ws[0]) + p["out"], ws), {"size": xs[2:], **p}) for xs, ws, p in _CONV_CASES
    ),
)
conv_tw = defop(
    "conv_tw",
    _conv_tw_fwd,
    _conv_tw_vjp,
    "ConvolutionBackwardBackward0",
    "conv_tx(g, h), conv(x, h)",
    kind="internal",
    samples=tuple(
        Sample((xs, (xs[0], ws[0]) + p["out"]), {"kernel": ws[2:], **p})
        for xs, ws, p in _CONV_CASES
    ),
)


# conv_transpose1d / 2d: the input gradient of a convolution, as a layer of its own (one
# ConvolutionBackward0 node with the bias, as PyTorch's). Its input plays the convolution's
# output gradient: x (n, Cin, *out), w (Cin, Cout / groups, *k), `size` the output's spatial
# size; the bilinear rule of conv_tx gives its gradients.
def _conv_t_fwd(
    x: np.ndarray,
    w: np.ndarray,
    b: np.ndarray | None = None,
    *,
    size,
    stride,
    dilation,
    pad,
    out,
    groups: int = 1,
) -> np.ndarray:
    if (
        x.dtype == w.dtype == np.float32
        and (b is None or b.dtype == np.float32)
        and x.ndim == w.ndim == len(size) + 2
        and groups == 1
        and len(x) > 1
        and all(st == 1 for st in stride)
        and all(dl == 1 for dl in dilation)
        and any(k > 1 for k in w.shape[2:])
    ):
        from ..core import cpu

        if cpu.mkl_avx2() and conv_order.afford(
            conv_order.multiply_adds(x.shape, w.shape, size), x.shape, w.shape
        ):
            same = conv_order.deconv_avx2(x, w, b, tuple(pad), tuple(size))
            if same is not None:
                return same
    if (
        x.dtype == w.dtype == np.float32
        and (b is None or b.dtype == np.float32)
        and x.ndim == w.ndim == len(size) + 2
        and groups == 1
        and len(x) > 0
        and (any(st > 1 for st in stride) or len(x) == 1)
        and all(dl == 1 for dl in dilation)
    ):
        from ..core import cpu

        if cpu.mkl_avx2() and conv_order.afford(
            conv_order.multiply_adds(x.shape, w.shape, size), x.shape, w.shape
        ):
            same = conv_order.deconv_strided_avx2(x, w, b, tuple(stride), tuple(pad), size)
            if same is not None:
                return same
    order = None
    if x.dtype == w.dtype == np.float64 and x.ndim == w.ndim == len(size) + 2:
        from ..core import cpu

        # slow_conv_transpose2d / 3d, a group at a time: per sample the columns w^T @ x_t by
        # MKL's dgemm, folded back (col2im), the bias added after: conv's input gradient
        order = "slow64" if cpu.mkl_avx2() else None
    res = _conv_tx_fwd(
        x,
        w,
        size=size,
        stride=stride,
        dilation=dilation,
        pad=pad,
        out=out,
        groups=groups,
        order=order,
    )
    if b is not None:
        acc_t = _acc_type(res.dtype)
        bias = b.astype(acc_t).reshape((b.shape[-1],) + (1,) * len(size))
        res = (res.astype(acc_t) + bias).astype(res.dtype)
    return res


def _conv_t_vjp(h: Tensor, out_t: Tensor, x: Tensor, w: Tensor, *rest: Tensor, **p: Any) -> tuple:
    nd = len(p["out"]) + 2
    geo = _geo(p)
    dx = apply(conv, h, w, **geo) if x.requires_grad else None
    mirror = _deconv_weight_order(h, x, w, p)
    dw = apply(conv_tw, h, x, kernel=_own(w, nd)[2:], **geo, **mirror) if w.requires_grad else None
    db = None
    if rest and rest[0].requires_grad:
        lead = h.ndim - nd
        dims = (lead,) + tuple(range(lead + 2, h.ndim))
        if (
            p.get("groups", 1) > 1
            and h.dtype in (np.float16, np.float64)
            and h.ndim == x.ndim == w.ndim == nd
        ):  # ATen's slow_conv_transpose, one group at a time
            db = apply(conv_db, h, dim=dims, groups=p["groups"])
        else:
            db = apply(P.sum, h, dim=dims, keepdim=False)
    return (dx, dw) + ((db,) if rest else ())


def _deconv_weight_order(h: Tensor, x: Tensor, w: Tensor, p: dict) -> dict[str, Any]:
    """The avx2 family's order of a float32 conv_transpose's weight gradient: oneDNN's
    backward_weights (jit:avx2) in `conv_order.grad_weight`'s chain, for a batch (or one
    sample with a kernel past 3 both ways: not ATen's slow path) of one group, undilated.
    Measured on AMD EPYC against PyTorch 2.13: 23 of 24 random batched strided conv_transpose2d
    (1 to 16 channels, kernels 3 and 4) equal in every element (none before). {} elsewhere."""
    from ..core import cpu

    nd = len(p["out"]) + 2
    if cpu.mkl_avx2() and h.dtype == x.dtype == w.dtype == np.float64 and h.ndim == x.ndim == nd:
        return {"order": "slow64"}  # (slow_conv_transpose's: per sample, MKL's dgemm onto the sum)
    if not (
        cpu.mkl_avx2()
        and h.dtype == x.dtype == w.dtype == np.float32
        and h.ndim == x.ndim == w.ndim == nd
        and p.get("groups", 1) == 1
        and all(dl == 1 for dl in p["dilation"])
    ):
        return {}
    size = tuple(h.shape[2:])
    kind = conv_order.backend(
        (len(x),) + tuple(w.shape[1:2]) + size, w.shape, p["stride"], p["dilation"], 1
    )
    if len(x) == 1 and kind != "onednn":
        return {}
    if not conv_order.afford(
        conv_order.multiply_adds(h.shape, w.shape, p["out"]), h.shape, w.shape
    ):
        return {}
    return {"order": "onednn"}


def _torch_conv_t(w: Any, a: list[str], p: dict[str, Any]) -> str:
    d = len(p["out"])
    op = tuple(
        s - ((o - 1) * st - 2 * pd + dl * (k - 1) + 1)
        for s, o, st, pd, dl, k in zip(
            p["size"], p["out"], p["stride"], p["pad"], p["dilation"], w.inputs[1].shape[2:]
        )
    )
    bias = f", {a[2]}" if len(a) > 2 else ", None"
    return (
        f"torch.nn.functional.conv_transpose{d}d({a[0]}, {a[1]}{bias}, stride={p['stride']}, "
        f"padding={p['pad']}, output_padding={op}, groups={p['groups']}, "
        f"dilation={p['dilation']})"
    )


def _jax_conv_t(w: Any, a: list[str], p: dict[str, Any]) -> str:
    # the input gradient of the convolution with this geometry, by jax.vjp at zeros
    d = len(p["out"])
    weight = w.inputs[1]
    kernel = tuple(weight.shape[2:])
    size = tuple(p["size"])
    pairs = []
    for i in range(d):
        reach = (p["out"][i] - 1) * p["stride"][i] + p["dilation"][i] * (kernel[i] - 1) + 1
        pairs.append((p["pad"][i], reach - p["pad"][i] - size[i]))
    cout = weight.shape[1] * p.get("groups", 1)
    conv_of = (
        f"lambda z: jax.lax.conv_general_dilated(z, {a[1]}, "
        f"window_strides={w.lit(tuple(p['stride']))}, padding={w.lit(tuple(pairs))}, "
        f"rhs_dilation={w.lit(tuple(p['dilation']))}, "
        f"feature_group_count={p.get('groups', 1)})"
    )
    zeros = f"jnp.zeros(({a[0]}.shape[0], {cout}) + {w.lit(size)}, {a[0]}.dtype)"
    code = f"jax.vjp({conv_of}, {zeros})[1]({a[0]})[0]"
    if len(a) > 2:
        code = f"{code} + {a[2]}.reshape((-1,) + {w.lit((1,) * d)})"
    return code


conv_transpose = defop(
    "conv_transpose",
    _conv_t_fwd,
    _conv_t_vjp,
    "ConvolutionBackward0",
    "conv(h, w), conv_tw(h, x), sum h",
    kind="linalg",
    signature="conv_transpose1d / conv_transpose2d(input, weight, bias=None, stride=1, "
    "padding=0, output_padding=0, groups=1, dilation=1)",
    samples=tuple(
        Sample(((xs[0], ws[0]) + p["out"], ws), {"size": xs[2:], **p}) for xs, ws, p in _CONV_CASES
    )
    + (
        Sample(
            ((2, 3, 4), (3, 2, 2), (2,)), {"size": (6,), **_conv_params((2,), (1,), (1,), (4,))}
        ),
    ),
    to_torch=_torch_conv_t,
    to_jax=_jax_conv_t,
)

# --- pooling -----------------------------------------------------------------------------------


def _scan_max(x: np.ndarray, kernel, stride, dilation, pad, out) -> tuple:
    """Each window's maximum and the kernel offset (flat) of its first maximum, one kernel
    offset at a time (memory of the output's size; PyTorch's `val > max or isnan(val)`)."""
    fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    c = _on_canvas(x, kernel, stride, dilation, pad, out, fill)
    best = which = None
    for j, koff in enumerate(np.ndindex(*kernel)):
        hooks.observer.tick()
        v = c[_window(koff, stride, dilation, out)]
        if best is None:
            best, which = v.copy(), np.zeros(v.shape, dtype=np.int64)
            continue
        take = (v > best) | np.isnan(v) if v.dtype.kind == "f" else v > best
        best[take] = v[take]
        which[take] = j
    return best, which


def _max_pool_fwd(x: np.ndarray, kernel, stride, dilation, pad, out) -> np.ndarray:
    if not x.size or not all(out):
        return np.zeros(x.shape[: x.ndim - len(kernel)] + tuple(out), dtype=x.dtype)
    return _scan_max(x, kernel, stride, dilation, pad, out)[0]


def argmax_positions(x: np.ndarray, kernel, stride, dilation, pad, out) -> np.ndarray:
    """For each window, the position (flat, within its plane of the last d axes of x) of its
    first maximum, as PyTorch's kernel picks it (its `indices`)."""
    d = len(kernel)
    size = x.shape[x.ndim - d :]
    k = _scan_max(x, kernel, stride, dilation, pad, out)[1]
    offs = np.unravel_index(k, kernel)
    pos = None
    for i in range(d):
        start = np.arange(out[i]) * stride[i] - pad[i]
        shape = [1] * d
        shape[i] = out[i]
        ci = start.reshape(shape) + offs[i] * dilation[i]
        ci = np.clip(ci, 0, size[i] - 1)  # only an all -inf window reaches padding
        pos = ci if pos is None else pos * size[i] + ci
    return np.asarray(pos, dtype=np.int64)


def _max_pool_sym(sp: Any, x: np.ndarray, kernel, stride, dilation, pad, out) -> np.ndarray:
    """max_pool on an object array of sympy expressions: sympy's Max of each window."""
    c = _on_canvas(x, kernel, stride, dilation, pad, out, sp.S.NegativeInfinity)
    parts = [c[_window(koff, stride, dilation, out)] for koff in np.ndindex(*kernel)]
    res = np.empty(parts[0].shape, dtype=object)
    for i in np.ndindex(res.shape):
        res[i] = sp.Max(*[q[i] for q in parts])
    return res


def _max_pool_vjp(g: Tensor, out_t: Tensor, x: Tensor, **geo: Any) -> tuple:
    d = len(geo["kernel"])
    nb = g.ndim - out_t.ndim
    planes = int(np.prod(x.shape[: x.ndim - d]))
    plane = int(np.prod(x.shape[x.ndim - d :]))
    pos = argmax_positions(x.data, **geo).reshape(planes, -1)
    flat = (pos + (np.arange(planes) * plane)[:, None]).reshape(-1)
    gf = apply(P.reshape, g, shape=g.shape[:nb] + (flat.size,))
    gx = apply(index_put, gf, idx=(flat,), shape=(x.data.size,), out_ndim=1)
    return (apply(P.reshape, gx, shape=g.shape[:nb] + x.shape),)


max_pool = defop(
    "max_pool",
    _max_pool_fwd,
    _max_pool_vjp,
    "MaxPool2DWithIndicesBackward0",
    "g added at each window's (first) maximum",
    kind="reduction",
    sym=_max_pool_sym,
    kink="a tie in a window: the whole gradient to its first maximum, as PyTorch",
    signature="max_pool1d / max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, "
    "ceil_mode=False)",
    samples=(
        Sample(((1, 2, 6),), _geometry((2,), (2,), (1,), (0,), (3,)), distinct=True),
        Sample(((2, 5),), _geometry((3,), (1,), (1,), (1,), (5,)), distinct=True),
        Sample(((1, 2, 4, 4),), _geometry((2, 2), (2, 2), (1, 1), (0, 0), (2, 2)), distinct=True),
        Sample(((1, 5, 5),), _geometry((3, 2), (2, 1), (1, 2), (1, 1), (3, 4)), distinct=True),
        Sample(((1, 1, 5, 5),), _geometry((2, 2), (2, 2), (1, 1), (0, 0), (3, 3)), distinct=True),
        Sample(
            ((1, 1, 3, 4, 4),),
            _geometry((2, 2, 2), (1, 2, 2), (1, 1, 1), (0, 1, 0), (2, 3, 2)),
            distinct=True,
        ),
    ),
    to_torch=_torch_max_pool,
    to_jax=_jax_max_pool,
)


def avg_divisor(
    size: tuple, kernel: tuple, stride: tuple, pad: tuple, out: tuple, count_include_pad: bool
) -> np.ndarray:
    """The divisor of each window (shape `out`): its size within the padded input (PyTorch's
    count_include_pad=True) or within the input itself."""
    div = np.ones((), dtype=np.float64)
    for i in range(len(kernel)):
        start = np.arange(out[i]) * stride[i] - pad[i]
        end = np.minimum(start + kernel[i], size[i] + pad[i])
        n = end - start if count_include_pad else np.minimum(end, size[i]) - np.maximum(start, 0)
        div = np.multiply.outer(div, n.astype(np.float64))
    return div


def _avg_pool_fwd(
    x: np.ndarray, kernel, stride, pad, out, count_include_pad=True, divisor=None
) -> np.ndarray:
    d = len(kernel)
    ones = (1,) * d
    if not x.size or not all(out):
        return np.zeros(x.shape[: x.ndim - d] + tuple(out), dtype=x.dtype)
    # ATen's avg_pool kernels sum a window in its own dtype's opmath (float for float32, in
    # order: row by row, left to right) and divide by the count (measured: PyTorch 2.13's
    # float32 avg_pool1d / avg_pool2d is exactly this; a float64 sum rounded once differed in 1
    # output in 3)
    acc_t = x.dtype if x.dtype in (np.float32, np.float64) else np.float64
    acc_t = acc_t if x.dtype.kind == "f" else x.dtype
    c = _on_canvas(x, kernel, stride, ones, pad, out)
    total = np.zeros(x.shape[: x.ndim - d] + tuple(out), dtype=acc_t)
    for koff in np.ndindex(*kernel):
        hooks.observer.tick()
        total += c[_window(koff, stride, ones, out)]
    if divisor is None:
        divisor = avg_divisor(x.shape[x.ndim - d :], kernel, stride, pad, out, count_include_pad)
    if x.dtype.kind in "iub":
        return (total // np.asarray(divisor).astype(np.int64)).astype(x.dtype)
    return (total / np.asarray(divisor).astype(acc_t)).astype(x.dtype)


def _avg_pool_vjp(
    g: Tensor,
    out_t: Tensor,
    x: Tensor,
    kernel,
    stride,
    pad,
    out,
    count_include_pad=True,
    divisor=None,
) -> tuple:
    d = len(kernel)
    if divisor is None:
        divisor = avg_divisor(x.shape[x.ndim - d :], kernel, stride, pad, out, count_include_pad)
    # ATen's backward divides each output's gradient by its window's count
    scaled = g / constant(np.asarray(divisor, dtype=np.float64).astype(x.dtype))
    if not grad_enabled() and isinstance(scaled.data, np.ndarray) and scaled.dtype.kind == "f":
        size = tuple(x.shape[x.ndim - d :])
        return (Tensor(_avg_pool_spread(scaled.data, size, kernel, stride, pad, out)),)
    lead = g.shape[: g.ndim - d]
    spread = apply(P.reshape, scaled, shape=lead + (1,) * d + tuple(out))  # fold broadcasts it
    geo = _geometry(tuple(kernel), tuple(stride), (1,) * d, tuple(pad), tuple(out))
    return (apply(fold, spread, size=tuple(x.shape[x.ndim - d :]), **geo),)


def _avg_pool_spread(gs: np.ndarray, size, kernel, stride, pad, out) -> np.ndarray:
    """Each output's share `gs` (already divided by its count) added to the inputs of its
    window as ATen's avg_pool backward adds them: output after output in order, so that an
    input gathers its shares from the first window that holds it to the last (the kernel
    offsets backwards), each sum rounded in gs's dtype. (`fold` adds in the other order, as
    col2im: with overlapping windows the last bits differ.)"""
    d = len(kernel)
    ones = (1,) * d
    lead = gs.shape[: gs.ndim - d]
    z = np.zeros(lead + canvas(size, kernel, stride, ones, pad, out), dtype=gs.dtype)
    for koff in reversed(list(np.ndindex(*kernel))):
        hooks.observer.tick()
        z[_window(koff, stride, ones, out)] += gs
    return np.ascontiguousarray(z[(Ellipsis,) + tuple(slice(p, p + s) for p, s in zip(pad, size))])


avg_pool = defop(
    "avg_pool",
    _avg_pool_fwd,
    _avg_pool_vjp,
    "AvgPool2DBackward0",
    "g / divisor spread over each window",
    # PyTorch's AvgPool2DBackward0 saves the input (the rule reads only its size)
    reads=lambda p: (False, None),
    kind="reduction",
    signature="avg_pool1d / avg_pool2d(input, kernel_size, stride=None, padding=0, "
    "ceil_mode=False, count_include_pad=True, divisor_override=None)",
    samples=(
        Sample(((1, 2, 6),), {"kernel": (2,), "stride": (2,), "pad": (0,), "out": (3,)}),
        Sample(((2, 5),), {"kernel": (3,), "stride": (1,), "pad": (1,), "out": (5,)}),
        Sample(
            ((2, 5),),
            {"kernel": (3,), "stride": (2,), "pad": (1,), "out": (3,), "count_include_pad": False},
        ),
        Sample(((1, 1, 4, 5),), {"kernel": (2, 3), "stride": (2, 1), "pad": (1, 1), "out": (3, 5)}),
        Sample(
            ((1, 1, 3, 4, 4),),
            {"kernel": (2, 2, 2), "stride": (1, 2, 2), "pad": (0, 1, 0), "out": (2, 3, 2)},
        ),
        Sample(
            ((1, 5, 5),),
            {"kernel": (2, 2), "stride": (2, 2), "pad": (0, 0), "out": (3, 3), "divisor": 3.0},
        ),
    ),
    to_torch=_torch_avg_pool,
    to_jax=_jax_avg_pool,
)
