"""The one syntax table (`lang.syntax.SYNTAX`): every node type Python's parser can produce is
either compiled by the method the table names, or refused, with a hint and its span, before
anything runs."""

from __future__ import annotations

import ast

import pytest

from gradcli.base.errors import GradcliError, LimitError, NotSupported
from gradcli.lang.compiler import Compiler
from gradcli.lang.program import parse
from gradcli.lang.syntax import SYNTAX


def _node_types() -> set[type]:
    out: set[type] = set()
    stack = [ast.AST]
    while stack:
        t = stack.pop()
        for s in t.__subclasses__():
            stack.append(s)
            if s.__module__ == "ast" and not s.__name__.startswith("_"):
                out.add(s)
    return out


# Abstract bases, and classes Python 3.8+ never produces (kept by `ast` for compatibility) or
# produces only for other modes than a module (`eval`, `func_type`, `single`).
NEVER_IN_A_MODULE = {
    "mod", "stmt", "expr", "expr_context", "boolop", "operator", "unaryop", "cmpop",
    "excepthandler", "pattern", "type_ignore", "slice",
    "AugLoad", "AugStore", "Param", "Suite", "Index", "ExtSlice",
    "Num", "Str", "Bytes", "NameConstant", "Ellipsis",
    "Expression", "Interactive", "FunctionType", "TypeIgnore", "Del",
    "match_case", "MatchValue", "MatchSingleton", "MatchSequence", "MatchMapping",
    "MatchClass", "MatchStar", "MatchAs", "MatchOr",
}  # fmt: skip


def test_every_node_type_has_a_rule() -> None:
    missing = sorted(
        t.__name__ for t in _node_types() if t not in SYNTAX and t.__name__ not in NEVER_IN_A_MODULE
    )
    assert not missing, f"node types the table does not name: {missing}"


def test_every_handler_exists_and_every_compiler_method_is_in_the_table() -> None:
    named = {r.handler for r in SYNTAX.values() if r.handler}
    for name in named:
        assert callable(getattr(Compiler, name, None)), name
    methods = {m for m in vars(Compiler) if m.startswith("c_")}
    assert methods == named, methods ^ named


REFUSALS = {
    ast.AsyncFunctionDef: ("async def f():\n    pass", (1, 1)),
    ast.AsyncFor: ("async def f():\n    async for i in x:\n        pass", (1, 1)),
    ast.AsyncWith: ("async def f():\n    async with x:\n        pass", (1, 1)),
    ast.TryStar: ("try:\n    pass\nexcept* ValueError:\n    pass", (1, 1)),
    ast.Await: ("x = await y", (1, 5)),
}


def test_every_refusal_is_tested() -> None:
    refused = {t for t, r in SYNTAX.items() if r.refused}
    assert refused == set(REFUSALS), refused ^ set(REFUSALS)


@pytest.mark.parametrize("node_type", list(REFUSALS), ids=lambda t: t.__name__)
def test_refusal_says_what_and_what_to_write_instead(node_type: type) -> None:
    text, (line, col) = REFUSALS[node_type]
    with pytest.raises(NotSupported) as info:
        parse(text, "p.py")
    e = info.value
    r = SYNTAX[node_type]
    if node_type not in (ast.AsyncFor, ast.AsyncWith):  # refused at the async def first
        assert r.what in e.message
    assert "not supported" in e.message
    assert e.hint, "a refusal says what to write instead"
    assert (e.span.line, e.span.col + 1) == (line, col)


def test_refused_before_anything_runs() -> None:
    """A refusal in the last line stops the program before its first line prints."""
    with pytest.raises(GradcliError):
        parse("print('ran')\nx = 1\nasync def f():\n    pass")


