"""`collections.deque`, `collections.namedtuple` / `typing.NamedTuple` and `@dataclass` as Python
has them: the values, the generated methods, Python's errors in its words, and the limits on
what grows."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError, LimitError, NotSupported
from gradcli.lang.program import parse


def out(text: str) -> list[str]:
    return "".join(parse(text, "t.py").run(dtype="float32").output).splitlines()


def test_deque_methods_and_maxlen() -> None:
    # (print's arguments run before it prints: the deque shows what the pops left)
    got = out(
        "from collections import deque\nq = deque([1, 2, 3], maxlen=4)\n"
        "q.append(4)\nq.append(5)\nprint(q, len(q), q.maxlen)\n"
        "q.appendleft(0)\nprint(q, q.pop(), q.popleft(), q)\n"
        "q.rotate(-1)\nprint(q, q[0], q[-1], 3 in q, 9 in q)\n"
        "q[1] = 'a'\ndel q[0]\nprint(q, list(q), q.count('a'), q.index('a'))\n"
        "r = deque('abc')\nr.extendleft('xy')\nprint(r, deque(), deque(range(3), 2))\n"
    )
    assert got == [
        "deque([2, 3, 4, 5], maxlen=4) 4 4",
        "deque([2, 3], maxlen=4) 4 0 deque([2, 3], maxlen=4)",
        "deque([3, 2], maxlen=4) 3 2 True False",
        "deque(['a'], maxlen=4) ['a'] 1 0",
        "deque(['y', 'x', 'a', 'b', 'c']) deque([]) deque([1, 2], maxlen=2)",
    ]


def test_deque_errors_in_pythons_words() -> None:
    got = out(
        "from collections import deque\nq = deque()\n"
        "for f in (q.pop, q.popleft):\n    try:\n        f()\n"
        "    except IndexError as e:\n        print(e)\n"
        "try:\n    deque(maxlen=-2)\nexcept ValueError as e:\n    print(e)\n"
        "q = deque([1, 2])\ntry:\n    for v in q:\n        q.append(v)\n"
        "except RuntimeError as e:\n    print(e)\n"
        "try:\n    q[5]\nexcept IndexError as e:\n    print(e)\n"
        "d = {1: 1}\ntry:\n    for k in d:\n        d[k + 1] = 1\n"
        "except RuntimeError as e:\n    print(e)\n"
    )
    assert got == [
        "pop from an empty deque",
        "pop from an empty deque",
        "maxlen must be non-negative",
        "deque mutated during iteration",
        "deque index out of range",
        "dictionary changed size during iteration",
    ]


def test_deque_growth_is_limited() -> None:
    with pytest.raises(LimitError):
        out("from collections import deque\nq = deque([1])\nfor i in range(40):\n    q.extend(q)")
    with pytest.raises(LimitError):
        out("from collections import deque\nq = deque()\nq.append(q)\nprint(q)")


def test_named_tuples_both_ways() -> None:
    got = out(
        "from collections import namedtuple\nfrom typing import NamedTuple\nimport torch\n"
        "P = namedtuple('P', 'x y', defaults=[7])\np = P(1)\n"
        "print(p, p.y, p[0], P._fields, p._asdict(), p._replace(y=2))\n"
        "class T(NamedTuple):\n    s: torch.Tensor\n    a: int = 0\n"
        "t = T(torch.ones(1))\ns, a = t\nprint(t, a, len(t), t == (s, 0), type(t).__name__)\n"
        "print(isinstance(t, T), isinstance(t, tuple), isinstance(p, T), p + (3,))\n"
        "try:\n    P()\nexcept TypeError as e:\n    print(e)\n"
        "try:\n    p.x = 1\nexcept AttributeError as e:\n    print(e)\n"
        "try:\n    namedtuple('Q', ['a', '_b'])\nexcept ValueError as e:\n    print(e)\n"
    )
    assert got == [
        "P(x=1, y=7) 7 1 ('x', 'y') {'x': 1, 'y': 7} P(x=1, y=2)",
        "T(s=tensor([1.]), a=0) 0 2 True T",
        "True True False (1, 7, 3)",
        "P.__new__() missing 1 required positional argument: 'x'",
        "can't set attribute",
        "Field names cannot start with an underscore: '_b'",
    ]


def test_dataclass_generated_methods() -> None:
    got = out(
        "from dataclasses import dataclass, field, asdict, replace\nimport torch\n"
        "@dataclass\nclass C:\n    a: int\n    b: list = field(default_factory=list)\n"
        "    c: str = 'x'\n    def __post_init__(self):\n        self.n = self.a * 2\n"
        "c = C(1)\nc.b.append(5)\nprint(c, c.n, C(1).b, C.c)\n"
        "print(c == C(1, [5]), c == C(2, [5]), c != C(1), c == 3)\n"
        "print(asdict(c), replace(c, a=4))\n"
        "@dataclass\nclass D(C):\n    d: float = 1.5\n"
        "print(D(0), D(0) == C(0))\n"
        "@dataclass\nclass W:\n    w: torch.Tensor\n"
        "print(W(torch.zeros(1)) == W(torch.zeros(1)))\n"
        "try:\n    W(torch.zeros(2)) == W(torch.zeros(2))\n"
        "except RuntimeError as e:\n    print(e)\n"
    )
    assert got == [
        "C(a=1, b=[5], c='x') 2 [] x",
        "True False True False",
        "{'a': 1, 'b': [5], 'c': 'x'} C(a=4, b=[5], c='x')",
        "D(a=0, b=[], c='x', d=1.5) False",
        "True",
        "Boolean value of Tensor with more than one value is ambiguous",
    ]


@pytest.mark.parametrize(
    ("program", "error", "message"),
    [
        (
            "@dataclass(frozen=True)\nclass F:\n    x: int\nf = F(1)\nf.x = 2",
            GradcliError,
            "cannot assign to field 'x'",
        ),
        (
            "@dataclass(frozen=True)\nclass F:\n    x: int\nf = F(1)\ndel f.x",
            GradcliError,
            "cannot delete field 'x'",
        ),
        ("@dataclass\nclass F:\n    x: int\nF()", GradcliError, r"missing 1 required"),
        (
            "@dataclass\nclass F:\n    x: int = 0\nF(1, 2)",
            GradcliError,
            r"F.__init__\(\) takes from 1 to 2 positional arguments but 3 were given",
        ),
        (
            "@dataclass\nclass F:\n    x: int = 1\n    y: int",
            GradcliError,
            "non-default argument 'y' follows default argument",
        ),
        (
            "@dataclass\nclass F:\n    x: dict = {}",
            GradcliError,
            r"mutable default <class 'dict'> for field x is not allowed",
        ),
        ("@dataclass(order=True)\nclass F:\n    x: int = 1", NotSupported, "order=True"),
        ("@print\nclass F:\n    x: int = 1", NotSupported, "other than @dataclass"),
    ],
)
def test_dataclass_errors(program: str, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        out("from dataclasses import dataclass\n" + program)


def test_frozen_error_is_catchable_as_its_class_and_attribute_error() -> None:
    got = out(
        "import dataclasses\n@dataclasses.dataclass(frozen=True)\nclass F:\n    x: int\n"
        "f = F(1)\ntry:\n    f.x = 2\nexcept dataclasses.FrozenInstanceError as e:\n"
        "    print('frozen', e)\ntry:\n    f.y = 2\nexcept AttributeError as e:\n    print(e)\n"
    )
    assert got == ["frozen cannot assign to field 'x'", "cannot assign to field 'y'"]


def test_ordered_dict_moves_keys_and_pops_from_either_end() -> None:
    # (what Python 3.11 prints for the same program)
    got = out(
        "from collections import OrderedDict\nod = OrderedDict(a=1, b=2, c=3)\n"
        "od.move_to_end('a')\nprint(od, list(od))\n"
        "od.move_to_end('c', last=False)\nprint(od)\n"
        "print(od.popitem(), od.popitem(last=False), od)\n"
        "c = od.copy()\nc['z'] = 9\nprint(c, od, type(c).__name__)\n"
        "for f in (lambda: od.move_to_end('nope'), lambda: OrderedDict().popitem(last=False)):\n"
        "    try:\n        f()\n    except KeyError as e:\n        print('KeyError', e)\n"
    )
    assert got == [
        "OrderedDict([('b', 2), ('c', 3), ('a', 1)]) ['b', 'c', 'a']",
        "OrderedDict([('c', 3), ('b', 2), ('a', 1)])",
        "('a', 1) ('c', 3) OrderedDict([('b', 2)])",
        "OrderedDict([('b', 2), ('z', 9)]) OrderedDict([('b', 2)]) OrderedDict",
        "KeyError 'nope'",
        "KeyError 'dictionary is empty'",
    ]
