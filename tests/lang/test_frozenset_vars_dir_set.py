"""frozenset (Python's, its methods and set algebra, printed as Python prints it), vars(obj)
and dir(obj) of an instance of a program's plain class (vars: the object's own attribute
table, live, as `__dict__`), and `Tensor.set_` (x takes another tensor's memory). What stays
out of reach is refused in plain words. Corpus 539 has PyTorch's and Python's text."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError, LimitError, NotSupported
from gradcli.lang.program import parse


def run(text: str) -> str:
    return "".join(parse("import torch\n" + text, "t.py").run().output)


def test_frozenset_is_python_s() -> None:
    out = run(
        "a = frozenset([3, 1, 2])\nb = frozenset('ab')\n"
        "print(a, b == frozenset('ba'), len(a), 2 in a, type(a), frozenset())\n"
        "print(a | {4}, {4} | a, a - {1}, a.symmetric_difference([1, 9]), a.copy() is a)\n"
        "d = {a: 'x'}\nprint(d[frozenset({1, 2, 3})], sorted(a, reverse=True))\n"
        "print(frozenset.union(a, [7]), list(frozenset([(1, 2)])))\n"
    )
    assert out == (
        "frozenset({1, 2, 3}) True 3 True <class 'frozenset'> frozenset()\n"
        "frozenset({1, 2, 3, 4}) {1, 2, 3, 4} frozenset({2, 3}) frozenset({2, 3, 9}) True\n"
        "x [3, 2, 1]\nfrozenset({1, 2, 3, 7}) [(1, 2)]\n"
    )


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("frozenset([[1]])", "unhashable type: 'list'"),
        ("frozenset([1]).add(2)", "'frozenset' object has no attribute 'add'"),
        ("frozenset(5)", "not iterable"),
    ],
)
def test_frozenset_errors(code: str, words: str) -> None:
    with pytest.raises(GradcliError, match=words):
        run(code + "\n")


def test_frozenset_under_the_limits() -> None:
    with pytest.raises(LimitError):
        run("s = frozenset(range(10**8))\n")


def test_vars_and_dir_of_a_plain_instance() -> None:
    out = run(
        "class Base:\n    scale = 2\n    def base_method(self):\n        pass\n"
        "class Cfg(Base):\n    kind = 'sgd'\n"
        "    def __init__(self):\n        self.lr = 0.1\n"
        "c = Cfg()\nv = vars(c)\nv['momentum'] = 0.9\n"
        "print(v, c.momentum, vars(c) is v)\n"
        "print([n for n in dir(c) if not n.startswith('__')], len(dir(c)))\n"
    )
    # Python 3.11: object's 27 names with the class's and the instance's own
    assert out == (
        "{'lr': 0.1, 'momentum': 0.9} 0.9 True\n"
        "['base_method', 'kind', 'lr', 'momentum', 'scale'] 32\n"
    )


@pytest.mark.parametrize(
    ("code", "error", "words"),
    [
        ("vars()", NotSupported, "vars\\(\\) without an argument"),
        ("vars(torch.nn.Linear(2, 2))", NotSupported, "vars\\(\\) of a module"),
        ("vars(5)", GradcliError, "must have __dict__ attribute"),
        ("vars(torch.ones(1))", NotSupported, "vars\\(\\) of a Tensor"),
        ("dir()", NotSupported, "dir\\(\\) without an argument"),
        ("dir(torch)", NotSupported, "dir\\(\\) of a"),
        ("dir(torch.ones(1))", NotSupported, "dir\\(\\) of a Tensor"),
        (
            "from dataclasses import dataclass\n@dataclass\nclass P:\n    x: int = 1\ndir(P())",
            NotSupported,
            "dir\\(\\) of a dataclass",
        ),
    ],
)
def test_vars_and_dir_elsewhere_are_refused(code: str, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        run(f"print({code})\n" if "\n" not in code else code.replace("dir(P())", "print(dir(P()))"))


def test_vars_and_dir_alone_on_a_line_are_a_display() -> None:
    assert run("vars(torch)\ndir(torch)\nprint(1)\n") == "1\n"


def test_set_shares_memory_as_pytorch() -> None:
    out = run(
        "x = torch.zeros(3)\ny = torch.arange(4.)\nx.set_(y)\ny[1] = 7\nx[0] = -1\n"
        "print(x.shape, x.tolist(), y.tolist(), x._version, y._version)\n"
        "z = torch.ones(2, 2)\nz.set_(y[2:])\nprint(z.tolist())\n"
        "w = torch.ones(2, requires_grad=True)\n"
        "with torch.no_grad():\n    w.set_(torch.tensor([3., 4.]))\n"
        "(w ** 2).sum().backward()\nprint(w.grad, w.is_leaf)\n"
    )
    assert out == (
        "torch.Size([4]) [-1.0, 7.0, 2.0, 3.0] [-1.0, 7.0, 2.0, 3.0] 2 1\n"
        "[2.0, 3.0]\ntensor([6., 8.]) True\n"
    )


@pytest.mark.parametrize(
    ("code", "error", "words"),
    [
        ("torch.ones(2, requires_grad=True).set_(torch.ones(2))", GradcliError, "leaf Variable"),
        (
            "torch.zeros(2).float().set_(torch.ones(2).double())",
            GradcliError,
            "type double to a tensor of type float",
        ),
        ("torch.zeros(4)[:2].set_(torch.ones(2))", NotSupported, "on a view"),
        ("torch.zeros(2).set_(torch.ones(4), 0, (2,))", NotSupported, "storage, offset"),
        (
            "torch.func.grad(lambda v: v.set_(v * 2).sum())(torch.ones(2))",
            NotSupported,
            "inside torch.func",
        ),
    ],
)
def test_set_refusals(code: str, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        run(code + "\n")


def run_float32(text: str) -> str:
    return "".join(parse("import torch\n" + text, "t.py").run(dtype="float32").output)


def test_set_in_a_graph_has_no_derivative() -> None:
    """x.set_(y) on a tensor of the graph (or from a source that requires grad) is PyTorch's
    NotImplemented node: x takes y's memory, a backward through x fails in PyTorch's words,
    one through a node that saved x's old value fails on its version, and one through a node
    that did not reaches x's old history (it was refused as not supported). The expected text
    is what PyTorch 2.13 prints for this program (float32, as `gradcli run`)."""
    out = run_float32(
        "w = torch.tensor([1., 2., 3.], requires_grad=True)\n"
        "h = w[:2].reshape(2, 1) * w[1:].reshape(1, 2)\nsaved = h ** 2\nkept = h * 5\n"
        "s = torch.tensor([[5., 6.], [7., 8.]])\n"
        "print(h.set_(s) is h, h.shape, h._version, h.grad_fn.name())\n"
        "s[0, 0] = -1.0\nprint(h.tolist())\n"
        "for t in (h.sum(), saved.sum()):\n"
        "    try:\n        t.backward(retain_graph=True)\n"
        "    except RuntimeError as e:\n        print(str(e)[:110])\n"
        "kept.sum().backward()\nprint(w.grad)\n"
        "q = torch.zeros(2)\nq.set_(w[:2] * 1)\nprint(q.requires_grad, q.is_leaf)\n"
    )
    assert out == (
        "True torch.Size([2, 2]) 1 torch::autograd::NotImplemented\n"
        "[[-1.0, 6.0], [7.0, 8.0]]\n"
        "derivative for set_ is not implemented\n"
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTe\n"
        "tensor([25., 40., 15.])\n"
        "True False\n"
    )


def test_set_changing_a_graph_tensors_shape_is_refused() -> None:
    with pytest.raises(NotSupported, match="changes the shape"):
        run("h = torch.ones(3, requires_grad=True) * 2\nh.set_(torch.ones(2, 2))\n")
