"""Operator and protocol methods called by name on tensors and Python numbers
(`a.__mul__(b)`, `x.__rdiv__(2)`, `torch.Tensor.__add__(a, b)`, `int.__add__(2, 3)`,
`x.__getitem__(0)`, `s.__format__('.3f')`): the interpreter's own operations, so the same op
records as the operators. Expected text is PyTorch 2.13's (run with /work/torchenv)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def run(text: str) -> tuple[str, list]:
    result = parse(text, "t.py").run(dtype="float32")
    return "".join(result.output), list(getattr(result, "warnings", []))


def out(text: str) -> str:
    return run(text)[0]


def fails(text: str) -> GradcliError:
    with pytest.raises(GradcliError) as e:
        out(text)
    return e.value


# The programs themselves are tests/lang/programs/value_dunders.py (every method, and
# gradcheck of a composition of them in float64) and value_dunder_errors.py (errors and
# NotImplemented in Python's and PyTorch's words), run by test_programs.py.


def test_float_of_a_tensor_that_requires_grad_warns_once_as_pytorch() -> None:
    text, warnings = run(
        "import torch\nx = torch.ones(2, requires_grad=True)\ns = x.sum()\n"
        "print(int(s), s.__int__(), bool(s))\nprint(s.__float__(), float(s), complex(s))\n"
    )
    assert text == "2 2 True\n2.0 2.0 (2+0j)\n"
    assert len(warnings) == 1 and "Converting a tensor with requires_grad=True" in warnings[0]
    assert "t.py:5:" in warnings[0]


def test_getattr_reads_them_as_the_attribute_does() -> None:
    assert (
        out(
            "import torch\nx = torch.tensor([1.0, 2.0])\nf = getattr(x, '__mul__')\n"
            "print(f(3), getattr(int, '__add__')(1, 2), f.__name__, getattr(x, '__neg__')())\n"
        )
        == "tensor([3., 6.]) 3 __mul__ tensor([-1., -2.])\n"
    )


@pytest.mark.parametrize(
    "text, message",
    [
        ("x.__add__.__self__", "`.__self__` is not accessible"),
        ("x.__repr__.__globals__", "`.__globals__` is not accessible"),
        ("int.__add__.__objclass__", "`.__objclass__` is not accessible"),
        ("x.__getattribute__('data')", "`.__getattribute__` is not accessible"),
        ("x.__reduce_ex__(2)", "`.__reduce_ex__` is not accessible"),
        ("x.__hash__()", "`.__hash__` is not accessible"),
        ("(1).__sizeof__()", "`.__sizeof__` is not accessible"),
        ("x.__add__.__call__(x)", "`.__call__` of a value of class 'builtin_function_or_method'"),
        ("'ab'.__mul__(10 ** 9)", "`.__mul__` of a value of class 'str' is not supported"),
        ("[1].__len__()", "`.__len__` of a value of class 'list' is not supported"),
        ("getattr(x, '__dict__')", "getattr(..., '__dict__') is not accessible"),
        ("getattr([1], '__len__')", "getattr(..., '__len__') is not accessible"),
        ("(2).__pow__(10 ** 7)", "the size of an integer in bits is 10,000,000"),
        ("(1).__lshift__(10 ** 9)", "over the limit"),
        ("torch.tensor(1.5).__format__('>999999999')", "the width in a format spec"),
        ("x.__iadd__(1)", "a leaf Variable that requires grad is being used in an in-place"),
        ("x.__setitem__(0, 2.0)", "a view of a leaf Variable that requires grad"),
    ],
)
def test_what_reaches_python_or_past_a_limit_is_refused(text: str, message: str) -> None:
    e = fails("import torch\nx = torch.ones(2, requires_grad=True)\ny = " + text)
    assert message in e.message
    assert e.span is not None and e.span.line == 3
