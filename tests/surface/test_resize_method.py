"""`x.resize(*sizes)`: PyTorch's deprecated non-inplace resize (it was "not supported"): it
warns, keeps the elements in the new shape (sharing the storage: a write through the result
reaches x; a non-contiguous x is copied first), records ResizeBackward (the gradient is the
upstream one in x's shape), and refuses a change of the number of elements in PyTorch's
words (a tuple of sizes is not unpacked: PyTorch multiplies 1 by it and refuses)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def run(text: str) -> tuple[str, list]:
    program = parse("import torch\n" + text, "t.py")
    result = program.run()
    return "".join(result.output), list(result.warnings)


@pytest.mark.parametrize(
    ("shape", "sizes"),
    [((6,), (2, 3)), ((2, 3), (3, 2)), ((2, 3), (6,)), ((4,), (1, 4, 1)), ((0, 3), (3, 0))],
)
def test_resize_keeps_the_elements_and_shares_them(shape: tuple, sizes: tuple) -> None:
    n = int(np.prod(shape))
    out, warnings = run(
        f"x = torch.arange({n}.).reshape{shape}.clone()\n"
        f"y = x.resize{sizes}\n"
        "print(tuple(y.shape), y.flatten().tolist() == x.flatten().tolist())\n"
        "if y.numel():\n"
        "    y.view(-1)[0] = -1.0\n"
        "print(x.flatten()[:1].tolist())\n"
    )
    first = "[-1.0]" if n else "[]"
    assert out == f"{tuple(sizes)} True\n{first}\n"
    assert warnings == ["t.py:3:1: warning: non-inplace resize is deprecated"]


def test_a_transposed_tensor_is_copied_in_row_major_order() -> None:
    out, _ = run(
        "x = torch.arange(6.).reshape(2, 3)\n"
        "y = x.t().resize(6)\n"
        "y[0] = 100.0\n"
        "print(y.tolist(), x[0, 0].item())\n"
    )
    assert out == "[100.0, 3.0, 1.0, 4.0, 2.0, 5.0] 0.0\n"


def test_gradient_is_the_upstream_one_in_the_input_shape() -> None:
    out, _ = run(
        "x = torch.linspace(-1, 1, 6).requires_grad_()\n"
        "y = x.resize(2, 3)\n"
        "(y * torch.arange(6.).view(2, 3)).sum().backward()\n"
        "print(y.grad_fn.name(), x.grad.tolist())\n"
    )
    assert out == "ResizeBackward [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]\n"


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (
            "x.resize(4)",
            r"requested resize to 4 \(4 elements in total\), but the given tensor "
            r"has a size of 2x3 \(6 elements\)",
        ),
        ("x.resize((3, 2))", r"requested resize to \(3, 2\) \(\(3, 2\) elements in total\)"),
        ("x.resize(2.0, 3)", r"takes the sizes as integers"),
        ("x.resize(*([1] * 100))", r"at most 64"),
    ],
)
def test_refusals(call: str, words: str) -> None:
    with pytest.raises(GradcliError, match=words):
        run(f"x = torch.ones(2, 3)\n{call}\n")
