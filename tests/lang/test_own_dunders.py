"""Methods named like dunders: a name Python gives no meaning (`__init_weights__`) is a plain
method of any of the program's classes, reached by the program only; an nn.Module subclass's
container protocol (`__len__`, `__getitem__`, `__setitem__`, `__iter__`, `__contains__`,
`__bool__`, `__repr__`, `__str__`) is called as Python calls it; Python's own names stay
refused, and so does reading such a name on anything but the program's own values."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.classes import own_dunder
from gradcli.lang.program import parse

HEAD = "import torch\nimport torch.nn as nn\n"


def out(text: str) -> list[str]:
    return "".join(parse(HEAD + text, "t.py").run(dtype="float32").output).splitlines()


def refused(text: str) -> GradcliError:
    with pytest.raises(GradcliError) as e:
        out(text)
    return e.value


@pytest.mark.parametrize(
    "name,own",
    [
        ("__init_state__", True),
        ("__helper__", True),
        ("__len__", False),
        ("__getattr__", False),
        ("__reduce_ex__", False),
        ("__class_getitem__", False),
        ("__torch_function__", False),
        ("__array_ufunc__", False),
        ("__globals__", False),
        ("__dict__", False),
        ("__init__", False),
        ("____", False),
        ("__x", False),
        ("_x__", False),
    ],
)
def test_which_names_are_the_programs_own(name: str, own: bool) -> None:
    assert own_dunder(name) is own


def test_own_dunder_methods_in_every_kind_of_class() -> None:
    lines = out(
        "class A:\n    def __setup__(self, n):\n        self.n = n\n        return self\n"
        "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.__build__(3)\n"
        "    def __build__(self, n):\n        self.fc = nn.Linear(n, 1)\n"
        "class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
        "        return F.__twice__(x)\n    @staticmethod\n    def backward(ctx, g):\n"
        "        return F.__twice__(g)\n    @staticmethod\n    def __twice__(v):\n"
        "        return 2 * v\n"
        "print(A().__setup__(4).n, M().fc.in_features, M.__build__ is not None)\n"
        "x = torch.ones(2, requires_grad=True)\nF.apply(x).sum().backward()\nprint(x.grad)\n"
        "print(hasattr(A(), '__setup__'), hasattr(A(), '__other__'), "
        "getattr(A(), '__missing_one__', 'none'))\n"
    )
    assert lines == ["4 3 True", "tensor([2., 2.])", "True False none"]


def test_a_module_as_a_container() -> None:
    lines = out(
        "class Bag(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.items = nn.ModuleList([nn.Identity(), nn.ReLU()])\n"
        "    def __len__(self):\n        return len(self.items)\n"
        "    def __getitem__(self, i):\n        return self.items[i]\n"
        "    def __setitem__(self, i, m):\n        self.items[i] = m\n"
        "    def __repr__(self):\n        return f'Bag({len(self)})'\n"
        "    def __bool__(self):\n        return len(self) > 5\n"
        "class Outer(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.bag = Bag()\n"
        "b = Bag()\nb[0] = nn.Tanh()\n"
        "print(len(b), b[0], [type(m).__name__ for m in b], nn.ReLU in [type(m) for m in b])\n"
        "print(Outer())\nprint(bool(b), str(b))\n"
    )
    assert lines == [
        "2 Tanh() ['Tanh', 'ReLU'] True",
        "Outer(",
        "  (bag): Bag(2)",
        ")",
        "False Bag(2)",
    ]


@pytest.mark.parametrize(
    "text,words",
    [
        ("len(nn.Module())", "object of type 'Module' has no len()"),
        ("class M(nn.Module):\n    pass\nlen(M())", "object of type 'M' has no len()"),
        ("class M(nn.Module):\n    pass\nM()[0]", "'M' object is not subscriptable"),
        ("class M(nn.Module):\n    pass\nlist(M())", "'M' object is not iterable"),
        ("class M(nn.Module):\n    pass\nM().__own__()", "'M' object has no attribute '__own__'"),
        ("class M(nn.Module):\n    pass\nM.__own__", "type object 'M' has no attribute '__own__'"),
    ],
)
def test_pythons_errors_without_the_methods(text: str, words: str) -> None:
    assert refused(text).message == words


@pytest.mark.parametrize(
    "text,words",
    [
        (
            "class M(nn.Module):\n    def __getattribute__(self, n):\n        return 1",
            "not supported",
        ),
        ("class M(nn.Module):\n    def __reduce__(self):\n        return 1", "not supported"),
        ("class M(nn.Module):\n    def __add__(self, o):\n        return 1", "not supported"),
        ("x = torch.__own_name__", "not accessible"),
        ("x = getattr(torch, '__own_name__')", "not accessible"),
        ("x = (1).__own_name__", "not accessible"),
        (
            "class A:\n    def __own__(self):\n        return 1\nx = A().__own__.__globals__",
            "not accessible",
        ),
        (
            "class A:\n    def __own__(self):\n        return 1\nsetattr(A(), '__own__', 2)",
            "not accessible",
        ),
    ],
)
def test_pythons_own_names_stay_refused(text: str, words: str) -> None:
    assert words in refused(text).message
