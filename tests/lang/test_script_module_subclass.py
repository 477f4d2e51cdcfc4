"""A program's subclass of torch.jit.ScriptModule (explore121, session 41): the rules the corpus
program 2110 does not pin down (torch.jit.ignore's argument forms, nested such classes)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def run(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


NESTED = """import torch
import torch.nn as nn
class Inner(torch.jit.ScriptModule):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
    @torch.jit.script_method
    def forward(self, x):
        return self.lin(x)
class Outer(torch.jit.ScriptModule):
    def __init__(self):
        super().__init__()
        self.inner = Inner()
        self.act = nn.ReLU()
    @torch.jit.script_method
    def forward(self, x):
        return self.act(self.inner(x))
o = Outer()
print(o)
print(type(o.inner).__name__, type(o.act).__name__, type(o.inner.lin).__name__)
"""


def test_nested_script_module_subclasses_keep_their_class() -> None:
    # (PyTorch 2.13: a program's ScriptModule stays its own class, torch's modules are made over)
    assert run(NESTED) == (
        "Outer(\n  (inner): Inner(\n    (lin): RecursiveScriptModule(original_name=Linear)\n"
        "  )\n  (act): RecursiveScriptModule(original_name=ReLU)\n)\n"
        "Inner RecursiveScriptModule RecursiveScriptModule\n"
    )


def test_plain_module_is_not_made_over() -> None:
    out = run(
        "import torch\nimport torch.nn as nn\nclass N(nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n        self.lin = nn.Linear(1, 1)\n"
        "n = N()\nprint(n)\nprint(isinstance(n, torch.jit.ScriptModule))\n"
    )
    assert out == "N(\n  (lin): Linear(in_features=1, out_features=1, bias=True)\n)\nFalse\n"


def test_jit_ignore_refuses_what_pytorch_refuses() -> None:
    with pytest.raises(GradcliError, match="must be a bool or a function but got 3"):
        run("import torch\nf = torch.jit.ignore(drop=3)\n")


def test_jit_ignore_forms_return_the_function() -> None:
    out = run(
        "import torch\n"
        "@torch.jit.ignore(drop=False)\ndef f(x):\n    return x + 1\n"
        "@torch.jit.ignore(True, other=1)\ndef g(x):\n    return x * 2\n"
        "@torch.jit.unused\ndef h(x):\n    return x - 1\n"
        "print(f(1), g(2), h(3), torch.jit.annotate(int, 7))\n"
    )
    assert out == "2 4 2 7\n"


def test_is_scripting_holds_inside_what_script_gave_and_final_is_typings() -> None:
    out = run(
        "import torch\nimport torch.nn as nn\nfrom torch.jit import Final\n"
        "from typing import Final as F2\n"
        "class N(nn.Module):\n    k: Final[int] = 2\n"
        "    def forward(self, x):\n        return x * self.k, torch.jit.is_scripting()\n"
        "def f(x):\n    return torch.jit.is_scripting()\n"
        "o = torch.ones(1)\n"
        "print(N()(o)[1], torch.jit.script(N())(o)[1], torch.jit.is_scripting())\n"
        "print(f(o), torch.jit.script(f)(o))\n"
        "print(Final, F2[int])\n"
    )
    assert out == ("False True False\nFalse True\ntyping.Final typing.Final[int]\n")


def test_jit_markers_scope_is_scripting_and_refuse_unused_calls_from_scripted_code() -> None:
    # (PyTorch 2.13, checked: an ignored method runs as Python's code, an unused one, or one
    # ignore(drop=True) marks, raises torch.jit.Error (not a RuntimeError) when scripted code
    # calls it; a script_method of a ScriptModule subclass is compiled code)
    out = run(MARKERS)
    assert out == MARKERS_OUT


MARKERS = """import torch
import torch.nn as nn
class M(nn.Module):
    @torch.jit.ignore
    def plain(self, x):
        print("plain", torch.jit.is_scripting())
        return x
    @torch.jit.unused
    def never(self, x):
        return x * 2
    @torch.jit.ignore(drop=True)
    def dropped(self, x):
        return x * 3
    def forward(self, x, which: int):
        if which == 0:
            print("fwd", torch.jit.is_scripting())
            return self.plain(x)
        if which == 1:
            return self.never(x)
        return self.dropped(x)
class S(torch.jit.ScriptModule):
    @torch.jit.script_method
    def forward(self, x):
        return x + float(torch.jit.is_scripting())
m = M()
s = torch.jit.script(m)
o = torch.ones(1)
print(m(o, 0), s(o, 0), m(o, 1), m(o, 2), S()(o))
for which in (1, 2):
    try:
        s(o, which)
    except torch.jit.Error as e:
        print(type(e).__name__, isinstance(e, RuntimeError), str(e).splitlines()[-1])
print(torch.jit.Error)
"""

MARKERS_OUT = """fwd False
plain False
fwd True
plain False
tensor([1.]) tensor([1.]) tensor([2.]) tensor([3.]) tensor([2.])
Error False RuntimeError: This Python function is annotated to be ignored and cannot be run
Error False RuntimeError: This Python function is annotated to be ignored and cannot be run
<class 'torch.jit.Error'>
"""
