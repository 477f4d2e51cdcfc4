"""The engine's check of a custom Function's gradients (PyTorch's validate_outputs): a
gradient of another dtype is cast to the input's (a bool mask, an integer count, float64 for
float32, real for complex), after its shape is summed down; an integer or bool gradient for a
complex input, or a complex one for a real input, is refused with PyTorch's words."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.autograd import grad
from gradcli.core.tensor import Tensor
from gradcli.ops.custom import custom_apply
from gradcli.surface import names  # noqa: F401 - installs the tensor methods


def identity_with(x: Tensor, backward) -> Tensor:
    return custom_apply("Id", [x], lambda: Tensor(x.data.copy()), backward, label="IdBackward")


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("gdt", [np.bool_, np.int64, np.int32, np.float64, np.float32])
def test_cast_to_input_dtype(dt, gdt) -> None:
    x = Tensor(np.array([0.5, -1.0, 2.0], dtype=dt), requires_grad=True)
    (g,) = grad((identity_with(x, lambda go: Tensor((go.data * 3).astype(gdt))) * 2.0).sum(), [x])
    assert g.dtype == np.dtype(dt)
    want = np.array([1, 1, 1] if gdt is np.bool_ else [6, 6, 6], dtype=dt)
    np.testing.assert_array_equal(g.data, want)


def test_summed_then_cast() -> None:
    # a (2, 3) int gradient for a (3,) input: summed in int64 first, then cast
    x = Tensor(np.zeros(3, dtype=np.float32), requires_grad=True)
    big = np.array([[2**24 + 1, 0, 0], [2**24 + 1, 0, 0]], dtype=np.int64)
    (g,) = grad(identity_with(x, lambda go: Tensor(big)).sum(), [x])
    assert g.dtype == np.float32
    assert g.data[0] == np.float32(2**25 + 2)


def test_real_gradient_for_complex_input() -> None:
    z = Tensor(np.array([3 + 4j, 1 - 1j], dtype=np.complex64), requires_grad=True)
    (g,) = grad(identity_with(z, lambda go: go.real).abs().sum(), [z])
    assert g.dtype == np.complex64
    h = 1e-6
    zz = np.array([3 + 4j, 1 - 1j])
    # d|z|/d(re z) by central differences: the real gradient kept, cast to complex
    fd = [(abs(zz[i] + h) - abs(zz[i] - h)) / (2 * h) for i in range(2)]
    np.testing.assert_allclose(g.data.real, fd, rtol=1e-5)
    np.testing.assert_array_equal(g.data.imag, 0)


@pytest.mark.parametrize(
    "xdt,back",
    [
        (np.float32, lambda go: go * 1j),
        (np.complex64, lambda go: Tensor(np.abs(go.data) > 0)),
        (np.complex64, lambda go: Tensor(np.ones(go.shape, dtype=np.int64))),
    ],
)
def test_complexity_mismatch_refused(xdt, back) -> None:
    x = Tensor(np.array([1.0, 2.0], dtype=xdt), requires_grad=True)
    with pytest.raises(GradcliError, match=r"isFloatingType\(grad.scalar_type\(\)\)"):
        grad((identity_with(x, back) * 1.0).abs().sum(), [x])
