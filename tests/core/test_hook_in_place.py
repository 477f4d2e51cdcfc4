"""A leaf's gradient hook that changes its argument in place (`grad *= 2`, `g.clamp_(...)`):
followed when PyTorch's engine hands the leaf a gradient tensor of its own, refused (not
guessed) when PyTorch would share it with another gradient. Expected values are PyTorch
2.13's (checked with /work/torchenv)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

HEAD = (
    "import torch\nx = torch.tensor([1., 2., 3.], requires_grad=True)\n"
    "w = torch.tensor([0.5, 1.5, 2.5], requires_grad=True)\n"
    "def dbl(g):\n    g *= 2\nx.register_hook(dbl)\n"
)


def out(body: str) -> str:
    return "".join(parse(HEAD + body + "print(x.grad, w.grad)\n", "t.py").run().output).strip()


@pytest.mark.parametrize(
    "body, expected",
    [
        ("(x * w).sum().backward()\n", "tensor([1., 3., 5.]) tensor([1., 2., 3.])"),
        ("(x ** 2).mean().backward()\n", "tensor([1.3333, 2.6667, 4.0000]) None"),
        ("((w - x) * 3).sum().backward()\n", "tensor([-6., -6., -6.]) tensor([3., 3., 3.])"),
        ("((x + 1) * 3).sum().backward()\n", "tensor([6., 6., 6.]) None"),
        ("(x.view(3, 1) * 2).sum().backward()\n", "tensor([4., 4., 4.]) None"),
        ("(x * w + x * x).sum().backward()\n", "tensor([ 5., 11., 17.]) tensor([1., 2., 3.])"),
    ],
)
def test_followed_where_the_leaf_alone_holds_its_gradient(body: str, expected: str) -> None:
    assert out(body) == expected


@pytest.mark.parametrize(
    "body",
    [
        "((x + w) * 3).sum().backward()\n",  # add gives x and w the same tensor
        "x.backward(torch.ones(3))\n",  # the caller's own tensor
    ],
)
def test_refused_where_pytorch_shares_it(body: str) -> None:
    with pytest.raises(GradcliError, match="changed its gradient in place"):
        out(body)
