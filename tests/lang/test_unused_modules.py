"""Modules a pasted script imports and may never use (debuggers, plotting, other frameworks):
the import binds an inert module, so the rest of the script runs; any use of it is refused in
plain words at its place. Also: a graph node's methods print as PyTorch's do."""

from __future__ import annotations

import re

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse
from gradcli.lang.values import BARE_UNUSED_MODULES, UNUSED_MODULES


def run(text: str) -> str:
    return "".join(parse("import torch\n" + text, "t.py").run().output)


@pytest.mark.parametrize("module", sorted(UNUSED_MODULES + BARE_UNUSED_MODULES))
def test_an_unused_import_runs_and_a_use_is_refused(module: str) -> None:
    assert run(f"import {module}\nprint(torch.ones(2))\n") == "tensor([1., 1.])\n"
    with pytest.raises(GradcliError, match=rf"`{module}\.anything` is not supported"):
        run(f"import {module}\n{module}.anything(1)\n")
    with pytest.raises(GradcliError, match="not accessible"):
        run(f"import {module} as m\nm.__dict__\n")


@pytest.mark.parametrize("module", ["pdb", "einops", "pytest", "transformers"])
def test_a_name_imported_from_an_unused_module_is_refused_when_used(module: str) -> None:
    assert run(f"from {module} import thing\nprint(1)\n") == "1\n"
    with pytest.raises(GradcliError, match=rf"`{module}\.thing` is not supported"):
        run(f"from {module} import thing\nthing()\n")


def test_a_nodes_method_prints_as_pytorchs() -> None:
    out = run(
        "x = torch.ones(2, requires_grad=True)\ny = (x * 2).sum()\n"
        "print(y.grad_fn.name)\nprint(y.grad_fn.next_functions[0][0].register_hook)\n"
        "print(y.grad_fn.next_functions[0][0].next_functions[0][0].name)\n"
        "f = y.grad_fn.name\nprint(f())\n"
    ).splitlines()
    assert re.fullmatch(r"<built-in method name of SumBackward0 object at 0x[0-9a-f]+>", out[0])
    assert re.fullmatch(
        r"<built-in method register_hook of MulBackward0 object at 0x[0-9a-f]+>", out[1]
    )
    assert re.fullmatch(r"<built-in method name of AccumulateGrad object at 0x[0-9a-f]+>", out[2])
    assert out[3] == "SumBackward0"


def test_sys_stdout_writes_to_the_programs_output() -> None:
    """`sys.stdout.write(s)` (a line printed in pieces, as training scripts show a prediction)
    writes where print does and returns the number of characters; flush() does nothing;
    print(file=sys.stdout) prints. Python's text (checked with /work/torchenv's Python)."""
    out = run(
        "import sys\nsys.stdout.write('predicted: ')\nfor c in 'hi':\n    sys.stdout.write(c)\n"
        "sys.stdout.flush()\nprint(', done')\nn = sys.stdout.write('abc\\n')\nprint(n)\n"
        "print('to stdout', file=sys.stdout)\nprint(type(sys.stdout).__name__)\n"
        "try:\n    sys.stdout.write(3)\nexcept TypeError as e:\n    print(e)\n"
    )
    assert out == (
        "predicted: hi, done\nabc\n4\nto stdout\nTextIOWrapper\n"
        "write() argument must be str, not int\n"
    )


@pytest.mark.parametrize(
    "line",
    ["sys.stdin.read()", "sys.stderr.buffer", "sys.stdout.buffer", "sys.stdout.fileno()"],
)
def test_the_rest_of_sys_stays_refused(line: str) -> None:
    with pytest.raises(GradcliError, match="not supported"):
        run(f"import sys\n{line}\n")
