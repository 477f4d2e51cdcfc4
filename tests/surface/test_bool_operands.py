"""A Python bool is a bool operand to PyTorch (its wrapped number's dtype): `x - True` is
refused as a bool tensor's subtraction, and a shift whose promoted dtype is bool has no kernel
(found by comparing the operator methods called by name with PyTorch's, feat24). Expected
words are PyTorch 2.13's."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


@pytest.mark.parametrize(
    "expr, message",
    [
        ("x - True", "Subtraction, the `-` operator, with a bool tensor is not supported"),
        ("True - x", "Subtraction, the `-` operator, with a bool tensor is not supported"),
        ("torch.sub(x, False)", "Subtraction, the `-` operator, with a bool tensor"),
        ("torch.tensor([1, 2]) - True", "Subtraction, the `-` operator, with a bool tensor"),
        ("b << True", "\"lshift_cpu\" not implemented for 'Bool'"),
        ("b >> b", "\"rshift_cpu\" not implemented for 'Bool'"),
        ("True << b", "\"lshift_cpu\" not implemented for 'Bool'"),
    ],
)
def test_refused_in_pytorchs_words(expr: str, message: str) -> None:
    with pytest.raises(GradcliError) as e:
        out(
            "import torch\nx = torch.tensor([1.0, 2.0])\nb = torch.tensor([True, False])\n"
            f"y = {expr}\n"
        )
    assert message in e.value.message


def test_the_same_with_numbers_works() -> None:
    got = out(
        "import torch\nx = torch.tensor([1.0, 2.0])\nb = torch.tensor([True, False])\n"
        "print(x - 1, b << 1, torch.tensor([1, 2]) << True, x + True)\n"
    )
    assert got == "tensor([0., 1.]) tensor([2, 0]) tensor([2, 4]) tensor([2., 3.])\n"
