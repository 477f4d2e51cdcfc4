"""Fractional max pooling (`surface.fractional`): the gradient against central finite
differences in float64, the regions ATen's generate_intervals gives for given samples, and
PyTorch's checks."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.tensor import Tensor
from gradcli.surface import fractional as FR


def _pool(a: np.ndarray, d: int) -> Tensor:
    samples = Tensor(np.array([[[0.3, 0.8, 0.55][:d], [0.6, 0.1, 0.95][:d]]]))
    kernel = (2, 3) if d == 2 else (2, 2, 3)
    sizes = (3, 3) if d == 2 else (2, 3, 3)
    return FR.fractional_max_pool(Tensor(a), kernel, sizes, None, False, samples, d)


@pytest.mark.parametrize("d", [2, 3])
def test_gradient_against_central_differences(d: int) -> None:
    rng = np.random.default_rng(5)
    shape = (1, 2, 6, 7) if d == 2 else (1, 2, 4, 6, 7)
    a = rng.standard_normal(shape)
    weights = rng.standard_normal(_pool(a, d).shape)
    x = Tensor(a.copy(), requires_grad=True)
    samples = Tensor(np.array([[[0.3, 0.8, 0.55][:d], [0.6, 0.1, 0.95][:d]]]))
    kernel = (2, 3) if d == 2 else (2, 2, 3)
    sizes = (3, 3) if d == 2 else (2, 3, 3)
    out = FR.fractional_max_pool(x, kernel, sizes, None, False, samples, d)
    (out * Tensor(weights)).sum().backward()
    h = 1e-6
    fd = np.zeros_like(a)
    for idx in np.ndindex(a.shape):
        up, down = a.copy(), a.copy()
        up[idx] += h
        down[idx] -= h
        fd[idx] = ((_pool(up, d).data - _pool(down, d).data) * weights).sum() / (2 * h)
    np.testing.assert_allclose(x.grad.data, fd, atol=1e-8)


def test_regions_from_given_samples() -> None:
    # width 8 -> 4 outputs with the first sample 0.25, height 7 -> 3 with 0.5, pool 2:
    # alpha_w = 6/3 = 2: starts int((i + .25) * 2) - int(.5) = 0, 2, 4 then 6;
    # alpha_h = 5/2: int((i + .5) * 2.5) - int(1.25) = 0, 2 then 5.
    a = np.arange(56.0).reshape(1, 1, 7, 8)
    samples = Tensor(np.array([[[0.25, 0.5]]]))
    out, idx = FR.fractional_max_pool(Tensor(a), 2, (3, 4), None, True, samples, 2)
    rows, cols = np.array([0, 2, 5]) + 1, np.array([0, 2, 4, 6]) + 1
    assert (idx.data[0, 0] == rows[:, None] * 8 + cols[None, :]).all()
    assert (out.data[0, 0] == a[0, 0][rows][:, cols]).all()


@pytest.mark.parametrize(
    "args, words",
    [
        (((1, 1, 4, 4), 3, 3, None), "pool height 3 too large relative to input height 4"),
        (((1, 1, 4, 4), 2, None, None), "requires specifying either an output_size"),
        (((1, 0, 4, 4), 2, 2, None), "non-zero size for non-batch dimensions"),
        (((4, 4), 2, 2, None), "Dimension out of range"),
    ],
)
def test_pytorchs_checks(args: tuple, words: str) -> None:
    shape, kernel, size, ratio = args
    with pytest.raises(GradcliError, match=words):
        FR.fractional_max_pool2d(Tensor(np.ones(shape, np.float32)), kernel, size, ratio)
