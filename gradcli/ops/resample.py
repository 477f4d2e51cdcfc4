"""Resampling records: `upsample_nearest` (F.interpolate / nn.Upsample with mode='nearest' or
'nearest-exact') and `upsample_interp` (the linear, bilinear, trilinear and bicubic modes),
each with its adjoint, each the other's gradient.

The source index of every output position along each spatial axis is computed by the surface
as PyTorch's kernel computes it (`index`: one tuple per axis) and is a parameter of the
record, so the forward is a gather and the adjoint a scatter-add in PyTorch's order (output
positions row-major, each added into its source in float32 for float32 gradients). ATen's
backward computes the sources again its own way (`bindex`: a float32 scale, and exact copies
for equal and doubled sizes), which differs from the forward's in rare positions: the adjoint
scatters to those, as PyTorch does."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.op import LazySamples, Sample, apply, defop
from ..core.tensor import Tensor


def _gather(x: np.ndarray, index: tuple) -> np.ndarray:
    d = len(index)
    out = x
    for i, idx in enumerate(index):
        out = np.take(out, np.asarray(idx, dtype=np.int64), axis=x.ndim - d + i)
    return np.ascontiguousarray(out)


def _scatter(g: np.ndarray, index: tuple, size: tuple) -> np.ndarray:
    d = len(index)
    lead = g.shape[: g.ndim - d]
    flat_lead = int(np.prod(lead, dtype=np.int64)) if lead else 1
    res = np.zeros((flat_lead, int(np.prod(size, dtype=np.int64))), dtype=g.dtype)
    grids = np.meshgrid(*(np.asarray(i, dtype=np.int64) for i in index), indexing="ij")
    target = np.ravel_multi_index(tuple(grids), size).reshape(-1) if d else np.zeros(1, np.int64)
    src = g.reshape(flat_lead, -1)
    rows = np.repeat(np.arange(flat_lead), target.size)
    cols = np.tile(target, flat_lead)
    np.add.at(res, (rows, cols), src.reshape(-1))
    return res.reshape(lead + tuple(size))


def _up_vjp(g: Tensor, out: Tensor, x: Tensor, index: tuple, bindex: tuple) -> tuple:
    size = tuple(x.shape[x.ndim - len(index) :])
    return (apply(upsample_nearest_adjoint, g, index=index, bindex=bindex, size=size),)


def _adj_vjp(h: Tensor, out: Tensor, g: Tensor, index: tuple, bindex: tuple, size: tuple) -> tuple:
    return (apply(upsample_nearest, h, index=index, bindex=bindex),)


def _torch_up(w: Any, a: list[str], p: dict[str, Any]) -> str:
    idx = [list(i) for i in p["index"]]
    d = len(idx)
    expr = a[0]
    for i, ix in enumerate(idx):
        expr = f"torch.index_select({expr}, {w.inputs[0].ndim - d + i}, torch.tensor({ix}))"
    return expr


def _jax_up(w: Any, a: list[str], p: dict[str, Any]) -> str:
    d = len(p["index"])
    expr = a[0]
    for i, ix in enumerate(p["index"]):
        expr = f"jnp.take({expr}, jnp.array({list(ix)}), axis={w.inputs[0].ndim - d + i})"
    return expr


_SAMPLES = (
    ((1, 2, 3), ((0, 0, 1, 1, 2, 2),), ((0, 0, 1, 1, 2, 2),)),
    ((2, 1, 4), ((0, 2),), ((0, 2),)),
    ((1, 1, 2, 3), ((0, 0, 1), (0, 1, 1, 2, 2)), ((0, 0, 1), (0, 1, 1, 2, 2))),
    ((1, 2, 2, 2), ((0, 0, 1, 1), (0, 0, 1, 1)), ((0, 0, 1, 1), (0, 0, 1, 1))),
)

upsample_nearest = defop(
    "upsample_nearest",
    lambda x, *, index, bindex: _gather(x, index),
    _up_vjp,
    "UpsampleNearest2DBackward0",
    "scatter-add of g to the source positions",
    kind="shape",
    saves=False,  # (the rule reads sizes only, as PyTorch's node saves)
    signature="interpolate(input, size=None, scale_factor=None, mode='nearest')",
    samples=tuple(
        Sample((shape,), {"index": index, "bindex": bindex}) for shape, index, bindex in _SAMPLES
    ),
    to_torch=_torch_up,
    to_jax=_jax_up,
)
upsample_nearest_adjoint = defop(
    "upsample_nearest_adjoint",
    lambda g, *, index, bindex, size: _scatter(g, bindex, size),
    _adj_vjp,
    "UpsampleNearest2DBackwardBackward0",
    "upsample_nearest(h)",
    kind="internal",
    saves=False,  # (the rule reads sizes only, as PyTorch's node saves)
    samples=tuple(
        Sample(
            (shape[: len(shape) - len(index)] + tuple(len(i) for i in index),),
            {"index": index, "bindex": bindex, "size": shape[len(shape) - len(index) :]},
        )
        for shape, index, bindex in _SAMPLES
    ),
)


# --- linear and cubic interpolation -----------------------------------------------------------
#
# F.interpolate's modes linear / bilinear / trilinear / bicubic as ATen's CPU kernels compute
# them (UpSampleKernel.cpp, UpSampleMoreKernel.cpp, UpSampleBicubic2d.cpp). Along each spatial
# axis every output position reads `k` source positions (2 for linear, 4 for cubic) with
# weights; the surface computes both as ATen does (`interp_taps`) and they are params of the
# record, so the forward and its adjoint are fixed sums in ATen's order:
#
# - "generic" (every mode but small bilinear): the last axis is interpolated first, then each
#   earlier axis combines the results, `fma(t0, w0, t1 * w1)`, then `fma(tj, wj, s)` for the
#   further taps of cubic (the kernel is compiled with contraction);
# - "cl" (bilinear with output height + width <= 128, or 3 channels: ATen's channels-last
#   kernel, which PyTorch picks for small images): four corner weights `hl * wl`, summed as
#   `fma(v11, w11, fma(v10, w10, fma(v00, w00, v01 * w01)))` for the channels past the last
#   full vector of 8 (float32) or 4 (float64) lanes (256 bits), and from the far corner
#   (`fma(v00, w00, fma(v01, w01, fma(v11, w11, v10 * w10)))`) in those vectors.
#
# The adjoint accumulates, output positions in row-major order, each source's share into its
# gradient with one rounding (fma): for linear modes the weight is the product of the axes'
# weights (`(wd * wh) * ww`) times g; for cubic `(g * wy) * wx`, x taps outer, y taps inner.

_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}


def _fma(a: np.ndarray, b: Any, c: np.ndarray) -> np.ndarray:
    """a * b + c with one rounding, in the dtype of `c`."""
    from ..core.fma64 import _fma64
    from .linalg import _fma32

    if c.dtype == np.float32:
        return _fma32(np.asarray(a, np.float64) * np.asarray(b, np.float64), c)
    return _fma64(a, b, c)


def _fma_v(a: Any, b: Any, c: Any, dt: Any) -> np.ndarray:
    """a * b + c with one rounding in `dt`, elementwise over arrays (or numbers)."""
    a, b, c = np.broadcast_arrays(np.asarray(a, dt), np.asarray(b, dt), np.asarray(c, dt))
    return np.asarray(_fma(a, b, np.array(c, dt)), dt)


def _src_index(scale: Any, i: np.ndarray, align: bool, dt: Any, fused: bool, cubic: bool) -> Any:
    """ATen's area_pixel_compute_source_index in the op's type for output positions `i`:
    `scale * i` when aligning corners, else `scale * (i + 0.5) - 0.5` (one fma, or two
    roundings, as the kernel was compiled); below zero is 0 except for cubic."""
    if align:
        return (scale * i.astype(dt)).astype(dt)
    half = (i + 0.5).astype(dt)
    if fused:
        r = _fma_v(scale, half, -0.5, dt)
    else:
        r = ((scale * half).astype(dt) - dt(0.5)).astype(dt)
    return r if cubic else np.where(r < 0, dt(0), r).astype(dt)


def _axis_scale(n_in: int, n_out: int, align: bool, factor: float | None, dt: Any) -> Any:
    """ATen's area_pixel_compute_scale: (in - 1) / (out - 1) when aligning corners (0 for one
    output), else 1 / scale_factor when one is given, else in / out."""
    if align:
        return dt(dt(n_in - 1) / dt(n_out - 1)) if n_out > 1 else dt(0)
    if factor is not None and factor > 0:
        return dt(1.0 / factor)
    return dt(dt(n_in) / dt(n_out))


def _cubic_coefficients(t: np.ndarray, dt: Any, fused: bool) -> tuple:
    """ATen's get_cubic_upsample_coefficients (A = -0.75) in the op's type, its polynomials
    evaluated as the kernel was compiled (measured against PyTorch 2.13): in the forward's
    weights the inner `u * x + c` steps are one fma each, the last multiplication and
    constant apart; in the backward every step is rounded."""
    a = dt(-0.75)

    def f(u: Any, x: np.ndarray, c: Any) -> np.ndarray:
        if not fused:
            return ((u * x).astype(dt) + dt(c)).astype(dt)
        return _fma_v(u, x, c, dt)

    def conv1(x: np.ndarray) -> np.ndarray:  # ((a + 2) x - (a + 3)) x x + 1
        return ((f(dt(a + 2), x, -dt(a + 3)) * x).astype(dt) * x + dt(1)).astype(dt)

    def conv2(x: np.ndarray) -> np.ndarray:  # ((a x - 5a) x + 8a) x - 4a
        return ((f(f(a, x, -dt(5 * a)), x, dt(8 * a)) * x).astype(dt) - dt(4 * a)).astype(dt)

    one = dt(1.0)
    x2 = (one - t).astype(dt)
    return (conv2((t + one).astype(dt)), conv1(t), conv1(x2), conv2((x2 + one).astype(dt)))


def interp_taps(
    n_in: int,
    n_out: int,
    cubic: bool,
    align: bool,
    factor: float | None,
    dtype: Any,
    fused: bool = True,
) -> tuple:
    """One axis's taps: (source positions, weights), one tuple of 2 (linear) or 4 (cubic)
    per output position, computed as ATen computes them for `dtype` (float32 or float64):
    `fused` as the forward kernels (the source index and the cubic polynomials with fma),
    else as the bicubic backward (each step rounded)."""
    dt = np.float64 if np.dtype(dtype) == np.float64 else np.float32
    i = np.arange(n_out)
    if not cubic and n_in == n_out:
        index = np.stack([i, i], 1)
        weights = np.stack([np.ones(n_out), np.zeros(n_out)], 1)
        return (_tuples(index), _tuples(weights))
    scale = _axis_scale(n_in, n_out, align, factor, dt)
    r = _src_index(scale, i, align, dt, fused, cubic)
    # ATen's guard_index_and_lambda: floorf of the index as a float32, even for float64
    i0 = np.minimum(np.floor(r.astype(np.float32)).astype(np.int64), n_in - 1)
    lam = np.clip((r - i0.astype(dt)).astype(dt), dt(0), dt(1)).astype(dt)
    if cubic:
        coeffs = _cubic_coefficients(lam, dt, fused)
        index = np.stack([np.clip(i0 + j - 1, 0, n_in - 1) for j in range(4)], 1)
        weights = np.stack([c.astype(np.float64) for c in coeffs], 1)
    else:
        index = np.stack([i0, i0 + (i0 < n_in - 1)], 1)
        weights = np.stack([(dt(1) - lam).astype(dt).astype(np.float64), lam.astype(np.float64)], 1)
    return (_tuples(index), _tuples(weights))


def _tuples(a: np.ndarray) -> tuple:
    return tuple(tuple(row) for row in a.tolist())


def _combine(parts: list, ws: list) -> np.ndarray:
    """The generic kernel's sum of one axis's taps (`parts[j]` weighted by `ws[j]`):
    `fma(t0, w0, t1 * w1)`, then `fma(tj, wj, s)` for the further taps of cubic."""
    s = _fma(parts[0], ws[0], parts[1] * ws[1])
    for p, w in zip(parts[2:], ws[2:]):
        s = _fma(p, w, s)
    return s


def _interp(x: np.ndarray, taps: tuple, kernel: str) -> np.ndarray:
    dt = x.dtype.type
    d = len(taps)
    if kernel == "cl":
        return _interp_cl(x, taps)
    out = x
    for axis in reversed(range(d)):
        index, weights = taps[axis]
        ax = x.ndim - d + axis
        idx = np.asarray(index, dtype=np.int64)
        wts = np.asarray(weights, dtype=dt)
        shape = [1] * x.ndim
        shape[ax] = len(index)
        parts = [np.take(out, idx[:, j], axis=ax) for j in range(idx.shape[1])]
        ws = [wts[:, j].reshape(shape) for j in range(idx.shape[1])]
        out = _combine(parts, ws).astype(dt)
    return np.ascontiguousarray(out)


def _interp_cl(x: np.ndarray, taps: tuple) -> np.ndarray:
    dt = x.dtype.type
    (hi, hw), (wi, ww) = taps
    hi, wi = np.asarray(hi, np.int64), np.asarray(wi, np.int64)
    hw, ww = np.asarray(hw, dt), np.asarray(ww, dt)
    corners = []
    for a in (0, 1):
        for b in (0, 1):
            v = x[..., hi[:, a][:, None], wi[:, b][None, :]]
            w = (hw[:, a][:, None] * ww[:, b][None, :]).astype(dt)
            corners.append((v, w))
    c = x.shape[1] if x.ndim == 4 else 1
    cut = c - c % _LANES[x.dtype]
    (v0, w0), (v1, w1), (v2, w2), (v3, w3) = corners
    tail = _fma(v3, w3, _fma(v2, w2, _fma(v0, w0, v1 * w1)))
    if cut == 0:
        return np.ascontiguousarray(tail.astype(dt))
    lanes = _fma(v0, w0, _fma(v1, w1, _fma(v3, w3, v2 * w2)))
    out = tail.astype(dt)
    out[:, :cut] = lanes[:, :cut]
    return np.ascontiguousarray(out)


def _contributions(taps: tuple, cubic: bool, n_in: tuple) -> tuple:
    """Every (output position, source position, weights) share in the adjoint's order, as
    flat indices and the factors the kernel multiplies: linear, the product of the axes'
    weights; cubic, (y weight, x weight)."""
    d = len(taps)
    n_out = tuple(len(t[0]) for t in taps)
    k = len(taps[0][0][0]) if taps[0][0] else 2
    out_pos = np.indices(n_out).reshape(d, -1)  # row-major output positions
    n = out_pos.shape[1]
    if cubic:
        # x taps (last axis) outer, y taps inner
        (yi, yw), (xi, xw) = taps
        yi, xi = np.asarray(yi, np.int64), np.asarray(xi, np.int64)
        yw, xw = np.asarray(yw), np.asarray(xw)
        oy, ox = out_pos
        ii, jj = np.meshgrid(np.arange(k), np.arange(k), indexing="ij")
        ii, jj = ii.reshape(-1), jj.reshape(-1)
        ty = yi[oy][:, jj]
        tx = xi[ox][:, ii]
        fy = yw[oy][:, jj]
        fx = xw[ox][:, ii]
        tgt = ty * n_in[1] + tx
        src = np.repeat(np.arange(n), k * k).reshape(n, k * k)
        return tgt.reshape(-1), src.reshape(-1), fy.reshape(-1), fx.reshape(-1), n_in
    corners = np.indices((2,) * d).reshape(d, -1)  # binary order, last axis fastest
    tgt = np.zeros((n, corners.shape[1]), np.int64)
    fac = []
    for a in range(d):
        idx = np.asarray(taps[a][0], np.int64)[out_pos[a]][:, corners[a]]
        tgt = tgt * n_in[a] + idx
        fac.append(np.asarray(taps[a][1])[out_pos[a]][:, corners[a]])
    src = np.repeat(np.arange(n), corners.shape[1]).reshape(n, -1)
    return tgt.reshape(-1), src.reshape(-1), [f.reshape(-1) for f in fac], None, n_in


def _interp_adjoint(g: np.ndarray, taps: tuple, cubic: bool, size: tuple) -> np.ndarray:
    dt = g.dtype.type
    d = len(taps)
    lead = g.shape[: g.ndim - d]
    rows = int(np.prod(lead, dtype=np.int64)) if lead else 1
    g2 = g.reshape(rows, -1)
    n_in_total = int(np.prod(size, dtype=np.int64))
    acc = np.zeros((rows, n_in_total), dtype=g.dtype)
    if tuple(len(t[0]) for t in taps) == tuple(size) and cubic:
        return g.copy()  # ATen's special case: the same size is a copy
    tgt, src, fa, fb, _ = _contributions(taps, cubic, tuple(size))
    if tgt.size == 0:
        return acc.reshape(lead + tuple(size))
    if cubic:
        wa, wb = np.asarray(fa, dt), np.asarray(fb, dt)
    else:
        w = np.asarray(fa[0], dt)
        for f in fa[1:]:
            w = (w * np.asarray(f, dt)).astype(dt)
    order = np.argsort(tgt, kind="stable")
    st = tgt[order]
    first = np.r_[0, np.flatnonzero(np.diff(st)) + 1]
    rank = np.empty_like(order)
    counts = np.diff(np.r_[first, st.size])
    rank[order] = np.arange(st.size) - np.repeat(first, counts)
    for r in range(int(rank.max()) + 1):
        sel = np.flatnonzero(rank == r)
        t, s = tgt[sel], src[sel]
        if cubic:
            gy = (g2[:, s] * wa[sel]).astype(dt)
            acc[:, t] = acc[:, t] + (gy * wb[sel]).astype(dt)
        else:
            acc[:, t] = _fma(w[sel], g2[:, s], acc[:, t])
    return acc.reshape(lead + tuple(size))


def _interp_vjp(
    g: Tensor, out: Tensor, x: Tensor, taps: tuple, btaps: tuple, kernel: str, cubic: bool
) -> tuple:
    size = tuple(x.shape[x.ndim - len(taps) :])
    return (
        apply(
            upsample_interp_adjoint,
            g,
            taps=taps,
            btaps=btaps,
            kernel=kernel,
            cubic=cubic,
            size=size,
        ),
    )


def _interp_adj_vjp(
    h: Tensor,
    out: Tensor,
    g: Tensor,
    taps: tuple,
    btaps: tuple,
    kernel: str,
    cubic: bool,
    size: tuple,
) -> tuple:
    return (apply(upsample_interp, h, taps=taps, btaps=btaps, kernel=kernel, cubic=cubic),)


def _interp_samples() -> tuple:
    s = []
    for shape, sizes, cubic, align in (
        ((1, 2, 3), (5,), False, False),
        ((2, 1, 5), (3,), False, True),
        ((1, 2, 3, 4), (5, 3), False, False),
        ((1, 1, 2, 3), (4, 5), True, False),
        ((1, 1, 3, 3), (2, 4), True, True),
        ((1, 1, 2, 2, 3), (3, 2, 4), False, False),
    ):
        taps = tuple(
            interp_taps(n, o, cubic, align, None, np.float64) for n, o in zip(shape[2:], sizes)
        )
        btaps = tuple(
            interp_taps(n, o, cubic, align, None, np.float64, not cubic)
            for n, o in zip(shape[2:], sizes)
        )
        params = {"taps": taps, "btaps": btaps, "kernel": "generic", "cubic": cubic}
        s.append(Sample((shape,), params))
    taps = tuple(interp_taps(n, o, False, False, None, np.float64) for n, o in ((3, 5), (2, 3)))
    params = {"taps": taps, "btaps": taps, "kernel": "cl", "cubic": False}
    s.append(Sample(((1, 3, 3, 2),), params))
    return tuple(s)


def _dense(taps: tuple, sizes: tuple) -> list:
    """Each axis's weights as a dense (outputs x inputs) list of lists, for export."""
    mats = []
    for (index, weights), n_in in zip(taps, sizes):
        m = np.zeros((len(index), n_in))
        for o, (ii, ww) in enumerate(zip(index, weights)):
            for i, v in zip(ii, ww):
                m[o, i] += v
        mats.append(m.tolist())
    return mats


