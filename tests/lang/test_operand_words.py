"""A tensor with something that is not a number or a tensor (a method or function not called,
a class, a dtype, a module), and a string or list with the wrong partner: Python's own words,
as PyTorch's operators give way and Python refuses the pair; never gradcli's class names
(`BoundMethod`, `UserFunction`, `Builtin`, `DType`, `PyType`)."""

from __future__ import annotations

import pytest

from gradcli.lang.program import parse

PRELUDE = """\
import torch
import torch.nn as nn
x = torch.ones(2)
def f(v):
    return v
class M(nn.Module):
    def forward(self, v):
        return v
m = M()
"""

# value in the program -> the name Python's messages give its class
KINDS = {
    "x.sum": "builtin_function_or_method",
    "[1].append": "builtin_function_or_method",
    "len": "builtin_function_or_method",
    "f": "function",
    "lambda: 1": "function",
    "m.forward": "method",
    "int": "type",
    "nn.Linear": "type",
    "torch.float32": "torch.dtype",
    "m": "M",
}
OPS = ["+", "-", "*", "/", "//", "%", "@"]


def run(body: str) -> str:
    return "".join(parse(PRELUDE + body, "t.py").run(dtype="float32").output)


def caught(expr: str) -> str:
    return run(f"try:\n    {expr}\nexcept TypeError as e:\n    print(e)\n").strip()


@pytest.mark.parametrize("value", list(KINDS))
@pytest.mark.parametrize("op", OPS)
def test_arithmetic_with_a_non_operand_is_pythons_refusal(value, op):
    name = KINDS[value]
    assert caught(f"x {op} ({value})") == (
        f"unsupported operand type(s) for {op}: 'Tensor' and '{name}'"
    )
    assert caught(f"({value}) {op} x") == (
        f"unsupported operand type(s) for {op}: '{name}' and 'Tensor'"
    )


@pytest.mark.parametrize("value", list(KINDS))
def test_power_and_comparisons_with_a_non_operand(value):
    name = KINDS[value]
    assert caught(f"x ** ({value})") == (
        f"unsupported operand type(s) for ** or pow(): 'Tensor' and '{name}'"
    )
    assert caught(f"x < ({value})") == (
        f"'<' not supported between instances of 'Tensor' and '{name}'"
    )
    # == and != fall back to identity, as Python's default comparison does
    assert run(f"print(x == ({value}), ({value}) != x)") == "False True\n"


def test_the_type_of_each_kind_prints_as_pythons():
    shown = run("print(type(x.sum), type(f), type(m.forward), type(len), type(torch.float32))")
    assert shown == (
        "<class 'builtin_function_or_method'> <class 'function'> <class 'method'> "
        "<class 'builtin_function_or_method'> <class 'torch.dtype'>\n"
    )
    assert run(
        "try:\n    m.forward.nothing\nexcept AttributeError as e:\n    print(e)\n"
        "try:\n    x.sum.nothing\nexcept AttributeError as e:\n    print(e)\n"
    ) == (
        "'function' object has no attribute 'nothing'\n"
        "'builtin_function_or_method' object has no attribute 'nothing'\n"
    )


@pytest.mark.parametrize(
    ("expr", "words"),
    [
        ('"loss: " + 0.5', 'can only concatenate str (not "float") to str'),
        ('"loss: " + x.sum()', 'can only concatenate str (not "Tensor") to str'),
        ('"a" + None', 'can only concatenate str (not "NoneType") to str'),
        ('"=" * 2.5', "can't multiply sequence by non-int of type 'float'"),
        ('"=" * x', "only integer tensors of a single element can be converted to an index"),
        ("[1] * 1.5", "can't multiply sequence by non-int of type 'float'"),
        ("[1] * [2]", "can't multiply sequence by non-int of type 'list'"),
        ("(1,) * None", "can't multiply sequence by non-int of type 'NoneType'"),
        ("[1] + 3", 'can only concatenate list (not "int") to list'),
        ("[1] + (2,)", 'can only concatenate list (not "tuple") to list'),
        ("(1,) + [2]", 'can only concatenate tuple (not "list") to tuple'),
        ("[1] + x.shape", 'can only concatenate list (not "torch.Size") to list'),
        ("x.shape + [1]", "can only concatenate tuple (not list) to torch.Size"),
        ("1 + 'a'", "unsupported operand type(s) for +: 'int' and 'str'"),
    ],
)
def test_strings_and_sequences_with_the_wrong_partner(expr, words):
    assert caught(expr) == words


def test_what_python_allows_still_computes():
    out = run(
        "print('ab' * True, [0] * True, '-' * torch.tensor(3), (1,) + x.shape, 'a' + 'b')\n"
        "print([1] * 2, 2 * (3,), x + True, x * 2.5)\n"
    )
    assert out == (
        "ab [0] --- torch.Size([1, 2]) ab\n"
        "[1, 1] (3, 3) tensor([2., 2.]) tensor([2.5000, 2.5000])\n"
    )
