"""collections.abc's classes, `numbers`' and typing's names in isinstance(), against Python
itself.

Each program is run by gradcli and by the Python running the tests: the printed answers
must be the same (torch's values are in the corpus, 1270 and 1272, recorded with torch)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from tests.helpers.programs import out, python_out

PRELUDE = """\
import collections
import numbers
import typing
import numpy as np
from collections import OrderedDict, defaultdict, deque, namedtuple, Counter
from collections.abc import Iterable, Iterator, Sequence, Mapping, Callable

class Plain:
    pass

class Walk:
    def __iter__(self):
        return iter([1, 2])

class Steps:
    def __iter__(self):
        return self
    def __next__(self):
        raise StopIteration

class Indexed:
    def __getitem__(self, i):
        if i > 1:
            raise IndexError
        return i

def f(x):
    return x

P = namedtuple("P", ["a", "b"])
VALUES = [[1], (1,), "ab", {"k": 1}, {1}, frozenset(), range(2), 3, 2.5, None, True,
          iter([1]), zip([1], [2]), enumerate("a"), (c for c in "ab"), {}.keys(), {}.items(),
          deque([1]), OrderedDict(), defaultdict(list), Counter("aab"), P(1, 2), Plain(),
          Walk(), Steps(), Indexed(), f, print, len, lambda: 1, Plain, int, 2j, 7,
          np.float32(1.5), np.int64(2), np.bool_(True), np.ones(2)]
"""


def gradcli_prints(code: str) -> str:
    return out(PRELUDE + code + "\n")


def python_prints(code: str) -> str:
    return python_out(PRELUDE + code)


CLASSES = [
    "Iterable",
    "Iterator",
    "Sequence",
    "Mapping",
    "Callable",
    "collections.abc.Iterable",
    "typing.Iterable",
    "typing.Iterator",
    "typing.Sequence",
    "typing.Mapping",
    "typing.List",
    "typing.Dict",
    "typing.Tuple",
    "typing.Set",
    "typing.Callable",
    "typing.Optional[int]",
    "typing.Union[int, str]",
    "typing.Optional[typing.Union[Sequence, float]]",
    "(int, Sequence)",
    "numbers.Number",
    "numbers.Complex",
    "numbers.Real",
    "numbers.Rational",
    "numbers.Integral",
    "(numbers.Integral, str)",
]


@pytest.mark.parametrize("cls", CLASSES)
def test_isinstance_answers_as_python(cls: str) -> None:
    code = f"for v in VALUES:\n    print(isinstance(v, {cls}))"
    assert gradcli_prints(code) == python_prints(code)


@pytest.mark.parametrize(
    "code",
    [
        "print(Iterable, Sequence[int], Mapping[str, float], Callable[[int, str], float])",
        "print(collections.abc.Sized, collections.abc.Iterator[int], typing.Optional[int])",
        "print(numbers.Number, numbers.Integral)",
        "import collections.abc as abc\n"
        "print(abc.Mapping is Mapping, type(Iterable) is type(Sequence))",
    ],
)
def test_the_classes_print_as_in_python(code: str) -> None:
    assert gradcli_prints(code) == python_prints(code)


@pytest.mark.parametrize(
    "hint",
    ["typing.Any", "typing.Optional", "typing.Union", "typing.List[int]", "Iterable[int]"],
)
def test_the_refusals_are_pythons_type_errors(hint: str) -> None:
    code = f"try:\n    isinstance(1, {hint})\nexcept TypeError as e:\n    print(e)"
    assert gradcli_prints(code) == python_prints(code)


def test_a_hint_only_class_is_refused_in_plain_words() -> None:
    with pytest.raises(GradcliError, match="isinstance.. with collections.abc.Sized is not"):
        gradcli_prints("isinstance([], collections.abc.Sized)")


def test_nested_unions_are_flattened_not_recursed() -> None:
    """A union nested far deeper than Python's stack is walked (and answers as Python's,
    which flattens it as it is built); one shared twice at each level is walked once."""
    code = (
        "t = int\nfor i in range(5000):\n    t = typing.Optional[t]\n"
        "u = str\nfor i in range(300):\n    u = typing.Union[u, u, float]\n"
        "print(isinstance(None, t), isinstance(2, t), isinstance('a', t))\n"
        "print(isinstance(2, u), isinstance(2.5, u), isinstance('a', u))"
    )
    assert gradcli_prints(code) == python_prints(code) == "True True False\nFalse True True\n"


def test_registering_a_class_is_refused_in_plain_words() -> None:
    for cls in ("Iterable", "numbers.Real"):
        with pytest.raises(GradcliError, match=r"register\(\) is not supported"):
            gradcli_prints(f"{cls}.register(Plain)")


def test_another_attribute_is_pythons_attribute_error() -> None:
    code = "try:\n    Mapping.keys_of\nexcept AttributeError as e:\n    print(e)\n"
    code += "print(Iterable.__name__)"
    assert gradcli_prints(code) == python_prints(code)
