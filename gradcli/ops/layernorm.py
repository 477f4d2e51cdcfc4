"""The record of layer_norm: each row of the last `k` dims of x normalised to mean 0 and
variance 1 (the population variance, eps added), times weight, plus bias (either may be
absent: then a constant stands in and `has_w` / `has_b` say so).

float32 and float64 values and first-order gradients are PyTorch's kernel's to the bit
(`ops.norm32`, `ops.norm64`); other dtypes, and gradients that are recorded
(create_graph=True) or batched, are the formula in the records' own operations:

    xhat = (x - mean) / sqrt(var + eps)
    dx = (gy - mean(gy) - xhat * mean(gy * xhat)) / sqrt(var + eps),  gy = g * weight
    dweight = g * xhat (summed over the leading dims),  dbias = g (summed likewise)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import primitives as P
from ..core.op import Sample, apply, defop
from ..core.tensor import Tensor, grad_enabled
from . import norm32, norm64
from .reduction import mean as mean_op


def _affine_params(k: int, eps: float = 1e-5) -> dict[str, Any]:
    return {"k": k, "eps": eps, "has_w": True, "has_b": True}


def _rows(x: np.ndarray, k: int) -> np.ndarray:
    n = int(np.prod(x.shape[x.ndim - k :], dtype=np.int64))
    return x.reshape(-1, n)


def _exact(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> bool:
    return x.dtype == w.dtype == b.dtype and x.dtype in (np.float32, np.float64) and x.size > 0


def _kernel(dt: np.dtype):
    """The module computing PyTorch's kernel for this dtype (float32 or float64)."""
    return norm32 if dt == np.float32 else norm64


def _forward(
    x: np.ndarray, w: np.ndarray, b: np.ndarray, k: int, eps: float, has_w: bool, has_b: bool
) -> np.ndarray:
    if _exact(x, w, b) and w.size:
        y, _, _ = _kernel(x.dtype).layer_norm(
            _rows(x, k),
            w.reshape(-1) if has_w else None,
            b.reshape(-1) if has_b else None,
            eps,
        )
        return y.reshape(x.shape)
    dims = tuple(range(x.ndim - k, x.ndim))
    half = x.dtype == np.float16
    if half:
        # ATen normalises a half tensor in float and rounds the output once (in half, the
        # squares past 65504 made the variance inf and every output 0)
        x, w, b = (a.astype(np.float32) for a in (x, w, b))
    with np.errstate(all="ignore"):
        c = x - np.mean(x, axis=dims, keepdims=True)
        y = c / np.sqrt(np.mean(c * c, axis=dims, keepdims=True) + eps)
        if has_w:
            y = y * w
        if has_b:
            y = y + b
        return np.asarray(y, dtype=np.float16 if half else x.dtype)


