"""The record of group_norm: x of shape (N, C, *) split into `groups` groups of C / groups
channels; each (sample, group) normalised to mean 0 and variance 1 (the population variance,
eps added), then times weight[c], plus bias[c] (either may be absent: then a constant stands in
and `has_w` / `has_b` say so).

float32 values are PyTorch's CPU kernel's to the bit (group_norm_kernel.cpp, contiguous
input): the moments of each group are layer norm's (`norm32.moments`), the reciprocal root
is taken in double (eps is a double there) and rounded once, and with an affine the output is
fma(scale, x, fma(-scale, mean, bias)) where scale = rstd * weight[c] (the kernel's
`scale * x + bias` and `-scale * mean + bias`, contracted by the compiler); without one,
(x - mean) * rstd. float64 values take the same steps (`_kernel64`, `norm64`). The
first-order float32 gradients are the backward kernel's to the bit
(`norm32.group_norm_backward`); gradients that are recorded (create_graph=True, float32 and
float64) are PyTorch's composition then, infinitely_differentiable_native_group_norm_backward,
in its order on the records (`_recorded_grads`). Other dtypes, and batched passes, are the
formula in the records' own operations:

    xhat = (x - mean) / sqrt(var + eps)                 (per sample and group)
    dx = (gy - mean(gy) - xhat * mean(gy * xhat)) / sqrt(var + eps),  gy = g * weight[c]
    dweight[c] = sum(g * xhat),  dbias[c] = sum(g)      (over the samples and positions)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.op import Sample, apply, defop
from ..core.sleef32 import _fma
from ..core.tensor import Tensor, grad_enabled
from . import norm32, norm64
from .reduction import mean as mean_op
from .reduction import sum as sum_op
from .shape import reshape_to

_F = np.float32


def _grouped_shape(shape: tuple[int, ...], groups: int) -> tuple[int, int, int]:
    n, c = shape[0], shape[1]
    return n, groups, (c // groups) * int(np.prod(shape[2:], dtype=np.int64))


def _channel_shape(ndim: int, c: int) -> tuple[int, ...]:
    return (c,) + (1,) * (ndim - 2)


def _exact(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> bool:
    return x.dtype == w.dtype == b.dtype == _F and x.size > 0


def _kernel32(
    x: np.ndarray, w: np.ndarray, b: np.ndarray, groups: int, eps: float, affine: bool
) -> np.ndarray:
    n, c = x.shape[:2]
    d = c // groups
    mean, rstd = norm32.group_stats(x, groups, eps)
    with np.errstate(all="ignore"):
        xr = np.ascontiguousarray(x, _F).reshape(n, groups, d, -1)
        m = mean.reshape(n, groups, 1, 1)
        r = rstd.reshape(n, groups, 1, 1)
        if not affine:
            y = (xr - m) * r
        else:
            scale = r * w.reshape(1, groups, d, 1)
            shift = _fma(
                -scale,
                np.ascontiguousarray(np.broadcast_to(m, scale.shape)),
                np.ascontiguousarray(np.broadcast_to(b.reshape(1, groups, d, 1), scale.shape)),
            )
            y = _fma(
                np.ascontiguousarray(np.broadcast_to(scale, xr.shape)),
                xr,
                np.ascontiguousarray(np.broadcast_to(shift, xr.shape)),
            )
    return np.asarray(y, _F).reshape(x.shape)


def _kernel64(
    x: np.ndarray, w: np.ndarray, b: np.ndarray, groups: int, eps: float, affine: bool
) -> np.ndarray:
    """`_kernel32`'s steps on float64 (layer norm's float64 moments, `norm64`)."""
    n, c = x.shape[:2]
    d = c // groups
    xr = np.ascontiguousarray(x, np.float64).reshape(n, groups, d, -1)
    mean, var = norm64.moments(xr.reshape(n * groups, -1))
    with np.errstate(all="ignore"):
        rstd = 1.0 / np.sqrt(np.maximum(var, 0.0) + eps)
        m = mean.reshape(n, groups, 1, 1)
        r = rstd.reshape(n, groups, 1, 1)
        if not affine:
            y = (xr - m) * r
        else:
            scale = r * w.reshape(1, groups, d, 1)
            shift = norm64.fma(-scale, m, b.reshape(1, groups, d, 1))
            y = norm64.fma(scale, xr, shift)
    return np.asarray(y, np.float64).reshape(x.shape)


def _forward(
    x: np.ndarray,
    w: np.ndarray,
    b: np.ndarray,
    groups: int,
    eps: float,
    has_w: bool,
    has_b: bool,
) -> np.ndarray:
    if _exact(x, w, b):
        w = w if has_w else np.ones_like(w)  # an absent weight or bias is the kernel's null
        b = b if has_b else np.zeros_like(b)
        return _kernel32(x, w, b, groups, eps, has_w or has_b)
    if x.dtype == w.dtype == b.dtype == np.float64 and x.size:
        w = w if has_w else np.ones_like(w)
        b = b if has_b else np.zeros_like(b)
        return _kernel64(x, w, b, groups, eps, has_w or has_b)
    half = x.dtype == np.float16
    if half:  # ATen normalises a half tensor in float and rounds the output once
        x, w, b = (a.astype(_F) for a in (x, w, b))
    rows = x.reshape(_grouped_shape(x.shape, groups))
    with np.errstate(all="ignore"):
        c = rows - rows.mean(axis=2, keepdims=True)
        y = (c / np.sqrt((c * c).mean(axis=2, keepdims=True) + eps)).reshape(x.shape)
        per = _channel_shape(x.ndim, x.shape[1])
        if has_w:
            y = y * w.reshape(per)
        if has_b:
            y = y + b.reshape(per)
    return np.asarray(y, dtype=np.float16 if half else x.dtype)


# --- the saved statistics as records of their own (the gradient a recorded pass composes
# reads them, and a second derivative goes through them, as PyTorch's mean and rstd outputs) ---


def _stats(x: np.ndarray, groups: int, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """(mean, rstd) per (sample, group), (N, groups): the float32 kernel's, else exact."""
    n = x.shape[0]
    if x.dtype == _F and x.size:
        mean, rstd = norm32.group_stats(x, groups, eps)
        return mean.reshape(n, groups), rstd.reshape(n, groups)
    rows = x.reshape(n, groups, -1)
    with np.errstate(all="ignore"):
        mean = rows.mean(axis=2)
        var = ((rows - mean[..., None]) ** 2).mean(axis=2)
        return mean, (1 / np.sqrt(var + eps)).astype(x.dtype)


