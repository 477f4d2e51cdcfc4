"""MKL's gemm of inner size 1 gives each element its one product, -0 included
(`ops.linalg._first_product_zeros`); larger inner sizes, and a product of one row or one column
(MKL's gemv), sum from +0. PyTorch's printed gradients show the sign (`-0.0000` in the weight
gradient of a dead ReLU unit for a single sample); corpus 257 records PyTorch's text."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.ops import linalg as L


def _reference(x: np.ndarray, y: np.ndarray, out: np.ndarray) -> np.ndarray:
    if x.shape[1] != 1:
        return out  # (sums from +0: never -0)
    products = x[:, 0, None] * y[0, None, :]
    negative_zero = (products == 0) & np.signbit(products)
    return np.where((out == 0) & negative_zero, np.float32(-0.0), out)


@pytest.mark.parametrize("seed", range(40))
def test_the_sign_of_each_zero_is_the_sum_of_its_products(seed: int) -> None:
    rng = np.random.default_rng(seed)
    m, k, n = rng.integers(1, 6, size=3)
    # values among signed zeros and signed ones: many elements are sums of zeros
    x = rng.choice(
        np.array([0.0, -0.0, 1.0, -1.0], np.float32), size=(m, k), p=[0.35, 0.35, 0.15, 0.15]
    )
    y = rng.choice(
        np.array([0.0, -0.0, 2.0, -2.0], np.float32), size=(k, n), p=[0.35, 0.35, 0.15, 0.15]
    )
    out = (x.astype(np.float64) @ y.astype(np.float64)).astype(np.float32) + np.float32(0.0)
    got = L._first_product_zeros(x, y, out.copy())
    want = _reference(x, y, out)
    assert np.array_equal(np.signbit(got), np.signbit(want)), (x, y, got, want)
    assert np.array_equal(got, want)


def test_a_weight_gradient_of_one_sample_keeps_minus_zero() -> None:
    from gradcli.lang.program import parse

    text = (
        "import torch\n"
        "w = torch.tensor([[0.5, -1.0], [2.0, 0.0]], requires_grad=True)\n"
        "(torch.tensor([[-2.0, 3.0]]) @ w).backward(torch.tensor([[-0.0, 1.0]]))\n"
        "print(w.grad)\n"
        "u = torch.tensor([[1.0, 2.0]], requires_grad=True)\n"
        "torch.nn.functional.linear(torch.tensor([3.0, 4.0]), u).backward(torch.tensor([-0.0]))\n"
        "print(u.grad)\n"
    )
    out = "".join(parse(text, "t.py").run(dtype="float32").output)
    assert out == "tensor([[ 0., -2.],\n        [-0.,  3.]])\ntensor([[0., 0.]])\n"
