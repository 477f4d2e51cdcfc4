"""Tensor.split names its size `split_size`, torch.split `split_size_or_sections`, as
PyTorch's (corpus 607 holds PyTorch's printed results)."""

from __future__ import annotations

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
