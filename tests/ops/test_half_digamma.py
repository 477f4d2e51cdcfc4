"""float16 digamma (and lgamma's gradient, which is g * digamma(x)): ATen's half kernel is the
float kernel's result rounded once to half, in half (gradcli gave float64 before). PyTorch's
own text is in the corpus (1400_half_digamma_lgamma_grad)."""

from __future__ import annotations

import numpy as np

from gradcli.core import specfun


def test_half_digamma_is_the_float_kernel_rounded_once() -> None:
    x = np.linspace(-6.5, 30.0, 4001).astype(np.float16)
    got = specfun.digamma(x)
    assert got.dtype == np.float16
    want = specfun.digamma(x.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(got, want)


def test_half_digamma_values_pytorch_prints() -> None:
    # torch.digamma(torch.tensor([0.5, 1.1, 2.8, 10.0], dtype=torch.float16)) under 2.13
    x = np.array([0.5, 1.1, 2.8, 10.0], dtype=np.float16)
    got = specfun.digamma(x)
    want = np.array([-1.9639, -0.4243, 0.8408, 2.2520], dtype=np.float16)
    np.testing.assert_array_equal(got, want)
