"""Writing into a tensor whose elements share memory places (`x.expand(...)`): PyTorch lets
fill_ and zero_ with a number, masked_fill_, index_fill_, index_put_ (`x[mask] = v`, with its
deprecation warning) and an item assignment selecting distinct places write through to the
base; everything else is its "more than one element of the written-to tensor refers to a single
memory location" error. gradcli refused them all, and an item assignment silently wrote a copy
(the base unchanged). Corpus 540 has PyTorch's text."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def run(text: str) -> str:
    return "".join(parse("import torch\n" + text, "t.py").run().output)


@pytest.mark.parametrize(
    ("op", "base_after"),
    [
        ("x.fill_(5)", [5, 5, 5]),
        ("x.zero_()", [0, 0, 0]),
        (
            "x.masked_fill_(torch.tensor([[True, False, False], [False, False, True]]), -1)",
            [-1, 2, -1],
        ),
        ("x.index_fill_(1, torch.tensor([1]), 7)", [1, 7, 3]),
        ("x.index_put_((torch.tensor([1]), torch.tensor([0])), torch.tensor(4.))", [4, 2, 3]),
        ("x[0] = torch.tensor([6., 5., 4.])", [6, 5, 4]),
        ("x[1, 2] = 9", [1, 2, 9]),
        ("x[torch.tensor([[False, True, False], [False, False, False]])] = 8", [1, 8, 3]),
    ],
)
def test_writes_pytorch_allows_reach_the_base(op: str, base_after: list[float]) -> None:
    out = run(
        "b = torch.tensor([1., 2., 3.])\nx = b.expand(2, 3)\n"
        f"{op}\nprint(b.tolist(), x.tolist() == [b.tolist()] * 2, b._version > 0)\n"
    )
    assert out == f"{[float(v) for v in base_after]} True True\n"


@pytest.mark.parametrize(
    "op",
    [
        "x.add_(1)",
        "x.mul_(2)",
        "x.copy_(torch.ones(2, 3))",
        "x.fill_(torch.tensor(1.))",
        "x.clamp_(0, 1)",
        "x.uniform_()",
        "x.scatter_(1, torch.tensor([[0], [1]]), 4.0)",
        "x[:, 0] = 5",
        "x[...] = torch.ones(2, 3)",
        "x += 1",
    ],
)
def test_other_writes_are_pytorch_s_error_and_change_nothing(op: str) -> None:
    with pytest.raises(GradcliError, match="more than one element of the written-to tensor"):
        run(f"b = torch.tensor([1., 2., 3.])\nx = b.expand(2, 3)\n{op}\n")
    # the base is untouched by the refused write
    assert (
        run(
            f"b = torch.tensor([1., 2., 3.])\nx = b.expand(2, 3)\n"
            f"try:\n    {op}\nexcept RuntimeError:\n    pass\nprint(b.tolist())\n"
        )
        == "[1.0, 2.0, 3.0]\n"
    )


def test_a_place_shared_by_masked_and_unmasked_elements_takes_the_fill() -> None:
    # the masked element and the unmasked ones are one place: the fill wins, in any order
    for row in range(3):
        mask = np.zeros((3, 4), dtype=bool)
        mask[row, 1] = True
        out = run(
            "b = torch.zeros(3, 1)\nx = b.expand(3, 4)\n"
            f"x.masked_fill_(torch.tensor({mask.tolist()}), 2.5)\nprint(b.flatten().tolist())\n"
        )
        want = [0.0, 0.0, 0.0]
        want[row] = 2.5
        assert out == f"{want}\n"


def test_a_negative_zero_fill_keeps_its_sign() -> None:
    assert run("b = torch.zeros(2)\nb.expand(3, 2).fill_(-0.0)\nprint(b)\n") == (
        "tensor([-0., -0.])\n"
    )


def test_a_hook_filling_its_gradient_through_expand_leaves_other_tensors_alone() -> None:
    # the gradient of x in x * v is v's values (read-only, shared): the fill reaches the
    # gradient only, as PyTorch's
    out = run(
        "x = torch.ones(4, requires_grad=True)\nv = torch.tensor([1., 2., 3., 4.])\n"
        "def h(g):\n    g.expand(2, 4).fill_(7)\nx.register_hook(h)\n"
        "(x * v).sum().backward()\nprint(v.tolist(), x.grad.tolist())\n"
    )
    assert out == "[1.0, 2.0, 3.0, 4.0] [7.0, 7.0, 7.0, 7.0]\n"


@pytest.mark.parametrize("op", ["x.add_(1)", "x.mul_(2)", "x.exp_()", "x.copy_(torch.ones(2, 3))"])
def test_the_same_writes_on_a_tensor_requiring_grad_are_pytorch_s_error_too(op: str) -> None:
    # (explore79: the view of a recorded tensor got gradcli's own "not supported", which a
    # program's `except RuntimeError` could not catch)
    base = "w = torch.zeros(3, requires_grad=True)\nb = w * 1\nx = b.expand(2, 3)\n"
    with pytest.raises(GradcliError, match="more than one element of the written-to tensor"):
        run(f"{base}{op}\n")
    got = run(
        f"{base}try:\n    {op}\nexcept RuntimeError as e:\n    print('caught')\n"
        "b.sum().backward()\nprint(b.tolist(), w.grad.tolist())\n"
    )
    assert got == "caught\n[0.0, 0.0, 0.0] [1.0, 1.0, 1.0]\n"