@pytest.mark.parametrize(
    "text, message, at",
    [
        ("break", "`break` outside a loop", (1, 1)),
        ("def f():\n    continue", "`continue` outside a loop", (2, 5)),
        ("return 1", "`return` outside a function", (1, 1)),
        ("for i in range(2):\n    def f():\n        break", "`break` outside a loop", (3, 9)),
        ("x = torch.ones(1).__class__.__mro__", "`.__mro__` is not accessible", (1, 28)),
        ("class A:\n    if True:\n        k = 1", "a class body holds its methods", (2, 5)),
        ("class A:\n    __slots__ = ('x',)", "class attribute `__slots__` is not", (2, 5)),
        ("class A:\n    def __new__(cls):\n        pass", "method `__new__` is not", (2, 5)),
        ("@dataclass\n@dataclass\nclass A:\n    x: int = 1", "several class decorators", (2, 2)),
        ("class A:\n    @property()\n    def f(self):\n        pass", "@property is not", (2, 6)),
        ("yield 1", "'yield' outside function", (1, 1)),
        ("def f():\n    x = yield 1", "`yield` is supported as a statement", (2, 9)),
        ("def f():\n    return [(yield 1)]", "`yield` is supported as a statement", (2, 14)),
        ("def f():\n    yield\n    return (yield from g())", "`yield` is supported", (3, 13)),
        (
            "class F(torch.autograd.Function):\n    def __getattribute__(self, n):\n"
            "        return 1",
            "method `__getattribute__` is not supported",
            (2, 5),
        ),
        ("@property\ndef f():\n    pass", "@property is not supported here", (1, 2)),
        ("@staticmethod\ndef f():\n    pass", "@staticmethod is not supported here", (1, 2)),
        ("x = super()", "super() is only supported inside a method", (1, 5)),
        ("x = type(1, 2, 3)", "type() is only supported with one argument", (1, 5)),
    ],
)
def test_compile_time_rules(text: str, message: str, at: tuple[int, int]) -> None:
    with pytest.raises(GradcliError) as info:
        parse(text, "p.py")
    e = info.value
    assert message in e.message
    assert (e.span.line, e.span.col + 1) == at


def test_nesting_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_NESTING", "20")
    parse("x = " + "[" * 15 + "]" * 15)
    with pytest.raises(LimitError, match="nested too deeply"):
        parse("x = " + "[" * 30 + "]" * 30)
    with pytest.raises(LimitError, match="nested too deeply"):
        parse("x = " + "lambda: " * 30 + "1")


def test_the_program_is_compiled_once() -> None:
    """Running a program twice reuses its compiled code (parse compiles, run only runs)."""
    p = parse("y = 1\nfor i in range(3):\n    y = y * 2\nprint(y)")
    code = p.code
    assert p.run().output == ["8\n"]
    assert p.run().output == ["8\n"]
    assert p.code is code


# `global` / `nonlocal` misuse: the SyntaxError CPython's compiler raises (checked against
# CPython here), before the first line runs.
DECLARATION_ERRORS = [
    "print('ran')\ndef f():\n    print(x)\n    global x",
    "print('ran')\ndef f():\n    x = 1\n    global x",
    "print('ran')\ndef f():\n    x += 1\n    global x",
    "print('ran')\ndef f():\n    for x in []:\n        pass\n    global x",
    "print('ran')\ndef f():\n    def x():\n        pass\n    global x",
    "print('ran')\ndef f():\n    del x\n    global x",
    "print('ran')\ndef f():\n    try:\n        pass\n    except E as x:\n        pass\n"
    "    global x",
    "print('ran')\ndef f():\n    [y for y in x]\n    global x",
    "print('ran')\ndef f(x):\n    global x",
    "print('ran')\ndef f(*x):\n    nonlocal x",
    "print('ran')\ndef f():\n    nonlocal x",
    "print('ran')\nnonlocal x",
    "print('ran')\ndef f():\n    global x\n    nonlocal x",
    "print('ran')\nx = 1\ndef g():\n    x = 2\n    def f():\n        global x\n"
    "        def h():\n            nonlocal x",
    "print('ran')\ndef g():\n    v = 1\n    def f():\n        v = 2\n        nonlocal v",
    "print('ran')\nx = 1\nglobal x",
    "print('ran')\nprint(x)\nglobal x",
]


def _cpython_syntax_error(text: str) -> SyntaxError:
    try:
        compile(text, "p.py", "exec")  # the test's own text: compiled, never run
    except SyntaxError as e:
        return e
    raise AssertionError("CPython compiled it")


@pytest.mark.parametrize("text", DECLARATION_ERRORS)
def test_declaration_errors_are_cpythons(text: str) -> None:
    expected = _cpython_syntax_error(text)
    with pytest.raises(GradcliError) as info:
        parse(text, "p.py")
    e = info.value
    assert e.message == f"syntax error: {expected.msg}"
    assert e.span.line == expected.lineno


@pytest.mark.parametrize(
    "text",
    [
        "def f():\n    import os\n    global os",  # (CPython does not check imports)
        "def f():\n    [x for x in []]\n    global x",  # (the comprehension's own x)
        "def f():\n    global x\n    global x\n    x = 1",
        "def f():\n    lambda: x\n    global x",
        "global x\nx = 1",
    ],
)
def test_declarations_cpython_accepts_compile(text: str) -> None:
    compile(text, "p.py", "exec")  # the test's own text: compiled, never run
    parse(text, "p.py")


def test_global_and_nonlocal_in_a_class_body_are_refused_in_plain_words() -> None:
    for text in ("class A:\n    global x", "def f():\n    v = 1\n    class A:\n        nonlocal v"):
        with pytest.raises(GradcliError) as info:
            parse(text, "p.py")
        assert "class body" in info.value.message
