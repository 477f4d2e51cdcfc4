"""Python's `bytes` values as programs use them: `b"..."` literals, `s.encode()` (the text
of a byte-level tokenizer, a hash's input), `b.decode()`, `len`, indexing (an int) and slicing
(bytes), iteration, `list(b)`, `b.hex()`, `bytes([...])`, `bytes.fromhex`, `+` and `*`,
comparisons and `in`, and the methods of bytes that read or split them, printed as Python
prints them (`b'caf\\xc3\\xa9'`).

A bytes value is Python's own immutable `bytes`; what can make a long one (`*`, `join`,
`replace`, `bytes(n)`, padding, `hex()`, `encode`) is bounded by the string limit before it
is made. Encodings are the text ones tutorials name (UTF-8/16/32, ASCII, Latin-1, cp1252);
errors= handlers Python's own ("strict", "ignore", "replace", ...). There is no bytearray
(a mutable buffer) and no hashlib: a program that needs a digest is told so."""

from __future__ import annotations

import ast
import codecs
from collections.abc import Callable
from typing import Any

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..core.tensor import typename

# The text encodings a program may name (codecs' canonical names), and the errors= handlers
_ENCODINGS = frozenset(
    {
        "utf-8",
        "utf-16",
        "utf-16-le",
        "utf-16-be",
        "utf-32",
        "utf-32-le",
        "utf-32-be",
        "ascii",
        "latin-1",
        "iso8859-1",
        "cp1252",
    }
)
_ERRORS = frozenset(
    {"strict", "ignore", "replace", "backslashreplace", "xmlcharrefreplace", "surrogateescape"}
)


def _chars(n: int) -> None:
    if n > limits.STRING_CHARS.value:
        limits.STRING_CHARS.check(n, "the length of the bytes")


def _mirrored(e: Exception) -> GradcliError:
    return GradcliError(str(e)).mirror(type(e).__name__)


def _encoding(encoding: Any, errors: Any, fn: str) -> tuple[str, str]:
    for what, v in (("encoding", encoding), ("errors", errors)):
        if not isinstance(v, str):
            raise GradcliError(f"{fn}() argument '{what}' must be str, not {typename(v)}").mirror(
                "TypeError"
            )
    try:
        info = codecs.lookup(encoding)
    except LookupError as e:
        raise _mirrored(e) from None
    if not getattr(info, "_is_text_encoding", True):  # (rot13, base64: Python's refusal)
        raise GradcliError(
            f"{encoding!r} is not a text encoding; use codecs.{fn}() to handle arbitrary codecs"
        ).mirror("LookupError")
    if info.name not in _ENCODINGS:
        raise NotSupported(
            f"the encoding {encoding!r} is not supported by gradcli",
            hint="use 'utf-8' (the default), 'ascii', 'latin-1', 'utf-16' or 'utf-32'",
        )
    if errors not in _ERRORS:
        raise NotSupported(
            f"errors={errors!r} is not supported by gradcli",
            hint=f"use one of {', '.join(sorted(_ERRORS))}",
        )
    return encoding, errors


def encode(s: str, encoding: Any = "utf-8", errors: Any = "strict") -> bytes:
    """`s.encode()` / `s.encode("utf-8")`: the bytes of the text."""
    encoding, errors = _encoding(encoding, errors, "encode")
    try:
        out = s.encode(encoding, errors)  # (at most 4 bytes a character and a mark)
    except (UnicodeError, ValueError) as e:
        raise _mirrored(e) from None
    _chars(len(out))
    return out


def decode(b: bytes, encoding: Any = "utf-8", errors: Any = "strict") -> str:
    """`b.decode()`: the text (a malformed byte is Python's UnicodeDecodeError)."""
    encoding, errors = _encoding(encoding, errors, "decode")
    _chars(len(b))
    try:
        out = b.decode(encoding, errors)
    except (UnicodeError, ValueError) as e:
        raise _mirrored(e) from None
    _chars(len(out))
    return out


_PLAIN = (bytes, int, float, complex, str, type(None))


def _arg(v: Any) -> Any:
    """An argument of a bytes method: one of Python's plain values, or a tuple of them
    (startswith), which Python's method checks in its words; any other object is refused
    before Python sees it."""
    if isinstance(v, _PLAIN):
        return v
    if type(v) is tuple and len(v) <= 1000 and all(isinstance(x, _PLAIN) for x in v):
        return v
    raise GradcliError(f"a bytes-like object is required, not '{typename(v)}'").mirror("TypeError")


