"""Python's `enum` for a script's settings (explore27: a mixture density network's
`class NoiseType(Enum): DIAGONAL = auto()` was refused): members read, compared, looked up
by value and by name, iterated and printed as Python's; methods and other enum kinds refused
in plain words. Expected values are Python 3.11's (checked by hand with /work/torchenv)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

MODE = (
    "from enum import Enum, auto\n"
    "class Mode(Enum):\n    TRAIN = auto()\n    EVAL = auto()\n    TEST = 10\n"
    "    NEXT = auto()\n    ALIAS = 10.0\n"
)


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


def test_members_number_print_and_compare_as_pythons() -> None:
    got = out(
        MODE + "print(Mode.TRAIN, repr(Mode.EVAL), Mode.TEST.value, Mode.NEXT.value)\n"
        "print(Mode.ALIAS is Mode.TEST, list(Mode), len(Mode))\n"
        "print(Mode(2), Mode(10).name, Mode['NEXT'], Mode.TRAIN == Mode.EVAL)\n"
        "print(f'{Mode.EVAL} {Mode.EVAL.name!r}', str(Mode.TEST), Mode)\n"
        "print(isinstance(Mode.TRAIN, Mode), isinstance(Mode.TRAIN, Enum), type(Mode.EVAL))\n"
        "print(Mode.TRAIN in Mode, {Mode.TRAIN: 1}[Mode(1)],\n"
        "      sorted(Mode, key=lambda m: -m.value))\n"
    )
    assert got == (
        "Mode.TRAIN <Mode.EVAL: 2> 10 11\n"
        "True [<Mode.TRAIN: 1>, <Mode.EVAL: 2>, <Mode.TEST: 10>, <Mode.NEXT: 11>] 4\n"
        "Mode.EVAL TEST Mode.NEXT False\n"
        "Mode.EVAL 'EVAL' Mode.TEST <enum 'Mode'>\n"
        "True True <enum 'Mode'>\n"
        "True 1 [<Mode.NEXT: 11>, <Mode.TEST: 10>, <Mode.EVAL: 2>, <Mode.TRAIN: 1>]\n"
    )


def test_lookups_that_fail_are_pythons_errors() -> None:
    got = out(
        MODE + "for bad in (lambda: Mode(99), lambda: Mode['X'], lambda: Mode.X):\n"
        "    try:\n        bad()\n    except (ValueError, KeyError, AttributeError) as e:\n"
        "        print(type(e).__name__, e)\n"
        "try:\n    Mode.TRAIN < Mode.EVAL\nexcept TypeError as e:\n    print(e)\n"
    )
    assert got == (
        "ValueError 99 is not a valid Mode\nKeyError 'X'\nAttributeError X\n"
        "'<' not supported between instances of 'Mode' and 'Mode'\n"
    )


def test_string_tensor_and_tuple_values() -> None:
    got = out(
        "import torch\nfrom enum import Enum\n"
        "class Act(Enum):\n    RELU = 'relu'\n    PAIR = (1, 'x')\n    W = torch.ones(2)\n"
        "print(Act('relu'), Act((1, 'x')), Act.W.value, [a.name for a in Act])\n"
    )
    assert got == "Act.RELU Act.PAIR tensor([1., 1.]) ['RELU', 'PAIR', 'W']\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "from enum import Enum\nclass C(Enum):\n    A = 1\n"
            "    def f(self):\n        return 1\n",
            "methods, properties and descriptors in an Enum class are not supported",
        ),
        (
            "from enum import Enum\nclass C(Enum):\n    A = 1\n    @property\n"
            "    def p(self):\n        return 1\n",
            "methods, properties and descriptors in an Enum class are not supported",
        ),
        ("from enum import Enum\nC = Enum('C', 'A B')\n", "the functional form"),
        ("from enum import Enum\nclass C(Enum):\n    _A = 1\n", "the name `_A`"),
        ("from enum import IntEnum\n", "IntEnum"),
    ],
)
def test_what_is_not_supported_says_so(text: str, message: str) -> None:
    with pytest.raises(GradcliError, match=message):
        parse(text, "t.py").run()
