"""`unittest` as scripts that test small autograd code use it: `class TestX(unittest.TestCase)`
with `setUp`/`tearDown` (and `setUpClass`/`tearDownClass`, `setUpModule`/`tearDownModule`),
test methods calling `self.assertEqual`, `assertTrue`, `assertAlmostEqual`, `assertRaises`
(called, or as a context manager with `cm.exception`)..., `self.subTest(...)`, the skip
decorators, and `unittest.main()` (or `TestLoader().loadTestsFromTestCase` with
`TextTestRunner().run`).

Interpreted by gradcli: `TestCase` is a library class (`classes.LibraryClass`) whose methods are
written here (their comparisons are the program's `==`, `<`, `abs`, `round`, so tensors behave
as in PyTorch: `assertEqual` of two tensors of several elements is PyTorch's "Boolean value of
Tensor with more than one value is ambiguous", an error of the test). Their failure messages are
Python 3.11's, word for word (a program that catches the AssertionError prints them). The
runner finds the test classes and methods as Python's loader does (names in sorted order),
runs each test in a new instance and writes Python's report to standard error after the run
("Ran N tests in T s", "OK" or "FAILED (...)"; where Python shows a traceback, the report shows
the failing line's place). `unittest.main()` ends the program, as its `sys.exit` does: with
status 0 when every test passed, else with status 1 and the report as its message. Errors
gradcli does not support, and the limits, end the program (they are no test's result)."""

from __future__ import annotations

import ast
import difflib
import time
from typing import Any

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from . import exceptions as X
from .classes import ClassMethod, Instance, LibraryClass, NativeMethod, PlainClass, Property
from .values import Builtin, ProgramExit, UserFunction, current, truth

# The longest repr Python's messages show whole, and the parts of a shortened one.
_MAX_LENGTH = 80
_PLACEHOLDER_LEN = 12
_MIN_BEGIN_LEN = 5
_MIN_END_LEN = 5
_MIN_COMMON_LEN = 5
# (room for two placeholders: the common beginning's and the rest's)
_MIN_DIFF_LEN = _MAX_LENGTH - (
    _MIN_BEGIN_LEN + _PLACEHOLDER_LEN + _MIN_COMMON_LEN + _PLACEHOLDER_LEN + _MIN_END_LEN
)
# The largest texts whose line diff a failure message shows: difflib's ndiff takes time about
# the product of the two texts' lengths (40 random lines of 100 characters against 40 others:
# 6 s) and recurses once a line; larger ones fail with the message without its diff.
_DIFF_COST = 1_000_000  # (about 0.25 s)
_DIFF_LINES = 100


def _diff_allowed(a: str, b: str, lines_a: int, lines_b: int) -> bool:
    return len(a) * len(b) <= _DIFF_COST and max(lines_a, lines_b) <= _DIFF_LINES


_DIFF_OMITTED = "\nDiff is %s characters long. Set self.maxDiff to None to see it."


# --- values and messages -------------------------------------------------------------------------


def _repr(v: Any) -> str:
    from .text import to_repr

    return to_repr(v, limits.STRING_CHARS.value)


def _str(v: Any) -> str:
    from .text import to_str

    return to_str(v, limits.STRING_CHARS.value)


def _eq(a: Any, b: Any) -> bool:
    from .operators import compare

    return truth(compare(ast.Eq(), a, b))


def _cmp(op: ast.cmpop, a: Any, b: Any) -> bool:
    from .operators import compare

    return truth(compare(op, a, b))


def _shorten(s: str, prefixlen: int, suffixlen: int) -> str:
    skip = len(s) - prefixlen - suffixlen
    if skip > _PLACEHOLDER_LEN:
        s = f"{s[:prefixlen]}[{skip} chars]{s[len(s) - suffixlen :]}"
    return s


def _common_prefix(texts: tuple[str, ...]) -> str:
    first, last = min(texts), max(texts)
    for i, c in enumerate(first):
        if c != last[i]:
            return first[:i]
    return first


def _short_reprs(*values: Any) -> tuple[str, ...]:
    """The reprs of `values` as Python's messages show them: whole when each is at most 80
    characters, else their common beginning and each one's rest shortened to `[N chars]`."""
    texts = tuple(_repr(v) for v in values)
    longest = max(len(t) for t in texts)
    if longest <= _MAX_LENGTH:
        return texts
    prefix = _common_prefix(texts)
    n = len(prefix)
    common = _MAX_LENGTH - (longest - n + _MIN_BEGIN_LEN + _PLACEHOLDER_LEN)
    if common > _MIN_COMMON_LEN:
        prefix = _shorten(prefix, _MIN_BEGIN_LEN, common)
        return tuple(prefix + t[n:] for t in texts)
    prefix = _shorten(prefix, _MIN_BEGIN_LEN, _MIN_COMMON_LEN)
    return tuple(prefix + _shorten(t[n:], _MIN_DIFF_LEN, _MIN_END_LEN) for t in texts)


def _attr(obj: Any, name: str) -> Any:
    return obj.get(current(), name)


def _message(obj: Any, msg: Any, standard: str) -> Any:
    """Python's `_formatMessage`: the standard message, and the program's after ` : `."""
    if not truth(_attr(obj, "longMessage")):
        return msg if truth(msg) else standard
    if msg is None:
        return standard
    return f"{standard} : {_str(msg)}"


def _failure(text: Any) -> GradcliError:
    return X.ProgramError(X.ExcValue(X.CLASSES["AssertionError"], (text,)))


def _fail_with(obj: Any, msg: Any, standard: str) -> GradcliError:
    return _failure(_message(obj, msg, standard))


def _pformat(v: Any) -> str:
    from .pyprint import pformat

    return pformat(v)


def _with_diff(obj: Any, standard: str, diff: str | None) -> str:
    """Python's `_truncateMessage`: the diff after the message when at most maxDiff long."""
    if diff is None:
        return standard
    most = _attr(obj, "maxDiff")
    if most is None or len(diff) <= most:
        return standard + diff
    return standard + _DIFF_OMITTED % len(diff)


def _line_diff(a: Any, b: Any) -> str | None:
    ta, tb = _pformat(a), _pformat(b)
    la, lb = ta.splitlines(), tb.splitlines()
    if not _diff_allowed(ta, tb, len(la), len(lb)):
        return None
    return "\n" + "\n".join(difflib.ndiff(la, lb))


