"""Negative Python ints stored into unsigned tensors wrap modulo 2**bits after c10's range
check (down to -max), as PyTorch 2.13 stores them (`u[0] = -1` is 255 for uint8)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.dtypes import checked_scalar, wrap_unsigned
from gradcli.core.tensor import data_array


@pytest.mark.parametrize(
    ("value", "dtype", "stored"),
    [
        (-1, np.uint8, 255),
        (-255, np.uint8, 1),
        (-128, np.uint8, 128),
        (np.int64(-2), np.uint8, 254),
        (-1, np.int8, -1),
        (True, np.uint8, True),
        (-1.5, np.int8, -1.5),
    ],
)
def test_wrap_unsigned(value, dtype, stored) -> None:
    got = wrap_unsigned(value, np.dtype(dtype))
    assert got == stored and type(got) in (int, type(value))


@pytest.mark.parametrize("value", [-256, 256, -0.5])
def test_out_of_range_still_refused(value) -> None:
    with pytest.raises(GradcliError, match="without overflow"):
        checked_scalar(value, np.dtype(np.uint8))


def test_tensor_data_wraps_negative_ints() -> None:
    arr = data_array([[-1, 0], [7, -255]], np.dtype(np.uint8))
    assert arr.dtype == np.uint8 and arr.tolist() == [[255, 0], [7, 1]]
    with pytest.raises(GradcliError, match="without overflow"):
        data_array([-256], np.dtype(np.uint8))
    with pytest.raises(GradcliError, match="without overflow"):
        data_array([-1.5], np.dtype(np.uint8))
