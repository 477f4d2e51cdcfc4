"""sort / topk / kthvalue of a 0-d tensor as PyTorch 2.13: the element in a new tensor of the
op's node (TopkBackward0, SortBackward0/1, KthvalueBackward0), not the input itself (a change in
place of the result must not reach the input), k and dim checked as for a one-element
dimension, and the return type named after the function."""

from __future__ import annotations

import pytest

from tests.helpers.programs import error, out

X = "x = torch.tensor(0.25, requires_grad=True)\n"


@pytest.mark.parametrize(
    "call, node",
    [
        ("torch.topk(x, 1)", "TopkBackward0"),
        ("torch.topk(x, 0)", "TopkBackward0"),
        ("torch.topk(x, 1, dim=-1, largest=False)", "TopkBackward0"),
        ("torch.sort(x)", "SortBackward0"),
        ("torch.sort(x, dim=0, descending=True)", "SortBackward0"),
        ("torch.sort(x, stable=True)", "SortBackward1"),
        ("torch.kthvalue(x, 1)", "KthvalueBackward0"),
        ("torch.kthvalue(x, 1, dim=-1, keepdim=True)", "KthvalueBackward0"),
    ],
)
def test_the_value_is_a_new_tensor_of_the_ops_node(call: str, node: str) -> None:
    text = out(
        X
        + f"r = {call}\n"
        + "v = r[0]\n"
        + "print(type(v.grad_fn).__name__, v is x, v.item(), r[1].item())\n"
        + "w = v.detach()\n"
        + "w.add_(1.0)\n"  # shares v's memory, not x's
        + "print(x.item(), v.item())\n"
        + "v.backward()\n"
        + "print(x.grad.item())\n"
    )
    assert text == f"{node} False 0.25 0\n0.25 1.25\n1.0\n"


def test_without_grad_there_is_no_node_and_still_a_copy() -> None:
    text = out(
        "y = torch.tensor(3.0)\n"
        "v = torch.topk(y, 1).values\n"
        "v.add_(1.0)\n"
        "print(y.item(), v.item(), v.grad_fn)\n"
    )
    assert text == "3.0 4.0 None\n"


def test_return_types_are_named_after_the_function() -> None:
    text = out(X + "print(type(torch.kthvalue(x, 1)).__name__, type(torch.topk(x, 1)).__name__)\n")
    assert text == "kthvalue topk\n"


@pytest.mark.parametrize(
    "call, message",
    [
        ("torch.topk(x, 2)", "selected index k out of range"),
        ("torch.topk(x, -1)", "selected index k out of range"),
        (
            "torch.topk(x, 1, dim=1)",
            "Dimension out of range (expected to be in range of [-1, 0], but got 1)",
        ),
        (
            "torch.sort(x, dim=2)",
            "Dimension out of range (expected to be in range of [-1, 0], but got 2)",
        ),
        ("torch.kthvalue(x, 2)", "kthvalue(): selected number k out of range for dimension 0"),
        (
            "torch.kthvalue(x, 1, dim=1)",
            "Dimension out of range (expected to be in range of [-1, 0], but got 1)",
        ),
    ],
)
def test_k_and_dim_are_checked_as_for_one_element(call: str, message: str) -> None:
    assert message in str(error(X + call + "\n"))
