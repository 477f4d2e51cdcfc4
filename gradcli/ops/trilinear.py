"""The record of F.bilinear's product (ATen's `_trilinear` as `bilinear` calls it): x (N, I),
W (O, I, J), z (N, J) to y (N, O), y[n, o] = sum_ij x[n, i] W[o, i, j] z[n, j].

float32 bits are ATen's: `_trilinear` unrolls the output features, and for each one k
multiplies by batched matrix products (`sumproduct_pair`, each a bmm: the records' matmul
forward, which follows ATen's kernels by layout), the result added to zeros:

    y[:, k] = 0 + bmm(bmm(x[None], W[k][None]).reshape(N, 1, J), z.reshape(N, J, 1))

Its backward is `_trilinear_backward`, three more `_trilinear` calls in the same manner:

    dx = sum over k in order of bmm(g[:, k] * W[k] (N, I, J), z (N, J, 1))
    dW[k] = 0 + bmm((x * g[:, k])^T (1, I, N), z (1, N, J))
    dz = sum over k in order of bmm(x[None], W[k][None]) * g[:, k]

A recorded gradient (create_graph=True) is the same formula in the records' own operations
(differentiable again; its last bits may differ from ATen's there)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.op import Sample, apply, defop
from ..core.tensor import Tensor, grad_enabled
from .linalg import _matmul_record as _bmm


def _forward(x: np.ndarray, w: np.ndarray, z: np.ndarray) -> np.ndarray:
    n, o, j = x.shape[0], w.shape[0], w.shape[2]
    out = np.zeros((n, o), np.result_type(x, w, z))
    zero = out.dtype.type(0)
    zc = z.reshape(n, j, 1)
    for k in range(o):
        buf = _bmm(x[None], w[k][None]).reshape(n, 1, j)
        out[:, k] = zero + _bmm(buf, zc).reshape(n)
    return out


def _grads(g: np.ndarray, x: np.ndarray, w: np.ndarray, z: np.ndarray) -> tuple:
    n, i = x.shape
    o, _, j = w.shape
    dt = np.result_type(g, x, w, z)
    dx = np.zeros((n, i), dt)
    dw = np.zeros((o, i, j), dt)
    dz = np.zeros((n, j), dt)
    zc, zr = z.reshape(n, j, 1), z[None]
    with np.errstate(all="ignore"):
        for k in range(o):
            gk = g[:, k]
            dx = dx + _bmm(gk[:, None, None] * w[k][None], zc).reshape(n, i)
            left = (x * gk[:, None]).T[None]  # (1, I, N): a transposed view, as ATen's permute
            dw[k] = dt.type(0) + _bmm(left, zr)[0]
            dz = dz + _bmm(x[None], w[k][None]).reshape(n, j) * gk[:, None]
    return dx, dw, dz


def _vjp(g: Tensor, out: Tensor, x: Tensor, w: Tensor, z: Tensor) -> tuple:
    if not grad_enabled() and g.shape == out.shape:
        dx, dw, dz = _grads(g.data, x.data, w.data, z.data)
        return Tensor(dx), Tensor(dw), Tensor(dz)
    from .reduction import sum as sum_op
    from .shape import reshape_to

    lead = g.shape[: g.ndim - 2]
    n, i = x.shape
    o, _, j = w.shape
    ge = reshape_to(g, lead + (n, o, 1, 1))
    xe = reshape_to(x, (n, 1, i, 1))
    ze = reshape_to(z, (n, 1, 1, j))
    b = len(lead)
    dx = apply(sum_op, ge * w * ze, dim=(b + 1, b + 3), keepdim=False)
    dw = apply(sum_op, ge * xe * ze, dim=(b,), keepdim=False)
    dz = apply(sum_op, ge * xe * w, dim=(b + 1, b + 2), keepdim=False)
    return dx, dw, dz


def _sym(sp: Any, x: Any, w: Any, z: Any) -> Any:
    return np.einsum("ni,oij,nj->no", x, w, z)


bilinear_product = defop(
    "bilinear_product",
    _forward,
    _vjp,
    "TrilinearBackward0",
    "g[n,o] W[o,i,j] z[n,j] summed over o, j; g x z summed over n; g x W summed over o, i",
    sym=_sym,
    kind="linalg",
    signature="bilinear_product(x, W, z)",
    to_torch="torch.einsum('ni,oij,nj->no', {0}, {1}, {2})",
    to_jax="jnp.einsum('ni,oij,nj->no', {0}, {1}, {2})",
    samples=(
        Sample(((3, 2), (4, 2, 3), (3, 3))),
        Sample(((1, 4), (2, 4, 1), (1, 1))),
    ),
)
