"""`__x` in a class is the private name `_Class__x`, as Python compiles it (explore27):
`self.__softmax`, a method `def __init(self)`; never a way around the dunder audit. Expected
values are Python 3.11's / PyTorch 2.13's (checked by hand with /work/torchenv)."""

from __future__ import annotations

import re

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.mangling import private_name
from gradcli.lang.program import parse
from tests.helpers.programs import out


@pytest.mark.parametrize(
    ("name", "cls", "stored"),
    [
        ("__x", "A", "_A__x"),
        ("__x", "_A", "_A__x"),
        ("__x", "__A_", "_A___x"),
        ("__x", "___", "__x"),  # a class of underscores renames nothing
        ("__x__", "A", "__x__"),  # a dunder is not private
        ("_x", "A", "_x"),
        ("x", "A", "x"),
        ("__x", None, "__x"),
    ],
)
def test_private_name_as_python_stores_it(name: str, cls: str | None, stored: str) -> None:
    assert private_name(name, cls) == stored


def test_private_attributes_methods_and_class_attributes() -> None:
    got = out(
        "import torch\n"
        "class Enc(torch.nn.Module):\n    __k = 2\n"
        "    def __init__(self):\n        super().__init__()\n"
        "        self.__lin = torch.nn.Linear(1, 1)\n        self.__n = 0\n"
        "    def __step(self, x):\n        self.__n += 1\n        return self.__lin(x) * self.__k\n"
        "    def forward(self, x):\n        return self.__step(x)\n"
        "class Sub(Enc):\n    def __init__(self):\n        super().__init__()\n"
        "        self.__n = 'sub'\n"
        "torch.manual_seed(0)\nm = Sub()\nm(torch.ones(1))\n"
        "print(sorted(n for n, _ in m.named_parameters()))\n"
        "print(m._Enc__n, m._Sub__n, Enc._Enc__k, Enc._Enc__step.__name__)\n"
        "print(Enc._Enc__step)\n"
    ).splitlines()
    assert got[0] == "['_Enc__lin.bias', '_Enc__lin.weight']"
    assert got[1] == "1 sub 2 __step"
    assert re.fullmatch(r"<function Enc\.__step at 0x[0-9a-f]+>", got[2])


def test_private_names_in_nested_functions_comprehensions_and_parameters() -> None:
    got = out(
        "class A:\n    def f(self, __v):\n        __w = [__v * i for i in range(2)]\n"
        "        g = lambda __z: __z + __w[1]\n        return g(1)\n"
        "    def b(self):\n        return [self.__q for _ in ()], 5\n"
        "print(A().f(3), A().b(), A._A__f if hasattr(A, '_A__f') else 'no')\n"
    )
    assert got == "4 ([], 5) no\n"


def test_a_private_name_never_opens_the_dunder_audit() -> None:
    for text in (
        "class _:\n    def f(self):\n        return self.__globals\n",
        "class A:\n    def f(self):\n        return self.__dict__\nA.f.__globals__\n",
        "class A:\n    def __init__(self):\n        self.x = 1\nprint(A().__x)\n",
    ):
        with pytest.raises(GradcliError, match="not accessible"):
            parse(text, "t.py")
