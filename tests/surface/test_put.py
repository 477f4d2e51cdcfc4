"""Tensor.put / put_: gradients against central finite differences in float64 (the flat
positions, negative ones, accumulate with repeated positions, in place on a graph tensor)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core.tensor import Tensor
from gradcli.surface import names  # noqa: F401 - installs the tensor methods
from gradcli.surface.scatter import put
from tests.helpers.gradcheck import numeric_grad

CASES = [
    ([0, 5, -1], False),
    ([[2], [7]], False),
    ([1, 3, 1, -11], True),
]


@pytest.mark.parametrize("where, accumulate", CASES)
def test_gradients_are_central_differences(where, accumulate) -> None:
    rng = np.random.default_rng(7)
    x0 = rng.standard_normal((3, 4))
    idx = np.array(where, dtype=np.int64)
    s0 = rng.standard_normal(idx.shape)
    w = rng.standard_normal((3, 4))

    def f(xs: list[np.ndarray]) -> float:
        out = put(Tensor(xs[0]), Tensor(idx), Tensor(xs[1]), accumulate).data
        return float(np.sum(out * w))

    x, s = Tensor(x0, requires_grad=True), Tensor(s0, requires_grad=True)
    y = put(x, Tensor(idx), s, accumulate)
    assert y.grad_fn.name() == "PutBackward0"
    (y * Tensor(w)).sum().backward()
    want = numeric_grad(f, [x0, s0], [0, 1])
    np.testing.assert_allclose(x.grad.data, want[0], rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(s.grad.data, want[1], rtol=1e-7, atol=1e-9)


def test_values_are_written_at_flat_positions() -> None:
    x = np.arange(12.0).reshape(3, 4)
    got = put(Tensor(x), Tensor(np.array([0, -1])), Tensor(np.array([-5.0, -7.0]))).data
    want = x.copy()
    want.flat[0], want.flat[11] = -5.0, -7.0
    assert np.array_equal(got, want)
    added = put(Tensor(x), Tensor(np.array([2, 2])), Tensor(np.array([1.0, 1.0])), True).data
    assert added.flat[2] == 4.0 and np.array_equal(np.delete(added, 2), np.delete(x, 2))
