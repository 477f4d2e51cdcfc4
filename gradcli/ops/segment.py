"""`torch.segment_reduce` (lengths along the first axis): ATen's CPU kernel, each segment
reduced element after element in the data's dtype (sum, mean = sum / length, prod, max and min
propagating NaN), empty segments given `initial` or the reduction's identity (NaN for mean),
and its backward as ATen's `_segment_reduce_backward` computes it (ties of max / min share a
positive gradient, a zero or NaN factor of prod gets the product of the others). That
backward has no derivative in PyTorch. A module of its own: imported when a program uses it."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError
from ..core import dual
from ..core.op import Sample, apply, defop
from ..core.tensor import Tensor, grad_enabled

_IDENTITY = {"max": -np.inf, "min": np.inf, "sum": 0.0, "mean": 0.0, "prod": 1.0}


def _starts(lengths: tuple) -> list[int]:
    out, at = [], 0
    for n in lengths:
        out.append(at)
        at += n
    return out


def _segment_fwd(
    data: np.ndarray,
    lengths: tuple = (),
    reduce: str = "sum",
    initial: Any = None,
    axis: int = 0,
) -> np.ndarray:
    """The reduction along `axis`; for axis > 0 `lengths` holds one row of lengths for each
    index of the dimensions before it (in C order)."""
    if axis == 0:
        return _fwd1(data, lengths, reduce, initial)
    flat = data.reshape((-1,) + data.shape[axis:])
    parts = [_fwd1(flat[o], row, reduce, initial) for o, row in enumerate(lengths)]
    return np.stack(parts).reshape(data.shape[:axis] + parts[0].shape)


def _fwd1(data: np.ndarray, lengths: tuple, reduce: str, initial: Any) -> np.ndarray:
    T = data.dtype.type
    out = np.empty((len(lengths),) + data.shape[1:], data.dtype)
    for i, (start, n) in enumerate(zip(_starts(lengths), lengths)):
        limits.BUDGET.tick()
        acc = np.full(data.shape[1:], T(_IDENTITY[reduce] if initial is None else initial))
        with np.errstate(all="ignore"):
            for j in range(start, start + n):
                v = data[j]
                if reduce == "max":
                    acc = np.where(np.isnan(v), v, np.where(acc < v, v, acc))
                elif reduce == "min":
                    acc = np.where(np.isnan(v), v, np.where(v < acc, v, acc))
                elif reduce == "prod":
                    acc = acc * v
                else:
                    acc = acc + v
            if reduce == "mean":
                if n == 0 and initial is None:
                    acc = np.full_like(acc, T(np.nan))
                elif n > 0:
                    acc = np.where(np.isnan(acc), acc, acc / T(n))
        out[i] = acc
    return out


def _segment_grad(
    g: np.ndarray,
    data: np.ndarray,
    lengths: tuple = (),
    reduce: str = "sum",
    initial: Any = None,
    axis: int = 0,
) -> np.ndarray:
    """ATen's `_segment_reduce_backward` of the gradient `g` (leading batch axes allowed)."""
    if axis == 0:
        return _grad1(g, data, lengths, reduce, initial)
    g = np.asarray(g, data.dtype)
    outer = data.shape[:axis]
    count = int(np.prod(outer))
    lead = g.shape[: g.ndim - data.ndim]
    gflat = g.reshape(lead + (count,) + g.shape[len(lead) + axis :])
    flat = data.reshape((count,) + data.shape[axis:])
    parts = [
        _grad1(
            gflat[(Ellipsis, o) + (slice(None),) * (flat.ndim - 1)], flat[o], row, reduce, initial
        )
        for o, row in enumerate(lengths)
    ]
    return np.stack(parts, axis=len(lead)).reshape(lead + data.shape)


def _grad1(
    g: np.ndarray, data: np.ndarray, lengths: tuple, reduce: str, initial: Any
) -> np.ndarray:
    out = _fwd1(data, lengths, reduce, initial)
    g = np.asarray(g, data.dtype)
    lead = g.shape[: g.ndim - out.ndim]
    res = np.zeros(lead + data.shape, data.dtype)
    T = data.dtype.type
    with np.errstate(all="ignore"):
        for i, (start, n) in enumerate(zip(_starts(lengths), lengths)):
            limits.BUDGET.tick()
            if n == 0:
                continue
            gi = g[(Ellipsis, i) + (slice(None),) * (data.ndim - 1)]
            seg = data[start : start + n]
            if reduce in ("max", "min"):
                hit = np.isnan(seg) | (seg == out[i])
                count = hit.sum(axis=0)
                vals = np.where(hit, np.expand_dims(gi, axis=len(lead)), T(0))
                vals = np.where((count >= 2) & (vals > 0), vals / count.astype(data.dtype), vals)
            elif reduce == "mean":
                vals = np.broadcast_to(np.expand_dims(gi / T(n), axis=len(lead)), lead + seg.shape)
            elif reduce == "sum":
                vals = np.broadcast_to(np.expand_dims(gi, axis=len(lead)), lead + seg.shape)
            else:
                gv = gi * out[i]
                vals = np.expand_dims(gv, axis=len(lead)) / seg
                first = T(1 if initial is None else initial)
                special = np.isnan(seg) | (seg == 0)
                if special.any():
                    for j in range(n):
                        if not special[j].any():
                            continue
                        excl = np.full(seg.shape[1:], first)
                        for k in range(n):
                            if k != j:
                                excl = excl * seg[k]
                        alt = gi * excl
                        vals[(Ellipsis, j) + (slice(None),) * (data.ndim - 1)] = np.where(
                            special[j], alt, vals[(Ellipsis, j) + (slice(None),) * (data.ndim - 1)]
                        )
            res[(Ellipsis, slice(start, start + n)) + (slice(None),) * (data.ndim - 1)] = vals
    return res