# --- TestCase's methods ------------------------------------------------------------------------


def _init(obj: Any, methodName: Any = "runTest") -> None:  # noqa: N803  (Python's names)
    obj.attrs["_testMethodName"] = methodName
    if methodName != "runTest" and _test_method(obj.cls, methodName) is None:
        raise GradcliError(f"no such test method in {obj.cls!r}: {_str(methodName)}").mirror(
            "ValueError"
        )


def _fixture(*args: Any) -> None:  # setUp, tearDown, setUpClass, tearDownClass: nothing
    return None


def _fail(obj: Any, msg: Any = None) -> None:
    raise _failure(msg)


def _id(obj: Any) -> str:
    return f"__main__.{obj.cls.name}.{_str(obj.attrs.get('_testMethodName', 'runTest'))}"


def _assert_true(obj: Any, expr: Any, msg: Any = None) -> None:
    if not truth(expr):
        raise _fail_with(obj, msg, f"{_repr(expr)} is not true")


def _assert_false(obj: Any, expr: Any, msg: Any = None) -> None:
    if truth(expr):
        raise _fail_with(obj, msg, f"{_repr(expr)} is not false")


def _base_equal(obj: Any, first: Any, second: Any, msg: Any = None) -> None:
    if not _eq(first, second):
        a, b = _short_reprs(first, second)
        raise _fail_with(obj, msg, f"{a} != {b}")


def _assert_equal(obj: Any, first: Any, second: Any, msg: Any = None) -> None:
    kind = type(first)
    if kind is type(second):
        special = _TYPE_EQUAL.get(kind)
        if special is not None:
            special(obj, first, second, msg)
            return
    _base_equal(obj, first, second, msg)


def _assert_not_equal(obj: Any, first: Any, second: Any, msg: Any = None) -> None:
    if not _cmp(ast.NotEq(), first, second):
        raise _fail_with(obj, msg, f"{_repr(first)} == {_repr(second)}")


def _sub_abs(first: Any, second: Any) -> Any:
    from .builtins import BUILTINS
    from .operators import binop

    return BUILTINS["abs"](binop(ast.Sub(), first, second))


def _round(v: Any, places: Any) -> Any:
    from .builtins import BUILTINS

    return BUILTINS["round"](v, places)


def _assert_almost_equal(
    obj: Any, first: Any, second: Any, places: Any = None, msg: Any = None, delta: Any = None
) -> None:
    if _eq(first, second):
        return
    if delta is not None and places is not None:
        raise GradcliError("specify delta or places not both").mirror("TypeError")
    diff = _sub_abs(first, second)
    if delta is not None:
        if _cmp(ast.LtE(), diff, delta):
            return
        standard = (
            f"{_repr(first)} != {_repr(second)} within {_repr(delta)} delta "
            f"({_repr(diff)} difference)"
        )
    else:
        places = 7 if places is None else places
        if _eq(_round(diff, places), 0):
            return
        standard = (
            f"{_repr(first)} != {_repr(second)} within {_repr(places)} places "
            f"({_repr(diff)} difference)"
        )
    raise _fail_with(obj, msg, standard)


def _assert_not_almost_equal(
    obj: Any, first: Any, second: Any, places: Any = None, msg: Any = None, delta: Any = None
) -> None:
    if delta is not None and places is not None:
        raise GradcliError("specify delta or places not both").mirror("TypeError")
    diff = _sub_abs(first, second)
    if delta is not None:
        if not _eq(first, second) and _cmp(ast.Gt(), diff, delta):
            return
        standard = (
            f"{_repr(first)} == {_repr(second)} within {_repr(delta)} delta "
            f"({_repr(diff)} difference)"
        )
    else:
        places = 7 if places is None else places
        if not _eq(first, second) and not _eq(_round(diff, places), 0):
            return
        standard = f"{_repr(first)} == {_repr(second)} within {_repr(places)} places"
    raise _fail_with(obj, msg, standard)


def _ordering(op: ast.cmpop, words: str) -> Any:
    def check(obj: Any, a: Any, b: Any, msg: Any = None) -> None:
        if not _cmp(op, a, b):
            raise _fail_with(obj, msg, f"{_repr(a)} {words} {_repr(b)}")

    return check


def _assert_is(obj: Any, a: Any, b: Any, msg: Any = None) -> None:
    if a is not b:
        raise _fail_with(obj, msg, f"{_repr(a)} is not {_repr(b)}")


def _assert_is_not(obj: Any, a: Any, b: Any, msg: Any = None) -> None:
    if a is b:
        raise _fail_with(obj, msg, f"unexpectedly identical: {_repr(a)}")


def _assert_is_none(obj: Any, v: Any, msg: Any = None) -> None:
    if v is not None:
        raise _fail_with(obj, msg, f"{_repr(v)} is not None")


def _assert_is_not_none(obj: Any, v: Any, msg: Any = None) -> None:
    if v is None:
        raise _fail_with(obj, msg, "unexpectedly None")


def _assert_in(obj: Any, member: Any, container: Any, msg: Any = None) -> None:
    from .operators import contains

    if not contains(container, member):
        raise _fail_with(obj, msg, f"{_repr(member)} not found in {_repr(container)}")


def _assert_not_in(obj: Any, member: Any, container: Any, msg: Any = None) -> None:
    from .operators import contains

    if contains(container, member):
        raise _fail_with(obj, msg, f"{_repr(member)} unexpectedly found in {_repr(container)}")


def _pytype(kind: type) -> Any:
    from .builtins import BUILTINS

    return BUILTINS[kind.__name__]


def _isinstance(v: Any, cls: Any) -> bool:
    from .builtins import BUILTINS

    return bool(BUILTINS["isinstance"](v, cls))


def _assert_is_instance(obj: Any, v: Any, cls: Any, msg: Any = None) -> None:
    if not _isinstance(v, cls):
        raise _fail_with(obj, msg, f"{_repr(v)} is not an instance of {_repr(cls)}")


def _assert_not_is_instance(obj: Any, v: Any, cls: Any, msg: Any = None) -> None:
    if _isinstance(v, cls):
        raise _fail_with(obj, msg, f"{_repr(v)} is an instance of {_repr(cls)}")


