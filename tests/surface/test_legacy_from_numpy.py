"""torch.LongTensor(arr) and its kin on NumPy arrays (PyTorch's legacy constructors take them):
the constructor's own dtype shares the array's memory, another dtype converts into a copy, a 0-d
integer array is a size."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.surface import constructors as C

CASES = [
    (C.LongTensor, np.int64),
    (C.IntTensor, np.int32),
    (C.ByteTensor, np.uint8),
    (C.BoolTensor, np.bool_),
    (C.FloatTensor, np.float32),
    (C.DoubleTensor, np.float64),
]


@pytest.mark.parametrize(("make", "dt"), CASES)
def test_other_dtype_converts_as_numpy_does(make, dt):
    other = np.float32 if dt == np.float64 else np.float64
    src = np.array([[1.7, -0.2], [3.0, 0.0]], dtype=other)
    t = make(src)
    assert t.data.dtype == np.dtype(dt)
    np.testing.assert_array_equal(t.data, src.astype(dt))
    src[0, 0] = 42.0  # a copy: the array's later change is not seen
    assert t.data[0, 0] == np.array(1.7, dtype=other).astype(dt)


@pytest.mark.parametrize(("make", "dt"), CASES)
def test_same_dtype_shares_memory(make, dt):
    src = np.array([0, 1, 1], dtype=dt)
    t = make(src)
    src[0] = 1
    assert t.data[0] == np.array(1, dtype=dt)
    assert t.data.shape == (3,)


@pytest.mark.parametrize(("make", "dt"), CASES)
def test_zero_dim_integer_array_is_a_size(make, dt):
    t = make(np.array(4))
    assert t.data.shape == (4,)
    assert t.data.dtype == np.dtype(dt)


def test_zero_dim_float_array_is_a_value():
    t = C.FloatTensor(np.array(2.5))
    assert t.data.shape == ()
    assert float(t.data) == 2.5


@pytest.mark.parametrize(("make", "dt"), CASES)
def test_no_arguments_make_an_empty_tensor_of_the_constructors_dtype(make, dt):
    # torch.Tensor() / FloatTensor() / LongTensor() ...: tensor([]) (notebooks grow one with
    # torch.cat in a loop)
    t = make()
    assert t.data.shape == (0,)
    assert t.data.dtype == np.dtype(dt)


def test_torch_tensor_without_arguments_is_an_empty_float_tensor_that_cat_grows():
    from gradcli.lang.program import parse

    text = (
        "import torch\nt = torch.Tensor()\nprint(t, t.dtype, t.shape)\n"
        "for i in range(3):\n    t = torch.cat((t, torch.tensor([i / 2])))\nprint(t)\n"
    )
    got = "".join(parse(text, "t.py").run(dtype="float32").output).splitlines()
    assert got == ["tensor([]) torch.float32 torch.Size([0])", "tensor([0.0000, 0.5000, 1.0000])"]
