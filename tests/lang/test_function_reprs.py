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


def test_torchs_functions_print_as_pytorchs() -> None:
    # (PyTorch 2.13's text, checked in its environment; addresses aside)
    got = out(
        "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
        "x = torch.ones(1)\n"
        "print(torch.sin)\nprint(F.relu)\nprint(F.linear)\nprint(torch.Tensor.add)\n"
        "print(torch.Tensor.backward)\nprint(x.add)\nprint(x.backward)\nprint(nn.Linear)\n"
        "print(torch.optim.SGD)\nprint(torch.linalg.norm)\n"
        "print(torch.sin.__module__, torch.sin.__qualname__, F.relu.__module__)\n"
        "print(nn.Linear.__module__, nn.Linear.__qualname__, torch.linalg.norm.__name__)\n"
        "print(torch.Tensor.add.__qualname__, x.add.__name__)\n"
        "def f():\n    pass\nprint(f.__module__, f.__qualname__)\n"
    )
    assert re.fullmatch(rf"<built-in method sin of type object at {ADDRESS}>", got[0]), got
    assert re.fullmatch(rf"<function relu at {ADDRESS}>", got[1]), got
    assert got[2] == "<built-in function linear>"
    assert got[3] == "<method 'add' of 'torch._C.TensorBase' objects>"
    assert re.fullmatch(rf"<function Tensor\.backward at {ADDRESS}>", got[4]), got
    assert re.fullmatch(rf"<built-in method add of Tensor object at {ADDRESS}>", got[5]), got
    assert got[6] == "<bound method Tensor.backward of tensor([1.])>"
    assert got[7] == "<class 'torch.nn.modules.linear.Linear'>"
    assert got[8] == "<class 'torch.optim.sgd.SGD'>"
    assert got[9] == "<built-in function linalg_norm>"
    assert got[10] == "torch _VariableFunctionsClass.sin torch.nn.functional"
    assert got[11] == "torch.nn.modules.linear Linear linalg_norm"
    assert got[12] == "TensorBase.add add"
    assert got[13] == "__main__ f"


def test_module_and_qualname_are_read_only_strings() -> None:
    import pytest

    from gradcli.base.errors import GradcliError

    for text in (
        "import torch\ntorch.sin.__module__ = 'x'",
        "import torch\nm = torch.sin.__qualname__.__class__.__mro__",
        "import torch\nsetattr(torch.sin, '__module__', 'x')",
    ):
        with pytest.raises(GradcliError):
            out(text)


def test_nn_module_itself_prints_as_pytorchs_class() -> None:
    # (PyTorch 2.13's text; it named gradcli's own class before)
    got = out(
        "import torch\nfrom torch.nn.modules.module import Module\n"
        "print(torch.nn.Module)\nprint([Module], torch.nn.Module.__name__)\n"
    )
    assert got == [
        "<class 'torch.nn.modules.module.Module'>",
        "[<class 'torch.nn.modules.module.Module'>] Module",
    ]


def test_torch_and_f_twins_print_each_as_pytorch() -> None:
    # torch.relu is a C function in PyTorch, F.relu a Python one (and F.sigmoid, F.tanh the
    # other way round from what a program reaching them through torch sees): gradcli's F holds
    # a twin of torch's function, which computes the same (PyTorch 2.13's text, by hand)
    got = out(
        "import torch\nimport torch.nn.functional as F\nx = torch.tensor([-1.0, 2.0])\n"
        "for f in (torch.relu, F.relu, torch.sigmoid, F.sigmoid, torch.tanh, F.tanh,\n"
        "          torch.layer_norm, F.layer_norm, torch.embedding, F.embedding):\n"
        "    print(f, type(f).__name__)\n"
        "print(F.relu is torch.relu, F.relu.__module__, torch.relu.__module__)\n"
        "print(F.relu(x), torch.relu(x), F.sigmoid(x), torch.sigmoid(x))\n"
    )
    for i, name in enumerate(
        ["relu", "relu", "sigmoid", "sigmoid", "tanh", "tanh", "layer_norm", "layer_norm"]
    ):
        if i % 2 == 0:
            want = (
                rf"<built-in method {name} of type object at {ADDRESS}> builtin_function_or_method"
            )
        else:
            want = rf"<function {name} at {ADDRESS}> function"
        assert re.fullmatch(want, got[i]), (i, got[i])
    assert got[10] == "False torch.nn.functional torch"
    assert got[11] == "tensor([0., 2.]) tensor([0., 2.]) tensor([0.2689, 0.8808]) " + (
        "tensor([0.2689, 0.8808])"
    )