def _seq_equal(obj: Any, seq1: Any, seq2: Any, msg: Any = None, seq_type: Any = None) -> None:
    """Python's assertSequenceEqual for two lists or tuples: its message and its diff."""
    if seq_type is not None:
        raise NotSupported(
            "assertSequenceEqual(..., seq_type=) is not supported by gradcli",
            hint="compare with assertEqual",
        )
    name = "list" if isinstance(seq1, list) else "tuple" if isinstance(seq1, tuple) else "sequence"
    if _eq(seq1, seq2):
        return
    a, b = _short_reprs(seq1, seq2)
    text = f"{name.capitalize()}s differ: {a} != {b}\n"
    n1, n2 = len(seq1), len(seq2)
    for i in range(min(n1, n2)):
        limits.BUDGET.tick()
        if _cmp(ast.NotEq(), seq1[i], seq2[i]):
            x, y = _short_reprs(seq1[i], seq2[i])
            text += f"\nFirst differing element {i}:\n{x}\n{y}\n"
            break
    if n1 > n2:
        text += f"\nFirst {name} contains {n1 - n2} additional elements.\n"
        text += f"First extra element {n2}:\n{_repr(seq1[n2])}\n"
    elif n1 < n2:
        text += f"\nSecond {name} contains {n2 - n1} additional elements.\n"
        text += f"First extra element {n1}:\n{_repr(seq2[n1])}\n"
    raise _fail_with(obj, msg, _with_diff(obj, text, _line_diff(seq1, seq2)))


def _typed_seq(kind: type, label: str) -> Any:
    def check(obj: Any, a: Any, b: Any, msg: Any = None) -> None:
        for v, which in ((a, "First"), (b, "Second")):
            if not isinstance(v, kind):
                raise _failure(f"{which} sequence is not a {label}: {_repr(v)}")
        _seq_equal(obj, a, b, msg)

    return check


def _dict_equal(obj: Any, d1: Any, d2: Any, msg: Any = None) -> None:
    for v, which in ((d1, "First"), (d2, "Second")):
        _assert_is_instance(obj, v, _pytype(dict), f"{which} argument is not a dictionary")
    if not _eq(d1, d2):
        a, b = _short_reprs(d1, d2)
        raise _fail_with(obj, msg, _with_diff(obj, f"{a} != {b}", _line_diff(d1, d2)))


def _difference(a: Any, b: Any, which: str) -> Any:
    """Python's `a.difference(b)` as assertSetEqual calls it, its errors as its messages."""
    from ..core.tensor import pytype_name

    if not isinstance(a, (set, frozenset)):
        raise _failure(
            f"{which} argument does not support set difference: "
            f"'{pytype_name(a)}' object has no attribute 'difference'"
        )
    if not isinstance(b, (set, frozenset, list, tuple, str, dict)):
        if isinstance(b, (int, float, bool, type(None))):
            raise _failure(
                "invalid type when attempting set difference: "
                f"'{pytype_name(b)}' object is not iterable"
            )
        raise NotSupported(
            f"assertSetEqual with a {pytype_name(b)} is not supported by gradcli",
            hint="compare two sets: assertSetEqual(set(a), set(b))",
        )
    from .values import check_structure

    check_structure(b, "assertSetEqual()")
    try:
        return a.difference(b)
    except TypeError as e:  # an unhashable item (a list): Python's words
        raise _failure(f"invalid type when attempting set difference: {e}") from None


def _set_equal(obj: Any, s1: Any, s2: Any, msg: Any = None) -> None:
    only1 = _difference(s1, s2, "first")
    only2 = _difference(s2, s1, "second")
    if not only1 and not only2:
        return
    lines = []
    if only1:
        lines.append("Items in the first set but not the second:")
        lines.extend(_repr(v) for v in only1)
    if only2:
        lines.append("Items in the second set but not the first:")
        lines.extend(_repr(v) for v in only2)
    raise _fail_with(obj, msg, "\n".join(lines))


def _text_equal(obj: Any, first: Any, second: Any, msg: Any = None) -> None:
    """Python's assertMultiLineEqual: the reprs, then a diff of the lines."""
    for v, which in ((first, "First"), (second, "Second")):
        _assert_is_instance(obj, v, _pytype(str), f"{which} argument is not a string")
    if first == second:
        return
    if len(first) > 2**16 or len(second) > 2**16:
        _base_equal(obj, first, second, msg)
    lines1 = first.splitlines(keepends=True)
    lines2 = second.splitlines(keepends=True)
    if len(lines1) == 1 and first.strip("\r\n") == first:
        lines1, lines2 = [first + "\n"], [second + "\n"]
    a, b = _short_reprs(first, second)
    diff = None
    if _diff_allowed(first, second, len(lines1), len(lines2)):
        diff = "\n" + "".join(difflib.ndiff(lines1, lines2))
    raise _fail_with(obj, msg, _with_diff(obj, f"{a} != {b}", diff))


_TYPE_EQUAL: dict[type, Any] = {
    dict: _dict_equal,
    list: _typed_seq(list, "list"),
    tuple: _typed_seq(tuple, "tuple"),
    set: _set_equal,
    frozenset: _set_equal,
    str: _text_equal,
}


def _exception_types(expected: Any, name: str) -> None:
    kinds = expected if isinstance(expected, tuple) else (expected,)
    if not kinds or not all(isinstance(k, X.ExcClass) for k in kinds):
        raise GradcliError(
            f"{name}() arg 1 must be an exception type or tuple of exception types"
        ).mirror("TypeError")


def _literal_pattern(pattern: Any) -> str:
    """A regular expression that is plain text (with `\\.`-style escapes): the text. gradcli
    runs no regular expressions (their matching is not bounded by its limits)."""
    if not isinstance(pattern, str):
        raise NotSupported("a compiled regular expression is not supported by gradcli")
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern) and not pattern[i + 1].isalnum():
            out.append(pattern[i + 1])
            i += 2
            continue
        if c in ".^$*+?{}[]|()\\":
            raise NotSupported(
                f"regular expressions are not supported by gradcli (here {pattern!r})",
                hint="match plain text (escape . ( ) [ ] and the like with a backslash), or "
                "use assertRaises and assertIn('words', str(cm.exception))",
            )
        out.append(c)
        i += 1
    return "".join(out)