def _plain(name: str, size: Callable[..., int] | None = None) -> Callable[..., Any]:
    """Python's bytes method `name` on checked arguments (`size`: the longest result, bounded
    first)."""

    def call(b: bytes, *args: Any, **kwargs: Any) -> Any:
        args = tuple(_arg(a) for a in args)
        kwargs = {k: _arg(v) for k, v in kwargs.items()}
        if size is not None:
            _chars(size(b, *args, **kwargs))
        try:
            return getattr(b, name)(*args, **kwargs)
        except (TypeError, ValueError, OverflowError) as e:
            raise _mirrored(e) from None

    call.__name__ = name
    return call


def _int(v: Any) -> int:
    return v if isinstance(v, int) else 0


def _replaced(b: bytes, old: Any = b"", new: Any = b"", count: Any = -1) -> int:
    if not isinstance(old, bytes) or not isinstance(new, bytes) or not isinstance(count, int):
        return 0  # (Python's TypeError follows)
    n = b.count(old) if old else len(b) + 1
    if count >= 0:
        n = min(n, count)
    return len(b) + n * max(len(new) - len(old), 0)


def _join(sep: bytes, items: Any) -> bytes:
    from .values import seq

    parts = seq(items, "bytes.join()")
    total = len(sep) * max(0, len(parts) - 1)
    for i, p in enumerate(parts):
        if not isinstance(p, bytes):
            raise GradcliError(
                f"sequence item {i}: expected a bytes-like object, {typename(p)} found"
            ).mirror("TypeError")
        total += len(p)
    _chars(total)
    return sep.join(parts)


def _hex(b: bytes, *args: Any) -> str:
    sep = args[0] if args else None
    if sep is not None and not isinstance(sep, (str, bytes)):
        raise GradcliError("sep must be str or bytes.").mirror("TypeError")
    if len(args) > 1 and not isinstance(args[1], int):
        raise GradcliError(
            f"'{typename(args[1])}' object cannot be interpreted as an integer"
        ).mirror("TypeError")
    try:
        out = b.hex(*args)  # (a separator is one character: at most 3 a byte)
    except (TypeError, ValueError) as e:
        raise _mirrored(e) from None
    _chars(len(out))
    return out


BYTES: dict[str, Callable[..., Any]] = {
    "decode": decode,
    "hex": _hex,
    "join": _join,
    "replace": _plain("replace", _replaced),
    "center": _plain("center", lambda b, w=0, *_: _int(w)),
    "ljust": _plain("ljust", lambda b, w=0, *_: _int(w)),
    "rjust": _plain("rjust", lambda b, w=0, *_: _int(w)),
    "zfill": _plain("zfill", lambda b, w=0, *_: _int(w)),
    "expandtabs": _plain(
        "expandtabs", lambda b, tabsize=8: len(b) + b.count(b"\t") * max(_int(tabsize), 0)
    ),
    **{
        name: _plain(name)
        for name in (
            "split rsplit splitlines strip lstrip rstrip startswith endswith find rfind index "
            "rindex count partition rpartition removeprefix removesuffix upper lower title "
            "capitalize swapcase isdigit isalpha isalnum isspace isupper islower istitle "
            "isascii"
        ).split()
    },
}


def fromhex(text: Any) -> bytes:
    """`bytes.fromhex("de ad")`."""
    if not isinstance(text, str):
        raise GradcliError(f"fromhex() argument must be str, not {typename(text)}").mirror(
            "TypeError"
        )
    try:
        return bytes.fromhex(text)
    except ValueError as e:
        raise _mirrored(e) from None


