"""Keywords of tensor methods as PyTorch's parser names them: Tensor.split's `split_size`
(torch.split's `split_size_or_sections`), Tensor.repeat's `repeats`, permute's `dims`, and
the parser's words for a wrong one (corpora 607 and 608 hold PyTorch's printed results)."""

from __future__ import annotations

import pytest

from tests.helpers.programs import error, out


def test_method_takes_split_size_by_name() -> None:
    text = (
        "import torch\n"
        "x = torch.arange(6.0, requires_grad=True)\n"
        "a, b = x.split(split_size=4)\n"
        "print(a.shape, b.shape)\n"
        "(a.sum() * 2 + b.sum()).backward()\n"
        "print(x.grad.tolist())\n"
        "print([t.tolist() for t in x.split(split_size=[1, 5], dim=0)])\n"
    )
    assert out(text).splitlines() == [
        "torch.Size([4]) torch.Size([2])",
        "[2.0, 2.0, 2.0, 2.0, 1.0, 1.0]",
        "[[0.0], [1.0, 2.0, 3.0, 4.0, 5.0]]",
    ]


def test_function_keeps_its_own_keyword() -> None:
    text = "import torch\nprint(len(torch.split(torch.ones(5), split_size_or_sections=2)))\n"
    assert out(text) == "3\n"
    e = error("import torch\ntorch.split(torch.ones(5), split_size=2)\n")
    assert "split_size" in str(e)


def test_repeat_takes_repeats_by_name() -> None:
    text = (
        "import torch\n"
        "x = torch.tensor([[1.0, 2.0]], requires_grad=True)\n"
        "y = x.repeat(repeats=(3, 2))\n"
        "print(y.shape)\n"
        "(y * torch.arange(12.0).view(3, 4)).sum().backward()\n"
        "print(x.grad.tolist())\n"
    )
    # each element of x appears at columns j and j + 2 of the three rows
    assert out(text).splitlines() == ["torch.Size([3, 4])", "[[30.0, 36.0]]"]


@pytest.mark.parametrize(
    "call, words",
    [
        ("x.repeat(2, repeats=(2, 1))", "repeat() got multiple values for argument 'repeats'"),
        ("x.repeat(repeat=(2, 1))", 'repeat() missing 1 required positional arguments: "repeats"'),
        ("x.repeat(2, 2, foo=1)", "repeat() got an unexpected keyword argument 'foo'"),
        ("x.permute(foo=1)", 'permute() missing 1 required positional arguments: "dims"'),
        ("x.permute(1, 0, foo=1)", "permute() got an unexpected keyword argument 'foo'"),
    ],
)
def test_wrong_keywords_are_the_parsers_words(call: str, words: str) -> None:
    e = error(f"import torch\nx = torch.ones(2, 2)\n{call}\n")
    assert words in str(e)
    assert e.python_class == "TypeError"