class RaisesContext:
    """What `self.assertRaises(E)` gives: a context manager that expects the block to raise
    `E` (and swallows it), keeping it as `cm.exception`."""

    PROGRAM_ATTRIBUTES = ("exception", "expected", "msg")
    program_context = True

    def __init__(self, test: Any, expected: Any, regex: str | None, name: str):
        self.test = test
        self.expected = expected
        self.regex = regex
        self.name = name
        self.msg: Any = None
        self.obj_name: str | None = None
        self.caught: Any = None
        self.as_value = self

    @property
    def exception(self) -> Any:
        if self.caught is None:
            raise GradcliError("'_AssertRaisesContext' object has no attribute 'exception'").mirror(
                "AttributeError"
            )
        return self.caught

    def program_typename(self) -> str:
        return "_AssertRaisesContext"

    def enter(self) -> None:
        return None

    def exit(self) -> None:
        """The block ended without raising."""
        kinds = self.expected
        shown = kinds.name if isinstance(kinds, X.ExcClass) else _str(kinds)
        words = f"{shown} not raised" + (f" by {self.obj_name}" if self.obj_name else "")
        raise _fail_with(self.test, self.msg, words)

    def exit_error(self) -> None:
        return None

    def catches(self, e: GradcliError) -> bool:
        if not X.matches(e, self.expected):
            return False
        value = X.caught_value(e)
        self.caught = value
        if self.regex is not None:
            text = value.text()
            if self.regex not in text:
                raise _fail_with(self.test, self.msg, f'"{self.regex}" does not match "{text}"')
        return True

    def handle(self, args: tuple, kwargs: dict) -> Any:
        _exception_types(self.expected, self.name)
        if not args:
            self.msg = kwargs.pop("msg", None)
            if kwargs:
                raise GradcliError(
                    f"{next(iter(kwargs))!r} is an invalid keyword argument for this function"
                ).mirror("TypeError")
            return self
        fn, *rest = args
        self.obj_name = _callable_name(fn)
        rt = current()
        try:
            rt.call(fn, list(rest), kwargs, rt.current_stmt)
        except GradcliError as e:
            if X.catchable(e) and self.catches(e):
                return None
            raise
        self.exit()
        return None


def _callable_name(fn: Any) -> str:
    name = getattr(fn, "name", None)
    if isinstance(fn, UserFunction) and isinstance(name, str):
        return name
    if isinstance(name, str):
        return name.rpartition(".")[2]
    return _str(fn)


def _assert_raises(obj: Any, expected: Any, *args: Any, **kwargs: Any) -> Any:
    return RaisesContext(obj, expected, None, "assertRaises").handle(args, kwargs)


def _assert_raises_regex(obj: Any, expected: Any, regex: Any, *args: Any, **kwargs: Any) -> Any:
    return RaisesContext(obj, expected, _literal_pattern(regex), "assertRaisesRegex").handle(
        args, kwargs
    )


class SubTest:
    """`with self.subTest(i=i):` a failure inside is the subtest's (reported with its
    parameters) and the test goes on after the block."""

    program_context = True

    def __init__(self, test: Any, msg: Any, params: dict):
        self.test = test
        self.msg = msg
        self.params = params
        self.as_value = None

    def enter(self) -> None:
        return None

    def exit(self) -> None:
        return None

    def exit_error(self) -> None:
        return None

    def description(self) -> str:
        parts = []
        if self.msg is not _NO_MESSAGE:
            parts.append(f"[{_str(self.msg)}]")
        if self.params:
            shown = ", ".join(f"{k}={_repr(v)}" for k, v in self.params.items())
            parts.append(f"({shown})")
        return " ".join(parts) or "(<subtest>)"

    def catches(self, e: GradcliError) -> bool:
        if not _RUNNING or not _OUTCOMES:
            return False  # outside a run (a test method called by the program): as Python's
        outcome = _OUTCOMES[-1]
        if _skip_reason(e) is not None or outcome.expecting:
            return False  # (the test's own part records it)
        outcome.success = False
        _RUNNING[-1].record(self.test, e, sub=self.description())
        return True


_NO_MESSAGE = object()


def _sub_test(obj: Any, msg: Any = _NO_MESSAGE, **params: Any) -> SubTest:
    return SubTest(obj, msg, params)


def _skip_test(obj: Any, reason: Any) -> None:
    raise _Skip(_str(reason))


class _Skip(GradcliError):
    """`self.skipTest(reason)` and the skip decorators: the test is skipped."""

    def __init__(self, reason: str):
        super().__init__(f"skipped: {reason}")
        self.python_class = "SkipTest"
        self.pytorch_words = True
        self.reason = reason


def _skip_reason(e: BaseException) -> str | None:
    """The reason of a SkipTest (`self.skipTest`, `raise unittest.SkipTest(...)`), else None."""
    if isinstance(e, _Skip):
        return e.reason
    if isinstance(e, GradcliError) and X.catchable(e) and X.exc_class(e).name == "SkipTest":
        return X.caught_value(e).text()
    return None


def _add_cleanup(obj: Any, fn: Any, *args: Any, **kwargs: Any) -> None:
    cleanups = obj.attrs.setdefault("_cleanups", [])
    limits.LIST_ITEMS.check(len(cleanups) + 1, "the number of cleanups")
    cleanups.append((fn, args, kwargs))


def _not_supported(name: str) -> Any:
    def refuse(obj: Any = None, *args: Any, **kwargs: Any) -> None:
        raise NotSupported(
            f"unittest.TestCase.{name} is not supported by gradcli",
            hint="use assertEqual, assertTrue, assertAlmostEqual, assertRaises and their kin",
        )

    return refuse


