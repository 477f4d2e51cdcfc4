"""Cumulative (scan) records along one dim: cumsum, cumprod, logcumsumexp.

Each takes `dim` as a non-negative int (a 0-d input has the one "axis" 0 and is returned as
it is). Rules see `g` with leading batch axes, so they name the axis counted from the end
(`from_end`). cummax / cummin select elements (their values are a gather at the running
extreme's index: `surface.statistics`), so they need no record of their own.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..core import primitives as P
from ..core.op import REGISTRY, Sample, apply, defop
from ..core.primitives import from_end
from ..core.tensor import Tensor, _GradMode, constant, grad_enabled
from . import binary as B
from . import shape as S


def _along(x: np.ndarray, dim: int, reverse: bool, f: Any) -> np.ndarray:
    if x.ndim == 0:
        return np.array(x, copy=True)
    # row-major whatever x's layout, as ATen allocates a scan's result
    if not reverse:
        return np.asarray(f(x, dim), order="C")
    return np.asarray(np.flip(f(np.flip(x, dim), dim), dim), order="C")


# --- cumsum ------------------------------------------------------------------------------------


def _running(dtype: Any = None) -> Any:
    # ATen's running sum starts from 0 and adds each element (NumPy's starts from the first
    # element): a leading -0.0 is +0.0 in PyTorch (`torch.tensor([-0.0, -1.0]).cumsum(0)` is
    # [0., -1.]), and a sum never returns to -0.0 after it.
    if dtype is None:
        return lambda a, d: np.cumsum(a, axis=d) + a.dtype.type(0)
    return lambda a, d: np.cumsum(a, axis=d, dtype=dtype) + dtype(0)


def _cumsum_fwd(x: np.ndarray, dim: int, reverse: bool = False) -> np.ndarray:
    if x.dtype == np.float32:
        # ATen's cumsum runs its sum in double for float32 and rounds each output once
        # (measured: PyTorch 2.13's float32 cumsum is exactly this).
        return _along(x, dim, reverse, _running(np.float64)).astype(np.float32)
    if x.dtype == np.float16:
        # a half cumsum accumulates in float (ATen's acc_type), each output rounded once
        with np.errstate(over="ignore"):
            return _along(x, dim, reverse, _running(np.float32)).astype(np.float16)
    if x.dtype == np.complex64:
        # (its accumulate type is complex<double>, as float32's is double)
        return _along(x, dim, reverse, _running(np.complex128)).astype(np.complex64)
    if x.dtype.kind in "fc":
        return _along(x, dim, reverse, _running())
    return _along(x, dim, reverse, lambda a, d: np.cumsum(a, axis=d))


def _cumsum_vjp(g: Tensor, out: Tensor, x: Tensor, dim: int, reverse: bool = False) -> tuple:
    if x.ndim == 0:
        return (g,)
    d = from_end(dim, x.ndim)
    if not reverse and (x.data.size <= 1 or x.shape[dim] == 1):
        # PyTorch's cumsum_backward returns the gradient itself (a -0.0 stays -0.0; recorded,
        # its own node)
        return (g,)
    if not reverse and grad_enabled():
        # recorded (create_graph): PyTorch's reversed_cumsum, grad.flip(dim).cumsum(dim)
        # .flip(dim), three nodes (FlipBackward0 last); the same sums as the running sum from
        # the other end
        tail = (slice(None),) * (-d - 1)

        def flip(t: Tensor) -> Tensor:
            return apply(
                S.index, t, idx=(Ellipsis, slice(None, None, -1)) + tail, label="FlipBackward0"
            )

        return (flip(apply(cumsum, flip(g), dim=d)),)
    # The transpose of a running sum is the running sum from the other end.
    return (apply(cumsum, g, dim=d, reverse=not reverse),)


def _cumsum_jvp(dots: tuple, out: Tensor, x: Tensor, dim: int, reverse: bool = False) -> Any:
    (d,) = dots
    if d is None or x.ndim == 0:
        return d
    return apply(cumsum, d, dim=from_end(dim, x.ndim), reverse=reverse)


def _sym_along(x: np.ndarray, dim: int, reverse: bool, step: Any) -> np.ndarray:
    """A scan of an object array of sympy expressions: out[k] = step(out[k-1], x[k])."""
    if x.ndim == 0:
        return x.copy()

    def scan(a: np.ndarray, d: int) -> np.ndarray:
        moved = np.moveaxis(a, d, -1).copy()
        for k in range(1, moved.shape[-1]):
            for i in np.ndindex(moved.shape[:-1]):
                moved[i + (k,)] = step(moved[i + (k - 1,)], moved[i + (k,)])
        return np.moveaxis(moved, -1, d)

    return _along(x, dim, reverse, scan)


_SCAN_SHAPES = (
    ((4,), 0),
    ((2, 3), 1),
    ((2, 3), 0),
    ((2, 3, 4), 2),
    ((2, 3, 4), 1),
    ((), 0),
    ((1,), 0),
)


def _jax_scan(fn: str) -> Callable[..., str]:
    """Export text: a running sum / product / logsumexp along one axis in jax.numpy (a 0-d
    input is its own scan)."""

    def text(w: Any, a: list[str], p: dict[str, Any]) -> str:
        if w.inputs[0].ndim == 0:
            return a[0]
        d = int(p["dim"])
        if p.get("reverse"):
            return f"jnp.flip({fn}(jnp.flip({a[0]}, {d}), axis={d}), {d})"
        return f"{fn}({a[0]}, axis={d})"

    return text


cumsum = defop(
    "cumsum",
    _cumsum_fwd,
    _cumsum_vjp,
    "CumsumBackward0",
    "the running sum of g from the other end",
    kind="reduction",
    saves=False,
    jvp=_cumsum_jvp,
    sym=lambda sp, x, dim, reverse=False: _sym_along(x, dim, reverse, lambda a, b: a + b),
    signature="cumsum(x, dim)",
    complex="rule",  # (the rule and its tangent are running sums of complex values as they are)
    samples=tuple(Sample((s,), {"dim": d}) for s, d in _SCAN_SHAPES)
    + (Sample(((2, 3),), {"dim": 1, "reverse": True}),),
    to_torch=lambda w, a, p: (
        f"{a[0]}.flip({p['dim']}).cumsum({p['dim']}).flip({p['dim']})"
        if p.get("reverse")
        else f"torch.cumsum({a[0]}, dim={p['dim']})"
    ),
    to_jax=_jax_scan("jnp.cumsum"),
)


# --- cumprod -----------------------------------------------------------------------------------


def _positions(shape: tuple[int, ...], dim: int) -> np.ndarray:
    """0, 1, ..., n-1 along `dim`, shaped to broadcast against an array of `shape`."""
    dim %= len(shape)
    return np.arange(shape[dim]).reshape([-1 if i == dim else 1 for i in range(len(shape))])


def _cumprod_zero_parts(x: np.ndarray, out: np.ndarray, dim: int) -> tuple:
    """The constants of cumprod's gradient where x has zeros. With z the first zero of a slice:
    for k < z, dx_k = (sum_{j>=k} g_j out_j) / x_k (out_j = 0 from z on); for k = z,
    dx_z = out_{z-1} * sum_{j>=z} g_j prod_{z<i<=j} x_i; for k > z, dx_k = 0 (every product
    that holds x_k also holds x_z = 0). Returns (before, at, tail): dx = before *
    rev_cumsum(g out) + at * sum(g * tail)."""
    n = x.shape[dim]
    k = _positions(x.shape, dim)
    is_zero = x == 0
    has = np.any(is_zero, axis=dim, keepdims=True)
    z = np.where(has, np.argmax(is_zero, axis=dim, keepdims=True), n)
    with np.errstate(divide="ignore", invalid="ignore"):
        before = np.where(k < z, 1.0 / np.where(k < z, x, 1), 0).astype(x.dtype)
    prev = np.take_along_axis(out, np.clip(z - 1, 0, n - 1), axis=dim)
    prefix = np.where(z == 0, 1, prev)
    at = np.where(k == z, prefix, 0).astype(x.dtype)
    after = np.where(k > z, x, 1).astype(x.dtype)
    tail = np.where(k >= z, np.cumprod(after, axis=dim), 0).astype(x.dtype)
    return before, at, tail


def _cumprod_vjp(g: Tensor, out: Tensor, x: Tensor, dim: int) -> tuple:
    if x.ndim == 0:
        return (g,)
    if x.data.dtype.kind == "c":
        # PyTorch's complex cumprod_backward: the same formulas of input.conj() and
        # result.conj()
        from .complexnum import conj

        x, out = apply(conj, x), apply(conj, out)
    d = from_end(dim, x.ndim)
    zeros = bool(np.any(x.data == 0))
    if (zeros and grad_enabled()) or _GradMode.transforms:
        # a backward that records (to be differentiated again): ATen's form of recorded
        # operations, exact at the zeros to any order; inside a torch.func transform always
        # (ATen's cumprod_backward takes functorch's wrappers as tensor subclasses: other last
        # bits than the quotient)
        return (_cumprod_zeros_recorded(g, x, d),)
    running = apply(cumsum, g * out, dim=d, reverse=True)
    if not zeros:
        return (running / x,)
    # At a zero, out / x is 0/0: the exact gradient from constants.
    before, at, tail = _cumprod_zero_parts(x.data, out.data, dim)
    summed = apply(P.sum, g * constant(tail), dim=d % g.ndim, keepdim=True, label="SumBackward1")
    return (running * constant(before) + summed * constant(at),)


def exclusive_cumprod(x: Tensor, d: int, reverse: bool = False) -> Tensor:
    """The product of the elements before each one along `d` (a negative dim), or of those
    after it with `reverse`, 1 for the first, as recorded operations (ATen's
    prod_safe_zeros_backward builds the product of the others from the two)."""
    tail = (slice(None),) * (-d - 1)
    flip = (Ellipsis, slice(None, None, -1)) + tail
    src = apply(S.index, x, idx=flip) if reverse else x
    head = apply(S.index, src, idx=(Ellipsis, slice(0, x.shape[d] - 1)) + tail)
    ones = list(x.shape)
    ones[d] = 1
    c = apply(cumprod, apply(S.cat, constant(np.ones(ones, x.data.dtype)), head, dim=d), dim=d)
    return apply(S.index, c, idx=flip) if reverse else c


def _cumprod_zeros_recorded(g: Tensor, x: Tensor, d: int) -> Tensor:
    """cumprod's gradient where x has zeros, from recorded operations of x so that a Hessian
    through it is exact (ATen's differentiable O(n^2) form): for each k, the sum over j >= k
    of g_j times the product of x_0..x_j but x_k, which is (prod_{i<k} x_i) * (1, x_{k+1},
    x_{k+1} x_{k+2}, ...)."""
    # (reduction's prod, by its registered name: reduction imports this module)
    prod = REGISTRY["prod"]
    n = x.shape[d]
    tail = (slice(None),) * (-d - 1)
    ones = list(x.shape)
    ones[d] = 1
    one = constant(np.ones(ones, x.data.dtype))
    parts = []
    for k in range(n):
        from_k = (Ellipsis, slice(k, n)) + tail
        omitted = one
        if k + 1 < n:
            rest = apply(S.index, x, idx=(Ellipsis, slice(k + 1, n)) + tail)
            omitted = apply(S.cat, one, apply(cumprod, rest, dim=d), dim=d)
        if k:
            # the product of those before k, a prod over them as ATen takes it (its
            # reduction's order, not a running product's)
            head = apply(S.index, x, idx=(Ellipsis, slice(0, k)) + tail)
            omitted = apply(prod, head, dim=x.ndim + d, keepdim=True) * omitted
        part = apply(S.index, g, idx=from_k) * omitted
        parts.append(apply(P.sum, part, dim=d % g.ndim, keepdim=True))
    if n == 1:
        return parts[0]
    # ATen copies each slice into a zeros tensor (CopySlices), or stacks them for tensor
    # subclasses (inside a torch.func transform)
    label = "StackBackward0" if _GradMode.transforms else "CopySlices"
    return apply(S.cat, *parts, dim=d, label=label)


def _sym_cumprod(sp: Any, x: np.ndarray, dim: int) -> np.ndarray:
    return _sym_along(x, dim, False, lambda a, b: a * b)


# ATen's CPU scan runs the product in acc_type: double for float (complex double for complex
# float), float for half; each output rounded once (measured: PyTorch 2.13's float32 cumprod is
# exactly this; a float32 running product differs in the last bits).
_CUMPROD_ACC = {
    np.dtype(np.float32): np.float64,
    np.dtype(np.float16): np.float32,
    np.dtype(np.complex64): np.complex128,
}


def _cumprod_fwd(x: np.ndarray, dim: int) -> np.ndarray:
    """(measured: PyTorch 2.13's float32 cumprod is exactly this on every one of 175,000
    outputs, on AVX-512 and AVX2 machines alike; a float32 running product differed in 4 in 10)"""
    acc = _CUMPROD_ACC.get(x.dtype)
    if acc is None:
        return _along(x, dim, False, lambda a, d: np.cumprod(a, axis=d))
    with np.errstate(over="ignore", invalid="ignore"):
        return _along(x, dim, False, lambda a, d: np.cumprod(a, axis=d, dtype=acc)).astype(x.dtype)


def _cumprod_jvp(dots: tuple, out: Tensor, x: Tensor, dim: int) -> Any:
    """PyTorch's cumprod_jvp: `(t / x).cumsum(dim) * result`, and from each slice's first zero
    on, `cumprod(where(first zero, t, x))` (the tangent in the zero's place); a 0-d x's result
    where x is 0 is t. Its quotients give the signs of zero PyTorch's forward mode has (a zero
    tangent over a negative x is -0.: the diagonal of hessian(prod) at an input with a zero),
    where the transposed gradient gave +0."""
    (d,) = dots
    if d is None:
        return None
    grad = apply(B.mul, apply(B.div, d, x), out) if x.ndim == 0 else None
    if x.ndim == 0:
        return apply(B.where, constant(x.data == 0), d, grad)
    ax = from_end(dim, x.ndim)
    grad = apply(B.mul, apply(cumsum, apply(B.div, d, x), dim=ax), out)
    zeros = x.data == 0
    if not zeros.any():
        return grad
    first = zeros & (np.cumsum(zeros, axis=dim) == 1)
    after = np.cumsum(first, axis=dim) > 0
    new = apply(cumprod, apply(B.where, constant(first), d, x), dim=ax)
    return apply(B.where, constant(after), new, grad)


cumprod = defop(
    "cumprod",
    _cumprod_fwd,
    _cumprod_vjp,
    "CumprodBackward0",
    "rev_cumsum(g * out) / x (the exact products of the others at zeros)",
    kind="reduction",
    jvp=_cumprod_jvp,
    kink="at a zero x_z of a slice the gradient is the exact product of the other factors "
    "(dx_k = 0 past the first zero), as PyTorch, and differentiable again",
    sym=_sym_cumprod,
    signature="cumprod(x, dim)",
    complex="rule",  # (PyTorch's rev_cumsum(g * conj(out)) / conj(x), zeros alike)
    samples=tuple(Sample((s,), {"dim": d}, avoid=(0.0,), gap=0.2) for s, d in _SCAN_SHAPES),
    to_torch=lambda w, a, p: f"torch.cumprod({a[0]}, dim={p['dim']})",
    to_jax=_jax_scan("jnp.cumprod"),
)


# --- logcumsumexp ------------------------------------------------------------------------------

# exp of at most this much stays finite in the dtype (with room for a sum of many terms).
_EXP_ROOM = {np.dtype(np.float32): 80.0, np.dtype(np.float64): 700.0}


# ATen's CPU kernel runs the sum in acc_type (double for float, float for half and bfloat16),
# max + log1p(exp(min - max)) each step, and rounds each output once.
_LCSE_ACC = {np.dtype(np.float32): np.float64, np.dtype(np.float16): np.float32}


def _lcse_fwd(x: np.ndarray, dim: int) -> np.ndarray:
    acc = _LCSE_ACC.get(x.dtype, x.dtype)
    wide = _along(x.astype(acc), dim, False, lambda a, d: np.logaddexp.accumulate(a, axis=d))
    # (+ 0.0: ATen's first step adds log1p(exp(-inf)) = 0 to x, so -0.0 comes out as 0.0)
    return (wide + np.zeros((), wide.dtype)).astype(x.dtype)


def _lcse_vjp(g: Tensor, out: Tensor, x: Tensor, dim: int) -> tuple:
    """PyTorch's rule (FunctionsManual's logcumsumexp_backward), in recorded operations: the
    positive and the negative parts of g each go through a reversed logcumsumexp of
    log|g| - out (the other part's entries the dtype's lowest value), plus x, exp; their
    difference is dx (which also decides the float32 bits). Complex: `_lcse_vjp_sum`."""
    if x.ndim == 0 or g.data.size == 0:
        return (g,)
    if x.dtype.kind == "c" or g.dtype.kind == "c":
        return _lcse_vjp_sum(g, out, x, dim)
    d = from_end(dim, x.ndim)
    tail = (slice(None),) * (-d - 1)

    def flip(t: Tensor) -> Tensor:
        return apply(
            S.index, t, idx=(Ellipsis, slice(None, None, -1)) + tail, label="FlipBackward0"
        )

    lowest = constant(np.array(np.finfo(g.dtype).min, dtype=g.dtype))
    log_abs = g.abs().log()
    parts = []
    for keep in (g.data > 0, g.data < 0):
        logs = apply(B.where, Tensor(keep), log_abs, lowest)
        rev = flip(apply(logcumsumexp, flip(logs - out), dim=d))
        parts.append((rev + x).exp())
    return (parts[0] - parts[1],)


def _lcse_jvp(dots: tuple, out: Tensor, x: Tensor, dim: int) -> Any:
    """PyTorch's forward formula (logcumsumexp_jvp): e = exp(x - max(x)), cumsum(e * dx) /
    (cumsum(e) + 1e-13)."""
    (d,) = dots
    if d is None or x.ndim == 0:
        return d
    dn = from_end(dim, x.ndim)
    with np.errstate(all="ignore"):
        m = constant(np.max(x.data, axis=dn, keepdims=True)) if x.data.size else constant(x.data)
    e = (x - m).exp()
    c = apply(cumsum, e, dim=dn)
    return apply(cumsum, e * d, dim=dn) / (c + 1e-13)


def _lcse_vjp_sum(g: Tensor, out: Tensor, x: Tensor, dim: int) -> tuple:
    """dx_k = sum_{j>=k} g_j exp(x_k - out_j). With m the last (largest: out only grows) value
    of out in each slice, this is exp(x - m) * rev_cumsum(g exp(m - out)): O(n), and finite
    while m - out stays within exp's range. Otherwise the terms are summed as a matrix (each
    exp(x_k - out_j) <= 1), O(n^2) per slice."""
    if x.ndim == 0:
        return (g,)
    d = from_end(dim, x.ndim)
    n = x.shape[dim]
    last = np.take(out.data, [n - 1], axis=dim) if n else out.data
    with np.errstate(all="ignore"):
        spread = last - np.take(out.data, [0], axis=dim) if n else np.zeros(())
    room = _EXP_ROOM.get(x.dtype, 80.0)
    if n == 0 or (np.all(np.isfinite(last)) and np.all(spread <= room)):
        m = constant(last)
        return ((x - m).exp() * apply(cumsum, g * (m - out).exp(), dim=d, reverse=True),)
    return (_lcse_vjp_matrix(g, out, x, dim),)


def _lcse_vjp_matrix(g: Tensor, out: Tensor, x: Tensor, dim: int) -> Tensor:
    n = x.shape[dim]
    lead = g.ndim - out.ndim
    limits.TENSOR_ELEMENTS.check(
        math.prod(g.shape[:lead] + x.shape + (n,)), "logcumsumexp's gradient matrix"
    )
    last = x.ndim - 1
    perm = tuple(i for i in range(x.ndim) if i != dim) + (dim,)
    back = tuple(int(i) for i in np.argsort(perm))
    xm = apply(S.permute, x, perm=perm)  # (..., n): k
    om = apply(S.permute, out, perm=perm)  # (..., n): j
    gm = apply(S.permute, g, perm=perm)
    rows = S.unsqueeze(om, last + 1)  # (..., n_j, 1)
    cols = S.unsqueeze(xm, last)  # (..., 1, n_k)
    keep = np.tril(np.ones((n, n), dtype=bool))  # j >= k
    minus_inf = constant(np.full((), -np.inf, dtype=x.dtype))
    w = apply(B.where, Tensor(keep), cols - rows, minus_inf).exp()  # exp(x_k - out_j), j >= k
    dx = apply(P.sum, S.unsqueeze(gm, gm.ndim) * w, dim=gm.ndim - 1, keepdim=False)
    return apply(S.permute, dx, perm=back)


def _sym_lcse(sp: Any, x: np.ndarray, dim: int) -> np.ndarray:
    if x.ndim == 0:
        return x.copy()
    ex = np.frompyfunc(sp.exp, 1, 1)(x)
    sums = _sym_along(ex, dim, False, lambda a, b: a + b)
    return np.frompyfunc(sp.log, 1, 1)(sums)


logcumsumexp = defop(
    "logcumsumexp",
    _lcse_fwd,
    _lcse_vjp,
    "LogcumsumexpBackward0",
    "dx_k = sum_{j>=k} g_j exp(x_k - out_j)",
    kind="reduction",
    jvp=_lcse_jvp,
    sym=_sym_lcse,
    signature="logcumsumexp(x, dim)",
    samples=tuple(Sample((s,), {"dim": d}) for s, d in _SCAN_SHAPES)
    + (Sample(((2, 3),), {"dim": 1}, low=-400.0, high=400.0),),
    to_torch=lambda w, a, p: f"torch.logcumsumexp({a[0]}, dim={p['dim']})",
    to_jax=_jax_scan("jax.lax.cumlogsumexp"),
)
