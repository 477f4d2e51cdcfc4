"""The record of batch_norm: each channel (dim 1) of x normalised by the batch's mean and
population variance (eps added) in training, by the running mean and variance (two more
inputs, constants) in evaluation, times weight, plus bias (either may be absent: then a
constant stands in and `has_w` / `has_b` say so). Updating the running statistics is the
surface's business (`F.batch_norm` does it beside this record).

Values are PyTorch's CPU kernel's, to the bit in float32 (its order of sums, its fused
multiply-adds); float32 first-order gradients are its backward kernel's (`norm32`); other
dtypes, and gradients that are recorded (create_graph=True) or batched, are the formula in the
records' own operations:

    xhat = (x - mean) / sqrt(var + eps)
    dx = (gy - mean(gy) - xhat * mean(gy * xhat)) / sqrt(var + eps),  gy = g * weight
    dweight = sum(g * xhat),  dbias = sum(g)   (means and sums over every dim but 1)

and in evaluation xhat = (x - running_mean) / sqrt(running_var + eps), dx = gy / sqrt(...).
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from ..core.op import Sample, apply, defop
from ..core.tensor import Tensor, grad_enabled
from . import norm32, norm64
from .reduction import mean as mean_op
from .reduction import sum as sum_op
from .shape import reshape_to

# Past this many values a channel, the float accumulators' sequential fused order (one NumPy
# step per value) gives way to the double order below (they differ by rounding only).
_SEQUENTIAL_ROWS = 4096


def fma(a: np.ndarray, b: np.ndarray, c: np.ndarray, dt: np.dtype) -> np.ndarray:
    """`a * b + c` rounded once, as the fused multiply-add of PyTorch's AVX2 kernel: for
    float32 the product is exact in float64; for float64 `norm64.fma` (the plain product was
    an ulp off, visible in a printed float64 output)."""
    if dt == np.float32:
        return (a.astype(np.float64) * b + c).astype(np.float32)
    if dt == np.float64:
        return norm64.fma(a, b, c)
    return a * b + c


def batch_stats(xm: np.ndarray, image_size: int) -> tuple[np.ndarray, np.ndarray]:
    """Per channel (the rows of `xm`) the mean and the sum of squared deviations, added in
    the order of PyTorch's CPU kernel with one thread: the values of a channel one after the
    other in double (float32 accumulators, the squares fused, when each image is a single
    value: that input is treated as channels-last)."""
    dt = xm.dtype
    n = xm.shape[1]
    if image_size == 1 and n <= _SEQUENTIAL_ROWS:
        total = np.cumsum(xm, axis=1, dtype=dt)[:, -1]
        mean = (total.astype(np.float64) / n).astype(dt)
        dev = xm - mean[:, None]
        acc = np.zeros(xm.shape[0], dt)
        for j in range(n):  # a sequential fused accumulation: no NumPy reduction has it
            acc = fma(dev[:, j], dev[:, j], acc, dt)
        return mean, acc
    total = np.cumsum(xm, axis=1, dtype=np.float64)[:, -1]
    mean = (total / n).astype(dt)
    dev = xm - mean[:, None]
    return mean, np.cumsum(dev * dev, axis=1, dtype=np.float64)[:, -1].astype(dt)


# The last input's statistics: a training step needs them three times (the forward's value,
# the running statistics' update, the backward kernel, which PyTorch gives the forward's saved
# mean and invstd), and for an (N, C) input they are a loop over the N rows. Kept with a copy
# of the values they are of: an array changed in place since is computed again.
_LAST: list[Any] = [None, None, None]  # [a weak reference to the array, a copy, the stats]


def channel_stats(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per channel of x (dim 1) the batch's mean and sum of squared deviations."""
    ref, seen, got = _LAST
    if ref is not None and ref() is x and np.array_equal(x, seen):
        return got
    c = x.shape[1]
    got = batch_stats(np.moveaxis(x, 1, 0).reshape(c, -1), x.size // (c * x.shape[0]))
    _LAST[:] = [weakref.ref(x), x.copy(), got]
    return got


def saved_stats(x: np.ndarray, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """The per-channel mean and invstd PyTorch's training forward saves."""
    dt = x.dtype
    size = x.size // x.shape[1]
    mean, var_sum = channel_stats(x)
    with np.errstate(all="ignore"):
        invstd = (1.0 / np.sqrt(np.asarray(var_sum / dt.type(size), np.float64) + eps)).astype(dt)
    return mean, invstd


def affine_value(
    x: np.ndarray, mean: np.ndarray, invstd: np.ndarray, w: np.ndarray | None, b: np.ndarray | None
) -> np.ndarray:
    """The kernel's output: x * alpha + beta per channel, both fused (alpha = invstd * w,
    beta = b - mean * alpha)."""
    dt = x.dtype
    c = x.shape[1]
    per = (1, c) + (1,) * (x.ndim - 2)
    alpha = invstd * (w.reshape(c).astype(dt) if w is not None else dt.type(1))
    shift = b.reshape(c).astype(dt) if b is not None else np.zeros(c, dt)
    with np.errstate(all="ignore"):
        beta = fma(-mean, alpha, shift, dt)
        return fma(x, alpha.reshape(per), beta.reshape(per), dt)


def running_stats(x: np.ndarray, rm: np.ndarray, rv: np.ndarray, eps: float, kernel: bool):
    """The per-channel mean and invstd evaluation uses: the forward kernel's invstd in the
    tensor's dtype, the backward kernel's (`kernel`) from a double sqrt."""
    dt = x.dtype
    c = x.shape[1]
    mean = rm.reshape(c).astype(dt)
    with np.errstate(all="ignore"):
        if kernel:
            return mean, (1.0 / np.sqrt(rv.reshape(c).astype(np.float64) + eps)).astype(dt)
        return mean, (dt.type(1) / np.sqrt(rv.reshape(c).astype(dt) + dt.type(eps))).astype(dt)


def _forward(
    x: np.ndarray,
    w: np.ndarray,
    b: np.ndarray,
    *stats: np.ndarray,
    eps: float,
    has_w: bool,
    has_b: bool,
    training: bool = True,
) -> np.ndarray:
    if training:
        mean, invstd = saved_stats(x, eps)
    else:
        mean, invstd = running_stats(x, *stats, eps, kernel=False)
    return affine_value(x, mean, invstd, w if has_w else None, b if has_b else None)


def _contiguous(a: np.ndarray) -> bool:
    # (an expanded gradient, strides 0, is not: PyTorch's generic loop then)
    return a.flags.c_contiguous


def _vjp(
    g: Tensor,
    out: Tensor,
    x: Tensor,
    w: Tensor,
    b: Tensor,
    *stats: Tensor,
    eps: float,
    has_w: bool,
    has_b: bool,
    training: bool = True,
) -> tuple:
    none = (None,) * len(stats)  # the running statistics: constants
    if (
        not grad_enabled()
        and g.shape == x.shape
        and g.dtype == x.dtype == w.dtype == np.float32
        and x.data.size
    ):
        if training:
            mean, invstd = saved_stats(x.data, eps)
        else:
            mean, invstd = running_stats(x.data, *(t.data for t in stats), eps, kernel=True)
        dx, gw, gb = norm32.batch_norm_backward(
            g.data,
            x.data,
            mean,
            invstd,
            w.data if has_w else None,
            _contiguous(g.data) and _contiguous(x.data),
            training,
        )
        return (
            Tensor(dx),
            Tensor(gw.reshape(w.shape)) if has_w and w.requires_grad else None,
            Tensor(gb.reshape(b.shape)) if has_b and b.requires_grad else None,
            *none,
        )
    nb = g.ndim - x.ndim
    dims_x = (0,) + tuple(range(2, x.ndim))
    dims_g = tuple(d + nb for d in dims_x)
    per = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    gy = g * reshape_to(w, per) if has_w else g
    if training:
        c = x - apply(mean_op, x, dim=dims_x, keepdim=True)
        s = (apply(mean_op, c * c, dim=dims_x, keepdim=True) + eps).sqrt()
        xhat = c / s
        dx = (
            gy
            - apply(mean_op, gy, dim=dims_g, keepdim=True)
            - xhat * apply(mean_op, gy * xhat, dim=dims_g, keepdim=True)
        ) / s
    else:
        rm, rv = (reshape_to(t.detach(), per) for t in stats)
        s = (rv + eps).sqrt()
        xhat = (x - rm) / s
        dx = gy / s
    return (
        dx,
        apply(sum_op, g * xhat, dim=dims_g) if has_w and w.requires_grad else None,
        apply(sum_op, g, dim=dims_g) if has_b and b.requires_grad else None,
        *none,
    )


def _sym(
    sp: Any,
    x: Any,
    w: Any,
    b: Any,
    *stats: Any,
    eps: float,
    has_w: bool,
    has_b: bool,
    training: bool = True,
) -> Any:
    """The sympy form, on object arrays of expressions."""
    dims = (0,) + tuple(range(2, x.ndim))
    per = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    given = None if training else (stats[0].reshape(per), stats[1].reshape(per))
    y = norm32.sym_normalized(sp, x, dims, eps, given)
    w, b = (w.reshape(per) if has_w else w), (b.reshape(per) if has_b else b)
    return norm32.sym_affine(y, w, b, has_w, has_b)


def _to_torch(wr: Any, a: list[str], p: dict[str, Any]) -> str:
    weight = a[1] if p["has_w"] else "None"
    bias = a[2] if p["has_b"] else "None"
    stats = "None, None" if p.get("training", True) else f"{a[3]}, {a[4]}"
    training = p.get("training", True)
    return f"F.batch_norm({a[0]}, {stats}, {weight}, {bias}, {training}, eps={wr.lit(p['eps'])})"


def _to_jax(wr: Any, a: list[str], p: dict[str, Any]) -> str:
    x = a[0]
    axes = f"(0,) + tuple(range(2, {x}.ndim))"
    per = f"(1, {x}.shape[1]) + (1,) * ({x}.ndim - 2)"
    eps = wr.lit(float(p["eps"]))
    if p.get("training", True):
        y = (
            f"(({x} - jnp.mean({x}, axis={axes}, keepdims=True)) / jnp.sqrt(jnp.var({x}, "
            f"axis={axes}, keepdims=True) + {eps}))"
        )
    else:
        y = f"(({x} - {a[3]}.reshape({per})) / jnp.sqrt({a[4]}.reshape({per}) + {eps}))"
    if p["has_w"]:
        y = f"{y} * {a[1]}.reshape({per})"
    if p["has_b"]:
        y = f"{y} + {a[2]}.reshape({per})"
    return y


def _params(
    eps: float = 1e-5, has_w: bool = True, has_b: bool = True, training: bool = True
) -> dict[str, Any]:
    return {"eps": eps, "has_w": has_w, "has_b": has_b, "training": training}


batch_norm = defop(
    "batch_norm",
    _forward,
    _vjp,
    "NativeBatchNormBackward0",
    "(g*w - mean(g*w) - xhat * mean(g*w * xhat)) / sqrt(var + eps), sum(g * xhat), sum(g)",
    kind="reduction",
    # (PyTorch's node saves the input, the weight and, in evaluation, the running statistics:
    # not its output, which a ReLU(inplace=True) after it may change)
    reads=lambda p: (False, frozenset({0, 1} if p.get("training", True) else {0, 1, 3, 4})),
    sym=_sym,
    signature="batch_norm(x, running_mean, running_var, weight, bias, training, eps=1e-05)",
    samples=(
        Sample(((4, 3), (3,), (3,)), _params()),
        Sample(((2, 3, 4), (3,), (3,)), _params(0.1)),
        Sample(((2, 2, 2, 3), (2,), (2,)), _params(1e-3, True, False)),
        Sample(
            ((3, 2), (2,), (2,)),
            _params(1e-3, False, False),
            fixed={1: np.ones(2), 2: np.zeros(2)},
        ),
        Sample(
            ((4, 3), (3,), (3,), (3,), (3,)),
            _params(training=False),
            fixed={3: np.array([0.1, -0.2, 0.3]), 4: np.array([0.5, 1.5, 2.0])},
        ),
        Sample(
            ((2, 2, 3), (2,), (2,), (2,), (2,)),
            _params(0.01, True, False, training=False),
            fixed={3: np.array([0.5, -1.0]), 4: np.array([0.8, 1.2])},
        ),
    ),
    to_torch=_to_torch,
    to_jax=_to_jax,
)
