"""The record of renorm (float32, float64 and float16; a bfloat16 input stays a composition
in the surface): each slice along `dim` whose p-norm (over all the other dims) exceeds
maxnorm is scaled by maxnorm / (norm + 1e-7), in the input's precision:

    norm = ||x||_p over the other dims (kept),  y = x * where(norm > maxnorm,
    maxnorm / (norm + 1e-7), 1)

The gradient is PyTorch's renorm_backward in its order and its precision: the norm again in
the accumulation type (double for a float32 input on the CPU, float for half), the products
x * g in the input's dtype summed in that type, the norm's own backward (norm_backward) on
them, then

    inv = 1 / (norm + 1e-7),  dx = where(norm > maxnorm, ((maxnorm * inv) * (g - inv * nb))
    rounded to g's dtype, g)

composed of the records' own operations, so a recorded gradient (create_graph=True) is
differentiable again."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.op import Sample, apply, defop
from ..core.tensor import Tensor, constant
from .binary import where
from .reduction import _norm_fwd
from .reduction import norm as norm_op
from .reduction import sum as sum_op
from .shape import astype

_F64 = np.dtype(np.float64)


def _others(ndim: int, dim: int) -> tuple[int, ...]:
    return tuple(i for i in range(ndim) if i != dim)


def _acc(dtype: np.dtype) -> np.dtype:
    """The backward's accumulation type on the CPU: double for float32 and float64, float
    for half."""
    return np.dtype(np.float32) if dtype == np.float16 else _F64


def _forward(x: np.ndarray, p: float, dim: int, maxnorm: float) -> np.ndarray:
    # a half input: the norm and the factor in float (ATen's CUDA-style accumulation type,
    # which renorm uses on the CPU too), the factor rounded to half, the product in half
    wide = x.astype(np.float32) if x.dtype == np.float16 else x
    norm = _norm_fwd(wide, p, _others(x.ndim, dim), True)
    t = wide.dtype.type
    with np.errstate(all="ignore"):
        factor = np.where(norm > t(maxnorm), t(maxnorm) / (norm + t(1e-7)), t(1))
        return np.asarray(x * factor.astype(x.dtype), x.dtype)


def _norm_backward(go: Tensor, x: Tensor, p: float, norm: Tensor, dims: tuple) -> Tensor:
    """PyTorch's norm_backward with keepdim (go and norm in the accumulation type, x in its
    own): the gradient of the p-norm, 0 where the norm is 0."""
    sgn = constant(np.sign(x.data))
    at_zero = Tensor(np.broadcast_to(norm.data == 0, norm.shape))
    nought = Tensor(np.zeros((), norm.dtype))
    if p == 1:
        return sgn * go
    if p == 2:
        safe = norm + Tensor(np.where(norm.data == 0, 1.0, 0.0).astype(norm.dtype))
        return go * apply(where, at_zero, nought, x / safe)
    if p == math.inf:
        a = np.abs(x.data)
        mask = (a == norm.data) | np.isnan(a)
        count = np.sum(mask, axis=dims, keepdims=True)
        return sgn * ((go / constant(count.astype(go.dtype))) * constant(mask.astype(x.dtype)))
    if p < 1:
        x_nought = Tensor(np.zeros((), x.dtype))
        scaled = sgn * apply(where, Tensor(x.data == 0), x_nought, x.abs() ** (p - 1))
        return scaled * go * norm ** (1 - p)
    scaled = sgn * x.abs() ** (p - 1) if p < 2 else x * x.abs() ** (p - 2)
    safe = norm + Tensor(np.where(norm.data == 0, 1.0, 0.0).astype(norm.dtype))
    return scaled * apply(where, at_zero, nought, go / safe ** (p - 1))


def _vjp(g: Tensor, out: Tensor, x: Tensor, p: float, dim: int, maxnorm: float) -> tuple:
    lead = g.ndim - x.ndim  # (upstream gradients stacked in front: a batched pass)
    dims = _others(x.ndim, dim)
    acc = _acc(x.dtype)
    wide = apply(astype, x, dtype=acc) if x.dtype != acc else x
    norm = apply(norm_op, wide, p=p, dim=dims, keepdim=True)
    prod = x * g
    if prod.dtype != acc:
        prod = apply(astype, prod, dtype=acc)
    go = apply(sum_op, prod, dim=tuple(lead + d for d in dims), keepdim=True)
    nb = _norm_backward(go, x, p, norm, dims)
    inv = 1 / (norm + 1e-7)
    scaled = (inv * maxnorm) * (g - inv * nb)
    if scaled.dtype != g.dtype:
        scaled = apply(astype, scaled, dtype=g.dtype)
    big = Tensor(np.broadcast_to(norm.data > maxnorm, g.shape))
    return (apply(where, big, scaled, g),)


def _sym(sp: Any, x: Any, p: float, dim: int, maxnorm: float) -> Any:
    """Each slice along `dim` times maxnorm / (norm + 1e-7) where its p-norm exceeds maxnorm."""
    moved = np.moveaxis(x, dim, 0)
    rows = moved.reshape(moved.shape[0], -1)
    out = np.empty(rows.shape, dtype=object)
    for i, row in enumerate(rows):
        norm = sp.Add(*[sp.Abs(v) ** p for v in row]) ** (1 / p)
        factor = sp.Piecewise((maxnorm / (norm + 1e-7), norm > maxnorm), (1, True))
        out[i] = [v * factor for v in row]
    return np.moveaxis(out.reshape(moved.shape), 0, dim)


def _to_jax(w: Any, a: list[str], p: dict[str, Any]) -> str:
    dim, maxnorm = p["dim"], w.lit(p["maxnorm"])
    norm = (
        f"jnp.linalg.norm(jnp.moveaxis({a[0]}, {dim}, 0).reshape({a[0]}.shape[{dim}], -1), "
        f"ord={w.lit(p['p'])}, axis=1)"
    )
    shape = f"(-1,) + (1,) * ({a[0]}.ndim - 1)"
    factor = f"jnp.where({norm} > {maxnorm}, {maxnorm} / ({norm} + 1e-7), 1.0)"
    return f"{a[0]} * jnp.moveaxis({factor}.reshape({shape}), 0, {dim})"


def _to_torch(w: Any, a: list[str], p: dict[str, Any]) -> str:
    return f"torch.renorm({a[0]}, {w.lit(p['p'])}, {p['dim']}, {w.lit(p['maxnorm'])})"


renorm = defop(
    "renorm",
    _forward,
    _vjp,
    "RenormBackward0",
    "where(norm > maxnorm, maxnorm / (norm + 1e-7) * (g - x * d(norm) . g / (norm + 1e-7)), g)",
    kind="reduction",
    signature="renorm(x, p, dim, maxnorm)",
    samples=(
        Sample(((3, 4),), {"p": 2.0, "dim": 0, "maxnorm": 0.5}),
        Sample(((2, 3, 2),), {"p": 1.0, "dim": 1, "maxnorm": 0.7}, avoid=(0.0,)),
        Sample(((4, 3),), {"p": 3.0, "dim": 1, "maxnorm": 0.5}, avoid=(0.0,)),
        Sample(((3, 5),), {"p": 1.5, "dim": 0, "maxnorm": 0.4}, avoid=(0.0,)),
    ),
    sym=_sym,
    to_torch=_to_torch,
    to_jax=_to_jax,
)