def _export_interp(w: Any, a: list[str], p: dict[str, Any], lib: str) -> str:
    """The interpolation as products with each axis's weights (the same numbers; the order of
    the sums is the library's)."""
    x = w.inputs[0]
    d = len(p["taps"])
    dtype = f"{lib}.{np.dtype(x.dtype).name}"
    expr = a[0]
    for i, m in enumerate(_dense(p["taps"], x.shape[x.ndim - d :])):
        ax = x.ndim - d + i
        if lib == "torch":
            mat = f"torch.tensor({m!r}, dtype={dtype})"
            expr = f"torch.movedim(torch.tensordot({expr}, {mat}, dims=([{ax}], [1])), -1, {ax})"
        else:
            mat = f"jnp.array({m!r}, dtype={dtype})"
            expr = f"jnp.moveaxis(jnp.tensordot({expr}, {mat}, axes=([{ax}], [1])), -1, {ax})"
    return expr


def _sym_interp(x: Any, taps: tuple, sizes: tuple, adjoint: bool) -> Any:
    """The interpolation (or its adjoint) on an object array of sympy expressions: each
    axis's dense weights applied in turn."""
    d = len(taps)
    r = np.asarray(x, dtype=object)
    for i, m in enumerate(_dense(taps, sizes)):
        ax = r.ndim - d + i
        mat = np.asarray(m, dtype=object)
        r = np.moveaxis(np.tensordot(r, mat, axes=([ax], [0 if adjoint else 1])), -1, ax)
    return r


