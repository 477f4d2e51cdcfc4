"""A view taken of an output of `unbind`/`split`/`chunk` (or of a view a custom Function
returned) keeps PyTorch's CreationMeta: changing it in place with grad mode on is refused,
naming the last view op (`h.unbind(0)[0].view(-1).mul_(2)`: "Output 0 of View ..."). It was
allowed, and a later change of another piece then failed with the wrong words. The messages
expected here are the ones PyTorch 2.13 prints for the same programs."""

from __future__ import annotations

import pytest

from gradcli.lang.program import parse

MULTI = (
    "This view is the output of a function that returns multiple views. Such functions do "
    "not allow the output views to be modified inplace. You should replace the inplace "
    "operation by an out-of-place one."
)


def run(text: str) -> str:
    prog = "import torch\nh = torch.ones(4, 3, requires_grad=True) * 2\n" + text
    return "".join(parse(prog, "t.py").run(dtype="float32").output)


def attempt(change: str) -> str:
    return run(
        f"try:\n    {change}\n    print('allowed')\nexcept RuntimeError as e:\n    print(e)\n"
    )


@pytest.mark.parametrize(
    ("change", "name"),
    [
        ("h.unbind(0)[0].view(-1).mul_(2)", "View"),
        ("h.unbind(0)[1][1:].add_(1)", "Slice"),
        ("h.split(2)[1].t().add_(1)", "T"),
        ("h.chunk(2, dim=1)[0].unsqueeze(0)[0].sub_(1)", "Select"),
        ("h.unbind(1)[0].reshape(2, 2).zero_()", "ReshapeAlias"),  # (PyTorch's name)
        ("h.split(1)[0].squeeze(0).transpose(0, 0).fill_(3)", "Transpose"),
        # the overload number stays unless it is 0 (SqueezeBackward1: Squeeze1)
        ("h.split(2)[0].unsqueeze(0).squeeze(0).add_(1)", "Squeeze1"),
        ("h.split(2)[0].unsqueeze(0).squeeze((0,)).add_(1)", "Squeeze2"),
        ("h.split(2)[0].unsqueeze(0).squeeze().add_(1)", "Squeeze"),
        ("h.split(2)[0].diagonal().fill_(0)", "Diagonal"),
    ],
)
def test_a_view_of_a_piece_is_refused_with_its_own_name(change: str, name: str) -> None:
    assert (
        attempt(change) == f"Output 0 of {name} is a view and is being modified inplace. {MULTI}\n"
    )


@pytest.mark.parametrize(
    "change",
    [
        "h.unbind(0)[0].clone().view(-1).mul_(2)",  # a copy is free
        "h.unbind(0)[0].detach().view(-1).mul_(2)",  # no gradient recorded through it
        "torch.ones(4, 3).unbind(0)[0].view(-1).mul_(2)",  # nothing requires grad
    ],
)
def test_copies_and_untracked_views_may_change(change: str) -> None:
    assert attempt(change) == "allowed\n"


def test_a_view_made_under_no_grad_may_change_there() -> None:
    out = run("with torch.no_grad():\n    h.unbind(0)[2].view(-1).fill_(0)\nprint(h.sum())\n")
    assert out == "tensor(18., grad_fn=<SumBackward0>)\n"


def test_a_stale_view_of_a_piece_names_its_op() -> None:
    out = run(
        "g = h.clone()\nc = g.unbind(0)[0][:2]\ng.mul_(3)\n"
        "try:\n    c.sum()\nexcept RuntimeError as e:\n    print(e)\n"
    )
    assert out == (
        "Output 0 of Slice is a view and its base or another view of its base has been "
        f"modified inplace. {MULTI}\n"
    )


def test_a_view_of_a_custom_functions_view_is_refused() -> None:
    out = run(
        "class Same(torch.autograd.Function):\n"
        "    @staticmethod\n    def forward(ctx, x):\n        return x.view_as(x)\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g\n"
        "y = Same.apply(h)\n"
        "try:\n    y.view(-1)[:3].mul_(2)\nexcept RuntimeError as e:\n    print(e)\n"
    )
    assert out.startswith(
        "Output 0 of Slice is a view and is being modified inplace. This view was created "
        "inside a custom Function"
    )


@pytest.mark.parametrize(
    ("key", "name"),
    [
        ("0", "Select"),
        ("1:3, 0", "Select"),
        ("1:3", "Slice"),
        ("None", "Unsqueeze"),
        ("...", "View"),
    ],
)
def test_an_assignment_into_a_view_of_a_piece_names_the_view_it_picks(key: str, name: str) -> None:
    out = run(
        f"q = h.unbind(1)[0].view(4, 1)\ntry:\n    q[{key}] = 5.0\n"
        "except RuntimeError as e:\n    print(e)\n"
    )
    assert out == f"Output 0 of {name} is a view and is being modified inplace. {MULTI}\n"
