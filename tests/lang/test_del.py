"""`del` as Python has it: a name unbound (in a function too), an item of a list (index or
slice) or a dict removed, `del x.grad` as PyTorch's (None); anything else refused."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError, NotSupported
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


def test_del_names_items_and_grad() -> None:
    got = out(
        "import torch\nx = torch.ones(2, requires_grad=True)\n(x * 3).sum().backward()\n"
        "print(x.grad)\ndel x.grad\nprint(x.grad)\n"
        "l = list(range(8))\ndel l[0], l[-1]\ndel l[1:5:2]\nprint(l)\n"
        "d = {'a': 1, 'b': 2}\ndel d['a']\nprint(d)\n"
        "def f():\n    t = 1\n    del t\n    return 2\nprint(f())\n"
        "y = 5\ndel y\ntry:\n    print(y)\nexcept NameError as e:\n    print(e)\n"
        "try:\n    del d['zz']\nexcept KeyError as e:\n    print(repr(str(e)))\n"
        "try:\n    del x[0]\nexcept TypeError as e:\n    print(e)\n"
    )
    assert got == (
        "tensor([3., 3.])\nNone\n[1, 3, 5, 6]\n{'b': 2}\n2\nname 'y' is not defined\n"
        "\"'zz'\"\nTensor does not support deleting items\n"
    )


@pytest.mark.parametrize(
    ("program", "error", "message"),
    [
        ("import torch\nm = torch.nn.Linear(2, 2)\ndel m.weight", NotSupported, "`del` of an"),
        ("l = [1]\ndel l[5]", GradcliError, "list assignment index out of range"),
        ("l = [1]\ndel l['a']", GradcliError, "list indices must be integers"),
        ("def f():\n    del q\n    q = 1\nf()", GradcliError, "cannot access local variable"),
        ("del zz", GradcliError, "name 'zz' is not defined"),
    ],
)
def test_del_refusals(program: str, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        out(program)
