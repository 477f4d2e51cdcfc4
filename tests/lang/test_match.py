"""`match` as Python runs it: the subject evaluated once, the first case whose pattern matches
and whose guard holds; literal, `None`, capture, `_`, `|`, `as`, sequence and class patterns;
mapping patterns; Python's SyntaxErrors for unreachable and inconsistent patterns; patterns
on a class's attributes refused before anything runs (positional sub-patterns of other than
the builtin classes, when the case is tried)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError, NotSupported
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


def test_patterns_guards_and_captures() -> None:
    got = out(
        "import torch\n"
        "calls = []\n"
        "def subject(v):\n    calls.append(v)\n    return v\n"
        "def kind(v):\n"
        "    match subject(v):\n"
        "        case torch.Tensor() as t:\n            return f'tensor {tuple(t.shape)}'\n"
        "        case 0 | 1:\n            return 'small'\n"
        "        case None:\n            return 'none'\n"
        "        case [x, *rest] if len(rest) > 1:\n            return f'long {x} {rest}'\n"
        "        case (a, b):\n            return f'pair {a + b}'\n"
        "        case int(n) if n < 0:\n            return f'negative {n}'\n"
        "        case str() | bytes():\n            return 'text'\n"
        "        case other:\n            return f'other {other!r}'\n"
        "for v in [1, None, [4, 5, 6], (2, 3), -7, torch.ones(2), 'ab', 2.5, 9]:\n"
        "    print(kind(v))\n"
        "print(len(calls))\n"
        "def last(v):\n    match v:\n        case [*_, z]:\n            return z\n"
        "    return 'no'\n"
        "print(last([1, 2, 3]), last([]), last('abc'))\n"
    )
    assert got == (
        "small\nnone\nlong 4 [5, 6]\npair 5\nnegative -7\ntensor (2,)\ntext\n"
        "other 2.5\nother 9\n9\n3 no no\n"
    )


def test_a_tensor_subject_compares_with_equality() -> None:
    got = out(
        "import torch\n"
        "x = torch.tensor(2.0, requires_grad=True)\n"
        "match (x * x).detach():\n    case 4:\n        print('four')\n    case _:\n"
        "        print('no')\n"
        "try:\n    match torch.ones(2):\n        case 1:\n            pass\n"
        "except RuntimeError as e:\n    print(e)\n"
    )
    assert got == "four\nBoolean value of Tensor with more than one value is ambiguous\n"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("match 1:\n    case x:\n        pass\n    case 1:\n        pass\n",
         "name capture 'x' makes remaining patterns unreachable"),
        ("match 1:\n    case _:\n        pass\n    case 1:\n        pass\n",
         "wildcard makes remaining patterns unreachable"),
        ("match 1:\n    case [a] | [b]:\n        pass\n",
         "alternative patterns bind different names"),
        ("match 1:\n    case [*a, *b]:\n        pass\n",
         "multiple starred names in sequence pattern"),
        ("match 1:\n    case {'a': 1, 'a': 2}:\n        pass\n",
         "mapping pattern checks duplicate key ('a')"),
    ],
)  # fmt: skip
def test_pythons_syntax_errors_before_anything_runs(text: str, words: str) -> None:
    with pytest.raises(GradcliError) as info:
        parse("print('ran')\n" + text, "t.py")
    assert words in info.value.message


def test_mapping_patterns_and_deques() -> None:
    got = out(
        "from collections import deque, OrderedDict\n"
        "def cfg(c):\n    match c:\n"
        "        case {'opt': 'sgd', 'lr': lr, **rest}:\n            return f'sgd {lr} {rest}'\n"
        "        case {'opt': 'adam' | 'adamw' as o, 'betas': (b1, b2)}:\n"
        "            return f'{o} {b1} {b2}'\n"
        "        case {}:\n            return 'some dict'\n"
        "        case [x, y]:\n            return f'pair {x} {y}'\n"
        "        case _:\n            return 'other'\n"
        "for c in [{'opt': 'sgd', 'lr': 0.1, 'm': 0.9}, {'opt': 'adamw', 'betas': (0.9, 0.99)},"
        " OrderedDict(a=1), deque([1, 2]), 'ab', {'opt': 'adam', 'betas': [1, 2, 3]}]:\n"
        "    print(cfg(c))\n"
    )
    assert got == ("sgd 0.1 {'m': 0.9}\nadamw 0.9 0.99\nsome dict\npair 1 2\nother\nsome dict\n")


def test_attribute_patterns_refused_with_a_hint() -> None:
    with pytest.raises(NotSupported) as info:
        parse("print('ran')\nmatch 1:\n    case complex(real=0):\n        pass\n", "t.py")
    e = info.value
    assert "not supported" in e.message and e.hint and e.span.line == 3


def test_match_in_a_generator_and_a_global_from_a_case() -> None:
    got = out(
        "def gen(items):\n    for it in items:\n        match it:\n"
        "            case int(n):\n                yield n * 2\n"
        "            case _:\n                yield -1\n"
        "print(list(gen([1, 'a', 3])))\n"
        "def f(v):\n    global G\n    match v:\n        case [a, b]:\n            G = a + b\n"
        "f([1, 2])\nprint(G)\n"
    )
    assert got == "[2, -1, 6]\n3\n"