def _methods() -> dict[str, Any]:
    table: dict[str, Any] = {
        "__init__": _init,
        "setUp": _fixture,
        "tearDown": _fixture,
        "fail": _fail,
        "id": _id,
        "assertTrue": _assert_true,
        "assertFalse": _assert_false,
        "assertEqual": _assert_equal,
        "assertNotEqual": _assert_not_equal,
        "assertAlmostEqual": _assert_almost_equal,
        "assertNotAlmostEqual": _assert_not_almost_equal,
        "assertGreater": _ordering(ast.Gt(), "not greater than"),
        "assertGreaterEqual": _ordering(ast.GtE(), "not greater than or equal to"),
        "assertLess": _ordering(ast.Lt(), "not less than"),
        "assertLessEqual": _ordering(ast.LtE(), "not less than or equal to"),
        "assertIs": _assert_is,
        "assertIsNot": _assert_is_not,
        "assertIsNone": _assert_is_none,
        "assertIsNotNone": _assert_is_not_none,
        "assertIn": _assert_in,
        "assertNotIn": _assert_not_in,
        "assertIsInstance": _assert_is_instance,
        "assertNotIsInstance": _assert_not_is_instance,
        "assertListEqual": _TYPE_EQUAL[list],
        "assertTupleEqual": _TYPE_EQUAL[tuple],
        "assertSequenceEqual": _seq_equal,
        "assertDictEqual": _dict_equal,
        "assertSetEqual": _set_equal,
        "assertMultiLineEqual": _text_equal,
        "assertRaises": _assert_raises,
        "assertRaisesRegex": _assert_raises_regex,
        "subTest": _sub_test,
        "skipTest": _skip_test,
        "addCleanup": _add_cleanup,
    }
    for old, new in (
        ("assertEquals", "assertEqual"),
        ("assertNotEquals", "assertNotEqual"),
        ("assertAlmostEquals", "assertAlmostEqual"),
        ("assertNotAlmostEquals", "assertNotAlmostEqual"),
        ("failUnlessEqual", "assertEqual"),
        ("failIfEqual", "assertNotEqual"),
        ("failUnless", "assertTrue"),
        ("assert_", "assertTrue"),
        ("failIf", "assertFalse"),
        ("failUnlessRaises", "assertRaises"),
        ("assertRaisesRegexp", "assertRaisesRegex"),
    ):
        table[old] = table[new]
    out: dict[str, Any] = {name: NativeMethod(f"TestCase.{name}", fn) for name, fn in table.items()}
    for name in (
        "assertCountEqual",
        "assertDictContainsSubset",
        "assertLogs",
        "assertNoLogs",
        "assertNotRegex",
        "assertRegex",
        "assertWarns",
        "assertWarnsRegex",
        "addClassCleanup",
        "addTypeEqualityFunc",
        "countTestCases",
        "debug",
        "defaultTestResult",
        "doCleanups",
        "doClassCleanups",
        "enterClassContext",
        "enterContext",
        "run",
        "shortDescription",
    ):
        out[name] = NativeMethod(f"TestCase.{name}", _not_supported(name))
    out["setUpClass"] = NativeMethod("TestCase.setUpClass", _fixture)
    out["tearDownClass"] = NativeMethod("TestCase.tearDownClass", _fixture)
    out["longMessage"] = True
    out["maxDiff"] = 80 * 8
    out["failureException"] = X.CLASSES["AssertionError"]
    return out


# --- the runner ----------------------------------------------------------------------------------

_SEPARATOR1 = "=" * 70
_SEPARATOR2 = "-" * 70
# The runs in progress (a subTest's failure is recorded in the innermost).
_RUNNING: list[Result] = []


def _test_method(cls: Any, name: Any) -> Any:
    """The class's entry `name` if it is a method a test may be (callable), else None."""
    if not isinstance(name, str):
        return None
    value = cls.lookup(name)
    if isinstance(value, Skipped):
        return value
    if isinstance(value, (UserFunction, NativeMethod, ClassMethod, Builtin)):
        return value
    if value is None or isinstance(value, Property):
        return None
    from .builtins import BUILTINS

    return value if BUILTINS["callable"](value) else None


def _test_names(cls: Any) -> list[str]:
    """Python's loader: the names starting with `test` of the class and its bases that are
    callable, sorted."""
    names: set[str] = set()
    for c in cls.mro:
        if isinstance(c, PlainClass):
            names.update(n for n in c.attrs if n.startswith("test"))
    return sorted(n for n in names if _test_method(cls, n) is not None)


def _describe(test: Instance) -> str:
    name = _str(test.attrs.get("_testMethodName", "runTest"))
    return f"{name} (__main__.{test.cls.name}.{name})"


def _error_kind(e: BaseException) -> str:
    if isinstance(e, ProgramExit):
        return "SystemExit"
    return X.exc_class(e).name  # type: ignore[arg-type]


def _traceback(e: BaseException) -> str:
    """Where Python shows a traceback: the place and the exception."""
    if isinstance(e, ProgramExit):
        return "SystemExit"
    assert isinstance(e, GradcliError)
    value = X.caught_value(e)
    text = value.text()
    head = f"{value.cls.name}: {text}" if text else value.cls.name
    span = e.span
    return f"{span.where()}: {head}" if span is not None else head


