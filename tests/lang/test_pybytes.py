"""bytes values (`lang.pybytes`), against Python itself: each expression prints what Python
prints, or fails with Python's class of error and words (the corpus has them in a program,
1934; the limits are in the hostile corpus)."""

from __future__ import annotations

from tests.helpers.programs import out, python_out

EXPRESSIONS = [
    "'naïve'.encode()",
    "'naïve'.encode('latin-1')",
    "'ab'.encode('utf-16')",
    "'é'.encode('ascii', 'replace')",
    "'é'.encode('ascii')",
    "b'caf\\xc3\\xa9'.decode()",
    "b'\\xff\\xfe'.decode('utf-8', errors='ignore')",
    "b'\\xff'.decode()",
    "b'abc'.decode('rot13')",
    "b'hello'[1], b'hello'[-2:], b'hello'[::2]",
    "b'ab'[5]",
    "list(b'ab'), tuple(b'xy'), sorted(b'cba'), sum(b'ab')",
    "b'a,b,,c'.split(b','), b' x '.strip(), b'abc'.upper()",
    "b'abc'.find(b'c'), b'abc'.find(99), b'abc'.count(b''), b'abc'.startswith((b'x', b'a'))",
    "b'abc'.find('c')",
    "b'a-b'.replace(b'-', b'+'), b'-'.join([b'a', b'b']), b'ab'.center(6, b'*')",
    "b'-'.join([b'a', 'b'])",
    "b'ab' + b'cd', b'ab' * 3, 2 * b'x', b'ab' < b'b', b'a' == 'a'",
    "b'ab' + 'cd'",
    "b'ab' * 2.0",
    "b'ab' - b'a'",
    "97 in b'abc', b'bc' in b'abc'",
    "'a' in b'abc'",
    "300 in b'abc'",
    "bytes(3), bytes([1, 2]), bytes('hé', 'utf-8'), bytes(range(3)), bytes()",
    "bytes([256])",
    "bytes('x')",
    "bytes(-1)",
    "bytes.fromhex('de ad'), b'\\x01\\xff'.hex(), b'abc'.hex(':'), b'abcd'.hex('-', 2)",
    "bytes.fromhex('zz')",
    "int.from_bytes(b'\\x01\\x00', 'little'), int.from_bytes(b'\\xff', 'big', signed=True)",
    "(258).to_bytes(2, 'big'), (-1).to_bytes(1, 'big', signed=True)",
    "(256).to_bytes(1, 'big')",
    "(1).to_bytes(1, 'middle')",
    "str(b'abc'), repr(b\"a'b\"), str(b'x', 'ascii'), f'{b\"q\"!r}', '%s' % b'z'",
    "str('x', 'utf-8')",
    "{b'k': 1}[b'k'], isinstance(b'', bytes), type(b'').__name__, len(b'abc'), bool(b'')",
    "bytes.decode(b'hi'), bytes.upper(b'hi')",
]


def test_bytes_expressions_answer_as_python() -> None:
    # (one program for all: each expression in its own try, as a program would write it)
    code = "".join(
        f"try:\n    print({expression})\n"
        "except (TypeError, ValueError, IndexError, LookupError, OverflowError) as e:\n"
        "    print(type(e).__name__, e)\n"
        for expression in EXPRESSIONS
    )
    code += "for i, c in enumerate(b'ok'):\n    print(i, c, chr(c))\n"
    assert out(code) == python_out(code)
