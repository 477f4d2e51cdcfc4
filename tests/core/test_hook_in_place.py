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


LAYER_HEAD = "import torch\nimport torch.nn.functional as F\ndef dbl(g):\n    g *= 2\n"


# The layers' and losses' kernels give each input a gradient of its own in PyTorch (a change
# in place in a leaf's hook reaches only that leaf; `skip` receives the same upstream
# gradient and keeps it).
@pytest.mark.parametrize(
    "body, expected",
    [
        pytest.param(
            (
                "w = torch.tensor([[[[1., -2.], [0.5, 1.]]]], requires_grad=True)\n"
                "b = torch.tensor([0.25], requires_grad=True)\n"
                "w.register_hook(dbl)\n"
                "b.register_hook(dbl)\n"
                "x = torch.tensor([[[[1., 2., 0.], [0., 1., 3.], [2., 1., 1.]]]])\n"
                "y = F.conv2d(x, w, b)\n"
                "(y * torch.tensor([[[[1., 2.], [3., 4.]]]])).sum().backward()\n"
                "print(w.grad, b.grad)\n"
            ),
            ("tensor([[[[18., 34.],\n          [24., 28.]]]]) tensor([20.])"),
            id="conv",
        ),
        pytest.param(
            (
                "g = torch.tensor([1., 2.], requires_grad=True)\n"
                "b = torch.tensor([0., 1.], requires_grad=True)\n"
                "g.register_hook(dbl)\n"
                "b.register_hook(dbl)\n"
                "x = torch.tensor([[1., 2.], [3., 5.], [0., 1.]])\n"
                "y = F.batch_norm(x, None, None, g, b, training=True)\n"
                "(y * torch.tensor([[1., 2.], [3., 4.], [5., 6.]])).sum().backward()\n"
                "print(g.grad, b.grad)\n"
            ),
            ("tensor([-3.2071, -2.3534]) tensor([18., 24.])"),
            id="batch_norm",
        ),
        pytest.param(
            (
                "x = torch.tensor([[1., 2., 4.], [0., 1., 3.]], requires_grad=True)\n"
                "x.register_hook(dbl)\n"
                "skip = torch.zeros(2, 3, requires_grad=True)\n"
                "y = F.layer_norm(x, (3,)) + skip\n"
                "(y * torch.tensor([[1., 5., 2.], [4., 1., 7.]])).sum().backward()\n"
                "print(x.grad, skip.grad)\n"
            ),
            (
                "tensor([[-2.5199,  3.7798, -1.2599],\n"
                "        [ 2.7489, -4.1235,  1.3745]]) tensor([[1., 5., 2.],\n"
                "        [4., 1., 7.]])"
            ),
            id="layer_norm",
        ),
        pytest.param(
            (
                "e = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)\n"
                "e.register_hook(dbl)\n"
                "y = F.embedding(torch.tensor([2, 0, 2]), e)\n"
                "(y * torch.tensor([[1., 2.], [3., 4.], [5., 6.]])).sum().backward()\n"
                "print(e.grad)\n"
            ),
            ("tensor([[ 6.,  8.],\n        [ 0.,  0.],\n        [12., 16.]])"),
            id="embedding",
        ),
        pytest.param(
            (
                "a = torch.tensor([[[1., 0.], [2., 1.]]], requires_grad=True)\n"
                "b = torch.tensor([[[0.5, 1.], [1., -1.]]], requires_grad=True)\n"
                "a.register_hook(dbl)\n"
                "skip = torch.zeros(1, 2, 2, requires_grad=True)\n"
                "y = torch.softmax(torch.bmm(a, b), -1) + skip\n"
                "(y * torch.tensor([[[1., 2.], [3., 4.]]])).sum().backward()\n"
                "print(a.grad, b.grad, skip.grad)\n"
            ),
            (
                "tensor([[[ 0.2350, -0.9400],\n"
                "         [ 0.1966, -0.7864]]]) tensor([[[-0.6282,  0.6282],\n"
                "         [-0.1966,  0.1966]]]) tensor([[[1., 2.],\n"
                "         [3., 4.]]])"
            ),
            id="bmm_softmax",
        ),
        pytest.param(
            (
                "x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n"
                "x.register_hook(dbl)\n"
                "y = x[1] * 3 + x[torch.tensor([0])].sum(0)\n"
                "y.sum().backward()\n"
                "print(x.grad)\n"
            ),
            ("tensor([[2., 2.],\n        [6., 6.]])"),
            id="select_index",
        ),
    ],
)
def test_followed_through_the_layers_kernels(body: str, expected: str) -> None:
    assert "".join(parse(LAYER_HEAD + body, "t.py").run().output).strip() == expected