class Result:
    """Python's TextTestResult: the counts, the failures and errors, the report's lines."""

    PROGRAM_ATTRIBUTES = (
        "testsRun",
        "failures",
        "errors",
        "skipped",
        "expectedFailures",
        "unexpectedSuccesses",
        "wasSuccessful",
        "shouldStop",
    )

    def __init__(self, verbosity: int, failfast: bool):
        self.verbosity = verbosity
        self.failfast = failfast
        self.testsRun = 0
        self.failures: list[tuple[Any, str]] = []
        self.errors: list[tuple[Any, str]] = []
        self.skipped: list[tuple[Any, str]] = []
        self.expectedFailures: list[tuple[Any, str]] = []
        self.unexpectedSuccesses: list[Any] = []
        self.shouldStop = False
        self.stream: list[str] = []
        self.line_open = False  # (verbosity 2: a test's line waits for its status)
        self.current: Any = None

    def program_typename(self) -> str:
        return "TextTestResult"

    def wasSuccessful(self) -> bool:  # noqa: N802  (Python's name)
        return not self.failures and not self.errors and not self.unexpectedSuccesses

    def __repr__(self) -> str:
        return (
            f"<unittest.runner.TextTestResult run={self.testsRun} errors={len(self.errors)} "
            f"failures={len(self.failures)}>"
        )

    def write(self, text: str) -> None:
        limits.LIST_ITEMS.check(len(self.stream) + 1, "the lines of the test report")
        self.stream.append(text)

    def start(self, test: Instance) -> None:
        self.testsRun += 1
        self.current = test
        if self.verbosity > 1:
            self.write(f"{_describe(test)} ... ")
            self.line_open = True

    def status(
        self, word: str, char: str, sub: str | None = None, shown: str | None = None
    ) -> None:
        """Python's `_write_status` (verbosity 2: a subtest's line, or the test's line again
        after one) or its one character (verbosity 1)."""
        if self.verbosity > 1:
            if sub is not None or not self.line_open:
                if self.line_open:
                    self.write("\n")
                what = sub or shown or _describe(self.current)
                self.write(("  " if sub is not None else "") + f"{what} ... ")
            self.write(word + "\n")
            self.line_open = False
        elif self.verbosity == 1:
            self.write(char)

    def record(self, test: Any, e: BaseException, sub: str | None = None) -> None:
        """A test's (or a subtest's) exception: a failure for an AssertionError, else an
        error; a non-catchable one (a limit, what gradcli does not support) ends the run."""
        if isinstance(e, GradcliError) and not X.catchable(e):
            raise e
        desc = _describe(test) + (f" {sub}" if sub else "")
        failed = isinstance(e, GradcliError) and X.exc_class(e).is_subclass_of(
            X.CLASSES["AssertionError"]
        )
        (self.failures if failed else self.errors).append((_Described(test, desc), _traceback(e)))
        self.status("FAIL" if failed else "ERROR", "F" if failed else "E", desc if sub else None)
        if self.failfast:
            self.shouldStop = True

    def report(self, seconds: float) -> str:
        out = self.stream
        if self.verbosity > 0:
            out.append("\n")
        for flavour, entries in (("ERROR", self.errors), ("FAIL", self.failures)):
            for test, trace in entries:
                out.append(f"{_SEPARATOR1}\n{flavour}: {test.desc}\n{_SEPARATOR2}\n{trace}\n\n")
        if self.unexpectedSuccesses:
            out.append(_SEPARATOR1 + "\n")
            for test in self.unexpectedSuccesses:
                out.append(f"UNEXPECTED SUCCESS: {_describe(test)}\n")
        n = self.testsRun
        out.append(f"{_SEPARATOR2}\nRan {n} test{'s' if n != 1 else ''} in {seconds:.3f}s\n\n")
        infos = []
        if not self.wasSuccessful():
            out.append("FAILED")
            if self.failures:
                infos.append(f"failures={len(self.failures)}")
            if self.errors:
                infos.append(f"errors={len(self.errors)}")
        else:
            out.append("OK")
        if self.skipped:
            infos.append(f"skipped={len(self.skipped)}")
        if self.expectedFailures:
            infos.append(f"expected failures={len(self.expectedFailures)}")
        if self.unexpectedSuccesses:
            infos.append(f"unexpected successes={len(self.unexpectedSuccesses)}")
        out.append(f" ({', '.join(infos)})" if infos else "")
        return "".join(out)


class _Described(tuple):
    """A failed test as `result.failures` lists it: the test and its description."""

    __slots__ = ()

    def __new__(cls, test: Any, desc: str) -> _Described:
        return super().__new__(cls, (test, desc))

    @property
    def desc(self) -> str:
        return self[1]


class Skipped:
    """A test method under `@unittest.skip(reason)` (or a skipIf/skipUnless that holds), or
    `@unittest.expectedFailure` (reason None)."""

    __slots__ = ("fn", "reason")

    def __init__(self, fn: Any, reason: str | None):
        self.fn = fn
        self.reason = reason

    def __repr__(self) -> str:
        return repr(self.fn)


def _call_method(rt: Any, test: Instance, name: str) -> None:
    method = test.get(rt, name)
    if isinstance(method, Skipped):
        method = method.fn
        from .classes import class_value

        method = class_value(method, test, test.cls)
    rt.call(method, [], {}, rt.current_stmt)


class _Outcome:
    """Python's `_Outcome` of one test: whether it has run through, the expected failure."""

    __slots__ = ("success", "expecting", "expected")

    def __init__(self) -> None:
        self.success = True
        self.expecting = False
        self.expected: str | None = None


def _part(rt: Any, result: Result, test: Any, outcome: _Outcome, call: Any) -> None:
    """Python's `testPartExecutor`: run one part of a test (setUp, the method, tearDown, a
    cleanup); a skip, a failure or an error recorded, a non-catchable error raised on."""
    try:
        call()
    except (GradcliError, ProgramExit) as e:
        if isinstance(e, GradcliError) and not X.catchable(e):
            raise
        reason = _skip_reason(e)
        if reason is not None:
            outcome.success = False
            result.skipped.append((test, reason))
            result.status(f"skipped {reason!r}", "s")
        elif outcome.expecting:
            outcome.expected = _traceback(e)
        else:
            outcome.success = False
            result.record(test, e)


def _run_test(rt: Any, result: Result, test: Instance) -> None:
    """Python 3.11's `TestCase.run`: setUp, then (if it ran through) the method and tearDown,
    then the cleanups; a success, an expected failure or an unexpected success last."""
    result.start(test)
    name = test.attrs["_testMethodName"]
    entry = test.cls.lookup(name)
    if isinstance(entry, Skipped) and entry.reason is not None:
        result.skipped.append((test, entry.reason))
        result.status(f"skipped {entry.reason!r}", "s")
        return
    expecting = isinstance(entry, Skipped)
    outcome = _Outcome()
    _OUTCOMES.append(outcome)
    try:
        _part(rt, result, test, outcome, lambda: _call_method(rt, test, "setUp"))
        if outcome.success:
            outcome.expecting = expecting
            _part(rt, result, test, outcome, lambda: _call_method(rt, test, name))
            outcome.expecting = False
            _part(rt, result, test, outcome, lambda: _call_method(rt, test, "tearDown"))
        cleanups = test.attrs.get("_cleanups") or []
        while cleanups:
            fn, args, kwargs = cleanups.pop()
            _part(
                rt,
                result,
                test,
                outcome,
                lambda fn=fn, a=args, k=kwargs: rt.call(fn, list(a), k, None),
            )
    finally:
        _OUTCOMES.pop()
    if outcome.success:
        if not expecting:
            result.status("ok", ".")
        elif outcome.expected is not None:
            result.expectedFailures.append((test, outcome.expected))
            result.status("expected failure", "x")
        else:
            result.unexpectedSuccesses.append(test)
            result.status("unexpected success", "u")