def _mean_vjp(g: Tensor, out: Tensor, x: Tensor, groups: int, eps: float) -> tuple:
    lead = g.shape[: g.ndim - 2]
    n, m = x.shape[0], x.data.size // (x.shape[0] * groups) if x.data.size else 0
    share = Tensor(np.full((1, 1, m), 1.0 / max(m, 1), x.dtype))
    return (reshape_to(reshape_to(g, lead + (n, groups, 1)) * share, lead + x.shape),)


def _rstd_vjp(g: Tensor, out: Tensor, x: Tensor, groups: int, eps: float) -> tuple:
    """PyTorch's: dvar = -0.5 * rstd^3 * g, then var_backward: (2 / M) * dvar * (x - mean(x))."""
    lead = g.shape[: g.ndim - 2]
    n = x.shape[0]
    m = x.data.size // (n * groups) if x.data.size else 1
    r = reshape_to(out, (n, groups, 1))
    dvar = ((r * r * r) * -0.5) * reshape_to(g, lead + (n, groups, 1))
    rows = reshape_to(x, (n, groups, m))
    centred = rows - apply(mean_op, rows, dim=(2,), keepdim=True)
    return (reshape_to((dvar * (2.0 / m)) * centred, lead + x.shape),)


def _group_rows(x: Any, groups: int) -> Any:
    return x.reshape(x.shape[0], groups, -1)


def _mean_sym(sp: Any, x: Any, groups: int, eps: float) -> Any:
    rows = _group_rows(x, groups)
    out = np.empty(rows.shape[:2], dtype=object)
    for i, j in np.ndindex(*out.shape):
        out[i, j] = sp.Add(*rows[i, j]) / rows.shape[2]
    return out


def _rstd_sym(sp: Any, x: Any, groups: int, eps: float) -> Any:
    rows = _group_rows(x, groups)
    mean = _mean_sym(sp, x, groups, eps)
    out = np.empty(rows.shape[:2], dtype=object)
    for i, j in np.ndindex(*out.shape):
        var = sp.Add(*[(v - mean[i, j]) ** 2 for v in rows[i, j]]) / rows.shape[2]
        out[i, j] = 1 / sp.sqrt(var + eps)
    return out


