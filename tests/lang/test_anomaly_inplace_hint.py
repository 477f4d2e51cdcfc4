"""PyTorch's in-place-change error ends with one of two hints, chosen by whether anomaly
detection is on when the changed saved value is read (backward, autograd.grad, a custom
Function's saved_tensors, a grad_fn's `_saved_...`), not when the op was recorded. Expected
texts are PyTorch 2.13's (checked with /work/torchenv)."""

from __future__ import annotations

import pytest

from gradcli.lang.program import parse

OFF = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient,"
    " with torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
ON = (
    "Hint: the backtrace further above shows the operation that failed to compute its "
    "gradient. The variable in question was changed in there or anywhere later. Good luck!"
)
HEAD = (
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [torch.FloatTensor [3]], which is output 0 of {op}, is at version 1; "
    "expected version 0 instead. "
)

FN = """class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * 2
    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensors
        return g * a
"""


def caught(body: str) -> str:
    text = "import torch\n" + FN + "x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)\n"
    text += body + "\n"
    result = parse(text, "t.py").run(dtype="float32")
    return "".join(result.output)


CASES = [
    # off throughout
    (
        "y = x.exp()\ny.add_(1)\ntry:\n    y.sum().backward()\nexcept RuntimeError as e:\n"
        "    print(e)",
        "Exp",
        OFF,
    ),
    # backward inside detect_anomaly
    (
        "y = x.exp()\ny.add_(1)\nwith torch.autograd.detect_anomaly():\n    try:\n"
        "        y.sum().backward()\n    except RuntimeError as e:\n        print(e)",
        "Exp",
        ON,
    ),
    # recorded inside the block, read after it: off again
    (
        "with torch.autograd.detect_anomaly():\n    y = x.sigmoid()\ny.add_(1)\ntry:\n"
        "    torch.autograd.grad(y.sum(), x)\nexcept RuntimeError as e:\n    print(e)",
        "Sigmoid",
        OFF,
    ),
    # switched on for the rest of the program, read through autograd.grad
    (
        "torch.autograd.set_detect_anomaly(True)\ny = x.tanh()\ny.mul_(2)\ntry:\n"
        "    torch.autograd.grad(y.sum(), x)\nexcept RuntimeError as e:\n    print(e)",
        "Tanh",
        ON,
    ),
    # a grad_fn's saved result read while on
    (
        "torch.autograd.set_detect_anomaly(True)\ny = x.exp()\nn = y.grad_fn\ny.add_(1)\ntry:\n"
        "    n._saved_result\nexcept RuntimeError as e:\n    print(e)",
        "Exp",
        ON,
    ),
    # a custom Function's saved_tensors, on then off again
    (
        "h = x.exp()\no = Twice.apply(h)\nh.add_(1)\ntorch.autograd.set_detect_anomaly(True)\n"
        "try:\n    o.sum().backward(retain_graph=True)\nexcept RuntimeError as e:\n    print(e)\n"
        "torch.autograd.set_detect_anomaly(False)\ntry:\n    o.sum().backward()\n"
        "except RuntimeError as e:\n    print(e)",
        "Add",
        ON + "\n" + HEAD.format(op="Add") + OFF,
    ),
]


@pytest.mark.parametrize("body, op, hint", CASES)
def test_hint_follows_anomaly_mode_at_read_time(body: str, op: str, hint: str) -> None:
    assert caught(body) == HEAD.format(op=op) + hint + "\n"