_INTERP_SAMPLES = LazySamples(_interp_samples)  # (made when tests read them)

upsample_interp = defop(
    "upsample_interp",
    lambda x, *, taps, btaps, kernel, cubic: _interp(x, taps, kernel),
    _interp_vjp,
    "UpsampleBilinear2DBackward0",
    "the adjoint: each output's gradient added to its sources, weighted",
    kind="shape",
    saves=False,  # (the rule reads sizes only, as PyTorch's node saves)
    signature="interpolate(input, size=None, scale_factor=None, mode='bilinear')",
    samples=_INTERP_SAMPLES,
    sym=lambda sp, x, *, taps, btaps, kernel, cubic: _sym_interp(
        x, taps, np.shape(x)[np.ndim(x) - len(taps) :], False
    ),
    to_torch=lambda w, a, p: _export_interp(w, a, p, "torch"),
    to_jax=lambda w, a, p: _export_interp(w, a, p, "jnp"),
)
upsample_interp_adjoint = defop(
    "upsample_interp_adjoint",
    lambda g, *, taps, btaps, kernel, cubic, size: _interp_adjoint(g, btaps, cubic, size),
    _interp_adj_vjp,
    "UpsampleBilinear2DBackwardBackward0",
    "upsample_interp(h)",
    kind="internal",
    saves=False,  # (the rule reads sizes only, as PyTorch's node saves)
    sym=lambda sp, g, *, taps, btaps, kernel, cubic, size: _sym_interp(g, btaps, size, True),
    samples=LazySamples(
        lambda: tuple(
            Sample(
                (s.shapes[0][:2] + tuple(len(t[0]) for t in s.params["taps"]),),
                dict(s.params, size=s.shapes[0][2:]),
            )
            for s in _INTERP_SAMPLES
        )
    ),
)


