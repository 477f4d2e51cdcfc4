"""A program's functions and methods print as Python's (Python 3.11, checked by hand):
`<function f at 0x...>`, a method by its qualified name, a bound method with its object."""

from __future__ import annotations

import re

from gradcli.lang.program import parse

ADDRESS = r"0x[0-9a-f]+"


def out(text: str) -> list[str]:
    return "".join(parse(text, "t.py").run(dtype="float32").output).splitlines()


def test_functions_and_methods_print_as_python() -> None:
    got = out(
        "import torch\n"
        "def f(x):\n    return x\n"
        "class A:\n    def g(self):\n        return 1\n"
        "class M(torch.nn.Module):\n    def forward(self, x):\n        return x\n"
        "print(f)\nprint(lambda: 0)\nprint(A.g)\nprint(A().g)\nprint(M().forward)\n"
        "print(f.__name__, A.g.__name__, torch.sigmoid.__name__, torch.optim.Adam.__name__)\n"
    )
    assert re.fullmatch(rf"<function f at {ADDRESS}>", got[0]), got
    assert re.fullmatch(rf"<function <lambda> at {ADDRESS}>", got[1]), got
    assert re.fullmatch(rf"<function A\.g at {ADDRESS}>", got[2]), got
    assert re.fullmatch(rf"<bound method A\.g of <__main__\.A object at {ADDRESS}>>", got[3])
    assert got[4] == "<bound method M.forward of M()>"
    assert got[5] == "f g sigmoid Adam"
