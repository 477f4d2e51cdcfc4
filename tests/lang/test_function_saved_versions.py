"""A custom autograd.Function's ctx.saved_tensors, read in backward, refuses a tensor changed in
place since the call (PyTorch's SavedVariable version check): the error names the node that made
the tensor (its grad_fn now for an input, none for a leaf, the Function's own node for one of its
outputs). A backward that never reads saved_tensors, or keeps tensors as ctx attributes, is not
checked. Expected texts are PyTorch 2.13's (checked with /work/torchenv)."""

from __future__ import annotations

import pytest

from gradcli.lang.program import parse

KEEP = """import torch
class Keep(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return x * w
    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        return g * w, g * x
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
"""

TAIL = (
    " Hint: enable anomaly detection to find the operation that failed to compute its gradient,"
    " with torch.autograd.set_detect_anomaly(True, check_nan=False).\n"
)
HEAD = "one of the variables needed for gradient computation has been modified by an inplace "


def run(text: str) -> str:
    result = parse(text, "t.py").run(dtype="float32")
    return "".join(result.output)


def caught(body: str) -> str:
    lines = "".join("    " + line + "\n" for line in body.splitlines())
    return run(KEEP + "try:\n" + lines + "except RuntimeError as e:\n    print(e)\n")


@pytest.mark.parametrize(
    "body, which",
    [
        # an input changed by an op recorded since: named by its grad_fn now
        (
            "y = x * 1\no = Keep.apply(y, w)\ny.add_(1)\no.sum().backward()",
            "[torch.FloatTensor [2]], which is output 0 of Add, is at version 1; expected "
            "version 0 instead.",
        ),
        # a leaf changed under no_grad: no node to name
        (
            "o = Keep.apply(x, w)\nwith torch.no_grad():\n    w.mul_(10)\no.sum().backward()",
            "[torch.FloatTensor [2]] is at version 1; expected version 0 instead.",
        ),
        # the second backward of a retained graph, after a change between the two
        (
            "o = Keep.apply(x, w)\no.sum().backward(retain_graph=True)\n"
            "with torch.no_grad():\n    w.add_(1)\no.sum().backward()",
            "[torch.FloatTensor [2]] is at version 1; expected version 0 instead.",
        ),
    ],
)
def test_a_changed_saved_input_is_refused(body: str, which: str) -> None:
    assert caught(body) == HEAD + "operation: " + which + TAIL


def test_a_changed_saved_output_names_the_function_and_its_output_number() -> None:
    text = (
        "import torch\nclass Split(torch.autograd.Function):\n"
        "    @staticmethod\n    def forward(ctx, x):\n"
        "        a, b = x * 2, x * 3\n        ctx.save_for_backward(a, b)\n        return a, b\n"
        "    @staticmethod\n    def backward(ctx, ga, gb):\n"
        "        a, b = ctx.saved_tensors\n        return ga * a + gb * b\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\na, b = Split.apply(x)\nb.add_(1)\n"
        "try:\n    (a + b).sum().backward()\nexcept RuntimeError as e:\n    print(e)\n"
    )
    assert run(text) == (
        HEAD + "operation: [torch.FloatTensor [2]], which is output 1 of Split, is at version 1; "
        "expected version 0 instead." + TAIL
    )


@pytest.mark.parametrize(
    "body, grads",
    [
        # unchanged: backward runs
        ("o = Keep.apply(x * 1, w)\no.sum().backward()", "tensor([3., 4.]) tensor([1., 2.])"),
        # changed before the call: the version then is the one expected
        (
            "y = x * 1\ny.add_(1)\no = Keep.apply(y, w)\no.sum().backward()",
            "tensor([3., 4.]) tensor([2., 3.])",
        ),
    ],
)
def test_unchanged_or_earlier_changes_pass(body: str, grads: str) -> None:
    assert caught(body + "\nprint(x.grad, w.grad)") == grads + "\n"


def test_unread_or_attribute_kept_tensors_are_not_checked() -> None:
    text = (
        "import torch\nclass Attr(torch.autograd.Function):\n"
        "    @staticmethod\n    def forward(ctx, x):\n"
        "        ctx.x = x\n        ctx.save_for_backward(x)\n        return x * 3\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g * ctx.x\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\ny = x * 1\no = Attr.apply(y)\n"
        "y.add_(1)\no.sum().backward()\nprint(x.grad)\n"
    )
    assert run(text) == "tensor([2., 3.])\n"