group_norm_mean = defop(
    "group_norm_mean",
    lambda x, groups, eps: _stats(x, groups, eps)[0],
    _mean_vjp,
    "NativeGroupNormBackward0",
    "g / M spread over the group",
    sym=_mean_sym,
    kind="internal",
    samples=(Sample(((2, 4, 3),), {"groups": 2, "eps": 1e-5}),),
)
group_norm_rstd = defop(
    "group_norm_rstd",
    lambda x, groups, eps: _stats(x, groups, eps)[1],
    _rstd_vjp,
    "NativeGroupNormBackward0",
    "-rstd^3 (x - mean) / M * g",
    sym=_rstd_sym,
    kind="internal",
    samples=(Sample(((2, 4, 3),), {"groups": 2, "eps": 1e-3}),),
)


def _recorded_grads(
    g: Tensor,
    x: Tensor,
    w: Tensor,
    groups: int,
    eps: float,
    has_w: bool,
    need_w: bool,
    need_b: bool,
) -> tuple:
    """PyTorch's infinitely_differentiable_native_group_norm_backward, its operations in its
    order, on the records (create_graph=True): per (sample, group, channel) ds = sum(g * x),
    db = sum(g); a = rstd * w, b = sum(ds * w), c = sum(db * w) over the channels; b = (c *
    mean - b) * rstd^3 * s, c = -b * mean - c * rstd * s (s = 1 / (channels * positions));
    dx = a * g + b * x + c; dweight = sum((ds - db * mean) * rstd), dbias = sum(db) over the
    samples."""
    lead = g.shape[: g.ndim - x.ndim]
    k = len(lead)
    n, c = x.shape[0], x.shape[1]
    d = c // groups
    hw = x.data.size // (n * c) if n * c else 0
    s = 1.0 / (d * hw)
    xs = reshape_to(x, (n, groups, d, hw))
    gs = reshape_to(g, lead + (n, groups, d, hw))
    mean = reshape_to(apply(group_norm_mean, x, groups=groups, eps=eps), (n, groups, 1, 1))
    rstd = reshape_to(apply(group_norm_rstd, x, groups=groups, eps=eps), (n, groups, 1, 1))
    ds = apply(sum_op, gs * xs, dim=(k + 3,), keepdim=True)
    db = apply(sum_op, gs, dim=(k + 3,), keepdim=True)
    gamma = reshape_to(w, (1, groups, d, 1)) if has_w else None
    a = rstd * gamma if gamma is not None else rstd
    bs = apply(sum_op, ds * gamma if gamma is not None else ds, dim=(k + 2,), keepdim=True)
    cs = apply(sum_op, db * gamma if gamma is not None else db, dim=(k + 2,), keepdim=True)
    rstd_cube = rstd * rstd * rstd
    bs = (cs * mean - bs) * rstd_cube * s
    cs = -bs * mean - cs * rstd * s
    dx = reshape_to(a * gs + bs * xs + cs, lead + x.shape)
    dw = db_out = None
    if need_w:
        dw = reshape_to(
            apply(sum_op, (ds - db * mean) * rstd, dim=(k,), keepdim=False), lead + w.shape
        )
    if need_b:
        db_out = reshape_to(apply(sum_op, db, dim=(k,), keepdim=False), lead + w.shape)
    return dx, dw, db_out


