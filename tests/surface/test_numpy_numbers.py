"""NumPy scalars where PyTorch's argument parser wants a Number (`torch.full(shape,
np.float32(1.5))`), read as PyTorch reads them (values checked against PyTorch 2.13 by hand:
an integer one fills int64, a floating or bool one the default float dtype)."""

from __future__ import annotations

import numpy as np

from gradcli.surface import constructors as C
from gradcli.surface.args import numpy_number, parsed_number


def test_numpy_scalars_are_python_numbers() -> None:
    assert type(numpy_number(np.int32(3))) is int and numpy_number(np.int32(3)) == 3
    assert type(numpy_number(np.float16(0.5))) is float and numpy_number(np.float16(0.5)) == 0.5
    assert numpy_number(np.True_) == 1.0 and type(numpy_number(np.True_)) is float
    assert numpy_number("x") == "x" and numpy_number(True) is True
    assert parsed_number(np.uint8(7)) == 7


def test_full_takes_the_dtype_of_the_number_numpy_holds() -> None:
    assert C.full((2,), np.int32(3)).dtype == np.int64
    default = C.full((2,), 1.5).dtype  # (the default float dtype)
    assert C.full((2,), np.float16(1.5)).dtype == default
    assert C.full((2,), np.True_).dtype == default
    assert C.full((2,), np.float32(1.5)).data.tolist() == [1.5, 1.5]
