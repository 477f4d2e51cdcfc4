"""Nearest-neighbour resampling records: `upsample_nearest` (F.interpolate / nn.Upsample with
mode='nearest') and its adjoint, each the other's gradient.

The source index of every output position along each spatial axis is computed by the surface
as PyTorch's kernel computes it (`index`: one tuple per axis) and is a parameter of the
record, so the forward is a gather and the adjoint a scatter-add in PyTorch's order (output
positions row-major, each added into its source in float32 for float32 gradients)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.op import Sample, apply, defop
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


def _up_vjp(g: Tensor, out: Tensor, x: Tensor, index: tuple) -> tuple:
    size = tuple(x.shape[x.ndim - len(index) :])
    return (apply(upsample_nearest_adjoint, g, index=index, size=size),)


def _adj_vjp(h: Tensor, out: Tensor, g: Tensor, index: tuple, size: tuple) -> tuple:
    return (apply(upsample_nearest, h, index=index),)


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
    ((1, 2, 3), ((0, 0, 1, 1, 2, 2),)),
    ((2, 1, 4), ((0, 2),)),
    ((1, 1, 2, 3), ((0, 0, 1), (0, 1, 1, 2, 2))),
    ((1, 2, 2, 2), ((0, 0, 1, 1), (0, 0, 1, 1))),
)

upsample_nearest = defop(
    "upsample_nearest",
    lambda x, *, index: _gather(x, index),
    _up_vjp,
    "UpsampleNearest2DBackward0",
    "scatter-add of g to the source positions",
    kind="shape",
    signature="interpolate(input, size=None, scale_factor=None, mode='nearest')",
    samples=tuple(Sample((shape,), {"index": index}) for shape, index in _SAMPLES),
    to_torch=_torch_up,
    to_jax=_jax_up,
)
upsample_nearest_adjoint = defop(
    "upsample_nearest_adjoint",
    lambda g, *, index, size: _scatter(g, index, size),
    _adj_vjp,
    "UpsampleNearest2DBackwardBackward0",
    "upsample_nearest(h)",
    kind="internal",
    samples=tuple(
        Sample(
            (shape[: len(shape) - len(index)] + tuple(len(i) for i in index),),
            {"index": index, "size": shape[len(shape) - len(index) :]},
        )
        for shape, index in _SAMPLES
    ),
)
