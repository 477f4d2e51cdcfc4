"""The torch.fft records (`ops.fft`) against the transforms written as sums over their terms
(tests/ops/test_ops.py's references; the gradients: tests/ops/test_complex.py), and the
dtypes and exact symmetries PyTorch's results have."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core.op import apply
from gradcli.core.tensor import Settings, Tensor
from gradcli.ops import REGISTRY
from gradcli.surface import fft as FT
from tests.ops.test_ops import REFERENCE


@pytest.mark.parametrize("name", ["fft_c2c", "fft_r2c", "fft_c2r"])
def test_each_sample_is_the_sum_of_its_terms(name: str) -> None:
    rng = np.random.default_rng(sum(map(ord, name)))
    op = REGISTRY[name]
    for s in op.samples:
        x = rng.standard_normal(s.shapes[0])
        if name != "fft_r2c":
            x = x + 1j * rng.standard_normal(s.shapes[0])
        got = apply(op, Tensor(x), **s.params).data
        want = REFERENCE[name](x, **s.params)
        assert got.shape == want.shape and got.dtype == want.dtype
        assert np.max(np.abs(got - want)) <= 1e-12 * max(1.0, np.max(np.abs(want)))


def test_dtypes_are_pytorchs() -> None:
    f32 = Tensor(np.arange(6, dtype=np.float32))
    assert FT.fft(f32).dtype == np.complex64
    assert FT.irfft(FT.rfft(f32)).dtype == np.float32
    # int64: made the default float dtype first
    want = np.complex64 if Settings.default_dtype == np.float32 else np.complex128
    assert FT.fft(Tensor(np.arange(6))).dtype == want
    assert FT.rfft(Tensor(np.arange(6.0))).dtype == np.complex128


def test_a_real_signals_full_transform_is_exactly_conjugate_symmetric() -> None:
    # ATen fills the second half from the first: X[n - k] == conj(X[k]) to the bit
    x = Tensor(np.random.default_rng(3).standard_normal(7).astype(np.float32))
    y = FT.fft(x).data
    assert np.array_equal(y[1:][::-1], np.conj(y[1:]))
    assert y[0].imag == 0
