"""`torch.no_grad()(f)`: a grad-mode object called on a function decorates it, as
`@torch.no_grad()` does (it was refused as "'GradMode' object is not callable"). Also
`torch.enable_grad()(f)`, `torch.inference_mode()(f)`, and `torch.set_grad_enabled(b)(f)`,
which, as PyTorch's, first restores the mode it set; and of a module, a builtin or a bound
method (a wrapper calling it in the mode; wrapped twice, in the mode the nesting gives)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

HEAD = "import torch\na = torch.ones(2, requires_grad=True)\ndef f(x):\n    return (x * a).sum()\n"


def run(text: str) -> str:
    return "".join(parse(HEAD + text, "t.py").run().output)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("print(torch.no_grad()(f)(a).requires_grad)", "False"),
        ("print(torch.no_grad(f)(a).requires_grad)", "False"),
        (
            "g = torch.enable_grad()(f)\nwith torch.no_grad():\n    print(g(a).requires_grad)",
            "True",
        ),
        ("print(torch.inference_mode()(f)(a).is_inference())", "True"),
        ("print(torch.inference_mode(False)(f)(a).is_inference())", "False"),
        ("print(torch.no_grad()(lambda x: x * 2)(a).requires_grad)", "False"),
        (
            "s = torch.set_grad_enabled(False)(f)\nprint(torch.is_grad_enabled(), "
            "s(a).requires_grad, torch.is_grad_enabled())",
            "True False True",
        ),
        ("print(torch.no_grad()(torch.nn.Linear(2, 1))(a).requires_grad)", "False"),
        ("print(torch.no_grad()(torch.sin)(a).requires_grad)", "False"),
        ("print(torch.no_grad()(a.sum)().requires_grad)", "False"),
        (
            "m = torch.nn.Linear(2, 1)\nfor w in (torch.inference_mode()(torch.no_grad()(m)), "
            "torch.enable_grad()(torch.no_grad()(m)), torch.no_grad()(torch.enable_grad()(m))):\n"
            "    y = w(a)\n    print(y.requires_grad, y.is_inference(), end=' ')\nprint()",
            "False True False False True False ",
        ),
        # the wrapped function leaves the caller's mode as it was
        ("torch.no_grad()(f)(a)\nprint(torch.is_grad_enabled(), f(a).requires_grad)", "True True"),
    ],
)
def test_a_grad_mode_called_on_a_function_decorates_it(text: str, expected: str) -> None:
    assert run(text) == expected + "\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # `@torch.set_grad_enabled(False)` above a def: the mode it set when made is restored
        # at once (PyTorch's __call__ does), so the code after the def still records
        (
            "@torch.set_grad_enabled(False)\ndef g(x):\n    return x * 2\n"
            "print(torch.is_grad_enabled(), g(a).requires_grad, (a * 2).requires_grad)",
            "True False True",
        ),
        # made inside no_grad: the mode restored is no_grad's, and enable_grad after it wins
        (
            "with torch.no_grad():\n    @torch.set_grad_enabled(True)\n    def g(x):\n"
            "        return x * 2\n    print(torch.is_grad_enabled(), g(a).requires_grad)\n"
            "print(torch.is_grad_enabled())",
            "False True\nTrue",
        ),
        # other grad modes as `@` never touched the caller's mode
        (
            "@torch.no_grad()\ndef g(x):\n    return x * 2\n"
            "print(torch.is_grad_enabled(), g(a).requires_grad)",
            "True False",
        ),
    ],
)
def test_a_grad_mode_written_above_a_def(text: str, expected: str) -> None:
    assert run(text) == expected + "\n"


def test_the_wrapped_function_differentiates_outside() -> None:
    out = run(
        "def step(x):\n"
        "    return x * 3\n"
        "frozen = torch.no_grad()(step)\n"
        "y = (f(a) + frozen(a).sum()) * 2\n"
        "y.backward()\n"
        "print(y, a.grad)\n"
    )
    assert out == "tensor(16., grad_fn=<MulBackward0>) tensor([4., 4.])\n"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("torch.no_grad()(f, f)", "takes one argument"),
        ("torch.no_grad()()", "takes one argument"),
        ("torch.no_grad()(3)", "decorates functions"),
        ("torch.no_grad()(a)", "decorates functions"),
    ],
)
def test_wrong_calls_are_refused_in_words(text: str, words: str) -> None:
    with pytest.raises(GradcliError, match=words):
        run(text)
