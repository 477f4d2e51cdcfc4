"""Type hints built at run time (`tuple[int, ...]`, `int | None`), against Python itself.

Each expression is printed by gradcli and by the Python running the tests (3.11 semantics:
`types.GenericAlias`, `types.UnionType`): the text must be the same, and so must isinstance's
answers and the errors' words. torch's classes are in the corpus (994), recorded with torch.
"""

from __future__ import annotations

import itertools

import pytest

from gradcli.base.errors import GradcliError
from tests.helpers.programs import out, python_out

PRELUDE = "class Net:\n    pass\n"


def gradcli_prints(code: str) -> str:
    return out(PRELUDE + code + "\n")


def python_prints(code: str) -> str:
    return python_out(PRELUDE + code)


ATOMS = ["int", "float", "str", "None", "Net", "list[int]", "dict[str, float]", "tuple[int, ...]"]

EXPRESSIONS = [
    "tuple[()]",
    "tuple[int]",
    "list[list[tuple[str, ...]]]",
    "dict[str, list[float] | None]",
    "set[int] | frozenset[str]",
    "list[[int, str]]",
    "tuple[int, 'Net']",
    "int | int",
    "int | float | int | str",
    "(int | float) | (float | str)",
    "None | int",
    "list[int] | list[int]",
    *(f"{a} | {b}" for a, b in itertools.permutations(ATOMS, 2)),
]


@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_a_hint_prints_as_in_python(expr: str) -> None:
    code = f"h = {expr}\nprint(h, type(h).__name__)"
    assert gradcli_prints(code) == python_prints(code)


@pytest.mark.parametrize(
    "pair",
    [
        ("int | float", "float | int"),
        ("int | None", "None | int"),
        ("int | str", "int | float"),
        ("list[int]", "list[int]"),
        ("list[int]", "list[str]"),
        ("int | int", "int"),
    ],
)
def test_hints_compare_as_in_python(pair: tuple[str, str]) -> None:
    code = f"print(({pair[0]}) == ({pair[1]}))"
    assert gradcli_prints(code) == python_prints(code)


VALUES = ["3", "2.5", "'s'", "None", "Net()", "[1]", "True"]
UNIONS = ["int | float", "str | None", "Net | None", "list | dict", "bool | str"]


@pytest.mark.parametrize("union", UNIONS)
def test_isinstance_with_a_union_as_in_python(union: str) -> None:
    code = "".join(f"print(isinstance({v}, {union}))\n" for v in VALUES)
    assert gradcli_prints(code) == python_prints(code)


@pytest.mark.parametrize(
    "code",
    [
        "print(list[int]('ab'), dict[str, int](a=1), tuple[int, ...]([1, 2]), set[int]())",
    ],
)
def test_an_alias_makes_its_origins_values(code: str) -> None:
    assert gradcli_prints(code) == python_prints(code)


@pytest.mark.parametrize(
    "code",
    [
        "isinstance(3, list[int])",
        "x = None | None",
        "x = int | 3",
        "x = 'a' | int",
    ],
)
def test_errors_in_pythons_words(code: str) -> None:
    with pytest.raises(TypeError) as expected:
        python_prints(code)
    with pytest.raises(GradcliError) as got:
        gradcli_prints(code)
    assert str(expected.value) in str(got.value)
