"""ATen's xlogy and xlog1py are scalar `cpu_kernel` loops calling the C library: x *
std::log(y) and x * std::log1p(y), so their float32 values (and xlogy's gradient in x, itself
an xlogy) are x times glibc's logf / log1pf, not the correctly rounded logarithm (the two
differ in a last bit for some arguments: logf(0.7351141) is -0.30772957, the rounded value
-0.30772954, which PyTorch prints in kl_div's target gradient). Checked here against the
library's own functions through ctypes, for a short array (called element by element) and a
long one (glibc32's emulation)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core import glibc32
from gradcli.core.op import apply
from gradcli.core.tensor import Tensor
from gradcli.ops import special as Sp
from gradcli.surface import (
    names,  # noqa: F401 - installs the tensor methods
)

LOGF = glibc32.c_function("logf")
LOG1PF = glibc32.c_function("log1pf")


def _scalar(f, a: np.ndarray) -> np.ndarray:
    return np.array([f(float(v)) for v in a], dtype=np.float32)


@pytest.mark.skipif(LOGF is None or LOG1PF is None, reason="no C library to call")
@pytest.mark.parametrize("n", [37, 9000])
def test_float32_values_are_x_times_the_c_librarys(n: int) -> None:
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n).astype(np.float32)
    y = (rng.random(n) * 3).astype(np.float32)
    y[0] = np.float32(0.7351141)  # an argument where logf and the rounded value differ
    got = Sp._xlogy_fwd(x, y)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, x * _scalar(LOGF, y))
    with np.errstate(all="ignore"):
        rounded = x[0] * np.float32(np.log(np.float64(y[0])))
    assert got[0] != rounded  # the case would not tell the two apart otherwise
    y1 = y - np.float32(0.5)
    np.testing.assert_array_equal(Sp._xlog1py_fwd(x, y1), x * _scalar(LOG1PF, y1))


@pytest.mark.skipif(LOGF is None, reason="no C library to call")
def test_gradient_in_x_is_the_same_logarithm() -> None:
    y = np.array([0.7351141, 1.9, 0.25], dtype=np.float32)
    x = Tensor(np.array([0.5, 2.0, 3.0], dtype=np.float32), requires_grad=True)
    apply(Sp.xlogy, x, Tensor(y)).sum().backward()
    np.testing.assert_array_equal(x.grad.data, _scalar(LOGF, y))


def test_float64_matches_finite_differences() -> None:
    x = Tensor(np.array([0.5, 2.0, -1.5]), requires_grad=True)
    y = Tensor(np.array([0.7, 1.9, 0.25]), requires_grad=True)
    apply(Sp.xlogy, x, y).sum().backward()
    np.testing.assert_allclose(x.grad.data, np.log(y.data), rtol=1e-15)
    h = 1e-6
    fd = (Sp._xlogy_fwd(x.data, y.data + h).sum() - Sp._xlogy_fwd(x.data, y.data - h).sum()) / (
        2 * h
    )
    np.testing.assert_allclose(y.grad.data.sum(), fd, rtol=1e-7)
