"""float64 softmax / log_softmax over a dimension that is not the last (`ops.softmax64`, ATen's
kernel order): the gradients agree with central finite differences of the forward."""

import numpy as np
import pytest

from gradcli.ops.reduction import _log_softmax_fwd, _softmax_fwd
from gradcli.ops.softmax64 import softmax_backward64


@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize(("shape", "dim"), [((4, 3), 0), ((2, 5, 11), 1)])
def test_gradient_matches_central_differences(shape, dim, log):
    rng = np.random.default_rng(7)
    x = rng.normal(size=shape) * 2
    g = rng.normal(size=shape)
    fwd = _log_softmax_fwd if log else _softmax_fwd
    y = fwd(x, dim)
    got = softmax_backward64(g, y, dim, log)
    h = 1e-6
    want = np.empty_like(x)
    for i in np.ndindex(*shape):
        up, down = x.copy(), x.copy()
        up[i] += h
        down[i] -= h
        want[i] = np.sum(g * (fwd(up, dim) - fwd(down, dim))) / (2 * h)
    np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-8)