def _saved(x: np.ndarray, k: int, eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x's rows and the mean and rstd PyTorch's forward kernel saves for them (float32)."""
    rows = _rows(x, k)
    if x.dtype == np.float64:
        mean, var = norm64.moments(rows)
        with np.errstate(all="ignore"):
            rstd = 1.0 / np.sqrt(var + eps)
        return rows, mean, rstd
    if x.dtype != np.float32:
        with np.errstate(all="ignore"):
            mean = rows.mean(axis=1)
            rstd = 1 / np.sqrt(((rows - mean[:, None]) ** 2).mean(axis=1) + eps)
        return rows, mean, rstd
    mean, var = norm32.moments(rows)
    with np.errstate(all="ignore"):
        rstd = np.float32(1) / np.sqrt(var + np.float32(eps))
    return rows, mean, rstd


def _kernel_grads(g: np.ndarray, x: np.ndarray, w: np.ndarray, k: int, eps: float, has_w, has_b):
    rows, mean, rstd = _saved(x, k, eps)
    return _kernel(x.dtype).layer_norm_backward(
        _rows(g, k), rows, mean, rstd, w.reshape(-1) if has_w else None, has_w or has_b
    )


def _bwd_forward(
    g: np.ndarray,
    x: np.ndarray,
    w: np.ndarray,
    which: int,
    k: int,
    eps: float,
    has_w: bool,
    has_b: bool,
) -> np.ndarray:
    """One of native_layer_norm_backward's three results (0: input, 1: weight, 2: bias), by
    the float32 kernel (`norm32`): the first-order gradient's bits, create_graph or not."""
    if _exact(x, w, w) and g.dtype == x.dtype and w.size:
        got = _kernel_grads(g, x, w, k, eps, has_w, has_b)[which]
        return got.reshape(x.shape if which == 0 else x.shape[x.ndim - k :])
    # other dtypes: the formula (module docstring)
    rows, gr = _rows(x, k), _rows(g, k)
    with np.errstate(all="ignore"):
        mean = rows.mean(axis=1, keepdims=True)
        rstd = 1 / np.sqrt(((rows - mean) ** 2).mean(axis=1, keepdims=True) + eps)
        xhat = (rows - mean) * rstd
        if which == 2:
            return gr.sum(axis=0).reshape(x.shape[x.ndim - k :])
        if which == 1:
            return (gr * xhat).sum(axis=0).reshape(x.shape[x.ndim - k :])
        gy = gr * w.reshape(1, -1) if has_w else gr
        dx = rstd * (
            gy - gy.mean(axis=1, keepdims=True) - xhat * (gy * xhat).mean(axis=1, keepdims=True)
        )
        return dx.astype(x.dtype, copy=False).reshape(x.shape)


def _bwd_vjp(
    h: Tensor,
    out: Tensor,
    g: Tensor,
    x: Tensor,
    w: Tensor,
    which: int,
    k: int,
    eps: float,
    has_w: bool,
    has_b: bool,
) -> tuple:
    """derivatives.yaml's layer_norm_double_backward, PyTorch's operations in its order, for
    the one incoming gradient of this result: ggI (which 0), ggG (1) or ggB (2). Returns the
    gradients of (grad_out, input, weight); the saved mean and rstd are constants there, as
    in PyTorch (their gradients are not implemented)."""
    n = int(np.prod(x.shape[x.ndim - k :], dtype=np.int64))
    m = x.data.size // n if n else 0
    lead = h.shape[: h.ndim - out.ndim]  # (upstream gradients stacked in front: batched)
    _, mean_a, rstd_a = _saved(x.data, k, eps)
    mu = Tensor(mean_a.reshape(m, 1).astype(x.dtype, copy=False))
    inv = Tensor(rstd_a.reshape(m, 1).astype(x.dtype, copy=False))
    inp = x.reshape(m, n)
    go = g.reshape(m, n)
    gamma = w.reshape(1, n) if has_w else Tensor(np.ones((1,), x.dtype))
    sub = inp - mu
    if which == 2:  # ggB: into grad_out only
        return (h.reshape(*lead, 1, n).expand(*lead, m, n).reshape(*lead, *x.shape), None, None)
    if which == 1:  # ggG
        gg = h.reshape(*lead, 1, n)
        t0 = go * gg * inv
        t1 = (inv * (go * gg).sum(-1, True)) / -n
        t2 = ((sub * inv**3) * (go * gg * sub).sum(-1, True)) / -n
        gi = (t0 + t1 + t2).reshape(*lead, *x.shape)
        ggo = (gg * sub * inv).expand(*lead, m, n).reshape(*lead, *x.shape)
        return (ggo, gi, None)
    ggi = h.reshape(*lead, m, n)
    inv2, inv3 = inv**2, inv**3
    gxhat = go * gamma
    gxhat_mu_sum = (gxhat * sub).sum(-1, True)
    gxhat_sum = gxhat.sum(-1, True)
    ggi_sum = ggi.sum(-1, True)
    ggi_mu_sum = (ggi * sub).sum(-1, True)
    all_sub = (
        (ggi_sum * gxhat_sum) / n
        - (ggi * gxhat).sum(-1, True)
        + (inv2 * gxhat_mu_sum * ggi_mu_sum) * (3.0 / n)
    )
    gi0 = ((sub * inv3) * all_sub) / n
    gi1 = ((ggi_mu_sum * inv3) / n) * (gxhat_sum / n - gxhat)
    gi2 = ((gxhat_mu_sum * inv3) / n) * (ggi_sum / n - ggi)
    gi = (gi0 + gi1 + gi2).reshape(*lead, *x.shape)

    def first(gl: Tensor, gam: Tensor) -> Tensor:
        h0 = (gam * inv) / n
        h1 = (gl * n - gl.sum(-1, True)) - sub * inv2 * (gl * sub).sum(-1, True)
        return h0 * h1

    gg = None
    if has_w and w.requires_grad:
        gg = (go * first(ggi, Tensor(np.ones((), x.dtype)))).sum(-2).reshape(*lead, *w.shape)
    ggo = first(ggi, gamma).expand(*lead, m, n).reshape(*lead, *x.shape)
    return (ggo, gi, gg)


def _bwd_sym(
    sp: Any, g: Any, x: Any, w: Any, which: int, k: int, eps: float, has_w: bool, has_b: bool
) -> Any:
    """The sympy form of `_bwd_forward`, on object arrays of expressions."""
    n = int(np.prod(x.shape[x.ndim - k :], dtype=np.int64))
    xr, gr = x.reshape(-1, n), g.reshape(-1, n)
    c = xr - np.sum(xr, axis=1, keepdims=True) / n
    var = np.sum(c * c, axis=1, keepdims=True) / n
    s = np.frompyfunc(lambda v: sp.sqrt(v + sp.Float(eps)), 1, 1)(var)
    xhat = c / s
    if which == 2:
        return np.sum(gr, axis=0).reshape(x.shape[x.ndim - k :])
    if which == 1:
        return np.sum(gr * xhat, axis=0).reshape(x.shape[x.ndim - k :])
    gy = gr * w.reshape(1, -1) if has_w else gr
    dx = gy - np.sum(gy, axis=1, keepdims=True) / n
    dx = dx - xhat * np.sum(gy * xhat, axis=1, keepdims=True) / n
    return (dx / s).reshape(x.shape)


layer_norm_backward = defop(
    "layer_norm_backward",
    _bwd_forward,
    _bwd_vjp,
    "NativeLayerNormBackwardBackward0",
    "layer_norm_double_backward(ggI, ggG, ggB)",
    kind="internal",
    saves=False,
    sym=_bwd_sym,
    # (hessian=False: this rule's own derivative in x is PyTorch's, which treats the saved
    # mean and rstd as constants: not the finite differences of the record)
    samples=(
        Sample(((2, 3), (2, 3), (3,)), {"which": 0, **_affine_params(1)}, hessian=False),
        Sample(((1, 2, 2), (1, 2, 2), (2, 2)), {"which": 0, **_affine_params(2)}, hessian=False),
        Sample(((2, 3), (2, 3), (3,)), {"which": 1, **_affine_params(1)}, hessian=False),
        Sample(((2, 3), (2, 3), (3,)), {"which": 2, **_affine_params(1)}, hessian=False),
    ),
)


def _vjp(
    g: Tensor,
    out: Tensor,
    x: Tensor,
    w: Tensor,
    b: Tensor,
    k: int,
    eps: float,
    has_w: bool,
    has_b: bool,
) -> tuple:
    if (
        not grad_enabled()
        and g.shape == x.shape
        and g.dtype == x.dtype
        and _exact(x.data, w.data, b.data)
        and w.data.size
    ):
        rows, mean, rstd = _saved(x.data, k, eps)
        dx, gw, gb = _kernel(x.dtype).layer_norm_backward(
            _rows(g.data, k),
            rows,
            mean,
            rstd,
            w.data.reshape(-1) if has_w else None,
            has_w or has_b,
        )
        return (
            Tensor(dx.reshape(x.shape)),
            Tensor(gw.reshape(w.shape)) if has_w and w.requires_grad else None,
            Tensor(gb.reshape(b.shape)) if has_b and b.requires_grad else None,
        )
    if (
        g.shape == x.shape
        and g.dtype == x.dtype == w.dtype
        and x.dtype in (np.float32, np.float64)
        and x.data.size
        and w.data.size
    ):
        # create_graph=True: PyTorch's kernel as its own node (NativeLayerNormBackwardBackward0,
        # one for each result), differentiated by layer_norm_double_backward
        p = {"k": k, "eps": eps, "has_w": has_w, "has_b": has_b}
        return (
            apply(layer_norm_backward, g, x, w, which=0, **p),
            apply(layer_norm_backward, g, x, w, which=1, **p)
            if has_w and w.requires_grad
            else None,
            apply(layer_norm_backward, g, x, w, which=2, **p)
            if has_b and b.requires_grad
            else None,
        )
    dims_x = tuple(range(x.ndim - k, x.ndim))
    dims_g = tuple(range(g.ndim - k, g.ndim))
    c = x - apply(mean_op, x, dim=dims_x, keepdim=True)
    s = (apply(mean_op, c * c, dim=dims_x, keepdim=True) + eps).sqrt()
    xhat = c / s
    gy = g * w if has_w else g
    dx = (
        gy
        - apply(mean_op, gy, dim=dims_g, keepdim=True)
        - xhat * apply(mean_op, gy * xhat, dim=dims_g, keepdim=True)
    ) / s
    return (
        dx,
        g * xhat if has_w and w.requires_grad else None,
        g if has_b and b.requires_grad else None,
    )


def _jvp(
    dots: tuple,
    out: Tensor,
    x: Tensor,
    w: Tensor,
    b: Tensor,
    k: int,
    eps: float,
    has_w: bool,
    has_b: bool,
) -> Any:
    """PyTorch's forward formula (layer_norm_jvp, its _norm_jvp and _affine_jvp), step by step
    in the dtype: with the forward kernel's saved mean m and rstd r,
        r_t = sum((x_t - mean(x_t)) (x - m) (-r**3)) / n,
        y_t = (x_t - mean(x_t)) r + (x - m) r_t,  then  y_t w + (x - m) r w_t + b_t,
    the first product in the order of the branch PyTorch takes: functorch's wrapped tensors
    (torch.func.jvp, jacfwd) multiply -r**3 by the centred tangent first. A tangent recorded
    as a function of x (m and r are, a transform over this one differentiates it) takes the
    general way."""
    dx, dw, db = (tuple(dots) + (None, None, None))[:3]
    if (grad_enabled() and x.requires_grad) or x.dtype not in (np.float32, np.float64):
        return NotImplemented
    if not x.data.size:
        return NotImplemented
    if any(t is not None and t.dtype != x.dtype for t in (w, b, dx, dw, db)):
        return NotImplemented
    from ..core import forward

    _, mean, rstd = _saved(x.data, k, eps)
    lead = x.shape[: x.ndim - k]
    m = Tensor(mean.reshape(lead + (1,) * k).astype(x.dtype))
    r = Tensor(rstd.reshape(lead + (1,) * k).astype(x.dtype))
    centred_x = x - m
    tangent = None
    if dx is not None:
        dims = tuple(range(dx.ndim - k, dx.ndim))
        n = int(np.prod(x.shape[x.ndim - k :], dtype=np.int64))
        centred_t = dx - apply(mean_op, dx, dim=dims, keepdim=True)
        cube = -(r * r * r)
        if forward.functorch:
            r_t = cube * centred_t * centred_x
        else:
            r_t = centred_t * centred_x * cube
        r_t = apply(P.sum, r_t, dim=dims, keepdim=True) / n
        tangent = centred_t * r + centred_x * r_t
        if has_w:
            tangent = tangent * w

    def aligned(t: Tensor) -> Tensor:
        # a parameter's tangent, batch axes first (forward mode over a batch of tangents):
        # x's leading axes inserted after them, so that it lines up with x's tangent
        nb = t.ndim - k
        if nb == 0 or not lead:
            return t
        shape = t.shape[:nb] + (1,) * len(lead) + t.shape[nb:]
        return apply(P.reshape, t, shape=shape)

    if has_w and dw is not None:
        term = centred_x * r * aligned(dw)
        tangent = term if tangent is None else tangent + term
    if has_b and db is not None:
        db = aligned(db)
        tangent = db if tangent is None else tangent + db
    return tangent


def _sym(sp: Any, x: Any, w: Any, b: Any, k: int, eps: float, has_w: bool, has_b: bool) -> Any:
    """The sympy form, on object arrays of expressions."""
    y = norm32.sym_normalized(sp, x, tuple(range(x.ndim - k, x.ndim)), eps)
    return norm32.sym_affine(y, w, b, has_w, has_b)


def _to_torch(w: Any, a: list[str], p: dict[str, Any]) -> str:
    weight = a[1] if p["has_w"] else "None"
    bias = a[2] if p["has_b"] else "None"
    return (
        f"F.layer_norm({a[0]}, {a[0]}.shape[{-p['k']}:], {weight}, {bias}, eps={w.lit(p['eps'])})"
    )


def _to_jax(w: Any, a: list[str], p: dict[str, Any]) -> str:
    axes = tuple(range(-p["k"], 0))
    x = a[0]
    y = (
        f"(({x} - jnp.mean({x}, axis={axes}, keepdims=True)) / jnp.sqrt(jnp.var({x}, "
        f"axis={axes}, keepdims=True) + {w.lit(float(p['eps']))}))"
    )
    if p["has_w"]:
        y = f"{y} * {a[1]}"
    if p["has_b"]:
        y = f"{y} + {a[2]}"
    return y


def _affine(k: int, eps: float = 1e-5) -> dict[str, Any]:
    return {"k": k, "eps": eps, "has_w": True, "has_b": True}


layer_norm = defop(
    "layer_norm",
    _forward,
    _vjp,
    "NativeLayerNormBackward0",
    "(g*w - mean(g*w) - xhat * mean(g*w * xhat)) / sqrt(var + eps), g * xhat, g",
    kind="reduction",
    sym=_sym,
    signature="layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-05)",
    samples=(
        Sample(((2, 5), (5,), (5,)), _affine(1)),
        Sample(((3, 2, 4), (2, 4), (2, 4)), _affine(2, 0.1)),
        Sample(((4, 3), (3,), (3,)), {"k": 1, "eps": 1e-5, "has_w": True, "has_b": False}),
        Sample(
            ((2, 6), (6,), (6,)),
            {"k": 1, "eps": 1e-3, "has_w": False, "has_b": False},
            fixed={1: np.ones(6), 2: np.zeros(6)},
        ),
    ),
    to_torch=_to_torch,
    to_jax=_to_jax,
    jvp=_jvp,
)
