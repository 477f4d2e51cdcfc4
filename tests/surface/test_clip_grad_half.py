"""clip_grad_norm_ of float16 gradients as PyTorch 2.13 computes it: total_norm + 1e-6, its
reciprocal and the product with max_norm each computed in float and rounded to half once
(ATen's opmath; gradcli rounded max_norm to half first, so a max_norm half cannot hold changed
the scaled gradients' last bits). Recorded with torch 2.13 (values as float16 bit patterns;
inputs NumPy's, rebuilt from their seeds)."""

from __future__ import annotations

import numpy as np
import pytest

import gradcli
from gradcli.surface import nnutils

# (seed, max_norm, total norm, a's clipped gradient, b's), float16 bits
CASES = [
    (8, 4.142857142857142, 18560,
     [15700, 15847, 49031, 16443, 14448, 12341, 15289, 13793, 48950],
     [46399, 10370, 14565, 45064, 44714, 11655]),
    (10, 4.428571428571429, 18595,
     [16543, 47497, 15437, 15760, 15335, 47287, 49440, 48199, 48046],
     [47516, 12329, 12872, 44229, 46600, 46095]),
    (15, 3.571428571428571, 18631,
     [44997, 15882, 47909, 48219, 45342, 16055, 46568, 48820, 48239],
     [14450, 47810, 14616, 45085, 44330, 11570]),
    (20, 4.285714285714286, 18339,
     [15694, 46359, 17048, 13070, 12844, 13061, 49000, 46653, 46772],
     [14546, 10928, 47274, 47186, 47881, 45087]),
    (23, 3.142857142857143, 18094,
     [14067, 14425, 13387, 16098, 47422, 48881, 14234, 15476, 47669],
     [45079, 12124, 44889, 14322, 13361, 14739]),
]  # fmt: skip


def _grads(seed: int):
    rng = np.random.default_rng([seed, 5])
    a = (rng.standard_normal(9) * 3).astype(np.float16)
    b = rng.standard_normal(6).astype(np.float16)
    pa = gradcli.Tensor(np.zeros(9, np.float16), requires_grad=True)
    pb = gradcli.Tensor(np.zeros(6, np.float16), requires_grad=True)
    pa.grad, pb.grad = gradcli.Tensor(a), gradcli.Tensor(b)
    return pa, pb


def _bits(a: np.ndarray) -> list[int]:
    return np.asarray(a, np.float16).reshape(-1).view(np.uint16).tolist()


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"seed{c[0]}")
def test_pytorchs_bits(case) -> None:
    seed, mx, total, ga, gb = case
    pa, pb = _grads(seed)
    t = nnutils.clip_grad_norm_([pa, pb], mx)
    assert _bits(t.data) == [total]
    assert _bits(pa.grad.data) == ga
    assert _bits(pb.grad.data) == gb


def test_max_norm_rounded_to_half_misses() -> None:
    """The rule replaced: the coefficient's steps in half, max_norm rounded to half first."""
    missed = 0
    for seed, mx, total, ga, gb in CASES:
        pa, pb = _grads(seed)
        h = np.float16
        t = np.uint16(total).view(h)
        coef = min(h(h(1) / h(t + h(1e-6))) * h(mx), h(1))
        missed += _bits(pa.grad.data * coef) != ga or _bits(pb.grad.data * coef) != gb
    assert missed == len(CASES)
