"""The sizes view/reshape infer (ATen's infer_size: its checks in its order) and one_hot's
label checks, against PyTorch 2.13's results and words (recorded on this project's torch;
the corpus program 1460 runs the same in a program)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.tensor import Tensor
from gradcli.surface import composite
from gradcli.surface.args import infer_shape

_AMBIGUOUS = "because the unspecified dimension size -1 can be any value and is ambiguous"


@pytest.mark.parametrize(
    "shape, size, expected",
    [
        ((3, -1), 12, (3, 4)),
        ((-1,), 0, (0,)),
        ((-1, 4), 0, (0, 4)),
        ((5, 0), 0, (5, 0)),
        ((2, 0, 3), 0, (2, 0, 3)),
        ((2, 6), 12, (2, 6)),
    ],
)
def test_inferred_sizes(shape: tuple, size: int, expected: tuple) -> None:
    assert infer_shape(shape, size) == expected


@pytest.mark.parametrize(
    "shape, size, words",
    [
        ((0, -1), 0, "cannot reshape tensor of 0 elements into shape [0, -1] " + _AMBIGUOUS),
        ((-1, 0), 0, "cannot reshape tensor of 0 elements into shape [-1, 0] " + _AMBIGUOUS),
        ((0, -1), 12, "shape '[0, -1]' is invalid for input of size 12"),
        ((5, -1), 12, "shape '[5, -1]' is invalid for input of size 12"),
        ((5, 2), 12, "shape '[5, 2]' is invalid for input of size 12"),
        ((-1, -1), 12, "only one dimension can be inferred"),
        # a size below -1 is named where it stands; a second -1 before it is found first
        ((-2, 6), 12, "invalid shape dimension -2 at index 0 of shape [-2, 6]"),
        ((-1, -4), 12, "invalid shape dimension -4 at index 1 of shape [-1, -4]"),
        ((-1, -1, -2), 6, "only one dimension can be inferred"),
        ((-2, -1, -1), 6, "invalid shape dimension -2 at index 0 of shape [-2, -1, -1]"),
    ],
)
def test_infer_size_errors(shape: tuple, size: int, words: str) -> None:
    with pytest.raises(GradcliError) as err:
        infer_shape(shape, size)
    assert err.value.message == words


def _one_hot_error(labels: np.ndarray, n: int) -> str:
    with pytest.raises(GradcliError) as err:
        composite.one_hot(Tensor(labels), n)
    return err.value.message


@pytest.mark.parametrize(
    "labels",
    [
        np.array([1, 0], np.int32),
        np.array([1, 0], np.uint8),
        np.array([True, False]),
        np.array([1.0, 0.0], np.float32),  # whole numbers, but not an index tensor
        np.array([], np.float32),
    ],
)
def test_one_hot_needs_int64(labels: np.ndarray) -> None:
    words = "one_hot is only applicable to index tensor of type LongTensor."
    assert _one_hot_error(labels, 3) == words


def test_one_hot_values_and_empty() -> None:
    assert _one_hot_error(np.array([-1, 0]), 3) == "Class values must be non-negative."
    assert _one_hot_error(np.array([-1, 0]), -1) == "Class values must be non-negative."
    too_big = "Class values must be smaller than num_classes."
    assert _one_hot_error(np.array([3]), 3) == too_big
    assert _one_hot_error(np.array([1]), 0) == too_big
    cannot = "Can not infer total number of classes from empty tensor."
    assert _one_hot_error(np.array([], np.int64), -1) == cannot
    assert _one_hot_error(np.array([], np.int64), 0) == cannot
    assert composite.one_hot(Tensor(np.array([], np.int64)), 5).shape == (0, 5)
    got = composite.one_hot(Tensor(np.array([[2], [0]])), -1)
    assert got.dtype == np.int64
    assert got.data.tolist() == [[[0, 0, 1]], [[1, 0, 0]]]
