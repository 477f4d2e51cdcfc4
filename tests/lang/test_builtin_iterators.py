"""zip, enumerate, map, filter and reversed give one-pass iterators as Python's
(explore27): a `zip(...)[::-1]` pasted from a repository is Python's TypeError, not a reversed
list; a second `list(z)` is empty; `type(z)` is `zip`. Expected values are Python 3.11's /
PyTorch 2.13's (checked by hand with /work/torchenv)."""

from __future__ import annotations

import re

import pytest

from gradcli.base.errors import LimitError
from gradcli.lang.program import parse
from tests.helpers.programs import error, out


@pytest.mark.parametrize(
    ("make", "kind"),
    [
        ("zip([1, 2], [3, 4])", "zip"),
        ("enumerate([1, 2])", "enumerate"),
        ("map(abs, [1, 2])", "map"),
        ("filter(None, [1, 2])", "filter"),
        ("reversed([1, 2])", "list_reverseiterator"),
        ("reversed((1, 2))", "reversed"),
        ("reversed('ab')", "reversed"),
        ("reversed(range(2))", "range_iterator"),
        ("reversed({1: 2, 3: 4})", "dict_reversekeyiterator"),
    ],
)
def test_each_is_an_iterator_consumed_once(make: str, kind: str) -> None:
    got = out(
        f"it = {make}\nprint(type(it).__name__)\nprint(it)\n"
        "print(len(list(it)), list(it))\nprint(next(iter([it]), None) is it)\n"
    ).splitlines()
    assert got[0] == kind
    assert re.fullmatch(rf"<{kind} object at 0x[0-9a-f]+>", got[1])
    assert got[2] == "2 []"  # the second pass finds it consumed
    assert got[3] == "True"
    e = error(f"it = {make}\nx = it[0]")
    assert e.message == f"'{kind}' object is not subscriptable"
    assert e.python_class == "TypeError"
    e = error(f"n = len({make})")
    assert e.message == f"object of type '{kind}' has no len()"


def test_a_zip_sliced_is_an_error_not_a_reversed_list() -> None:
    # (reptile-gen's `zip(losses, ...)[::-1]`: Python 3 raises; a list would run on silently)
    e = error("pairs = zip([1, 2], [3, 4])[::-1]")
    assert "'zip' object is not subscriptable" in e.message


def test_items_are_read_as_the_loop_asks_for_them() -> None:
    got = out(
        "x = [1, 2]\nseen = []\nfor i, v in enumerate(x):\n    if i == 0:\n"
        "        x.append(3)\n    seen.append(v)\nprint(seen)\n"
        "m = map(lambda v: print('made', v) or v, [1, 2])\nprint('before')\nprint(next(m))\n"
        "e = enumerate('abc', 5)\nprint(next(e), list(e))\n"
    )
    assert got == "[1, 2, 3]\nbefore\nmade 1\n1\n(5, 'a') [(6, 'b'), (7, 'c')]\n"


def test_an_argument_not_iterable_fails_where_the_call_is() -> None:
    for call in ("zip([1], 5)", "enumerate(3)", "map(abs, 2)", "filter(None, 1.5)"):
        e = error(f"it = {call}\n")
        assert e.message.endswith("object is not iterable"), call
        assert e.span is not None and e.span.line == 1


def test_what_consumes_them_takes_their_items() -> None:
    got = out(
        "import torch\n"
        "a, b = zip(*[(1, 2), (3, 4)])\nprint(a, b)\n"
        "print(dict(zip('ab', (1, 2))), sorted(map(abs, [3, -1])), sum(filter(None, [0, 2])))\n"
        "print(*map(str, [1, 2]), tuple(enumerate('x')), set(zip([1], [1])))\n"
        "print(' '.join(map(str, reversed([1, 2]))), max(map(abs, [-4, 3])))\n"
        "print(torch.tensor(list(zip([1.0, 2.0], [3.0, 4.0]))))\n"
        "print([i * v for i, v in enumerate(map(float, '12'))])\n"
    )
    assert got == (
        "(1, 3) (2, 4)\n{'a': 1, 'b': 2} [1, 3] 2\n1 2 ((0, 'x'),) {(1, 1)}\n2 1 4\n"
        "tensor([[1., 3.],\n        [2., 4.]])\n[0.0, 2.0]\n"
    )


def test_reversed_of_a_tensor_is_the_tensor_flipped() -> None:
    got = out(
        "import torch\nx = torch.arange(6.0).reshape(3, 2).requires_grad_()\n"
        "r = reversed(x)\nprint(r)\nr[0].sum().backward()\nprint(x.grad)\n"
        "print(reversed(torch.tensor(2.0)))\n"
    )
    assert got == (
        "tensor([[4., 5.],\n        [2., 3.],\n        [0., 1.]], grad_fn=<FlipBackward0>)\n"
        "tensor([[0., 0.],\n        [0., 0.],\n        [1., 1.]])\ntensor(2.)\n"
    )


def test_a_huge_zip_listed_is_refused_before_it_is_made() -> None:
    with pytest.raises(LimitError):
        parse("z = list(zip(range(10**9), range(10**9)))", "t.py").run(dtype="float32")
