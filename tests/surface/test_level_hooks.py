"""A hook registered inside a torch.func transform on one of its tensors belongs to that
level (PyTorch registers it on the level's wrapper): the level's own backward passes run it
(also vjp's vjp_fn, called after vjp returned), an enclosing transform's pass through the same
graph does not. gradcli ran it in both, a silent wrong answer: grad(grad(f)) of a hook that
scales its gradient by 10 gave 7200 where PyTorch gives 720. Corpus 542 has PyTorch's text."""

from __future__ import annotations

import ast

import numpy as np
import pytest

from gradcli.lang.program import parse


def run(text: str) -> str:
    return "".join(
        parse("import torch\nfrom torch.func import grad, jacrev, vjp\n" + text, "t.py")
        .run()
        .output
    )


F = "def f(x):\n    y = x * 2\n    y.register_hook(lambda g: g * 10)\n    return (y ** 3).sum()\n"


@pytest.mark.parametrize("x", [-1.3, 0.25, 1.5, 2.0])
def test_nested_grads_scale_once(x: float) -> None:
    # f = (2x)^3 with the gradient at y scaled by 10 in f's own pass: f' = 240 x^2, and
    # the outer grad differentiates that (no second scaling): f'' = 480 x
    out = run(
        F + f"x = torch.tensor({x}, dtype=torch.float64)\n"
        "print(grad(f)(x).item(), grad(grad(f))(x).item(), grad(grad(grad(f)))(x).item())\n"
    )
    first, second, third = (float(v) for v in out.split())
    assert np.isclose(first, 240 * x * x, rtol=1e-12)
    assert np.isclose(second, 480 * x, rtol=1e-12)
    assert np.isclose(third, 480, rtol=1e-12)


def test_jacrev_of_jacrev_and_a_later_vjp_fn() -> None:
    out = run(
        F + "x = torch.tensor([1.0, -2.0], dtype=torch.float64)\n"
        "print(jacrev(jacrev(f))(x).tolist())\n"
        "out, pull = vjp(f, x)\nprint(pull(torch.tensor(1.0, dtype=torch.float64))[0].tolist())\n"
        "print(grad(lambda v: vjp(f, v)[1](torch.tensor(1.0, dtype=torch.float64))[0].sum())(x)"
        ".tolist())\n"
    )
    hess, pulled, outer = out.splitlines()
    assert ast.literal_eval(hess) == [[480.0, 0.0], [0.0, -960.0]]
    assert ast.literal_eval(pulled) == [240.0, 960.0]
    assert ast.literal_eval(outer) == [480.0, -960.0]


def test_program_hooks_run_as_before() -> None:
    out = run(
        "w = torch.tensor([1.0, -1.0], requires_grad=True)\n"
        "calls = []\nw.register_hook(lambda g: calls.append(g.tolist()))\n"
        "x = torch.tensor([3.0, 4.0])\n"
        "print(grad(lambda v: (w * v).sum())(x).tolist())\n"
        "(w * x).sum().backward()\n(w * x * 2).sum().backward()\nprint(calls)\n"
    )
    assert out == "[1.0, -1.0]\n[[3.0, 4.0], [6.0, 8.0]]\n"