def _vjp(
    g: Tensor,
    out: Tensor,
    x: Tensor,
    w: Tensor,
    b: Tensor,
    groups: int,
    eps: float,
    has_w: bool,
    has_b: bool,
) -> tuple:
    if (
        not grad_enabled()
        and g.shape == x.shape
        and g.dtype == _F
        and _exact(x.data, w.data, b.data)
    ):
        # PyTorch's kernel (native_group_norm_backward); with create_graph=True PyTorch
        # composes the gradient of tensor operations instead (below)
        mean, rstd = norm32.group_stats(x.data, groups, eps)
        dx, dw, db = norm32.group_norm_backward(
            g.data, x.data, mean, rstd, w.data if has_w else None, groups
        )
        return (
            Tensor(dx),
            Tensor(dw.reshape(w.shape)) if has_w and w.requires_grad else None,
            Tensor(db.reshape(b.shape)) if has_b and b.requires_grad else None,
        )
    if x.dtype in (_F, np.float64) and g.dtype == x.dtype and x.data.size:
        return _recorded_grads(
            g, x, w, groups, eps, has_w, has_w and w.requires_grad, has_b and b.requires_grad
        )
    lead = g.shape[: g.ndim - x.ndim]  # a batched pass's leading axes
    grouped = _grouped_shape(x.shape, groups)
    per = _channel_shape(x.ndim, x.shape[1])
    rows = reshape_to(x, grouped)
    c = rows - apply(mean_op, rows, dim=(2,), keepdim=True)
    s = (apply(mean_op, c * c, dim=(2,), keepdim=True) + eps).sqrt()
    xhat_rows = c / s
    gy = g * reshape_to(w, per) if has_w else g
    gy_rows = reshape_to(gy, lead + grouped)
    last = (len(lead) + 2,)
    dx_rows = (
        gy_rows
        - apply(mean_op, gy_rows, dim=last, keepdim=True)
        - xhat_rows * apply(mean_op, gy_rows * xhat_rows, dim=last, keepdim=True)
    ) / s
    others = tuple(len(lead) + d for d in (0,) + tuple(range(2, x.ndim)))
    dw = None
    if has_w and w.requires_grad:
        gx = g * reshape_to(xhat_rows, x.shape)
        dw = reshape_to(apply(sum_op, gx, dim=others, keepdim=False), lead + w.shape)
    db = None
    if has_b and b.requires_grad:
        db = reshape_to(apply(sum_op, g, dim=others, keepdim=False), lead + b.shape)
    return reshape_to(dx_rows, lead + x.shape), dw, db


def _sym(sp: Any, x: Any, w: Any, b: Any, groups: int, eps: float, has_w: bool, has_b: bool) -> Any:
    """The sympy form, on object arrays of expressions."""
    rows = x.reshape(_grouped_shape(x.shape, groups))
    y = norm32.sym_normalized(sp, rows, (2,), eps).reshape(x.shape)
    per = _channel_shape(x.ndim, x.shape[1])
    w, b = (w.reshape(per) if has_w else w), (b.reshape(per) if has_b else b)
    return norm32.sym_affine(y, w, b, has_w, has_b)


def _to_torch(w: Any, a: list[str], p: dict[str, Any]) -> str:
    weight = a[1] if p["has_w"] else "None"
    bias = a[2] if p["has_b"] else "None"
    return f"F.group_norm({a[0]}, {p['groups']}, {weight}, {bias}, eps={w.lit(p['eps'])})"


def _to_jax(w: Any, a: list[str], p: dict[str, Any]) -> str:
    x = a[0]
    rows = f"{x}.reshape({x}.shape[0], {p['groups']}, -1)"
    y = (
        f"(({rows} - jnp.mean({rows}, axis=2, keepdims=True)) / jnp.sqrt(jnp.var({rows}, "
        f"axis=2, keepdims=True) + {w.lit(float(p['eps']))})).reshape({x}.shape)"
    )
    per = f"(-1,) + (1,) * ({x}.ndim - 2)"
    if p["has_w"]:
        y = f"{y} * {a[1]}.reshape({per})"
    if p["has_b"]:
        y = f"{y} + {a[2]}.reshape({per})"
    return y


def _params(groups: int, eps: float = 1e-5, has_w: bool = True, has_b: bool = True) -> dict:
    return {"groups": groups, "eps": eps, "has_w": has_w, "has_b": has_b}


group_norm = defop(
    "group_norm",
    _forward,
    _vjp,
    "NativeGroupNormBackward0",
    "(g*w - mean(g*w) - xhat * mean(g*w * xhat)) / sqrt(var + eps) per group, sum(g * xhat), "
    "sum(g)",
    kind="reduction",
    sym=_sym,
    signature="group_norm(x, num_groups, weight=None, bias=None, eps=1e-05)",
    samples=(
        Sample(((2, 4, 3), (4,), (4,)), _params(2)),
        Sample(((3, 6), (6,), (6,)), _params(3, 0.1)),
        Sample(((2, 4, 2, 2), (4,), (4,)), _params(1, 1e-3, True, False)),
        Sample(
            ((2, 6, 2), (6,), (6,)),
            _params(2, 1e-3, False, False),
            fixed={1: np.ones(6), 2: np.zeros(6)},
        ),
    ),
    to_torch=_to_torch,
    to_jax=_to_jax,
)
