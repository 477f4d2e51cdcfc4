"""`types.SimpleNamespace` in programs: made from keywords, its attributes read, set,
augmented, deleted and listed by vars(), printed and compared as Python's; Python's words for
a missing attribute and a positional argument; dunder names refused."""

from __future__ import annotations

import contextlib
import io
import types

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

PROGRAM = """\
args = SimpleNamespace(lr=0.1, epochs=3, name='run')
print(args, args.lr, args.epochs * 2)
args.batch = 4
args.lr *= 2
del args.name
setattr(args, 'tag', [1, 2])
print(args, vars(args), hasattr(args, 'lr'), getattr(args, 'missing', 'default'))
vars(args)['extra'] = 'x'
print(repr(args), str(SimpleNamespace()), f'{args.extra}')
a = SimpleNamespace(x=1, y=[2])
print(a == SimpleNamespace(y=[2], x=1), a == SimpleNamespace(x=1), a != SimpleNamespace(x=2, y=[2]))
def records():
    for i in range(3):
        yield SimpleNamespace(step=i, value=i * i)
print([r.value for r in records()])
try:
    args.nope
except AttributeError as e:
    print('AttributeError', e)
try:
    SimpleNamespace(1)
except TypeError as e:
    print('TypeError', e)
"""


def test_simple_namespace_behaves_as_pythons() -> None:
    got = "".join(
        parse("from types import SimpleNamespace\n" + PROGRAM, "t.py").run(dtype="float32").output
    )
    want = io.StringIO()
    with contextlib.redirect_stdout(want):
        exec(PROGRAM, {"SimpleNamespace": types.SimpleNamespace})  # Python's own answer
    assert got == want.getvalue()


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("n = types.SimpleNamespace(__class__=1)", "attribute `__class__` is not supported"),
        ("n = types.SimpleNamespace(a=1)\nn.__dict__ = {}", "is not accessible"),
        ("n = types.SimpleNamespace(a=1)\nn.__class__ = int", "is not accessible"),
        ("f = types.FunctionType", "`types.FunctionType` is not supported"),
    ],
)
def test_simple_namespace_reaches_no_internals(line: str, words: str) -> None:
    with pytest.raises(GradcliError, match=words):
        parse("import types\n" + line + "\n", "t.py").run(dtype="float32")
