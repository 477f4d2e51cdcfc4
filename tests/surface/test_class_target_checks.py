"""cross_entropy / nll_loss targets checked in PyTorch 2.13's order and words (0-d inputs,
float targets of the wrong shape, class-probability targets): a 0-d input was a silent
`tensor(0.)` before. The expected words are PyTorch's (recorded with /work/torchenv; corpus 728
holds a program's whole text)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

CASES = [
    (
        "F.cross_entropy(torch.tensor(0.5), torch.tensor(0.3))",
        "IndexError",
        "Dimension specified as 1 but tensor has no dimensions",
    ),
    (
        "F.cross_entropy(torch.tensor(0.5), torch.tensor([0.5]))",
        "IndexError",
        "Dimension out of range (expected to be in range of [-1, 0], but got 1)",
    ),
    (
        "F.cross_entropy(torch.tensor(0.5), torch.tensor(0))",
        "RuntimeError",
        "Expected floating point type for target with class probabilities, got Long",
    ),
    (
        "F.cross_entropy(torch.tensor(0.5), torch.tensor(0.3), label_smoothing=0.1)",
        "IndexError",
        "Dimension specified as 1 but tensor has no dimensions",
    ),
    (
        "nn.CrossEntropyLoss()(torch.tensor(0.5), torch.tensor(0.3))",
        "IndexError",
        "Dimension specified as 1 but tensor has no dimensions",
    ),
    (
        "F.cross_entropy(torch.zeros(3), torch.tensor([1.0, 0.0]))",
        "RuntimeError",
        "expected target dtype to be Long or Byte, but got Float",
    ),
    (
        "F.cross_entropy(torch.zeros(3), torch.tensor([1, 0]))",
        "ValueError",
        "For 1D input, 1D target must have size 1, but got target size: 2",
    ),
    (
        "F.cross_entropy(torch.zeros(2, 3), torch.tensor(1))",
        "ValueError",
        "Expected input batch_size (2) to match target batch_size (0).",
    ),
    (
        "F.cross_entropy(torch.zeros(2, 3), torch.zeros(1, 2))",
        "ValueError",
        "Expected input batch_size (2) to match target batch_size (1).",
    ),
    (
        "F.cross_entropy(torch.zeros(1, 3), torch.zeros(1, 2))",
        "RuntimeError",
        "0D or 1D target tensor expected, multi-target not supported",
    ),
    (
        "F.cross_entropy(torch.zeros(1, 3), torch.zeros(1, 1, 1, dtype=torch.long))",
        "RuntimeError",
        "0D or 1D target tensor expected, multi-target not supported",
    ),
    (
        "F.nll_loss(torch.zeros(1, 2), torch.tensor(1.0))",
        "ValueError",
        "Expected input batch_size (1) to match target batch_size (0).",
    ),
    (
        "F.nll_loss(torch.zeros(3), torch.tensor([1.0, 0.0]))",
        "RuntimeError",
        "expected target dtype to be Long or Byte, but got Float",
    ),
    (
        "F.nll_loss(torch.zeros(3), torch.tensor([[1]]))",
        "RuntimeError",
        "0D or 1D target tensor expected, multi-target not supported",
    ),
    ("F.nll_loss(torch.zeros(2), torch.tensor(5))", "IndexError", "Target 5 is out of bounds."),
]


@pytest.mark.parametrize(("call", "cls", "words"), CASES)
def test_caught_as_pytorch_raises_it(call: str, cls: str, words: str) -> None:
    src = (
        "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
        f"try:\n    print({call})\nexcept Exception as e:\n    print(type(e).__name__, e)\n"
    )
    got = "".join(parse(src, "t.py").run(dtype="float32").output)
    assert got == f"{cls} {words}\n"


def test_uncaught_it_is_an_error_at_the_call() -> None:
    with pytest.raises(GradcliError, match="no dimensions"):
        parse(
            "import torch\nimport torch.nn.functional as F\n"
            "F.cross_entropy(torch.tensor(0.5), torch.tensor(0.3))\n",
            "t.py",
        ).run(dtype="float32")
