"""The outputs of a custom Function that PyTorch makes views (an input returned as-is, a view
made inside forward): changing one in place while gradients are recorded is refused in
PyTorch's words; under no_grad, or when nothing requires grad, it is an ordinary change."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core import inplace
from gradcli.core.tensor import Tensor, no_grad
from gradcli.ops.custom import custom_apply


def _identity(x: Tensor) -> Tensor:
    return custom_apply("Ident", [x], lambda: x, lambda g: g)


def _mul2(t: Tensor) -> Tensor:
    return inplace.inplace(t, lambda old: old * 2.0)


def test_an_input_returned_as_is_refuses_a_change_in_place() -> None:
    h = Tensor(np.ones(3), requires_grad=True) * 1.0
    out = _identity(h)
    with pytest.raises(GradcliError, match="Output 0 of Ident is a view and is being modified"):
        _mul2(out)
    with no_grad():
        _mul2(out)  # allowed, and seen through h, whose storage it shares
    assert out.data.tolist() == [2.0, 2.0, 2.0] and h.data.tolist() == [2.0, 2.0, 2.0]


def test_a_fresh_output_or_no_grad_input_is_an_ordinary_tensor() -> None:
    h = Tensor(np.ones(2), requires_grad=True) * 1.0
    fresh = custom_apply("Twice", [h], lambda: Tensor(h.data * 2), lambda g: g * 2)
    _mul2(fresh)  # a tensor made inside forward: changing it is recorded as usual
    assert fresh.grad_fn is not None and fresh.data.tolist() == [4.0, 4.0]
    plain = _identity(Tensor(np.ones(2)))
    _mul2(plain)
    assert plain.data.tolist() == [2.0, 2.0]


def test_several_outputs_use_the_multiple_views_message() -> None:
    h = Tensor(np.ones(2), requires_grad=True) * 1.0
    a, b = custom_apply("Pair", [h, h], lambda: (h, Tensor(h.data / 2)), lambda ga, gb: (ga, gb))
    with pytest.raises(GradcliError, match="Output 0 of Pair .* function that returns multiple"):
        _mul2(a)
    _mul2(b)  # made inside forward: not a view


def test_the_mark_goes_with_the_tensor() -> None:
    h = Tensor(np.ones(2), requires_grad=True) * 1.0
    out = _identity(h)
    assert id(out) in inplace._CUSTOM_VIEWS
    key = id(out)
    del out  # freed by reference counting (no cycle): its mark goes with it
    assert key not in inplace._CUSTOM_VIEWS
