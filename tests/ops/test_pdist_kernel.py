"""F.pdist with p = 1, 2 or inf is one record whose forward and backward follow ATen's
kernels (`ops.matrices.pdist`): the distances by `vec::map2_reduce_all` (whole vectors
added lane by lane, the lanes folded: float's as a butterfly, double's left to right), the
gradient of each row as the pairs' terms taken away then added in ATen's order. The digests
below are of torch 2.13's results on an AVX2 processor (gradcli's `avx2` family: 8 float or
4 double lanes), for the inputs of `_inputs`."""

from __future__ import annotations

import hashlib
import math

import numpy as np
import pytest

from gradcli.core import cpu
from gradcli.core.tensor import Tensor
from gradcli.surface.extras import pdist

# (dtype, n, m, p, sha256[:16] of the distances, of the input's gradient)
TORCH = [
    ("float32", 4, 3, 1.0, "b3949a64e448712d", "04ff0135556c92f0"),
    ("float32", 4, 3, 2.0, "8760dc9e283683e9", "4401ca32329d963d"),
    ("float32", 4, 3, math.inf, "edb6c883630f937f", "1aed438a3b4c1f65"),
    ("float32", 5, 11, 1.0, "de30b6c84380854d", "67d95a028d97f42d"),
    ("float32", 5, 11, 2.0, "edb1acb2d843b291", "d27a46e23a89b1fb"),
    ("float32", 5, 11, math.inf, "c487f2acb253976a", "431fd163ced895a4"),
    ("float32", 7, 20, 1.0, "66ecee767e2f9c9c", "8c11539ca0da16db"),
    ("float32", 7, 20, 2.0, "e1bd1289ab786408", "6a4496d6bdb51c92"),
    ("float32", 7, 20, math.inf, "25bc4ede23af3156", "4d7089b37fba5b8b"),
    ("float32", 3, 37, 1.0, "2cd2185de158f6e9", "2835b333f725b985"),
    ("float32", 3, 37, 2.0, "47be0eb4d0498c7d", "cf170344cf5bf37e"),
    ("float32", 3, 37, math.inf, "aed349848401e8a9", "e27155b158a9bced"),
    ("float64", 4, 3, 1.0, "98d41d1e0d8970a7", "002ca25eb1d8822d"),
    ("float64", 4, 3, 2.0, "0fc94a6df295ce32", "10a7d5a57444e82a"),
    ("float64", 4, 3, math.inf, "76e814db898c9063", "38629ca26e18e1a4"),
    ("float64", 5, 11, 1.0, "edbf222d57822215", "cfe2780a0c84be58"),
    ("float64", 5, 11, 2.0, "a393bfa68ddb6dd4", "762c485e9da7904f"),
    ("float64", 5, 11, math.inf, "12b5296b239c56e0", "fd14865a0fbc0c74"),
    ("float64", 7, 20, 1.0, "6cc00e8b7b58a0a2", "6a74689314515b9b"),
    ("float64", 7, 20, 2.0, "9018a38731cfdc64", "bf8f88fe66e0c1a7"),
    ("float64", 7, 20, math.inf, "a8480c2550f6e4a4", "3989d824d8d04b5e"),
    ("float64", 3, 37, 1.0, "d6a8131727a4f1d6", "96448081fb491c4c"),
    ("float64", 3, 37, 2.0, "dc2186dddcccf4b8", "5198cc2d406a8ae0"),
    ("float64", 3, 37, math.inf, "361f6cd085543b60", "fb38666b2371ece7"),
]


