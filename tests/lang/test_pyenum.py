"""Python's `enum` for a script's settings (explore27: a mixture density network's
`class NoiseType(Enum): DIAGONAL = auto()` was refused): members read, compared, looked up
by value and by name, iterated and printed as Python's; methods and properties of the class;
IntEnum members that are ints; dunder methods and other enum kinds refused in plain words.
Expected values are Python 3.11's (checked by hand with /work/torchenv)."""

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
            "    def __str__(self):\n        return 'c'\n",
            "dunder methods",
        ),
        ("from enum import Enum\nC = Enum('C', 'A B')\n", "the functional form"),
        ("from enum import Enum\nclass C(Enum):\n    _A = 1\n", "the name `_A`"),
        ("from enum import Flag\n", "Flag"),
        ("from enum import IntEnum\nclass C(IntEnum):\n    A = 'x'\n", "invalid literal"),
    ],
)
def test_what_is_not_supported_says_so(text: str, message: str) -> None:
    with pytest.raises(GradcliError, match=message):
        parse(text, "t.py").run()


ENUMS = (
    "from enum import Enum, IntEnum, auto\nimport torch\n"
    "class Phase(Enum):\n    TRAIN = 'train'\n    EVAL = 'eval'\n"
    "    def is_training(self):\n        return self is Phase.TRAIN\n"
    "    @property\n    def upper(self):\n        return self.value.upper()\n"
    "    @classmethod\n    def parse(cls, text):\n        return cls(text.lower())\n"
    "    @staticmethod\n    def names():\n        return [p.name for p in Phase]\n"
    "class Level(IntEnum):\n    LOW = 1\n    MID = auto()\n    HIGH = auto()\n"
)


def test_methods_properties_and_class_methods_of_an_enum() -> None:
    got = out(
        ENUMS + "print(Phase.TRAIN.is_training(), Phase.EVAL.is_training())\n"
        "print(Phase.EVAL.upper, Phase.parse('TRAIN'), Phase.names(), list(Phase))\n"
    )
    assert got == (
        "True False\n"
        "EVAL Phase.TRAIN ['TRAIN', 'EVAL'] [<Phase.TRAIN: 'train'>, <Phase.EVAL: 'eval'>]\n"
    )


def test_int_enum_members_are_ints() -> None:
    got = out(
        ENUMS + "print(Level.HIGH, repr(Level.HIGH), Level.HIGH + 1, Level.MID * 2.5)\n"
        "print(Level.LOW == 1, Level.HIGH > Level.LOW, Level(2), Level['LOW'])\n"
        "print(['a', 'b', 'c', 'd'][Level.HIGH], list(Level), len(Level))\n"
        "print(f'{Level.MID}', f'{Level.MID:03d}', '%d' % Level.HIGH, str(Level.LOW))\n"
        "print(isinstance(Level.LOW, int), isinstance(Level.LOW, IntEnum),\n"
        "      isinstance(Phase.TRAIN, IntEnum))\n"
        "print(torch.zeros(Level.MID), torch.tensor([Level.LOW, Level.HIGH]))\n"
        "print({Level.LOW: 'low', 2: 'two'}[1], sorted([Level.HIGH, Level.LOW]), max(Level),\n"
        "      sum(Level), Level.LOW.bit_length(), torch.ones(3)[Level.LOW])\n"
    )
    assert got == (
        "3 <Level.HIGH: 3> 4 5.0\n"
        "True True 2 1\n"
        "d [<Level.LOW: 1>, <Level.MID: 2>, <Level.HIGH: 3>] 3\n"
        "2 002 3 1\n"
        "True True False\n"
        "tensor([0., 0.]) tensor([1, 3])\n"
        "low [<Level.LOW: 1>, <Level.HIGH: 3>] 3 6 1 tensor(1.)\n"
    )
