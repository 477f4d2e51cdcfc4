"""A program's function takes attributes as Python's does (`add.make_vjp = add_make_vjp` in
an autodiff lesson, a call counter `f.calls += 1`): read back, tested with hasattr/getattr,
deleted; a missing one is Python's AttributeError; the names with dunders stay refused.
Expected text is Python's (checked with /work/torchenv's Python)."""

from __future__ import annotations

import pytest

from gradcli.base import limits
from gradcli.base.errors import GradcliError, LimitError
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run().output).strip()


def test_kept_read_and_deleted_as_python_does() -> None:
    text = (
        "def add(x, b):\n    return x + b\n"
        "def add_make_vjp(x, b):\n    def vjp(u):\n        return u, u\n    return vjp\n"
        "add.make_vjp = add_make_vjp\n"
        "print(add.make_vjp(1, 2)(5), hasattr(add, 'make_vjp'), hasattr(add, 'other'))\n"
        "def counted(x):\n    counted.calls += 1\n    return x * 2\n"
        "counted.calls = 0\nfor i in range(3):\n    counted(i)\nprint(counted.calls)\n"
        "g = lambda x: x\ng.tag = 'lam'\nprint(g.tag, getattr(g, 'tag'), getattr(g, 'no', 'd'))\n"
        "del counted.calls\nprint(hasattr(counted, 'calls'))\n"
        "try:\n    print(add.missing)\nexcept AttributeError as e:\n    print(e)\n"
        "try:\n    del add.missing\nexcept AttributeError as e:\n    print(e)\n"
    )
    assert out(text) == (
        "(5, 5) True False\n3\nlam lam d\nFalse\n"
        "'function' object has no attribute 'missing'\n"
        "'function' object has no attribute 'missing'"
    )


def test_a_method_reads_an_attribute_of_the_function_it_calls() -> None:
    text = (
        "import torch\n"
        "def square(x):\n    return x * x\n"
        "square.vjp = lambda x, u: 2 * x * u\n"
        "x = torch.tensor([1., 2.])\n"
        "print(square.vjp(x, torch.ones(2)), square(x))\n"
    )
    assert out(text) == "tensor([2., 4.]) tensor([1., 4.])"


def test_dunder_names_stay_refused() -> None:
    with pytest.raises(GradcliError, match="setting `__name__` of a function is not supported"):
        out("def f(x):\n    return x\nf.__name__ = 'g'\n")
    with pytest.raises(GradcliError, match="not accessible"):
        out("def f(x):\n    return x\nf.__code__ = None\n")


def test_the_number_of_attributes_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(limits.LIST_ITEMS.env, "100")
    text = "def f(x):\n    return x\nfor i in range(200):\n    setattr(f, 'a' + str(i), i)\n"
    with pytest.raises(LimitError, match="the number of attributes of the function f"):
        out(text)
