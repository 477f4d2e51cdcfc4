"""`x.__class__` (what type(x) gives) and the dunder methods of the program's own classes
named explicitly (`ds.__len__()`, `Base.__init__(self)`), as pasted snippets write them.
Expected values are PyTorch 2.13's (checked by hand with /work/torchenv)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


def fails(text: str) -> GradcliError:
    with pytest.raises(GradcliError) as e:
        out(text)
    return e.value


def test_class_is_what_type_gives() -> None:
    got = out(
        "import torch\nimport torch.nn as nn\n"
        "x = torch.ones(2)\nm = nn.Sequential(nn.Linear(2, 3), nn.ReLU())\n"
        "print(x.__class__, x.__class__ is type(x), x.__class__.__name__)\n"
        "print([l.__class__.__name__ for l in m], m.__class__)\n"
        "print((1).__class__, [].__class__.__name__, x.shape.__class__, nn.Module().__class__)\n"
        "print(f'{m[0].__class__.__name__}', isinstance(x, x.__class__), nn.ReLU.__class__)\n"
        "print((x * 2).grad_fn.__class__, m[1].__class__(), type(x) is torch.Tensor)\n"
    )
    assert got == (
        "<class 'torch.Tensor'> True Tensor\n"
        "['Linear', 'ReLU'] <class 'torch.nn.modules.container.Sequential'>\n"
        "<class 'int'> list <class 'torch.Size'> <class 'torch.nn.modules.module.Module'>\n"
        "Linear True <class 'type'>\n"
        "<class 'NoneType'> ReLU() True\n"
    )


def test_class_of_the_programs_own_classes() -> None:
    got = out(
        "import torch\nclass A:\n    def __repr__(self):\n"
        "        return f'{self.__class__.__name__}()'\n"
        "class Net(torch.nn.Module):\n    def forward(self, x):\n"
        "        return x\n    def describe(self):\n        return self.__class__.__name__\n"
        "a = A()\nb = a.__class__()\nprint(a, b, b.__class__ is A, Net().describe())\n"
        "print(Net().__class__)\n"
    )
    assert got == "A() A() True Net\n<class '__main__.Net'>\n"


@pytest.mark.parametrize(
    "tail, message, col",
    [
        (".__mro__", "`.__mro__` is not accessible", 28),
        (".__bases__[0]", "`.__bases__` is not accessible", 28),
        (".__dict__", "`.__dict__` is not accessible", 28),
        (".__subclasses__()", "`.__subclasses__` is not accessible", 28),
        (".__init__", "`.__init__` of a value of class 'type' is not supported", 28),
        (".__call__(2)", "`.__call__` of a value of class 'type' is not supported", 28),
        ("([1.0])", "calling the class torch.Tensor that type() gave is not supported", 5),
    ],
)
def test_escapes_through_class_stop_at_their_next_step(tail: str, message: str, col: int) -> None:
    e = fails("import torch\nx = torch.ones(1).__class__" + tail)
    assert message in e.message
    assert (e.span.line, e.span.col + 1) == (2, col)


def test_class_is_read_never_written() -> None:
    for text in ("x.__class__ = int", "x.__class__ += 1", "setattr(x, '__class__', int)"):
        e = fails("import torch\nx = torch.ones(1)\n" + text)
        assert "not accessible" in e.message


def test_a_programs_dunder_methods_called_by_name() -> None:
    got = out(
        "import torch\nimport torch.nn as nn\nfrom torch.utils.data import Dataset\n"
        "class Points(Dataset):\n    def __init__(self, n):\n        Dataset.__init__(self)\n"
        "        self.x = torch.arange(n * 2.0).reshape(n, 2)\n"
        "    def __len__(self):\n        return self.x.shape[0]\n"
        "    def __getitem__(self, i):\n        return self.x[i], i\n"
        "    def __call__(self, k):\n        return k * len(self)\n"
        "class Big(Points):\n    def __init__(self):\n        Points.__init__(self, 3)\n"
        "    def __len__(self):\n        return 10 * super().__len__()\n"
        "class Net(nn.Module):\n    def __init__(self):\n        nn.Module.__init__(self)\n"
        "        self.fc = nn.Linear(2, 1)\n"
        "ds = Points(4)\nprint(ds.__len__(), ds.__getitem__(1), ds.__call__(2), len(Big()))\n"
        "print(Points.__len__(ds), Big().__len__(), list(Net().named_parameters())[0][0])\n"
        "t = torch.arange(6).reshape(3, 2)\n"
        "print(t.__len__(), t.__getitem__(1), t.__getitem__((0, 1)))\n"
    )
    assert got == ("4 (tensor([2., 3.]), 1) 8 30\n4 30 fc.weight\n3 tensor([2, 3]) tensor(1)\n")


@pytest.mark.parametrize(
    "text, message",
    [
        ("class A:\n    pass\nA().__len__()", "'A' object has no attribute '__len__'"),
        ("class A:\n    pass\nA().__repr__()", "`.__repr__` of a value of class 'A'"),
        ("[1].__len__()", "`.__len__` of a value of class 'list' is not supported"),
        ("range(3).__iter__()", "`.__iter__` of a value of class 'range'"),
        ("len.__call__", "of class 'builtin_function_or_method' is not supported"),
        (
            "torch.nn.Linear(1, 1).__call__",
            "`.__call__` of a value of class 'torch.nn.modules.linear.Linear'",
        ),
        ("class A:\n    pass\nA().__add__(1)", "'A' object has no attribute '__add__'"),
        ("torch.nn.Module.__init__(1)", "descriptor '__init__' of 'Module' object needs"),
    ],
)
def test_other_dunder_methods_are_refused_naming_what_to_write(text: str, message: str) -> None:
    e = fails("import torch\n" + text)
    assert message in e.message
    assert e.span is not None and e.span.line == text.count("\n") + 2


PLAIN_DICT = """
from types import SimpleNamespace
class Meter:
    def __init__(self, name, fmt=':f', **extra):
        self.name = name
        self.fmt = fmt
        self.val = self.sum = self.count = 0
        self.__dict__.update(extra)
    def update(self, v, n=1):
        self.val = v
        self.sum += v * n
        self.count += n
        self.avg = self.sum / self.count
    def __str__(self):
        return ('{name} {val' + self.fmt + '} ({avg' + self.fmt + '})').format(**self.__dict__)
m = Meter('Loss', ':.3f', unit='nats')
for v in (0.5, 0.25, 0.125):
    m.update(v, 2)
print(m, m.unit, sorted(m.__dict__), m.__dict__ is vars(m))
m.__dict__['val'] = 9.0
print(m.val, len(m.__dict__), SimpleNamespace(lr=0.1).__dict__)
"""


def test_a_plain_instances_dict_is_its_live_attribute_table() -> None:
    # the AverageMeter of PyTorch's ImageNet example: `format(**self.__dict__)`; Python's own
    # run of the same text is the expected answer
    import contextlib
    import io

    want = io.StringIO()
    with contextlib.redirect_stdout(want):
        exec(PLAIN_DICT, {})
    assert out(PLAIN_DICT) == want.getvalue()


@pytest.mark.parametrize(
    ("owner", "col"),
    [("torch.nn.Linear(1, 1)", 26), ("torch.ones(1)", 18), ("torch.optim.SGD", 20)],
)
def test_dict_of_anything_else_stays_closed(owner: str, col: int) -> None:
    e = fails(f"import torch\nx = {owner}.__dict__\n")
    assert "`.__dict__` is not accessible" in e.message
    assert (e.span.line, e.span.col + 1) == (2, col)
