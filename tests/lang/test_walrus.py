"""`:=` (assignment expressions) with Python's scope rules: the name is bound in the scope the
expression is in, or, inside comprehensions, in the scope around them; Python's compile-time
errors for the forms it forbids."""

from __future__ import annotations

import pytest

from tests.helpers.programs import error, out


def test_binds_where_it_is_and_gives_the_value() -> None:
    assert out("if (n := 3) > 2:\n    print(n, n * 2)\n") == "3 6\n"
    assert out("x = (y := 4) + 1\nprint(x, y)\n") == "5 4\n"
    assert out("c = 0\nwhile (c := c + 1) < 4:\n    pass\nprint(c)\n") == "4\n"


def test_inside_comprehensions_binds_around_them() -> None:
    prog = "vals = [y for x in range(5) if (y := x * x) > 3]\nprint(vals, y)\n"
    assert out(prog) == "[4, 9, 16] 16\n"
    # in a function, the function's local (a closure reads it after)
    prog = (
        "def f():\n"
        "    total = [(last := i) for i in range(3)]\n"
        "    g = lambda: last\n"
        "    return total, g()\n"
        "print(f())\n"
    )
    assert out(prog) == "([0, 1, 2], 2)\n"
    # nested comprehensions reach the outermost function scope
    prog = (
        "def f():\n    [[(z := i + j) for j in range(2)] for i in range(2)]\n    return z\n"
        "print(f())\n"
    )
    assert out(prog) == "2\n"


def test_in_a_lambda_it_is_the_lambdas() -> None:
    assert out("g = lambda a: (b := a + 1) * b\nprint(g(2))\nb = 0\nprint(b)\n") == "9\n0\n"


def test_a_function_binding_it_makes_it_local() -> None:
    e = error("u = 1\ndef f():\n    print(u)\n    if (u := 2):\n        pass\nf()\n")
    assert "cannot access local variable 'u'" in e.message


def test_tensors_keep_their_graph() -> None:
    prog = (
        "import torch\n"
        "loss = (z := torch.ones(2, requires_grad=True)).sum() * 3\n"
        "loss.backward()\n"
        "print(z.grad)\n"
    )
    assert out(prog) == "tensor([3., 3.])\n"


@pytest.mark.parametrize(
    "prog, words",
    [
        ("print([x := 1 for x in range(3)])\n", "cannot rebind comprehension iteration"),
        ("class A:\n    v = [(q := i) for i in range(2)]\n", "cannot be used in a class body"),
    ],
)
def test_pythons_compile_errors(prog: str, words: str) -> None:
    e = error(prog)
    assert words in e.message and e.span is not None
