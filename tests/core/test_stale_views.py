"""A view used after the tensor it views was changed in place by another name: PyTorch
re-derives the view's grad_fn from the changed tensor, so the gradient flows through the
change; gradcli refuses it in plain words rather than give the gradient without the change.
Views used before the change, views taken again after it, views changed through themselves
and changes made under no_grad are not affected (their gradients are PyTorch's: the corpus
program 837 compares them)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import NotSupported
from gradcli.lang.program import parse


def run(text: str) -> str:
    return "".join(parse("import torch\n" + text, "t.py").run(dtype="float32").output)


STALE = [
    # every kind of view, taken before the change of its tensor and used after it
    "y = h.reshape(4)",
    "y = h.view(4)",
    "y = h.t()",
    "y = h[0]",
    "y = h[:, 1:]",
    "y = h.unsqueeze(0)",
    "y = h[0:1].expand(3, 2)",
    "y = h.flatten()",
    "y = h.permute(1, 0)",
    "y = h.narrow(0, 0, 1)",
    "y = h.select(1, 0)",
]


@pytest.mark.parametrize("view", STALE)
@pytest.mark.parametrize("change", ["h.mul_(2)", "h += 1", "h[1] = h[1] * 3", "h.exp_()"])
def test_a_view_taken_before_a_change_is_refused_when_used_after(view: str, change: str) -> None:
    program = (
        "x = torch.tensor([[0.3, -1.2], [2.0, 0.5]], requires_grad=True)\n"
        f"h = x * 1\n{view}\n{change}\nz = (y * 1.5).sum()\nz.backward()\n"
    )
    with pytest.raises(NotSupported, match="view of a tensor that was changed in place"):
        run(program)


@pytest.mark.parametrize("view", STALE)
def test_the_same_view_used_before_the_change_or_taken_after_it_is_fine(view: str) -> None:
    # used before: the gradient of the old values (PyTorch's too); taken after: the new ones
    before = run(
        "x = torch.tensor([[0.3, -1.2], [2.0, 0.5]], requires_grad=True)\n"
        f"h = x * 1\n{view}\nz = (y * 1.5).sum()\nh.mul_(2)\nz.backward()\nprint(x.grad.sum())\n"
    )
    after = run(
        "x = torch.tensor([[0.3, -1.2], [2.0, 0.5]], requires_grad=True)\n"
        f"h = x * 1\nh.mul_(2)\n{view}\nz = (y * 1.5).sum()\nz.backward()\nprint(x.grad.sum())\n"
    )
    # the view holds k elements of h, each weighted 1.5 (and 2 when taken after h.mul_(2))
    k_before = float(before.split("(")[1].split(")")[0]) / 1.5
    k_after = float(after.split("(")[1].split(")")[0]) / 3.0
    assert k_before == pytest.approx(k_after)
    assert k_before > 0


def test_a_change_under_no_grad_leaves_views_usable() -> None:
    got = run(
        "w = torch.nn.Parameter(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))\nwt = w.t()\n"
        "with torch.no_grad():\n    w.mul_(2)\n(wt * 1.0).sum().backward()\nprint(w.grad)\n"
    )
    assert got == "tensor([[1., 1.],\n        [1., 1.]])\n"


def test_a_view_changed_through_itself_stays_usable() -> None:
    got = run(
        "x = torch.ones(2, 3, requires_grad=True)\nh = x * 1\ncol = h[:, 1]\ncol += 5\n"
        "(col * 2.0).sum().backward()\nprint(x.grad)\n"
    )
    assert got == "tensor([[0., 2., 0.],\n        [0., 2., 0.]])\n"
