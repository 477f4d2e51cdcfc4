"""hasattr / getattr as Python answers them for the values a program holds: dunder names
answered from what Python's value has (nothing of it read), a module's `_parameters` /
`_buffers` read, `Net.parameters` / `Net.forward` from the class, `getattr(x, '__class__')`
as type(x). The expected text is Python 3 / PyTorch 2.13's output of the same program
(/work/torchenv)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

PROBE = """\
import torch
import torch.nn as nn
x = torch.ones(2, requires_grad=True)
m = nn.Linear(2, 1)
class P:
    def __init__(self):
        self.a = 1
    def meth(self):
        return 2
class N(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(1, 1)
        self.k = 3
p = P()
n = N()
probes = [
    ("x", x), ("m", m), ("p", p), ("n", n), ("seq", nn.Sequential(m)), ("P", P), ("N", N),
    ("int", 3), ("list", [1]), ("str", "s"), ("fn", len), ("lam", lambda: 0),
    ("torch", torch), ("dtype", torch.float32),
]
names = ["__class__", "__dict__", "__len__", "__call__", "__getitem__", "__iter__", "__name__"]
names += ["__module__", "__doc__", "grad", "grad_fn", "shape", "data", "weight", "forward"]
names += ["a", "meth", "k", "l", "training", "_parameters", "nope", "parameters", "is_leaf"]
names += ["numel", "T", "append", "keys", "__init__", "__repr__", "__str__", "__eq__", "__add__"]
names += ["__mro__", "__bases__"]
for label, v in probes:
    print(label, "".join("1" if hasattr(v, nm) else "0" for nm in names))
print(getattr(x, "nope", "default"), getattr(m, "weight").shape, getattr(p, "a"))
print(getattr(n, "k", 0), x.__class__, m.__class__)
print(p.__class__, n.__class__, type(x) is x.__class__)
print(getattr(n, "training"), hasattr(n, "l"), hasattr(N, "forward"), hasattr(P, "meth"))
"""

# PyTorch's output of PROBE: one row a value, one column a name (1: hasattr is True)
EXPECTED = """\
x 11101101111110000000000111001111100
m 11010001100001100001101000001111000
p 11000001100000011000000000001111000
n 11010001100000100111101000001111000
seq 11111101100000100001101000101111100
P 11010011100000001000000000001111011
N 11010011100000100000001000001111011
int 10000000100000000000000000001111100
list 10101100100000000000000000101111100
str 10101100100000000000000000001111100
fn 10010011100000000000000000001111000
lam 11010011100000000000000000001111000
torch 11000010100000000000000010001111000
dtype 10000001100000000000000000001111000
default torch.Size([1, 2]) 1
3 <class 'torch.Tensor'> <class 'torch.nn.modules.linear.Linear'>
<class '__main__.P'> <class '__main__.N'> True
True True True True
"""


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


def test_hasattr_and_getattr_answer_as_python() -> None:
    assert out(PROBE) == EXPECTED


@pytest.mark.parametrize(
    "text, message",
    [
        ("x = torch.ones(1)\nz = getattr(x, '__dict__')", "getattr(..., '__dict__') is not"),
        (
            "x = torch.ones(1)\nz = getattr(getattr(x, '__class__'), '__subclasses__')",
            "getattr(..., '__subclasses__') is not accessible",
        ),
        (
            "m = torch.nn.Linear(1, 1)\nm._parameters['weight'] = 5",
            "changing a module's _modules, _parameters or _buffers directly is not supported",
        ),
        (
            "m = torch.nn.Linear(1, 1)\nm._buffers.update({'a': 1})",
            "changing a module's _modules, _parameters or _buffers directly is not supported",
        ),
        (
            "class N(torch.nn.Module):\n    pass\nN.parameters(3)",
            "Module.parameters() needs a module as its first argument, not 'int'",
        ),
    ],
)
def test_what_stays_refused(text: str, message: str) -> None:
    with pytest.raises(GradcliError) as e:
        out("import torch\n" + text)
    assert message in str(e.value)


def test_classes_and_modules_answer_for_their_functions() -> None:
    got = out(
        "import torch\nimport torch.nn as nn\n"
        "print(hasattr(nn.Module, 'register_forward_hook'), hasattr(nn.Linear, 'forward'), "
        "hasattr(nn.Module, 'nope'), hasattr(torch, '__version__'), hasattr(torch, '__nope__'))\n"
    )
    assert got == "True True False True False\n"