def _sha(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


def _inputs(dtype: str, n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng([n, m, 7])
    x = rng.standard_normal((n, m)).astype(dtype)
    g = rng.standard_normal(n * (n - 1) // 2).astype(dtype)
    return x, g


def _run(dtype: str, n: int, m: int, p: float) -> tuple[np.ndarray, np.ndarray]:
    x, g = _inputs(dtype, n, m)
    xt = Tensor(x, requires_grad=True)
    d = pdist(xt, p)
    d.backward(Tensor(g))
    return d.numpy(), xt.grad.numpy()


@pytest.mark.parametrize("case", TORCH, ids=lambda c: f"{c[0]}-{c[1]}x{c[2]}-p{c[3]}")
def test_pytorchs_bits_on_avx2(case: tuple, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    dtype, n, m, p, want_d, want_g = case
    d, g = _run(dtype, n, m, p)
    assert d.dtype == np.dtype(dtype) and g.dtype == np.dtype(dtype)
    assert (_sha(d), _sha(g)) == (want_d, want_g)


def test_other_orders_miss(monkeypatch: pytest.MonkeyPatch) -> None:
    """The distances added in order (no lanes), or a gradient 0.1% off, miss recordings."""
    monkeypatch.setenv(cpu.ENV, "avx2")
    misses = off = 0
    for dtype, n, m, p, want_d, want_g in TORCH:
        if p != 2.0:
            continue
        x, _ = _inputs(dtype, n, m)
        i, j = np.triu_indices(n, 1)
        sq = (x[i] - x[j]) ** 2
        acc = np.zeros(len(i), dtype)
        for k in range(m):
            acc = acc + sq[:, k]
        misses += _sha(np.sqrt(acc)) != want_d
        d, g = _run(dtype, n, m, p)
        off += _sha(g * g.dtype.type(1.001)) != want_g
    assert misses >= 4
    assert off == 8


@pytest.mark.parametrize("p", [1.0, 2.0, math.inf])
def test_float64_gradient_against_finite_differences(p: float) -> None:
    x, g = _inputs("float64", 5, 11)
    xt = Tensor(x, requires_grad=True)
    pdist(xt, p).backward(Tensor(g))
    h, num = 1e-6, np.zeros(x.shape)
    for idx in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[idx] += h
        down[idx] -= h
        num[idx] = (pdist(Tensor(up), p).numpy() @ g - pdist(Tensor(down), p).numpy() @ g) / (2 * h)
    np.testing.assert_allclose(xt.grad.numpy(), num, rtol=1e-6, atol=1e-8)


def test_no_second_derivative() -> None:
    """PyTorch's _pdist_backward has no derivative: a double backward fails with its words."""
    from gradcli.base.errors import GradcliError
    from gradcli.core.autograd import grad

    y = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) ** 1.5, requires_grad=True)
    (gy,) = grad(pdist(y).sum(), y, create_graph=True)
    assert gy.node is not None and gy.node.op.torch_name == "PdistBackwardBackward0"
    with pytest.raises(GradcliError, match="derivative for '_pdist_backward' is not implemented"):
        gy.sum().backward()


# torch.cdist on the direct kernel (p = 1, inf; p = 2 of float64 with 25 rows or fewer): ATen's
# sums in order (float64 p = 2: products in pairs, an odd last one fused), the gradients' terms
# over the other input's rows in order. (dtype, r1, r2, m, p, digests of d, x1.grad, x2.grad)
TORCH_CDIST = [
    ("float32", 3, 4, 5, 1.0, "ffdd097d4e85a668", "d478d75b38601771", "0274299b9f1bd7c3"),
    ("float32", 3, 4, 5, math.inf, "545bba5bcdacd521", "c2bcf7f88c6e90f8", "0c6daf3a3b4b9ea0"),
    ("float32", 6, 9, 13, 1.0, "3b13c1ae9cdd3abe", "b0c812ff737c7c98", "cbb8be0deaf6d313"),
    ("float32", 6, 9, 13, math.inf, "4868b7f5353ba569", "677cec6ca115278a", "bf005d30f8f62168"),
    ("float32", 2, 25, 3, 1.0, "a68fbc32cb3ef500", "c0e4cfe723047e59", "4311baf849c589b7"),
    ("float32", 2, 25, 3, math.inf, "d37beacba3f4c5f8", "2c79d2f6cf0cc885", "70ce07920bb6b871"),
    ("float64", 3, 4, 5, 1.0, "4e43bf1e83f5f782", "a08d4a8cad4dcc94", "d5d8f3c7911c086d"),
    ("float64", 3, 4, 5, 2.0, "d80683b248166178", "c81456de6dbfc299", "dc2ab1172692bf65"),
    ("float64", 3, 4, 5, math.inf, "0c87ec1dc0d04649", "92a9b9c6e0df2f82", "ad09db16fd2aa2d9"),
    ("float64", 6, 9, 13, 1.0, "c2cf1a1dd8332ea0", "b42dc82eec2312c3", "1605dad90d3c9dc5"),
    ("float64", 6, 9, 13, 2.0, "486cc7736961e70c", "3d47202a2499cbc5", "1c4ca575f035285a"),
    ("float64", 6, 9, 13, math.inf, "905585e87f13a4ac", "c1830187a8cbe8e2", "478f4bc950bf00c9"),
    ("float64", 2, 25, 3, 1.0, "6d847fb567c35d2e", "32483d589b60312b", "c1044af742939f89"),
    ("float64", 2, 25, 3, 2.0, "ac8850d6cf2d0820", "c44e5f1f7e80c313", "0678d2df3ba0593a"),
    ("float64", 2, 25, 3, math.inf, "ba5e72839d33f77d", "6243226410a23644", "c343ddbc0cc4d63d"),
]


def _cdist_run(dtype: str, r1: int, r2: int, m: int, p: float):
    from gradcli.surface.linalg import cdist

    rng = np.random.default_rng([r1, r2, m, 3])
    a = rng.standard_normal((r1, m)).astype(dtype)
    b = rng.standard_normal((r2, m)).astype(dtype)
    b[0] = a[0]  # (a zero distance)
    g = rng.standard_normal((r1, r2)).astype(dtype)
    at, bt = Tensor(a, requires_grad=True), Tensor(b, requires_grad=True)
    d = cdist(at, bt, p=p)
    d.backward(Tensor(g))
    return d.numpy(), at.grad.numpy(), bt.grad.numpy()


@pytest.mark.parametrize("case", TORCH_CDIST, ids=lambda c: f"{c[0]}-{c[1]}x{c[2]}x{c[3]}-p{c[4]}")
def test_cdist_bits_on_avx2(case: tuple, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx2")
    dtype, r1, r2, m, p, *want = case
    assert [_sha(a) for a in _cdist_run(dtype, r1, r2, m, p)] == want


def test_cdist_other_orders_miss(monkeypatch: pytest.MonkeyPatch) -> None:
    """numpy's pairwise sums (gradcli's rule before) miss the p = 1 recordings of 13
    features; a gradient 0.1% off misses every recording."""
    monkeypatch.setenv(cpu.ENV, "avx2")
    misses = off = 0
    for dtype, r1, r2, m, p, want_d, want_g1, _ in TORCH_CDIST:
        rng = np.random.default_rng([r1, r2, m, 3])
        a = rng.standard_normal((r1, m)).astype(dtype)
        b = rng.standard_normal((r2, m)).astype(dtype)
        b[0] = a[0]
        if p == 1.0 and m == 13:
            misses += _sha(np.sum(np.abs(a[:, None] - b[None]), axis=-1)) != want_d
        _, g1, _ = _cdist_run(dtype, r1, r2, m, p)
        off += _sha(g1 * g1.dtype.type(1.001)) != want_g1
    assert misses == 2
    assert off == len(TORCH_CDIST)
