"""A program's functions and lambdas are Python callables: surface and analysis code (hooks,
`torch.func.grad(f)`, `autograd.functional.jacobian(f, x)`, `gradcheck(f, ...)`) calls them,
and they run in the interpreter, under the run's limits."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base import limits
from gradcli.base.errors import GradcliError, LimitError
from gradcli.core.tensor import Tensor
from gradcli.lang.program import parse
from gradcli.lang.values import UserFunction

PROGRAM = """\
import torch
scale = 3.0
def f(x, power=2):
    return (x ** power).sum() * scale
g = lambda t: torch.sin(t) * 2
def loud(x):
    print("called with", x.shape)
    return x
def deep(n):
    return deep(n + 1)
"""


def test_functions_and_lambdas_are_callable_from_python() -> None:
    run = parse(PROGRAM).run()
    f, g = run.env["f"], run.env["g"]
    assert isinstance(f, UserFunction) and callable(f) and callable(g)
    x = Tensor(np.array([1.0, 2.0]), requires_grad=True)
    y = f(x)
    assert isinstance(y, Tensor) and y.item() == pytest.approx(15.0)
    y.backward()
    assert np.allclose(x.grad.data, 2 * 3.0 * x.data)
    assert f(x, power=1).item() == pytest.approx(9.0)
    assert np.allclose(g(x).data, 2 * np.sin(x.data))


def test_a_call_from_python_prints_into_its_run() -> None:
    run = parse(PROGRAM).run()
    run.env["loud"](Tensor(np.zeros(3)))
    assert run.output[-1] == "called with torch.Size([3])\n"


def test_calls_from_python_obey_the_limits() -> None:
    run = parse(PROGRAM).run()
    with pytest.raises(LimitError, match="depth of function calls"):
        run.env["deep"](0)
    with pytest.raises(GradcliError, match="takes from 1 to 2 positional arguments"):
        run.env["f"](1, 2, 3)


def test_a_program_passes_its_functions_to_builtins() -> None:
    text = (
        "def key(p):\n    return -p[1]\n"
        "pairs = [('a', 1), ('b', 3), ('c', 2)]\n"
        "print(sorted(pairs, key=key), max(pairs, key=lambda p: p[1]))\n"
        "print(list(map(lambda v: v * 2, [1, 2])), list(filter(None, [0, 1, 2])))\n"
    )
    assert "".join(parse(text).run().output) == (
        "[('b', 3), ('c', 2), ('a', 1)] ('b', 3)\n[2, 4] [1, 2]\n"
    )


def test_loop_iterations_are_shared_with_calls_from_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GRADCLI_LOOP_ITERATIONS", "100")
    run = parse("def spin(n):\n    for i in range(n):\n        pass\n").run()
    run.env["spin"](60)
    with limits.BUDGET.run():
        with pytest.raises(LimitError, match="loop iterations"):
            run.env["spin"](60)
