"""PyTorch's words for mistakes made while building a model: a class (or a function, a
tensor, a number) where a module goes is named as `torch.typename` names it; an LSTM's state
is indexed as PyTorch's forward indexes it (`hx[0]`, `hx[1]`: a tensor given alone is indexed
along its first dimension); StepLR(step_size=0) fails at its first step, as in PyTorch; a
BCELoss target of another size is a ValueError."""

from __future__ import annotations

import pytest

from gradcli.lang.program import parse


def run(body: str) -> list[str]:
    text = "import torch\nimport torch.nn as nn\n" + body
    return "".join(parse(text, "t.py").run(dtype="float32").output).splitlines()


def caught(expr: str, kind: str = "TypeError") -> str:
    return run(f"try:\n    {expr}\nexcept {kind} as e:\n    print(type(e).__name__, e)\n")[0]


NOT_MODULES = {
    "nn.Sequential(nn.ReLU)": "torch.nn.modules.activation.ReLU",
    "nn.Sequential(nn.Linear(2, 2), nn.Sigmoid)": "torch.nn.modules.activation.Sigmoid",
    "nn.ModuleList([nn.Conv2d])": "torch.nn.modules.conv.Conv2d",
    "nn.ModuleList([torch.ones(2)])": "torch.FloatTensor",
    "nn.Sequential(torch.ones(2).long())": "torch.LongTensor",
    "nn.ModuleDict({'a': 3})": "int",
    "nn.ModuleDict({'a': 'relu'})": "str",
    "nn.Sequential([nn.ReLU()])": "list",
}


@pytest.mark.parametrize("expr", NOT_MODULES)
def test_not_a_module_is_named_as_torch_typename_names_it(expr: str) -> None:
    assert caught(expr) == f"TypeError {NOT_MODULES[expr]} is not a Module subclass"


def test_program_classes_and_functions_are_qualified_by_main() -> None:
    body = (
        "class Block(nn.Module):\n    pass\n"
        "def f(x):\n    return x\n"
        "for v in (Block, f):\n"
        "    try:\n        nn.Sequential(v)\n    except TypeError as e:\n        print(e)\n"
        "print(torch.typename(Block), torch.typename(Block()), torch.typename(nn.ReLU()))\n"
    )
    assert run(body) == [
        "__main__.Block is not a Module subclass",
        "__main__.f is not a Module subclass",
        "__main__.Block __main__.Block torch.nn.modules.activation.ReLU",
    ]


LSTM = "torch.manual_seed(0)\nm = nn.LSTM(3, 4)\nx = torch.randn(5, 2, 3)\n"
STATES = {
    "m(x, torch.zeros(1, 2, 4))": "IndexError index 1 is out of bounds for dimension 0 with size 1",
    "m(x, (torch.zeros(1, 2, 4),))": "IndexError tuple index out of range",
    "m(x, [torch.zeros(1, 2, 4)])": "IndexError list index out of range",
    "m(x, torch.zeros(3, 2, 4))": "RuntimeError For batched 3-D input, hx and cx should also be "
    "3-D but got (2-D, 2-D) tensors",
    "m(x, (torch.zeros(1, 2, 4), torch.zeros(2, 4)))": "RuntimeError For batched 3-D input, hx "
    "and cx should also be 3-D but got (3-D, 2-D) tensors",
    "m(x, torch.tensor(0.0))": "IndexError invalid index of a 0-dim tensor. Use `tensor.item()` "
    "in Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number",
    "m(x, 3)": "TypeError 'int' object is not subscriptable",
    "m(x[:, 0], (torch.zeros(1, 4), 5))": "AttributeError 'int' object has no attribute 'dim'",
}


@pytest.mark.parametrize("call", STATES)
def test_lstm_state_is_indexed_as_pytorch_indexes_it(call: str) -> None:
    body = LSTM + (
        f"try:\n    {call}\n"
        "except (IndexError, RuntimeError, TypeError, AttributeError) as e:\n"
        "    print(type(e).__name__, e)\n"
    )
    assert run(body) == [STATES[call]]


def test_lstm_state_as_a_list_still_runs() -> None:
    body = LSTM + "out, (h, c) = m(x, [torch.zeros(1, 2, 4), torch.zeros(1, 2, 4)])\n"
    body += "print(out.shape, h.shape)\n"
    assert run(body) == ["torch.Size([5, 2, 4]) torch.Size([1, 2, 4])"]


def test_steplr_step_size_zero_fails_at_its_first_step() -> None:
    body = (
        "w = torch.zeros(1, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.5)\n"
        "s = torch.optim.lr_scheduler.StepLR(opt, step_size=0)\nprint(s.get_last_lr())\n"
        "try:\n    s.step()\nexcept ZeroDivisionError as e:\n    print(e)\n"
    )
    assert run(body) == ["[0.5]", "integer modulo by zero"]


def test_bce_target_of_another_size_is_a_value_error() -> None:
    assert caught("nn.BCELoss()(torch.rand(3), torch.rand(4))", "ValueError") == (
        "ValueError Using a target size (torch.Size([4])) that is different to the input size "
        "(torch.Size([3])) is deprecated. Please ensure they have the same size."
    )
