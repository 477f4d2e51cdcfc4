"""`torch.asarray` of a tensor, as PyTorch 2.13 has it (each expectation below is what
/work/torchenv prints): converted or copied in the graph (ToCopyBackward0, CloneBackward0),
`requires_grad` left out meaning the tensor's own (with PyTorch's warning, once), given
meaning a leaf's flag set in place (on the tensor itself when it is returned) or a computed
tensor detached. (A converted or copied tensor was a detached copy: gradients were lost.)"""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

# call -> (is the tensor given, dtype, requires_grad, is_leaf, grad_fn, given's requires_grad)
CASES = {
    "torch.asarray(a)": (True, "float32", True, True, None, True),
    "torch.asarray(a, dtype=torch.float64)": (
        False,
        "float64",
        True,
        False,
        "ToCopyBackward0",
        True,
    ),
    "torch.asarray(a, copy=True)": (False, "float32", True, False, "CloneBackward0", True),
    "torch.asarray(a, dtype=torch.float64, copy=True)": (
        False,
        "float64",
        True,
        False,
        "ToCopyBackward0",
        True,
    ),
    "torch.asarray(a, requires_grad=False)": (True, "float32", False, True, None, False),
    "torch.asarray(a, dtype=torch.float64, requires_grad=False)": (
        False,
        "float64",
        False,
        True,
        None,
        True,
    ),
    "torch.asarray(a, copy=True, requires_grad=False)": (False, "float32", False, True, None, True),
    "torch.asarray(a, copy=True, requires_grad=True)": (
        False,
        "float32",
        True,
        False,
        "CloneBackward0",
        True,
    ),
    "torch.asarray(b)": (True, "float32", False, True, None, False),
    "torch.asarray(b, requires_grad=True)": (True, "float32", True, True, None, True),
    "torch.asarray(b, copy=True, requires_grad=True)": (False, "float32", True, True, None, False),
    "torch.asarray(a * 2, requires_grad=False)": (False, "float32", False, True, None, True),
}


@pytest.mark.parametrize("call", list(CASES))
def test_asarray_of_a_tensor(call: str) -> None:
    given = "b" if "asarray(b" in call else "a"
    r = parse(
        "import torch\na = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)\n"
        f"b = torch.tensor([0.5, -1.5, 2.0])\ny = {call}\n"
        f"same = y is {given}\nname = y.grad_fn.name() if y.grad_fn is not None else None\n",
        "t.py",
    ).run(dtype="float32")
    y = r.env["y"]
    got = (
        r.env["same"],
        str(y.dtype),
        y.requires_grad,
        y.node is None,
        r.env["name"],
        r.env[given].requires_grad,
    )
    assert got == CASES[call]


def test_gradients_flow_through_a_converted_or_copied_tensor() -> None:
    r = parse(
        "import torch\na = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)\n"
        "y = torch.asarray(a, dtype=torch.float64)\nz = torch.asarray(a, copy=True)\n"
        "((y ** 2).sum() + (3 * z).sum()).backward()\n",
        "t.py",
    ).run(dtype="float32")
    a = np.array([0.5, -1.5, 2.0])
    np.testing.assert_allclose(r.env["a"].grad.data, 2 * a + 3, rtol=1e-6)
    assert [w.splitlines()[0].split(": warning: ")[1][:48] for w in r.warnings] == [
        "torch.asarray: unspecified requires_grad now def"
    ]


@pytest.mark.parametrize(
    "call, message",
    [
        (
            "torch.asarray(a, dtype=torch.float64, copy=False)",
            "can't alias tensor with dtype 'Float' into dtype 'Double'.",
        ),
        (
            "torch.asarray(a, dtype=torch.int64)",
            "Only Tensors of floating point and complex dtype can require gradients",
        ),
    ],
)
def test_asarray_refusals_in_pytorchs_words(call: str, message: str) -> None:
    with pytest.raises(GradcliError) as e:
        parse(
            f"import torch\na = torch.tensor([0.5, -1.5], requires_grad=True)\ny = {call}\n",
            "t.py",
        ).run(dtype="float32")
    assert e.value.message == message
