"""A lazy module's parameter before its first call is PyTorch's errors, never a computation on
an empty tensor; a Python number given where PyTorch takes only a tensor is PyTorch's
TypeError / AttributeError, never a value (PyTorch 2.13's words, checked in its
environment)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

HEAD = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"


def out(text: str) -> list[str]:
    return "".join(parse(HEAD + text, "t.py").run(dtype="float32").output).splitlines()


USE = "Attempted to use an uninitialized parameter in "


@pytest.mark.parametrize(
    ("expr", "cls", "shown"),
    [
        ("w.shape", "RuntimeError", None),
        ("w.sum()", "ValueError", "<method 'sum' of 'torch._C.TensorBase' objects>"),
        ("w.numel()", "ValueError", "<method 'numel' of 'torch._C.TensorBase' objects>"),
        ("w + 1", "ValueError", "<method 'add' of 'torch._C.TensorBase' objects>"),
        ("2 * w", "ValueError", "<method 'mul' of 'torch._C.TensorBase' objects>"),
        ("-w", "ValueError", "<method 'neg' of 'torch._C.TensorBase' objects>"),
        ("w == 1", "ValueError", "<method '__eq__' of 'torch._C.TensorBase' objects>"),
        ("torch.sum(w)", "ValueError", "<built-in method sum of type object at 0x"),
        ("F.linear(torch.ones(2), w)", "ValueError", "<built-in function linear>"),
        ("w.backward()", "ValueError", "<function Tensor.backward at 0x"),
    ],
)
def test_uses_before_the_first_call_are_refused(expr: str, cls: str, shown: str | None) -> None:
    got = out(
        f"m = nn.LazyLinear(3)\nw = m.weight\ntry:\n    r = {expr}\n"
        f"except {cls} as e:\n    print(str(e))\n"
    )
    assert len(got) == 1, got
    if shown is None:
        assert got[0].startswith("Can't access the shape of an uninitialized parameter")
    else:
        assert got[0].startswith(USE + shown), got


def test_what_it_allows_and_after_the_first_call() -> None:
    got = out(
        "m = nn.LazyLinear(3)\nw = m.weight\n"
        "print(w, type(w), w.dtype, w.requires_grad, w.grad, w.size(), w.is_floating_point())\n"
        "y = m(torch.ones(2, 5))\nprint(w is m.weight, w.shape, type(w), (w + 1).shape)\n"
    )
    assert got == [
        "<UninitializedParameter> <class 'torch.nn.parameter.UninitializedParameter'> "
        "torch.float32 True None torch.Size([0]) True",
        "True torch.Size([3, 5]) <class 'torch.nn.parameter.Parameter'> torch.Size([3, 5])",
    ]


@pytest.mark.parametrize(
    ("call", "words"),
    [
        ("F.softmax(2.0, dim=0)", "AttributeError 'float' object has no attribute 'softmax'"),
        ("F.softmax(2.0)", "AttributeError 'float' object has no attribute 'dim'"),
        ("F.log_softmax(1, 0)", "AttributeError 'int' object has no attribute 'log_softmax'"),
        ("F.softmin(2.0, dim=None)", "AttributeError 'float' object has no attribute 'dim'"),
        (
            "torch.deg2rad(2.0)",
            "TypeError deg2rad(): argument 'input' (position 1) must be Tensor, not float",
        ),
        (
            "torch.signbit(1)",
            "TypeError signbit(): argument 'input' (position 1) must be Tensor, not int",
        ),
        (
            "torch.special.ndtr(0.5)",
            "TypeError special_ndtr(): argument 'input' (position 1) must be Tensor, not float",
        ),
        (
            "torch.is_grad_enabled(1)",
            "TypeError torch.is_grad_enabled() takes no arguments (1 given)",
        ),
        (
            "M.vector_norm(3.0)",
            "TypeError linalg_vector_norm(): argument 'input' (position 1) must be Tensor, "
            "not float",
        ),
    ],
)
def test_numbers_where_pytorch_takes_a_tensor(call: str, words: str) -> None:
    got = out(
        "import torch.linalg as M\n"
        f"try:\n    print({call})\nexcept (TypeError, AttributeError) as e:\n"
        "    print(type(e).__name__, e)\n"
    )
    assert got == [words]


def test_a_number_where_pytorch_takes_one_still_computes() -> None:
    got = out("print(torch.add(torch.ones(1), 2.0), F.softmax(torch.tensor([0.0, 0.0]), dim=0))")
    assert got == ["tensor([3.]) tensor([0.5000, 0.5000])"]


def test_refused_uncaught_has_a_place() -> None:
    with pytest.raises(GradcliError, match="uninitialized parameter") as info:
        out("m = nn.LazyLinear(3)\nz = m.weight.mean()")
    assert info.value.span is not None
