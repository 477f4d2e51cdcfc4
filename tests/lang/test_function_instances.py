"""Instances of autograd.Function classes as PyTorch 2.13 makes them (checked with
/work/torchenv): Function's __init__ takes any arguments and warns; a legacy class's own
__init__ runs on the instance, whose call is refused in PyTorch's words; a class may lack
backward or forward until it is used. PyTorch's output for a whole program is corpus 992."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

SQUARE = (
    "import torch\n"
    "class Sq(torch.autograd.Function):\n"
    "    @staticmethod\n    def forward(ctx, x):\n        return x * x\n"
    "    @staticmethod\n    def backward(ctx, g):\n        return g\n"
)
LEGACY = (
    "import torch\n"
    "class Rev(torch.autograd.Function):\n"
    "    def __init__(self, lambd, scale=2):\n"
    "        self.lambd = lambd * scale\n"
    "    def forward(self, x):\n        return x\n"
)


def run(text: str) -> tuple[str, list[str]]:
    result = parse(text, "t.py").run(dtype="float32")
    return "".join(result.output), [str(w) for w in result.warnings]


@pytest.mark.parametrize("args", ["", "3", "1, 2", "k=1", "0.5, name='x'"])
def test_a_function_takes_any_arguments_and_warns(args: str) -> None:
    out, warnings = run(SQUARE + f"s = Sq({args})\nprint(type(s).__name__)\n")
    assert out == "Sq\n"
    assert len(warnings) == 1 and "should not be instantiated" in warnings[0]


def test_a_legacy_init_runs_on_the_instance_without_the_warning() -> None:
    out, warnings = run(
        LEGACY + "r = Rev(0.25)\nprint(r.lambd)\nr.lambd = 3\nprint(r.lambd)\n"
        "print(Rev(1, scale=5).lambd)\n"
    )
    assert out == "0.5\n3\n5\n"
    assert warnings == []


def test_calling_a_legacy_instance_is_refused_in_pytorchs_words() -> None:
    with pytest.raises(GradcliError) as e:
        run(LEGACY + "y = Rev(1)(torch.ones(2))\n")
    assert str(e.value).startswith(
        "Legacy autograd function with non-static forward method is deprecated."
    )


def test_an_unknown_attribute_of_the_instance_is_pythons_error() -> None:
    with pytest.raises(GradcliError) as e:
        run(LEGACY + "r = Rev(1)\nv = r.missing\n")
    assert "has no attribute 'missing'" in str(e.value)


@pytest.mark.parametrize(
    "body, use, words",
    [
        (
            "    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n",
            "F.apply(torch.ones(2, requires_grad=True)).sum().backward()",
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD.",
        ),
        (
            "    @staticmethod\n    def backward(ctx, g):\n        return g\n",
            "F.apply(torch.ones(2))",
            "You must implement the forward function for custom autograd.Function.",
        ),
    ],
)
def test_a_missing_method_is_refused_when_used(body: str, use: str, words: str) -> None:
    text = "import torch\nclass F(torch.autograd.Function):\n" + body
    out, _ = run(text + "print('defined')\n")
    assert out == "defined\n"  # the class itself is fine, as in PyTorch
    caught = run(text + f"try:\n    {use}\nexcept NotImplementedError as e:\n    print(e)\n")
    assert caught[0] == words + "\n"


@pytest.mark.parametrize("call", ["super().__init__()", "super(Norm, self).__init__(eps, 1)"])
def test_a_legacy_init_may_call_functions_init_which_warns(call: str) -> None:
    # PyTorch 2.13: Function.__init__ takes any arguments and warns (corpus 895)
    out, warnings = run(
        "import torch\n"
        "class Norm(torch.autograd.Function):\n"
        f"    def __init__(self, eps):\n        {call}\n        self.eps = eps\n"
        "    def forward(self, x):\n        return x\n"
        "n = Norm(0.5)\nprint(n.eps)\n"
        "try:\n    n(torch.ones(1))\nexcept RuntimeError as e:\n    print(str(e)[:6])\n"
    )
    assert out == "0.5\nLegacy\n"
    assert (
        len(warnings) == 1 and "<class '__main__.Norm'> should not be instantiated" in (warnings[0])
    )


@pytest.mark.parametrize(
    "body, words",
    [
        ("super().forward(1)", "super().forward in an autograd Function is not supported"),
        ("super(Other, self).__init__()", "obj must be an instance or subtype of type"),
    ],
)
def test_other_uses_of_super_in_a_legacy_function_are_refused(body: str, words: str) -> None:
    with pytest.raises(GradcliError) as e:
        run(
            "import torch\n"
            "class Other(torch.autograd.Function):\n    pass\n"
            "class Norm(torch.autograd.Function):\n"
            f"    def __init__(self):\n        {body}\n"
            "Norm()\n"
        )
    assert words in str(e.value)
