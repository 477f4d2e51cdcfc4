"""float16 norms and variances accumulate in float (ATen's opmath) and round once: the sum
of squares of a half tensor overflows 65504 long before its norm does."""

import math

import numpy as np

from gradcli.ops.reduction import _norm_fwd, _var_fwd


def test_half_norm_does_not_overflow_in_its_squares() -> None:
    x = np.full(3, 256.0, dtype=np.float16)
    out = _norm_fwd(x)
    assert out.dtype == np.float16
    assert float(out) == float(np.float16(256.0 * math.sqrt(3)))


def test_half_norm_keeps_dims_and_each_order() -> None:
    x = np.array([[300.0, 400.0], [1e4, 1e4]], dtype=np.float16)
    rows = _norm_fwd(x, 2.0, 1, True)
    assert rows.shape == (2, 1) and rows.dtype == np.float16
    assert rows[0, 0] == np.float16(500.0) and np.isfinite(rows[1, 0])
    assert _norm_fwd(x, 1.0, 1)[1] == np.float16(2e4)
    assert _norm_fwd(x, math.inf) == np.float16(1e4)


def test_half_std_is_finite_where_its_variance_is_not() -> None:
    x = np.array([60000.0, 60000.0, 1000.0], dtype=np.float16)
    assert np.isinf(_var_fwd(x))
    s = _var_fwd(x, root=True)
    assert s.dtype == np.float16 and np.isfinite(s)
    assert s == np.float16(np.std(x.astype(np.float64), ddof=1))
