"""itertools in programs (explore16): lazy as Python's, interleaved with a program's own
generators, and bounded before Python's functions would store anything. Expected values are
Python 3's (checked by hand)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse("import itertools\n" + text, "t.py").run(dtype="float32").output)


def test_chain_is_lazy_and_interleaves_with_a_generator() -> None:
    got = out(
        "def gen():\n    for i in range(2):\n        print('make', i)\n        yield i\n"
        "for v in itertools.chain(gen(), [9]):\n    print('got', v)\n"
    )
    assert got == "make 0\ngot 0\nmake 1\ngot 1\ngot 9\n"


def test_endless_iterators_are_consumed_in_part() -> None:
    got = out(
        "c = itertools.count(5)\nprint(next(c), next(c))\n"
        "print(list(itertools.islice(itertools.repeat('a'), 3)))\n"
        "for i in itertools.count():\n    if i == 3:\n        break\nprint(i)\n"
    )
    assert got == "5 6\n['a', 'a', 'a']\n3\n"


def test_types_and_reprs_are_pythons() -> None:
    got = out(
        "c = itertools.chain([1])\nprint(type(c))\n"
        "print(repr(c).startswith('<itertools.chain object at 0x'))\n"
        "print(type(itertools.product([1])).__name__)\n"
    ).splitlines()
    assert got == ["<class 'itertools.chain'>", "True", "product"]


def test_results_match_python() -> None:
    import itertools as it

    got = out(
        "print(list(itertools.product('ab', repeat=2)))\n"
        "print(list(itertools.permutations(range(3))))\n"
        "print(list(itertools.combinations('abcd', 3)))\n"
        "print(list(itertools.zip_longest('ab', 'xyz')))\n"
        "print(list(itertools.accumulate([3, 1, 4], max)))\n"
    ).splitlines()
    assert got == [
        str(list(it.product("ab", repeat=2))),
        str(list(it.permutations(range(3)))),
        str(list(it.combinations("abcd", 3))),
        str(list(it.zip_longest("ab", "xyz"))),
        str(list(it.accumulate([3, 1, 4], max))),
    ]


@pytest.mark.parametrize(
    "program",
    [
        "p = itertools.product(range(10**9))",
        "p = itertools.product([0], repeat=10**8)",
        "p = next(itertools.permutations(range(10**7)))",
        "l = list(itertools.repeat(0))",
    ],
)
def test_what_python_would_store_is_bounded(program: str) -> None:
    with pytest.raises(GradcliError, match="limit"):
        out(program)
