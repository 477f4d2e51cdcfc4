"""nn.LazyConv1d/2d/3d and nn.LazyBatchNorm1d/2d/3d (sizes from the first call, parameters
drawn then, the module becoming its eager class), torch.range and the float32 matmul
precision setting; their printed forms and numbers against PyTorch are corpus 934's."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.tensor import Tensor
from gradcli.surface import constructors as K
from gradcli.surface import layers as L
from gradcli.surface.nn import Parameter, UninitializedParameter


def test_lazy_conv_takes_its_channels_from_the_first_input() -> None:
    m = L.LazyConv2d(3, 2, padding=1)
    assert m.name == "LazyConv2d" and m.in_channels == 0
    assert isinstance(m._parameters["weight"], UninitializedParameter)
    y = m(Tensor(np.ones((2, 5, 4, 4))))
    assert m.name == "Conv2d" and m.in_channels == 5
    assert y.shape == (2, 3, 5, 5)
    assert type(m._parameters["weight"]) is Parameter
    assert m._parameters["weight"].shape == (3, 5, 2, 2)
    unbatched = L.LazyConv1d(2, 3)
    assert unbatched(Tensor(np.ones((4, 6)))).shape == (2, 4)
    assert unbatched.in_channels == 4


def test_lazy_conv_checks_groups_at_the_first_call() -> None:
    m = L.LazyConv2d(4, 1, groups=2)
    with pytest.raises(GradcliError, match="in_channels must be divisible by groups"):
        m(Tensor(np.ones((1, 3, 2, 2))))
    assert m.name == "LazyConv2d"  # still lazy: a right input materializes it
    assert m(Tensor(np.ones((1, 2, 2, 2)))).shape == (1, 4, 2, 2)


def test_lazy_batchnorm_becomes_batchnorm() -> None:
    b = L.LazyBatchNorm2d()
    # PyTorch's UninitializedBuffer until the first call (it prints so, isinstance sees it)
    assert b.num_features == 0 and repr(b._buffers["running_mean"]) == "<UninitializedBuffer>"
    assert type(b._buffers["running_var"]).__name__ == "UninitializedBuffer"
    y = b(Tensor(np.arange(24.0).reshape(2, 3, 2, 2)))
    assert type(b) is L.BatchNorm2d and b.num_features == 3
    assert y.shape == (2, 3, 2, 2)
    assert np.allclose(b._buffers["running_mean"].data, 0.1 * np.array([7.5, 11.5, 15.5]))
    assert int(b._buffers["num_batches_tracked"].data) == 1
    plain = L.LazyBatchNorm1d(affine=False, track_running_stats=False)
    plain(Tensor(np.ones((4, 2))))
    assert plain._parameters["weight"] is None and plain._buffers["running_mean"] is None


def test_range_includes_its_end() -> None:
    assert K.range_(1, 4).data.tolist() == [1.0, 2.0, 3.0, 4.0]
    assert K.range_(0, 1, 0.25).data.tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    with pytest.raises(GradcliError, match="step must be nonzero"):
        K.range_(0, 3, 0)
    with pytest.raises(GradcliError, match="upper bound and lower bound inconsistent"):
        K.range_(3, 0)


def test_arange_binds_positions_then_keywords_as_pytorch() -> None:
    # PyTorch's parser fills (start, end, step) by position first, then by keyword: the
    # step given by name after two positions used to be dropped in silence
    assert K.arange(0, 3, step=0.5).data.tolist() == [0.0, 0.5, 1.0, 1.5, 2.0, 2.5]
    assert K.arange(1, end=5).data.tolist() == [1, 2, 3, 4]
    assert K.arange(1, end=5, step=2).data.tolist() == [1, 3]
    assert K.arange(start=1, end=5, step=2).data.tolist() == [1, 3]
    assert K.arange(end=3).data.tolist() == [0, 1, 2]
    assert K.arange(2, 5).data.tolist() == [2, 3, 4]


@pytest.mark.parametrize(
    "args, kwargs, words",
    [
        ((5,), {"step": 2}, "invalid combination of arguments - got (int, step=int)"),
        ((), {"end": 5, "step": 2}, "invalid combination of arguments - got (step=int, end=int, )"),
        ((0, 3, 0.5), {"step": 1}, "invalid combination of arguments - got (int, int, float, step"),
        ((1,), {"start": 2}, "invalid combination of arguments - got (int, start=int)"),
        ((), {"step": 2}, 'arange() missing 1 required positional arguments: "end"'),
    ],
)
def test_arange_refuses_what_no_overload_takes(args: tuple, kwargs: dict, words: str) -> None:
    with pytest.raises(GradcliError) as caught:
        K.arange(*args, **kwargs)
    assert words in str(caught.value)
    assert caught.value.python_class == "TypeError"
