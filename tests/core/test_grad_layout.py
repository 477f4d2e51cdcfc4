"""A leaf's .grad is laid out as the leaf (PyTorch's AccumulateGrad layout contract): the
weight gradient of nn.Linear, which the backward pass makes as a transposed product, is a
contiguous tensor, so `w.grad.view(-1)` (flattening gradients) works as in PyTorch."""

from __future__ import annotations

from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


def test_linear_weight_grad_is_contiguous_and_views() -> None:
    got = out(
        "import torch\ntorch.manual_seed(0)\nlin = torch.nn.Linear(3, 2)\n"
        "lin(torch.randn(4, 3)).sum().backward()\ng = lin.weight.grad\n"
        "print(g.is_contiguous(), g.stride(), g.view(-1).shape)\n"
        "flat = torch.cat([p.grad.view(-1) for p in lin.parameters()])\nprint(flat.shape)\n"
        "lin(torch.randn(4, 3)).sum().backward()\nprint(lin.weight.grad.is_contiguous())\n"
    )
    assert got == "True (3, 1) torch.Size([6])\ntorch.Size([8])\nTrue\n"


def test_a_transposed_leaf_keeps_its_layout() -> None:
    got = out(
        "import torch\nw = torch.ones(2, 3).t().requires_grad_()\n"
        "(w * 2).sum().backward()\nprint(w.is_contiguous(), w.grad.stride())\n"
    )
    assert got == "False (1, 3)\n"
