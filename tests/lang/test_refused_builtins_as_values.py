"""Python's builtin functions a program may not call (`input`, `open`, `eval`, ...) are inert
values where their names are read: printed, compared and tested as Python's functions (a
custom Function's backward that forgot to unpack its saved `input` meets Python's TypeError
in `input <= 0`, as in PyTorch); calling one, by any path, is refused."""

from __future__ import annotations

import builtins

import pytest

from gradcli.base.errors import NotSupported
from gradcli.lang.program import parse


def run(text: str) -> str:
    return "".join(parse("import torch\nimport functools\n" + text, "t.py").run().output)


def python_error(expr: str) -> str:
    try:
        eval(expr, {"input": builtins.input})  # noqa: S307 - the test's own constant text
    except TypeError as e:
        return str(e)
    raise AssertionError(expr)


@pytest.mark.parametrize("name", ["input", "open", "eval", "exec", "compile", "__import__"])
def test_a_refused_builtin_prints_as_python_s(name: str) -> None:
    assert run(f"print({name}, {name} is {name})\n") == f"{getattr(builtins, name)} True\n"


def test_comparing_one_raises_python_s_type_error_to_the_program() -> None:
    out = run(
        "x = torch.tensor([-1.0, 2.0])\n"
        "try:\n    x[input <= 0]\nexcept TypeError as e:\n    print(e)\n"
    )
    assert out == python_error("input <= 0") + "\n"


@pytest.mark.parametrize(
    "call",
    [
        "input('n? ')",
        "list(map(eval, ['1']))",
        "functools.partial(open, 'f')()",
        "[exec][0]('x = 1')",
        "x = torch.ones(2, requires_grad=True)\nx.register_hook(eval)\nx.sum().backward()",
    ],
)
def test_calling_one_by_any_path_is_refused(call: str) -> None:
    with pytest.raises(NotSupported, match="is not supported in gradcli programs"):
        run(call + "\n")
