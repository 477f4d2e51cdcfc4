"""F.grid_sample on 4-d inputs (modes bilinear and nearest; padding zeros, border, reflection;
align_corners) as ATen's vectorized CPU kernel computes it (GridSamplerKernel.cpp), and the
records of its two gradients.

The forward, for each output position: the grid value unnormalized to a pixel position
(`(g + 1) * s - 0.5` with one fma, s = size / 2; `(g + 1) * s`, s = (size - 1) / 2 when
aligning corners), reflected and clipped by the padding mode, then

- bilinear: the four neighbours weighted by the opposite distances (`nw = s * e`, ...) and
  summed `fma(se_v, se, fma(sw_v, sw, fma(ne_v, ne, nw_v * nw)))`; outside neighbours read 0;
- nearest: the neighbour at the position rounded half to even.

The input's gradient adds each output's gradient times a corner's weight (rounded) into that
corner, in ATen's order: the output positions in runs of 8 (float32) or 4 (float64) lanes, per
channel the lanes of the nw corner, then ne, sw, se. The grid's gradient sums over channels
`fma(fma(se_v - sw_v, n, (ne_v - nw_v) * s), gOut, acc)` (x; likewise y), times the
derivative of the unnormalization and padding. Measured against PyTorch 2.13, float32 and
float64; the lanes assume a contiguous grid (a permuted view is walked row by row by ATen).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import NotSupported
from ..core import dual
from ..core.op import Sample, apply, defop
from ..core.tensor import Tensor
from .resample import _fma

_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}


def _location(g: np.ndarray, size: int, padding: str, align: bool, grad: bool = False) -> Any:
    """ComputeLocation: the pixel position of grid values `g` along an axis of `size`, and
    (with `grad`) d position / d g."""
    dt = g.dtype.type
    one = dt(1)
    if align:
        sf = dt(dt(size - 1) / dt(2))
        pos = ((g + one).astype(dt) * sf).astype(dt)
    else:
        sf = dt(dt(size) / dt(2))
        a = (g + one).astype(dt)
        pos = np.asarray(_fma(a, np.full_like(a, sf), np.full_like(a, dt(-0.5))), dt)
    mult = np.full_like(pos, sf)
    if padding == "reflection":
        pos, flip = _reflect(pos, size, align)
        mult = (flip * mult).astype(dt)
    if padding in ("border", "reflection"):
        lo = np.maximum(pos, dt(0))
        lo = np.where(np.isnan(pos), dt(0), lo)  # clamp_min(0, nan) is 0
        res = np.minimum(lo, dt(size - 1)).astype(dt)
        inside = (lo != 0) & (res != dt(size - 1))
        mult = np.where(inside, mult, dt(0)).astype(dt)
        pos = res
    return (pos, mult) if grad else pos


def _reflect(pos: np.ndarray, size: int, align: bool) -> tuple:
    """reflect_coordinates(_get_grad): the position folded into the span, and +-1."""
    dt = pos.dtype.type
    if align:
        if size <= 1:
            return np.zeros_like(pos), np.zeros_like(pos)
        twice, low = dt(dt(size - 1) * 2), dt(0)
    else:
        twice, low = dt(dt(size) * 2), dt(-0.5)
    rel = (pos - low).astype(dt)
    neg = rel < 0
    a = np.abs(rel)
    flips = np.trunc((a / twice).astype(dt))
    extra = np.asarray(_fma(-flips, np.full_like(a, twice), a), dt)
    refl = (twice - extra).astype(dt)
    more = extra > refl
    out = np.where(more, refl, extra).astype(dt)
    if not align:
        out = (out + low).astype(dt)
    sign = np.where(more ^ neg, dt(-1), dt(1)).astype(dt)
    return out, sign


def _corners(x: np.ndarray, grid: np.ndarray, padding: str, align: bool, grad: bool = False):
    n_, c_, h, w = x.shape
    dt = x.dtype.type
    gx, gy = grid[..., 0], grid[..., 1]
    if grad:
        ix, mx = _location(gx, w, padding, align, True)
        iy, my = _location(gy, h, padding, align, True)
    else:
        ix, iy = _location(gx, w, padding, align), _location(gy, h, padding, align)
        mx = my = None
    with np.errstate(invalid="ignore"):
        x_w, y_n = np.floor(ix), np.floor(iy)
    we = (ix - x_w).astype(dt)
    ea = (dt(1) - we).astype(dt)
    no = (iy - y_n).astype(dt)
    so = (dt(1) - no).astype(dt)
    weights = [
        (so * ea).astype(dt),
        (so * we).astype(dt),
        (no * ea).astype(dt),
        (no * we).astype(dt),
    ]
    xi = _as_index(x_w)
    yi = _as_index(y_n)
    spots = [(yi, xi), (yi, xi + 1), (yi + 1, xi), (yi + 1, xi + 1)]
    return weights, spots, (no, so, we, ea), (mx, my)


def _as_index(v: np.ndarray) -> np.ndarray:
    """ATen's conversion to int32/int64 of a floored position (NaN and huge values land far
    outside, so the masks drop them)."""
    out = np.full(v.shape, -(2**31), dtype=np.int64)
    ok = np.isfinite(v) & (np.abs(v) < 2.0**31)
    out[ok] = v[ok].astype(np.int64)
    return out


def _read(x: np.ndarray, spot: tuple) -> tuple[np.ndarray, np.ndarray]:
    """The values of every channel at (y, x) per output position (0 outside) and the mask."""
    n_, c_, h, w = x.shape
    yy, xx = spot
    inside = (xx > -1) & (xx < w) & (yy > -1) & (yy < h)
    yc, xc = np.clip(yy, 0, h - 1), np.clip(xx, 0, w - 1)
    b = np.arange(n_).reshape((n_,) + (1,) * (yy.ndim - 1))
    vals = x[b, :, yc, xc]  # (N, Ho, Wo, C)
    vals = np.moveaxis(vals, -1, 1)
    return np.where(inside[:, None], vals, x.dtype.type(0)), inside


def _forward(x: np.ndarray, grid: np.ndarray, mode: str, padding: str, align: bool) -> np.ndarray:
    dt = x.dtype.type
    if mode == "nearest":
        ix = _location(grid[..., 0], x.shape[3], padding, align)
        iy = _location(grid[..., 1], x.shape[2], padding, align)
        with np.errstate(invalid="ignore"):
            spot = (_as_index(np.rint(iy)), _as_index(np.rint(ix)))
        return np.ascontiguousarray(_read(x, spot)[0])
    weights, spots, _, _ = _corners(x, grid, padding, align)
    vals = [_read(x, s)[0] for s in spots]
    ws = [w_[:, None] for w_ in weights]
    acc = (vals[0] * ws[0]).astype(dt)
    for v, w_ in zip(vals[1:], ws[1:]):
        acc = np.asarray(_fma(v, np.broadcast_to(w_, v.shape), acc), dt)
    return np.ascontiguousarray(acc.astype(dt))


def _input_grad(
    g: np.ndarray, grid: np.ndarray, mode: str, padding: str, align: bool, size: tuple
) -> np.ndarray:
    """The input's gradient: each output's gradient times each corner's weight added into
    the corner, in ATen's order (runs of lanes; nw, ne, sw, se; lanes in order)."""
    dt = g.dtype.type
    n_, c_ = g.shape[:2]
    h, w = size
    out = np.zeros((n_, c_, h * w), dtype=g.dtype)
    probe = np.zeros((n_, 1, h, w), dtype=g.dtype)
    if mode == "nearest":
        ix = _location(grid[..., 0], w, padding, align)
        iy = _location(grid[..., 1], h, padding, align)
        with np.errstate(invalid="ignore"):
            spots = [(_as_index(np.rint(iy)), _as_index(np.rint(ix)))]
        weights = [np.ones(ix.shape, dt)]
    else:
        weights, spots, _, _ = _corners(probe, grid, padding, align)
    m = grid.shape[1] * grid.shape[2]
    lanes = _LANES[g.dtype]
    gf = g.reshape(n_, c_, m)
    for b in range(n_):
        rows, shares, targets = [], [], []
        for k, (wt, (yy, xx)) in enumerate(zip(weights, spots)):
            inside = ((xx > -1) & (xx < w) & (yy > -1) & (yy < h))[b].reshape(-1)
            tgt = (yy[b] * w + xx[b]).reshape(-1)
            pos = np.arange(m)
            # order key: run, corner, lane
            key = (pos // lanes) * 4 * lanes + k * lanes + pos % lanes
            rows.append(key[inside])
            shares.append((pos[inside], wt[b].reshape(-1)[inside]))
            targets.append(tgt[inside])
        key = np.concatenate(rows)
        src = np.concatenate([s[0] for s in shares])
        wts = np.concatenate([s[1] for s in shares]).astype(dt)
        tgt = np.concatenate(targets)
        order = np.argsort(key, kind="stable")
        src, wts, tgt = src[order], wts[order], tgt[order]
        contrib = (wts[None, :] * gf[b][:, src]).astype(dt) if mode != "nearest" else gf[b][:, src]
        _ordered_add(out[b], tgt, contrib)
    return out.reshape(n_, c_, h, w)


def _ordered_add(acc: np.ndarray, tgt: np.ndarray, contrib: np.ndarray) -> None:
    """acc[:, tgt[j]] += contrib[:, j] for j in order, each addition rounded."""
    if tgt.size == 0:
        return
    order = np.argsort(tgt, kind="stable")
    st = tgt[order]
    first = np.r_[0, np.flatnonzero(np.diff(st)) + 1]
    counts = np.diff(np.r_[first, st.size])
    rank = np.empty_like(order)
    rank[order] = np.arange(st.size) - np.repeat(first, counts)
    for r in range(int(rank.max()) + 1):
        sel = np.flatnonzero(rank == r)
        acc[:, tgt[sel]] = acc[:, tgt[sel]] + contrib[:, sel]


def _grid_grad(
    g: np.ndarray, x: np.ndarray, grid: np.ndarray, mode: str, padding: str, align: bool
) -> np.ndarray:
    """The grid's gradient: per output position, summed over channels in order,
    `fma(fma(se - sw, n, (ne - nw) * s), gOut, gx)` (and y), times d position / d grid."""
    dt = x.dtype.type
    if mode == "nearest":
        return np.zeros(grid.shape, dtype=grid.dtype)
    weights, spots, (no, so, we, ea), (mx, my) = _corners(x, grid, padding, align, grad=True)
    nw, ne, sw, se = (_read(x, s)[0] for s in spots)
    gxs = np.zeros(grid.shape[:3], dt)
    gys = np.zeros(grid.shape[:3], dt)
    for c in range(x.shape[1]):
        go = g[:, c]
        a, b_ = (ne[:, c] - nw[:, c]).astype(dt), (se[:, c] - sw[:, c]).astype(dt)
        tx = np.asarray(_fma(b_, no, (a * so).astype(dt)), dt)
        gxs = np.asarray(_fma(tx, go, gxs), dt)
        a, b_ = (sw[:, c] - nw[:, c]).astype(dt), (se[:, c] - ne[:, c]).astype(dt)
        ty = np.asarray(_fma(b_, we, (a * ea).astype(dt)), dt)
        gys = np.asarray(_fma(ty, go, gys), dt)
    out = np.stack([(gxs * mx).astype(dt), (gys * my).astype(dt)], -1)
    return np.ascontiguousarray(out)


def _batched(fn: Any, arrays: tuple, *args: Any) -> np.ndarray:
    """fn over the leading axes of the 4-d `arrays` (stacks of upstream gradients, broadcast
    together), one call each."""
    lead = np.broadcast_shapes(*(a.shape[: a.ndim - 4] for a in arrays))
    if not lead:
        return fn(*arrays, *args)
    full = [np.broadcast_to(a, lead + a.shape[a.ndim - 4 :]) for a in arrays]
    flat = [a.reshape((-1,) + a.shape[len(lead) :]) for a in full]
    parts = [fn(*(a[i] for a in flat), *args) for i in range(flat[0].shape[0])]
    return np.stack(parts).reshape(lead + parts[0].shape)


def _vjp(g: Tensor, out: Tensor, x: Tensor, grid: Tensor, mode: str, padding: str, align: bool):
    p = {"mode": mode, "padding": padding, "align": align}
    gi = apply(grid_sample_input_grad, g, grid, size=tuple(x.shape[2:]), **p)
    gg = apply(grid_sample_grid_grad, g, x, grid, **p)
    return (gi, gg)


def _input_grad_vjp(h: Tensor, out: Tensor, g: Tensor, grid: Tensor, **p: Any) -> tuple:
    """input_grad(g, grid) = A(grid)^T g: its gradient in g is the forward A(grid) h, in the
    grid the grid gradient of <g, A(grid) h>."""
    p.pop("size")
    return (apply(grid_sample, h, grid, **p), apply(grid_sample_grid_grad, g, h, grid, **p))


def _slopes(x: np.ndarray, grid: np.ndarray, padding: str, align: bool) -> tuple:
    weights, spots, (no, so, we, ea), (mx, my) = _corners(x, grid, padding, align, grad=True)
    nw, ne, sw, se = (_read(x, s_)[0].astype(np.float64) for s_ in spots)
    no, so, we, ea = (v[:, None].astype(np.float64) for v in (no, so, we, ea))
    sx = (ne - nw) * so + (se - sw) * no
    sy = (sw - nw) * ea + (se - ne) * we
    cross = nw - ne - sw + se
    coef = {"x": (-so, so, -no, no), "y": (-ea, -we, ea, we)}
    return sx, sy, cross, coef, spots, mx.astype(np.float64), my.astype(np.float64)


def _grid_grad_vjp(k: Tensor, out: Tensor, g: Tensor, x: Tensor, grid: Tensor, **p: Any) -> tuple:
    """The gradients of grid_grad(g, x, grid) (the bilinear slopes; not ATen's order), as
    values: a further derivative through them is refused."""
    from ..core.tensor import grad_enabled

    if grad_enabled():
        raise NotSupported(
            "a third derivative through grid_sample is not supported by gradcli",
            hint="differentiate grid_sample at most twice",
        )
    dt = g.dtype
    lead = k.shape[: k.ndim - 4]
    if p["mode"] == "nearest":
        zeros = (np.zeros(lead + v.shape, dt) for v in (g, x, grid))
        return tuple(Tensor(z) for z in zeros)
    kk, gg, xx, gr = k.data, g.data, x.data, grid.data
    sx, sy, cross, coef, spots, mx, my = _slopes(xx, gr, p["padding"], p["align"])

    def one(kb: np.ndarray) -> tuple:
        a = (kb[..., 0] * mx)[:, None]
        b = (kb[..., 1] * my)[:, None]
        dg = a * sx + b * sy
        n_, c_, h, w = xx.shape
        dx = np.zeros((n_, c_, h * w))
        for j, (yy, xc) in enumerate(spots):
            inside = (xc > -1) & (xc < w) & (yy > -1) & (yy < h)
            share = gg * (a * coef["x"][j] + b * coef["y"][j])
            for bb in range(n_):
                tgt = (yy[bb] * w + xc[bb])[inside[bb]]
                np.add.at(dx[bb], (slice(None), tgt), share[bb][:, inside[bb]])
        dgrid_x = np.sum(gg * b * cross, axis=1) * mx
        dgrid_y = np.sum(gg * a * cross, axis=1) * my
        return dg, dx.reshape(xx.shape), np.stack([dgrid_x, dgrid_y], -1)

    parts = [one(kb) for kb in kk.reshape((-1,) + kk.shape[kk.ndim - 4 :])]
    res = []
    for j in range(3):
        stacked = np.stack([q[j] for q in parts]).reshape(lead + parts[0][j].shape)
        res.append(Tensor(stacked.astype(dt)))
    return tuple(res)


def _no_jax(w: Any, a: list[str], p: dict[str, Any]) -> str:
    raise NotSupported(
        "gradcli export --to jax does not write grid_sample (JAX has no grid sampler)",
        hint="export --to torch",
    )


def _no_closed_form(sp: Any, *args: Any, **params: Any) -> Any:
    raise TypeError("grid_sample has no closed form (the floor of the grid's positions)")


_P = {"mode": "bilinear", "padding": "zeros", "align": False}
_SAMPLES = tuple(
    Sample(((1, 2, 3, 4), (1, 2, 3, 2)), dict(_P, **p), low=-1.1, high=1.1, hessian=False)
    for p in (
        {},
        {"align": True},
        {"padding": "border"},
        {"padding": "reflection"},
        {"padding": "reflection", "align": True},
    )
) + (
    Sample(
        ((2, 1, 3, 3), (2, 2, 2, 2)), dict(_P, mode="nearest"), low=-0.9, high=0.9, hessian=False
    ),
)

grid_sample = defop(
    "grid_sample",
    lambda x, grid, *, mode, padding, align: _batched(_forward, (x,), grid, mode, padding, align),
    _vjp,
    "GridSampler2DBackward0",
    "input: each output's gradient spread to its neighbours by their weights; grid: the "
    "interpolation's slope times the unnormalization's",
    kind="shape",
    sym=_no_closed_form,
    to_torch="F.grid_sample({0}, {1}, mode={mode}, padding_mode={padding}, align_corners={align})",
    to_jax=_no_jax,
    signature="grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners=None)",
    samples=_SAMPLES,
)
grid_sample_input_grad = defop(
    "grid_sample_input_grad",
    lambda g, grid, *, mode, padding, align, size: _batched(
        _input_grad, (g,), grid, mode, padding, align, size
    ),
    _input_grad_vjp,
    "GridSampler2DBackwardBackward0",
    "grid_sample(h, grid), grid_sample_grid_grad(g, h, grid)",
    kind="internal",
    sym=_no_closed_form,
    samples=tuple(
        Sample(
            ((1, 2, 2, 3), (1, 2, 3, 2)),
            dict(_P, size=(3, 4), **q),
            low=-1.1,
            high=1.1,
            hessian=False,
        )
        for q in ({}, {"padding": "reflection", "align": True}, {"mode": "nearest"})
    ),
)
grid_sample_grid_grad = defop(
    "grid_sample_grid_grad",
    lambda g, x, grid, *, mode, padding, align: _batched(
        _grid_grad, (g, x), grid, mode, padding, align
    ),
    _grid_grad_vjp,
    "GridSampler2DBackwardBackward0",
    "the bilinear slopes: in g and x, the slope's factors; in the grid, the cross term",
    kind="internal",
    sym=_no_closed_form,
    samples=tuple(
        Sample(
            ((1, 2, 2, 3), (1, 2, 3, 4), (1, 2, 3, 2)),
            dict(_P, **q),
            low=-1.1,
            high=1.1,
            hessian=False,
        )
        for q in ({}, {"padding": "border", "align": True}, {"mode": "nearest"})
    ),
)

# PyTorch has no forward-mode formula for grid_sampler_2d (nor its backward): forward AD through
# them fails in its words.
dual.NO_FORWARD_AD["grid_sample"] = "grid_sampler_2d"
dual.NO_FORWARD_AD["grid_sample_input_grad"] = "grid_sampler_2d_backward"
dual.NO_FORWARD_AD["grid_sample_grid_grad"] = "grid_sampler_2d_backward"