# The outcomes of the tests running (a subTest's failure makes the innermost one fail).
_OUTCOMES: list[_Outcome] = []


def _class_fixture(rt: Any, cls: Any, name: str) -> None:
    value = cls.lookup(name)
    if isinstance(value, ClassMethod):
        rt.invoke(value.fn, [], {}, prefix=(cls,))
    elif isinstance(value, UserFunction) and value.static:
        rt.invoke(value, [], {})
    elif isinstance(value, UserFunction):
        raise GradcliError(f"{cls.name}.{name}() missing 1 required positional argument: 'self'")


class _ClassFailure:
    """`setUpClass (__main__.TestX)` as the report names a class fixture's error."""

    def __init__(self, desc: str):
        self.desc = desc


def run_tests(tests: list[Instance], verbosity: int = 1, failfast: bool = False) -> Result:
    """Run the tests in order, as Python's suite runs them (class fixtures when the class
    changes, module fixtures around them all)."""
    rt = current()
    result = Result(verbosity, failfast)
    _RUNNING.append(result)
    start = time.perf_counter()
    try:
        _run_all(rt, result, tests)
    finally:
        _RUNNING.pop()
    result.seconds = time.perf_counter() - start  # type: ignore[attr-defined]
    return result


def _fixture_error(result: Result, desc: str, e: BaseException) -> None:
    if isinstance(e, GradcliError) and not X.catchable(e):
        raise e
    result.errors.append((_Described(None, desc), _traceback(e)))  # type: ignore[arg-type]
    result.status("ERROR", "E", shown=desc)


def _run_all(rt: Any, result: Result, tests: list[Instance]) -> None:
    module_fn = rt.globals.get("setUpModule")
    if tests and isinstance(module_fn, UserFunction):
        try:
            rt.call(module_fn, [], {}, rt.current_stmt)
        except (GradcliError, ProgramExit) as e:
            _fixture_error(result, "setUpModule (__main__)", e)
            return
    current_cls: Any = None
    class_failed = False
    for test in tests:
        if result.shouldStop:
            break
        if test.cls is not current_cls:
            if current_cls is not None and not class_failed:
                _tear_down_class(rt, result, current_cls)
            current_cls = test.cls
            class_failed = False
            try:
                _class_fixture(rt, current_cls, "setUpClass")
            except (GradcliError, ProgramExit) as e:
                _fixture_error(result, f"setUpClass (__main__.{current_cls.name})", e)
                class_failed = True
        if class_failed:
            continue
        _run_test(rt, result, test)
    if current_cls is not None and not class_failed:
        _tear_down_class(rt, result, current_cls)
    module_fn = rt.globals.get("tearDownModule")
    if tests and isinstance(module_fn, UserFunction):
        try:
            rt.call(module_fn, [], {}, rt.current_stmt)
        except (GradcliError, ProgramExit) as e:
            _fixture_error(result, "tearDownModule (__main__)", e)


def _tear_down_class(rt: Any, result: Result, cls: Any) -> None:
    try:
        _class_fixture(rt, cls, "tearDownClass")
    except (GradcliError, ProgramExit) as e:
        _fixture_error(result, f"tearDownClass (__main__.{cls.name})", e)


def _make_test(rt: Any, cls: Any, name: str) -> Instance:
    test = Instance(cls)
    init = cls.lookup("__init__")
    if isinstance(init, NativeMethod):
        init.fn(test, name)
    else:
        rt.invoke(init, [name], {}, prefix=(test,))
    return test


def load_module_tests(rt: Any) -> list[Instance]:
    """Python's `loadTestsFromModule(__main__)`: each TestCase subclass among the module's
    names (in sorted order), each of its test methods (sorted), one instance each, all made
    before any runs."""
    tests: list[Instance] = []
    for name in sorted(rt.globals):
        value = rt.globals[name]
        if isinstance(value, PlainClass) and value.is_subclass_of(TEST_CASE):
            tests.extend(load_class_tests(rt, value))
    return tests


def load_class_tests(rt: Any, cls: Any) -> list[Instance]:
    if not (isinstance(cls, PlainClass) and cls.is_subclass_of(TEST_CASE)):
        raise GradcliError(
            "Test cases should not be derived from TestSuite. Maybe you meant to derive from "
            "TestCase?"
            if isinstance(cls, Suite)
            else "loadTestsFromTestCase() takes a TestCase subclass"
        ).mirror("TypeError")
    names = _test_names(cls)
    if not names and cls.lookup("runTest") is not None:
        names = ["runTest"]
    tests = []
    for n in names:
        limits.LIST_ITEMS.check(len(tests) + 1, "the number of tests")
        tests.append(_make_test(rt, cls, n))
    return tests


def _finish(result: Result, exit: Any) -> Any:
    """The report on standard error; the program ends as `sys.exit(not successful)` ends it."""
    rt = current()
    text = result.report(getattr(result, "seconds", 0.0))
    if truth(exit) and not result.wasSuccessful():
        failed = text.rpartition("\n")[2]
        error = GradcliError(
            f"the tests failed: {failed} (unittest.main() ends the program with exit status 1)",
            hint="the report of the tests is above",
        ).mirror(None)
        # written before the message, after the warnings and reports of the run so far
        error.preamble = "\n".join([*rt.warnings, text])  # type: ignore[attr-defined]
        raise error
    rt.warnings.append(text)
    if truth(exit):
        raise ProgramExit()
    return None


class TestProgram:
    """What `unittest.main(exit=False)` returns: `.result`."""

    PROGRAM_ATTRIBUTES = ("result",)

    def __init__(self, result: Result):
        self.result = result

    def program_typename(self) -> str:
        return "TestProgram"

    def __repr__(self) -> str:
        return "<unittest.main.TestProgram object>"