def _segment_vjp(
    g: Tensor,
    out: Tensor,
    data: Tensor,
    lengths: tuple = (),
    reduce: str = "sum",
    initial: Any = None,
    axis: int = 0,
) -> tuple:
    p = {"lengths": lengths, "reduce": reduce, "initial": initial, "axis": axis}
    if grad_enabled():
        # create_graph=True: PyTorch's gradient is recorded but has no derivative itself
        return (apply(segment_reduce_backward, g, data, **p),)
    return (Tensor(_segment_grad(g.data, data.data, **p)),)


def _no_double(g: Tensor, out: Tensor, *inputs: Tensor, **params: Any) -> tuple:
    raise GradcliError("derivative for aten::_segment_reduce_backward is not implemented")


def _no_closed_form(sp: Any, *args: Any, **params: Any) -> Any:
    raise TypeError("segment_reduce has no closed form here (a reduction per segment)")


def _no_jax(w: Any, a: list[str], p: dict[str, Any]) -> str:
    from ..base.errors import NotSupported

    raise NotSupported(
        "gradcli export --to jax does not write segment_reduce", hint="export --to torch"
    )


_SAMPLES = (
    {"lengths": (2, 0, 3), "reduce": "sum"},
    {"lengths": (1, 4), "reduce": "mean"},
    {"lengths": (3, 2), "reduce": "prod"},
    {"lengths": (2, 3), "reduce": "max"},
    {"lengths": (4, 1), "reduce": "min", "initial": 0.5},
    {"lengths": ((2, 0), (1, 1), (0, 2), (2, 0), (1, 1)), "reduce": "prod", "axis": 1},
)


def _torch(w: Any, a: list[str], p: dict[str, Any]) -> str:
    init = "" if p.get("initial") is None else f", initial={w.lit(p['initial'])}"
    rows = [list(r) if isinstance(r, tuple) else r for r in p["lengths"]]
    return (
        f"torch.segment_reduce({a[0]}, {w.lit(p['reduce'])}, "
        f"lengths=torch.tensor({w.lit(rows)}), axis={p.get('axis', 0)}{init})"
    )


segment_reduce = defop(
    "segment_reduce",
    _segment_fwd,
    _segment_vjp,
    "SegmentReduceBackward0",
    "g to each element of its segment (mean: g / length; prod: g out / x; max, min: g to the "
    "ties, a positive g shared)",
    kind="reduction",
    sym=_no_closed_form,
    signature="segment_reduce(data, reduce, lengths=..., initial=None)",
    samples=tuple(
        Sample(((5, 2),), p, distinct=p["reduce"] in ("max", "min"), hessian=False)
        for p in _SAMPLES
    ),
    to_torch=_torch,
    to_jax=_no_jax,
)

segment_reduce_backward = defop(
    "segment_reduce_backward",
    lambda g, x, **p: _segment_grad(g, x, **p),
    _no_double,
    "torch::autograd::NotImplemented",
    "segment_reduce's gradient (PyTorch has no derivative of it)",
    kind="internal",
    sym=_no_closed_form,
    saves=False,
    # (both inputs fixed: the record has no derivative, as PyTorch's)
    samples=(
        Sample(
            ((3, 2), (5, 2)),
            _SAMPLES[0],
            fixed={
                0: np.linspace(-1.0, 1.5, 6).reshape(3, 2),
                1: np.linspace(0.5, 2.0, 10).reshape(5, 2),
            },
            hessian=False,
        ),
    ),
    to_torch=lambda w, a, p: (
        f"torch.ops.aten._segment_reduce_backward({a[0]}, "
        f"torch.segment_reduce({a[1]}, {w.lit(p['reduce'])}, "
        f"lengths=torch.tensor({w.lit(list(p['lengths']))})), {a[1]}, {w.lit(p['reduce'])}, "
        f"lengths=torch.tensor({w.lit(list(p['lengths']))}))"
    ),
    to_jax=_no_jax,
)

# PyTorch has no forward-mode formula for it: a dual tensor fails in its words
dual.NO_FORWARD_AD["segment_reduce"] = "segment_reduce"
