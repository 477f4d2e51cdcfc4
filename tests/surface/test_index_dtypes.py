"""The integer types PyTorch 2.13 takes for indices, class labels and conditions, and its words
for the rest (found by a trial, explore81: each of these ran before and gave an answer where
PyTorch refuses). A program's call, as a program writes it."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

_PRELUDE = (
    "import torch\nimport torch.nn.functional as F\n"
    "x = torch.arange(12.0).reshape(3, 4)\n"
    "i = torch.tensor([[1], [0], [2]])\n"
)


def out(text: str) -> str:
    return "".join(parse(_PRELUDE + text, "t.py").run(dtype="float32").output)


@pytest.mark.parametrize(
    "expr, message",
    [
        ("x.gather(1, i.short())", "gather(): Expected dtype int32/int64 for index"),
        ("x.gather(1, i.float())", "gather(): Expected dtype int32/int64 for index"),
        ("x.gather(1, [[0], [1], [2]])", "argument 'index' (position 2) must be Tensor, not list"),
        ("x.index_select(0, i.flatten().byte())", "Expected dtype int32 or int64 for index"),
        ("x.take(i.char())", "take(): Expected a long tensor for index, but got Char"),
        ("x.take(i.short())", "take(): Expected a long tensor for index, but got Short"),
        ("torch.take_along_dim(x, i.int(), 1)", "dtype of indices should be Long but got Int"),
        ("F.embedding(i.flatten().byte(), x)", "but got torch.ByteTensor instead"),
        ("F.embedding([0, 1], x)", "argument 'indices' (position 2) must be Tensor, not list"),
        ("x[i.flatten().short()]", "tensors used as indices must be long, int, byte or bool"),
        ("torch.where(i > 0, x, 0.0) + torch.where(i, x, 0.0)", "but got a tensor with dtype Long"),
        ("x.where(i.float(), 0.0)", "but got a tensor with dtype Float"),
        ("F.multi_margin_loss(x, i.flatten().int())", "expected scalar type Long but found Int"),
        (
            "torch.bincount(torch.tensor([1.0, 2.0]))",
            "\"bincount_cpu\" not implemented for 'Float'",
        ),
        ("torch.bincount(torch.tensor([True]))", "\"bincount_cpu\" not implemented for 'Bool'"),
    ],
)
def test_refused_in_pytorchs_words(expr: str, message: str) -> None:
    with pytest.raises(GradcliError) as e:
        out(f"y = {expr}\n")
    assert message in e.value.message


def test_what_is_taken() -> None:
    got = out(
        "print(x.gather(1, i.int()).flatten().tolist(), "
        "x.index_select(0, i.flatten().int()).sum())\n"
        "print(x[i.flatten().int()].shape, x[torch.tensor(1, dtype=torch.int16)].tolist())\n"
        "print(F.embedding(i.flatten().int(), x).shape, torch.where(i.byte(), 1.0, 0.0).tolist())\n"
        "print(torch.where(i), torch.bincount(torch.tensor([0, 2, 2], dtype=torch.int8)))\n"
    )
    assert got == (
        "[1.0, 4.0, 10.0] tensor(66.)\n"
        "torch.Size([3, 4]) [4.0, 5.0, 6.0, 7.0]\n"
        "torch.Size([3, 4]) [[1.0], [0.0], [1.0]]\n"
        "(tensor([0, 2]), tensor([0, 0])) tensor([1, 0, 2])\n"
    )
