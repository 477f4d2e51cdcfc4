"""NumPy's basic indexing with negative steps (`a[::-1]`) in programs, and PyTorch's refusal
to share a backwards view (negative strides) with a tensor."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang import pyobjects
from gradcli.surface import constructors as C

KEYS = [
    slice(None, None, -1),
    (slice(None, None, -1), 1),
    (1, slice(None, None, -2)),
    (Ellipsis, slice(3, 0, -1)),
    (None, slice(None, None, -3)),
    (slice(-1, -(10**30), -2), slice(None)),
]


@pytest.mark.parametrize("key", KEYS)
def test_negative_steps_index_as_numpy(key):
    a = np.arange(20).reshape(4, 5)
    got = pyobjects.array_item(a, key)
    np.testing.assert_array_equal(got, a[key])


def test_reversed_item_is_a_view():
    a = np.arange(4.0)
    v = pyobjects.array_item(a, slice(None, None, -1))
    a[0] = 9.0
    assert v[-1] == 9.0


def test_out_of_range_integer_beside_a_reversing_slice():
    with pytest.raises(GradcliError, match="out of bounds"):
        pyobjects.array_item(np.arange(6).reshape(2, 3), (5, slice(None, None, -1)))


@pytest.mark.parametrize(
    "make",
    [C.from_numpy, C.made_tensor, C.as_tensor, C.FloatTensor, C.LongTensor, C.legacy_tensor],
)
def test_backwards_view_is_refused_where_pytorch_refuses(make):
    view = np.arange(3)[::-1]
    with pytest.raises(GradcliError, match="negative"):
        make(view)
    t = make(view.copy())  # a copy is forward again
    np.testing.assert_array_equal(np.asarray(t.data, dtype=np.int64), [2, 1, 0])
