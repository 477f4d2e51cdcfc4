"""`del` as Python has it: a name unbound (in a function too), an item of a list (index or
slice) or a dict removed, `del x.grad` as PyTorch's (None); anything else refused."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError, NotSupported
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


def test_del_names_items_and_grad() -> None:
    got = out(
        "import torch\nx = torch.ones(2, requires_grad=True)\n(x * 3).sum().backward()\n"
        "print(x.grad)\ndel x.grad\nprint(x.grad)\n"
        "l = list(range(8))\ndel l[0], l[-1]\ndel l[1:5:2]\nprint(l)\n"
        "d = {'a': 1, 'b': 2}\ndel d['a']\nprint(d)\n"
        "def f():\n    t = 1\n    del t\n    return 2\nprint(f())\n"
        "y = 5\ndel y\ntry:\n    print(y)\nexcept NameError as e:\n    print(e)\n"
        "try:\n    del d['zz']\nexcept KeyError as e:\n    print(repr(str(e)))\n"
        "try:\n    del x[0]\nexcept TypeError as e:\n    print(e)\n"
    )
    assert got == (
        "tensor([3., 3.])\nNone\n[1, 3, 5, 6]\n{'b': 2}\n2\nname 'y' is not defined\n"
        "\"'zz'\"\nTensor does not support deleting items\n"
    )


def test_del_of_module_attributes_as_pytorchs_delattr() -> None:
    got = out(
        "import torch\nimport torch.nn as nn\n"
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.a = nn.Linear(1, 1)\n        self.p = nn.Parameter(torch.ones(1))\n"
        "        self.register_buffer('b', torch.ones(1))\n        self.tag = 1\n"
        "n = Net()\ndel n.a, n.p\ndelattr(n, 'b')\ndel n.tag\n"
        "print(n, list(n.state_dict()))\n"
        "for k in ('tag', 'a', 'forward'):\n    try:\n        delattr(n, k)\n"
        "    except AttributeError as e:\n        print(e)\n"
        "try:\n    n.p\nexcept AttributeError as e:\n    print(e)\n"
        "n.a = nn.Identity()\nprint(n)\n"
        "lin = nn.Linear(2, 1)\ndel lin.bias\n"
        "try:\n    print(lin)\nexcept AttributeError as e:\n    print(e)\n"
        "lin.bias = torch.ones(1)\nprint(lin(torch.zeros(1, 2)).tolist())\n"
        "s = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.GELU())\ndel s[0]\ndel s[-1:]\nprint(s)\n"
        "d = nn.ModuleDict({'x': nn.ReLU()})\ndel d['x']\nprint(len(d))\n"
        "try:\n    del d['x']\nexcept KeyError as e:\n    print(repr(str(e)))\n"
        "t = 1\ndel t\ntry:\n    t\nexcept NameError as e:\n    print(e)\n"
    )
    assert got == (
        "Net() []\n'Net' object has no attribute 'tag'\n'Net' object has no attribute 'a'\n"
        "'Net' object has no attribute 'forward'\n'Net' object has no attribute 'p'\n"
        "Net(\n  (a): Identity()\n)\n'Linear' object has no attribute 'bias'\n[[1.0]]\n"
        "Sequential(\n  (0): Tanh()\n)\n0\n\"'x'\"\nname 't' is not defined\n"
    )


@pytest.mark.parametrize(
    ("program", "error", "message"),
    [
        ("import torch\nx = torch.ones(2)\ndel x.data", NotSupported, "`del` of an"),
        ("import torch\ndel torch.sin", NotSupported, "`del` of an"),
        ("import torch\nm = torch.nn.Linear(2, 2)\ndel m.__class__", NotSupported, "`del` of"),
        (
            "import torch\nm = torch.nn.MultiheadAttention(4, 2)\ndel m.out_proj",
            NotSupported,
            "`del` of the submodule `out_proj`",
        ),
        ("import torch\nm = torch.nn.Linear(2, 2)\ndel m.training", NotSupported, "`del` of"),
        (
            "import torch\nm = torch.nn.Linear(2, 2)\ndel m.weight\nm(torch.ones(2))",
            GradcliError,
            "'Linear' object has no attribute 'weight'",
        ),
        ("l = [1]\ndel l[5]", GradcliError, "list assignment index out of range"),
        ("l = [1]\ndel l['a']", GradcliError, "list indices must be integers"),
        ("def f():\n    del q\n    q = 1\nf()", GradcliError, "cannot access local variable"),
        ("del zz", GradcliError, "name 'zz' is not defined"),
    ],
)
def test_del_refusals(program: str, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        out(program)


def test_del_of_a_ctx_attribute_as_pythons() -> None:
    # The forward-mode notes free a tensor kept on ctx for jvp with `del ctx.result`; an
    # attribute never set (or deleted) is Python's AttributeError naming ctx's class,
    # "<Function>Backward", on reading and on deleting.
    got = out(
        "import torch\n"
        "class Fn(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        ctx.k = 3.0\n"
        "        ctx.tmp = x\n"
        "        del ctx.tmp\n"
        "        for read in (lambda: ctx.tmp, lambda: delattr(ctx, 'tmp')):\n"
        "            try:\n"
        "                read()\n"
        "            except AttributeError as e:\n"
        "                print(e)\n"
        "        return x * 2\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        k = ctx.k\n"
        "        del ctx.k\n"
        "        print(hasattr(ctx, 'k'))\n"
        "        return g * k\n"
        "x = torch.ones(2, requires_grad=True)\n"
        "Fn.apply(x).sum().backward()\n"
        "print(x.grad)\n"
    )
    assert got == (
        "'FnBackward' object has no attribute 'tmp'\n"
        "'FnBackward' object has no attribute 'tmp'\n"
        "False\ntensor([3., 3.])\n"
    )


def test_del_of_ctx_own_attributes_is_refused() -> None:
    # saved_tensors in PyTorch's words; ctx's other members refused plainly (PyTorch lets some
    # go and crashes on others): never a silent change of how the Function runs.
    prog = (
        "import torch\n"
        "class Fn(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        try:\n"
        "            del ctx.saved_tensors\n"
        "        except AttributeError as e:\n"
        "            print(e)\n"
        "        del ctx.{}\n"
        "        return x\n"
        "Fn.apply(torch.ones(1))\n"
    )
    with pytest.raises(NotSupported, match=r"`del ctx.needs_input_grad` is not supported"):
        out(prog.format("needs_input_grad"))
    with pytest.raises(NotSupported, match=r"`del ctx.mark_dirty` is not supported"):
        out(prog.format("mark_dirty"))
