"""c10's checked_convert, as `dtypes.checked_scalar` follows it: the numbers PyTorch 2.13
refuses to write into a tensor of each dtype (recorded from its fill_, whose errors every
Scalar-taking kernel shares), and the one-element float16/bfloat16 fill it does not check."""

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.dtypes import BF16, checked_scalar

I8, U8, I16, I32, I64 = (np.dtype(t) for t in (np.int8, np.uint8, np.int16, np.int32, np.int64))
F16, F32, F64 = (np.dtype(t) for t in (np.float16, np.float32, np.float64))
INF, NAN = float("inf"), float("nan")

# (value, dtype, the type PyTorch names in its error, or None when the value is taken)
CASES = [
    (127, I8, None),
    (128, I8, "int8_t"),
    (-128, I8, None),
    (-129, I8, "int8_t"),
    (-128.0, I8, None),
    (127.5, I8, "int8_t"),
    (-0.5, I8, None),
    (2.9, I8, None),
    (NAN, I8, "int8_t"),
    (INF, I8, "int8_t"),
    (255, U8, None),
    (256, U8, "uint8_t"),
    (-1, U8, None),  # an int wraps into an unsigned type (down to -255)
    (-255, U8, None),
    (-256, U8, "uint8_t"),
    (-1.0, U8, "uint8_t"),  # a float does not
    (255.5, U8, "uint8_t"),
    (70000, I16, "int16_t"),
    (2**31, I32, "int"),
    (2**63 - 1, I64, None),
    (65504.0, F16, None),
    (65504.00000000001, F16, "c10::Half"),
    (-1e5, F16, "c10::Half"),
    (70000, F16, "c10::Half"),
    (INF, F16, None),
    (NAN, F16, None),
    (3.3895313892515355e38, BF16, None),
    (3.389531389251536e38, BF16, "c10::BFloat16"),
    (3.4028234663852886e38, F32, None),
    (3.402823466385289e38, F32, "float"),
    (-1e39, F32, "float"),
    (1e300, F64, None),
    (True, I8, None),
    (300, np.dtype(np.bool_), None),
]


@pytest.mark.parametrize("value,dt,name", CASES)
def test_checked_convert(value, dt, name):
    if name is None:
        checked_scalar(value, dt)
        checked_scalar(value, dt, 5)
        return
    with pytest.raises(GradcliError) as e:
        checked_scalar(value, dt, 5)
    assert str(e.value) == f"value cannot be converted to type {name} without overflow"
    assert e.value.python_class == "RuntimeError"


def test_one_element_half_fill_is_not_checked():
    # PyTorch: torch.ones(1, dtype=torch.float16).fill_(1e6) is inf; with two elements, the error
    for dt in (F16, BF16):
        checked_scalar(1e39, dt, 1)
        with pytest.raises(GradcliError):
            checked_scalar(1e39, dt, 2)
    with pytest.raises(GradcliError):  # other types check one element as any other
        checked_scalar(300, I8, 1)
    with pytest.raises(GradcliError):
        checked_scalar(1e39, F32, 1)


def test_numpy_numbers_are_their_python_values():
    with pytest.raises(GradcliError):
        checked_scalar(np.int64(300), I8)
    checked_scalar(np.float32(2.5), I8)
