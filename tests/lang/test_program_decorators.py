"""A decorator of the program's own is a call on the function, `f = deco(f)`, as Python
applies it (explore27): a logging or counting wrapper, a decorator factory, one on a module's
method; errors at the decorator, the limits of calls. Expected values are Python 3.11's /
PyTorch 2.13's (checked by hand with /work/torchenv)."""

from __future__ import annotations

import re

import pytest

from gradcli.base.errors import GradcliError, LimitError
from gradcli.lang.program import parse
from tests.helpers.programs import error, out


def test_a_decorator_of_the_program_is_a_call_on_the_function() -> None:
    got = out(
        "import torch\nlog = []\n"
        "def traced(fn):\n    def wrapper(*a, **k):\n        log.append(fn.__name__)\n"
        "        return fn(*a, **k)\n    return wrapper\n"
        "def times(n):\n    def deco(fn):\n        def inner(x):\n"
        "            for _ in range(n):\n                x = fn(x)\n            return x\n"
        "        return inner\n    return deco\n"
        "@traced\n@times(3)\ndef double(x):\n    return x * 2\n"
        "x = torch.ones(2, requires_grad=True)\ndouble(x).sum().backward()\n"
        "print(x.grad, log, double.__name__)\n"
        "class M(torch.nn.Module):\n    @traced\n    def forward(self, x):\n        return x + 1\n"
        "print(M()(torch.zeros(1)), log)\n"
        "@(lambda f: f)\ndef same():\n    return 7\nprint(same())\n"
    )
    assert got == (
        # (traced wraps what times(3) made: `inner`; `double` is now traced's `wrapper`)
        "tensor([8., 8.]) ['inner'] wrapper\ntensor([1.]) ['inner', 'forward']\n7\n"
    )


def test_a_decorator_that_returns_none_leaves_none() -> None:
    e = error("def d(f):\n    return None\n@d\ndef g():\n    pass\ng()\n")
    assert e.message == "'NoneType' object is not callable"
    assert e.span is not None and e.span.line == 6


def test_an_error_applying_a_decorator_is_at_the_decorator() -> None:
    e = error("@print(1, 2)\ndef g():\n    pass\n")
    assert e.message == "'NoneType' object is not callable"
    assert e.span is not None and (e.span.line, e.span.col) == (1, 1)


def test_decorators_run_under_the_limits_of_calls() -> None:
    with pytest.raises(LimitError):
        parse("def d(f):\n    return d(f)\n@d\ndef g():\n    pass\n", "t.py").run()


def test_staticmethod_outside_a_class_stays_refused() -> None:
    with pytest.raises(GradcliError, match="@staticmethod is not supported here"):
        parse("@staticmethod\ndef f():\n    pass\n", "t.py")


def test_functools_wraps_gives_the_wrapper_the_name_of_what_it_wraps() -> None:
    got = out(
        "import torch\nimport functools\nfrom functools import wraps\n"
        "def logged(fn):\n    @functools.wraps(fn)\n    def wrapper(*a):\n"
        "        return fn(*a)\n    return wrapper\n"
        "def tag(fn):\n    fn.kind = 'loss'\n    return fn\n"
        "@logged\n@tag\ndef mse(a, b):\n    return ((a - b) ** 2).mean()\n"
        "print(mse.__name__, mse.kind, mse(torch.ones(2), torch.zeros(2)))\n"
        "class M(torch.nn.Module):\n    @logged\n    def forward(self, x):\n"
        "        return x * 2\n"
        "print(M.forward.__name__, M.forward)\n"
        "def keep(f):\n    @wraps(f)\n    def g(*a):\n        return f(*a)\n    return g\n"
        "print(keep(torch.sin).__name__, keep(lambda v: v).__name__)\n"
    ).splitlines()
    assert got[0] == "mse loss tensor(1.)"
    assert re.fullmatch(r"forward <function M\.forward at 0x[0-9a-f]+>", got[1])
    assert got[2] == "sin <lambda>"


def test_functools_wraps_copies_no_more_than_names_and_attributes() -> None:
    with pytest.raises(GradcliError, match="not supported"):
        parse(
            "import functools\ndef f():\n    pass\n"
            "d = functools.wraps(f, assigned=('__globals__',))\n",
            "t.py",
        ).run()
    # a builtin's name is not writable, as in Python
    e = error("import functools\ndef f():\n    pass\ng = functools.wraps(f)(print)\n")
    assert e.message == (
        "attribute '__name__' of 'builtin_function_or_method' objects is not writable"
    )
    assert e.python_class == "AttributeError"
