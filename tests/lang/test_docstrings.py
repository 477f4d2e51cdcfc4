"""`__doc__` of the program's own functions and classes (explore27: a pasted `print(LayerNorm.
__doc__)` was refused): the docstring as Python 3.11 keeps it (not dedented), None without
one, a class's not inherited; an instance's is its class's; functools.wraps carries it.
PyTorch's and Python's docstrings are refused, and `__doc__` is never assigned. Expected
values are Python 3.11's (checked by hand with /work/torchenv)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


def test_the_docstrings_of_the_programs_functions_and_classes() -> None:
    got = out(
        "import functools\nimport torch\n"
        "class Norm(torch.nn.Module):\n    'A norm, TF style.'\n"
        "    def forward(self, x):\n        '''Normalise x.\n\n        Over the last dim.\n"
        "        '''\n        return x\n"
        "class Sub(Norm):\n    pass\n"
        'class Plain:\n    """Plain."""\n'
        "def f():\n    'f doc'\n    return 1\n"
        "def g():\n    return 2\n"
        "def keep(fn):\n    @functools.wraps(fn)\n    def w(*a):\n        return fn(*a)\n"
        "    return w\n"
        "@keep\ndef h():\n    '''h doc'''\n"
        "print(Norm.__doc__, Norm().__doc__, Sub.__doc__, Plain().__doc__)\n"
        "print(repr(Norm.forward.__doc__))\nprint(Norm().forward.__doc__ == Norm.forward.__doc__)\n"
        "print(f.__doc__, g.__doc__, h.__doc__, (lambda: 0).__doc__)\n"
    )
    assert got == (
        "A norm, TF style. A norm, TF style. None Plain.\n"
        "'Normalise x.\\n\\n        Over the last dim.\\n        '\nTrue\n"
        "f doc None h doc None\n"
    )


@pytest.mark.parametrize(
    "text",
    [
        "import torch\nd = torch.sin.__doc__",
        "import torch\nd = torch.nn.Linear.__doc__",
        "import torch\nd = torch.nn.Linear(1, 1).__doc__",
        "import torch\nd = torch.ones(1).__doc__",
        "d = print.__doc__",
        "d = 'text'.__doc__",
    ],
)
def test_docstrings_not_the_programs_are_refused(text: str) -> None:
    with pytest.raises(GradcliError, match="gradcli has the docstrings of the program's own"):
        parse(text, "t.py").run()


@pytest.mark.parametrize(
    "text",
    [
        "def f():\n    'x'\nf.__doc__ = 'y'",
        "class A:\n    'x'\nA.__doc__ = 'y'",
        "def f():\n    'x'\nd = f.__doc__.__class__.__subclasses__()",
    ],
)
def test_a_docstring_is_read_never_assigned_or_walked(text: str) -> None:
    with pytest.raises(GradcliError, match="not accessible"):
        parse(text, "t.py")
