"""bfloat16 matrix products and norms as PyTorch 2.13's CPU kernels round them (core.bf16):
values whose float32 sum depends on the order the kernel adds in, against what PyTorch
printed for them (recorded with torch 2.13 on this project's reference machine)."""

import numpy as np
import pytest

from gradcli.base.errors import NotSupported
from gradcli.core import bf16, dtypes

F32 = np.float32


def _row() -> np.ndarray:
    # 1 + 2**-8 ties between two bfloat16 values; eight 2**-26 tip it up only where they are
    # summed before the 1 swallows them
    r = np.zeros(37, F32)
    r[11], r[10] = 1.0, 2.0**-8
    r[[0, 4, 5, 17, 18, 22, 28, 29]] = 2.0**-26
    return r


@pytest.mark.parametrize(
    "m, n, a_cols, b_cols, torch_says",
    [
        (2, 3, False, False, 1.0078125),  # ATen's loop: four partial sums
        (2, 3, True, False, 1.0),  # a transposed: one sum in order
        (2, 3, False, True, 1.0078125),  # b transposed: the 8-lane dot product
        (2, 3, True, True, 1.0078125),
        (20, 20, False, False, 1.0),  # oneDNN: the products two by two
    ],
)
def test_product_order_by_layout_and_size(m, n, a_cols, b_cols, torch_says):
    a = np.tile(_row(), (m, 1))
    b = np.ones((37, n), F32)
    got = dtypes.round_bf16(bf16.bf16_gemm(a, b, a_cols=a_cols, b_cols=b_cols))
    assert np.all(got.astype(F32) == F32(torch_says))


def test_addmm_scales_and_refuses_ambiguous_rounding():
    a = np.tile(_row(), (2, 1))
    b = np.ones((37, 3), F32)
    c = np.full((2, 3), 0.5, F32)
    got = bf16.bf16_gemm(a, b, c, alpha=2.0, beta=-1.0)
    exact = 2.0 * (a.astype(np.float64) @ b) - 0.5
    assert np.allclose(got, exact, rtol=2**-20)
    # oneDNN rounds beta * c + alpha * dot in two ways by shape: where they part, refused
    # (here 1/3 * 3 rounded to float32 is 1, minus 1 is 0; fused, 3e-8 is left)
    dot, three = np.array([[-1.0]], F32), np.array([[3.0]], F32)
    with pytest.raises(NotSupported):
        bf16._onednn_scaled(dot, three, 1.0, 1 / 3)
    assert bf16._onednn_scaled(dot, three, 1.0, 0.5)[0, 0] == F32(0.5)


def test_norm_adds_eight_lanes_then_the_rest():
    v = np.zeros(40, F32)
    v[6], v[[35, 39]], v[18] = 1.0, 2.0**-4, 2.0**-8
    v[[0, 2, 3, 4, 8, 10, 11, 12, 15, 17, 20, 22, 24, 29, 31, 36]] = 2.0**-13
    # one sum in order would round to 1.0; PyTorch printed 1.0078125
    assert float(bf16.bf16_norm2(v.reshape(5, 8))) == 1.0078125