# --- adaptive average pooling (ATen's AdaptiveAvgPoolKernel.cpp) -----------------------------
#
# Output cell i of an axis of n inputs and o outputs averages inputs floor(i n / o) up to
# ceil((i + 1) n / o): windows overlap when o does not divide n. ATen's kernel sums each window
# from zero in its own dtype, row-major, then divides by each of the window's sizes in order;
# its backward adds g / k0 / k1 (/ k2) into every input of the window, the windows row-major.


def adaptive_windows(n: int, o: int) -> tuple[np.ndarray, np.ndarray]:
    """(start, size) of the o windows of an axis of n inputs."""
    i = np.arange(o)
    start = (i * n) // o
    return start, -(-((i + 1) * n) // o) - start


def _adaptive_fwd(x: np.ndarray, *, out: tuple) -> np.ndarray:
    d = len(out)
    wins = [adaptive_windows(n, o) for n, o in zip(x.shape[x.ndim - d :], out)]
    lead = x.shape[: x.ndim - d]
    acc = np.zeros(lead + tuple(out), x.dtype)
    if 0 in out or x.size == 0:
        return acc
    # the windows' k-th elements added together, k in each window's row-major order (windows
    # with fewer elements along an axis skip the offsets past their size)
    ranges = [range(int(w[1].max())) for w in wins]
    with np.errstate(all="ignore"):
        for offs in np.ndindex(*[len(r) for r in ranges]):
            idx, valid = [], np.ones(tuple(out), bool)
            for ax, (k, (start, size)) in enumerate(zip(offs, wins)):
                idx.append(np.minimum(start + k, x.shape[x.ndim - d + ax] - 1))
                shape = [1] * d
                shape[ax] = -1
                valid = valid & (k < size).reshape(shape)
            v = x[(...,) + tuple(np.ix_(*idx))]
            acc = np.where(valid, acc + v, acc)
        for ax, (_, size) in enumerate(wins):
            shape = [1] * d
            shape[ax] = -1
            acc = acc / size.reshape(shape).astype(x.dtype)
    return acc.astype(x.dtype)


def _adaptive_bwd(g: np.ndarray, *, size: tuple) -> np.ndarray:
    d = len(size)
    out = g.shape[g.ndim - d :]
    wins = [adaptive_windows(n, o) for n, o in zip(size, out)]
    res = np.zeros(g.shape[: g.ndim - d] + tuple(size), g.dtype)
    if 0 in out or res.size == 0:
        return res
    with np.errstate(all="ignore"):
        delta = g
        for ax, (_, k) in enumerate(wins):
            shape = [1] * d
            shape[ax] = -1
            delta = delta / k.reshape(shape).astype(g.dtype)
        delta = delta.astype(g.dtype)
        for cell in np.ndindex(*out):
            sl = tuple(slice(int(w[0][c]), int(w[0][c] + w[1][c])) for c, w in zip(cell, wins))
            res[(...,) + sl] += delta[(...,) + cell][(...,) + (None,) * d]
    return res


def _adaptive_vjp(g: Tensor, out: Tensor, x: Tensor, *, out_size: tuple = ()) -> tuple:
    size = tuple(x.shape[x.ndim - len(out_size) :])
    label = f"AdaptiveAvgPool{len(size)}DBackwardBackward0"
    return (apply(adaptive_avg_pool_backward, g, x, size=size, label=label),)


def _adaptive_bwd_vjp(h: Tensor, out: Tensor, g: Tensor, x: Tensor, *, size: tuple) -> tuple:
    # derivatives.yaml: grad_output's is the pooling of the gradient, to grad_output's sizes;
    # self's (the input, saved for its shape) zeros
    o = tuple(g.shape[g.ndim - len(size) :])
    label = f"AdaptiveAvgPool{len(o)}DBackward0"
    lead = h.shape[: h.ndim - out.ndim]
    zeros = Tensor(np.zeros(lead + x.shape, x.dtype))
    return (apply(adaptive_avg_pool, h, out_size=o, label=label), zeros)


def _sym_adaptive(sp: Any, x: Any, *, out_size: tuple) -> Any:
    d = len(out_size)
    wins = [adaptive_windows(n, o) for n, o in zip(x.shape[x.ndim - d :], out_size)]
    res = np.empty(x.shape[: x.ndim - d] + tuple(out_size), dtype=object)
    for idx in np.ndindex(*res.shape):
        cell = idx[res.ndim - d :]
        sl = tuple(slice(int(w[0][c]), int(w[0][c] + w[1][c])) for c, w in zip(cell, wins))
        block = x[idx[: res.ndim - d] + sl]
        res[idx] = sp.Add(*block.reshape(-1)) / block.size
    return res


def _torch_adaptive(w: Any, a: list[str], p: dict[str, Any]) -> str:
    o = tuple(p["out_size"])
    return f"torch.nn.functional.adaptive_avg_pool{len(o)}d({a[0]}, {w.lit(list(o))})"


def _jax_adaptive(w: Any, a: list[str], p: dict[str, Any]) -> str:
    # each pooled dim as a product with its averaging matrix (ATen's windows: floor(i n / o)
    # to ceil((i + 1) n / o)); the sizes are fixed, so the matrices are written out
    o = tuple(p["out_size"])
    shape = w.inputs[0].shape
    expr = a[0]
    for k, m in enumerate(o):
        ax = len(shape) - len(o) + k
        n = shape[ax]
        cols = [[0.0] * m for _ in range(n)]
        for i in range(m):
            lo, hi = (i * n) // m, -(-((i + 1) * n) // m)
            for j in range(lo, hi):
                cols[j][i] = 1.0 / (hi - lo)
        expr = (
            f"jnp.moveaxis(jnp.tensordot({expr}, jnp.array({cols!r}, dtype={a[0]}.dtype), "
            f"axes=([{ax}], [0])), -1, {ax})"
        )
    return expr


adaptive_avg_pool = defop(
    "adaptive_avg_pool",
    lambda x, *, out_size: _adaptive_fwd(x, out=tuple(out_size)),
    _adaptive_vjp,
    "AdaptiveAvgPool2DBackward0",
    "g / k0 / k1 added into each window's inputs, the windows row-major",
    kind="shape",
    saves=False,
    signature="adaptive_avg_pool2d(input, output_size)",
    sym=_sym_adaptive,
    samples=(
        Sample(((1, 2, 5, 7),), {"out_size": (3, 4)}),
        Sample(((2, 4, 4),), {"out_size": (3, 3)}),
        Sample(((1, 1, 3, 5, 4),), {"out_size": (2, 3, 3)}),
    ),
    to_torch=_torch_adaptive,
    to_jax=_jax_adaptive,
)
adaptive_avg_pool_backward = defop(
    "adaptive_avg_pool_backward",
    lambda g, x, *, size: _adaptive_bwd(g, size=tuple(size)),
    _adaptive_bwd_vjp,
    "AdaptiveAvgPool2DBackwardBackward0",
    "adaptive_avg_pool(h) to g's sizes",
    kind="internal",
    saves=False,
    samples=(
        Sample(((1, 2, 3, 4), (1, 2, 5, 7)), {"size": (5, 7)}),
        Sample(((2, 3, 3), (2, 4, 4)), {"size": (4, 4)}),
    ),
)