def main(
    module: Any = "__main__",
    defaultTest: Any = None,  # noqa: N803  (Python's names)
    argv: Any = None,
    testRunner: Any = None,  # noqa: N803
    testLoader: Any = None,  # noqa: N803
    exit: Any = True,  # noqa: A002
    verbosity: Any = 1,
    failfast: Any = None,
    catchbreak: Any = None,
    buffer: Any = None,
    warnings: Any = None,
    *,
    tb_locals: Any = False,
) -> Any:
    """`unittest.main()`: the module's tests run, the report on standard error."""
    if module != "__main__" or defaultTest is not None or testRunner is not None:
        raise NotSupported(
            "unittest.main() with module=, defaultTest= or testRunner= is not supported by gradcli",
            hint="unittest.main() runs every test of the program",
        )
    if testLoader is not None or catchbreak or buffer or tb_locals:
        raise NotSupported(
            "unittest.main() with testLoader=, catchbreak=, buffer= or tb_locals= is not "
            "supported by gradcli",
            hint="unittest.main(), or with argv=, exit=, verbosity=, failfast=",
        )
    if argv is not None:
        if not isinstance(argv, (list, tuple)) or len(argv) > 1:
            raise NotSupported(
                "command-line arguments for unittest.main() are not supported by gradcli",
                hint="argv=['ignored'] (its first item is the program's name) or none",
            )
    if type(verbosity) not in (int, bool):
        raise NotSupported("unittest.main(verbosity=) takes an int in gradcli")
    rt = current()
    tests = load_module_tests(rt)
    result = run_tests(tests, int(verbosity), bool(failfast))
    _finish(result, exit)
    return TestProgram(result)


class Suite:
    """`unittest.TestSuite()` / what `TestLoader().loadTestsFromTestCase(C)` gives: tests in
    order, run by `TextTestRunner().run(suite)`."""

    PROGRAM_ATTRIBUTES = ("addTest", "addTests", "countTestCases")

    def __init__(self, tests: Any = ()):
        self.tests: list[Instance] = []
        self.addTests(tests)

    def program_typename(self) -> str:
        return "TestSuite"

    def addTest(self, test: Any) -> None:  # noqa: N802  (Python's names)
        if isinstance(test, Suite):
            self.tests.extend(test.tests)
        elif isinstance(test, Instance) and test.cls.is_subclass_of(TEST_CASE):
            self.tests.append(test)
        else:
            raise GradcliError(f"{_repr(test)} is not callable").mirror("TypeError")
        limits.LIST_ITEMS.check(len(self.tests), "the number of tests")

    def addTests(self, tests: Any) -> None:  # noqa: N802
        if isinstance(tests, str):
            raise GradcliError("tests must be an iterable of tests, not a string").mirror(
                "TypeError"
            )
        from .values import iterate

        for t in iterate(tests, "addTests()"):
            self.addTest(t)

    def countTestCases(self) -> int:  # noqa: N802
        return len(self.tests)

    def __repr__(self) -> str:
        inner = ", ".join(
            f"<__main__.{t.cls.name} testMethod={t.attrs['_testMethodName']}>" for t in self.tests
        )
        return f"<unittest.suite.TestSuite tests=[{inner}]>"


class Loader:
    PROGRAM_ATTRIBUTES = ("loadTestsFromTestCase", "getTestCaseNames")

    def program_typename(self) -> str:
        return "TestLoader"

    def loadTestsFromTestCase(self, cls: Any) -> Suite:  # noqa: N802  (Python's names)
        suite = Suite()
        suite.tests = load_class_tests(current(), cls)
        return suite

    def getTestCaseNames(self, cls: Any) -> list[str]:  # noqa: N802
        return _test_names(cls)


class TextTestRunner:
    PROGRAM_ATTRIBUTES = ("run",)

    def __init__(
        self,
        stream: Any = None,
        descriptions: Any = True,
        verbosity: Any = 1,
        failfast: Any = False,
        buffer: Any = False,
        resultclass: Any = None,
        warnings: Any = None,
        *,
        tb_locals: Any = False,
    ):
        if stream is not None or buffer or resultclass is not None or tb_locals:
            raise NotSupported(
                "TextTestRunner with stream=, buffer=, resultclass= or tb_locals= is not "
                "supported by gradcli",
                hint="TextTestRunner(verbosity=2): its report goes to standard error",
            )
        self.verbosity = int(verbosity)
        self.failfast = bool(failfast)

    def program_typename(self) -> str:
        return "TextTestRunner"

    def run(self, test: Any) -> Result:
        if isinstance(test, Instance) and test.cls.is_subclass_of(TEST_CASE):
            test = Suite([test])
        if not isinstance(test, Suite):
            raise NotSupported("TextTestRunner.run takes a TestSuite or a TestCase in gradcli")
        result = run_tests(list(test.tests), self.verbosity, self.failfast)
        _finish(result, False)
        return result


def _skip(reason: Any) -> Any:
    if isinstance(reason, (UserFunction, Builtin)):
        raise NotSupported(
            "@unittest.skip without a reason is not supported by gradcli",
            hint="@unittest.skip('why')",
        )
    return Builtin("unittest.skip.<decorator>", lambda fn: _marked(fn, _str(reason)))


def _marked(fn: Any, reason: str | None) -> Any:
    if not isinstance(fn, UserFunction):
        raise NotSupported(
            "unittest's skip decorators are supported on test methods only by gradcli",
            hint="put @unittest.skip('why') on each test method",
        )
    return Skipped(fn, reason)


def _skip_if(condition: Any, reason: Any) -> Any:
    if truth(condition):
        return _skip(reason)
    return Builtin("unittest.skipIf.<decorator>", lambda fn: fn)


def _skip_unless(condition: Any, reason: Any) -> Any:
    if not truth(condition):
        return _skip(reason)
    return Builtin("unittest.skipUnless.<decorator>", lambda fn: fn)


TEST_CASE = LibraryClass("unittest.case", "TestCase", _methods())


def members() -> dict[str, Any]:
    """The `unittest` module's names a program uses."""
    return {
        "TestCase": TEST_CASE,
        "main": Builtin("unittest.main", main),
        "TestSuite": Builtin("unittest.TestSuite", Suite),
        "TestLoader": Builtin("unittest.TestLoader", Loader),
        "TextTestRunner": Builtin("unittest.TextTestRunner", TextTestRunner),
        "skip": Builtin("unittest.skip", _skip),
        "skipIf": Builtin("unittest.skipIf", _skip_if),
        "skipUnless": Builtin("unittest.skipUnless", _skip_unless),
        "expectedFailure": Builtin("unittest.expectedFailure", lambda fn: _marked(fn, None)),
        "SkipTest": X.CLASSES["SkipTest"],
    }
