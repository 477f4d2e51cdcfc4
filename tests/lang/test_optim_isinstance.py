"""isinstance with torch.optim's optimizers and schedulers (a program holds their
constructors): PyTorch 2.13's answers, AdamW being an Adam; the class behind a constructor
stays out of a program's reach."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

HEAD = (
    "import torch\nw = torch.ones(2, requires_grad=True)\nopt = torch.optim.Adam([w], lr=0.1)\n"
    "sch = torch.optim.lr_scheduler.StepLR(opt, 2)\n"
)


def run(body: str) -> str:
    return "".join(parse(HEAD + body, "t.py").run(dtype="float32").output)


def test_isinstance_of_optimizers_and_schedulers_as_pytorch() -> None:
    got = run(
        "print(isinstance(opt, torch.optim.Adam), isinstance(opt, torch.optim.SGD),\n"
        "      isinstance(opt, (torch.optim.SGD, torch.optim.Adam)),\n"
        "      isinstance(sch, torch.optim.lr_scheduler.StepLR), isinstance(w, torch.optim.Adam),\n"
        "      isinstance(torch.optim.AdamW([w]), torch.optim.Adam),\n"
        "      isinstance(opt, torch.optim.lr_scheduler.StepLR))\n"
    )
    assert got == "True False True True False True False\n"


@pytest.mark.parametrize(
    "reach",
    ["torch.optim.Adam.made_class", "getattr(torch.optim.SGD, 'made_class')"],
)
def test_the_class_behind_a_constructor_is_not_reachable(reach: str) -> None:
    with pytest.raises(GradcliError, match="has no attribute 'made_class'"):
        run(f"c = {reach}\n")
