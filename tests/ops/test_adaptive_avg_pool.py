"""F.adaptive_avg_pool1d/2d/3d of float32 and float64 inputs are one record
(`ops.resample.adaptive_avg_pool`) computed as ATen's kernels: each window summed from zero
row-major then divided by each of its sizes; the gradient g / k0 / k1 (/ k2) added into each
window's inputs, the windows row-major (overlapping windows when the sizes do not divide).
The kernels have no vector lanes: the digests below (torch 2.13) hold on every family."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from gradcli.core.tensor import Tensor
from gradcli.surface import nnfunctional as NF

# (dtype, input shape, output size, sha256[:16] of the output, of the input's gradient)
TORCH = [
    ("float32", (2, 3, 10, 7), (3, 4), "cf194c60d7b300af", "dacffd1d1864c650"),
    ("float32", (1, 2, 14, 14), (5, 5), "6125a9e481f6fab5", "1b0843b404326937"),
    ("float32", (2, 9, 2), (4,), "72b3da995d3230fb", "ec8ff8ac82e80a35"),
    ("float32", (1, 1, 5, 7, 6), (3, 4, 4), "3595454f11e3ee1d", "0ce03b99385513fc"),
    ("float64", (2, 3, 10, 7), (3, 4), "32e1fadfef16878c", "de147af9e935b4a4"),
    ("float64", (1, 2, 14, 14), (5, 5), "5135d8ce78c9ef20", "39777cd689734f80"),
    ("float64", (2, 9, 2), (4,), "192f9a435841a75a", "91ec8dc47c61e319"),
    ("float64", (1, 1, 5, 7, 6), (3, 4, 4), "3cfbf82d5585093c", "73df1598a3d5625b"),
]


def _sha(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


def _run(dtype: str, shape: tuple, o: tuple) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng([len(shape), *o, 5])
    x = rng.standard_normal(shape).astype(dtype)
    fn = getattr(NF, f"adaptive_avg_pool{len(o)}d")
    xt = Tensor(x, requires_grad=True)
    y = fn(xt, o)
    g = rng.standard_normal(y.shape).astype(dtype)
    y.backward(Tensor(g))
    return y.numpy(), xt.grad.numpy()


@pytest.mark.parametrize("case", TORCH, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}")
def test_pytorchs_bits(case: tuple) -> None:
    dtype, shape, o, want_y, want_g = case
    y, g = _run(dtype, shape, o)
    assert (_sha(y), _sha(g)) == (want_y, want_g)


def test_the_divisions_order_tells() -> None:
    """g / (k0 * k1), or g / k1 / k0 (the composition's order before), misses recordings; so
    does a gradient 0.1% off, every one."""
    from gradcli.ops.resample import adaptive_windows

    misses = off = 0
    for dtype, shape, o, _, want_g in TORCH:
        if len(o) != 2:
            continue
        rng = np.random.default_rng([len(shape), *o, 5])
        rng.standard_normal(shape)
        g = rng.standard_normal(shape[:-2] + o).astype(dtype)
        (h0, k0), (w0, k1) = (adaptive_windows(n, m) for n, m in zip(shape[-2:], o))
        res = np.zeros(shape, dtype)
        delta = g / (k0[:, None] * k1[None, :]).astype(dtype)
        for i in range(o[0]):
            for j in range(o[1]):
                res[..., h0[i] : h0[i] + k0[i], w0[j] : w0[j] + k1[j]] += delta[
                    ..., i, j, None, None
                ]
        misses += _sha(res) != want_g
        off += _sha(_run(dtype, shape, o)[1] * np.dtype(dtype).type(1.001)) != want_g
    assert misses >= 2
    assert off == 4


def test_float64_gradient_against_finite_differences() -> None:
    rng = np.random.default_rng(2)
    x = rng.standard_normal((1, 2, 7, 5))
    g = rng.standard_normal((1, 2, 3, 4))
    xt = Tensor(x, requires_grad=True)
    NF.adaptive_avg_pool2d(xt, (3, 4)).backward(Tensor(g))
    h, num = 1e-6, np.zeros(x.shape)
    for idx in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[idx] += h
        down[idx] -= h
        f = [np.sum(NF.adaptive_avg_pool2d(Tensor(v), (3, 4)).numpy() * g) for v in (up, down)]
        num[idx] = (f[0] - f[1]) / (2 * h)
    np.testing.assert_allclose(xt.grad.numpy(), num, rtol=1e-7, atol=1e-9)
