"""einsum of integer and bool operands follows ATen's steps: values against NumPy's exact
int64 einsum, dtypes and errors against what PyTorch 2.13 does (recorded in corpus 1555)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.surface.linalg import _einsum_integral

# equation (as label lists), output labels, whether ATen sums a label out of one operand first
CASES = [
    ([(0, 1)], (), True),  # ij->
    ([(0, 1)], (1,), True),  # ij->j
    ([(0, 0)], (0,), False),  # ii->i (a diagonal only)
    ([(0, 1)], (1, 0), False),  # ij->ji
    ([(0, 1), (1,)], (0,), False),  # ij,j->i: one contraction (bmm)
    ([(0, 1), (1,)], (1,), True),  # ij,j->j: i summed out of the first, then mul
    ([(0,), (1,)], (), True),  # i,j->
    ([(0, 1), (0, 1)], (), False),  # ij,ij->
    ([(0,), (0,), (0,)], (), False),  # i,i,i->
    ([(0, 1), (1, 2)], (), True),  # ij,jk->
]
SIZES = {0: 3, 1: 4, 2: 2}


def _operands(subs: list[tuple[int, ...]], dtype: type) -> list[np.ndarray]:
    rng = np.random.default_rng(5)
    return [rng.integers(0, 4, size=[SIZES[x] for x in s]).astype(dtype) for s in subs]


@pytest.mark.parametrize(("subs", "out", "early"), CASES)
def test_values_are_the_exact_einsum_and_the_dtype_atens(subs, out, early) -> None:
    ops = _operands(subs, np.int32)
    got = _einsum_integral(ops, subs, out, SIZES)
    args = [a for op, s in zip(ops, subs) for a in (op.astype(np.int64), list(s))]
    np.testing.assert_array_equal(got, np.einsum(*args, list(out)))
    assert got.dtype == (np.int64 if early else np.int32)
    assert got.shape == tuple(SIZES[x] for x in out)


def test_bool_sums_count_and_contractions_are_refused() -> None:
    mask = np.array([[True, False, True], [True, True, True]])
    sizes = {0: 2, 1: 3}
    got = _einsum_integral([mask], [(0, 1)], (0,), sizes)
    assert got.dtype == np.int64 and got.tolist() == [2, 3]  # counts, not a logical or
    both = _einsum_integral([mask, mask], [(0, 1), (0, 1)], (0, 1), sizes)
    assert both.dtype == np.bool_ and (both == mask).all()  # no contraction: a product
    with pytest.raises(GradcliError, match="\"bmm\" not implemented for 'Bool'"):
        _einsum_integral([mask, mask], [(0, 1), (0, 1)], (0,), sizes)


def test_uint8_contraction_wraps_and_sum_does_not() -> None:
    px = np.full((2, 3), 200, np.uint8)
    sizes = {0: 2, 1: 3}
    wrapped = _einsum_integral([px, px], [(0, 1), (0, 1)], (0,), sizes)
    assert wrapped.dtype == np.uint8 and wrapped.tolist() == [(3 * 200 * 200) % 256] * 2
    total = _einsum_integral([px], [(0, 1)], (0,), sizes)
    assert total.dtype == np.int64 and total.tolist() == [600, 600]