def make(source: Any = b"", encoding: Any = None, errors: Any = None) -> bytes:
    """`bytes(...)`: of a str with its encoding, of a count (zeros), of ints in range(256)
    (a list, a range, a tuple, another bytes value)."""
    if isinstance(source, str):
        if encoding is None:
            raise GradcliError("string argument without an encoding").mirror("TypeError")
        return encode(source, encoding, "strict" if errors is None else errors)
    if encoding is not None or errors is not None:
        what = "encoding" if encoding is not None else "errors"
        raise GradcliError(f"{what} without a string argument").mirror("TypeError")
    if isinstance(source, bytes):
        return source
    if isinstance(source, bool) or isinstance(source, int):
        if source < 0:
            raise GradcliError("negative count").mirror("ValueError")
        _chars(int(source))
        return bytes(int(source))
    if isinstance(source, (list, tuple, range)):
        from .values import seq

        items = seq(source, "bytes()")
        for v in items:
            if isinstance(v, bool) or not isinstance(v, int):
                raise GradcliError(
                    f"'{typename(v)}' object cannot be interpreted as an integer"
                ).mirror("TypeError")
            if not 0 <= v < 256:
                raise GradcliError("bytes must be in range(0, 256)").mirror("ValueError")
        return bytes(items)
    if source is None:
        raise GradcliError("cannot convert 'NoneType' object to bytes").mirror("TypeError")
    raise NotSupported(
        f"bytes() of a {typename(source)} is not supported by gradcli",
        hint="give a str with its encoding, a count, or a list of ints in range(256)",
    )


def binop(op: ast.operator, a: Any, b: Any) -> Any:
    """`b1 + b2`, `b * n`: sized first; the rest Python's TypeError in its words."""
    if isinstance(op, ast.Add) and isinstance(a, bytes) and isinstance(b, bytes):
        _chars(len(a) + len(b))
        return a + b
    if isinstance(op, ast.Mult):
        s, n = (a, b) if isinstance(a, bytes) else (b, a)
        if isinstance(n, int) and isinstance(s, bytes):
            _chars(len(s) * max(int(n), 0))
            return s * n
        if isinstance(s, bytes):
            raise GradcliError(
                f"can't multiply sequence by non-int of type '{typename(n)}'"
            ).mirror("TypeError")
    if isinstance(op, ast.Mod) and isinstance(a, bytes):
        raise NotSupported(
            "bytes % values is not supported by gradcli",
            hint="format a str (f-strings, %, format) and .encode() it",
        )
    if isinstance(op, ast.Add) and isinstance(a, bytes):
        raise GradcliError(f"can't concat {typename(b)} to bytes").mirror("TypeError")
    raise GradcliError(
        f"unsupported operand type(s) for {_SYMBOLS.get(type(op), '?')}: '{typename(a)}' and "
        f"'{typename(b)}'"
    ).mirror("TypeError")


_SYMBOLS = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "** or pow()",
    ast.MatMult: "@",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
}


def contains(container: bytes, item: Any) -> bool:
    """`x in b`: a bytes value (a substring) or an int (one byte)."""
    if isinstance(item, bool) or not isinstance(item, (bytes, int)):
        raise GradcliError(f"a bytes-like object is required, not '{typename(item)}'").mirror(
            "TypeError"
        )
    if isinstance(item, int) and not 0 <= item < 256:
        raise GradcliError("byte must be in range(0, 256)").mirror("ValueError")
    return item in container


def _byteorder(byteorder: Any) -> str:
    if not isinstance(byteorder, str):
        raise GradcliError(
            f"to_bytes() argument 'byteorder' must be str, not {typename(byteorder)}"
        ).mirror("TypeError")
    if byteorder not in ("big", "little"):
        raise GradcliError("byteorder must be either 'little' or 'big'").mirror("ValueError")
    return byteorder


def int_from_bytes(data: Any, byteorder: Any = "big", *, signed: Any = False) -> int:
    """`int.from_bytes(b, "big")`: the number, within the integer size limit."""
    if isinstance(data, (list, tuple)):
        data = make(data)
    if not isinstance(data, bytes):
        raise GradcliError(f"cannot convert '{typename(data)}' object to bytes").mirror("TypeError")
    limits.INT_BITS.check(8 * len(data.lstrip(b"\0")), "the size of an integer in bits")
    return int.from_bytes(data, _byteorder(byteorder), signed=bool(signed))


def int_to_bytes(v: int, length: Any = 1, byteorder: Any = "big", *, signed: Any = False) -> bytes:
    """`n.to_bytes(4, "little")`: its bytes, bounded by the string limit."""
    if isinstance(length, bool) or not isinstance(length, int):
        raise GradcliError(
            f"'{typename(length)}' object cannot be interpreted as an integer"
        ).mirror("TypeError")
    if length < 0:
        raise GradcliError("length argument must be non-negative").mirror("ValueError")
    _chars(length)
    try:
        return int(v).to_bytes(length, _byteorder(byteorder), signed=bool(signed))
    except OverflowError as e:
        raise _mirrored(e) from None
